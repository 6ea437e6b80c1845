"""Owns the Documents page: the user's files and folders as knowledge for the chat. Add
files or folders (buttons, or drag and drop), see what is indexed, search the passages,
remove a document for good; watched folders are listed, can be unwatched, and are
re-read in the background (new, changed and removed files), with progress, and the
background re-reading can be paused. Each document and watched folder is in a space: the
page shows the space the window is in (or every space), adds to it, and moves a
document or a folder to another. Names from the disk are shown with their control
characters escaped. The list follows what the documents announce (DocumentsChanged),
whoever changed them: never a refresh by hand after an action.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QDesktopServices, QDragEnterEvent, QDropEvent, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListView,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QMessageBox,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop_mem.core import textproc
from desktop_mem.core.documents.records import AddReport, PassageHit
from desktop_mem.core.errors import DesktopMemError
from desktop_mem.core.memory.spaces import Scope
from desktop_mem.core.textproc import escape_controls
from desktop_mem.ui import highlight, shortcuts, tasks
from desktop_mem.ui.context import Context
from desktop_mem.ui.spaces import (
    ALL,
    MANAGE,
    choice_of,
    data_of,
    fill_box,
    fill_move_menu,
    names_of,
    space_name,
)
from desktop_mem.ui.tasks import Report, describe_exception

SYNC_MS = 10 * 60 * 1000  # watched folders are re-read every ten minutes
SEARCH_DELAY_MS = 250  # as the other searches: as you type
PATH_ROLE = Qt.ItemDataRole.UserRole + 1
FOLDER_ROLE = Qt.ItemDataRole.UserRole + 2  # a document's watched folder ("" for none)
SPACE_ROLE = Qt.ItemDataRole.UserRole + 3  # a document's space (-1: the shared space)


def kind_label(kind: str) -> str:
    """A document's kind in the interface's language."""
    return {
        "markdown": QCoreApplication.translate("DocumentsPage", "Markdown"),
        "text": QCoreApplication.translate("DocumentsPage", "Plain text"),
        "pdf": QCoreApplication.translate("DocumentsPage", "PDF"),
        "docx": QCoreApplication.translate("DocumentsPage", "Word"),
        "html": QCoreApplication.translate("DocumentsPage", "Web page"),
    }.get(kind, kind)


class DocumentsPage(QWidget):
    status = Signal(str)  # a line for the window's status bar
    progress = Signal(str, int, int)  # what, done, total (total 0: finished)

    def __init__(self, context: Context, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = context
        self.store = context.app.documents
        self.setAcceptDrops(True)
        self.running = False
        self._stop = threading.Event()
        layout = QVBoxLayout(self)
        intro = QLabel(
            self.tr(
                "Your documents (Markdown, text, PDF, Word, HTML) as knowledge for the chat: "
                "their passages are stored encrypted with your memories, the files are only "
                "read. Drop files or folders here; a folder is watched for changes."
            )
        )
        intro.setWordWrap(True)
        top = QHBoxLayout()  # the space chosen beside the intro: the buttons keep their row
        top.addWidget(intro, 1)
        layout.addLayout(top)
        buttons = QHBoxLayout()
        # the space the window is in: the list shows its documents, and adds to it
        self.space_box = QComboBox()
        self.space_box.setAccessibleName(self.tr("Space"))
        self.space_box.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.space_box.setMinimumContentsLength(8)
        self.space_box.activated.connect(self._space_activated)
        top.addWidget(self.space_box, 0, Qt.AlignmentFlag.AlignTop)
        self.add_files = QPushButton(self.tr("Add files…"))
        self.add_files.clicked.connect(self._choose_files)
        self.add_folder = QPushButton(self.tr("Add folder…"))
        self.add_folder.clicked.connect(self._choose_folder)
        self.reindex = QPushButton(self.tr("Re-read now"))
        self.reindex.clicked.connect(lambda: self.sync())
        self.remove = QPushButton(self.tr("Remove…"))
        self.remove.setObjectName("danger")
        self.remove.setEnabled(False)
        self.remove.clicked.connect(self._remove)
        self.move_button = QPushButton(self.tr("Move to space"))
        self.move_button.setToolTip(
            self.tr("Move the selected documents to another space (a watched folder's "
                    "documents move with their folder)")
        )  # fmt: skip
        self.move_menu = QMenu(self.move_button)
        self.move_menu.aboutToShow.connect(self._fill_move)
        self.move_button.setMenu(self.move_menu)
        self.move_button.setEnabled(False)
        self.paused = QCheckBox(self.tr("Pause background re-reading"))
        self.paused.toggled.connect(self._pause_toggled)
        for w in (self.add_files, self.add_folder, self.reindex, self.move_button, self.remove):
            buttons.addWidget(w)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        self.table = QTableWidget(0, 5)
        self.table.setTabKeyNavigation(False)  # Tab moves on; the arrows move in the table
        self.table.setHorizontalHeaderLabels(
            [self.tr("Document"), self.tr("Kind"), self.tr("Passages"), self.tr("Where"),
             self.tr("Space")]
        )  # fmt: skip
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.itemSelectionChanged.connect(self._selection_changed)
        delete = QShortcut(shortcuts.key("remove_documents"), self.table)
        delete.setContext(Qt.ShortcutContext.WidgetShortcut)  # Del in the table: asks first
        delete.activated.connect(self._remove)
        layout.addWidget(self.table, 2)
        watched = QHBoxLayout()
        watched.addWidget(QLabel(self.tr("Watched folders")))
        self.folders = QComboBox()
        self.folders.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        watched.addWidget(self.folders, 1)
        self.folders.currentIndexChanged.connect(lambda *_: self._folder_chosen())
        self.move_folder = QPushButton(self.tr("Move to space"))
        self.move_folder.setToolTip(self.tr("Move the folder, and every document of it, to "
                                            "another space"))  # fmt: skip
        self.folder_menu = QMenu(self.move_folder)
        self.folder_menu.aboutToShow.connect(self._fill_folder_move)
        self.move_folder.setMenu(self.folder_menu)
        watched.addWidget(self.move_folder)
        self.unwatch = QPushButton(self.tr("Stop watching…"))
        self.unwatch.clicked.connect(lambda: self.unwatch_folder())
        watched.addWidget(self.unwatch)
        layout.addLayout(watched)
        # under the watched folders, whose re-reading it pauses (on the buttons' row it
        # was cut at 800x600 once a space adds "Move to space")
        layout.addWidget(self.paused)
        self.empty = QLabel(self.tr("No documents yet: add files or folders, or drop them here."))
        self.empty.setObjectName("empty")  # in place of the empty table and search
        self.empty.setWordWrap(True)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout.addWidget(self.empty, 3)
        self.search = QLineEdit()
        self.search.setPlaceholderText(self.tr("Search the documents' passages"))
        self.search.setClearButtonEnabled(True)
        self._search_timer = QTimer(self)
        self.search.textChanged.connect(lambda *_: self._search_timer.start())
        self.search.returnPressed.connect(self._search)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(SEARCH_DELAY_MS)
        self._search_timer.timeout.connect(self._search)
        layout.addWidget(self.search)
        self.results = QListWidget()
        self.results.setWordWrap(True)
        # the words a search matched, marked in the passages found
        self.marks = highlight.MarkedTextDelegate(self.results)
        self.results.setItemDelegate(self.marks)
        self.results.setResizeMode(QListView.ResizeMode.Adjust)  # rewrapped when resized
        self.results.itemActivated.connect(self._open_result)
        layout.addWidget(self.results, 1)
        self.timer = QTimer(self)
        self.timer.setInterval(SYNC_MS)
        self.timer.timeout.connect(lambda: self.sync(background=True))
        self.timer.start()
        self._folder_spaces: dict[str, int | None] = {}
        self.fill_spaces()
        self.refresh()
        context.core.documents_changed.connect(self.refresh)
        context.core.spaces_changed.connect(self.spaces_changed)
        context.space.changed.connect(self.space_chosen)

    # -- spaces ---------------------------------------------------------------------------

    def fill_spaces(self) -> None:
        spaces = self.ctx.app.spaces.list()
        fill_box(self.space_box, spaces, self.ctx.space.current, manage=True)
        self.space_box.setVisible(bool(spaces))  # no space but the shared one: unsaid
        self._space_said()

    def _space_said(self) -> None:
        where = space_name(self.ctx.space.for_new(), names_of(self.ctx.app.spaces.list()))
        tip = self.tr("Added to the space %1").replace("%1", where)
        for w in (self.add_files, self.add_folder):
            w.setToolTip(tip)
        self.space_box.setToolTip(
            self.tr("The space whose documents are listed, and where added ones go "
                    "(All spaces: the shared space)")
        )  # fmt: skip

    def _space_activated(self, row: int) -> None:
        data = self.space_box.itemData(row)
        if data == MANAGE:  # not a space: the box goes back to the one chosen
            self.space_box.setCurrentIndex(
                max(0, self.space_box.findData(data_of(self.ctx.space.current)))
            )
            self.ctx.hub.settings_page_requested.emit("spaces")
            return
        self.ctx.space.choose(choice_of(data))

    def space_chosen(self) -> None:
        """The window is in another space: its documents (the window's choice is one,
        beside the conversations and here)."""
        self.fill_spaces()
        self.refresh()

    def spaces_changed(self) -> None:
        self.fill_spaces()
        self.refresh()

    def scope(self) -> Scope:
        spaces, chosen = self.ctx.app.spaces, self.ctx.space.current
        return spaces.every() if chosen == ALL else spaces.only(self.ctx.space.for_new())

    def _selection_changed(self) -> None:
        ids = self.selected_ids()
        self.remove.setEnabled(bool(ids))
        self.move_button.setEnabled(bool(self._movable(ids)))

    def _rows(self) -> dict[int, QTableWidgetItem]:
        """The documents listed, by id (their first cell)."""
        return {
            int(it.data(PATH_ROLE)): it
            for r in range(self.table.rowCount())
            if (it := self.table.item(r, 0)) is not None
        }

    def _movable(self, ids: list[int]) -> list[int]:
        """The documents chosen that move on their own (not a watched folder's)."""
        rows = self._rows()
        return [i for i in ids if i in rows and not rows[i].data(FOLDER_ROLE)]

    def _fill_move(self) -> None:
        ids = self._movable(self.selected_ids())
        rows = self._rows()
        current = {
            None if int(rows[i].data(SPACE_ROLE)) < 0 else int(rows[i].data(SPACE_ROLE))
            for i in ids
        }
        fill_move_menu(self.move_menu, self.ctx.app.spaces.list(), current,
                       lambda space: self.move_documents(ids, space))  # fmt: skip

    def _fill_folder_move(self) -> None:
        folder = self.folders.currentData()
        current = {self._folder_spaces.get(folder)} if folder else set()
        fill_move_menu(self.folder_menu, self.ctx.app.spaces.list(), current,
                       lambda space: self.move_watched(folder, space))  # fmt: skip

    def move_documents(self, ids: list[int], space: int | None) -> bool:
        """Move documents added on their own to a space (the list follows the core)."""
        try:
            for doc_id in ids:
                self.store.move(doc_id, space)
        except DesktopMemError as exc:
            self.status.emit(describe_exception(exc, str(exc)))
            return False
        self.status.emit(self._moved_to(len(ids), space))
        return True

    def move_watched(self, folder: str | None, space: int | None) -> bool:
        """Move a watched folder, with its documents, to a space."""
        if not folder:
            return False
        try:
            moved = self.store.move_folder(folder, space)
        except DesktopMemError as exc:
            self.status.emit(describe_exception(exc, str(exc)))
            return False
        self.status.emit(self._moved_to(moved, space))
        return True

    def _moved_to(self, n: int, space: int | None) -> str:
        if space is None:
            return self.tr("%n document(s) moved to the shared space.", "", n)
        return self.tr("%n document(s) moved to the space %1.", "", n).replace(
            "%1", space_name(space, names_of(self.ctx.app.spaces.list()))
        )

    def _folder_chosen(self) -> None:
        folder = self.folders.currentData()
        self.unwatch.setEnabled(folder is not None)
        self.move_folder.setEnabled(folder is not None)

    # -- the list -------------------------------------------------------------------------

    def refresh(self) -> None:
        spaces = self.ctx.app.spaces.list()
        names = names_of(spaces)
        docs = self.store.list(self.scope())
        self.table.setColumnHidden(4, not spaces)  # no space but the shared one: unsaid
        self.move_button.setVisible(bool(spaces))
        self.move_folder.setVisible(bool(spaces))
        self.table.setRowCount(len(docs))
        for row, d in enumerate(docs):
            name = QTableWidgetItem(escape_controls(d.title))
            name.setData(PATH_ROLE, d.id)
            name.setData(FOLDER_ROLE, d.folder or "")
            name.setData(SPACE_ROLE, -1 if d.space is None else d.space)
            self.table.setItem(row, 4, QTableWidgetItem(space_name(d.space, names)))
            name.setToolTip(escape_controls(d.path))
            self.table.setItem(row, 0, name)
            self.table.setItem(row, 1, QTableWidgetItem(kind_label(d.kind)))
            pages = self.tr("%1 (%2 pages)").replace("%1", str(d.passages)).replace(
                "%2", str(d.pages)
            ) if d.pages else str(d.passages)  # fmt: skip
            self.table.setItem(row, 2, QTableWidgetItem(pages))
            self.table.setItem(row, 3, QTableWidgetItem(escape_controls(str(Path(d.path).parent))))
        self.empty.setVisible(not docs)
        for w in (self.table, self.search, self.results):
            w.setVisible(bool(docs))
        chosen = self.folders.currentData()
        self.folders.blockSignals(True)
        self.folders.clear()
        self._folder_spaces = {}
        scope = self.scope()
        for f in self.store.folders():
            if not scope.holds(f.space):
                continue
            text = self.tr("%1 (%n document(s))", "", f.documents).replace(
                "%1", escape_controls(f.path)
            )
            if spaces:  # which space it is in
                text += " · " + space_name(f.space, names)
            self.folders.addItem(text, f.path)
            self._folder_spaces[f.path] = f.space
        if not self.folders.count():
            self.folders.addItem(self.tr("none: add a folder to watch it"), None)
        self.folders.setCurrentIndex(max(0, self.folders.findData(chosen)))
        self.folders.blockSignals(False)
        self._folder_chosen()
        self._selection_changed()

    def selected_ids(self) -> list[int]:
        rows = {i.row() for i in self.table.selectionModel().selectedRows()}
        items = [self.table.item(r, 0) for r in sorted(rows)]
        return [int(item.data(PATH_ROLE)) for item in items if item is not None]

    # -- adding ---------------------------------------------------------------------------

    def _choose_files(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(
            self,
            self.tr("Add documents"),
            str(Path.home()),
            self.tr("Documents (*.md *.markdown *.txt *.pdf *.docx *.html *.htm)"),
        )
        if paths:
            self.add([Path(p) for p in paths])

    def _choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Add a folder"), str(Path.home()))
        if folder:
            self.add([Path(folder)])

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        paths = [Path(u.toLocalFile()) for u in event.mimeData().urls() if u.isLocalFile()]
        if paths:
            self.add(paths)
            event.acceptProposedAction()

    def add(self, paths: list[Path]) -> bool:
        if self.running:
            self.status.emit(self.tr("Documents are being read: wait for it to finish."))
            return False
        return self._run(self._add_all, paths)

    def _add_all(self, paths: list[Path], report: Report) -> AddReport:
        total = AddReport()
        space = self.ctx.space.for_new()  # the space the window is in (All: the shared one)
        for path in paths:
            total.extend(
                self.store.add(path, progress=report, should_stop=self._stop.is_set, space=space)
            )
        return total

    def sync(self, background: bool = False) -> bool:
        """Re-read the watched folders and the documents' files (not while paused, when
        in the background)."""
        if self.running or (background and self.paused.isChecked()):
            return False
        return self._run(lambda report: self.store.sync(progress=report))

    def _run(self, fn: Callable[..., AddReport], *args: object) -> bool:
        self.running = True
        self._stop.clear()
        for w in (self.add_files, self.add_folder, self.reindex):
            w.setEnabled(False)

        def step(done: int, total: int) -> None:
            self.progress.emit(self.tr("Reading documents…"), done, total)

        def done(report: AddReport) -> None:
            self._finished()
            if report.refused:
                QMessageBox.warning(
                    self,
                    self.tr("Some files were not added"),
                    "\n".join(report.refused[:20]),
                )
            text = self.said(report)
            if text:
                self.status.emit(text)

        def failed(text: str) -> None:
            self._finished()
            self.status.emit(text)

        tasks.run(fn, *args, done=done, failed=failed, progress=step)
        return True

    def said(self, report: AddReport) -> str:
        """What the status line says of an add or a re-reading ("" when there is nothing
        to say: nothing changed, nothing went wrong). Files that were not added are
        listed in a box of their own."""
        changed = len(report.added) + len(report.updated) + len(report.removed)
        text = self.tr("Documents: %1 added, %2 updated, %3 removed.")
        text = text.replace("%1", str(len(report.added))).replace(
            "%2", str(len(report.updated))
        ).replace("%3", str(len(report.removed)))  # fmt: skip
        if report.unavailable:  # an unplugged drive: its documents stay as they were
            text += " " + self.tr(
                "%n watched folder(s) could not be read (a drive not connected?): their "
                "documents are kept.",
                "",
                len(report.unavailable),
            )
        if report.stopped is not None:  # a full disk: the files after it were not read
            text += " " + describe_exception(report.stopped, str(report.stopped))
        if report.unindexed:  # no embedding model yet: found by words until it is there
            text += " " + self.tr(
                "%n passage(s) can be found by their words until the embedding model is there.",
                "",
                report.unindexed,
            )
        if report.elsewhere:  # named for this space, kept in the one it was in
            stays = self._elsewhere(report)
            alone = not (changed or report.unavailable or report.stopped or report.unindexed)
            return stays if alone else f"{text} {stays}"
        if changed or report.refused or report.unavailable or report.stopped:
            return text
        return ""

    def _elsewhere(self, report: AddReport) -> str:
        """What stays in the space it was already in, and how to move it."""
        if len(report.elsewhere) > 1:
            return self.tr(
                "%n of them are already in other spaces and stay there: Move to space moves them.",
                "",
                len(report.elsewhere),
            )
        e = report.elsewhere[0]
        if e.folder == e.path:
            text = self.tr(
                "The folder %1 is already watched in “%2” and stays there: its Move to space "
                "moves it."
            )
        elif e.folder is not None:
            text = self.tr(
                "%1 is in a watched folder of “%2” and stays there: move its folder to move it."
            )
        else:
            text = self.tr("%1 is already in “%2” and stays there: Move to space moves it.")
        name = e.path if e.folder == e.path else Path(e.path).name
        where = space_name(e.space, names_of(self.ctx.app.spaces.list()))
        first, second = text.split("%1", 1)  # a name holding "%2" is not read as a place
        return (
            first.replace("%2", escape_controls(where))
            + escape_controls(name)
            + second.replace("%2", escape_controls(where))
        )

    def _finished(self) -> None:
        self.running = False
        for w in (self.add_files, self.add_folder, self.reindex):
            w.setEnabled(True)
        self.progress.emit("", 0, 0)

    def _pause_toggled(self, on: bool) -> None:
        if on:
            self._stop.set()  # a background pass stops at its next file (resumed later)

    # -- watched folders -------------------------------------------------------------------

    def unwatch_folder(self, keep: bool | None = None) -> bool:
        """Stop watching the chosen folder; `keep` None asks whether its documents stay."""
        folder = self.folders.currentData()
        if folder is None or self.running:
            return False
        if keep is None:
            box = QMessageBox(self)
            box.setWindowTitle(self.tr("Stop watching"))
            box.setText(
                self.tr(
                    "Stop watching %1? Its files are not touched. Remove its documents from "
                    "desktop-mem too, or keep them (no longer re-read)?"
                ).replace("%1", escape_controls(folder))
            )
            remove = box.addButton(self.tr("Remove them"), QMessageBox.ButtonRole.DestructiveRole)
            kept = box.addButton(self.tr("Keep them"), QMessageBox.ButtonRole.AcceptRole)
            box.addButton(QMessageBox.StandardButton.Cancel)
            box.exec()
            if box.clickedButton() not in (remove, kept):
                return False
            keep = box.clickedButton() is kept

        def done(n: int) -> None:
            text = (
                self.tr("No longer watching the folder; its %n document(s) stay.", "", n)
                if keep
                else self.tr(
                    "No longer watching the folder; its %n document(s) are removed.", "", n
                )
            )
            self.status.emit(text)

        tasks.run(self.store.unwatch, folder, bool(keep), done=done, failed=self.status.emit)
        return True

    # -- removing and searching -----------------------------------------------------------

    def _remove(self) -> None:
        ids = self.selected_ids()
        if not ids:
            return
        answer = QMessageBox.question(
            self,
            self.tr("Remove documents"),
            self.tr(
                "Remove %n document(s) and every passage of them from desktop-mem, for good? "
                "The files themselves are not touched.",
                "",
                len(ids),
            ),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,  # a reflexive Enter keeps them
        )
        if answer != QMessageBox.StandardButton.Yes:
            return

        def remove_all() -> None:  # the full-text index is rewritten: off the GUI thread
            for doc_id in ids:
                self.store.remove(doc_id)

        tasks.run(remove_all, failed=self.status.emit)

    def _search(self) -> None:
        self._search_timer.stop()
        query = self.search.text().strip()
        self.results.clear()
        if not query:
            return

        def found(hits: list[PassageHit]) -> None:
            if self.search.text().strip() != query:
                return  # typed on: a newer search is coming
            self.results.clear()
            self.marks.query = query
            for h in hits:
                shaped = len(self.store.answers_using(h.chunk_id))
                head = escape_controls(h.where())
                if shaped:  # the answers it shaped, as for a memory
                    head += " · " + self.tr("shaped %n answer(s)", "", shaped)
                item = QListWidgetItem(f"{head}\n{' '.join(h.text.split())[:300]}")
                item.setData(PATH_ROLE, (h.path, h.page or 0))
                self.results.addItem(item)
            if not hits:
                self.results.addItem(self.tr("No passage is about this."))

        store = self.store
        scope = self.scope()

        def work() -> list[PassageHit]:
            hits = store.search(query, 10, scope=scope)
            if hits:
                return hits
            # a passage holding the very words typed is still found
            words = set(textproc.query_terms(query))
            return [
                h
                for h in store.search(query, 10, relevant_only=False, scope=scope)
                if words & set(textproc.query_terms(h.text))
            ]

        tasks.run(work, done=found, failed=self.status.emit)

    def _open_result(self, item: QListWidgetItem) -> None:
        target = item.data(PATH_ROLE)
        if target:
            path, page = target
            url = QUrl.fromLocalFile(path)
            if page and path.lower().endswith(".pdf"):
                url.setFragment(f"page={page}")
            QDesktopServices.openUrl(url)
