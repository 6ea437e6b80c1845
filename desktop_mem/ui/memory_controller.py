"""Owns the memory browser's side of the window: listing and searching memories (in
every space, or one space's), their details, adding, editing, pinning, moving between
spaces, deleting, import and export, consolidation."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QFileDialog, QMessageBox
from shiboken6 import isValid

from desktop_mem.core.chat.records import Change
from desktop_mem.core.errors import DesktopMemError, ImportRejected
from desktop_mem.core.memory.records import Memory, NewMemory
from desktop_mem.core.memory.spaces import Scope
from desktop_mem.core.service.memories import Browsed
from desktop_mem.ui import tasks
from desktop_mem.ui.confirm_dialog import TypedConfirmDialog
from desktop_mem.ui.context import Context
from desktop_mem.ui.item_models import MemoryTableModel
from desktop_mem.ui.memory_browser import Filters, MemoryBrowser
from desktop_mem.ui.memory_cards import computer_label
from desktop_mem.ui.spaces import ALL, names_of, space_name
from desktop_mem.ui.sync_controller import deleted_elsewhere
from desktop_mem.ui.tasks import Report

if TYPE_CHECKING:
    from desktop_mem.core.service import Forgot
    from desktop_mem.core.service.memories import ImportReport

SEARCH_K = 50

# the synced computers' names by id, and the memories edited on two computers at once
# that the user has not looked at
SyncMarks = tuple[dict[str, str], set[int]]


def _fits(memory: Memory, f: Filters) -> bool:
    """Whether a memory passes the browser's filters (as the store's list applies them)."""
    return (
        (not f["kind"] or memory.kind == f["kind"])
        and (f["pinned"] is None or memory.pinned)
        and (f["always"] is None or memory.always)
        and (not f["since"] or memory.created_at[:10] >= f["since"])
        and (f["space"] == ALL or memory.space == f["space"])
    )


class MemoryController(QObject):
    def __init__(self, context: Context, browser: MemoryBrowser) -> None:
        super().__init__(context.view)
        self.ctx = context
        self.app = context.app
        self.browser = browser
        self._focus: int | None = None  # a memory to select once the list is read again
        self.import_box: QMessageBox | None = None
        self._listing = 0  # the latest listing asked for (an older one is dropped)
        b = browser
        b.refresh_requested.connect(self.refresh_memories)
        b.search_requested.connect(self.search_memories)
        b.selected.connect(self.show_memory_details)
        b.add_requested.connect(self.add_memory)
        b.save_requested.connect(self.save_memory)
        b.pin_requested.connect(self.pin_memory)
        b.always_requested.connect(self.set_always)
        b.delete_requested.connect(self.delete_memories)
        b.forget_all_requested.connect(self.forget_all)
        b.restore_requested.connect(self.restore_memory)
        b.export_requested.connect(self.export_memories)
        # one door for every import: it tells this app's memories files from other exports
        b.import_requested.connect(lambda: self.ctx.hub.import_requested.emit(None))
        b.message_requested.connect(context.hub.message_requested)
        b.move_requested.connect(self.move_memories)
        context.hub.memories_changed.connect(self.memory_changed)
        context.core.spaces_changed.connect(self.spaces_changed)
        b.set_spaces(self.app.spaces.list())
        context.hub.memory_requested.connect(self.show_memory)
        context.hub.edited_on_both_requested.connect(self.show_edited_on_both)

    def _error(self, text: str) -> None:
        self.ctx.hub.work.emit(None, 0, 0)
        self.ctx.hub.error.emit(text)

    def _working(self, text: str | None) -> None:
        self.ctx.hub.work.emit(text, 0, 0)

    def scope(self, space: object) -> Scope:
        """The memories the browser's space filter shows: every space's (ALL), or one
        space's own (None: the shared space's)."""
        spaces = self.app.spaces
        if space == ALL:
            return spaces.every()
        return spaces.only(space if isinstance(space, int) else None)

    def spaces_changed(self) -> None:
        """Spaces made, renamed or taken out: the filter, and the names on the cards."""
        self.browser.set_spaces(self.app.spaces.list())
        self.memory_changed()

    def move_memories(self, ids: list[int], space: int | None) -> None:
        """Move memories to a space (None: make them shared), each with its history;
        the list follows what the core announces."""
        if not ids:
            return
        names = names_of(self.app.spaces.list())

        def moved(n: int) -> None:
            self.ctx.hub.status.emit(
                self.tr("Made %n memory(s) shared.", "", n)
                if space is None
                else self.tr("Moved %n memory(s) to %1.", "", n).replace(
                    "%1", space_name(space, names)
                ),
                8000,
            )

        tasks.run(self.app.memories.move, ids, space, done=moved, failed=self._error)

    def refresh_memories(self, then: Callable[[], None] | None = None) -> None:
        """List (or search) the memories again, off the GUI thread; `then` runs once
        they are shown (say, to select one)."""
        if self.browser.query():
            self.search_memories(self.browser.query(), then)
            return
        f = self.browser.filters()
        self._listing += 1
        ticket = self._listing
        page = MemoryTableModel.PAGE
        store = self.app.memories
        scope = self.scope(f["space"])

        def more(offset: int, limit: int) -> list[Memory]:  # the next page, as the view scrolls
            return store.list(kind=f["kind"], pinned=f["pinned"], always=f["always"],
                              since=f["since"], limit=limit, offset=offset,
                              scope=scope)  # fmt: skip

        def first_page() -> tuple[list[Memory], int]:
            if f["edited_on_both"]:  # few: read whole, then the other filters
                ids = list(dict.fromkeys(c[0] for c in self.app.sync.conflicts()))
                rows = [m for m in store.get_many(ids) if _fits(m, f)]
                return rows, len(rows)
            if f["kind"] or f["pinned"] is not None or f["always"] is not None or f["since"]:
                rows = more(0, -1)  # filtered: all of them (and so their count)
                return rows, len(rows)
            if f["space"] == ALL:
                return more(0, page), store.count()
            space = f["space"] if isinstance(f["space"], int) else None
            return more(0, page), self.app.spaces.counts().get(space, (0, 0))[0]

        def read() -> tuple[list[Memory], int, SyncMarks]:
            rows, total = first_page()
            return rows, total, self._sync_marks()

        def listed(result: tuple[list[Memory], int, SyncMarks]) -> None:
            if not isValid(self.browser.search):
                return  # the window closed while the memories were read
            if ticket == self._listing and not self.browser.query():  # the latest one
                rows, total, marks = result
                self._mark(marks)
                self.browser.show_memories(
                    rows, more=more if len(rows) < total else None, total=total
                )
                if then is not None:
                    then()

        # read off the GUI thread, a page at a time: 100,000 memories are not read at once
        tasks.run(read, done=listed, failed=self._error)

    def search_memories(self, query: str, then: Callable[[], None] | None = None) -> None:
        """The memories the search finds, best first, each with its relevance: those whose
        relevance makes them a match (what the relevance rule keeps), and with "Weak
        matches too" the weak ones below them (service: browse)."""
        f = self.browser.filters()
        kinds = {f["kind"]} if f["kind"] else None
        weak_too = self.browser.all_matches.isChecked()
        browse = self.app.memories.browse
        scope = self.scope(f["space"])

        def work() -> tuple[list[Browsed], SyncMarks]:
            found = [
                b for b in browse(query, SEARCH_K, kinds=kinds, scope=scope) if weak_too or b.match
            ]
            return found, self._sync_marks()

        both = {c[0] for c in self.app.sync.conflicts()} if f["edited_on_both"] else None

        def keep(b: Browsed) -> bool:
            if both is not None and b.memory.id not in both:
                return False
            if f["pinned"] is not None and not b.memory.pinned:
                return False
            if f["always"] is not None and not b.memory.always:
                return False
            return not f["since"] or b.memory.created_at[:10] >= f["since"]

        def found(result: tuple[list[Browsed], SyncMarks]) -> None:
            if not isValid(self.browser.search) or self.browser.query() != query:
                return  # typed on: a newer search is coming
            hits = [b for b in result[0] if keep(b)]
            scores = {b.memory.id: (b.relevance, not b.match) for b in hits}
            # the window says itself what is not indexed yet (the status bar), in its words
            self._mark(result[1])
            self.browser.show_memories([b.memory for b in hits], scores)
            if then is not None:
                then()

        tasks.run(work, done=found, failed=self._error)

    def _sync_marks(self) -> SyncMarks:
        """The synced computers' names by id ("from laptop" on a card) and the memories
        edited on two computers at once that were not looked at; off the GUI thread."""
        sync = self.app.sync
        if not sync.enabled:
            return {}, set()
        return sync.origin_names(), {c[0] for c in sync.conflicts(unseen_only=True)}

    def _mark(self, marks: SyncMarks) -> None:
        self.browser.model.computers, self.browser.model.edited_on_both = marks

    def show_edited_on_both(self) -> None:
        """The memory list, filtered to the memories edited on two computers at once
        (the one there is, shown in the drawer)."""
        self.ctx.hub.page_requested.emit("memories")
        ids = list(dict.fromkeys(c[0] for c in self.app.sync.conflicts()))
        self.browser.search.clear()
        self.browser.set_edited_on_both(True)
        if len(ids) == 1:
            self.refresh_memories(lambda: self._select(ids[0]))
            self.show_memory_details(ids[0])

    def show_memory(self, memory_id: int) -> None:
        try:
            self.app.memories.get(memory_id)
        except DesktopMemError:  # a link to it outlived it: said, not an empty page
            self.ctx.hub.status.emit(
                self.tr("That memory was forgotten: it is no longer kept."), 10000
            )
            return
        self.ctx.hub.page_requested.emit("memories")
        if not self.browser.select(memory_id):
            self.browser.set_edited_on_both(False, refresh=False)  # it may be another
            self.browser.show_every_space()  # it may be in another space
            self.browser.search.clear()
            self.refresh_memories(lambda: self._select(memory_id))
        self.show_memory_details(memory_id)

    def _select(self, memory_id: int) -> None:
        self.browser.select(memory_id)

    def show_memory_details(self, memory_id: int) -> None:
        memories = self.app.memories
        try:
            memory = memories.get(memory_id)
        except DesktopMemError:
            self.browser.show_details(None, [], [])
            return
        versions = memories.history(memory_id)
        answers = [(m.id, m.content) for m in memories.answers_using(memory_id)]
        seen: dict[str, str] = {}  # each app once, with its latest use
        for a in memories.apps_that_used(memory_id):
            who = {
                "no key": self.tr("an app without a key"),
                "invalid key": self.tr("an app with a key that is not valid"),
            }.get(a.caller, a.client)
            seen.setdefault(who, a.at)
        origin = memories.origin(memory)
        proposals = memories.proposals_for(memory_id)
        names = self.browser.model.computers
        computer = computer_label(memory, names) or None
        # each version made on another synced computer says which
        here = self.app.sync.this_computer()
        made_on = [
            (names.get(v.device) or None) if v.device and v.device != here else None
            for v in versions
        ]
        both = self.app.sync.edited_on_both(memory_id)
        self.browser.show_details(
            memory, versions, answers, origin, list(seen.items()), proposals=proposals,
            computer=computer, made_on=made_on, edited_on_both=both,
        )  # fmt: skip
        if both:  # an edit made on two computers at once is seen now
            if memory_id in self.browser.model.edited_on_both:  # its card's mark goes
                self.browser.model.edited_on_both.discard(memory_id)
                self.browser.list.viewport().update()
            tasks.run(
                self.app.sync.mark_conflicts_seen, [memory_id], done=lambda _n: None,
                failed=lambda _text: None,
            )  # fmt: skip

    def memory_changed(self, memory_id: int | None = None) -> None:
        """The memories changed (the core said so; `memory_id`: one this window just
        wrote, to select once the list is read again)."""
        self._working(None)
        if memory_id is not None:
            self._focus = memory_id
        shown = self.browser.current

        def reselect() -> None:
            focus, self._focus = self._focus, None
            if focus is not None:
                self.browser.select(focus)
                self.show_memory_details(focus)
            elif shown is not None:  # shown again as it is now; cleared if it was deleted
                self.show_memory_details(shown.id)

        self.refresh_memories(reselect)

    def _written(self, memory_id: int | None = None) -> None:
        """A write this window asked for is done. The store announced it, and the list
        is read again from that announcement (memory_changed), not from here: this only
        says which memory to select, now if the list already holds it (the announcement
        came first), else once it is read again."""
        self._working(None)
        if memory_id is None:
            return
        self._focus = memory_id
        if self.browser.select(memory_id):
            self._focus = None
            self.show_memory_details(memory_id)

    def add_memory(self, text: str, kind: str, pinned: bool) -> None:
        self._working(self.tr("Saving the memory…"))
        new = NewMemory(text, kind=kind, pinned=pinned, source="user")
        tasks.run(
            self.app.memories.add,
            new,
            "user",
            done=lambda r: self._written(r.memory.id),
            failed=self._error,
        )

    def save_memory(
        self, memory_id: int, text: str, kind: str, importance: float, until: str = ""
    ) -> None:
        self._working(self.tr("Saving the memory…"))

        def saved(_r: object) -> None:
            self._written(memory_id)
            self.ctx.hub.status.emit(self.tr("The memory was saved."), 5000)

        tasks.run(
            self.app.memories.edit,
            memory_id,
            text=text,
            kind=kind,
            importance=importance,
            valid_until=until or None,
            clear_valid_until=not until,
            done=saved,
            failed=self._error,
        )

    def pin_memory(self, memory_id: int, pinned: bool) -> None:
        tasks.run(
            self.app.memories.pin,
            memory_id,
            pinned,
            done=lambda _m: self._written(memory_id),
            failed=self._error,
        )

    def set_always(self, memory_id: int, always: bool) -> None:
        """Give a memory in every chat, or only when it is found."""
        tasks.run(
            self.app.memories.set_always,
            memory_id,
            always,
            done=lambda _m: self._written(memory_id),
            failed=self._error,
        )

    def restore_memory(self, memory_id: int, version: int) -> None:
        tasks.run(
            self.app.memories.restore,
            memory_id,
            version,
            done=lambda _r: self._written(memory_id),
            failed=self._error,
        )

    def delete_memories(self, ids: list[int], confirm: bool = True) -> None:
        if confirm:
            used = sum(len(self.app.memories.answers_using(i)) for i in ids)
            text = self.tr("Delete %n memory(s) for good, with their history?", "", len(ids))
            if used:  # "It" or "They" follows the memories, "answer(s)" its own number
                text += ("" if text.endswith(("？", "。")) else " ") + (
                    self.tr("It shaped %n answer(s).", "", used)
                    if len(ids) == 1
                    else self.tr("They shaped %n answer(s).", "", used)
                )
            if elsewhere := deleted_elsewhere(self.ctx):
                text += ("" if text.endswith(("？", "。")) else " ") + elsewhere
            answer = QMessageBox.question(
                self.ctx.view,
                self.tr("Delete memories"),
                text,
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                QMessageBox.StandardButton.No,  # a reflexive Enter keeps them
            )
            if answer != QMessageBox.StandardButton.Yes:
                return
        self._working(self.tr("Deleting…"))

        def deleted(n: int) -> None:
            self._written()  # the announcement clears the details of a deleted one
            self.ctx.hub.status.emit(self.tr("Deleted %n memory(s).", "", n), 8000)

        tasks.run(self.app.memories.delete, ids, done=deleted, failed=self._error)

    def forget_all(self, confirmed: bool = False, keep_conversations: bool = False) -> None:
        """Every memory, and (unless the user keeps them to read, out of every prompt)
        every conversation that said it; the chat says how much went."""
        if self.ctx.chat.busy:
            return
        app = self.app
        if not confirmed:
            from desktop_mem.ui.forget_dialog import ForgetEverythingDialog

            counts = app.counts()
            dialog = ForgetEverythingDialog(
                counts["memories"], counts["messages"], counts["conversations"], self.ctx.view
            )
            if dialog.exec() != ForgetEverythingDialog.DialogCode.Accepted:
                return
            keep_conversations = dialog.keep.isChecked()
        if not keep_conversations:
            self.ctx.hub.new_chat_requested.emit(False)
        self._working(self.tr("Forgetting everything…"))

        def done(result: Forgot) -> None:
            self._working(None)
            if result.kept:
                text = self.tr(
                    "Forgot %n memory(s); the conversations stay to read, but the assistant "
                    "no longer sees them.",
                    "",
                    result.memories,
                )
            else:
                text = self.tr("Forgot %n memory(s)", "", result.memories) + self.tr(
                    " and deleted %n message(s).", "", result.messages
                )
            self.ctx.hub.status.emit(text, 15000)

        tasks.run(app.forget_everything, keep_conversations, done=done, failed=self._error)

    def delete_everything(self, confirmed: bool = False) -> None:
        """Every conversation and every memory, for good (as `wipe` on the command
        line); the settings and the key stay."""
        if self.ctx.chat.busy:
            return
        if not confirmed:
            counts = self.app.counts()
            dialog = TypedConfirmDialog(
                self.tr("Delete everything"),
                self.tr(
                    "This deletes all %1 conversations and all %2 memories of this profile "
                    "for good. The settings and the key stay."
                )
                .replace("%1", str(counts["conversations"]))
                .replace("%2", str(counts["memories"])),
                self.tr("DELETE"),
                self.ctx.view,
            )
            if dialog.exec() != TypedConfirmDialog.DialogCode.Accepted:
                return
        self.ctx.hub.new_chat_requested.emit(False)
        self._working(self.tr("Deleting everything…"))

        tasks.run(
            self.app.forget_everything, done=lambda _f: self._working(None), failed=self._error
        )

    def export_memories(self, path: str | None = None) -> None:
        if path is None:
            path, _ = QFileDialog.getSaveFileName(
                self.ctx.view,
                self.tr("Export memories"),
                str(Path(self.ctx.file_folder()) / "memories.json"),
                self.tr("JSON (*.json);;Markdown (*.md)"),
            )
            if not path:
                return
            self.ctx.remember_folder(path)
        fmt = "md" if path.lower().endswith((".md", ".markdown", ".txt")) else "json"
        self._working(self.tr("Exporting…"))
        tasks.run(
            self.app.memories.export,
            Path(path),
            fmt,
            done=lambda n: self.exported(n, path),
            failed=self._error,
        )

    def exported(self, count: int, path: str) -> None:
        self._working(None)
        self.ctx.hub.status.emit(
            self.tr("Exported %n memory(s) to %1. That file is not encrypted.", "", count).replace(
                "%1", path
            ),
            10000,
        )

    def import_memories(self, path: str | None = None) -> None:
        if path is None:
            path, _ = QFileDialog.getOpenFileName(
                self.ctx.view, self.tr("Import memories"), self.ctx.file_folder(),
                self.tr("Memories (*.json *.md *.markdown *.txt *.csv);;All files (*)"),
            )  # fmt: skip
            if not path:
                return
            self.ctx.remember_folder(path)

        def work(report: Report) -> ImportReport:
            return self.app.memories.import_file(Path(path), progress=report)

        def failed_import(text: str, exc: BaseException) -> None:
            self._working(None)
            if isinstance(exc, ImportRejected):
                rows = "\n".join(self.tr("line %1: %2").replace("%1", str(ln)).replace("%2", msg)
                                 for ln, msg in exc.problems[:30])  # fmt: skip
                box = QMessageBox(
                    QMessageBox.Icon.Warning, self.tr("Nothing was imported"), text,
                    parent=self.ctx.view,
                )  # fmt: skip
                box.setDetailedText(rows)
                box.open()
                self.import_box = box
            else:
                self.ctx.hub.error.emit(text)

        tasks.run(
            work,
            done=self.imported,
            progress=lambda d, t: self.ctx.hub.work.emit(self.tr("Importing…"), d, t),
            failed_with=failed_import,
        )

    def imported(self, report: ImportReport) -> None:
        self._working(None)
        msg = self.tr("Imported %n memory(s).", "", report.imported)
        if report.duplicates:
            msg += " " + self.tr("%n already known, skipped.", "", report.duplicates)
        self.ctx.hub.status.emit(msg, 10000)

    def consolidate(self) -> None:
        self._working(self.tr("Consolidating memories…"))
        tasks.run(self.app.memories.consolidate, done=self.consolidated, failed=self._error)

    def slept(self, changes: list[Change]) -> None:
        """A sleep-time pass ran while the window was idle: say so quietly."""
        if not changes:
            return
        self.ctx.hub.status.emit(
            self.tr(
                "While you were away, %n memory(s) were tidied (merged or marked out of "
                "date); each memory's History can undo it.",
                "",
                len(changes),
            ),
            30000,
        )

    def consolidated(self, changes: list[Change]) -> None:
        self._working(None)
        self.ctx.hub.status.emit(self.tr("Consolidation: %n change(s).", "", len(changes)), 10000)
