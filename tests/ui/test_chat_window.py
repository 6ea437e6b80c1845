"""The chat page, driven as a user would: sending, streaming, stopping, regenerating and
editing, chips, conversations, incognito."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.profile import Profile
from desktop_mem.ui.main_window import MainWindow
from tests.fakes.ollama_server import FakeOllama
from tests.ui.driving import HANGZHOU, idle, send


def test_send_and_see_the_streamed_answer(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama
) -> None:
    fake_ollama.reply(
        "Hello! **Nice** to meet you.\n\n```python\nprint('hi')\n```", chunk_delay=0.01
    )
    send(qtbot, window, "Hi there")
    roles = [(m.role, m.text()) for m in window.chat.messages]
    assert roles[0] == ("user", "Hi there")
    assert roles[1][1].startswith("Hello! **Nice** to meet you.")
    assert "print" in window.chat.messages[1].body.toPlainText()
    assert window.conversation_panel.model.count() == 1
    assert window.conversation_panel.model.conversations()[0].title == "Hi there"
    # Shift+Enter is a new line, not a send
    window.chat.input.setPlainText("line one")
    qtbot.keyClick(window.chat.input, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    assert len(window.chat.messages) == 2 and "\n" in window.chat.input.toPlainText()


def test_stop_keeps_the_partial_answer(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama
) -> None:
    fake_ollama.reply(" ".join(f"w{i}" for i in range(400)), chunk_delay=0.02)
    window.chat.input.setPlainText("tell me everything")
    qtbot.keyClick(window.chat.input, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: len(window.chat.messages[-1].text()) > 10, timeout=5000)
    assert window.chat.stop_button.isVisible()
    qtbot.keyClick(window, Qt.Key.Key_Escape)
    idle(qtbot, window)
    answer = window.chat.messages[-1]
    assert answer.status.text() == "Stopped." and answer.text().startswith("w0 w1")
    stored = window.context.app.profile.conversations.messages(
        window.context.chat.session.conversation_id
    )
    assert stored[-1].status == "stopped" and stored[-1].content == answer.text()


def test_regenerate_and_edit_last(qtbot: Any, window: MainWindow, fake_ollama: FakeOllama) -> None:
    fake_ollama.reply("first answer")
    send(qtbot, window, "question one")
    fake_ollama.reply("second answer")
    window.chat.messages[-1].redo_button.click()  # the answer's own Regenerate
    idle(qtbot, window)
    assert [m.text() for m in window.chat.messages] == ["question one", "second answer"]
    window.chat.edit_last_message()  # the Chat menu's Edit last message (Ctrl+E)
    assert window.chat.input.toPlainText() == "question one"
    window.chat.input.setPlainText("question two")
    qtbot.keyClick(window.chat.input, Qt.Key.Key_Return)
    idle(qtbot, window)
    assert [m.text() for m in window.chat.messages] == ["question two", "You said: question two"]
    stored = window.context.app.profile.conversations.messages(
        window.context.chat.session.conversation_id
    )
    assert [m.content for m in stored] == ["question two", "You said: question two"]


def test_any_earlier_message_can_be_edited_and_any_answer_regenerated(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama
) -> None:
    for n in ("one", "two", "three"):
        send(qtbot, window, f"question {n}")
    assert len(window.chat.messages) == 6
    fake_ollama.reply("a better first answer")
    window.chat.messages[1].redo_button.click()  # Regenerate on the first answer
    idle(qtbot, window)
    assert [m.text() for m in window.chat.messages] == ["question one", "a better first answer"]
    send(qtbot, window, "question two")
    send(qtbot, window, "question three")
    user_two = window.chat.messages[2]
    assert user_two.redo_button.text() == "Edit"
    user_two.redo_button.click()  # Edit on the second question
    assert window.chat.input.toPlainText() == "question two"
    window.chat.input.setPlainText("question two, better put")
    qtbot.keyClick(window.chat.input, Qt.Key.Key_Return)
    idle(qtbot, window)
    shown = [m.text() for m in window.chat.messages]
    assert shown == [
        "question one", "a better first answer",
        "question two, better put", "You said: question two, better put",
    ]  # fmt: skip
    stored = window.context.app.profile.conversations.messages(
        window.context.chat.session.conversation_id
    )
    assert [m.content for m in stored] == shown, "the later turns are gone from the store too"


def test_a_memory_from_one_chat_is_a_chip_in_the_next(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama
) -> None:
    fake_ollama.reply_json(HANGZHOU)
    send(qtbot, window, "I live in Hangzhou with my cat Mochi")
    first_answer = window.chat.messages[1]
    assert "Remembered: Lives in Hangzhou" in first_answer.notice.text()
    assert window.browser.model.rowCount() == 1
    window.conversations.new_conversation()
    fake_ollama.reply("## Home\n**Hangzhou**, with *Mochi* ([map](https://example.org)).")
    send(qtbot, window, "Where do I live with my cat?")
    answer = window.chat.messages[1]
    chips = [answer.chips.itemAt(i).widget() for i in range(answer.chips.count())]
    chip = next(c for c in chips if c is not None and c.objectName() == "chip")
    # why it was given, then the memory
    assert chip.toolTip() == "Found for this message\nLives in Hangzhou with a cat named Mochi"
    assert chip.property("weak") is False
    chip.click()
    assert window.browser.current is not None
    assert window.browser.current.text == "Lives in Hangzhou with a cat named Mochi"
    assert window.browser.drawer.impact.count() == 1, "the memory shows the answer it shaped"
    assert window.browser.drawer.impact.item(0).text() == "Home Hangzhou, with Mochi (map).", (
        "as read"
    )
    # the notice's undo takes the memory back
    window.conversations.open_conversation(window.conversation_panel.model.conversations()[1].id)


def test_undo_a_learned_memory(qtbot: Any, window: MainWindow, fake_ollama: FakeOllama) -> None:
    fake_ollama.reply_json(HANGZHOU)
    send(qtbot, window, "I live in Hangzhou with my cat Mochi")
    window.turns.undo_changes(1)
    idle(qtbot, window)
    assert window.context.app.profile.memories.count() == 0
    assert window.chat.messages[1].notice.text() == "Undone."


def test_conversations_rename_search_delete(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama, monkeypatch: pytest.MonkeyPatch
) -> None:
    send(qtbot, window, "Plan a trip to Kyoto temples")
    kyoto = window.context.chat.session.conversation_id
    window.conversations.new_conversation()
    send(qtbot, window, "帮我写一封请假邮件")
    assert window.conversation_panel.model.count() == 2
    window.conversations.rename_conversation(kyoto, "Kyoto")
    assert window.context.app.profile.conversations.get(kyoto).title == "Kyoto"
    window.conversation_panel.search.setText("kyoto temples")
    qtbot.keyClick(window.conversation_panel.search, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.conversation_panel.model.count() >= 1, timeout=5000)
    idle(qtbot, window)
    assert window.conversation_panel.model.conversations()[0].id == kyoto
    window.conversation_panel.search.clear()
    assert window.conversation_panel.model.count() == 2
    window.conversations.open_conversation(kyoto)
    assert [m.text() for m in window.chat.messages][0] == "Plan a trip to Kyoto temples"
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    window.conversations.delete_conversation(kyoto)
    idle(qtbot, window)
    assert window.conversation_panel.model.count() == 1 and window.chat.messages == []


def test_incognito_in_the_window(qtbot: Any, window: MainWindow, fake_ollama: FakeOllama) -> None:
    window.context.app.profile.memories.add(NewMemory("Allergic to peanuts", pinned=True))
    window.conversations.new_conversation(incognito=True)
    assert window.chat.incognito_badge.isVisibleTo(window)
    assert "incognito" in window.status_bar.memory_status.text()
    send(qtbot, window, "a secret I will not keep")
    assert window.chat.messages[-1].text() == "You said: a secret I will not keep"
    assert window.context.app.profile.conversations.list() == []
    assert "Allergic" not in fake_ollama.last_prompt()
    window.conversations.new_conversation()
    assert not window.chat.incognito_badge.isVisibleTo(window)


def test_an_earlier_message_is_a_chip_that_opens_its_conversation(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama
) -> None:
    # nothing is learned from it: the recall tier is what still knows
    send(qtbot, window, "My bike is a red Brompton folding bike")
    first = window.context.chat.session.conversation_id
    said = window.chat.messages[0].message_id
    window.conversations.new_conversation()
    send(qtbot, window, "What colour is my Brompton folding bike?")
    answer = window.chat.messages[1]
    chips = [answer.chips.itemAt(i).widget() for i in range(answer.chips.count())]
    past = [c for c in chips if c is not None and c.property("message_id") is not None]
    assert past and past[0].property("message_id") == said
    assert "My bike is a red Brompton folding bike" in past[0].toolTip()
    record = window.context.app.profile.conversations.message(answer.message_id)
    assert record.recalled[0].message_id == said, "the answer keeps what it used"
    past[0].click()
    assert window.context.chat.session.conversation_id == first
    assert any(w.message_id == said for w in window.chat.messages)
    # reopened later, the answer still shows its chip
    window.conversations.open_conversation(record.conversation_id)
    again = window.chat.messages[1]
    texts = [again.chips.itemAt(i).widget() for i in range(again.chips.count())]
    assert any(w is not None and w.property("message_id") == said for w in texts)


def test_the_chats_forget_lists_each_candidate_with_its_own_checkbox(
    qtbot: Any, window: MainWindow, profile: Profile
) -> None:
    """ "forget …" offers only what is about it, pinned memories unticked and marked, and
    says in the chat what was done (also when nothing was)."""
    from desktop_mem.ui.forget_dialog import ForgetDialog

    pinned = profile.memories.add(NewMemory("I have a sister called Ana", pinned=True)).memory
    other = profile.memories.add(NewMemory("My sister Ana lives in Porto")).memory
    profile.memories.add(NewMemory("Allergic to peanuts", pinned=True))
    window.memories.refresh_memories()
    idle(qtbot, window)  # listed off the GUI thread
    seen: dict[str, Any] = {}

    def answer(accept: bool) -> Any:
        def act() -> None:
            dialog = QApplication.activeModalWidget()
            if not isinstance(dialog, ForgetDialog):
                QTimer.singleShot(20, act)
                return
            rows = [dialog.items.item(i) for i in range(dialog.items.count())]
            seen["rows"] = [(r.text(), r.checkState() == Qt.CheckState.Checked) for r in rows]
            seen["chosen"] = dialog.chosen("memory")
            dialog.accept() if accept else dialog.reject()

        return act

    QTimer.singleShot(20, answer(False))
    send(qtbot, window, "forget my sister Ana")
    texts = [t for t, _ in seen["rows"]]
    assert not [t for t in texts if "peanuts" in t], "only what is about it"
    assert ("I have a sister called Ana  (pinned)", False) in seen["rows"]
    assert ("My sister Ana lives in Porto", True) in seen["rows"]
    assert seen["chosen"] == [other.id]
    idle(qtbot, window)
    assert window.chat.messages[-1].text() == "Nothing was deleted."
    assert profile.memories.count() == 3

    QTimer.singleShot(20, answer(True))
    send(qtbot, window, "forget my sister Ana")
    idle(qtbot, window)
    # the earlier messages that said it start ticked: they go too, by default
    said = [(t, ticked) for t, ticked in seen["rows"] if "You:" in t or "Assistant:" in t]
    assert said and all(ticked for _, ticked in said)
    assert window.chat.messages[-1].text().startswith("Deleted 1 memory and ")
    assert "0 messages" not in window.chat.messages[-1].text()
    assert window.statusBar().currentMessage() == window.chat.messages[-1].text()
    assert {m.id for m in profile.memories.list()} >= {pinned.id}
    assert other.id not in {m.id for m in profile.memories.list()}


def test_incognito_looks_different_and_stopped_is_not_an_error(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama
) -> None:
    window.conversations.new_conversation(True)
    assert "nothing you say here is remembered" in window.chat.empty.text()
    assert window.chat.list_widget.objectName() == "incognitoList"
    window.conversations.new_conversation(False)
    assert "stays on this computer" in window.chat.empty.text()
    assert window.chat.list_widget.objectName() == ""
    fake_ollama.reply(" ".join(f"w{i}" for i in range(400)), chunk_delay=0.02)
    window.chat.input.setPlainText("tell me everything")
    qtbot.keyClick(window.chat.input, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: len(window.chat.messages[-1].text()) > 10, timeout=5000)
    window.turns.stop()
    idle(qtbot, window)
    status = window.chat.messages[-1].status
    assert status.text() == "Stopped." and status.objectName() == "stopped"  # not error red


def test_an_answer_shows_the_document_passages_it_was_given(
    qtbot: Any, window: MainWindow, profile: Profile, fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    from PySide6.QtWidgets import QPushButton

    (tmp_path / "handbook.md").write_text(
        "# Handbook\n\n## Leave\n\nAnnual leave is twenty-five days per year.\n", "utf-8"
    )
    profile.documents.add(tmp_path / "handbook.md")
    fake_ollama.reply("Twenty-five days.")
    send(qtbot, window, "How many days of annual leave per year do I get?")
    answer = window.chat.messages[-1]
    chips = [b.text() for b in answer.chip_row.findChildren(QPushButton)]
    assert "handbook.md, Handbook › Leave" in chips
    window.conversations.new_conversation(False)
    window.conversations.open_conversation(
        window.context.app.profile.conversations.list()[0].id
    )  # kept when reopened
    reopened = window.chat.messages[-1]
    assert "handbook.md, Handbook › Leave" in [
        b.text() for b in reopened.chip_row.findChildren(QPushButton)
    ]


def test_a_reopened_conversation_keeps_what_it_taught_and_late_learning_finds_its_answer(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama, profile: Profile
) -> None:
    fake_ollama.reply_json(HANGZHOU)
    fake_ollama.reply("Nice!")
    send(qtbot, window, "I live in Hangzhou with my cat Mochi")
    qtbot.waitUntil(lambda: "Remembered" in window.chat.messages[-1].notice.text(), timeout=10000)
    conv = window.context.chat.session.conversation_id
    window.conversations.new_conversation(False)
    window.conversations.open_conversation(conv)
    assert "Remembered: Lives in Hangzhou" in window.chat.messages[-1].notice.text()
    # learning that ends after the chat changed: no dead widget touched, the browser updated
    fake_ollama.reply_json({"memories": [{"text": "Plays the cello", "kind": "fact"}]})
    fake_ollama.reply("Lovely.")
    window.chat.input.setPlainText("I play the cello every evening")
    qtbot.keyClick(window.chat.input, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not window.context.chat.busy, timeout=10000)
    window.conversations.new_conversation(False)  # the answer's widget is gone now
    qtbot.waitUntil(
        lambda: any(m.text == "Plays the cello" for m in profile.memories.list()), timeout=10000
    )
    idle(qtbot, window)
    qtbot.waitUntil(lambda: window.browser.model.rowCount() == 2, timeout=10000)


def test_a_message_shows_its_time_on_hover(
    qtbot: Any, window: MainWindow, profile: Profile
) -> None:

    store = profile.conversations
    conv = store.create("Old")
    store.add_message(conv.id, "user", "hello", created_at="2025-03-04T05:06:00Z")
    window.conversations.open_conversation(conv.id)
    tip = window.chat.messages[0].toolTip()
    assert tip and ("2025" in tip or "25" in tip)


def test_a_new_chat_is_named_by_the_model_and_can_be_pinned(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama
) -> None:
    fake_ollama.titles.append("Kyoto temple trip")
    send(qtbot, window, "Plan a trip to the temples of Kyoto in spring")
    kyoto = window.context.chat.session.conversation_id
    qtbot.waitUntil(lambda: window.chat.title.text() == "Kyoto temple trip", timeout=10000)
    assert window.conversation_panel.model.conversations()[0].title == "Kyoto temple trip"
    assert window.conversation_panel.model.headings() == ["Today"]
    window.conversations.new_conversation()
    send(qtbot, window, "Write a short poem about rain")
    assert [c.id for c in window.conversation_panel.model.conversations()][1] == kyoto
    window.conversations.pin_conversation(kyoto, True)  # the core says so; the list follows
    qtbot.waitUntil(lambda: window.conversation_panel.model.headings() == ["Pinned", "Today"])
    assert window.conversation_panel.model.conversations()[0].id == kyoto, "pinned first"
    window.conversations.pin_conversation(kyoto, False)
    qtbot.waitUntil(lambda: window.conversation_panel.model.headings() == ["Today"])


def test_stop_ends_an_answer_the_server_has_not_started(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama
) -> None:
    from tests.fakes.ollama_server import HOLD_LIMIT, hang

    held = hang(fake_ollama)  # a model loading: the request is taken, nothing answered
    window.chat.input.setPlainText("are you there?")
    qtbot.keyClick(window.chat.input, Qt.Key.Key_Return)
    qtbot.waitUntil(held.arrived.is_set, timeout=int(HOLD_LIMIT * 1000))
    assert window.chat.stop_button.isVisible()
    window.chat.stop_button.click()
    idle(qtbot, window)
    assert not held.answered.is_set(), "Stop waited for the server's answer"
    assert not window.chat.stop_button.isVisible()
    assert window.chat.messages[0].text() == "are you there?"
    held.release.set()


def test_esc_ends_an_answer_waiting_between_chunks(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama
) -> None:
    reply = fake_ollama.reply("one two three four", hold_after=2)
    window.chat.input.setPlainText("count")
    qtbot.keyClick(window.chat.input, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.chat.messages[-1].text() == "one two ", timeout=10000)
    qtbot.keyClick(window, Qt.Key.Key_Escape)
    idle(qtbot, window)
    assert not reply.resumed.is_set(), "Esc waited for the server's next chunk"
    assert window.chat.messages[-1].status.text() == "Stopped."
    reply.release.set()


def test_a_command_and_its_reply_offer_no_regenerate_or_edit(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama
) -> None:
    send(qtbot, window, "Remember that I am allergic to peanuts")
    asked, reply = window.chat.messages
    assert asked.redo_button.isHidden() and reply.redo_button.isHidden()
    before = len(fake_ollama.chat_requests())
    window.turns.regenerate(-1)  # the Chat menu's Regenerate (Ctrl+R)
    window.chat.edit_last_message()  # and Edit last message (Ctrl+E)
    idle(qtbot, window)
    assert len(fake_ollama.chat_requests()) == before and not window.chat.editing()
    assert [m.text() for m in window.chat.messages] == [asked.text(), reply.text()]
    cid = window.context.chat.session.conversation_id
    window.conversations.show_messages(cid)  # reopened: still none
    assert all(m.redo_button.isHidden() for m in window.chat.messages)
