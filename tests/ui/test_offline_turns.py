"""While the model server does not answer, nothing that asks it is offered (issue 44):
Send, and also each message's Regenerate and Edit and their shortcuts, disabled with a
tooltip saying why, and usable again once the server answers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from desktop_mem.core.profile import Profile
from desktop_mem.core.service import Service
from desktop_mem.ui.app import app_settings
from desktop_mem.ui.main_window import MainWindow
from tests.fakes.ollama_server import FakeOllama
from tests.ui.driving import idle


def test_regenerate_and_edit_wait_for_the_model_server(
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
    w.conversations.open_conversation(conv.id)
    asked, answer = w.chat.messages
    assert not w.chat.send_button.isEnabled()
    for m in (asked, answer):
        assert not m.redo_button.isEnabled(), m.redo_button.text()
        assert "not answering" in m.redo_button.toolTip()
    # the menu's Regenerate (Ctrl+R) and Edit last message (Ctrl+E) do nothing either
    w.turns.regenerate(-1)
    w.chat.edit_last_message()
    assert not w.chat.editing() and not w.context.chat.busy
    assert [m.text() for m in w.chat.messages] == [asked.text(), answer.text()]
    assert len(store.messages(conv.id)) == 2

    profile.set_ollama_host(fake_ollama.url)
    w.connection.use_model(None)
    w.connection._retry()
    qtbot.waitUntil(lambda: w.context.server.online, timeout=5000)
    for m in w.chat.messages:
        assert m.redo_button.isEnabled()
        assert "not answering" not in m.redo_button.toolTip()
    idle(qtbot, w)
