"""Owns the chat turn: the session, sending, regenerating, editing, stopping, what an
answer learned (and its undo, or why nothing was, with Retry), and the chat's
"forget …"."""

from __future__ import annotations

import functools
import html
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject

from desktop_mem.core.chat import learning
from desktop_mem.core.chat.extract import Change
from desktop_mem.core.chat.learning import Learned
from desktop_mem.core.chat.session import (
    ChatSession,
    TurnResult,
)
from desktop_mem.ui import tasks
from desktop_mem.ui.changes import describe as describe_changes
from desktop_mem.ui.errors import describe
from desktop_mem.ui.forget_dialog import ForgetDialog
from desktop_mem.ui.message_widget import MessageWidget

if TYPE_CHECKING:
    from desktop_mem.ui.main_window import MainWindow


class TurnController(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.w = window
        self.session: ChatSession | None = None
        self.incognito = False
        self.turn_busy = False
        self.last_changes: list[list[Change]] = []

    def new_session(self, conversation_id: int | None, incognito: bool) -> None:
        if self.session is not None:
            self.session.stop()
            self.session.close(wait=False)
        self.session = ChatSession(
            self.w.profile, self.w.connection.backend, conversation_id, incognito=incognito
        )
        self.incognito = incognito
        self.w.chat.set_incognito(incognito)
        self.w.update_status()

    def send(self, text: str) -> None:
        if self.turn_busy or self.session is None:
            return
        self.w.sleeper.user_active()
        user = self.w.chat.add_message("user", text)
        self.run_turn(self.session.send, text, user=user)

    def regenerate(self, turn: int = -1) -> None:
        """Answer a user message again: the last (-1) or the `turn`-th; the turns after
        it are replaced."""
        if self.turn_busy or self.session is None or not self.w.chat.messages:
            return
        if turn < 0:
            if self.w.chat.messages[-1].role == "assistant":
                self.w.chat.remove_last()
            self.run_turn(self.session.regenerate)
            return
        users = [i for i, m in enumerate(self.w.chat.messages) if m.role == "user"]
        if turn >= len(users):
            return
        self.w.chat.remove_last(len(self.w.chat.messages) - users[turn] - 1)  # keep the question
        self.run_turn(functools.partial(self.session.regenerate, turn=turn))

    def edit_last(self, text: str) -> None:
        self.edit(-1, text)

    def edit(self, turn: int, text: str) -> None:
        """Replace a user message (the last, -1, or the `turn`-th) and the turns after
        it, and send the new text."""
        if self.turn_busy or self.session is None:
            return
        if turn < 0:
            last_user = max(
                (i for i, m in enumerate(self.w.chat.messages) if m.role == "user"), default=None
            )
            if last_user is not None:
                self.w.chat.remove_last(len(self.w.chat.messages) - last_user)
        else:
            self.w.chat.remove_from_turn(turn)
        user = self.w.chat.add_message("user", text)
        self.run_turn(self.session.edit, None if turn < 0 else turn, text, user=user)

    def run_turn(self, fn: Any, *args: Any, user: MessageWidget | None = None) -> None:
        self.turn_busy = True
        self.w.chat.set_busy(True)
        answer = self.w.chat.add_message("assistant", "")
        answer.rendered.connect(self.w.chat.scroll_to_end)
        answer.set_text(self.tr("…"))
        first = [True]

        def piece(p: str) -> None:
            if first[0]:
                answer.set_text("")
                first[0] = False
            answer.append(p)

        def done(result: TurnResult) -> None:
            self.turn_busy = False
            self.w.chat.set_busy(False)
            answer.set_text(result.text)  # the whole answer, whatever was still buffered
            answer.message_id = result.answer_id
            if user is not None:
                user.message_id = result.user_message_id
            answer.set_status(
                result.status,
                describe(
                    result.error_reason, result.error or "", model=self.w.connection.backend.model
                ),
            )
            if result.status != "error":
                answer.set_given(result.used, result.recalled, result.documents)
            if result.changes:
                self.show_changes(answer, result.changes)
                self.w.memory.refresh_memories()
            if result.forget_candidates or result.forget_messages:
                self.confirm_forget(result)
            if result.learning is not None:
                self.w.show_work(self.tr("Learning from this exchange…"))
                tasks.run(
                    result.outcome,
                    300.0,
                    done=lambda out, mid=result.answer_id: self.learned(mid, out),
                    failed=self.w.show_error,
                )
            if result.server is not None:  # what the server said after it: the status
                tasks.watch(result.server, lambda _problem: self.w.update_status())
            if result.titling is not None:
                tasks.watch(
                    result.titling,
                    lambda named, cid=result.conversation_id: self.w.threads.titled(cid, named),
                )
            if result.error_reason in ("ollama_unreachable", "reply_cut", "ollama_timeout"):
                self.w.connection.offline(result.error or "")  # the status follows it
            if result.status == "error" and "ollama pull" in (result.error or ""):
                self.w.connection.offer_pull(self.w.connection.backend.model)
            self.w.threads.refresh_conversations()
            if self.session and self.session.conversation_id and not self.incognito:
                self.w.chat.title.setText(
                    self.w.conversations.get(self.session.conversation_id).title
                )

        def failed(text: str) -> None:
            self.turn_busy = False
            self.w.chat.set_busy(False)
            answer.set_text("")
            answer.set_status("error", text)

        tasks.run(fn, *args, done=done, failed=failed, piece=piece)

    def stop(self) -> None:
        if self.session is not None and self.turn_busy:
            self.session.stop()

    def learned(self, answer_id: int | None, outcome: Learned) -> None:
        """What an exchange taught, once learned: shown under its answer if that answer is
        on screen now (the user may have opened another chat meanwhile; the widget it
        started with may be gone), and the browser refreshed either way. When learning
        failed, a quiet line says so under the answer, with Retry."""
        self.w.show_work(None)
        answer = next((w for w in self.w.chat.messages if w.message_id == answer_id), None)
        if not outcome.ok:
            if answer is not None:
                answer.setProperty("unlearned", outcome.user_id)
                answer.set_notice(
                    html.escape(self.not_learned(outcome.reason))
                    + f' — <a href="retry">{self.tr("Retry")}</a>'
                )
            self.w.update_status()
            return
        if answer is not None and answer.property("unlearned") is not None:
            answer.setProperty("unlearned", None)
            answer.set_notice(None)
        self.w.update_status()
        shown = [c for c in outcome.changes if c.action != "skipped"]
        if not shown:
            return
        if answer is not None:
            self.show_changes(answer, shown)
        else:
            self.last_changes.append(shown)
        self.w.memory.refresh_memories()

    def show_changes(self, answer: MessageWidget, changes: list[Change]) -> None:
        self.last_changes.append(changes)
        answer.setProperty("changes_index", len(self.last_changes) - 1)
        notice = describe_changes((c.action, c.text) for c in changes)
        answer.set_notice(notice + f' — <a href="undo">{self.tr("Undo")}</a>')

    def catch_up(self) -> None:
        """The model server answers (again): learn from what waited for it."""
        session = self.session
        if session is None or session.incognito or not self.w.settings.get("auto_memory"):
            return
        if not learning.waiting(session.profile.db).pending:
            return
        tasks.run(session.learner.retry, done=lambda _done: self.w.update_status())

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
        w = self.w.chat.messages[widget_index]
        user_id = w.property("unlearned")
        if user_id is None or self.session is None:
            return
        w.set_notice(html.escape(self.tr("Learning from this exchange…")))
        tasks.run(
            self.session.learner.retry_one,
            int(user_id),
            done=lambda out, mid=w.message_id: self.learned(mid, out),
            failed=self.w.show_error,
        )

    def link(self, widget_index: int, href: str) -> None:
        """A link in the line under an answer: Undo what it taught, or Retry learning."""
        if href == "retry":
            self.retry_learning(widget_index)
        else:
            self.undo_changes(widget_index)

    def undo_changes(self, widget_index: int) -> None:
        w = self.w.chat.messages[widget_index]
        idx = w.property("changes_index")
        if idx is None:
            return
        if self.session is None:
            return
        changes = self.last_changes[int(idx)]
        extractor = self.session.extractor

        def work() -> None:  # a restore re-embeds: the model server, off the GUI thread
            for c in reversed(changes):
                extractor.undo(c)

        def done(_: Any) -> None:
            w.set_notice(self.tr("Undone."))
            self.w.memory.memory_changed()

        self.w.show_work(self.tr("Undoing…"))
        tasks.run(work, done=done, failed=self.w.show_error)

    def confirm_forget(self, result: TurnResult) -> None:
        """Each candidate with its own checkbox; what was done is said in the chat."""
        if self.session is None:
            return
        dialog = ForgetDialog(result.forget_candidates, result.forget_messages, self.w)
        accepted = dialog.exec() == ForgetDialog.DialogCode.Accepted
        memories = dialog.chosen("memory") if accepted else []
        messages = dialog.chosen("message") if accepted else []
        keep = dialog.kept("message") if accepted else []

        def done(counts: Any) -> None:
            n, m, k = counts
            if n or m or k:
                text = self.tr("Deleted %n memory(s)", "", n) + self.tr(
                    " and %n message(s).", "", m
                )
                if k:
                    text += " " + self.tr(
                        "%n earlier message(s) stay to read, but the assistant no longer "
                        "sees them.",
                        "",
                        k,
                    )
            else:
                text = self.tr("Nothing was deleted.")
            self.w.show_work(None)
            self.w.chat.add_message("assistant", text)
            self.w.memory.memory_changed()
            if m:
                self.w.threads.refresh_conversations()

        self.w.show_work(self.tr("Deleting…"))
        tasks.run(
            self.session.forget, memories, messages, keep, done=done, failed=self.w.show_error
        )
