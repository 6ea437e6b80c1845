"""Owns the conversation list: listing, searching, opening (at a message), renaming,
exporting and deleting conversations."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import (
    QFileDialog,
    QMenu,
    QMessageBox,
)

from desktop_mem.core.errors import DesktopMemError
from desktop_mem.core.memory.export import write_private
from desktop_mem.ui import tasks
from desktop_mem.ui.changes import describe as describe_changes

if TYPE_CHECKING:
    from desktop_mem.ui.main_window import MainWindow


class ConversationsController(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.w = window

    def refresh_conversations(self) -> None:
        self.w.conv_model.set_conversations(self.w.conversations.list())
        if self.w.turns.session is not None and self.w.turns.session.conversation_id is not None:
            row = self.w.conv_model.row_of(self.w.turns.session.conversation_id)
            if row >= 0:
                self.w.conv_list.setCurrentIndex(self.w.conv_model.index(row))

    def search_conversations(self) -> None:
        query = self.w.conv_search.text().strip()
        if not query:
            self.refresh_conversations()
            return

        def found(result: Any) -> None:
            hits, _warnings = result
            ids = list(dict.fromkeys(h.message.conversation_id for h in hits))
            all_convs = {c.id: c for c in self.w.conversations.list()}
            self.w.conv_model.set_conversations(
                [all_convs[i] for i in ids if i in all_convs], grouped=False
            )

        tasks.run(self.w.conversations.search, query, 20, done=found, failed=self.w.show_error)

    def new_conversation(self, incognito: bool = False) -> None:
        if self.w.turns.turn_busy:
            return
        self.w.turns.new_session(None, incognito)
        self.w.chat.clear()
        self.w.chat.title.setText(
            self.tr("Incognito conversation") if incognito else self.tr("New conversation")
        )
        self.w.conv_list.clearSelection()
        self.w.chat.input.setFocus()

    def open_conversation(self, conversation_id: int) -> None:
        if self.w.turns.turn_busy or conversation_id is None:
            return
        self.w.turns.new_session(conversation_id, False)
        conv = self.w.conversations.get(conversation_id)
        self.w.chat.title.setText(conv.title or self.tr("New conversation"))
        self.w.chat.clear()
        messages = self.w.conversations.messages(conversation_id)
        passages = self.w.documents.used_by([m.id for m in messages if m.role == "assistant"])
        taught = self.w.conversations.learned_from([m.id for m in messages if m.role == "user"])
        last_user: int | None = None
        for m in messages:
            if m.role == "user":
                last_user = m.id
            if m.role == "system":
                continue
            w = self.w.chat.add_message(m.role, m.content, m.created_at)
            w.message_id = m.id
            w.set_status(m.status, m.error)
            if m.role == "assistant" and last_user in taught:  # kept, as when it was learned
                w.set_notice(describe_changes(taught[last_user]))
            if m.role == "assistant":
                w.set_given(m.used, m.recalled, passages.get(m.id, []))
        self.refresh_conversations()
        self.w.connection.show_chat()  # readable while the model server is down
        QTimer.singleShot(0, self.w.chat.scroll_to_end)  # the latest turn, as chats open

    def open_message(self, message_id: int) -> None:
        msg = self.w.conversations.message(message_id)
        self.w.show_page("chat")
        self.open_conversation(msg.conversation_id)
        for w in self.w.chat.messages:
            if w.message_id == message_id:  # after the scroll to the end opening queued
                QTimer.singleShot(0, lambda w=w: self.w.chat.scroll.ensureWidgetVisible(w))

    def conversation_menu(self, pos: Any) -> None:
        index = self.w.conv_list.indexAt(pos)
        conv = self.w.conv_model.conversation(index.row()) if index.isValid() else None
        if conv is None:
            return
        menu = QMenu(self.w)
        pin = menu.addAction(self.tr("Unpin") if conv.pinned else self.tr("Pin to the top"))
        rename = menu.addAction(self.tr("Rename…"))
        export = menu.addAction(self.tr("Export…"))
        delete = menu.addAction(self.tr("Delete…"))
        chosen = menu.exec(self.w.conv_list.viewport().mapToGlobal(pos))
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
            self.w.conversations.set_pinned(conversation_id, pinned)
        except DesktopMemError as exc:
            self.w.show_error(str(exc))
            return
        self.refresh_conversations()

    def titled(self, conversation_id: int | None, named: bool) -> None:
        """The model named a conversation: the list (and the chat's heading, if it is
        the one open) show the new title."""
        if not named or conversation_id is None:
            return
        self.refresh_conversations()
        session = self.w.turns.session
        if session is not None and session.conversation_id == conversation_id:
            self.w.chat.title.setText(self.w.conversations.get(conversation_id).title)

    def rename_conversation(self, conversation_id: int, title: str | None = None) -> None:
        if title is None:
            from PySide6.QtWidgets import QInputDialog

            current = self.w.conversations.get(conversation_id).title
            title, ok = QInputDialog.getText(
                self.w, self.tr("Rename"), self.tr("Title"), text=current
            )
            if not ok:
                return
        try:
            self.w.conversations.rename(conversation_id, title)
        except DesktopMemError as exc:
            self.w.show_error(str(exc))
            return
        self.refresh_conversations()
        if (
            self.w.turns.session is not None
            and self.w.turns.session.conversation_id == conversation_id
        ):
            self.w.chat.title.setText(title)

    def export_conversation(self, conversation_id: int) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self.w,
            self.tr("Export conversation"),
            str(Path(self.w.file_folder()) / "conversation.md"),
            self.tr("Markdown (*.md);;JSON (*.json)"),
        )
        if path:
            self.w.remember_folder(path)
        if path:
            fmt = "json" if path.lower().endswith(".json") else "md"
            try:
                write_private(Path(path), self.w.conversations.export(conversation_id, fmt))
            except DesktopMemError as exc:
                self.w.show_error(str(exc))

    def delete_conversation(self, conversation_id: int, confirm: bool = True) -> None:
        if confirm:
            lent = self.w.conversations.context_lent(conversation_id)
            text = self.tr("Delete this conversation for good? Memories learned from it stay.")
            if lent:
                text += " " + self.tr(
                    "%n of them will no longer quote what was said in it.", "", lent
                )
            answer = QMessageBox.question(self.w, self.tr("Delete conversation"), text)
            if answer != QMessageBox.StandardButton.Yes:
                return
        current = self.w.turns.session.conversation_id if self.w.turns.session else None
        if current == conversation_id:
            self.new_conversation(False)

        def done(_: int) -> None:
            self.w.show_work(None)
            self.refresh_conversations()

        # a purge rewrites the full-text index and checkpoints: off the GUI thread
        self.w.show_work(self.tr("Deleting…"))
        tasks.run(
            self.w.conversations.delete,
            conversation_id,
            self.w.profile.memories,
            done=done,
            failed=self.w.show_error,
        )
