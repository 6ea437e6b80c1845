"""Backups and the recovery code in the window, driven as a user would."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from desktop_mem.core.config import Config
from desktop_mem.core.keys.vault import Vault
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.profile import Profile
from desktop_mem.core.settings import Settings
from desktop_mem.core.store import backup
from desktop_mem.ui import tasks
from desktop_mem.ui.app import Application, app_settings
from desktop_mem.ui.backup_ui import BackupController, BackupPage, LockedDialog, RecoveryCodeDialog
from desktop_mem.ui.dialogs import SettingsDialog
from desktop_mem.ui.unlock import open_profile
from tests.fakes.ollama_server import FakeOllama


def when_modal(kind: type, act: Callable[[Any], None]) -> None:
    """Act on the next modal dialog of this kind once it is showing (observed, not timed)."""

    def poll() -> None:
        dialog = QApplication.activeModalWidget()
        if isinstance(dialog, kind):
            act(dialog)
        else:
            QTimer.singleShot(20, poll)

    QTimer.singleShot(20, poll)


def test_the_recovery_code_dialog_needs_a_confirmation(qtbot: Any) -> None:
    dialog = RecoveryCodeDialog("ABCD-EFGH-JKMN-PQRS-TVWX-YZ01", "default")
    qtbot.addWidget(dialog)
    dialog.show()
    assert not dialog.ok.isEnabled()
    dialog.reject()  # Escape does not skip it
    assert dialog.isVisible()
    dialog.copy.click()
    assert QApplication.clipboard().text() == "ABCD-EFGH-JKMN-PQRS-TVWX-YZ01"
    dialog.confirm.setChecked(True)
    assert dialog.ok.isEnabled()
    dialog.ok.click()
    assert not dialog.isVisible()


def test_a_locked_profile_opens_again_with_its_recovery_code(
    qtbot: Any, config: Config, vault: Vault, isolated: Any
) -> None:
    prof = Profile.open(config, vault)
    code = prof.db.new_recovery_code
    prof.memories.add(NewMemory("I keep bees"))
    prof.close()
    isolated.secrets.clear()  # the keyring was reset
    errors: list[str] = []

    def wrong(dialog: LockedDialog) -> None:
        dialog.code.setText("not a code")
        dialog.unlock.click()  # refused in the dialog itself
        errors.append(dialog.error.text())
        dialog.code.setText("0000-0000-0000-0000-0000-0000")
        dialog.unlock.click()
        when_modal(LockedDialog, right)

    def right(dialog: LockedDialog) -> None:
        errors.append(dialog.error.text())
        dialog.code.setText(code.lower())
        dialog.unlock.click()

    when_modal(LockedDialog, wrong)
    again = open_profile(config, vault)
    assert again is not None and [m.text for m in again.memories.list()] == ["I keep bees"]
    again.close()
    assert "24 letters" in errors[0]
    assert "does not open this profile" in errors[1]


def test_back_up_now_and_the_daily_backup(
    qtbot: Any, config: Config, vault: Vault, tmp_path: Path
) -> None:
    prof = Profile.open(config, vault)
    prof.memories.add(NewMemory("I keep bees"))
    controller = BackupController(prof.db)
    page = BackupPage(controller, keyring_mode=True)
    qtbot.addWidget(page)
    assert not controller.due()  # no folder: nothing to do
    page.now.click()
    assert "Choose a folder" in page.status.text()
    folder = tmp_path / "Sync"
    folder.mkdir()
    page.folder.setText(str(folder))
    page.keep.setValue(2)
    page.now.click()
    qtbot.waitUntil(lambda: page.now.isEnabled(), timeout=10000)
    assert "Backed up to" in page.status.text()
    (first,) = backup.list_backups(folder, "default")
    settings = Settings(prof.db)
    settings.set("backup_daily", True)
    assert not controller.due()  # backed up a moment ago
    settings.set("last_backup_at", (datetime.now(UTC) - timedelta(days=1, minutes=1)).isoformat())
    assert controller.run_if_due()
    qtbot.waitUntil(lambda: not controller.running, timeout=10000)
    assert len(backup.list_backups(folder, "default")) == 2
    folder.rename(tmp_path / "unplugged")  # the drive is gone: said, not raised
    failures: list[str] = []
    controller.failed.connect(failures.append)
    assert controller.back_up_now()
    qtbot.waitUntil(lambda: bool(failures), timeout=10000)
    assert "does not exist" in failures[0]
    qtbot.waitUntil(lambda: not tasks.busy(), timeout=10000)
    prof.close()


def test_restoring_a_backup_from_settings_replaces_the_profile(
    qtbot: Any,
    config: Config,
    vault: Vault,
    home: Path,
    fake_ollama: FakeOllama,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    prof = Profile.open(config, vault)
    prof.memories.add(NewMemory("from the backup: I keep bees"))
    file = tmp_path / "b.dmbackup"
    backup.write_backup(prof.db, file)
    prof.memories.add(NewMemory("added after the backup"))
    running = Application(QApplication.instance(), prof, app_settings(home), vault)  # type: ignore[arg-type]
    qtbot.waitUntil(lambda: running.window.online, timeout=5000)
    asked: list[str] = []

    def yes(_parent: Any, _title: str, text: str, *a: Any, **k: Any) -> Any:
        asked.append(text)
        return QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", yes)

    def open_backup_tab(dialog: SettingsDialog) -> None:
        page = dialog.findChild(BackupPage)
        dialog.tabs.setCurrentWidget(page)
        page.restore_requested.emit(str(file))  # what the file chooser hands over

    when_modal(SettingsDialog, open_backup_tab)
    running.window.preferences.open_settings()
    qtbot.waitUntil(
        lambda: (
            [m.text for m in running.profile.memories.list()] == ["from the backup: I keep bees"]
        ),
        timeout=15000,
    )
    assert "Replace the memories" in asked[0]
    assert running.window.isEnabled()
    assert "restored" in running.window.statusBar().currentMessage()
    qtbot.waitUntil(lambda: not tasks.busy(), timeout=10000)
    running.window.close()
    running.profile.close()


def test_the_daily_backup_of_a_closed_profile_does_nothing(
    qtbot: Any, config: Config, vault: Vault
) -> None:
    """A window whose profile was closed (a key change, a restore) may still get its
    timer's tick before it is deleted: the tick stops the timer instead of raising into
    the event loop (it did, as "the database is damaged", in whatever test ran then)."""
    prof = Profile.open(config, vault)
    controller = BackupController(prof.db)
    prof.close()
    assert controller.run_if_due() is False and not controller.timer.isActive()
