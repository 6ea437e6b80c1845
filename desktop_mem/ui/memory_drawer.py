"""The drawer beside the memory list: the selected memory's text (editable), kind,
importance and end date, Save / Pin / Delete always in view under them, and below, in
a part of its own that scrolls when the window is small, where it came from, the
answers it shaped, the other apps that used it and its history with restore. With
nothing selected it says what it is for, with no scroll bar."""

from __future__ import annotations

import html
import math

from PySide6.QtCore import QCoreApplication, QDate, QRect, QSize, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QStackedWidget,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from desktop_mem.core import textproc
from desktop_mem.core.memory.records import KINDS, Memory, Version
from desktop_mem.ui.focus import DateField
from desktop_mem.ui.item_models import ID_ROLE, kind_label, source_label
from desktop_mem.ui.memory_cards import care_label, wrapped_lines


def action_label(action: str) -> str:
    """A history row's action in the interface's language ("merged into #12" keeps its
    number)."""
    words = {
        "created": QCoreApplication.translate("MemoryBrowser", "created"),
        "edited": QCoreApplication.translate("MemoryBrowser", "edited"),
        "updated": QCoreApplication.translate("MemoryBrowser", "updated"),
        "restored": QCoreApplication.translate("MemoryBrowser", "restored"),
        "pinned": QCoreApplication.translate("MemoryBrowser", "pinned"),
        "unpinned": QCoreApplication.translate("MemoryBrowser", "unpinned"),
        "always given": QCoreApplication.translate("MemoryBrowser", "given in every chat"),
        "not always given": QCoreApplication.translate("MemoryBrowser", "given only when found"),
        "invalidated": QCoreApplication.translate("MemoryBrowser", "marked no longer true"),
        "moved": QCoreApplication.translate("MemoryBrowser", "moved to another space"),
    }
    if action in words:
        return words[action]
    for prefix, label in (
        ("wants to change #", QCoreApplication.translate("MemoryBrowser", "wants to change #%1")),
        ("merged into #", QCoreApplication.translate("MemoryBrowser", "merged into #%1")),
        ("contradicted by #", QCoreApplication.translate("MemoryBrowser", "contradicted by #%1")),
    ):
        if action.startswith(prefix):
            return label.replace("%1", action[len(prefix) :])
    return action


TEXT_MARGINS = 16  # pixels of a row's width the style does not draw text in, at most


class WrappedList(QListWidget):
    """A short list whose rows wrap (no sideways scrolling) and which is as tall as its
    rows, up to `most` pixels."""

    def __init__(self, most: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.most = most
        self.setWordWrap(True)
        self.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.setUniformItemSizes(False)

    def needed(self, row: int, width: int) -> int:
        """The height the row's text needs wrapped at `width`: what the view's delegate
        measures, or the text's own lines, each as tall as its fonts make it, wrapped a
        little narrower than the row (the margins the style draws text within), whichever
        is more. The delegate measures every line in the list's font, and a line with
        Chinese in it is drawn in a taller fallback font."""
        option = QStyleOptionViewItem()
        self.initViewItemOption(option)
        option.rect = QRect(0, 0, width, 10_000)
        option.features |= QStyleOptionViewItem.ViewItemFeature.WrapText
        hint = self.itemDelegate().sizeHint(option, self.model().index(row, 0)).height()
        lines = wrapped_lines(self.item(row).text(), self.font(), max(20, width - TEXT_MARGINS))
        return max(hint, math.ceil(sum(height for _, height in lines)) + 6)

    def fit(self) -> None:
        """Each row as tall as its text wrapped at the list's width, and the list as
        tall as its rows, up to `most`. The rows' heights are given: a row the view
        measures too short is drawn on one line, cut off at the edge ("v1 · … ·
        创建（你）： Works as a nurse at…")."""
        width = max(60, self.viewport().width())
        rows = 0
        for r in range(self.count()):
            item = self.item(r)
            height = self.needed(r, width)
            if item.sizeHint() != QSize(width, height):
                item.setSizeHint(QSize(width, height))
            rows += height
        self.setFixedHeight(max(28, min(self.most, rows + 2 * self.frameWidth() + 2)))

    def resizeEvent(self, event: object) -> None:
        super().resizeEvent(event)  # type: ignore[arg-type]
        self.fit()


class MemoryDrawer(QWidget):
    save_requested = Signal(int, str, str, float, str)  # id, text, kind, importance, until
    pin_requested = Signal(int, bool)
    always_requested = Signal(int, bool)  # give it in every chat, or only when found
    delete_requested = Signal()  # the memories selected in the list
    restore_requested = Signal(int, int)  # memory id, version
    message_requested = Signal(int)  # open the conversation holding this message

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        details = QWidget()
        column = QVBoxLayout(details)
        column.setContentsMargins(0, 0, 0, 0)
        fields = QFormLayout()
        self.text = QPlainTextEdit()
        self.text.setTabChangesFocus(True)  # Tab moves on; the text is one sentence
        self.text.setMaximumHeight(90)
        fields.addRow(self.tr("Text"), self.text)
        self.kind = QComboBox()
        for k in KINDS:
            self.kind.addItem(kind_label(self, k), k)
        fields.addRow(self.tr("Kind"), self.kind)
        self.importance = QDoubleSpinBox()
        self.importance.setRange(0.0, 1.0)
        self.importance.setSingleStep(0.1)
        fields.addRow(self.tr("Importance"), self.importance)
        until_row = QHBoxLayout()
        self.has_until = QCheckBox(self.tr("True until"))
        self.until = DateField()  # Tab leaves it at once
        self.until.setCalendarPopup(True)
        self.until.setDisplayFormat("yyyy-MM-dd")  # as the list shows dates, in any locale
        self.until.setDate(QDate.currentDate().addMonths(1))
        self.until.setEnabled(False)
        self.has_until.toggled.connect(self.until.setEnabled)
        until_row.addWidget(self.has_until)
        until_row.addWidget(self.until)
        until_row.addStretch(1)
        fields.addRow(self.tr("Valid"), until_row)
        self.always = QCheckBox(self.tr("Given in every chat"))
        self.always.setToolTip(
            self.tr("What is about your health or safety (an allergy, a medication, a diet, "
                    "an accessibility need) is given in every chat, whatever you ask; "
                    "anything else only when it is relevant.")
        )  # fmt: skip
        self.always.clicked.connect(self._always)
        self.always_why = QLabel()
        self.always_why.setObjectName("notice")
        self.always_why.setWordWrap(True)
        always_box = QVBoxLayout()
        always_box.setContentsMargins(0, 0, 0, 0)
        always_box.addWidget(self.always)
        always_box.addWidget(self.always_why)
        fields.addRow(self.tr("Always"), always_box)
        # the browser gives it its menu: the spaces, for the memories selected
        self.move_button = QPushButton(self.tr("Move to space"))
        self.move_button.setToolTip(self.tr("Move the selected memories to another space, or "
                                            "make them shared, with their history"))  # fmt: skip
        self.space = QLabel()  # the space it is in (shown while the profile has others)
        self.space.setWordWrap(True)
        self.space_label = QLabel(self.tr("Space"))
        space_row = QHBoxLayout()
        space_row.setContentsMargins(0, 0, 0, 0)
        space_row.addWidget(self.space, 1)
        space_row.addWidget(self.move_button, 0, Qt.AlignmentFlag.AlignTop)
        fields.addRow(self.space_label, space_row)
        self.fields = fields
        column.addLayout(fields)
        buttons = QHBoxLayout()
        self.save_button = QPushButton(self.tr("Save"))
        self.save_button.clicked.connect(self._save)
        self.pin_button = QPushButton(self.tr("Pin"))
        self.pin_button.clicked.connect(self._pin)
        self.delete_button = QPushButton(self.tr("Delete…"))
        self.delete_button.clicked.connect(self.delete_requested)
        for b in (self.save_button, self.pin_button, self.delete_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        column.addLayout(buttons)

        # what the memory did and was: scrolls on its own when the window is small
        info = QWidget()
        below = QVBoxLayout(info)
        below.setContentsMargins(0, 4, 4, 0)
        below.addWidget(self._heading(self.tr("Came from")))
        self.origin = QLabel()
        self.origin.setWordWrap(True)
        self.origin.setTextInteractionFlags(Qt.TextInteractionFlag.LinksAccessibleByMouse)
        self.origin.linkActivated.connect(lambda link: self.message_requested.emit(int(link)))
        below.addWidget(self.origin)
        self.computer = QLabel()  # "from laptop": made on another synced computer
        self.computer.setObjectName("notice")
        self.computer.hide()
        below.addWidget(self.computer)
        below.addWidget(self._heading(self.tr("Answers it shaped")))
        self.impact = WrappedList(140)
        self.impact.itemActivated.connect(self._answer_activated)
        below.addWidget(self.impact)
        self.apps = QLabel()  # which other apps (MCP clients) read or wrote it, and when
        self.apps.setObjectName("notice")
        self.apps.setWordWrap(True)
        below.addWidget(self.apps)
        # what apps wanted to change it to: they never change a memory they did not write,
        # so their statement is a memory of theirs, shown here
        self.proposed = QLabel()
        self.proposed.setObjectName("notice")
        self.proposed.setWordWrap(True)
        self.proposed.setTextFormat(Qt.TextFormat.PlainText)
        below.addWidget(self.proposed)
        below.addWidget(self._heading(self.tr("History")))
        self.edited_on_both = QLabel(  # a synced memory edited on two computers at once
            self.tr("Edited on two computers at once: the other version is in its history.")
        )
        self.edited_on_both.setObjectName("notice")
        self.edited_on_both.setWordWrap(True)
        self.edited_on_both.hide()
        below.addWidget(self.edited_on_both)
        self.history = WrappedList(180)
        self.history.itemActivated.connect(self._history_activated)
        self.history.currentRowChanged.connect(self._version_chosen)
        below.addWidget(self.history)
        restore_row = QHBoxLayout()
        self.restore_button = QPushButton(self.tr("Restore this version"))
        self.restore_button.clicked.connect(self._restore)
        restore_row.addWidget(self.restore_button)
        restore_row.addStretch(1)
        below.addLayout(restore_row)
        below.addStretch(1)  # spare height below the details, not between their rows
        self.info = QScrollArea()
        self.info.setWidget(info)
        self.info.setWidgetResizable(True)
        self.info.setFrameShape(QFrame.Shape.NoFrame)
        self.info.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab stops on what it holds
        self.info.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        column.addWidget(self.info, 1)

        self.placeholder = QLabel(
            self.tr("Select a memory to see where it came from, the answers it shaped and its "
                    "history, or to edit it.")
        )  # fmt: skip
        self.placeholder.setObjectName("empty")
        self.placeholder.setWordWrap(True)
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.pages = QStackedWidget()
        self.pages.addWidget(self.placeholder)
        self.pages.addWidget(details)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.pages)
        self.current: Memory | None = None
        self._versions: list[Version] = []
        # the spaces by id, the shared one's (None) too: empty while there is none
        self.space_names: dict[int | None, str] = {}

    @staticmethod
    def _heading(text: str) -> QLabel:
        label = QLabel(text)
        label.setObjectName("heading")
        return label

    def show_details(
        self,
        memory: Memory | None,
        versions: list[Version],
        answers: list[tuple[int, str]],
        origin: tuple[int, str] | None = None,
        apps: list[tuple[str, str]] | None = None,
        selected: int = 0,
        proposals: list[Memory] | None = None,
        computer: str | None = None,
        made_on: list[str | None] | None = None,
        edited_on_both: bool = False,
    ) -> None:
        """`computer`: "from laptop" when it was made on another synced computer;
        `made_on`: for each version, the other synced computer it was made on;
        `edited_on_both`: two computers changed it at once (both versions kept)."""
        self.current = memory
        self._made_on = made_on or []
        self.pages.setCurrentIndex(0 if memory is None else 1)
        self.proposed.setText(
            "\n".join(
                self.tr("%1 wants to change this to: “%2” (its own memory %3)")
                .replace("%1", source_label(self, p.source))
                .replace("%2", textproc.shorten(p.text, 200))
                .replace("%3", str(p.id))
                for p in proposals or []
            )
        )
        self.proposed.setVisible(bool(proposals))
        self.apps.setText(
            self.tr("Used by other apps: %1").replace(
                "%1", "; ".join(f"{name} ({when[:16].replace('T', ' ')})" for name, when in apps)
            )
            if apps
            else ""
        )
        self.apps.setVisible(bool(apps))
        self._versions = versions
        for w in (self.save_button, self.pin_button, self.restore_button):
            w.setEnabled(memory is not None)
        self.set_selected(selected)
        self.text.setPlainText(memory.text if memory else "")
        if memory is None:
            self.importance.setValue(0.5)  # a new memory's default, not 0.00
        until = memory.valid_until if memory else None
        self.has_until.setChecked(bool(until))
        if until:
            self.until.setDate(QDate.fromString(until[:10], "yyyy-MM-dd"))
        if memory:
            self.kind.setCurrentIndex(max(0, self.kind.findData(memory.kind)))
            self.importance.setValue(memory.importance)
            self.pin_button.setText(self.tr("Unpin") if memory.pinned else self.tr("Pin"))
        self.always.setEnabled(memory is not None)
        spaced = len(self.space_names) > 1
        self.space.setText(self._space_of(memory.space if memory else None))
        self.fields.setRowVisible(self.space_label, spaced)
        self.move_button.setVisible(spaced)
        self.always.setChecked(bool(memory and memory.always))
        why = self._always_why(memory)
        self.always_why.setText(why)
        self.always_why.setVisible(bool(why))
        if memory is None:
            self.origin.setText("")
        elif origin:  # the message it was learned from
            said = textproc.shorten(textproc.plain_text(origin[1]), 120)
            self.origin.setText(f'<a href="{origin[0]}">{html.escape(said)}</a>')
            self.origin.setToolTip(source_label(self, memory.source))
        else:
            self.origin.setText(source_label(self, memory.source))
        self.computer.setText(computer or "")
        self.computer.setVisible(bool(computer))
        self.edited_on_both.setVisible(memory is not None and edited_on_both)
        self.impact.clear()
        for message_id, text in answers:
            preview = textproc.shorten(textproc.plain_text(text), 160)  # answers are Markdown
            item = QListWidgetItem(preview or self.tr("(empty answer)"))
            item.setToolTip(textproc.shorten(textproc.plain_text(text), 600))
            item.setData(ID_ROLE, message_id)
            self.impact.addItem(item)
        if memory is not None and not answers:
            self.impact.addItem(self.tr("No answer has used it yet."))
        self.impact.fit()
        self.history.clear()
        for n, v in enumerate(versions):
            on = self._made_on[n] if n < len(self._made_on) else None
            item = QListWidgetItem(self._version_line(v, on))
            item.setToolTip(v.text)
            if v.message_id:
                item.setData(ID_ROLE, v.message_id)
            self.history.addItem(item)
        self.history.fit()
        if versions:
            self.history.setCurrentRow(len(versions) - 1)
        self._version_chosen(self.history.currentRow())

    def _version_line(self, v: Version, made_on: str | None = None) -> str:
        until = self.tr(", until %1").replace("%1", v.valid_until[:10]) if v.valid_until else ""
        origin = (
            self.tr(", from message %1").replace("%1", str(v.message_id)) if v.message_id else ""
        )
        if made_on:  # another synced computer's version
            origin += self.tr(", on %1").replace("%1", made_on)
        # one string, so that Chinese has its own brackets and colon: "更新（你）：…"
        action = self._moved(v) if v.action == "moved" else action_label(v.action)
        row = (
            self.tr("%1 (%2%3)%4: %5")
            .replace("%1", action)
            .replace("%2", source_label(self, v.actor))
            .replace("%3", origin)
            .replace("%4", until)
        )
        when = v.changed_at[:16].replace("T", " ")
        return f"v{v.version} · {when} · " + row.replace("%5", " ".join(v.text.split())[:100])

    def _space_of(self, space: int | None) -> str:
        if space is None:
            return self.tr("Shared: every space that sees shared memories is given it")
        return self.space_names.get(space) or self.tr("(a removed space)")

    def _moved(self, v: Version) -> str:
        """A move between spaces, as the history says it: where it went."""
        if v.space is None:
            return self.tr("made shared")
        return self.tr("moved to %1").replace(
            "%1", self.space_names.get(v.space) or self.tr("a removed space")
        )

    def set_selected(self, count: int) -> None:
        """How many memories are selected in the list: Delete… and Move act on all of
        them."""
        self.delete_button.setEnabled(bool(count))
        self.move_button.setEnabled(bool(count))

    def _save(self) -> None:
        if self.current is not None:
            self.save_requested.emit(
                self.current.id,
                self.text.toPlainText().strip(),
                self.kind.currentData(),
                float(self.importance.value()),
                self.until.date().toString("yyyy-MM-dd") if self.has_until.isChecked() else "",
            )

    def _always_why(self, memory: Memory | None) -> str:
        if memory is None or memory.care in (None, "asked"):
            return ""
        if memory.always:
            return self.tr("Given in every chat: it is about your %1.").replace(
                "%1", care_label(memory.care)
            )
        return self.tr("It is about your %1, but you chose to give it only when it is "
                       "relevant.").replace("%1", care_label(memory.care))  # fmt: skip

    def _always(self, checked: bool) -> None:
        if self.current is not None:
            self.always_requested.emit(self.current.id, checked)

    def _pin(self) -> None:
        if self.current is not None:
            self.pin_requested.emit(self.current.id, not self.current.pinned)

    def _version_chosen(self, row: int) -> None:
        """Choosing an old version previews it; Restore is for old versions only."""
        old = 0 <= row < len(self._versions) - 1
        self.restore_button.setEnabled(self.current is not None and old)
        if self.current is not None and 0 <= row < len(self._versions):
            self.text.blockSignals(True)
            self.text.setPlainText(self._versions[row].text)
            self.text.blockSignals(False)

    def _answer_activated(self, item: QListWidgetItem) -> None:
        message_id = item.data(ID_ROLE)
        if message_id:
            self.message_requested.emit(int(message_id))

    def _history_activated(self, item: QListWidgetItem) -> None:
        message_id = item.data(ID_ROLE)
        if message_id:
            self.message_requested.emit(int(message_id))

    def _restore(self) -> None:
        row = self.history.currentRow()
        if self.current is not None and 0 <= row < len(self._versions):
            self.restore_requested.emit(self.current.id, self._versions[row].version)
