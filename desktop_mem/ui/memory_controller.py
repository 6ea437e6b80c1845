"""Owns the memory browser's side of the window: listing and searching memories, their
details, adding, editing, pinning, deleting, import and export, consolidation."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject
from PySide6.QtWidgets import (
    QFileDialog,
    QMessageBox,
)

from desktop_mem.core.chat.extract import Change
from desktop_mem.core.errors import DesktopMemError, ImportRejected
from desktop_mem.core.memory.export import import_file, write_export
from desktop_mem.ui import tasks
from desktop_mem.ui.dialogs import TypedConfirmDialog
from desktop_mem.ui.models import MemoryTableModel

if TYPE_CHECKING:
    from desktop_mem.ui.main_window import MainWindow


class MemoryController(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.w = window
        self.import_box: QMessageBox | None = None
        self._listing = 0  # the latest listing asked for (an older one is dropped)

    def refresh_memories(self, then: Callable[[], None] | None = None) -> None:
        """List (or search) the memories again, off the GUI thread; `then` runs once
        they are shown (say, to select one)."""
        if self.w.browser.query():
            self.search_memories(self.w.browser.query(), then)
            return
        f = self.w.browser.filters()
        self._listing += 1
        ticket = self._listing

        page = MemoryTableModel.PAGE
        mem = self.w.mem

        def more(offset: int, limit: int) -> list[Any]:  # the next page, as the view scrolls
            return list(mem.memories(kind=f["kind"], pinned=f["pinned"], since=f["since"],
                                     limit=limit, offset=offset))  # fmt: skip

        def first_page() -> tuple[list[Any], int]:
            if f["kind"] or f["pinned"] is not None or f["since"]:
                rows = more(0, -1)  # filtered: all of them (and so their count)
                return rows, len(rows)
            return more(0, page), mem.profile.memories.count()

        def listed(result: tuple[list[Any], int]) -> None:
            if ticket == self._listing and not self.w.browser.query():  # the latest one
                rows, total = result
                self.w.browser.show_memories(
                    rows, more=more if len(rows) < total else None, total=total
                )
                if then is not None:
                    then()

        # read off the GUI thread, a page at a time: 100,000 memories are not read at once
        tasks.run(first_page, done=listed, failed=self.w.show_error)

    def search_memories(self, query: str, then: Callable[[], None] | None = None) -> None:
        f = self.w.browser.filters()

        def found(result: Any) -> None:
            if self.w.browser.query() != query:
                return  # typed on: a newer search is coming
            hits = [h for h in result.hits if f["pinned"] is None or h.memory.pinned]
            if f["since"]:
                hits = [h for h in hits if h.memory.created_at[:10] >= f["since"]]
            self.w.browser.show_memories(
                [h.memory for h in hits], {h.memory.id: h.score for h in hits}
            )
            if result.warnings:
                self.w.statusBar().showMessage(result.warnings[0], 8000)
            if then is not None:
                then()

        kinds = {f["kind"]} if f["kind"] else None
        tasks.run(
            self.w.mem.search,
            query,
            50,
            everything=self.w.browser.all_matches.isChecked(),
            kinds=kinds,
            done=found,
            failed=self.w.show_error,
        )

    def show_memory(self, memory_id: int) -> None:
        self.w.show_page("memories")
        if not self.w.browser.select(memory_id):
            self.w.browser.search.clear()
            self.refresh_memories(lambda: self.w.browser.select(memory_id))
        self.show_memory_details(memory_id)

    def show_memory_details(self, memory_id: int) -> None:
        try:
            memory = self.w.mem.get(memory_id)
        except DesktopMemError:
            self.w.browser.show_details(None, [], [])
            return
        versions = self.w.mem.history(memory_id)
        answers = [(m.id, m.content) for m in self.w.conversations.answers_using(memory_id)]
        origin = None
        if memory.source_message_id:
            try:
                msg = self.w.conversations.message(memory.source_message_id)
                origin = (msg.id, msg.content)
            except DesktopMemError:
                origin = None
        from desktop_mem.core.clients import ClientRegistry

        seen: dict[str, str] = {}  # each app once, with its latest use
        for a in ClientRegistry(self.w.profile.db).access_for_memory(memory_id):
            seen.setdefault(a.client, a.at)
        self.w.browser.show_details(memory, versions, answers, origin, list(seen.items()))

    def memory_changed(self, memory_id: int | None = None) -> None:
        self.w.show_work(None)
        shown = self.w.browser.current

        def reselect() -> None:
            if memory_id is not None:
                self.w.browser.select(memory_id)
                self.show_memory_details(memory_id)
            elif shown is not None:  # shown again as it is now; cleared if it was deleted
                self.show_memory_details(shown.id)

        self.refresh_memories(reselect)

    def add_memory(self, text: str, kind: str, pinned: bool) -> None:
        self.w.show_work(self.tr("Saving the memory…"))
        tasks.run(
            self.w.mem.add,
            text,
            kind=kind,
            pinned=pinned,
            done=lambda r: self.memory_changed(r.memory.id),
            failed=self.w.show_error,
        )

    def save_memory(
        self, memory_id: int, text: str, kind: str, importance: float, until: str = ""
    ) -> None:
        self.w.show_work(self.tr("Saving the memory…"))
        tasks.run(
            self.w.mem.update,
            memory_id,
            text=text,
            kind=kind,
            importance=importance,
            valid_until=until or None,
            clear_valid_until=not until,
            done=lambda r: self.memory_changed(memory_id),
            failed=self.w.show_error,
        )

    def pin_memory(self, memory_id: int, pinned: bool) -> None:
        tasks.run(
            self.w.mem.pin,
            memory_id,
            pinned,
            done=lambda _m: self.memory_changed(memory_id),
            failed=self.w.show_error,
        )

    def restore_memory(self, memory_id: int, version: int) -> None:
        tasks.run(
            self.w.mem.restore,
            memory_id,
            version,
            done=lambda r: self.memory_changed(memory_id),
            failed=self.w.show_error,
        )

    def delete_memories(self, ids: list[int], confirm: bool = True) -> None:
        if confirm:
            used = sum(len(self.w.conversations.answers_using(i)) for i in ids)
            text = self.tr("Delete %n memory(s) for good, with their history?", "", len(ids))
            if used:
                text += " " + self.tr("They shaped %n answer(s).", "", used)
            answer = QMessageBox.question(self.w, self.tr("Delete memories"), text)
            if answer != QMessageBox.StandardButton.Yes:
                return
        self.w.show_work(self.tr("Deleting…"))

        tasks.run(
            self.w.mem.delete,
            *ids,
            done=lambda _n: self.memory_changed(),  # clears the details of a deleted one
            failed=self.w.show_error,
        )

    def forget_all(self, confirmed: bool = False, keep_conversations: bool = False) -> None:
        """Every memory, and (unless the user keeps them to read, out of every prompt)
        every conversation that said it; the chat says how much went."""
        if self.w.turns.turn_busy:
            return
        if not confirmed:
            from desktop_mem.ui.forget_dialog import ForgetEverythingDialog

            messages = int(self.w.profile.db.query("SELECT count(*) FROM messages")[0][0])
            dialog = ForgetEverythingDialog(
                self.w.profile.memories.count(),
                messages,
                len(self.w.conversations.list()),
                self.w,
            )
            if dialog.exec() != ForgetEverythingDialog.DialogCode.Accepted:
                return
            keep_conversations = dialog.keep.isChecked()
        if not keep_conversations:
            self.w.threads.new_conversation(False)
        self.w.show_work(self.tr("Forgetting everything…"))

        def done(result: Any) -> None:
            self.w.threads.refresh_conversations()
            self.memory_changed()
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
            self.w.statusBar().showMessage(text, 15000)

        tasks.run(
            self.w.profile.forget_everything,
            keep_conversations,
            done=done,
            failed=self.w.show_error,
        )

    def delete_everything(self, confirmed: bool = False) -> None:
        """Every conversation and every memory, for good (as `desktop-mem wipe`); the
        settings and the key stay."""
        if self.w.turns.turn_busy:
            return
        if not confirmed:
            dialog = TypedConfirmDialog(
                self.tr("Delete everything"),
                self.tr(
                    "This deletes all %1 conversations and all %2 memories of this profile "
                    "for good. The settings and the key stay."
                )
                .replace("%1", str(len(self.w.conversations.list())))
                .replace("%2", str(self.w.profile.memories.count())),
                self.tr("DELETE"),
                self.w,
            )
            if dialog.exec() != TypedConfirmDialog.DialogCode.Accepted:
                return
        self.w.threads.new_conversation(False)
        self.w.show_work(self.tr("Deleting everything…"))

        def wipe() -> int:
            self.w.conversations.delete_all()
            return self.w.profile.memories.forget_all()

        def done(_n: int) -> None:
            self.w.threads.refresh_conversations()
            self.memory_changed()

        tasks.run(wipe, done=done, failed=self.w.show_error)

    def export_memories(self, path: str | None = None) -> None:
        if path is None:
            path, _ = QFileDialog.getSaveFileName(
                self.w,
                self.tr("Export memories"),
                str(Path(self.w.file_folder()) / "memories.json"),
                self.tr("JSON (*.json);;Markdown (*.md)"),
            )
            if not path:
                return
            self.w.remember_folder(path)
        fmt = "md" if path.lower().endswith((".md", ".markdown", ".txt")) else "json"
        self.w.show_work(self.tr("Exporting…"))
        tasks.run(
            write_export,
            self.w.profile.memories,
            Path(path),
            fmt,
            self.w.profile.config.profile,
            done=lambda n: self.exported(n, path),
            failed=self.w.show_error,
        )

    def exported(self, count: int, path: str) -> None:
        self.w.show_work(None)
        self.w.statusBar().showMessage(
            self.tr("Exported %n memory(s) to %1. That file is not encrypted.", "", count).replace(
                "%1", path
            ),
            10000,
        )

    def import_memories(self, path: str | None = None) -> None:
        if path is None:
            path, _ = QFileDialog.getOpenFileName(
                self.w, self.tr("Import memories"), self.w.file_folder(),
                self.tr("Memories (*.json *.md *.markdown *.txt *.csv);;All files (*)"),
            )  # fmt: skip
            if not path:
                return
            self.w.remember_folder(path)

        def work(report: Any) -> Any:
            return import_file(self.w.profile.memories, Path(path), progress=report)

        def failed_import(text: str, exc: Any) -> None:
            self.w.show_work(None)
            if isinstance(exc, ImportRejected):
                rows = "\n".join(self.tr("line %1: %2").replace("%1", str(ln)).replace("%2", msg)
                                 for ln, msg in exc.problems[:30])  # fmt: skip
                box = QMessageBox(
                    QMessageBox.Icon.Warning, self.tr("Nothing was imported"), text, parent=self.w
                )
                box.setDetailedText(rows)
                box.open()
                self.import_box = box
            else:
                self.w.show_error(text)

        tasks.run(
            work,
            done=lambda r: self.imported(r),
            progress=lambda d, t: self.w.show_work(self.tr("Importing…"), d, t),
            failed_with=failed_import,
        )

    def imported(self, report: Any) -> None:
        self.w.show_work(None)
        self.refresh_memories()
        msg = self.tr("Imported %n memory(s).", "", report.imported)
        if report.duplicates:
            msg += " " + self.tr("%n already known, skipped.", "", report.duplicates)
        self.w.statusBar().showMessage(msg, 10000)

    def consolidate(self) -> None:
        if self.w.turns.session is None:
            return
        self.w.show_work(self.tr("Consolidating memories…"))
        tasks.run(
            self.w.turns.session.extractor.sleep,
            datetime.now(UTC),
            done=self.consolidated,
            failed=self.w.show_error,
        )

    def slept(self, changes: list[Change]) -> None:
        """A sleep-time pass ran while the window was idle: say so quietly."""
        if not changes:
            return
        self.refresh_memories()
        self.w.statusBar().showMessage(
            self.tr(
                "While you were away, %n memory(s) were tidied (merged or marked out of "
                "date); each memory's History can undo it.",
                "",
                len(changes),
            ),
            30000,
        )

    def consolidated(self, changes: list[Change]) -> None:
        self.w.show_work(None)
        self.refresh_memories()
        self.w.statusBar().showMessage(
            self.tr("Consolidation: %n change(s).", "", len(changes)), 10000
        )
