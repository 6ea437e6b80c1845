"""The memory browser: every memory as a card with its full text, sortable, instant hybrid
search, filters, and for the selected memory a drawer with its text (editable), where it
came from, the answers it shaped and its history with restore. New memories are written
in a dialog of their own."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypedDict

from PySide6.QtCore import QEvent, QObject, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence, QResizeEvent, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QMenu,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from desktop_mem.core.memory.records import KINDS, Memory, Version
from desktop_mem.core.memory.spaces import Space
from desktop_mem.ui.focus import DateField
from desktop_mem.ui.item_models import Found, MemoryTableModel, kind_label, relevance_tip
from desktop_mem.ui.memory_cards import MemoryCardDelegate
from desktop_mem.ui.memory_drawer import MemoryDrawer, action_label
from desktop_mem.ui.new_memory_dialog import NewMemoryDialog
from desktop_mem.ui.spaces import ALL, Choice, choice_of, fill_box, fill_move_menu, space_name

SEARCH_DELAY_MS = 250  # instant, but not one model call per keystroke
__all__ = ["MemoryBrowser", "NewMemoryDialog", "action_label"]


class Filters(TypedDict):
    """What the browser's filters choose; None (or "") for any."""

    kind: str | None
    pinned: bool | None
    always: bool | None
    since: str | None
    edited_on_both: bool | None
    space: Choice  # a space's id, None (the shared space) or ALL (every space)


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
    always_requested = Signal(int, bool)  # give it in every chat, or only when found
    delete_requested = Signal(list)
    forget_all_requested = Signal()
    restore_requested = Signal(int, int)  # memory id, version
    export_requested = Signal()
    import_requested = Signal()
    message_requested = Signal(int)  # open the conversation holding this message
    move_requested = Signal(list, object)  # memory ids, a space (None: the shared space)

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
        self.search.installEventFilter(self)  # Down or Enter: on into the list
        top.addWidget(self.search, 1)
        self.all_matches = QCheckBox(self.tr("Weak matches too"))
        self.all_matches.setToolTip(relevance_tip())
        self.all_matches.toggled.connect(lambda *_: self._search_now())
        top.addWidget(self.all_matches)
        self.new_button = QPushButton(self.tr("New memory…"))
        self.new_button.setToolTip(self.tr("Write a memory of your own"))
        self.new_button.clicked.connect(self.new_memory)
        top.addWidget(self.new_button)
        layout.addLayout(top)
        # the filters on a line of their own: the search field keeps its width
        top = QHBoxLayout()
        self.spaces: list[Space] = []
        self.space_filter = QComboBox()  # every space, the shared one, or one space's own
        self.space_filter.setAccessibleName(self.tr("Space"))
        self.space_filter.setToolTip(self.tr("The space whose memories are listed and searched"))
        self.space_filter.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.space_filter.setMinimumContentsLength(10)
        fill_box(self.space_filter, [], ALL)
        self.space_filter.currentIndexChanged.connect(lambda *_: self._search_now())
        top.addWidget(self.space_filter)
        self.kind_filter = QComboBox()
        self.kind_filter.addItem(self.tr("All kinds"), "")
        for k in KINDS:
            self.kind_filter.addItem(kind_label(self, k), k)
        self.kind_filter.currentIndexChanged.connect(lambda *_: self.refresh_requested.emit())
        top.addWidget(self.kind_filter)
        self.pinned_only = QCheckBox(self.tr("Pinned only"))
        self.pinned_only.toggled.connect(lambda *_: self.refresh_requested.emit())
        top.addWidget(self.pinned_only)
        self.always_only = QCheckBox(self.tr("In every chat"))
        self.always_only.setToolTip(
            self.tr("Only the memories given to the model in every chat: what is about your "
                    "health or safety, and what you asked to be always remembered")
        )  # fmt: skip
        self.always_only.toggled.connect(lambda *_: self.refresh_requested.emit())
        top.addWidget(self.always_only)
        self.since = DateField()  # Tab leaves it, also on “Any date”
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
        # a line of its own, only while the list is filtered to the memories edited on two
        # computers at once (Settings > Sync's link): it says so, and clears it
        self.edited_on_both_bar = QWidget()
        row = QHBoxLayout(self.edited_on_both_bar)
        row.setContentsMargins(0, 0, 0, 0)
        self.edited_on_both_label = QLabel(
            self.tr("Only the memories edited on two computers at once")
        )
        self.edited_on_both_label.setObjectName("notice")
        self.edited_on_both_label.setWordWrap(True)
        row.addWidget(self.edited_on_both_label, 1)
        self.edited_on_both = QPushButton(self.tr("Show every memory"))
        self.edited_on_both.clicked.connect(lambda: self.set_edited_on_both(False))
        row.addWidget(self.edited_on_both)
        self.edited_on_both_bar.hide()
        layout.addWidget(self.edited_on_both_bar)

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
        delete = QShortcut(QKeySequence(QKeySequence.StandardKey.Delete), self.list)
        delete.setContext(Qt.ShortcutContext.WidgetShortcut)  # Delete on a card: asks first
        delete.activated.connect(self._delete)
        # right-click on cards: move them to another space, or delete them
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.list.customContextMenuRequested.connect(self._card_menu)

        # Nothing to list: said in words where the list would be, never a blank page.
        self.empty = QLabel()
        self.empty.setObjectName("empty")
        self.empty.setWordWrap(True)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.list_pages = QStackedWidget()
        self.list_pages.addWidget(self.list)
        self.list_pages.addWidget(self.empty)

        # The list takes the free width; the selected memory's drawer sits beside it, or
        # below it in a window too narrow for both side by side.
        self.drawer = MemoryDrawer()
        self.drawer.save_requested.connect(self.save_requested)
        self.drawer.pin_requested.connect(self.pin_requested)
        self.drawer.always_requested.connect(self.always_requested)
        self.drawer.delete_requested.connect(self._delete)
        self.drawer.restore_requested.connect(self.restore_requested)
        self.drawer.message_requested.connect(self.message_requested)
        self.move_menu = QMenu(self.drawer.move_button)  # filled as it opens
        self.move_menu.aboutToShow.connect(lambda: self._fill_move(self.move_menu))
        self.drawer.move_button.setMenu(self.move_menu)
        self.drawer.setMinimumWidth(280)
        self.drawer.setMaximumWidth(520)
        self.split = QSplitter(Qt.Orientation.Horizontal)
        self.split.addWidget(self.list_pages)
        self.split.addWidget(self.drawer)
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

    def _sort_chosen(self, *_: object) -> None:
        key = self.sort.currentData()
        if not key or key == self.BEST:
            return
        column, order = key.split(":")
        self.model.sort(
            MemoryTableModel.COLUMNS.index(column),
            Qt.SortOrder.DescendingOrder if order == "desc" else Qt.SortOrder.AscendingOrder,
        )

    # -- filters and search -------------------------------------------------------------

    def filters(self) -> Filters:
        since = None
        if self.since.date() != self.since.minimumDate():
            since = self.since.date().toString("yyyy-MM-dd")
        return {
            "kind": self.kind_filter.currentData() or None,
            "pinned": True if self.pinned_only.isChecked() else None,
            "always": True if self.always_only.isChecked() else None,
            "since": since,
            "edited_on_both": True if self.edited_on_both_bar.isVisibleTo(self) else None,
            "space": choice_of(self.space_filter.currentData()),
        }

    # -- spaces ---------------------------------------------------------------------------

    def set_spaces(self, spaces: list[Space]) -> None:
        """The profile's spaces: the filter's choices (the one chosen kept while it is
        there), each card's space and the history's moves named."""
        self.spaces = spaces
        chosen = choice_of(self.space_filter.currentData())
        fill_box(self.space_filter, spaces, chosen)
        # no space but the shared one: nothing to choose (Manage spaces… is beside the
        # conversations)
        self.space_filter.setVisible(bool(spaces))
        names: dict[int | None, str] = {s.id: s.name for s in spaces}
        names[None] = space_name(None, {})
        self.drawer.space_names = names if spaces else {}

    def show_every_space(self) -> None:
        """The filter on every space, without listing again (the caller lists)."""
        self.space_filter.blockSignals(True)
        self.space_filter.setCurrentIndex(max(0, self.space_filter.findData(ALL)))
        self.space_filter.blockSignals(False)

    def _fill_move(self, menu: QMenu) -> None:
        ids = self.selected_ids()
        current = {m.space for r in range(self.model.rowCount())
                   if (m := self.model.memory(r)) is not None and m.id in ids}  # fmt: skip
        fill_move_menu(
            menu, self.spaces, current, lambda space: self.move_requested.emit(ids, space)
        )
        menu.setEnabled(bool(ids))

    def _card_menu(self, pos: QPoint) -> None:
        index = self.list.indexAt(pos)
        if not index.isValid():
            return
        if index.row() not in {i.row() for i in self.list.selectionModel().selectedIndexes()}:
            self.list.setCurrentIndex(index)  # the card right-clicked, alone
        menu = QMenu(self.list)
        move = menu.addMenu(self.tr("Move to space"))
        self._fill_move(move)
        delete = menu.addAction(self.tr("Delete…"))
        delete.triggered.connect(self._delete)
        menu.exec(self.list.viewport().mapToGlobal(pos))

    def set_edited_on_both(self, on: bool, refresh: bool = True) -> None:
        """Only the memories edited on two computers at once, or every memory again."""
        if on == self.edited_on_both_bar.isVisibleTo(self):
            return
        if not on and self.edited_on_both.hasFocus():
            self.search.setFocus()  # the button goes: the keyboard stays on the page
        self.edited_on_both_bar.setVisible(on)
        if refresh:
            self.refresh_requested.emit()

    def query(self) -> str:
        return self.search.text().strip()

    def cancel_pending(self) -> None:
        """Drop a search the user typed but that has not run yet (the window is closing)."""
        self._timer.stop()

    def _search_later(self, *_: object) -> None:
        self._timer.start(SEARCH_DELAY_MS)

    def _search_now(self) -> None:
        if self.query():
            self.search_requested.emit(self.query())
        else:
            self.refresh_requested.emit()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """From the search field, Down (or Enter) goes on into the list, at its first
        card: the keyboard reaches the results without a mouse."""
        if (
            watched is self.search
            and event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() in (Qt.Key.Key_Down, Qt.Key.Key_Return, Qt.Key.Key_Enter)
            and self.model.rowCount()
        ):
            if event.key() != Qt.Key.Key_Down:
                self._search_now()
            self.list.setFocus()
            if not self.list.selectionModel().hasSelection():
                self.list.setCurrentIndex(self.model.index(0, 0))
            return True
        return super().eventFilter(watched, event)

    @property
    def current(self) -> Memory | None:
        """The memory the drawer shows."""
        return self.drawer.current

    def show_memories(
        self,
        memories: list[Memory],
        found: dict[int, Found] | None = None,
        more: Callable[[int, int], list[Memory]] | None = None,
        total: int | None = None,
    ) -> None:
        """A listing (its first page, `more` reading the rest as the user scrolls, of
        `total` in all) or search hits, each with its (relevance, weak)."""
        keep = self.current.id if self.current else None
        self.model.query = self.query() if found is not None else ""
        every = choice_of(self.space_filter.currentData()) == ALL
        self.model.space_names = self.drawer.space_names if every and self.spaces else None
        self.model.set_memories(memories, found, more)
        # A listing comes pinned first, newest first (as the CLI lists them): shown as
        # "Newest first" without sorting again (100,000 rows took 0.1 s on the GUI
        # thread). Search hits keep their order, best first.
        best = self.sort.findData(self.BEST)
        if found is None:
            if best >= 0:
                self.sort.removeItem(best)
            self.sort.setCurrentIndex(self.sort.findData("created:desc"))
        else:
            if best < 0:
                self.sort.insertItem(0, self.tr("Best match first"), self.BEST)
            self.sort.setCurrentIndex(0)
        shown = len(memories) if total is None else total
        weak = sum(1 for _z, w in (found or {}).values() if w)
        strong = shown - weak
        if found is None:
            self.count.setText(self.tr("%n memory(s)", "", shown))
        elif strong and weak:
            self.count.setText(
                self.tr("%n match(es)", "", strong) + " · " + self.tr("%n weaker", "", weak)
            )
        elif strong:
            self.count.setText(self.tr("%n match(es)", "", strong))
        elif weak:
            self.count.setText(self.tr("No relevant match; %n weaker one(s) below", "", weak))
        else:
            self.count.setText(self.tr("No matches"))
        self._show_empty(shown, found is not None)
        if keep is not None and not self.select(keep):
            # gone from the list (a search left it out): the drawer shows nothing, so
            # Save and Delete never act on a memory the list does not show
            self.show_details(None, [], [])

    def _show_empty(self, shown: int, searched: bool) -> None:
        filters = self.filters()
        filtered = filters["space"] != ALL or any(
            value is not None for key, value in filters.items() if key != "space"
        )
        if shown:
            self.list_pages.setCurrentWidget(self.list)
            return
        if searched:
            text = self.tr("No memory is about this. Tick “Weak matches too” to see the nearest.")
        elif filtered:
            text = self.tr("No memory fits these filters.")
        else:
            text = self.tr(
                "No memories yet. Tell the assistant about yourself in a chat, or write one "
                "with New memory…"
            )
        self.empty.setText(text)
        self.list_pages.setCurrentWidget(self.empty)

    def select(self, memory_id: int) -> bool:
        row = self.model.row_of(memory_id)
        if row < 0:
            return False
        index = self.model.index(row, 0)
        self.list.setCurrentIndex(index)  # selects it alone
        self.list.scrollTo(index)
        return True

    WIDE = 640  # px: below this the drawer goes under the list

    def resizeEvent(self, event: QResizeEvent) -> None:
        wide = self.width() >= self.WIDE
        orientation = Qt.Orientation.Horizontal if wide else Qt.Orientation.Vertical
        if self.split.orientation() != orientation:
            self.split.setOrientation(orientation)
            self.drawer.setMaximumWidth(520 if wide else 16_777_215)
            self.drawer.setMinimumWidth(280 if wide else 0)
            span = self.width() if wide else self.height()
            self.split.setSizes([span * 3 // 5, span * 2 // 5])
        super().resizeEvent(event)

    def selected_ids(self) -> list[int]:
        # the list selects the text column only (selectedRows() wants whole rows)
        rows = {i.row() for i in self.list.selectionModel().selectedIndexes()}
        return [m.id for r in sorted(rows) if (m := self.model.memory(r)) is not None]

    def _selection_changed(self, *_: object) -> None:
        ids = self.selected_ids()
        if len(ids) == 1:
            self.selected.emit(ids[0])
        self.drawer.set_selected(len(ids))

    def show_details(
        self,
        memory: Memory | None,
        versions: list[Version],
        answers: list[tuple[int, str]],
        origin: tuple[int, str] | None = None,
        apps: list[tuple[str, str]] | None = None,
        proposals: list[Memory] | None = None,
        computer: str | None = None,
        made_on: list[str | None] | None = None,
        edited_on_both: bool = False,
    ) -> None:
        self.drawer.show_details(
            memory, versions, answers, origin, apps, selected=len(self.selected_ids()),
            proposals=proposals, computer=computer, made_on=made_on,
            edited_on_both=edited_on_both,
        )  # fmt: skip

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
