"""The window follows what the core announces (issue 54, item 5): after an action whose
service call announces its change (the apps, the documents, the facts proposed from an
import, the key), no page or controller refreshes by hand. The refresh that shows the
change comes from the announcement (ui/events.py delivering it), so a change made by
anyone else (the background, an app over MCP, the service called directly) shows the
same way. Each refresh is told apart by what called it."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from desktop_mem.core import paths
from desktop_mem.core.config import Config
from desktop_mem.core.db import backup
from desktop_mem.core.events import Event, Events, KeyChanged
from desktop_mem.core.keys.vault import Vault, read_key_mode
from desktop_mem.core.memory.records import NewMemory
from desktop_mem.core.profile import Profile
from desktop_mem.core.service import Service
from desktop_mem.ui.app import Application, app_settings
from desktop_mem.ui.apps_ui import AppsPage
from desktop_mem.ui.backup_ui import BackupPage, RecoveryCodeDialog
from desktop_mem.ui.context import Context
from desktop_mem.ui.documents_ui import DocumentsPage
from desktop_mem.ui.events import CoreSignals
from desktop_mem.ui.main_window import MainWindow
from desktop_mem.ui.memory_controller import MemoryController
from desktop_mem.ui.review_dialog import ReviewDialog
from desktop_mem.ui.settings_dialog import SettingsDialog
from tests.ui.driving import idle
from tests.ui.test_backup_window import when_modal

DATA = Path(__file__).resolve().parents[1] / "data" / "imports"


def _announced() -> bool:
    """Whether the call being made comes from an announcement being delivered."""
    frame = sys._getframe(2)
    while frame is not None:
        if frame.f_code is CoreSignals._deliver.__code__:
            return True
        frame = frame.f_back
    return False


class Refreshes:
    """Every call of a class's refresh method from now on: how many an announcement
    made, and where each made by hand came from."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, owner: type, name: str) -> None:
        self.by_event = 0
        self.by_hand: list[str] = []
        original = getattr(owner, name)

        def counted(obj: Any, *args: Any, **kwargs: Any) -> Any:
            if _announced():
                self.by_event += 1
            else:
                caller = sys._getframe(1)
                self.by_hand.append(f"{caller.f_code.co_qualname}:{caller.f_lineno}")
            return original(obj, *args, **kwargs)

        monkeypatch.setattr(owner, name, counted)

    def reset(self) -> None:
        self.by_event, self.by_hand = 0, []


def test_the_apps_page_follows_the_registry(
    qtbot: Any, profile: Profile, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = Refreshes(monkeypatch, AppsPage, "refresh")
    page = AppsPage(profile.clients, CoreSignals(profile.events), "work", home=tmp_path)
    qtbot.addWidget(page)
    calls.reset()  # its first reading is not a refresh after an action

    def then(shown: Any) -> None:
        qtbot.waitUntil(lambda: calls.by_event > 0 and shown(), timeout=5000)
        assert calls.by_hand == [], "refreshed by hand after the registry announced it"
        calls.reset()

    assert page.connect_app("Claude Desktop")
    then(lambda: page.table.rowCount() == 1)
    page.table.selectRow(0)
    combo = page.table.cellWidget(0, 1)
    combo.setCurrentIndex(combo.findData("write"))
    then(lambda: profile.clients.get("Claude Desktop").level == "write")
    assert page.table.cellWidget(0, 1) is combo, "the box the keyboard is on stays"
    assert page.renew_key(confirmed=True)
    then(lambda: page.snippet.toPlainText() != "")
    page.clear.click()
    then(lambda: page.table.item(0, 3).text() == "0 / 0")
    page.unregistered.setCurrentIndex(page.unregistered.findData("off"))
    then(lambda: profile.clients.unregistered_level() == "off")
    assert page.remove_app(confirmed=True)
    then(lambda: page.table.rowCount() == 0 and page.empty.isVisibleTo(page))
    # a change made elsewhere (an app over MCP, the command line's code) shows alike
    profile.clients.add("Cursor", level="write")
    then(lambda: page.table.rowCount() == 1 and page.table.item(0, 0).text() == "Cursor")
    assert page.table.cellWidget(0, 1).currentData() == "write"
    profile.clients.set_unregistered_level("read")
    then(lambda: page.unregistered.currentData() == "read")


def test_the_documents_page_follows_the_documents(
    qtbot: Any, profile: Profile, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    for name in ("leave.md", "travel.md"):
        (folder / name).write_text(f"# {name}\n\nWhat {name} says about the rules.\n", "utf-8")
    single = tmp_path / "pay.md"
    single.write_text("# Pay\n\nPaid on the last day of the month.\n", "utf-8")
    calls = Refreshes(monkeypatch, DocumentsPage, "refresh")
    service = Service(profile)
    page = DocumentsPage(Context(service, app_settings(profile.config.home)))
    qtbot.addWidget(page)
    calls.reset()

    def then(shown: Any) -> None:
        qtbot.waitUntil(lambda: not page.running and calls.by_event > 0 and shown(), timeout=10000)
        assert calls.by_hand == [], "refreshed by hand after the documents announced it"
        calls.reset()

    assert page.add([folder])
    then(lambda: page.table.rowCount() == 2 and page.folders.currentData() is not None)
    (folder / "leave.md").unlink()
    assert page.sync()
    then(lambda: page.table.rowCount() == 1)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    page.table.selectRow(0)
    page.remove.click()
    then(lambda: page.table.rowCount() == 0)
    assert page.unwatch_folder(keep=False)
    then(lambda: page.folders.currentData() is None)
    service.documents.add(single)  # the service called elsewhere: shown alike
    then(lambda: page.table.rowCount() == 1 and page.table.item(0, 0).text() == "pay.md")


@pytest.fixture
def review_calls(monkeypatch: pytest.MonkeyPatch) -> Refreshes:
    """ReviewDialog.refresh counted from before the window is made."""
    return Refreshes(monkeypatch, ReviewDialog, "refresh")


def test_the_review_follows_the_facts_proposed(
    qtbot: Any, review_calls: Refreshes, window: MainWindow
) -> None:
    app = window.context.app
    app.imports.run(DATA / "claude_export.zip", propose=False)
    window.imports.show_review()
    review = window.imports.review
    assert review is not None
    qtbot.waitUntil(lambda: len(review.proposals) == 4, timeout=10000)
    # each says where accepting it adds it: the project's space, or the shared one
    lines = [review.items.item(i).text() for i in range(review.items.count())]
    assert any("grows potatoes" in t and t.endswith("for the space Allotment") for t in lines)
    assert any("nurse in Leeds" in t and t.endswith("for the shared space") for t in lines)
    calls = review_calls
    calls.reset()  # read as it was shown

    def then(shown: Any) -> None:
        qtbot.waitUntil(lambda: calls.by_event > 0 and shown(), timeout=10000)
        assert calls.by_hand == [], "refreshed by hand after the import announced it"
        calls.reset()

    review.decide(True, [review.proposals[0].id])
    then(lambda: len(review.proposals) == 3)
    assert app.counts()["memories"] == 1
    qtbot.waitUntil(lambda: window.browser.model.rowCount() == 1, timeout=10000)
    review.decide(False, [review.proposals[0].id])
    then(lambda: len(review.proposals) == 2 and review.undo_line.isVisible())
    review.undo()
    then(lambda: len(review.proposals) == 3)
    app.imports.reject()  # decided elsewhere (the command line's code): shown alike
    then(lambda: review.proposals == [] and not review.accept_all.isEnabled())
    review.close()
    idle(qtbot, window)


@pytest.fixture
def key_calls(monkeypatch: pytest.MonkeyPatch) -> tuple[Refreshes, Refreshes, Refreshes]:
    return (
        Refreshes(monkeypatch, SettingsDialog, "show_key"),
        Refreshes(monkeypatch, BackupPage, "set_keyring_mode"),
        Refreshes(monkeypatch, AppsPage, "refresh"),
    )


def test_settings_follow_a_change_of_the_key(
    qtbot: Any, key_calls: tuple[Refreshes, Refreshes, Refreshes], window: MainWindow
) -> None:
    """A new recovery code (or the one of a sync joined) changes what opens the key: the
    key's state in Settings is read again as it is announced. Closed (the dialog stays,
    hidden), Settings follows nothing any more."""
    shown, backup, apps = key_calls
    seen: list[tuple[int, int, list[str]]] = []

    def look() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, SettingsDialog):
            QTimer.singleShot(20, look)
            return
        shown.reset()
        backup.reset()
        window.context.app.keys.renew_recovery_code()
        qtbot.waitUntil(lambda: shown.by_event == 1 and backup.by_event == 1, timeout=5000)
        seen.append((shown.by_event, backup.by_event, shown.by_hand + backup.by_hand))
        assert dialog.key_status.text() == "Encrypted; the key is kept in the system keyring."
        dialog.reject()

    QTimer.singleShot(20, look)
    window.settings.open_settings()
    assert seen == [(1, 1, [])]
    shown.reset()
    apps.reset()
    with qtbot.waitSignal(window.context.core.key_changed, timeout=5000):
        window.context.app.keys.renew_recovery_code()
    with qtbot.waitSignal(window.context.core.apps_changed, timeout=5000):
        window.context.app.apps.add("Cursor")
    assert shown.by_event == 0 and apps.by_event == 0, "Settings closed, still following"


def test_what_arrives_as_the_profile_closes_reaches_no_view(qtbot: Any, profile: Profile) -> None:
    """A change announced just before the profile closes (a rekey, a restore, a quit)
    is delivered on the next turn of the event loop: by then a view that refreshed
    would read a closed database. It is not delivered."""
    is_open = [True]
    signals = CoreSignals(profile.events, is_open=lambda: is_open[0])
    heard: list[str] = []
    signals.documents_changed.connect(lambda: heard.append("documents"))
    profile.events.documents("added", [1])
    qtbot.waitUntil(lambda: heard == ["documents"])
    is_open[0] = False  # the profile closes before the event loop turns
    profile.events.documents("removed", [1])
    qtbot.waitUntil(lambda: not signals._waiting)  # the loop turned: it was dropped
    assert heard == ["documents"]
    is_open[0] = True
    profile.events.documents("added", [2])
    qtbot.waitUntil(lambda: len(heard) == 2)


def test_the_memory_list_follows_the_store(
    qtbot: Any, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Adding, editing, pinning, restoring and deleting a memory from the browser: the
    list is read again from the store's announcement, and what was written is selected."""
    idle(qtbot, window)
    calls = Refreshes(monkeypatch, MemoryController, "refresh_memories")
    memories, browser, app = window.memories, window.browser, window.context.app

    def then(shown: Any) -> None:
        qtbot.waitUntil(lambda: calls.by_event > 0 and shown(), timeout=10000)
        idle(qtbot, window)
        assert calls.by_hand == [], "read again by hand after the store announced it"
        calls.reset()

    def current() -> int | None:
        shown = browser.current
        return None if shown is None else shown.id

    memories.add_memory("I keep bees", "fact", False)
    then(lambda: browser.model.rowCount() == 1 and current() is not None)
    bees = app.memories.list()[0].id
    assert current() == bees, "the memory added is selected"
    memories.save_memory(bees, "I keep two hives of bees", "fact", 0.5)
    then(lambda: browser.model.memory(0).text == "I keep two hives of bees")
    memories.pin_memory(bees, True)
    then(lambda: browser.model.memory(0).pinned)
    memories.restore_memory(bees, 1)
    then(lambda: browser.model.memory(0).text == "I keep bees")
    assert current() == bees
    memories.delete_memories([bees], confirm=False)
    then(lambda: browser.model.rowCount() == 0)


def test_a_key_changed_with_the_profile_closed_is_announced_on_the_one_opened_again(
    qtbot: Any,
    qapp: QApplication,
    config: Config,
    vault: Vault,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A backup restored, a new passphrase, back to the keyring: each is made with the
    profile closed, then announced (KeyChanged, by the service, with how it changed) on
    the profile opened again, once the change is on disk; the window built on it hears
    it (its status bar says so from the announcement), and Settings opened then shows
    the new key. A change that did not happen is not announced."""
    profile = Profile.open(config, vault)
    profile.memories.add(NewMemory("I keep bees"))
    file = tmp_path / "b.dmbackup"
    backup.write_backup(profile.db, file)
    profile.memories.add(NewMemory("added after the backup"))
    database = paths.database_path(config.home, config.profile)
    heard: list[tuple[str, str, str | None, bool]] = []
    delivered: list[str] = []
    emit, build = Events.emit, Application.build_window

    def spied(self: Events, event: Event) -> None:
        if isinstance(event, KeyChanged):  # what is on disk as it is said, and to whom
            heard.append((event.how, event.origin, read_key_mode(database), self is bus()))
        emit(self, event)

    def built(self: Application) -> MainWindow:
        window = build(self)
        window.context.core.key_changed.connect(delivered.append)
        return window

    monkeypatch.setattr(Events, "emit", spied)
    monkeypatch.setattr(Application, "build_window", built)
    running = Application(qapp, Service(profile), app_settings(config.home), vault)

    def bus() -> Events:
        return running.service.events

    def said(how: str, words: str) -> None:
        qtbot.waitUntil(lambda: delivered == [how], timeout=5000)
        window = running.window
        assert window is not None and words in window.statusBar().currentMessage()
        delivered.clear()

    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    assert running.restore_backup(str(file))
    assert heard == [("restored", "service", "keyring", True)]
    said("restored", "The backup was restored.")
    assert [m.text for m in running.service.memories.list()] == ["I keep bees"]

    assert running.change_key("passphrase", "bees in the garden")
    assert heard[1:] == [("rekeyed", "service", "passphrase", True)]
    said("rekeyed", "re-encrypted")

    when_modal(RecoveryCodeDialog, lambda d: (d.confirm.setChecked(True), d.ok.click()))
    assert running.change_key("keyring")
    assert heard[2:] == [("rekeyed", "service", "keyring", True)]
    said("rekeyed", "re-encrypted")

    with monkeypatch.context() as failing:  # not changed: nothing is said
        failing.setattr(QMessageBox, "warning", lambda *a: None)
        with Profile.open(config, vault):  # another program holds it open
            assert not running.change_key("passphrase", "another passphrase")
    assert len(heard) == 3

    seen: list[str] = []

    def look(dialog: SettingsDialog) -> None:
        seen.append(dialog.key_status.text())
        dialog.reject()

    when_modal(SettingsDialog, look)
    assert running.window is not None
    running.window.settings.open_settings()
    assert seen == ["Encrypted; the key is kept in the system keyring."]
    idle(qtbot, running.window)
    assert delivered == []
    running.window.close()
    running.service.close()
