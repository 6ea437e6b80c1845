"""The real widgets, driven with pytest-qt, against the fake Ollama server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QLabel, QMessageBox

from desktop_mem.core.config import Config
from desktop_mem.core.keys.vault import Vault
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.profile import Profile
from desktop_mem.ui import tasks
from desktop_mem.ui.app import Application, app_settings, install_language
from desktop_mem.ui.backup_ui import RecoveryCodeDialog
from desktop_mem.ui.dialogs import PassphraseDialog
from desktop_mem.ui.main_window import MainWindow
from desktop_mem.ui.memory_browser import NewMemoryDialog
from desktop_mem.ui.unlock import open_profile
from tests.fakes.ollama_server import FakeOllama

HANGZHOU = {"memories": [{"text": "Lives in Hangzhou with a cat named Mochi", "kind": "fact"}]}


@pytest.fixture
def window(qtbot: Any, profile: Profile, home: Path) -> Iterator[MainWindow]:
    w = MainWindow(profile, app_settings(home))
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: w.online, timeout=5000)
    # settled: what it starts with is done (search prepared for a new profile, say), so
    # nothing it started is still running when qtbot closes it after the test
    qtbot.waitUntil(lambda: tasks.busy() == 0, timeout=10000)
    yield w
    qtbot.waitUntil(lambda: tasks.busy() == 0, timeout=10000)
    w.close()  # before the profile closes: nothing pending may touch it afterwards


def idle(qtbot: Any, w: MainWindow) -> None:
    qtbot.waitUntil(lambda: not w.turn_busy and tasks.busy() == 0, timeout=10000)


def send(qtbot: Any, w: MainWindow, text: str) -> None:
    w.chat.input.setPlainText(text)
    qtbot.keyClick(w.chat.input, Qt.Key.Key_Return)
    idle(qtbot, w)


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
    assert window.conv_model.count() == 1
    assert window.conv_model.conversations()[0].title == "Hi there"
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
    stored = window.conversations.messages(window.session.conversation_id)
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
    stored = window.conversations.messages(window.session.conversation_id)
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
    stored = window.conversations.messages(window.session.conversation_id)
    assert [m.content for m in stored] == shown, "the later turns are gone from the store too"


def test_a_memory_from_one_chat_is_a_chip_in_the_next(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama
) -> None:
    fake_ollama.reply_json(HANGZHOU)
    send(qtbot, window, "I live in Hangzhou with my cat Mochi")
    first_answer = window.chat.messages[1]
    assert "Remembered: Lives in Hangzhou" in first_answer.notice.text()
    assert window.browser.model.rowCount() == 1
    window.threads.new_conversation()
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
    assert window.browser.impact.count() == 1, "the memory shows the answer it shaped"
    assert window.browser.impact.item(0).text() == "Home Hangzhou, with Mochi (map).", "as read"
    # the notice's undo takes the memory back
    window.threads.open_conversation(window.conv_model.conversations()[1].id)


def test_undo_a_learned_memory(qtbot: Any, window: MainWindow, fake_ollama: FakeOllama) -> None:
    fake_ollama.reply_json(HANGZHOU)
    send(qtbot, window, "I live in Hangzhou with my cat Mochi")
    window.turns.undo_changes(1)
    idle(qtbot, window)
    assert window.profile.memories.count() == 0
    assert window.chat.messages[1].notice.text() == "Undone."


def test_edit_pin_delete_from_the_browser(
    qtbot: Any, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = window.profile.memories
    m = store.add(NewMemory("I prefer green tea")).memory
    other = store.add(NewMemory("我喜欢跑步")).memory
    window.memory.refresh_memories()
    idle(qtbot, window)  # listed off the GUI thread
    assert window.browser.select(m.id)
    window.browser.text.setPlainText("I prefer black coffee")
    window.browser.save_button.click()
    qtbot.waitUntil(lambda: store.get(m.id).text == "I prefer black coffee", timeout=5000)
    idle(qtbot, window)
    assert window.browser.history.count() == 2
    window.browser.pin_button.click()
    idle(qtbot, window)  # pinned off the GUI thread
    assert store.get(m.id).pinned
    # restore the first version
    window.browser.history.setCurrentRow(0)
    window.browser.restore_button.click()
    qtbot.waitUntil(lambda: store.get(m.id).text == "I prefer green tea", timeout=5000)
    idle(qtbot, window)
    # search, Chinese
    window.browser.search.setText("跑步")
    qtbot.waitUntil(lambda: "match" in window.browser.count.text(), timeout=5000)
    assert window.browser.model.memory(0).id == other.id, "search order, best first"
    window.browser.search.clear()
    qtbot.waitUntil(lambda: not window.browser._timer.isActive(), timeout=5000)
    qtbot.waitUntil(lambda: window.browser.model.rowCount() == 2, timeout=5000)
    # delete with confirmation
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    window.browser.select(other.id)
    window.browser.delete_button.click()
    qtbot.waitUntil(lambda: store.count() == 1, timeout=5000)
    idle(qtbot, window)
    assert window.browser.model.rowCount() == 1


def test_forget_everything_needs_the_typed_word(qtbot: Any, window: MainWindow) -> None:
    window.profile.memories.add_many([NewMemory(f"memory {i}") for i in range(3)])

    def type_it() -> None:
        dialog = QApplication.activeModalWidget()
        assert not dialog.ok.isEnabled()
        dialog.entry.setText("FORGET")
        dialog.ok.click()

    QTimer.singleShot(100, type_it)
    window.memory.forget_all()
    qtbot.waitUntil(lambda: window.profile.memories.count() == 0, timeout=5000)
    idle(qtbot, window)


def test_ollama_down_shows_the_offline_screen_and_retry_recovers(
    qtbot: Any, profile: Profile, home: Path, fake_ollama: FakeOllama
) -> None:
    profile.config.ollama_host = "http://127.0.0.1:9"
    w = MainWindow(profile, app_settings(home))
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: w.centre.currentWidget() is w.offline, timeout=5000)
    assert w.offline.detail.text() == "Nothing answers at http://127.0.0.1:9."
    said = " ".join(label.text() for label in w.offline.findChildren(QLabel))
    assert said.count("ollama serve") == 1, "the start instructions are given once"
    assert "not connected" in w.ollama_status.text()
    profile.set_ollama_host(fake_ollama.url)  # as Settings does when the user fixes it
    w.connection.use_model(None)
    w.offline.retry_button.click()
    qtbot.waitUntil(lambda: w.centre.currentWidget() is w.chat, timeout=5000)
    idle(qtbot, w)


def test_missing_model_is_pulled_with_progress(
    qtbot: Any,
    profile: Profile,
    home: Path,
    fake_ollama: FakeOllama,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from desktop_mem.core.settings import Settings

    Settings(profile.db).set("chat_model", "llama3.2:3b")
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    w = MainWindow(profile, app_settings(home))
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: "llama3.2:3b" in fake_ollama.chat_models, timeout=10000)
    qtbot.waitUntil(lambda: "llama3.2:3b" in w.models, timeout=10000)
    assert "/api/pull" in fake_ollama.paths()
    send(qtbot, w, "hello")
    assert w.chat.messages[-1].text() == "You said: hello"


def test_a_missing_embedding_model_is_said_pulled_and_then_indexes(
    qtbot: Any,
    profile: Profile,
    home: Path,
    fake_ollama: FakeOllama,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    dim = fake_ollama.embed_models.pop("fake-embed")
    saved = profile.memories.add(NewMemory("My sister Lin lives in Chengdu"))
    assert saved.warnings and profile.memories.unindexed_count() == 1
    fake_ollama.embed_pullable["fake-embed"] = dim
    asked: list[str] = []

    def question(_parent: Any, title: str, text: str, *a: Any, **k: Any) -> Any:
        asked.append(text)
        assert "missing" in w.ollama_status.text(), "the status bar says so too"
        return QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", question)
    w = MainWindow(profile, app_settings(home))
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: bool(asked), timeout=10000)
    assert "embedding model fake-embed is not installed" in asked[0]
    qtbot.waitUntil(lambda: profile.memories.unindexed_count() == 0, timeout=10000)
    assert "/api/pull" in fake_ollama.paths()
    qtbot.waitUntil(lambda: "missing" not in w.ollama_status.text(), timeout=10000)
    idle(qtbot, w)
    assert [h.memory.text for h in profile.search.search("where does my sister live").hits]
    w.close()


def test_passphrase_flow(qtbot: Any, config: Config, vault: Vault, isolated: Any) -> None:
    import keyring.backends.fail

    from desktop_mem.core.keys.vault import KeyringAccess

    no_keyring = Vault(KeyringAccess(keyring.backends.fail.Keyring(), timeout=1.0))
    answers = iter(["short", "a long passphrase", "wrong passphrase!", "a long passphrase"])

    def fill() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, PassphraseDialog):
            QTimer.singleShot(50, fill)
            return
        text = next(answers)
        dialog.first.setText(text)
        dialog.second.setText(text)
        dialog._check()
        if dialog.isVisible():  # refused: "short"; try the next answer
            assert "at least 8" in dialog.error.text()
            QTimer.singleShot(50, fill)

    QTimer.singleShot(50, fill)
    prof = open_profile(config, no_keyring)
    assert prof is not None and prof.db.key_mode == "passphrase"
    prof.memories.add(NewMemory("a secret"))
    prof.close()
    config.passphrase = None
    seen_errors: list[str] = []

    def unlock() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, PassphraseDialog):
            QTimer.singleShot(50, unlock)
            return
        seen_errors.append(dialog.error.text())
        dialog.first.setText(next(answers))
        dialog._check()
        if seen_errors[-1] == "":
            QTimer.singleShot(50, unlock)

    QTimer.singleShot(50, unlock)
    again = open_profile(config, no_keyring)
    assert again is not None and again.memories.count() == 1
    assert seen_errors == ["", "That passphrase is not right. Nothing was changed; try again."]
    again.close()


def test_language_switch_rebuilds_the_window_in_chinese(
    qtbot: Any, profile: Profile, home: Path, fake_ollama: FakeOllama
) -> None:
    app = QApplication.instance()
    running = Application(app, profile, app_settings(home))
    try:
        assert running.window.chat.send_button.text() == "Send"
        qtbot.waitUntil(lambda: running.window.online, timeout=5000)
        running.set_language("zh_CN")
        assert running.window.chat.send_button.text() == "发送"
        assert running.window.menuBar().actions()[0].text() == "聊天(&C)"
        qtbot.waitUntil(lambda: "已连接" in running.window.ollama_status.text(), timeout=5000)
        idle(qtbot, running.window)
    finally:
        install_language(app, "en")
        running.window.close()


def test_window_state_is_remembered(qtbot: Any, profile: Profile, home: Path) -> None:
    w = MainWindow(profile, app_settings(home))
    qtbot.addWidget(w)
    w.show()
    assert w.page() == "chat"
    w._toggle_browser()  # Ctrl+M: the Memories page, with the whole width
    assert w.page() == "memories" and w.browser.isVisibleTo(w)
    w.close()
    assert app_settings(home).value("window/geometry") is not None
    again = MainWindow(profile, app_settings(home))
    qtbot.addWidget(again)
    assert again.page() == "memories" and again.rail_buttons["memories"].isChecked()
    again.rail_buttons["chat"].click()
    assert again.page() == "chat" and not again.browser.isVisibleTo(again)
    idle(qtbot, again)


def test_conversations_rename_search_delete(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama, monkeypatch: pytest.MonkeyPatch
) -> None:
    send(qtbot, window, "Plan a trip to Kyoto temples")
    kyoto = window.session.conversation_id
    window.threads.new_conversation()
    send(qtbot, window, "帮我写一封请假邮件")
    assert window.conv_model.count() == 2
    window.threads.rename_conversation(kyoto, "Kyoto")
    assert window.conversations.get(kyoto).title == "Kyoto"
    window.conv_search.setText("kyoto temples")
    qtbot.keyClick(window.conv_search, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.conv_model.count() >= 1, timeout=5000)
    idle(qtbot, window)
    assert window.conv_model.conversations()[0].id == kyoto
    window.conv_search.clear()
    assert window.conv_model.count() == 2
    window.threads.open_conversation(kyoto)
    assert [m.text() for m in window.chat.messages][0] == "Plan a trip to Kyoto temples"
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    window.threads.delete_conversation(kyoto)
    idle(qtbot, window)
    assert window.conv_model.count() == 1 and window.chat.messages == []


def test_incognito_in_the_window(qtbot: Any, window: MainWindow, fake_ollama: FakeOllama) -> None:
    window.profile.memories.add(NewMemory("Allergic to peanuts", pinned=True))
    window.threads.new_conversation(incognito=True)
    assert window.chat.incognito_badge.isVisibleTo(window)
    assert "incognito" in window.memory_status.text()
    send(qtbot, window, "a secret I will not keep")
    assert window.chat.messages[-1].text() == "You said: a secret I will not keep"
    assert window.conversations.list() == []
    assert "Allergic" not in fake_ollama.last_prompt()
    window.threads.new_conversation()
    assert not window.chat.incognito_badge.isVisibleTo(window)


def test_import_shows_rejected_rows_and_imports_nothing(
    qtbot: Any, window: MainWindow, tmp_path: Path
) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("text,kind\nfine memory,fact\nbroken,nonsense-kind\n", encoding="utf-8")
    window.memory.import_memories(str(bad))
    qtbot.waitUntil(lambda: window.memory.import_box is not None, timeout=5000)
    assert "line 3" in window.memory.import_box.detailedText()
    assert window.profile.memories.count() == 0
    good = tmp_path / "good.md"
    good.write_text("- I like jasmine tea\n- 我住在杭州\n", encoding="utf-8")
    window.memory.import_memories(str(good))
    qtbot.waitUntil(lambda: window.profile.memories.count() == 2, timeout=5000)
    idle(qtbot, window)
    assert window.browser.model.rowCount() == 2
    out = tmp_path / "export.json"
    window.memory.export_memories(str(out))
    qtbot.waitUntil(out.exists, timeout=5000)
    idle(qtbot, window)
    assert "我住在杭州" in out.read_text(encoding="utf-8")


def test_settings_apply(qtbot: Any, window: MainWindow, fake_ollama: FakeOllama) -> None:
    seen: list[str] = []
    window.theme_changed.connect(seen.append)
    values = {
        "ollama_host": fake_ollama.url,
        "chat_model": "qwen2.5:7b",
        "embed_model": "fake-embed",
        "auto_memory": False,
        "context_tokens": 4096,
        "openai_enabled": False,
        "openai_base_url": "",
        "openai_model": "",
        "language": "en",
        "theme": "dark",
    }
    window.preferences.apply_settings(values)
    idle(qtbot, window)
    assert window.settings.get("auto_memory") is False and "off" in window.memory_status.text()
    assert window.settings.get("context_tokens") == 4096
    assert seen == ["dark"]
    fake_ollama.reply_json(HANGZHOU)
    send(qtbot, window, "I live in Hangzhou")
    assert fake_ollama.chat_requests(structured=True) == [], "automatic memory is off"


def test_shortcuts_dialog_lists_every_shortcut(qtbot: Any) -> None:
    from desktop_mem.ui import shortcuts
    from desktop_mem.ui.dialogs import ShortcutsDialog

    dialog = ShortcutsDialog()
    qtbot.addWidget(dialog)
    assert dialog.table.rowCount() == len(shortcuts.SHORTCUTS)
    actions = {dialog.table.item(r, 1).text() for r in range(dialog.table.rowCount())}
    assert "Stop the answer" in actions and "Keyboard shortcuts" in actions


def test_single_instance_per_profile(qtbot: Any, config: Config) -> None:
    from desktop_mem.ui.app import SingleInstance, instance_name

    raised: list[bool] = []
    first = SingleInstance(instance_name(config))
    first.listen(lambda: raised.append(True))
    assert SingleInstance(instance_name(config)).already_running()
    qtbot.waitUntil(lambda: raised == [True], timeout=3000)
    other = Config.resolve(home=config.home, profile="work")
    assert not SingleInstance(instance_name(other)).already_running()
    first.server.close()


def test_changing_the_embedding_model_reindexes_with_progress(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_ollama.embed_models["fake-embed-2"] = 32
    window.profile.memories.add_many([NewMemory(f"memory number {i}") for i in range(40)])
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    progress: list[int] = []
    window.work_bar.valueChanged.connect(progress.append)
    window.preferences.change_embedding_model("fake-embed-2")
    qtbot.waitUntil(lambda: window.profile.memories.index.model == "fake-embed-2", timeout=10000)
    idle(qtbot, window)
    assert (
        window.profile.memories.index.dim == 32 and window.profile.embedder.model == "fake-embed-2"
    )
    assert progress and max(progress) == 40
    assert (
        window.profile.search.search("memory number 7", k=1).hits[0].memory.text
        == "memory number 7"
    )


def test_turning_on_a_remote_server_shows_the_notice_once(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama, monkeypatch: pytest.MonkeyPatch
) -> None:
    shown: list[str] = []
    monkeypatch.setattr(
        QMessageBox, "information", lambda _parent, _title, text: shown.append(text)
    )
    values = {
        "ollama_host": fake_ollama.url,
        "chat_model": "gpt-x",
        "embed_model": "fake-embed",
        "auto_memory": True,
        "context_tokens": 8192,
        "openai_enabled": True,
        "openai_base_url": "http://0.0.0.0:9/v1",  # not this computer by address; refused at once
        "openai_model": "gpt-x",
        "language": "en",
        "theme": "system",
    }
    window.preferences.apply_settings(values)
    window.preferences.apply_settings(values)
    assert len(shown) == 1 and "0.0.0.0" in shown[0]
    assert not window.backend.local
    values.update(openai_enabled=False, chat_model="qwen2.5:7b")
    window.preferences.apply_settings(values)
    qtbot.waitUntil(lambda: window.online, timeout=5000)
    idle(qtbot, window)


def test_a_window_session_leaves_no_plaintext(
    qtbot: Any,
    window: MainWindow,
    fake_ollama: FakeOllama,
    home: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Chat, learn, edit, delete, export aside and close, in the window: nothing the app
    wrote (database, WAL, log, window settings, temp files) holds any of the text."""
    from desktop_mem.core import logs
    from tests import leaks

    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setenv("TMPDIR", str(temp))
    logs.configure(home)
    fake_ollama.reply_json(
        {"memories": [{"text": "Keeps a ferret called Quillbaxter88", "kind": "fact"}]}
    )
    send(qtbot, window, "My ferret Quillbaxter88 eats 秘密饲料 every night")
    store = window.profile.memories
    learned = store.list()[0]
    assert window.browser.select(learned.id)
    window.browser.text.setPlainText("Keeps two ferrets, Quillbaxter88 and Zorvendale")
    window.browser.save_button.click()
    qtbot.waitUntil(lambda: "Zorvendale" in store.get(learned.id).text, timeout=5000)
    idle(qtbot, window)
    window.memory.export_memories(str(tmp_path / "aside.json"))
    idle(qtbot, window)
    window.threads.new_conversation()
    send(qtbot, window, "Delete me: Xanthorrhoea451 是我的密码")
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    window.threads.delete_conversation(window.session.conversation_id)
    idle(qtbot, window)
    window.close()

    secrets = ["Quillbaxter88", "秘密饲料", "Zorvendale", "Xanthorrhoea451", "是我的密码"]
    assert "Zorvendale" in (tmp_path / "aside.json").read_text("utf-8")
    written = leaks.files_under(home, temp)
    names = {p.name for p in written}
    assert {"memory.db", "desktop-mem.log"} <= names and any(n.endswith(".ini") for n in names)
    assert leaks.scan_files(written, secrets) == []


def test_changing_the_key_from_settings(
    qtbot: Any,
    config: Config,
    vault: Vault,
    home: Path,
    fake_ollama: FakeOllama,
    isolated: Any,
) -> None:
    """Settings → "Use a passphrase instead…" → a new passphrase twice: the profile is
    re-encrypted, reopened and the window rebuilt with every memory; and back to the
    keyring, whose old entry is gone by then."""
    from desktop_mem.core.keys.vault import SERVICE
    from desktop_mem.ui.dialogs import SettingsDialog

    profile = Profile.open(config, vault)
    profile.memories.add(NewMemory("I keep bees"))
    running = Application(QApplication.instance(), profile, app_settings(home), vault)  # type: ignore[arg-type]
    qtbot.waitUntil(lambda: running.window.online, timeout=5000)

    def settings_then_passphrase() -> None:
        dialog = QApplication.activeModalWidget()
        if isinstance(dialog, SettingsDialog):
            assert "keyring" in dialog.key_status.text()
            dialog.switch_key_button.click()
        elif isinstance(dialog, PassphraseDialog):
            assert "new passphrase" in dialog.findChild(QLabel).text()
            dialog.first.setText("bees in the garden")
            dialog.second.setText("bees in the garden")
            dialog._check()
            return
        QTimer.singleShot(50, settings_then_passphrase)

    QTimer.singleShot(50, settings_then_passphrase)
    running.window.preferences.open_settings()
    qtbot.waitUntil(lambda: running.profile.db.key_mode == "passphrase", timeout=15000)
    assert running.window.isEnabled() and running.profile.memories.count() == 1
    assert running.profile.config.passphrase == "bees in the garden"
    assert not [a for (s, a) in isolated.secrets if s == SERVICE], "the keyring entry is gone"
    assert "re-encrypted" in running.window.statusBar().currentMessage()

    shown: list[str] = []

    def confirm_code() -> None:  # back in the keyring: its first recovery code, shown once
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, RecoveryCodeDialog):
            QTimer.singleShot(50, confirm_code)
            return
        shown.append(dialog.code.text())
        dialog.confirm.setChecked(True)
        dialog.ok.click()

    QTimer.singleShot(50, confirm_code)
    assert running.change_key("keyring")
    assert running.profile.db.key_mode == "keyring" and running.profile.config.passphrase is None
    assert len(shown) == 1 and len(shown[0]) == 29
    assert [m.text for m in running.profile.memories.list()] == ["I keep bees"]
    idle(qtbot, running.window)
    running.window.close()
    running.profile.close()


def test_a_key_change_that_cannot_happen_keeps_everything(
    qtbot: Any,
    config: Config,
    vault: Vault,
    home: Path,
    fake_ollama: FakeOllama,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Another program has the profile open: one sentence, and the window comes back
    with the old key and every memory."""
    profile = Profile.open(config, vault)
    profile.memories.add(NewMemory("I keep bees"))
    running = Application(QApplication.instance(), profile, app_settings(home), vault)  # type: ignore[arg-type]
    qtbot.waitUntil(lambda: running.window.online, timeout=5000)
    warnings: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _p, _t, text: warnings.append(text))
    with Profile.open(config, vault):  # e.g. the command line, still open
        assert not running.change_key("keyring")
    assert warnings and "open in another desktop-mem" in warnings[0]
    assert running.profile.db.key_mode == "keyring" and running.profile.memories.count() == 1
    idle(qtbot, running.window)
    running.window.close()
    running.profile.close()


def test_delete_everything_needs_the_typed_word_and_leaves_nothing(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama
) -> None:
    send(qtbot, window, "Remember my locker code 4471")
    window.threads.new_conversation()
    send(qtbot, window, "another chat")
    window.profile.memories.add_many([NewMemory(f"memory {i}") for i in range(3)])
    count = window.profile.memories.count()  # the three, and "remember …" from the chat
    assert count == 4

    shown: list[str] = []

    def type_it() -> None:
        dialog = QApplication.activeModalWidget()
        shown.append(dialog.findChild(QLabel).text())
        dialog.entry.setText("DELETE")
        dialog.ok.click()

    QTimer.singleShot(100, type_it)
    window.memory.delete_everything()
    assert "2 conversations and all 4 memories" in shown[0]
    qtbot.waitUntil(lambda: window.conv_model.count() == 0, timeout=5000)
    idle(qtbot, window)
    assert window.profile.memories.count() == 0 and window.conversations.list() == []
    assert window.browser.model.rowCount() == 0 and window.chat.messages == []
    send(qtbot, window, "a fresh start")  # and the app goes on
    assert window.conv_model.count() == 1


def test_an_earlier_message_is_a_chip_that_opens_its_conversation(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama
) -> None:
    # nothing is learned from it: the recall tier is what still knows
    send(qtbot, window, "My bike is a red Brompton folding bike")
    first = window.session.conversation_id
    said = window.chat.messages[0].message_id
    window.threads.new_conversation()
    send(qtbot, window, "What colour is my Brompton folding bike?")
    answer = window.chat.messages[1]
    chips = [answer.chips.itemAt(i).widget() for i in range(answer.chips.count())]
    past = [c for c in chips if c is not None and c.property("message_id") is not None]
    assert past and past[0].property("message_id") == said
    assert "My bike is a red Brompton folding bike" in past[0].toolTip()
    record = window.conversations.message(answer.message_id)
    assert record.recalled[0].message_id == said, "the answer keeps what it used"
    past[0].click()
    assert window.session.conversation_id == first
    assert any(w.message_id == said for w in window.chat.messages)
    # reopened later, the answer still shows its chip
    window.threads.open_conversation(record.conversation_id)
    again = window.chat.messages[1]
    texts = [again.chips.itemAt(i).widget() for i in range(again.chips.count())]
    assert any(w is not None and w.property("message_id") == said for w in texts)


def test_an_idle_window_tidies_memories_by_itself(qtbot: Any, window: MainWindow) -> None:
    for _ in range(2):
        window.profile.memories.add(NewMemory("My cat Mochi is eleven years old"))
    window.sleeper.timer.setInterval(10)
    window.sleeper.user_active()  # counting quiet time from now
    qtbot.waitUntil(lambda: " tidied (" in window.statusBar().currentMessage(), timeout=20000)
    assert window.profile.memories.history(2)[-1].action == "merged into #1"
    assert not window.sleeper.schedule.due(), "done for now"
    # typing stops a pass and restarts the quiet time
    window.sleeper.running = True
    window.chat.input.setPlainText("h")
    assert window.sleeper._stop.is_set() and window.sleeper.timer.isActive()
    window.sleeper.running = False


def test_the_chats_forget_lists_each_candidate_with_its_own_checkbox(
    qtbot: Any, window: MainWindow, profile: Profile
) -> None:
    """ "forget …" offers only what is about it, pinned memories unticked and marked, and
    says in the chat what was done (also when nothing was)."""
    from desktop_mem.ui.forget_dialog import ForgetDialog

    pinned = profile.memories.add(NewMemory("I have a sister called Ana", pinned=True)).memory
    other = profile.memories.add(NewMemory("My sister Ana lives in Porto")).memory
    profile.memories.add(NewMemory("Allergic to peanuts", pinned=True))
    window.memory.refresh_memories()
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
    assert window.chat.messages[-1].text() != "Deleted 1 memory and 0 messages."
    assert {m.id for m in profile.memories.list()} >= {pinned.id}
    assert other.id not in {m.id for m in profile.memories.list()}


def test_a_deleted_memory_leaves_the_details_and_errors_speak_to_a_window_user(
    qtbot: Any, window: MainWindow, profile: Profile
) -> None:
    mem = profile.memories.add(NewMemory("I keep bees in the garden")).memory
    window.memory.refresh_memories()
    idle(qtbot, window)  # listed off the GUI thread
    window.memory.show_memory(mem.id)
    assert window.browser.current is not None and window.browser.save_button.isEnabled()
    window.memory.delete_memories([mem.id], confirm=False)
    idle(qtbot, window)
    assert window.browser.current is None
    assert not window.browser.save_button.isEnabled() and window.browser.text.toPlainText() == ""
    window.memory.save_memory(mem.id, "edited after deletion", "fact", 0.5)  # a stale form
    qtbot.waitUntil(lambda: getattr(window, "error_box", None) is not None, timeout=5000)
    text = window.error_box.text()
    assert "no longer exists" in text and "desktop-mem" not in text and "`" not in text


def test_incognito_looks_different_and_stopped_is_not_an_error(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama
) -> None:
    window.threads.new_conversation(True)
    assert "nothing you say here is remembered" in window.chat.empty.text()
    assert window.chat.list_widget.objectName() == "incognitoList"
    window.threads.new_conversation(False)
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


def test_a_new_passphrase_states_its_rule_up_front(qtbot: Any) -> None:
    dialog = PassphraseDialog("default", create=True)
    qtbot.addWidget(dialog)
    texts = [w.text() for w in dialog.findChildren(QLabel)]
    assert any("At least 8 characters" in t for t in texts)
    dialog.first.setText("short")
    dialog.second.setText("short")
    dialog._check()
    assert "at least 8" in dialog.error.text()
    assert any("no way to recover" in t for t in (w.text() for w in dialog.findChildren(QLabel)))


def test_an_answer_shows_the_document_passages_it_was_given(
    qtbot: Any, window: MainWindow, profile: Profile, fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    from PySide6.QtWidgets import QPushButton

    from desktop_mem.core.documents.store import DocumentStore

    (tmp_path / "handbook.md").write_text(
        "# Handbook\n\n## Leave\n\nAnnual leave is twenty-five days per year.\n", "utf-8"
    )
    DocumentStore(profile.db, profile.embedder).add(tmp_path / "handbook.md")
    fake_ollama.reply("Twenty-five days.")
    send(qtbot, window, "How many days of annual leave per year do I get?")
    answer = window.chat.messages[-1]
    chips = [b.text() for b in answer.chip_row.findChildren(QPushButton)]
    assert "handbook.md, Handbook › Leave" in chips
    window.threads.new_conversation(False)
    window.threads.open_conversation(window.conversations.list()[0].id)  # kept when reopened
    reopened = window.chat.messages[-1]
    assert "handbook.md, Handbook › Leave" in [
        b.text() for b in reopened.chip_row.findChildren(QPushButton)
    ]


def test_the_details_form_neither_doubles_as_add_nor_restores_the_current_version(
    qtbot: Any, window: MainWindow, profile: Profile
) -> None:
    mem = profile.memories.add(NewMemory("I keep bees")).memory
    profile.memories.edit(mem.id, text="I keep bees in the garden")
    profile.memories.add(NewMemory("Allergic to peanuts", pinned=True))
    window.memory.refresh_memories()
    idle(qtbot, window)  # listed off the GUI thread
    assert window.browser.model.memory(0).pinned  # pinned first, as in the CLI
    window.memory.show_memory(mem.id)
    b = window.browser
    assert b.drawer.currentWidget() is not b.placeholder  # the drawer shows the memory
    assert not b.restore_button.isEnabled()  # the current version: nothing to restore
    b.history.setCurrentRow(0)  # the first version: previewed, restorable
    assert b.text.toPlainText() == "I keep bees" and b.restore_button.isEnabled()
    assert "from a chat" not in b.origin.text()
    # "New memory" is its own action: a dialog, while the drawer keeps the shown memory
    b.new_button.click()
    dialog = b.findChild(NewMemoryDialog)
    assert dialog is not None and dialog.isVisible() and not dialog.add_button.isEnabled()
    assert b.current is not None and b.current.id == mem.id
    dialog.edit.setPlainText("Plays the cello")
    dialog.kind_box.setCurrentIndex(dialog.kind_box.findData("preference"))
    dialog.pin.setChecked(True)
    assert dialog.add_button.isEnabled()
    dialog.add_button.click()
    qtbot.waitUntil(lambda: any(m.text == "Plays the cello" for m in profile.memories.list()))
    added = next(m for m in profile.memories.list() if m.text == "Plays the cello")
    assert (added.kind, added.pinned, added.source) == ("preference", True, "user")
    idle(qtbot, window)
    # Nothing selected: the drawer says what it is for instead of an empty form
    b.list.clearSelection()
    b.show_details(None, [], [])
    assert b.drawer.currentWidget() is b.placeholder


def test_a_reopened_conversation_keeps_what_it_taught_and_late_learning_finds_its_answer(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama, profile: Profile
) -> None:
    fake_ollama.reply_json(HANGZHOU)
    fake_ollama.reply("Nice!")
    send(qtbot, window, "I live in Hangzhou with my cat Mochi")
    qtbot.waitUntil(lambda: "Remembered" in window.chat.messages[-1].notice.text(), timeout=10000)
    conv = window.turns.session.conversation_id
    window.threads.new_conversation(False)
    window.threads.open_conversation(conv)
    assert "Remembered: Lives in Hangzhou" in window.chat.messages[-1].notice.text()
    # learning that ends after the chat changed: no dead widget touched, the browser updated
    fake_ollama.reply_json({"memories": [{"text": "Plays the cello", "kind": "fact"}]})
    fake_ollama.reply("Lovely.")
    window.chat.input.setPlainText("I play the cello every evening")
    qtbot.keyClick(window.chat.input, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not window.turn_busy, timeout=10000)
    window.threads.new_conversation(False)  # the answer's widget is gone now
    qtbot.waitUntil(
        lambda: any(m.text == "Plays the cello" for m in profile.memories.list()), timeout=10000
    )
    idle(qtbot, window)
    qtbot.waitUntil(lambda: window.browser.model.rowCount() == 2, timeout=10000)


def test_old_conversations_stay_readable_while_ollama_is_down(
    qtbot: Any, profile: Profile, home: Path, fake_ollama: FakeOllama
) -> None:
    from desktop_mem.core.chat.conversations import ConversationStore

    store = ConversationStore(profile.db)
    conv = store.create("Trip")
    store.add_message(conv.id, "user", "We fly to Lisbon on the ninth")
    store.add_message(conv.id, "assistant", "Noted: Lisbon on the ninth.")
    profile.set_ollama_host("http://127.0.0.1:9")
    w = MainWindow(profile, app_settings(home))
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: w.centre.currentWidget() is w.offline, timeout=5000)  # empty chat
    w.threads.open_conversation(conv.id)
    assert w.centre.currentWidget() is w.chat  # readable, not hidden behind the page
    assert [m.text() for m in w.chat.messages][0] == "We fly to Lisbon on the ninth"
    assert (
        w.chat.offline_banner.isVisibleTo(w) and "read and search" in w.chat.offline_banner.text()
    )
    assert w.connection.retry.isActive()  # looked for again, lightly
    profile.set_ollama_host(fake_ollama.url)
    w.connection.use_model(None)
    w.connection._retry()
    qtbot.waitUntil(lambda: w.online, timeout=5000)
    assert not w.chat.offline_banner.isVisibleTo(w) and not w.connection.retry.isActive()
    idle(qtbot, w)


def test_the_remote_server_gets_its_own_model_name_and_dialogs_fit(
    qtbot: Any, profile: Profile, home: Path, fake_ollama: FakeOllama
) -> None:
    from desktop_mem.core.settings import Settings
    from desktop_mem.ui.dialogs import SettingsDialog, ShortcutsDialog

    s = Settings(profile.db)
    s.set("chat_model", "qwen2.5:7b")
    s.set("openai_enabled", True)
    s.set("openai_base_url", fake_ollama.url + "/v1")
    s.set("openai_model", "served-model")
    s.set("remote_notice_seen", fake_ollama.url + "/v1")
    w = MainWindow(profile, app_settings(home))
    qtbot.addWidget(w)
    assert w.connection.backend.model == "served-model"  # not the Ollama model's name
    shortcuts = ShortcutsDialog()
    qtbot.addWidget(shortcuts)
    rows = sum(shortcuts.table.rowHeight(r) for r in range(shortcuts.table.rowCount()))
    assert shortcuts.table.minimumHeight() >= rows  # the last row is not cut
    values = {**s.all(), "ollama_host": "", "chat_model": "", "embed_model": "", "language": "en",
              "theme": "light", "data_folder": "", "key_mode": "passphrase",
              "keyring_usable": False}  # fmt: skip
    dialog = SettingsDialog(values, [])
    qtbot.addWidget(dialog)
    assert not dialog.switch_key_button.isEnabled()  # no keyring: not offered
    idle(qtbot, w)


def test_a_memory_can_be_given_an_end_date_in_the_window(
    qtbot: Any, window: MainWindow, profile: Profile
) -> None:
    from PySide6.QtCore import QDate

    mem = profile.memories.add(NewMemory("Business trip to Tokyo next week")).memory
    window.memory.show_memory(mem.id)
    b = window.browser
    assert not b.has_until.isChecked()
    b.has_until.setChecked(True)
    b.until.setDate(QDate(2026, 12, 8))
    b.save_button.click()
    qtbot.waitUntil(lambda: profile.memories.get(mem.id).valid_until == "2026-12-08", timeout=5000)
    idle(qtbot, window)
    b.has_until.setChecked(False)  # and taken away again
    b.save_button.click()
    qtbot.waitUntil(lambda: profile.memories.get(mem.id).valid_until is None, timeout=5000)
    idle(qtbot, window)


def test_a_message_shows_its_time_on_hover(
    qtbot: Any, window: MainWindow, profile: Profile
) -> None:
    from desktop_mem.core.chat.conversations import ConversationStore

    store = ConversationStore(profile.db)
    conv = store.create("Old")
    store.add_message(conv.id, "user", "hello", created_at="2025-03-04T05:06:00Z")
    window.threads.open_conversation(conv.id)
    tip = window.chat.messages[0].toolTip()
    assert tip and ("2025" in tip or "25" in tip)


def test_a_new_chat_is_named_by_the_model_and_can_be_pinned(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama
) -> None:
    fake_ollama.titles.append("Kyoto temple trip")
    send(qtbot, window, "Plan a trip to the temples of Kyoto in spring")
    kyoto = window.session.conversation_id
    qtbot.waitUntil(lambda: window.chat.title.text() == "Kyoto temple trip", timeout=10000)
    assert window.conv_model.conversations()[0].title == "Kyoto temple trip"
    assert window.conv_model.headings() == ["Today"]
    window.threads.new_conversation()
    send(qtbot, window, "Write a short poem about rain")
    assert [c.id for c in window.conv_model.conversations()][1] == kyoto
    window.threads.pin_conversation(kyoto, True)
    assert window.conv_model.headings() == ["Pinned", "Today"]
    assert window.conv_model.conversations()[0].id == kyoto, "pinned first"
    window.threads.pin_conversation(kyoto, False)
    assert window.conv_model.headings() == ["Today"]


def test_the_browser_reads_a_long_list_a_page_at_a_time(
    qtbot: Any, window: MainWindow, profile: Profile
) -> None:
    profile.memories.add_many([NewMemory(f"note number {n}") for n in range(620)])
    window.memory.refresh_memories()
    idle(qtbot, window)
    model = window.browser.model
    assert model.rowCount() == model.PAGE, "one page read, not every memory"
    assert window.browser.count.text() == "620 memories", "the count is of all of them"
    window.show_page("memories")
    bar = window.browser.list.verticalScrollBar()
    bar.setValue(bar.maximum())  # scrolling to the end reads the next page
    qtbot.waitUntil(lambda: model.rowCount() == 620, timeout=5000)


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_every_page_works_at_800x600(
    qtbot: Any, window: MainWindow, profile: Profile, home: Path, qapp: Any, language: str
) -> None:
    """The smallest screen the window supports: nothing elided in the rail, the chat's
    controls inside the window, the memory list showing several whole cards with the
    drawer below it, and the window's own minimum within 800 px."""
    install_language(qapp, language)
    try:
        w = MainWindow(profile, app_settings(home))
        qtbot.addWidget(w)
        profile.memories.add_many(
            [NewMemory(f"memory {n}: 我喜欢在杭州的西湖边跑步 and green tea") for n in range(8)]
        )
        w.resize(800, 600)
        w.show()
        qtbot.waitExposed(w)
        idle(qtbot, w)
        long_title = "Plan a dinner for my daughter and me tonight, with a shopping list " * 2
        w.chat.title.setText(long_title)  # a long title is elided, not a wider window
        assert w.minimumSizeHint().width() <= 800 and w.width() == 800
        assert w.chat.title.text() == long_title and w.chat.title.toolTip() == long_title
        for button in w.rail_buttons.values():  # never "Doc…nts"
            assert button.width() >= button.sizeHint().width(), button.text()
        send = w.chat.send_button
        right = send.mapTo(w, send.rect().topRight()).x()
        assert send.isVisible() and right < w.width() - 2, "Send keeps clear of the edge"
        w.show_page("memories")
        w.memory.refresh_memories()
        idle(qtbot, w)
        b = w.browser
        assert b.split.orientation() == Qt.Orientation.Vertical  # the drawer goes below
        card = b.list.visualRect(b.model.index(0, 0))
        assert card.height() > 0 and b.list.viewport().height() >= 3 * card.height()
    finally:
        install_language(qapp, "en")


def test_check_boxes_show_in_the_dark_theme(qtbot: Any, window: MainWindow) -> None:
    """Fusion outlines a check box in the window colour darkened by 40%; the box is
    filled with the base colour. Alone on a window it shows by its fill, in a list (the
    chat's "forget" dialog) only by its outline: both must stand out in the dark theme."""
    from PySide6.QtGui import QPalette
    from PySide6.QtWidgets import QCheckBox, QListWidget

    from desktop_mem.ui import theme

    def lightness(color: Any) -> float:
        return float(color.lightnessF())

    theme.apply("dark")
    try:
        alone, listed = QCheckBox(), QListWidget()  # as a new dialog's would be
        for w in (alone, listed):
            qtbot.addWidget(w)
            w.show()  # palettes settle as a widget is shown
        p = alone.palette()
        base, win = p.color(QPalette.ColorRole.Base), p.color(QPalette.ColorRole.Window)
        assert lightness(base) - lightness(win) > 0.02  # the box's fill shows on the window
        q = listed.palette()
        outline = q.color(QPalette.ColorRole.Window).darker(140)
        assert abs(lightness(outline) - lightness(q.color(QPalette.ColorRole.Base))) > 0.15
    finally:
        theme.apply("light")
