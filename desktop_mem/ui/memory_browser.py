"""The memory browser: every memory as a card with its full text, sortable, instant hybrid
search, filters, and for the selected memory a drawer with its text (editable), where it
came from, the answers it shaped and its history with restore. New memories are written
in a dialog of their own."""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import QCoreApplication, QDate, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDateEdit,
    QDoubleSpinBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from desktop_mem.core import textproc
from desktop_mem.core.memory.store import KINDS, Memory, Version
from desktop_mem.ui.memory_cards import MemoryCardDelegate
from desktop_mem.ui.models import ID_ROLE, MemoryTableModel, kind_label, source_label
from desktop_mem.ui.new_memory_dialog import NewMemoryDialog

SEARCH_DELAY_MS = 250  # instant, but not one model call per keystroke


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
        "invalidated": QCoreApplication.translate("MemoryBrowser", "marked no longer true"),
    }
    if action in words:
        return words[action]
    for prefix, label in (
        ("merged into #", QCoreApplication.translate("MemoryBrowser", "merged into #%1")),
        ("contradicted by #", QCoreApplication.translate("MemoryBrowser", "contradicted by #%1")),
    ):
        if action.startswith(prefix):
            return label.replace("%1", action[len(prefix) :])
    return action


class MemoryBrowser(QWidget):
    """Emits requests; the main window runs them on the core (off the GUI thread where
    they may wait) and calls back `show_memories`, `show_details` and friends."""

    refresh_requested = Signal()
    search_requested = Signal(str)
    selected = Signal(int)
    add_requested = Signal(str, str, bool)  # text, kind, pinned
    save_requested = Signal(int, str, str, float, str)  # id, text, kind, importance, until
    # (until: "YYYY-MM-DD", or "" for no end)
    pin_requested = Signal(int, bool)
    delete_requested = Signal(list)
    forget_all_requested = Signal()
    restore_requested = Signal(int, int)  # memory id, version
    export_requested = Signal()
    import_requested = Signal()
    message_requested = Signal(int)  # open the conversation holding this message

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)

        top = QHBoxLayout()
        self.search = QLineEdit()
        self.search.setPlaceholderText(
            self.tr("Search memories (meaning and words, 中文 or English)")
        )
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self._search_later)
        top.addWidget(self.search, 1)
        self.all_matches = QCheckBox(self.tr("Weak matches too"))
        self.all_matches.setToolTip(
            self.tr("List every memory ranked by the search, not only the relevant ones")
        )
        self.all_matches.toggled.connect(lambda *_: self._search_now())
        top.addWidget(self.all_matches)
        self.new_button = QPushButton(self.tr("New memory…"))
        self.new_button.setToolTip(self.tr("Write a memory of your own"))
        self.new_button.clicked.connect(self.new_memory)
        top.addWidget(self.new_button)
        layout.addLayout(top)
        # the filters on a line of their own: the search field keeps its width
        top = QHBoxLayout()
        self.kind_filter = QComboBox()
        self.kind_filter.addItem(self.tr("All kinds"), "")
        for k in KINDS:
            self.kind_filter.addItem(kind_label(self, k), k)
        self.kind_filter.currentIndexChanged.connect(lambda *_: self.refresh_requested.emit())
        top.addWidget(self.kind_filter)
        self.pinned_only = QCheckBox(self.tr("Pinned only"))
        self.pinned_only.toggled.connect(lambda *_: self.refresh_requested.emit())
        top.addWidget(self.pinned_only)
        self.since = QDateEdit()
        self.since.setCalendarPopup(True)
        self.since.setSpecialValueText(self.tr("Any date"))
        self.since.setDate(self.since.minimumDate())
        self.since.setToolTip(self.tr("Created on or after"))
        self.since.dateChanged.connect(lambda *_: self.refresh_requested.emit())
        top.addWidget(self.since)
        top.addStretch(1)
        self.sort = QComboBox()
        self.sort.setToolTip(self.tr("Order of the list"))
        for label, key in self._sort_choices():
            self.sort.addItem(label, key)
        self.sort.activated.connect(self._sort_chosen)
        top.addWidget(self.sort)
        layout.addLayout(top)

        # One card per memory: the whole text, wrapped, and a quiet line of what it is.
        self.model = MemoryTableModel(self)
        self.list = QListView()
        self.list.setModel(self.model)  # it sorts itself (see MemoryTableModel.sort)
        self.cards = MemoryCardDelegate(self.list)
        self.list.setItemDelegate(self.cards)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.list.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setResizeMode(QListView.ResizeMode.Adjust)  # re-wrap on a new width
        self.list.setUniformItemSizes(False)
        self.list.setLayoutMode(QListView.LayoutMode.Batched)  # lays out a page in steps
        self.list.setBatchSize(100)
        self.list.setMouseTracking(True)  # hover highlight
        self.list.setAccessibleName(self.tr("Memories"))
        self.list.selectionModel().selectionChanged.connect(self._selection_changed)

        details = QWidget()
        form = QVBoxLayout(details)
        form.setContentsMargins(0, 0, 0, 0)
        fields = QFormLayout()
        self.text = QPlainTextEdit()
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
        self.until = QDateEdit()
        self.until.setCalendarPopup(True)
        self.until.setDisplayFormat("yyyy-MM-dd")  # as the list shows dates, in any locale
        self.until.setDate(QDate.currentDate().addMonths(1))
        self.until.setEnabled(False)
        self.has_until.toggled.connect(self.until.setEnabled)
        until_row.addWidget(self.has_until)
        until_row.addWidget(self.until)
        until_row.addStretch(1)
        fields.addRow(self.tr("Valid"), until_row)
        self.origin = QLabel()
        self.origin.setWordWrap(True)
        self.origin.setTextInteractionFlags(Qt.TextInteractionFlag.LinksAccessibleByMouse)
        self.origin.linkActivated.connect(lambda link: self.message_requested.emit(int(link)))
        fields.addRow(self.tr("Came from"), self.origin)
        form.addLayout(fields)
        buttons = QHBoxLayout()
        self.save_button = QPushButton(self.tr("Save"))
        self.save_button.clicked.connect(self._save)
        self.pin_button = QPushButton(self.tr("Pin"))
        self.pin_button.clicked.connect(self._pin)
        self.delete_button = QPushButton(self.tr("Delete…"))
        self.delete_button.clicked.connect(self._delete)
        for b in (self.save_button, self.pin_button, self.delete_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        form.addLayout(buttons)
        form.addWidget(QLabel(self.tr("Answers it shaped")))
        self.impact = QListWidget()
        self.impact.setMaximumHeight(90)
        self.impact.itemActivated.connect(
            lambda item: self.message_requested.emit(int(item.data(ID_ROLE)))
        )
        form.addWidget(self.impact)
        self.apps = QLabel()  # which other apps (MCP clients) read or wrote it, and when
        self.apps.setObjectName("notice")
        self.apps.setWordWrap(True)
        form.addWidget(self.apps)
        form.addWidget(QLabel(self.tr("History")))
        self.history = QListWidget()
        self.history.setMaximumHeight(120)
        self.history.setWordWrap(True)  # whole rows, no sideways scrolling
        self.history.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.history.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.history.itemActivated.connect(self._history_activated)
        self.history.currentRowChanged.connect(self._version_chosen)
        form.addWidget(self.history)
        self.restore_button = QPushButton(self.tr("Restore this version"))
        self.restore_button.clicked.connect(self._restore)
        form.addWidget(self.restore_button)
        form.addStretch(1)  # spare height below the details, not between their rows

        # The list takes the free width; the details of the selected memory sit beside it
        # (a drawer) when the page is wide, below it when it is narrow (800x600).
        self.placeholder = QLabel(
            self.tr("Select a memory to see where it came from, the answers it shaped and its "
                    "history, or to edit it.")
        )  # fmt: skip
        self.placeholder.setObjectName("empty")
        self.placeholder.setWordWrap(True)
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.drawer = QStackedWidget()
        self.drawer.addWidget(self.placeholder)
        self.drawer.addWidget(details)
        self.details = QScrollArea()  # scrolls rather than squeezing the list
        self.details.setWidget(self.drawer)
        self.details.setWidgetResizable(True)
        self.details.setFrameShape(QFrame.Shape.NoFrame)
        self.details.setMinimumWidth(300)
        self.details.setMaximumWidth(520)
        self.split = QSplitter(Qt.Orientation.Horizontal)
        self.split.addWidget(self.list)
        self.split.addWidget(self.details)
        self.split.setStretchFactor(0, 3)
        self.split.setStretchFactor(1, 2)
        self.split.setChildrenCollapsible(False)
        self.split.setSizes([640, 380])  # the list, with the memory's text, gets most
        layout.addWidget(self.split, 1)

        bottom = QHBoxLayout()
        self.count = QLabel()
        bottom.addWidget(self.count, 1)
        self.export_button = QPushButton(self.tr("Export…"))
        self.export_button.clicked.connect(self.export_requested)
        self.import_button = QPushButton(self.tr("Import…"))
        self.import_button.clicked.connect(self.import_requested)
        self.forget_button = QPushButton(self.tr("Forget everything…"))
        self.forget_button.setObjectName("danger")
        self.forget_button.clicked.connect(self.forget_all_requested)
        for b in (self.export_button, self.import_button, self.forget_button):
            bottom.addWidget(b)
        layout.addLayout(bottom)

        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._search_now)
        self.current: Memory | None = None
        self._versions: list[Version] = []
        self.show_details(None, [], [])

    def _sort_choices(self) -> list[tuple[str, str]]:
        return [
            (self.tr("Newest first"), "created:desc"),
            (self.tr("Oldest first"), "created:asc"),
            (self.tr("Recently edited"), "updated:desc"),
            (self.tr("Most important"), "importance:desc"),
            (self.tr("By kind"), "kind:asc"),
            (self.tr("A to Z"), "text:asc"),
        ]

    BEST = "best"  # the sort entry of search results: as the search ranked them

    def _sort_chosen(self, *_: Any) -> None:
        key = self.sort.currentData()
        if not key or key == self.BEST:
            return
        column, order = key.split(":")
        self.model.sort(
            MemoryTableModel.COLUMNS.index(column),
            Qt.SortOrder.DescendingOrder if order == "desc" else Qt.SortOrder.AscendingOrder,
        )

    # -- filters and search -------------------------------------------------------------

    def filters(self) -> dict[str, Any]:
        since = None
        if self.since.date() != self.since.minimumDate():
            since = self.since.date().toString("yyyy-MM-dd")
        return {
            "kind": self.kind_filter.currentData() or None,
            "pinned": True if self.pinned_only.isChecked() else None,
            "since": since,
        }

    def query(self) -> str:
        return self.search.text().strip()

    def cancel_pending(self) -> None:
        """Drop a search the user typed but that has not run yet (the window is closing)."""
        self._timer.stop()

    def _search_later(self, *_: Any) -> None:
        self._timer.start(SEARCH_DELAY_MS)

    def _search_now(self) -> None:
        if self.query():
            self.search_requested.emit(self.query())
        else:
            self.refresh_requested.emit()

    def show_memories(
        self,
        memories: list[Memory],
        scores: dict[int, float] | None = None,
        more: Any = None,
        total: int | None = None,
    ) -> None:
        """A listing (its first page, `more` reading the rest as the user scrolls, of
        `total` in all) or search hits with their scores."""
        keep = self.current.id if self.current else None
        self.model.set_memories(memories, scores, more)
        # A listing comes pinned first, newest first (as the CLI lists them): shown as
        # "Newest first" without sorting again (100,000 rows took 0.1 s on the GUI
        # thread). Search hits keep their order, best first.
        best = self.sort.findData(self.BEST)
        if scores is None:
            if best >= 0:
                self.sort.removeItem(best)
            self.sort.setCurrentIndex(self.sort.findData("created:desc"))
        else:
            if best < 0:
                self.sort.insertItem(0, self.tr("Best match first"), self.BEST)
            self.sort.setCurrentIndex(0)
        shown = len(memories) if total is None else total
        if scores is None:
            self.count.setText(self.tr("%n memory(s)", "", shown))
        elif shown:
            self.count.setText(self.tr("%n match(es)", "", shown))
        else:
            self.count.setText(self.tr("No matches"))
        if keep is not None:
            self.select(keep)

    def select(self, memory_id: int) -> bool:
        row = self.model.row_of(memory_id)
        if row < 0:
            return False
        index = self.model.index(row, 0)
        self.list.setCurrentIndex(index)  # selects it alone
        self.list.scrollTo(index)
        return True

    WIDE = 900  # px: below this the details go under the list

    def resizeEvent(self, event: Any) -> None:
        wide = self.width() >= self.WIDE
        orientation = Qt.Orientation.Horizontal if wide else Qt.Orientation.Vertical
        if self.split.orientation() != orientation:
            self.split.setOrientation(orientation)
            self.details.setMaximumWidth(520 if wide else 16_777_215)
            self.details.setMinimumHeight(0 if wide else 160)
            span = self.width() if wide else self.height()
            self.split.setSizes([span * 3 // 5, span * 2 // 5])
        super().resizeEvent(event)

    def selected_ids(self) -> list[int]:
        # the list selects the text column only (selectedRows() wants whole rows)
        rows = {i.row() for i in self.list.selectionModel().selectedIndexes()}
        return [m.id for r in sorted(rows) if (m := self.model.memory(r)) is not None]

    def _selection_changed(self, *_: Any) -> None:
        ids = self.selected_ids()
        if len(ids) == 1:
            self.selected.emit(ids[0])
        self.delete_button.setEnabled(bool(ids))

    # -- details -----------------------------------------------------------------------

    def show_details(
        self,
        memory: Memory | None,
        versions: list[Version],
        answers: list[tuple[int, str]],
        origin: tuple[int, str] | None = None,
        apps: list[tuple[str, str]] | None = None,
    ) -> None:
        self.current = memory
        self.drawer.setCurrentIndex(0 if memory is None else 1)
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
        self.delete_button.setEnabled(bool(self.selected_ids()))
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
        if memory is None:
            self.origin.setText("")
        elif origin:  # the message it was learned from ("Came from" is the row's label)
            said = textproc.shorten(textproc.plain_text(origin[1]), 120)
            self.origin.setText(f'<a href="{origin[0]}">{html.escape(said)}</a>')
            self.origin.setToolTip(source_label(self, memory.source))
        else:
            self.origin.setText(source_label(self, memory.source))
        self.impact.clear()
        for message_id, text in answers:
            preview = textproc.shorten(textproc.plain_text(text), 160)  # answers are Markdown
            item = QListWidgetItem(preview or self.tr("(empty answer)"))
            item.setToolTip(textproc.shorten(textproc.plain_text(text), 600))
            item.setData(ID_ROLE, message_id)
            self.impact.addItem(item)
        if memory is not None and not answers:
            self.impact.addItem(self.tr("No answer has used it yet."))
        self.history.clear()
        for v in versions:
            until = self.tr(", until %1").replace("%1", v.valid_until[:10]) if v.valid_until else ""
            origin = (
                self.tr(", from message %1").replace("%1", str(v.message_id))
                if v.message_id
                else ""
            )
            item = QListWidgetItem(
                f"v{v.version} · {v.changed_at[:16].replace('T', ' ')} · {action_label(v.action)} "
                f"({source_label(self, v.actor)}{origin}){until}: {' '.join(v.text.split())[:100]}"
            )
            item.setToolTip(v.text)
            if v.message_id:
                item.setData(ID_ROLE, v.message_id)
            self.history.addItem(item)
        if versions:
            self.history.setCurrentRow(len(versions) - 1)
        self._version_chosen(self.history.currentRow())

    # -- actions -----------------------------------------------------------------------

    def _save(self) -> None:
        if self.current is not None:
            self.save_requested.emit(
                self.current.id,
                self.text.toPlainText().strip(),
                self.kind.currentData(),
                float(self.importance.value()),
                self.until.date().toString("yyyy-MM-dd") if self.has_until.isChecked() else "",
            )

    def _pin(self) -> None:
        if self.current is not None:
            self.pin_requested.emit(self.current.id, not self.current.pinned)

    def _delete(self) -> None:
        ids = self.selected_ids()
        if ids:
            self.delete_requested.emit(ids)

    def new_memory(self) -> NewMemoryDialog:
        """A memory of the user's own, written in a dialog: the drawer only ever edits
        the memory it shows."""
        dialog = NewMemoryDialog(self)
        dialog.accepted.connect(
            lambda: self.add_requested.emit(dialog.text(), dialog.kind(), dialog.pinned())
        )
        dialog.open()
        return dialog

    def _version_chosen(self, row: int) -> None:
        """Choosing an old version previews it; Restore is for old versions only."""
        old = 0 <= row < len(self._versions) - 1
        self.restore_button.setEnabled(self.current is not None and old)
        if self.current is not None and 0 <= row < len(self._versions):
            self.text.blockSignals(True)
            self.text.setPlainText(self._versions[row].text)
            self.text.blockSignals(False)

    def _history_activated(self, item: QListWidgetItem) -> None:
        message_id = item.data(ID_ROLE)
        if message_id:
            self.message_requested.emit(int(message_id))

    def _restore(self) -> None:
        row = self.history.currentRow()
        if self.current is not None and 0 <= row < len(self._versions):
            self.restore_requested.emit(self.current.id, self._versions[row].version)
