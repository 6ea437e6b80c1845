"""While a model downloads, the status bar says how far it got instead of "qwen2.5:7b is
not installed · Download qwen2.5:7b" (issue 53, item 5)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from desktop_mem.core.profile import Profile
from desktop_mem.core.service import Service
from desktop_mem.ui.app import app_settings
from desktop_mem.ui.main_window import MainWindow
from tests.fakes.ollama_server import FakeOllama
from tests.ui.driving import ORIGINAL_QUESTION, idle, press_in_next_box


def test_the_status_bar_follows_a_download(
    qtbot: Any,
    profile: Profile,
    home: Path,
    fake_ollama: FakeOllama,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    profile.settings.set("chat_model", "llama3.2:3b")
    monkeypatch.setattr(QMessageBox, "question", ORIGINAL_QUESTION)  # the real question
    asked: list[str] = []
    press_in_next_box(Qt.Key.Key_Return, asked)  # Enter: download
    w = MainWindow(Service(profile), app_settings(home))
    qtbot.addWidget(w)
    said: list[str] = []
    w.status_bar.work_bar.valueChanged.connect(
        lambda _: said.append(w.status_bar.ollama_status.text())
    )
    w.show()
    qtbot.waitUntil(lambda: "llama3.2:3b" in w.context.server.models, timeout=10000)
    idle(qtbot, w)
    assert asked and said, "offered, and downloaded with progress"
    assert all("not installed" not in s and "Download" not in s for s in said), said
    assert any("downloading llama3.2:3b (" in s for s in said), said
    assert "downloading" not in w.status_bar.ollama_status.text()
    assert w.status_bar.ollama_status.text() == "● Connected · llama3.2:3b"


def test_the_status_bar_follows_the_embedding_models_download(
    qtbot: Any,
    home: Path,
    fake_ollama: FakeOllama,
    vault: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from desktop_mem.core.config import Config

    config = Config.resolve(home=home, ollama_host=fake_ollama.url, embed_model="bge-m3")
    profile = Profile.open(config, vault)
    try:
        monkeypatch.setattr(QMessageBox, "question", ORIGINAL_QUESTION)
        asked: list[str] = []
        press_in_next_box(Qt.Key.Key_Return, asked)  # Enter: download
        w = MainWindow(Service(profile), app_settings(home))
        qtbot.addWidget(w)
        said: list[str] = []
        w.status_bar.work_bar.valueChanged.connect(
            lambda _: said.append(w.status_bar.ollama_status.text())
        )
        w.show()
        qtbot.waitUntil(lambda: not w.context.server.embed_missing and bool(said), timeout=15000)
        idle(qtbot, w)
        assert asked and all("Download" not in s for s in said), said
        assert any("search by words only until bge-m3 is there · downloading" in s for s in said)
        w.close()
    finally:
        profile.close()
