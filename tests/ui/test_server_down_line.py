"""While the model server does not answer, a conversation being read says so on one line
with Retry and a way to Settings (issue 53, item 5), and the Chat menu's Regenerate and
"Edit last message" are greyed while they cannot act, usable again once they can."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from desktop_mem.core.profile import Profile
from desktop_mem.core.service import Service
from desktop_mem.ui.app import app_settings
from desktop_mem.ui.main_window import MainWindow
from desktop_mem.ui.settings_dialog import SettingsDialog
from tests.fakes.ollama_server import FakeOllama
from tests.ui.driving import idle


def test_server_down_line_offers_retry_and_settings(
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
    qtbot.waitUntil(lambda: w.centre.currentWidget() is w.offline, timeout=5000)
    assert w.offline.settings_button.isVisibleTo(w), "the empty chat's page offers it too"
    w.conversations.open_conversation(conv.id)
    chat = w.chat
    assert chat.offline_banner.text() == (
        "The model server is not answering: you can read and search, not send."
    )
    assert chat.offline_retry.isVisibleTo(w) and chat.offline_settings.isVisibleTo(w)
    assert not w.regenerate_action.isEnabled() and not w.edit_last_action.isEnabled()
    before = len(chat.messages)
    w.regenerate_action.trigger()
    assert len(chat.messages) == before, "greyed, and doing nothing"

    chat.offline_retry.click()  # still nothing there: looked for, and said again
    qtbot.waitUntil(lambda: not w.context.server.checking, timeout=5000)
    assert chat.offline_retry.isVisibleTo(w)

    def fix_the_address() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, SettingsDialog):
            QTimer.singleShot(20, fix_the_address)
            return
        assert dialog.tabs.currentIndex() == 0 and dialog.host.isVisible()
        dialog.host.setText(fake_ollama.url)
        dialog.accept()

    QTimer.singleShot(20, fix_the_address)
    chat.offline_settings.click()
    qtbot.waitUntil(lambda: w.context.server.online, timeout=10000)
    assert not chat.offline_bar.isVisibleTo(w)
    assert w.regenerate_action.isEnabled() and w.edit_last_action.isEnabled()
    idle(qtbot, w)
