"""Each controller on its own: a context (the real profile, its preferences, the real
fake server) and only the panel it drives, never the whole window. They talk through the
context's hub; these tests listen there as the window would."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QMessageBox

from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.profile import Profile
from desktop_mem.core.service import Service
from desktop_mem.ui import tasks
from desktop_mem.ui.app import app_settings
from desktop_mem.ui.chat_view import ChatView
from desktop_mem.ui.connection import ConnectionController
from desktop_mem.ui.context import Context
from desktop_mem.ui.conversations_controller import ConversationsController
from desktop_mem.ui.conversations_panel import ConversationsPanel
from desktop_mem.ui.memory_browser import MemoryBrowser
from desktop_mem.ui.memory_controller import MemoryController
from desktop_mem.ui.turns import TurnController
from tests.fakes.ollama_server import FakeOllama


@pytest.fixture
def context(profile: Profile, home: Path) -> Iterator[Context]:
    ctx = Context(Service(profile), app_settings(home))
    yield ctx
    ctx.chat.close()


def settle(qtbot: Any) -> None:
    qtbot.waitUntil(lambda: tasks.busy() == 0, timeout=10000)


class Heard:
    """What the hub said, in order."""

    def __init__(self, context: Context) -> None:
        self.status: list[str] = []
        self.errors: list[str] = []
        self.changed: list[Any] = []
        self.conversations = 0
        hub = context.hub
        hub.status.connect(lambda text, _ms: self.status.append(text))
        hub.error.connect(self.errors.append)
        hub.memories_changed.connect(self.changed.append)
        hub.conversations_changed.connect(self._conversations)

    def _conversations(self) -> None:
        self.conversations += 1


def test_the_memory_controller_drives_a_browser_alone(
    qtbot: Any, context: Context, profile: Profile
) -> None:
    browser = MemoryBrowser()
    qtbot.addWidget(browser)
    memories = MemoryController(context, browser)
    heard = Heard(context)
    memories.add_memory("I keep bees in the garden", "fact", False)
    qtbot.waitUntil(lambda: browser.model.rowCount() == 1, timeout=10000)
    settle(qtbot)
    kept = browser.model.memory(0)
    assert kept is not None and kept.text == "I keep bees in the garden"
    assert browser.current is not None and browser.current.id == kept.id, "the new one is shown"
    memories.delete_memories([kept.id], confirm=False)
    qtbot.waitUntil(lambda: browser.model.rowCount() == 0, timeout=10000)
    settle(qtbot)
    assert heard.status == ["Deleted 1 memory."] and not heard.errors
    assert browser.list_pages.currentWidget() is browser.empty, "an empty list says so"
    # another part of the window says a memory changed: the browser lists it again
    profile.memories.add(NewMemory("Allergic to peanuts"))
    context.hub.memories_changed.emit(None)
    qtbot.waitUntil(lambda: browser.model.rowCount() == 1, timeout=10000)
    settle(qtbot)


def test_the_turn_and_conversation_controllers_share_the_chat_through_the_context(
    qtbot: Any, context: Context, fake_ollama: FakeOllama
) -> None:
    chat, panel = ChatView(), ConversationsPanel()
    for w in (chat, panel):
        qtbot.addWidget(w)
    turns = TurnController(context, chat)
    conversations = ConversationsController(context, panel, chat)
    heard = Heard(context)
    conversations.new_conversation(False)
    assert context.chat.session is not None and not context.chat.incognito
    fake_ollama.reply("Kyoto in April: the cherry blossoms.")
    turns.send("Plan a trip to Kyoto")
    assert context.chat.busy
    qtbot.waitUntil(lambda: not context.chat.busy, timeout=10000)
    settle(qtbot)
    assert heard.conversations >= 1 and panel.model.count() == 1, "the list heard of it"
    cid = context.chat.conversation_id
    assert cid is not None
    conversations.new_conversation(True)  # incognito: the chat view follows the state
    assert context.chat.incognito and chat.incognito_badge.isVisibleTo(chat)
    conversations.open_conversation(cid)
    assert [m.text() for m in chat.messages] == [
        "Plan a trip to Kyoto", "Kyoto in April: the cherry blossoms.",
    ]  # fmt: skip


def test_the_connection_controller_tells_chat_and_embedding_models_apart(
    qtbot: Any, context: Context, fake_ollama: FakeOllama
) -> None:
    connection = ConnectionController(context)
    changes: list[bool] = []
    context.server.changed.connect(lambda: changes.append(context.server.online))
    fake_ollama.embed_models.update({"bge-m3": 1024, "bge-m3:latest": 1024})  # one, twice
    connection.check()
    qtbot.waitUntil(lambda: context.server.online, timeout=10000)
    settle(qtbot)
    assert changes[-1] is True
    assert context.server.embedding_models == ["bge-m3", "fake-embed"], "each once"
    assert context.server.models == ["qwen2.5:7b"], "an embedding model does not chat"
    assert not context.server.embed_missing


def test_a_missing_embedding_model_is_offered_once_with_its_size(
    qtbot: Any, context: Context, fake_ollama: FakeOllama, monkeypatch: pytest.MonkeyPatch
) -> None:
    context.app.profile.use_embedder(context.app.profile.embedder_for("bge-m3"))
    asked: list[str] = []

    def question(_parent: Any, _title: str, text: str, *a: Any, **k: Any) -> Any:
        asked.append(text)
        return QMessageBox.StandardButton.No

    monkeypatch.setattr(QMessageBox, "question", question)
    for _ in range(2):  # a start, then another (or a rebuilt window): asked once
        connection = ConnectionController(context)
        connection.check()
        qtbot.waitUntil(lambda: context.server.online, timeout=10000)
        settle(qtbot)
        context.server.online = False
    assert len(asked) == 1 and "bge-m3 (a 1.2 GB download)" in asked[0]
    assert context.server.embed_missing
