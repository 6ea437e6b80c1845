"""The window as a whole: starting, the model server, settings, keys, languages, the
window's state and its layout."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QLabel, QMessageBox

from desktop_mem.core.config import Config
from desktop_mem.core.keys.vault import Vault
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.profile import Profile
from desktop_mem.core.service import Service
from desktop_mem.ui.app import Application, app_settings, install_language
from desktop_mem.ui.backup_ui import RecoveryCodeDialog
from desktop_mem.ui.main_window import MINIMUM, MainWindow
from desktop_mem.ui.passphrase_dialog import PassphraseDialog
from desktop_mem.ui.unlock import open_profile
from tests.fakes.ollama_server import FakeOllama
from tests.ui.driving import HANGZHOU, idle, send


def test_ollama_down_shows_the_offline_screen_and_retry_recovers(
    qtbot: Any, profile: Profile, home: Path, fake_ollama: FakeOllama
) -> None:
    profile.config.ollama_host = "http://127.0.0.1:9"
    w = MainWindow(Service(profile), app_settings(home))
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: w.centre.currentWidget() is w.offline, timeout=5000)
    assert w.offline.detail.text() == "Nothing answers at http://127.0.0.1:9."
    said = " ".join(label.text() for label in w.offline.findChildren(QLabel))
    assert said.count("ollama.com") == 1, "the start instructions are given once"
    assert "not connected" in w.status_bar.ollama_status.text()
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

    profile.settings.set("chat_model", "llama3.2:3b")
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    w = MainWindow(Service(profile), app_settings(home))
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: "llama3.2:3b" in fake_ollama.chat_models, timeout=10000)
    qtbot.waitUntil(lambda: "llama3.2:3b" in w.context.server.models, timeout=10000)
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
        assert "Download fake-embed" in w.status_bar.ollama_status.text(), (
            "the status bar says so too"
        )
        return QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", question)
    w = MainWindow(Service(profile), app_settings(home))
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: bool(asked), timeout=10000)
    assert "embedding model fake-embed is not installed" in asked[0]
    qtbot.waitUntil(lambda: profile.memories.unindexed_count() == 0, timeout=10000)
    assert "/api/pull" in fake_ollama.paths()
    qtbot.waitUntil(lambda: "Download" not in w.status_bar.ollama_status.text(), timeout=10000)
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
    assert prof is not None and prof.keys.mode == "passphrase"
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
    running = Application(app, Service(profile), app_settings(home))
    try:
        assert running.window.chat.send_button.text() == "Send"
        qtbot.waitUntil(lambda: running.window.context.server.online, timeout=5000)
        running.set_language("zh_CN")
        assert running.window.chat.send_button.text() == "发送"
        assert running.window.menuBar().actions()[0].text() == "聊天(&C)"
        qtbot.waitUntil(
            lambda: "已连接" in running.window.status_bar.ollama_status.text(), timeout=5000
        )
        idle(qtbot, running.window)
    finally:
        install_language(app, "en")
        running.window.close()


def test_window_state_is_remembered(qtbot: Any, profile: Profile, home: Path) -> None:
    w = MainWindow(Service(profile), app_settings(home))
    qtbot.addWidget(w)
    w.show()
    assert w.page() == "chat"
    w._toggle_browser()  # Ctrl+M: the Memories page, with the whole width
    assert w.page() == "memories" and w.browser.isVisibleTo(w)
    w.close()
    assert app_settings(home).value("window/geometry") is not None
    again = MainWindow(Service(profile), app_settings(home))
    qtbot.addWidget(again)
    assert again.page() == "memories" and again.rail_buttons["memories"].isChecked()
    again.rail_buttons["chat"].click()
    assert again.page() == "chat" and not again.browser.isVisibleTo(again)
    idle(qtbot, again)


def test_settings_apply(qtbot: Any, window: MainWindow, fake_ollama: FakeOllama) -> None:
    seen: list[str] = []
    window.context.hub.theme_requested.connect(seen.append)
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
    window.settings.apply_settings(values)
    idle(qtbot, window)
    assert (
        window.context.app.profile.settings.get("auto_memory") is False
        and "off" in window.status_bar.memory_status.text()
    )
    assert window.context.app.profile.settings.get("context_tokens") == 4096
    assert seen == ["dark"]
    fake_ollama.reply_json(HANGZHOU)
    send(qtbot, window, "I live in Hangzhou")
    assert fake_ollama.chat_requests(structured=True) == [], "automatic memory is off"


def test_shortcuts_dialog_lists_every_shortcut(qtbot: Any) -> None:
    from desktop_mem.ui import shortcuts
    from desktop_mem.ui.shortcuts_dialog import ShortcutsDialog

    dialog = ShortcutsDialog()
    qtbot.addWidget(dialog)
    assert dialog.table.rowCount() == len(shortcuts.SHORTCUTS)
    actions = {dialog.table.item(r, 1).text() for r in range(dialog.table.rowCount())}
    assert "Stop the answer, or stop editing" in actions and "Keyboard shortcuts" in actions


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
    window.context.app.profile.memories.add_many(
        [NewMemory(f"memory number {i}") for i in range(40)]
    )
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    progress: list[int] = []
    window.status_bar.work_bar.valueChanged.connect(progress.append)
    window.settings.change_embedding_model("fake-embed-2")
    qtbot.waitUntil(
        lambda: window.context.app.profile.memories.index.model == "fake-embed-2", timeout=10000
    )
    idle(qtbot, window)
    assert (
        window.context.app.profile.memories.index.dim == 32
        and window.context.app.profile.embedder.model == "fake-embed-2"
    )
    assert progress and max(progress) == 1000  # all 40 memories (the bar counts thousandths)
    assert (
        window.context.app.profile.search.search("memory number 7", k=1).hits[0].memory.text
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
    window.settings.apply_settings(values)
    window.settings.apply_settings(values)
    assert len(shown) == 1 and "0.0.0.0" in shown[0]
    assert not window.context.server.backend.local
    values.update(openai_enabled=False, chat_model="qwen2.5:7b")
    window.settings.apply_settings(values)
    qtbot.waitUntil(lambda: window.context.server.online, timeout=5000)
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
    store = window.context.app.profile.memories
    learned = store.list()[0]
    assert window.browser.select(learned.id)
    window.browser.drawer.text.setPlainText("Keeps two ferrets, Quillbaxter88 and Zorvendale")
    window.browser.drawer.save_button.click()
    qtbot.waitUntil(lambda: "Zorvendale" in store.get(learned.id).text, timeout=5000)
    idle(qtbot, window)
    window.memories.export_memories(str(tmp_path / "aside.json"))
    idle(qtbot, window)
    window.conversations.new_conversation()
    send(qtbot, window, "Delete me: Xanthorrhoea451 是我的密码")
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    window.conversations.delete_conversation(window.context.chat.session.conversation_id)
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
    from desktop_mem.ui.settings_dialog import SettingsDialog

    profile = Profile.open(config, vault)
    profile.memories.add(NewMemory("I keep bees"))
    running = Application(QApplication.instance(), Service(profile), app_settings(home), vault)  # type: ignore[arg-type]
    qtbot.waitUntil(lambda: running.window.context.server.online, timeout=5000)

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
    running.window.settings.open_settings()
    qtbot.waitUntil(lambda: running.service.keys.mode == "passphrase", timeout=15000)
    assert running.window.isEnabled() and running.service.profile.memories.count() == 1
    assert running.service.config.passphrase == "bees in the garden"
    assert not [a for (s, a) in isolated.secrets if s == SERVICE], "the keyring entry is gone"
    qtbot.waitUntil(  # said as the reopened profile announces it (KeyChanged)
        lambda: "re-encrypted" in running.window.statusBar().currentMessage(), timeout=5000
    )

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
    assert running.service.keys.mode == "keyring" and running.service.config.passphrase is None
    assert len(shown) == 1 and len(shown[0]) == 29
    assert [m.text for m in running.service.profile.memories.list()] == ["I keep bees"]
    idle(qtbot, running.window)
    running.window.close()
    running.service.close()


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
    running = Application(QApplication.instance(), Service(profile), app_settings(home), vault)  # type: ignore[arg-type]
    qtbot.waitUntil(lambda: running.window.context.server.online, timeout=5000)
    warnings: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _p, _t, text: warnings.append(text))
    with Profile.open(config, vault):  # e.g. the command line, still open
        assert not running.change_key("keyring")
    assert warnings and "open in another desktop-mem" in warnings[0]
    assert running.service.keys.mode == "keyring" and running.service.profile.memories.count() == 1
    idle(qtbot, running.window)
    running.window.close()
    running.service.close()


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


def test_old_conversations_stay_readable_while_ollama_is_down(
    qtbot: Any, profile: Profile, home: Path, fake_ollama: FakeOllama
) -> None:

    store = profile.conversations
    conv = store.create("Trip")
    store.add_message(conv.id, "user", "We fly to Lisbon on the ninth")
    store.add_message(conv.id, "assistant", "Noted: Lisbon on the ninth.")
    profile.set_ollama_host("http://127.0.0.1:9")
    w = MainWindow(Service(profile), app_settings(home))
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: w.centre.currentWidget() is w.offline, timeout=5000)  # empty chat
    w.conversations.open_conversation(conv.id)
    assert w.centre.currentWidget() is w.chat  # readable, not hidden behind the page
    assert [m.text() for m in w.chat.messages][0] == "We fly to Lisbon on the ninth"
    assert (
        w.chat.offline_banner.isVisibleTo(w) and "read and search" in w.chat.offline_banner.text()
    )
    assert w.connection.retry.isActive()  # looked for again, lightly
    # nothing is sent while it is down: Send is disabled, Enter keeps the text
    assert not w.chat.send_button.isEnabled()
    w.chat.input.setPlainText("and the hotel?")
    qtbot.keyClick(w.chat.input, Qt.Key.Key_Return)
    assert w.chat.input.toPlainText() == "and the hotel?" and len(w.chat.messages) == 2
    assert len(store.messages(conv.id)) == 2, "a message was stored with no one to answer"
    profile.set_ollama_host(fake_ollama.url)
    w.connection.use_model(None)
    w.connection._retry()
    qtbot.waitUntil(lambda: w.context.server.online, timeout=5000)
    assert not w.chat.offline_banner.isVisibleTo(w) and not w.connection.retry.isActive()
    assert w.chat.send_button.isEnabled()
    idle(qtbot, w)


def test_the_remote_server_gets_its_own_model_name_and_dialogs_fit(
    qtbot: Any, profile: Profile, home: Path, fake_ollama: FakeOllama
) -> None:
    from desktop_mem.ui.settings_dialog import SettingsDialog
    from desktop_mem.ui.shortcuts_dialog import ShortcutsDialog

    s = profile.settings
    s.set("chat_model", "qwen2.5:7b")
    s.set("openai_enabled", True)
    s.set("openai_base_url", fake_ollama.url + "/v1")
    s.set("openai_model", "served-model")
    s.set("remote_notice_seen", fake_ollama.url + "/v1")
    w = MainWindow(Service(profile), app_settings(home))
    qtbot.addWidget(w)
    assert w.context.server.backend.model == "served-model"  # not the Ollama model's name
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


def _inside(widget: Any, window: MainWindow) -> bool:
    """Shown whole inside the window, not scrolled away or cut off by its edge."""
    if not widget.isVisibleTo(window):
        return False
    top_left = widget.mapTo(window, widget.rect().topLeft())
    bottom_right = widget.mapTo(window, widget.rect().bottomRight())
    return (
        top_left.x() >= 0
        and top_left.y() >= 0
        and bottom_right.x() < window.width()
        and bottom_right.y() < window.height()
    )


@pytest.mark.parametrize(("language", "size"), [("en", (800, 600)), ("zh_CN", (800, 600)),
                                                ("en", "minimum"), ("zh_CN", "minimum")])  # fmt: skip
def test_every_page_works_at_800x600_and_at_the_smallest_size(
    qtbot: Any, profile: Profile, home: Path, qapp: Any, language: str, size: Any
) -> None:
    """The smallest screen the window supports, and the smallest the window can be made:
    nothing elided in the rail, the chat's controls inside the window, the memory list
    showing several whole cards with its drawer's Save / Pin / Delete in view without
    scrolling, the Documents page's buttons in view."""
    install_language(qapp, language)
    try:
        w = MainWindow(Service(profile), app_settings(home))
        qtbot.addWidget(w)
        profile.memories.add_many(
            [NewMemory(f"memory {n}: 我喜欢在杭州的西湖边跑步 and green tea") for n in range(8)]
        )
        if size == "minimum":
            w.resize(200, 150)  # as far as a user can drag it
            assert (w.width(), w.height()) == (MINIMUM.width(), MINIMUM.height())
        else:
            w.resize(*size)
        w.show()
        qtbot.waitExposed(w)
        idle(qtbot, w)
        long_title = "Plan a dinner for my daughter and me tonight, with a shopping list " * 2
        w.chat.title.setText(long_title)  # a long title is elided, not a wider window
        assert w.minimumSizeHint().width() <= 800
        assert w.chat.title.text() == long_title and w.chat.title.toolTip() == long_title
        for button in w.rail_buttons.values():  # never "Doc…nts"
            assert button.width() >= button.sizeHint().width(), button.text()
        assert _inside(w.chat.send_button, w) and _inside(w.chat.input, w)
        w.show_page("memories")
        w.memories.refresh_memories()
        idle(qtbot, w)
        b = w.browser
        assert b.drawer.placeholder.isVisibleTo(w) and not b.drawer.info.isVisibleTo(w), (
            "nothing selected: a sentence, not a bare scroll bar"
        )
        first = b.model.memory(0)
        assert first is not None
        w.memories.show_memory(first.id)
        idle(qtbot, w)
        for button in (b.drawer.save_button, b.drawer.pin_button, b.drawer.delete_button):
            assert _inside(button, w), f"{button.text()} needs no scrolling"
        card = b.list.visualRect(b.model.index(0, 0))
        assert card.height() > 0 and b.list.viewport().height() >= 3 * card.height()
        w.show_page("documents")
        for button in (w.documents_page.add_files, w.documents_page.add_folder):
            assert _inside(button, w), button.text()
        assert _inside(w.documents_page.empty, w), "no documents yet: said in their place"
    finally:
        install_language(qapp, "en")


def test_the_first_window_fits_the_screen_and_keeps_its_place_through_a_language_change(
    qtbot: Any, profile: Profile, home: Path, fake_ollama: FakeOllama
) -> None:
    """The first start: as large as it comfortably can be on this screen, never below
    its minimum. A change of language rebuilds the window where it was (it went to the
    screen's corner)."""
    app = QApplication.instance()
    running = Application(app, Service(profile), app_settings(home))
    try:
        w = running.window
        room = w.screen().availableGeometry()
        assert w.width() >= MINIMUM.width() and w.height() >= MINIMUM.height()
        assert w.width() <= max(room.width(), MINIMUM.width())
        qtbot.waitUntil(lambda: w.context.server.online, timeout=5000)
        w.setGeometry(20, 30, 770, 540)  # inside the (offscreen) screen: 800x600
        w.show_page("memories")
        before = w.geometry()
        running.set_language("zh_CN")
        again = running.window
        assert again is not w and again.geometry() == before
        assert again.page() == "memories"
        idle(qtbot, again)
    finally:
        install_language(app, "en")
        running.window.close()


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


def test_a_5_gb_download_shows_its_true_progress(
    qtbot: Any,
    profile: Profile,
    home: Path,
    fake_ollama: FakeOllama,
    monkeypatch: pytest.MonkeyPatch,
    capfd: pytest.CaptureFixture[str],
) -> None:
    """Bytes pass 2**31 in any chat model's download: no 32-bit Qt int may carry them
    (that said "1.2 GB of 388 MB", and printed OverflowError)."""

    fake_ollama.pull_size = 5_000_000_000
    profile.settings.set("chat_model", "llama3.2:3b")
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    w = MainWindow(Service(profile), app_settings(home))
    qtbot.addWidget(w)
    seen: list[tuple[Any, int, int]] = []
    bars: list[int] = []

    def work(text: Any, done: int, total: int) -> None:
        seen.append((text, done, total))
        if text is not None and total:
            bars.append(w.status_bar.work_bar.value())

    w.context.hub.work.connect(work)
    w.show()
    qtbot.waitUntil(lambda: "llama3.2:3b" in w.context.server.models, timeout=10000)
    pulled = [(done, total) for text, done, total in seen if text and "llama3.2" in text]
    assert pulled and all(total == 5_000_000_000 for _, total in pulled)
    assert pulled[-1][0] == 5_000_000_000
    assert [done for done, _ in pulled] == sorted(done for done, _ in pulled)
    assert bars[-1] == 1000  # the bar, in thousandths, full
    status = w.connection.pull_dialog.status.text()
    assert "5.0 GB of 5.0 GB" in status, status
    assert w.connection.pull_dialog.bar.value() == 1000
    assert "OverflowError" not in capfd.readouterr().err


def test_the_missing_model_question_waits_for_the_recovery_code_dialog(
    qtbot: Any,
    profile: Profile,
    home: Path,
    fake_ollama: FakeOllama,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The code is shown only once: at a first start with the chat model missing, the
    download question opened on top of it. It now comes once the code is closed."""

    profile.settings.set("chat_model", "llama3.2:3b")  # not installed
    asked: list[bool] = []  # whether the code was still on screen when asked
    code: list[RecoveryCodeDialog] = []

    def question(*a: Any, **k: Any) -> QMessageBox.StandardButton:
        asked.append(bool(code) and code[0].isVisible())
        return QMessageBox.StandardButton.No

    monkeypatch.setattr(QMessageBox, "question", question)
    w = MainWindow(Service(profile), app_settings(home))
    qtbot.addWidget(w)
    dialog = RecoveryCodeDialog("ABCD-EFGH-IJKL-MNOP", "default", w)
    code.append(dialog)
    dialog.setWindowModality(Qt.WindowModality.ApplicationModal)
    dialog.show()  # as the app shows it at a first start, over the window
    w.show()
    qtbot.waitUntil(lambda: w.context.server.online, timeout=10000)
    idle(qtbot, w)
    assert asked == [], "the question covered the recovery code"
    dialog.done(1)
    qtbot.waitUntil(lambda: bool(asked), timeout=10000)
    assert asked == [False]


def test_the_status_bar_says_the_chat_model_is_not_installed_and_offers_it(
    qtbot: Any,
    profile: Profile,
    home: Path,
    fake_ollama: FakeOllama,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Not "Connected · qwen2.5:7b" while qwen2.5:7b is not installed: the status bar
    says so and offers the download the window has (before, only a question asked once
    at start said it)."""
    fake_ollama.chat_models.remove("qwen2.5:7b")
    asked: list[str] = []

    def question(_parent: Any, _title: str, text: str, *a: Any, **k: Any) -> Any:
        asked.append(text)
        return QMessageBox.StandardButton.No  # not now: the status bar keeps the offer

    monkeypatch.setattr(QMessageBox, "question", question)
    w = MainWindow(Service(profile), app_settings(home))
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: bool(asked), timeout=10000)
    idle(qtbot, w)
    status = w.status_bar.ollama_status.text()
    assert "qwen2.5:7b is not installed" in status and "Download qwen2.5:7b" in status
    assert "Connected · qwen2.5:7b<" not in status + "<"
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    w.status_bar.ollama_status.linkActivated.emit("pull-chat")
    qtbot.waitUntil(lambda: "qwen2.5:7b" in w.context.server.models, timeout=10000)
    qtbot.waitUntil(
        lambda: w.status_bar.ollama_status.text() == "● Connected · qwen2.5:7b", timeout=10000
    )
    idle(qtbot, w)


def test_the_status_bar_says_the_server_answers_with_an_error(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama
) -> None:
    """Every request failing with HTTP 500 is not "Connected": the status bar says the
    server answers with an error (the error in its tooltip) until a request succeeds."""
    assert window.status_bar.ollama_status.text() == "● Connected · qwen2.5:7b"
    fake_ollama.fail_next(500, times=3, paths=("/api/chat",))
    send(qtbot, window, "hello")
    assert window.chat.messages[-1].status.text()
    status = window.status_bar.ollama_status.text()
    assert status == "⚠ The model server answers with an error · qwen2.5:7b", status
    assert window.status_bar.ollama_status.toolTip() == window.chat.messages[-1].status.text()
    fake_ollama.faults.clear()
    send(qtbot, window, "hello again")
    assert window.status_bar.ollama_status.text() == "● Connected · qwen2.5:7b"


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_an_incognito_chat_keeps_its_title_at_the_minimum_size(
    qtbot: Any, profile: Profile, home: Path, language: str
) -> None:
    """At the minimum size the incognito badge's sentence took the whole head and the
    title was squeezed to nothing: the badge says it in one word there (the sentence in
    its tooltip), and the whole sentence where there is room."""
    from desktop_mem.ui import theme

    theme.apply("light")  # the badge's padding and the title's size come from the theme
    install_language(QApplication.instance(), language)
    try:
        w = MainWindow(Service(profile), app_settings(home))
        qtbot.addWidget(w)
        w.resize(1280, 800)
        w.show()
        qtbot.waitUntil(lambda: w.context.server.online, timeout=5000)
        w.conversations.new_conversation(incognito=True)
        send(qtbot, w, "Just between us: ideas for a surprise party")
        title, badge = w.chat.title, w.chat.incognito_badge
        want = {"en": "Incognito conversation", "zh_CN": "无痕对话"}[language]
        w.resize(MINIMUM)  # made smaller, as a user does

        def title_shows() -> bool:  # once the layout settles: at least 8 characters of it
            shown = title.text().rstrip("…")
            return title.width() > 0 and len(shown) >= min(len(want), 8)

        qtbot.waitUntil(title_shows, timeout=5000)
        assert not badge.geometry().intersects(title.geometry())
        whole = {"en": "Incognito: nothing is remembered or stored", "zh_CN": None}[language]
        if whole is not None:  # English is the wider one: one word at the minimum size
            assert badge.text() == "Incognito" and badge.toolTip() == whole
        w.resize(1280, 800)
        qtbot.waitUntil(lambda: not badge.toolTip())
        assert badge.text().startswith({"en": "Incognito: ", "zh_CN": "无痕模式："}[language])
        idle(qtbot, w)
    finally:
        install_language(QApplication.instance(), "en")


def test_a_conversation_read_while_the_server_answers_with_errors_says_so(
    qtbot: Any, profile: Profile, home: Path, fake_ollama: FakeOllama
) -> None:
    """The one-line notice over a conversation being read says the server answers with
    an error, not that it is not answering, when that is what happens."""

    store = profile.conversations
    conv = store.create("Trip")
    store.add_message(conv.id, "user", "We fly to Lisbon on the ninth")
    fake_ollama.fail_next(500, times=1000, paths=("/api/tags",))
    w = MainWindow(Service(profile), app_settings(home))
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: w.centre.currentWidget() is w.offline, timeout=10000)
    w.conversations.open_conversation(conv.id)
    banner = w.chat.offline_banner
    assert banner.isVisibleTo(w)
    assert banner.text() == (
        "The model server answers with an error: you can read and search, not send."
    )
    assert "injected fault" in banner.toolTip()
    fake_ollama.faults.clear()
    w.connection._retry()
    qtbot.waitUntil(lambda: w.context.server.online, timeout=10000)
    assert not banner.isVisibleTo(w)
    idle(qtbot, w)


def test_a_model_list_answered_with_an_error_is_not_said_to_be_missing(
    qtbot: Any, profile: Profile, home: Path, fake_ollama: FakeOllama
) -> None:
    """The server answering its model list with HTTP 500 is there, with an error: not
    "Ollama not connected"."""
    fake_ollama.fail_next(500, paths=("/api/tags",))
    w = MainWindow(Service(profile), app_settings(home))
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: not w.context.server.checking, timeout=10000)
    assert (
        w.status_bar.ollama_status.text() == "⚠ The model server answers with an error · qwen2.5:7b"
    )
    assert "injected fault" in w.status_bar.ollama_status.toolTip()
    assert (
        "the list of models" in w.status_bar.ollama_status.toolTip()
    )  # what failed, not "the chat"
    assert w.centre.currentWidget() is w.offline  # nothing to chat with: the page says why
    assert w.offline.title.text() == "The model server answers with an error"
    assert w.offline.how.isHidden(), "no instructions to install or start it"
    idle(qtbot, w)
