"""Owns the conversation list: the space the window is in (the list shows its
conversations; new chats start there), listing, searching (as you type), opening a
conversation (at a message) in the chat view with its space in the header, renaming,
pinning, moving to another space, exporting and deleting."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, QPoint, QTimer
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMenu, QMessageBox

from desktop_mem.core import textproc
from desktop_mem.core.chat.records import ORIGINS, MessageHit
from desktop_mem.core.errors import DesktopMemError
from desktop_mem.core.memory.spaces import Scope
from desktop_mem.ui import tasks
from desktop_mem.ui.changes import describe as describe_changes
from desktop_mem.ui.changes import undo_link
from desktop_mem.ui.chat_view import ChatView
from desktop_mem.ui.context import Context
from desktop_mem.ui.conversations_panel import ConversationsPanel
from desktop_mem.ui.spaces import ALL, fill_box, move_menu, names_of, space_name
from desktop_mem.ui.sync_controller import deleted_elsewhere

SNIPPET_CHARS = 90
Found = tuple[list[MessageHit], list[str]]  # the messages a search found, and its warnings


class ConversationsController(QObject):
    def __init__(self, context: Context, panel: ConversationsPanel, chat: ChatView) -> None:
        super().__init__(context.view)
        self.ctx = context
        self.store = context.app.conversations
        self.panel = panel
        self.chat = chat
        self._searching = 0  # the latest search asked for (an older answer is dropped)
        panel.new_requested.connect(self.new_conversation)
        panel.search_requested.connect(self.search)
        panel.open_requested.connect(self.open_conversation)
        panel.message_requested.connect(self.open_message)
        panel.menu_requested.connect(self.conversation_menu)
        context.hub.conversations_changed.connect(self.refresh)
        # what the core deleted leaves the open conversation at once, not on reopening
        context.core.conversations_touched.connect(self.messages_changed)
        context.core.memories_removed.connect(chat.forget_memories)
        context.core.about_changed.connect(
            lambda: chat.forget_lines({ln.id for ln in context.app.about.lines()})
        )
        context.hub.message_requested.connect(self.open_message)
        context.hub.new_chat_requested.connect(self.new_conversation)
        panel.space_chosen.connect(context.space.choose)
        panel.manage_spaces_requested.connect(
            lambda: context.hub.settings_page_requested.emit("spaces")
        )
        context.space.changed.connect(self.space_chosen)
        context.core.spaces_changed.connect(self.spaces_changed)
        context.core.conversations_touched.connect(self.follow_moves)
        self.fill_spaces()

    def _error(self, exc: DesktopMemError) -> None:
        self.ctx.hub.error.emit(tasks.describe_exception(exc, str(exc)))

    # -- spaces ----------------------------------------------------------------------

    def fill_spaces(self) -> None:
        """The space box as the spaces are now, on the window's choice."""
        shown = fill_box(
            self.panel.space_box, self.ctx.app.spaces.list(), self.ctx.space.current,
            manage=True,
        )  # fmt: skip
        self.panel.show_space(shown)

    def scope(self) -> Scope:
        """The conversations the list shows: every space's, or the chosen one's own."""
        spaces, chosen = self.ctx.app.spaces, self.ctx.space.current
        return spaces.every() if chosen == ALL else spaces.only(self.ctx.space.for_new())

    def space_chosen(self) -> None:
        """Another space chosen: its conversations; the chat shown stays open."""
        self.panel.show_space(self.ctx.space.current)
        self.refresh()

    def spaces_changed(self) -> None:
        """Spaces made, renamed or taken out: the box, the names in the list and the
        header; a new chat whose space was taken out starts in the shared space."""
        self.fill_spaces()
        session = self.ctx.chat.session
        if session is not None and session.conversation_id is None and session.space is not None:
            known = {s.id for s in self.ctx.app.spaces.list()}
            if session.space not in known:
                self.ctx.chat.follow_space(None)
        self.refresh()
        self.show_space()

    def follow_moves(self, conversations: tuple[int, ...]) -> None:
        """The open conversation moved to another space (here, from another app or
        another computer, or with a space taken out): its next turns are given what
        that space sees, and the header says where it is."""
        cid = self.ctx.chat.conversation_id
        if cid is None or (conversations and cid not in conversations):
            return
        try:
            space = self.store.get(cid).space
        except DesktopMemError:
            return  # deleted: the list says so
        if self.ctx.chat.follow_space(space):
            self.show_space()

    def show_space(self) -> None:
        """The open chat's space in its header and the status line; nothing said while
        the profile has no space but the shared one, or in an incognito chat."""
        spaces = self.ctx.app.spaces.list()
        space = self.ctx.chat.space
        if self.ctx.chat.incognito or (not spaces and space is None):
            self.chat.set_space("", "")
        else:
            names = names_of(spaces)
            kept_apart = next((s.apart for s in spaces if s.id == space), False)
            tip = (
                self.tr("This chat is in the shared space: it is given the shared memories "
                        "only, and what it teaches is kept there.")
                if space is None
                else self.tr("This chat is in the space %1 and is kept apart: it is given "
                             "that space's memories only.").replace("%1", names.get(space, ""))
                if kept_apart
                else self.tr("This chat is in the space %1: it is given that space's "
                             "memories and the shared ones.").replace("%1", names.get(space, ""))
            )  # fmt: skip
            self.chat.set_space(space_name(space, names), tip)
        self.ctx.hub.status_changed.emit()  # the status line says it too

    # -- the list --------------------------------------------------------------------

    def _space_names(self) -> dict[int | None, str] | None:
        """Each space's name for the list's labels: when it shows every space (and
        there is more than the shared one)."""
        if self.ctx.space.current != ALL:
            return None
        spaces = self.ctx.app.spaces.list()
        if not spaces:
            return None
        names: dict[int | None, str] = {s.id: s.name for s in spaces}
        names[None] = space_name(None, {})
        return names

    def refresh(self) -> None:
        if self.panel.query():
            self.search(self.panel.query())
            return
        self.panel.model.space_names = self._space_names()
        self.panel.model.set_conversations(self.store.list(scope=self.scope()))
        self.panel.show_found(self.panel.model.count())
        self.panel.select(self.ctx.chat.conversation_id)

    def messages_changed(self, conversations: tuple[int, ...]) -> None:
        """Conversations changed (empty: any): messages of the open one that no longer
        exist (a "forget …", another app, another computer) are taken out of the view."""
        cid = self.ctx.chat.conversation_id
        if cid is None or (conversations and cid not in conversations):
            return
        shown = {w.message_id for w in self.chat.messages if w.message_id is not None}
        if not shown:
            return
        try:
            kept = {m.id for m in self.store.messages(cid)}
        except DesktopMemError:  # the conversation itself went: the list says so
            kept = set()
        if gone := shown - kept:
            self.chat.remove_messages(gone)

    def search(self, query: str) -> None:
        """Conversations whose messages are about the query, each with the message it
        was found by; "" lists them all again."""
        query = query.strip()
        self._searching += 1
        ticket = self._searching
        if not query:
            self.refresh()
            return

        def found(result: Found) -> None:
            if ticket != self._searching or self.panel.query() != query:
                return  # typed on: a newer search is coming
            hits, _warnings = result  # the window words its own states, not the core's
            by_conversation: dict[int, tuple[int, str]] = {}
            for h in hits:
                plain = textproc.shorten(textproc.plain_text(h.message.content), SNIPPET_CHARS)
                by_conversation.setdefault(h.message.conversation_id, (h.message.id, plain))
            known = {c.id: c for c in self.store.list(scope=scope)}
            rows = [known[i] for i in by_conversation if i in known]
            self.panel.model.query = query  # its matched words are marked in each hit
            self.panel.model.space_names = self._space_names()
            self.panel.model.set_conversations(rows, grouped=False, found=by_conversation)
            self.panel.show_found(len(rows))

        store = self.store
        scope = self.scope()

        def work() -> Found:
            hits, warnings = store.search(query, 20, scope=scope)
            if not hits:  # a conversation holding the very words typed is still found
                loose, warnings = store.search(query, 20, relevant_only=False, scope=scope)
                hits = [h for h in loose if "keyword" in h.signals]
            return hits, warnings

        tasks.run(work, done=found, failed=self.ctx.hub.error.emit)

    def new_conversation(self, incognito: bool = False) -> None:
        if self.ctx.chat.busy:
            return
        try:  # in the space chosen (a space taken out meanwhile: the shared one)
            self.ctx.chat.open(None, incognito, space=self.ctx.space.for_new())
        except DesktopMemError:
            self.ctx.chat.open(None, incognito)
        self.chat.clear()
        self.chat.title.setText(
            self.tr("Incognito conversation") if incognito else self.tr("New conversation")
        )
        self.show_space()
        self.panel.list.clearSelection()
        self.ctx.hub.chat_shown.emit()
        self.ctx.hub.page_requested.emit("chat")
        self.chat.input.setFocus()

    def open_conversation(self, conversation_id: int | None) -> None:
        if self.ctx.chat.busy or conversation_id is None:
            return
        try:
            conv = self.store.get(conversation_id)
        except DesktopMemError as exc:
            self._error(exc)
            self.refresh()
            return
        self.ctx.chat.open(conversation_id, False)
        title = conv.title or self.tr("New conversation")
        if conv.origin:  # imported: say where from, and when it began
            title += "  ·  " + self.tr("from %1, %2").replace(
                "%1", ORIGINS.get(conv.origin, conv.origin)
            ).replace("%2", conv.created_at[:10])
        self.chat.title.setText(title)
        self.show_space()
        self.show_messages(conversation_id)
        self.panel.select(conversation_id)
        self.ctx.hub.chat_shown.emit()  # readable while the model server is down
        QTimer.singleShot(0, self.chat.scroll_to_end)  # the latest turn, as chats open

    def show_messages(self, conversation_id: int) -> None:
        """The conversation's messages as they are now, with what each answer was given
        and what each exchange taught."""
        self.chat.clear()
        messages = self.store.messages(conversation_id)
        passages = self.store.passages_given([m.id for m in messages if m.role == "assistant"])
        taught = self.store.learned_from([m.id for m in messages if m.role == "user"])
        versions = self.store.versions(conversation_id)
        last_user: int | None = None
        for m in messages:
            if m.role == "user":
                last_user = m.id
            if m.role == "system":
                continue
            w = self.chat.add_message(m.role, m.content, m.created_at)
            w.message_id = m.id
            w.set_versions(*versions.get(m.id, (1, 1)))
            w.set_status(m.status, m.error)
            if m.command_reply:  # the command and the app's reply: nothing to redo
                w.set_command()
                asked = self.chat.messages[-2] if len(self.chat.messages) > 1 else None
                if asked is not None and asked.role == "user":
                    asked.set_command()
            if m.role == "assistant" and last_user in taught:  # kept, as when it was learned
                undo = self.ctx.app.memories.undoable(last_user) is not None  # still can be
                said = describe_changes(taught[last_user]) + (undo_link() if undo else "")
                w.set_notice(said, taught=True)
            if m.role == "assistant":
                w.set_given(m.used, m.recalled, passages.get(m.id, []), m.about)

    def show_version(self, message_id: int, step: int) -> None:
        """Show another version of a message ("‹ 2/3 ›"): the conversation from there on
        as it was with that version; the choice is kept."""
        cid = self.ctx.chat.conversation_id
        if self.ctx.chat.busy or cid is None:
            return
        try:
            other = self.store.show_version(message_id, step)
            if other is None:
                return
        except DesktopMemError as exc:
            self._error(exc)
            return
        self.show_messages(cid)
        shown = next((w for w in self.chat.messages if w.message_id == other), None)
        if shown is not None:
            QTimer.singleShot(0, lambda: self.chat.show_message(shown))

    def open_message(self, message_id: int) -> None:
        try:
            msg = self.store.message(message_id)
        except DesktopMemError as exc:
            self._error(exc)
            return
        self.ctx.hub.page_requested.emit("chat")
        if self.ctx.chat.conversation_id != msg.conversation_id:
            self.open_conversation(msg.conversation_id)
        for w in self.chat.messages:
            if w.message_id == message_id:  # after the scroll to the end opening queued
                QTimer.singleShot(0, lambda w=w: self.chat.show_message(w))

    def conversation_menu(self, pos: QPoint) -> None:
        conv = self.panel.conversation_at(pos)
        if conv is None:
            return
        menu = QMenu(self.panel)
        pin = menu.addAction(self.tr("Unpin") if conv.pinned else self.tr("Pin to the top"))
        rename = menu.addAction(self.tr("Rename…"))
        menu.addMenu(
            move_menu(
                menu, self.ctx.app.spaces.list(), {conv.space},
                lambda space: self.move_conversation(conv.id, space),
            )
        )  # fmt: skip
        export = menu.addAction(self.tr("Export…"))
        delete = menu.addAction(self.tr("Delete…"))
        chosen = menu.exec(self.panel.list.viewport().mapToGlobal(pos))
        if chosen is pin:
            self.pin_conversation(conv.id, not conv.pinned)
        elif chosen is rename:
            self.rename_conversation(conv.id)
        elif chosen is export:
            self.export_conversation(conv.id)
        elif chosen is delete:
            self.delete_conversation(conv.id)

    def pin_conversation(self, conversation_id: int, pinned: bool) -> None:
        try:
            self.store.pin(conversation_id, pinned)  # the core says so: the list follows
        except DesktopMemError as exc:
            self._error(exc)

    def move_conversation(self, conversation_id: int, space: int | None) -> None:
        """Move a conversation, with its messages, to a space (None: the shared one);
        the memories learned from it stay where they are."""
        try:
            moved = self.store.move(conversation_id, space)  # the core says so: the list follows
        except DesktopMemError as exc:
            self._error(exc)
            return
        names = names_of(self.ctx.app.spaces.list())
        said = (
            self.tr("“%1” is now in the shared space.")
            if space is None
            else self.tr("“%1” is now in the space %2.").replace("%2", space_name(space, names))
        )
        self.ctx.hub.status.emit(
            said.replace("%1", moved.title or self.tr("New conversation")), 8000
        )

    def rename_conversation(self, conversation_id: int, title: str | None = None) -> None:
        if title is None:
            current = self.store.get(conversation_id).title
            title, ok = QInputDialog.getText(
                self.ctx.view, self.tr("Rename"), self.tr("Title"), text=current
            )
            if not ok:
                return
        try:
            self.store.rename(conversation_id, title)  # the core says so: the list follows
        except DesktopMemError as exc:
            self._error(exc)
            return
        if self.ctx.chat.conversation_id == conversation_id:
            self.chat.title.setText(title)

    def export_conversation(self, conversation_id: int) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self.ctx.view,
            self.tr("Export conversation"),
            str(Path(self.ctx.file_folder()) / "conversation.md"),
            self.tr("Markdown (*.md);;JSON (*.json)"),
        )
        if not path:
            return
        self.ctx.remember_folder(path)
        fmt = "json" if path.lower().endswith(".json") else "md"
        try:
            self.store.export_to(Path(path), conversation_id, fmt)
        except DesktopMemError as exc:
            self._error(exc)
            return
        self.ctx.hub.status.emit(self.tr("Exported to %1.").replace("%1", path), 10000)

    def delete_conversation(self, conversation_id: int, confirm: bool = True) -> None:
        if confirm:
            lent = self.store.context_lent(conversation_id)
            text = self.tr("Delete this conversation for good? Memories learned from it stay.")
            if lent:
                text += " " + self.tr(
                    "%n of them will no longer quote what was said in it.", "", lent
                )
            if elsewhere := deleted_elsewhere(self.ctx):
                text += ("" if text.endswith(("？", "。")) else " ") + elsewhere
            answer = QMessageBox.question(
                self.ctx.view,
                self.tr("Delete conversation"),
                text,
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                QMessageBox.StandardButton.No,  # a reflexive Enter keeps it
            )
            if answer != QMessageBox.StandardButton.Yes:
                return
        if self.ctx.chat.conversation_id == conversation_id:
            self.new_conversation(False)

        def done(_: int) -> None:
            self.ctx.hub.work.emit(None, 0, 0)
            self.ctx.hub.status.emit(self.tr("The conversation was deleted."), 8000)

        # a purge rewrites the full-text index and checkpoints: off the GUI thread
        self.ctx.hub.work.emit(self.tr("Deleting…"), 0, 0)
        tasks.run(
            self.store.delete,
            conversation_id,
            done=done,
            failed=self.ctx.hub.error.emit,
        )
