"""The embedding model, end to end in the window (issue 30): a missing model is offered
once with its size, downloaded with progress, and then everything without a vector is
indexed in the background with progress; choosing another model re-indexes every tier
(downloading it first); the lists offer each kind of model once. Real dialogs, answered
by keyboard; the real fake server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from desktop_mem.core.config import Config
from desktop_mem.core.keys.vault import Vault
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.profile import Profile
from desktop_mem.core.service import Service
from desktop_mem.ui import tasks
from desktop_mem.ui.app import app_settings
from desktop_mem.ui.main_window import MainWindow
from desktop_mem.ui.settings_dialog import SettingsDialog
from tests.fakes.ollama_server import FakeOllama
from tests.ui.driving import ORIGINAL_QUESTION, idle, press_in_next_box


@pytest.fixture
def bge_profile(home: Path, fake_ollama: FakeOllama, vault: Vault) -> Iterator[Profile]:
    """A new user's profile on the default embedding model, which Ollama does not have
    yet: what they wrote, said and added is stored without vectors."""
    config = Config.resolve(home=home, ollama_host=fake_ollama.url, embed_model="bge-m3")
    profile = Profile.open(config, vault)
    yield profile
    profile.close()


def test_a_missing_embedding_model_is_offered_downloaded_and_everything_indexed(
    qtbot: Any,
    bge_profile: Profile,
    home: Path,
    fake_ollama: FakeOllama,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    profile = bge_profile
    profile.memories.add(NewMemory("My sister Lin lives in Chengdu"))
    cid = profile.conversations.create().id
    profile.conversations.add_message(cid, "user", "We hiked up Qingcheng mountain in May")
    (tmp_path / "leave.md").write_text("# Leave\n\nAnnual leave is 25 days.\n", "utf-8")
    profile.documents.add(tmp_path / "leave.md")
    waiting = profile.unindexed()
    assert (waiting.memories, waiting.messages, waiting.passages) == (1, 1, 1)
    monkeypatch.setattr(QMessageBox, "question", ORIGINAL_QUESTION)  # the real question
    asked: list[str] = []
    press_in_next_box(Qt.Key.Key_Return, asked)  # Enter: download (not destructive)
    w = MainWindow(Service(profile), app_settings(home))
    qtbot.addWidget(w)
    progress: list[int] = []
    w.status_bar.work_bar.valueChanged.connect(progress.append)
    w.show()
    qtbot.waitUntil(lambda: bool(asked), timeout=10000)
    assert "bge-m3 (a 1.2 GB download)" in asked[0]
    qtbot.waitUntil(lambda: profile.unindexed().total == 0, timeout=15000)
    idle(qtbot, w)
    assert "/api/pull" in fake_ollama.paths() and progress, "downloaded and indexed, with progress"
    assert "Indexed: 3 items can now be found by meaning too." in w.statusBar().currentMessage()
    assert (
        "Download" not in w.status_bar.ollama_status.text()
        and "not indexed" not in w.status_bar.ollama_status.text()
    )
    hits = profile.search.search("where does my sister live").hits
    assert hits and "vector" in hits[0].signals, "found by meaning now"
    w.close()
    again = MainWindow(Service(profile), app_settings(home))  # the next start: nothing to ask
    qtbot.addWidget(again)
    again.show()
    qtbot.waitUntil(lambda: again.context.server.online, timeout=5000)
    idle(qtbot, again)
    assert len(asked) == 1
    again.close()


def test_choosing_another_embedding_model_downloads_it_and_reindexes_every_tier(
    qtbot: Any,
    window: MainWindow,
    profile: Profile,
    fake_ollama: FakeOllama,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    profile.memories.add_many([NewMemory(f"memory number {i}") for i in range(5)])
    cid = profile.conversations.create().id
    for text in ("I hike on Sundays", "Lovely."):
        profile.conversations.add_message(cid, "user", text)
    profile.conversations.index_vectors()
    (tmp_path / "leave.md").write_text("# Leave\n\nAnnual leave is 25 days.\n", "utf-8")
    profile.documents.add(tmp_path / "leave.md")
    monkeypatch.setattr(QMessageBox, "question", ORIGINAL_QUESTION)
    asked: list[str] = []
    press_in_next_box(Qt.Key.Key_Return, asked)
    progress: list[int] = []
    window.status_bar.work_bar.valueChanged.connect(progress.append)
    window.settings.change_embedding_model("nomic-embed-text")  # not on the server yet
    qtbot.waitUntil(lambda: profile.embedder.model == "nomic-embed-text", timeout=15000)
    idle(qtbot, window)
    assert "nomic-embed-text (a 274 MB download)" in asked[0] and "Download it" in asked[0]
    tiers = (profile.memories.index, profile.conversations.index, profile.documents.index)
    assert all(t.model == "nomic-embed-text" for t in tiers), "every tier, at once"
    assert max(progress) >= 5 + 2 + 1, "memories, messages and passages, with progress"
    assert "Re-indexed 8 items with nomic-embed-text." in window.statusBar().currentMessage()


def test_the_settings_lists_offer_each_kind_of_model_once(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_ollama.embed_models.update({"bge-m3": 1024, "bge-m3:latest": 1024})
    window.connection.check()
    qtbot.waitUntil(lambda: "bge-m3" in window.context.server.embedding_models, timeout=5000)
    idle(qtbot, window)
    seen: dict[str, list[str]] = {}

    def look(dialog: SettingsDialog) -> None:
        for name, box in (("chat", dialog.chat_model), ("embed", dialog.embed_model)):
            seen[name] = [box.itemText(i) for i in range(box.count())]
        dialog.reject()

    from tests.ui.test_backup_window import when_modal

    when_modal(SettingsDialog, look)
    window.settings.open_settings()
    assert seen["embed"] == ["bge-m3", "fake-embed"], "embedding models only, each once"
    assert seen["chat"] == ["qwen2.5:7b"], "chat models only"
    qtbot.waitUntil(lambda: tasks.busy() == 0, timeout=10000)


def test_a_declined_download_is_not_asked_again_after_a_language_change(
    qtbot: Any,
    bge_profile: Profile,
    home: Path,
    fake_ollama: FakeOllama,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The question came back on every start, and twice in a row after saving a
    language change (the window is rebuilt); the status bar's link stays for later."""
    from PySide6.QtWidgets import QApplication

    from desktop_mem.ui.app import Application, install_language

    monkeypatch.setattr(QMessageBox, "question", ORIGINAL_QUESTION)
    asked: list[str] = []
    press_in_next_box(Qt.Key.Key_Escape, asked)  # Esc: not now
    running = Application(QApplication.instance(), Service(bge_profile), app_settings(home))
    try:
        qtbot.waitUntil(lambda: bool(asked), timeout=10000)
        idle(qtbot, running.window)
        assert "bge-m3" in asked[0] and "/api/pull" not in fake_ollama.paths()
        monkeypatch.setattr(  # were it asked again: noted, and answered No
            QMessageBox, "question", lambda _p, _t, text, *a, **k: asked.append(text) or
            QMessageBox.StandardButton.No,
        )  # fmt: skip
        running.set_language("zh_CN")
        qtbot.waitUntil(
            lambda: "已连接" in running.window.status_bar.ollama_status.text(), timeout=5000
        )
        idle(qtbot, running.window)
        assert 'href="pull"' in running.window.status_bar.ollama_status.text(), "the link stays"
        running.set_language("en")
        qtbot.waitUntil(
            lambda: "Connected" in running.window.status_bar.ollama_status.text(), timeout=5000
        )
        idle(qtbot, running.window)
        assert len(asked) == 1, asked
    finally:
        install_language(QApplication.instance(), "en")
        running.window.close()
