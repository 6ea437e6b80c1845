"""Owns the chat turn: sending, regenerating, editing, stopping, what an answer learned
(and its undo, or why nothing was, with Retry), and the chat's "forget …". The session
is the context's (context.chat); the turn is drawn in the chat view it is given. What
a turn's background work finds (what it taught, the title, what the server said) comes
as the core's announcements (context.core), never as a future waited on."""

from __future__ import annotations

import functools
import html
from collections.abc import Callable

from PySide6.QtCore import QObject

from desktop_mem.core import textproc
from desktop_mem.core.chat.forget import Forgotten
from desktop_mem.core.chat.records import Change, Learned
from desktop_mem.core.chat.session import TurnResult
from desktop_mem.core.service.memories import ChangeSet
from desktop_mem.ui import tasks
from desktop_mem.ui.changes import describe as describe_changes
from desktop_mem.ui.changes import undo_link
from desktop_mem.ui.chat_view import ChatView
from desktop_mem.ui.context import Context
from desktop_mem.ui.errors import describe
from desktop_mem.ui.forget_dialog import ForgetDialog
from desktop_mem.ui.memory_cards import care_label
from desktop_mem.ui.message_widget import MessageWidget

LOST = ("ollama_unreachable", "reply_cut", "ollama_timeout")  # the server is gone
FAILING = ("model_failed",)  # the server answers, with an error
# The kinds of care the first-time notice speaks of (what the user asked to be always
# remembered needs no explaining).
CARE_SAID = ("health", "diet", "access")


class TurnController(QObject):
    def __init__(self, context: Context, chat: ChatView) -> None:
        super().__init__(context.view)
        self.ctx = context
        self.chat = chat
        # by answer (message id): what it taught, as an undoable command, and the user
        # message nothing was learned from yet
        self.changesets: dict[int, ChangeSet] = {}
        self.unlearned: dict[int, int] = {}
        context.chat.changed.connect(self._chat_opened)
        context.hub.server_found.connect(self.catch_up)
        context.core.turn_learned.connect(self.learned)
        context.core.memories_removed.connect(self.forgotten)
        context.core.conversation_titled.connect(self.titled)

    @property
    def busy(self) -> bool:
        return self.ctx.chat.busy

    def _chat_opened(self) -> None:
        self.chat.set_incognito(self.ctx.chat.incognito)
        self.ctx.hub.memory_mode_changed.emit()

    def send(self, text: str) -> None:
        if self.busy or self.ctx.chat.session is None:
            return
        user = self.chat.add_message("user", text)
        self.run_turn(self.ctx.chat.session.send, text, user=user)

    def regenerate(self, turn: int = -1) -> None:
        """Answer a user message again: the last (-1) or the `turn`-th; the turns after
        it are replaced."""
        session = self.ctx.chat.session
        if self.busy or session is None or not self.chat.messages or self.chat.offline():
            return  # offline: Ctrl+R waits for the server, as the button does
        if self.chat.messages[-1].command:  # a command's reply: nothing to answer again
            return
        users = [i for i, m in enumerate(self.chat.messages) if m.role == "user"]
        if 0 <= turn < len(users) and self.chat.messages[users[turn]].command:
            return  # that turn was a command too (Regenerate on an earlier one)
        if turn < 0:
            if self.chat.messages[-1].role == "assistant":
                self.chat.remove_last()
            self.run_turn(session.regenerate)
            return
        if turn >= len(users):
            return
        self.chat.remove_last(len(self.chat.messages) - users[turn] - 1)  # keep the question
        self.run_turn(functools.partial(session.regenerate, turn=turn))

    def edit(self, turn: int, text: str) -> None:
        """Replace a user message (the last, -1, or the `turn`-th) and the turns after
        it, and send the new text."""
        session = self.ctx.chat.session
        if self.busy or session is None:
            return
        if turn < 0:
            last_user = max(
                (i for i, m in enumerate(self.chat.messages) if m.role == "user"), default=None
            )
            if last_user is not None:
                self.chat.remove_last(len(self.chat.messages) - last_user)
        else:
            self.chat.remove_from_turn(turn)
        user = self.chat.add_message("user", text)
        self.run_turn(session.edit, None if turn < 0 else turn, text, user=user)

    def run_turn(
        self, fn: Callable[..., TurnResult], *args: object, user: MessageWidget | None = None
    ) -> None:
        hub = self.ctx.hub
        self.ctx.chat.set_busy(True)
        self.chat.set_busy(True)
        answer = self.chat.add_message("assistant", "")
        answer.set_text(self.tr("…"))
        first = [True]

        def piece(p: str) -> None:
            if first[0]:
                answer.set_text("")
                first[0] = False
            answer.append(p)

        def done(result: TurnResult) -> None:
            self.ctx.chat.set_busy(False)
            self.chat.set_busy(False)
            answer.set_text(result.text)  # the whole answer, whatever was still buffered
            answer.message_id = result.answer_id
            if user is not None:
                user.message_id = result.user_message_id
            if result.status == "command":
                answer.set_command()
                if user is not None:
                    user.set_command()
            model = self.ctx.server.backend.model
            answer.set_status(
                result.status, describe(result.error_reason, result.error or "", model=model)
            )
            if result.status != "error":
                answer.set_given(result.used, result.recalled, result.documents, result.about)
            if result.changes:
                self.show_changes(answer, result.changes)
            if result.forget_candidates or result.forget_messages:
                self.confirm_forget(result)
            if result.learning is not None:  # until the core says what it taught
                hub.work.emit(self.tr("Learning from this exchange…"), 0, 0)
                tasks.expect(("learned", result.answer_id))
            if result.titling is not None:
                tasks.expect(("titled", result.conversation_id))
            if result.server is not None:
                tasks.expect("server")
            self._server_answered(result, answer.status.text())
            if result.error_reason in LOST:
                hub.server_lost.emit(answer.status.text())  # the status bar follows it
            if result.error_reason == "model_missing":
                hub.chat_model_missing.emit(model)
            self._show_title()
            self._show_versions()

        def failed(text: str) -> None:
            self.ctx.chat.set_busy(False)
            self.chat.set_busy(False)
            answer.set_text("")
            answer.set_status("error", text)

        tasks.run(fn, *args, done=done, failed=failed, piece=piece)

    def _server_answered(self, result: TurnResult, said: str) -> None:
        """The status bar says what is true: the server answers with an error (its
        sentence), or, once a turn went through, that it no longer does."""
        server = self.ctx.server
        failing = said if result.error_reason in FAILING else ""
        if (result.status != "error" or failing) and server.failing != failing:
            server.failing = failing
            server.changed.emit()

    def _show_versions(self) -> None:
        """ "‹ 2/3 ›" on the messages that have other versions (a regenerated answer, an
        edited question)."""
        cid = self.ctx.chat.conversation_id
        if cid is None or self.ctx.chat.incognito:
            return
        versions = self.ctx.app.conversations.versions(cid)
        for w in self.chat.messages:
            if w.message_id in versions:
                w.set_versions(*versions[w.message_id])

    def _show_title(self) -> None:
        cid = self.ctx.chat.conversation_id
        if cid is not None and not self.ctx.chat.incognito:
            self.chat.title.setText(self.ctx.app.conversations.get(cid).title)

    def titled(self, conversation_id: int | None, named: bool) -> None:
        """The model named a conversation: the list (and the chat's heading, if it is
        the one open) show the new title."""
        tasks.arrived(("titled", conversation_id))
        if not named or conversation_id is None:
            return
        if self.ctx.chat.conversation_id == conversation_id:
            self._show_title()

    def stop(self) -> None:
        if self.ctx.chat.session is not None and self.busy:
            self.ctx.chat.session.stop()

    def learned(self, answer_id: int | None, outcome: Learned) -> None:
        """What an exchange taught, once learned: shown under its answer if that answer is
        on screen now (the user may have opened another chat meanwhile; the widget it
        started with may be gone), and the browser refreshed either way. When learning
        failed, a quiet line says so under the answer, with Retry."""
        tasks.arrived(("learned", answer_id))
        self.ctx.hub.work.emit(None, 0, 0)
        answer = next((w for w in self.chat.messages if w.message_id == answer_id), None)
        if not outcome.ok:
            if answer_id is not None and outcome.user_id is not None:
                self.unlearned[answer_id] = outcome.user_id
            if answer is not None:
                retry = self.tr("Retry")  # outside the f-string, where lupdate finds it
                answer.set_notice(
                    html.escape(self.not_learned(outcome.reason))
                    + f' — <a href="retry">{retry}</a>'
                )
            return
        was_unlearned = answer_id is not None and self.unlearned.pop(answer_id, 0) != 0
        if was_unlearned and answer is not None:
            answer.set_notice(None)
        changes = ChangeSet(list(outcome.changes))
        if not changes:
            return
        if answer_id is not None:
            self.changesets[answer_id] = changes
        if answer is not None:
            self.show_changes(answer, changes.shown)

    def show_changes(self, answer: MessageWidget, changes: list[Change]) -> None:
        if answer.message_id is not None:
            self.changesets.setdefault(answer.message_id, ChangeSet(list(changes)))
        notice = describe_changes((c.action, c.text) for c in changes)
        answer.set_notice(
            notice + undo_link() + self.care_notice(changes) + self.shared_notice(changes),
            taught=True,
        )

    def forgotten(self, ids: tuple[int, ...]) -> None:
        """Memories were deleted (`ids`; empty: all of them), by a "forget …" or
        elsewhere: a line under an answer that said it remembered one of them keeps only
        what is still there, and its Undo only while that can be taken back (the memory
        is gone: an Undo would say it no longer exists)."""
        for index, w in enumerate(self.chat.messages):
            if not w.taught:
                continue
            changes = self.changesets.get(w.message_id) if w.message_id is not None else None
            if changes is not None and not changes.undone:
                kept = [c for c in changes.shown if ids and c.memory_id not in ids]
                if len(kept) == len(changes.shown):
                    continue
                self.changesets[w.message_id] = ChangeSet(kept)  # type: ignore[index]
                said = describe_changes((c.action, c.text) for c in kept)
                w.set_notice(said + undo_link() if kept else None, taught=True)
            elif changes is None:  # read back: as the memories' history has it now
                self._read_back(index, w)

    def _read_back(self, index: int, w: MessageWidget) -> None:
        asked = next((m for m in reversed(self.chat.messages[:index]) if m.role == "user"), None)
        if asked is None or asked.message_id is None:
            return
        memories = self.ctx.app.memories
        taught = self.ctx.app.conversations.learned_from([asked.message_id])
        if not taught.get(asked.message_id):
            w.set_notice(None)
            return
        undo = memories.undoable(asked.message_id) is not None
        said = describe_changes(taught[asked.message_id]) + (undo_link() if undo else "")
        w.set_notice(said, taught=True)

    def care_notice(self, changes: list[Change]) -> str:
        """The first time a memory about the user's health or safety is remembered, a
        line saying it will be in every chat, with a way to change that (once per
        profile: later ones say it on their card)."""
        given = next((c for c in changes if c.always in CARE_SAID), None)
        settings = self.ctx.app.settings
        if given is None or settings.get("care_notice_seen"):
            return ""
        settings.set("care_notice_seen", True)
        said = self.tr("This will be given to the model in every chat: it is about your %1.")
        change = self.tr("Change")  # outside the f-string, where lupdate finds it
        return (
            "<br>"
            + html.escape(said.replace("%1", care_label(given.always)))
            + (f' — <a href="memory:{given.memory_id}">{change}</a>')
        )

    def shared_notice(self, changes: list[Change]) -> str:
        """What a chat in a space learned but kept in the shared space, as what applies
        everywhere (health and safety, who the person is): said under the answer, with a
        way to keep it in the chat's space instead."""
        kept = [c for c in changes if c.shared_from is not None and c.action == "added"]
        if not kept:
            return ""
        names = {s.id: s.name for s in self.ctx.app.spaces.list()}
        lines = []
        for c in kept:
            assert c.shared_from is not None
            if c.shared_from not in names:
                continue  # the space is gone: nowhere else to keep it
            said = self.tr("Kept in the shared space, as it applies everywhere: %1.")
            keep = self.tr("Keep it in %1 instead").replace("%1", html.escape(names[c.shared_from]))
            lines.append(
                html.escape(said.replace("%1", textproc.shorten(c.text, 60)))
                + f' — <a href="keep:{c.memory_id}:{c.shared_from}">{keep}</a>'
            )
        return "".join("<br>" + line for line in lines)

    def keep_in_space(self, widget_index: int, href: str) -> None:
        """'Keep it in Work instead': the memory moves to the space it was learned in,
        and the line under the answer says no more of it."""
        _, memory, space = href.split(":")
        tasks.run(
            self.ctx.app.memories.move,
            int(memory),
            int(space),
            failed=self.ctx.hub.error.emit,
        )
        w = self.chat.messages[widget_index]
        changes = self.changesets.get(w.message_id) if w.message_id is not None else None
        if changes is not None:
            for c in changes.changes:
                if c.memory_id == int(memory):
                    c.shared_from = None
            said = describe_changes((c.action, c.text) for c in changes.shown)
            w.set_notice(said + undo_link(), taught=True)

    def catch_up(self) -> None:
        """The model server answers (again): learn from what waited for it."""
        app = self.ctx.app
        if self.ctx.chat.incognito or not app.settings.get("auto_memory"):
            return
        if not app.memories.waiting().pending:
            return
        tasks.run(app.memories.retry_learning)  # the core says what changed

    def not_learned(self, reason: str) -> str:
        """The quiet line under an answer nothing was learned from, by reason code."""
        if reason == "invalid_answer":
            return self.tr(
                "Nothing was learned from this message: the model's answer was not what was "
                "asked for. It will be tried again later."
            )
        if reason == "ollama_timeout":
            return self.tr(
                "Nothing was learned from this message: the model server did not answer in "
                "time. It will be tried again later."
            )
        if reason in ("ollama_unreachable", "server_unreachable"):
            return self.tr(
                "Nothing was learned from this message: the model server could not be "
                "reached. It will be tried again once it answers."
            )
        return self.tr(
            "Nothing was learned from this message: the model server failed. It will be "
            "tried again later."
        )

    def retry_learning(self, widget_index: int) -> None:
        """Retry under an answer nothing was learned from: learn from it now."""
        w = self.chat.messages[widget_index]
        user_id = self.unlearned.get(w.message_id) if w.message_id is not None else None
        if user_id is None:
            return
        w.set_notice(html.escape(self.tr("Learning from this exchange…")))
        tasks.run(
            self.ctx.app.memories.retry_one,
            user_id,
            done=functools.partial(self.learned, w.message_id),
            failed=self.ctx.hub.error.emit,
        )

    def link(self, widget_index: int, href: str) -> None:
        """A link in the line under an answer: Undo what it taught, Retry learning, or
        open a memory it remembered."""
        if href == "retry":
            self.retry_learning(widget_index)
        elif href.startswith("keep:"):
            self.keep_in_space(widget_index, href)
        elif href.startswith("memory:"):
            self.ctx.hub.memory_requested.emit(int(href.split(":", 1)[1]))
        else:
            self.undo_changes(widget_index)

    def undo_changes(self, widget_index: int) -> None:
        w = self.chat.messages[widget_index]
        changes = self.changesets.get(w.message_id) if w.message_id is not None else None
        if changes is None:  # read back (reopened, another language): as the core has it
            asked = next(
                (m for m in reversed(self.chat.messages[:widget_index]) if m.role == "user"), None
            )
            if asked is not None and asked.message_id is not None:
                changes = self.ctx.app.memories.undoable(asked.message_id)
        if changes is None or changes.undone:
            return
        memories = self.ctx.app.memories

        def done(_: None) -> None:
            w.set_notice(self.tr("Undone."))
            self.ctx.hub.work.emit(None, 0, 0)

        self.ctx.hub.work.emit(self.tr("Undoing…"), 0, 0)
        # a restore re-embeds: the model server, off the GUI thread
        tasks.run(changes.undo, memories, done=done, failed=self.ctx.hub.error.emit)

    def confirm_forget(self, result: TurnResult) -> None:
        """Each candidate with its own checkbox; what was done is said in the chat (the
        session stores it there too) and in the status bar."""
        session = self.ctx.chat.session
        if session is None:
            return
        dialog = ForgetDialog(
            result.forget_candidates,
            result.forget_messages,
            self.ctx.view,
            result.forget_more,
            result.forget_rests,
        )
        accepted = dialog.exec() == ForgetDialog.DialogCode.Accepted
        memories = dialog.chosen("memory") if accepted else []
        messages = dialog.chosen("message") if accepted else []
        keep = dialog.kept("message") if accepted else []
        rests = dialog.rests() if accepted else {}
        dialog.deleteLater()  # read: it goes now, on this thread, not with the window
        hub = self.ctx.hub

        def done(counts: Forgotten) -> None:
            n, m, k = counts.memories, counts.messages, counts.kept
            left = counts.memories_left + counts.messages_left
            if n and m:
                said = [
                    self.tr("Deleted %n memory(s)", "", n) + self.tr(" and %n message(s).", "", m)
                ]
            elif n:
                said = [self.tr("Deleted %n memory(s).", "", n)]
            elif m:
                said = [self.tr("Deleted %n message(s).", "", m)]
            else:
                said = []
            if counts.rests:
                said.append(self.tr("Kept the rest of %n memory(s).", "", counts.rests))
            if k:
                said.append(
                    self.tr(
                        "%n earlier message(s) stay to read, but the assistant no longer "
                        "sees them.",
                        "",
                        k,
                    )
                )
            if left and (n or m or k):
                said.append(
                    self.tr(
                        "%n memory(s) or message(s) still mention it: say the same “forget …” "
                        "again to see them.",
                        "",
                        left,
                    )
                )
            text = " ".join(said) or self.tr("Nothing was deleted.")
            hub.work.emit(None, 0, 0)
            self.chat.add_message("assistant", text).set_command()  # nothing to regenerate
            hub.status.emit(text, 10000)

        hub.work.emit(self.tr("Deleting…"), 0, 0)
        tasks.run(session.forget, memories, messages, keep, rests, done=done, failed=hub.error.emit)
