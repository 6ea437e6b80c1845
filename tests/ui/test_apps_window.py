"""Other apps in the window: Settings > Apps, the access shown beside a memory, and a
memory written by another process appearing without a restart."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from desktop_mem.core.config import Config
from desktop_mem.core.keys.vault import Vault
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.profile import Profile
from desktop_mem.core.service import Service
from desktop_mem.ui import tasks
from desktop_mem.ui.app import app_settings
from desktop_mem.ui.apps_ui import AppsPage, connect_snippet
from desktop_mem.ui.events import CoreSignals
from desktop_mem.ui.main_window import MainWindow


def test_the_apps_page_connects_apps_with_keys_and_changes_what_they_may_do(
    qtbot: Any, profile: Profile, tmp_path: Path
) -> None:
    registry = profile.clients
    mem = profile.memories.add(NewMemory("Prefers green tea")).memory
    page = AppsPage(
        profile.clients, CoreSignals(profile.events), "work", home=tmp_path / "elsewhere"
    )
    qtbot.addWidget(page)
    assert page.table.rowCount() == 0 and not page.copy.isEnabled()
    assert page.connect_app("Claude Desktop")
    qtbot.waitUntil(lambda: page.table.rowCount() == 1)  # as the registry announced it
    snippet = json.loads(page.snippet.toPlainText())["mcpServers"]["desktop-mem"]
    key = snippet["env"]["DESKTOP_MEM_APP_KEY"]
    assert snippet["args"][-5:] == [
        "--home", str((tmp_path / "elsewhere").resolve()), "--profile", "work", "mcp"
    ]  # fmt: skip
    caller = registry.authenticate(key, "claude-ai")
    assert caller.app is not None and caller.app.name == "Claude Desktop"
    assert not page.connect_app("claude desktop")  # one registration per name
    assert "already registered" in page.snippet_label.text() and not page.copy.isEnabled()
    registry.log(caller, "search_memories", [mem.id])  # another process: not announced here
    page.refresh()
    assert page.table.rowCount() == 1 and page.table.item(0, 0).text() == "Claude Desktop"
    assert page.table.item(0, 3).text() == "1 / 0"
    combo = page.table.cellWidget(0, 1)
    combo.setCurrentIndex(combo.findData("write"))  # applies at once
    assert registry.get("Claude Desktop").level == "write"
    page.table.selectRow(0)
    assert "searched" in page.log.item(0).text()
    page.clear.click()
    assert registry.recent("Claude Desktop") == []
    qtbot.waitUntil(lambda: page.table.item(0, 3).text() == "0 / 0")
    assert page.renew_key(confirmed=True)
    assert key not in page.snippet.toPlainText()
    assert registry.authenticate(key).bad_key  # the old key no longer works
    page.unregistered.setCurrentIndex(page.unregistered.findData("off"))
    assert registry.unregistered_level() == "off"
    page.table.selectRow(0)
    assert page.remove_app(confirmed=True)
    assert registry.all() == []
    qtbot.waitUntil(lambda: page.table.rowCount() == 0 and page.empty.isVisibleTo(page))
    assert "desktop-mem" in connect_snippet("k", None, "default")  # this installation's command
    default = json.loads(connect_snippet("k", None, "default"))["mcpServers"]["desktop-mem"]
    assert default["args"][-1:] == ["mcp"] and "--home" not in default["args"]


def test_another_process_writes_and_the_window_shows_it(
    qtbot: Any, config: Config, vault: Vault, home: Path
) -> None:
    prof = Profile.open(config, vault)
    w = MainWindow(Service(prof), app_settings(home))
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: w.context.server.online, timeout=5000)
    assert w.browser.model.rowCount() == 0
    other = Profile.open(config, vault)  # another process's connection (the MCP server)
    written = other.memories.add(
        NewMemory("Written by another app", source="app:Claude Desktop")
    ).memory
    registry = other.clients
    app, key = registry.add("Claude Desktop")
    registry.log(registry.authenticate(key, "claude-ai"), "add_memory", [written.id])
    other.close()
    qtbot.waitUntil(lambda: w.browser.model.rowCount() == 1, timeout=10000)  # polled
    w.memories.show_memory(written.id)
    assert "Claude Desktop" in w.browser.drawer.apps.text() and w.browser.drawer.apps.isVisibleTo(w)
    qtbot.waitUntil(lambda: not tasks.busy(), timeout=10000)
    w.close()
    prof.close()


def test_a_reflexive_enter_neither_removes_an_app_nor_changes_its_key(
    qtbot: Any, profile: Profile, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both questions default to No: their Yes stops the app's key at once."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QMessageBox

    from tests.ui.driving import ORIGINAL_QUESTION, press_in_next_box

    registry = profile.clients
    page = AppsPage(
        profile.clients, CoreSignals(profile.events), "work", home=tmp_path / "elsewhere"
    )
    qtbot.addWidget(page)
    assert page.connect_app("Claude Desktop")
    qtbot.waitUntil(lambda: page.table.rowCount() == 1)
    key = json.loads(page.snippet.toPlainText())["mcpServers"]["desktop-mem"]["env"][
        "DESKTOP_MEM_APP_KEY"
    ]
    page.table.selectRow(0)
    monkeypatch.setattr(QMessageBox, "question", ORIGINAL_QUESTION)  # the real dialog
    seen: list[str] = []
    press_in_next_box(Qt.Key.Key_Return, seen)
    assert not page.renew_key()
    press_in_next_box(Qt.Key.Key_Return, seen)
    assert not page.remove_app()
    assert len(seen) == 2 and "Remove Claude Desktop?" in seen[1]
    assert registry.authenticate(key).app is not None, "the key still works"
    assert [a.name for a in registry.all()] == ["Claude Desktop"]


def test_the_window_shows_that_an_app_wants_to_change_one_of_yours(
    qtbot: Any, config: Config, vault: Vault, home: Path
) -> None:
    """Issue 45: an app never changes a memory you wrote or pinned; what it wanted it to
    say is its own memory, and your memory's drawer says so."""
    prof = Profile.open(config, vault)
    yours = prof.memories.add(NewMemory("I am allergic to peanuts", pinned=True)).memory
    theirs = prof.memories.add(
        NewMemory("I am no longer allergic to peanuts", source="app:Claude Desktop"),
        action=f"wants to change #{yours.id}",
    ).memory
    w = MainWindow(Service(prof), app_settings(home))
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: w.browser.model.rowCount() == 2, timeout=10000)
    w.memories.show_memory(yours.id)
    shown = w.browser.drawer.proposed
    assert shown.isVisibleTo(w) and "app:Claude Desktop" in shown.text()
    assert "no longer allergic" in shown.text() and str(theirs.id) in shown.text()
    w.memories.show_memory(theirs.id)
    assert not w.browser.drawer.proposed.isVisibleTo(w)
    assert f"wants to change #{yours.id}" in w.browser.drawer.history.item(0).text()
    qtbot.waitUntil(lambda: not tasks.busy(), timeout=10000)
    w.close()
    prof.close()


def test_no_app_connected_is_said_in_place_of_the_table_in_chinese_at_800x600(
    qtbot: Any, profile: Profile, home: Path, qapp: Any
) -> None:
    """Settings > Apps in Chinese at 800x600: the words "no app connected" sat over the
    empty table's frame (the page is taller than the dialog there). They now take the
    table's place, and the table comes back with the first app."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QWidget

    from desktop_mem.ui.app import install_language
    from desktop_mem.ui.settings_dialog import SettingsDialog

    install_language(qapp, "zh_CN")
    try:
        window = MainWindow(Service(profile), app_settings(home))
        qtbot.addWidget(window)
        window.resize(800, 600)
        window.show()
        qtbot.waitUntil(lambda: window.context.server.online, timeout=5000)
        seen: list[tuple[bool, bool, bool]] = []

        def look() -> None:
            dialog = QApplication.activeModalWidget()
            if not isinstance(dialog, SettingsDialog):
                QTimer.singleShot(20, look)
                return
            page = next(
                dialog.tabs.widget(n)
                for n in range(dialog.tabs.count())
                if isinstance(dialog.tabs.widget(n), AppsPage)
            )
            dialog.tabs.setCurrentWidget(page)
            qtbot.waitUntil(page.empty.isVisible)

            def box(w: QWidget) -> Any:
                return w.geometry() if w.isVisible() else None

            empty, table = box(page.empty), box(page.table)
            seen.append(
                (
                    page.empty.text() == "还没有连接任何应用。",
                    table is not None and empty.intersects(table),
                    page.table.isVisible(),
                )
            )
            page.connect_app("Claude Desktop")
            qtbot.waitUntil(page.table.isVisible)  # as the registry announced it
            seen.append((page.empty.isVisible(), False, page.table.isVisible()))
            dialog.reject()

        QTimer.singleShot(20, look)
        window.settings.open_settings()
        assert seen == [(True, False, False), (False, False, True)]
        qtbot.waitUntil(lambda: tasks.busy() == 0, timeout=10000)
    finally:
        install_language(qapp, "en")
