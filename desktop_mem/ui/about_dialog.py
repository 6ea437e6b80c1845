"""Memories › About you: what the model knows about you, the short profile given in every
chat. Each line shows the memories it came from (a click opens one); the user edits a
line (kept as written), removes one (it does not come back), turns it off, or has it
rewritten now. The core announces every change (a memory forgotten takes its lines
with it), and the dialog reads the lines again when it hears of one."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop_mem.core.memory.about import MAX_LINE, AboutLine
from desktop_mem.ui import tasks
from desktop_mem.ui.context import Context

ID_ROLE = Qt.ItemDataRole.UserRole + 1
CITE_CHARS = 40  # of a cited memory's text, in the line's "from" links


def _short(text: str, limit: int) -> str:
    one = " ".join(text.split())
    return one if len(one) <= limit else one[: limit - 1] + "…"


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class LineRow(QWidget):
    """One line: its words (marked when they are the user's), then what it came from."""

    memory_clicked = Signal(int)

    def __init__(self, line: AboutLine, cited: dict[int, str], parent: QWidget | None = None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.setSpacing(2)
        self.text = QLabel(line.text)
        self.text.setWordWrap(True)
        self.text.setTextFormat(Qt.TextFormat.PlainText)
        layout.addWidget(self.text)
        links = ", ".join(
            f'<a href="memory:{m}">{_escape(_short(cited.get(m, "#" + str(m)), CITE_CHARS))}</a>'
            for m in line.cites
        )
        where = (
            self.tr("In your words. From: %1") if line.edited else self.tr("From: %1")
        ).replace("%1", links)
        self.cites = QLabel(where)
        self.cites.setObjectName("aboutCites")
        self.cites.setWordWrap(True)
        self.cites.setTextFormat(Qt.TextFormat.RichText)
        self.cites.setTextInteractionFlags(Qt.TextInteractionFlag.LinksAccessibleByMouse
                                           | Qt.TextInteractionFlag.LinksAccessibleByKeyboard)  # fmt: skip
        self.cites.linkActivated.connect(lambda href: self.memory_clicked.emit(int(href[7:])))
        layout.addWidget(self.cites)


class AboutDialog(QDialog):
    def __init__(self, context: Context, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = context
        self.app = context.app
        self.setWindowTitle(self.tr("About you"))
        self.resize(640, 520)
        layout = QVBoxLayout(self)
        intro = QLabel(
            self.tr(
                "What the model knows about you: a few lines given in every chat, written "
                "from your memories while you are away. Each line shows the memories it "
                "came from; forgetting one of them removes the line at once."
            )
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.enabled = QCheckBox(
            self.tr("Give this to the model in every chat and keep it up to date")
        )
        self.enabled.toggled.connect(self.set_enabled)
        layout.addWidget(self.enabled)
        self.items = QListWidget()
        self.items.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.items.setVerticalScrollMode(QListWidget.ScrollMode.ScrollPerPixel)
        self.items.itemDoubleClicked.connect(lambda _: self.edit())
        self.items.currentItemChanged.connect(lambda *_: self._update_buttons())
        layout.addWidget(self.items, 1)
        self.empty = QLabel()
        self.empty.setWordWrap(True)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setObjectName("emptyState")
        layout.addWidget(self.empty, 1)
        self.status = QLabel()
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        row = QHBoxLayout()
        self.edit_button = QPushButton(self.tr("Edit line…"))
        self.edit_button.clicked.connect(self.edit)
        self.remove_button = QPushButton(self.tr("Remove line"))
        self.remove_button.clicked.connect(self.remove)
        self.rewrite_button = QPushButton(self.tr("Rewrite now"))
        self.rewrite_button.setToolTip(
            self.tr("Write it again from your memories now (your own lines stay as they are)")
        )
        self.rewrite_button.clicked.connect(self.rewrite)
        row.addWidget(self.edit_button)
        row.addWidget(self.remove_button)
        row.addStretch(1)
        row.addWidget(self.rewrite_button)
        layout.addLayout(row)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        layout.addWidget(close)
        self.editor: QInputDialog | None = None
        self.rewriting = False
        self.notice = ""  # what the last action did (else the profile's size)
        self.lines: list[AboutLine] = []
        context.core.about_changed.connect(self.refresh)
        context.core.memories_changed.connect(self.refresh)
        context.core.setting_changed.connect(
            lambda key: self.refresh() if key == "about_you" else None
        )
        self.refresh()

    # -- reading ---------------------------------------------------------------------

    def refresh(self) -> None:
        current = self.current_line()
        self.lines = self.app.about.lines()
        cited_ids = sorted({m for ln in self.lines for m in ln.cites})
        cited = {m.id: m.text for m in self.app.memories.get_many(cited_ids)}
        self.items.clear()
        for line in self.lines:
            item = QListWidgetItem()
            item.setData(ID_ROLE, line.id)
            row = LineRow(line, cited)
            row.memory_clicked.connect(self.show_memory)
            item.setSizeHint(row.sizeHint())
            self.items.addItem(item)
            self.items.setItemWidget(item, row)
            if line.id == current:
                self.items.setCurrentItem(item)
        self._fit_rows()
        on = self.app.about.enabled
        self.enabled.blockSignals(True)
        self.enabled.setChecked(on)
        self.enabled.blockSignals(False)
        self.items.setVisible(bool(self.lines))
        self.empty.setVisible(not self.lines)
        self.empty.setText(self._empty_text(on))
        self.items.setEnabled(on)
        self.status.setText(self.notice or self._size_text(on))
        self._update_buttons()

    def _empty_text(self, on: bool) -> str:
        if not on:
            return self.tr(
                "Turned off: the model is not given this, and it is not written. Tick the "
                "box above to turn it on."
            )
        if not self.app.memories.count():
            return self.tr(
                "Nothing yet. Once you have told the assistant about yourself, a short "
                "profile is written here from what it remembers."
            )
        return self.tr(
            "Nothing yet. It is written from your memories the next time you are away for a "
            "few minutes, or now with Rewrite now."
        )

    def say(self, text: str) -> None:
        """What the last action did, kept in the status line until the next one."""
        self.notice = text
        self.status.setText(text)

    def _size_text(self, on: bool) -> str:
        if not on:
            return self.tr("Turned off: not given to the model.")
        if not self.lines:
            return ""
        return self.tr("%n line(s), given in every chat.", "", len(self.lines))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_rows()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._fit_rows()

    def _fit_rows(self) -> None:
        """Each row as tall as its wrapped text at the list's width, no taller."""
        width = self.items.viewport().width()
        for i in range(self.items.count()):
            item = self.items.item(i)
            row = self.items.itemWidget(item)
            if row is None:
                continue
            row.setFixedWidth(width)
            layout = row.layout()
            height = (
                layout.totalHeightForWidth(width)
                if layout is not None and layout.hasHeightForWidth()
                else row.sizeHint().height()
            )
            item.setSizeHint(QSize(width, height))

    def current_line(self) -> int | None:
        item = self.items.currentItem()
        return int(item.data(ID_ROLE)) if item is not None else None

    def _update_buttons(self) -> None:
        on = self.app.about.enabled
        chosen = self.current_line() is not None
        self.edit_button.setEnabled(on and chosen and not self.rewriting)
        self.remove_button.setEnabled(chosen and not self.rewriting)
        self.rewrite_button.setEnabled(on and not self.rewriting and self.app.memories.count() > 0)

    def show_memory(self, memory_id: int) -> None:
        self.ctx.hub.page_requested.emit("memories")
        self.ctx.hub.memory_requested.emit(memory_id)

    # -- changing --------------------------------------------------------------------

    def set_enabled(self, on: bool) -> None:
        self.app.about.set_enabled(on)  # announced (SettingChanged): the list follows it
        self.say(
            self.tr("On: the model is given this in every chat.")
            if on
            else self.tr("Turned off: not given to the model.")
        )

    def edit(self) -> None:
        line_id = self.current_line()
        if line_id is None:
            return
        line = next(ln for ln in self.lines if ln.id == line_id)
        editor = self.editor = QInputDialog(self)
        editor.setWindowTitle(self.tr("Edit line"))
        editor.setLabelText(
            self.tr("In your own words (kept exactly as you write it, never rewritten):")
        )
        editor.setTextValue(line.text)
        editor.setInputMode(QInputDialog.InputMode.TextInput)
        editor.resize(520, editor.sizeHint().height())
        editor.textValueSelected.connect(lambda text: self.save(line_id, text))
        editor.open()

    def save(self, line_id: int, text: str) -> None:
        if len(" ".join(text.split())) > MAX_LINE:
            self.say(self.tr("That line is too long: keep it to one short sentence."))
            return
        try:
            self.app.about.edit(line_id, text)
        except Exception as exc:  # noqa: BLE001 - worded below, nothing lost
            self.say(tasks.describe_exception(exc, str(exc)))
            return
        self.say(self.tr("Saved in your words: a rewrite keeps it as it is."))

    def remove(self) -> None:
        line_id = self.current_line()
        if line_id is None:
            return
        try:
            self.app.about.remove(line_id)
        except Exception as exc:  # noqa: BLE001 - worded below
            self.say(tasks.describe_exception(exc, str(exc)))
            return
        self.say(self.tr("Removed: it does not come back when this is rewritten."))

    def rewrite(self) -> None:
        self.rewriting = True
        self._update_buttons()
        self.say(self.tr("Writing it from your memories… this takes the model a moment."))
        tasks.run(self.app.about.rewrite, done=self.rewritten, failed=self.rewrite_failed)

    def rewritten(self, done: object) -> None:
        """The lines are shown again as the store announces them (about_changed)."""
        self.rewriting = False
        self._update_buttons()
        self.say(self.tr("Rewritten: %n line(s).", "", len(self.app.about.lines())))

    def rewrite_failed(self, text: str) -> None:
        self.rewriting = False
        self._update_buttons()
        self.say(self.tr("Not rewritten; nothing was changed.") + " " + text)
