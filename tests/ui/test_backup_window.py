"""Backups and the recovery code in the window, driven as a user would."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from desktop_mem.core.config import Config
from desktop_mem.core.db import backup, backup_folder
from desktop_mem.core.keys.vault import Vault
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.profile import Profile
from desktop_mem.core.service import Service
from desktop_mem.ui import tasks
from desktop_mem.ui.app import Application, app_settings
from desktop_mem.ui.backup_ui import BackupController, BackupPage, LockedDialog, RecoveryCodeDialog
from desktop_mem.ui.context import Context
from desktop_mem.ui.settings_dialog import SettingsDialog
from desktop_mem.ui.unlock import open_profile
from tests.fakes.ollama_server import FakeOllama
from tests.ui.driving import ORIGINAL_QUESTION, press_in_next_box


def when_modal(kind: type, act: Callable[[Any], None]) -> None:
    """Act on the next modal dialog of this kind once it is showing (observed, not timed)."""

    def poll() -> None:
        dialog = QApplication.activeModalWidget()
        if isinstance(dialog, kind):
            act(dialog)
        else:
            QTimer.singleShot(20, poll)

    QTimer.singleShot(20, poll)


@pytest.mark.parametrize("confirm", ["copy", "tick"])
def test_esc_closes_the_recovery_code_once_it_is_kept_and_says_why_before(
    qtbot: Any, confirm: str
) -> None:
    dialog = RecoveryCodeDialog("ABCD-EFGH-JKMN-PQRS-TVWX-YZ01", "default")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert not dialog.why.isVisible()
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert dialog.isVisible() and dialog.why.isVisible()
    assert dialog.why.text().startswith("Esc does not close this yet: the code is shown only once")
    if confirm == "copy":
        dialog.copy.click()
    else:
        dialog.confirm.setChecked(True)
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert not dialog.isVisible()
    assert dialog.result() == RecoveryCodeDialog.DialogCode.Accepted


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
    controller = BackupController(Context(Service(prof), app_settings(config.home)))
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
    (first,) = backup_folder.list_backups(folder, "default")
    settings = prof.settings
    settings.set("backup_daily", True)
    assert not controller.due()  # backed up a moment ago
    assert controller.run_if_due(now=datetime.now(UTC) + timedelta(days=1, minutes=1))
    qtbot.waitUntil(lambda: not controller.running, timeout=10000)
    assert len(backup_folder.list_backups(folder, "default")) == 2
    folder.rename(tmp_path / "unplugged")  # the drive is gone: said, not raised
    failures: list[str] = []
    controller.failed.connect(failures.append)
    assert controller.back_up_now()
    qtbot.waitUntil(lambda: bool(failures), timeout=10000)
    assert "does not exist" in failures[0]
    qtbot.waitUntil(lambda: not tasks.busy(), timeout=10000)
    controller.timer.stop()
    controller.first.stop()
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
    running = Application(QApplication.instance(), Service(prof), app_settings(home), vault)  # type: ignore[arg-type]
    qtbot.waitUntil(lambda: running.window.context.server.online, timeout=5000)
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
    running.window.settings.open_settings()
    qtbot.waitUntil(
        lambda: (
            [m.text for m in running.service.profile.memories.list()]
            == ["from the backup: I keep bees"]
        ),
        timeout=15000,
    )
    assert "Replace the memories" in asked[0]
    assert running.window.isEnabled()
    qtbot.waitUntil(  # said as the reopened profile announces it (KeyChanged)
        lambda: "restored" in running.window.statusBar().currentMessage(), timeout=5000
    )
    qtbot.waitUntil(lambda: not tasks.busy(), timeout=10000)
    running.window.close()
    running.service.close()


def test_the_daily_backup_of_a_closed_profile_does_nothing(
    qtbot: Any, config: Config, vault: Vault
) -> None:
    """A window whose profile was closed (a key change, a restore) may still get its
    timer's tick before it is deleted: the tick stops the timer instead of raising into
    the event loop (it did, as "the database is damaged", in whatever test ran then)."""
    prof = Profile.open(config, vault)
    controller = BackupController(Context(Service(prof), app_settings(config.home)))
    prof.close()
    assert controller.run_if_due() is False and not controller.timer.isActive()


def test_the_backup_tab_knows_the_folders_backups_and_restore_starts_there(
    qtbot: Any, config: Config, vault: Vault, tmp_path: Path
) -> None:
    """A backup in the folder counts, whoever made it: after a restore put back settings
    older than the backup, the tab said "No backup yet". The restore's file picker opens
    in that folder, not in the working directory."""
    from PySide6.QtWidgets import QFileDialog

    prof = Profile.open(config, vault)
    folder = tmp_path / "Sync"
    folder.mkdir()
    prof.settings.set("backup_folder", str(folder))
    backup_folder.back_up_to_folder(prof.db, folder, keep=3)  # by the command line, say
    prof.settings.set("last_backup_at", "")  # what this profile's own settings remember
    controller = BackupController(Context(Service(prof), app_settings(config.home)))
    page = BackupPage(controller, True)
    qtbot.addWidget(page)
    assert page.status.text().startswith("Last backup: "), page.status.text()
    opened: list[str] = []

    def look() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QFileDialog):
            QTimer.singleShot(20, look)
            return
        opened.append(dialog.directory().absolutePath())
        dialog.reject()

    QTimer.singleShot(20, look)
    page.restore.click()
    assert opened == [str(folder)]
    qtbot.waitUntil(lambda: not tasks.busy(), timeout=10000)
    controller.timer.stop()
    controller.first.stop()
    prof.close()


def test_restoring_asks_with_the_backups_date_and_contents_and_enter_keeps_everything(
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
    made = backup.write_backup(prof.db, file)
    prof.memories.add(NewMemory("added after the backup"))
    running = Application(QApplication.instance(), Service(prof), app_settings(home), vault)  # type: ignore[arg-type]
    qtbot.waitUntil(lambda: running.window.context.server.online, timeout=5000)
    monkeypatch.setattr(QMessageBox, "question", ORIGINAL_QUESTION)  # the real dialog
    seen: list[str] = []
    press_in_next_box(Qt.Key.Key_Return, seen)  # a reflexive Enter
    assert running.restore_backup(str(file)) is False
    day = datetime.fromisoformat(made.created_at).astimezone().strftime("%Y-%m-%d")
    assert day in seen[0] and "1 memory" in seen[0] and "0 conversations" in seen[0]
    assert len(running.service.profile.memories.list()) == 2, "Enter chose No: nothing replaced"
    qtbot.waitUntil(lambda: not tasks.busy(), timeout=10000)
    running.window.close()
    running.service.close()


def test_a_dismissed_keyring_prompt_says_locked_and_tries_again(qtbot: Any, config: Config) -> None:
    """Closing the keyring's unlock prompt is a locked keyring, not a missing one: the
    window says so and offers Try again (before, it asked for a passphrase for a new
    profile, saying "No system keyring is available")."""
    from desktop_mem.core.keys.vault import KeyringAccess
    from tests.fakes.keyrings import LockedKeyring

    locked = LockedKeyring()
    seen: list[str] = []

    def answer() -> None:
        dialog = QApplication.activeModalWidget()
        if dialog is None:
            QTimer.singleShot(20, answer)
            return
        seen.append(type(dialog).__name__ + ": " + getattr(dialog, "text", lambda: "")())
        if isinstance(dialog, QMessageBox):
            buttons = [b.text() for b in dialog.buttons()]
            seen.append(" | ".join(buttons))
            locked.locked = False  # the user unlocks it when asked again
            next(b for b in dialog.buttons() if b.text() == "Try again").click()
        else:
            dialog.reject()  # a passphrase asked for instead: give up

    QTimer.singleShot(20, answer)
    prof = open_profile(config, Vault(KeyringAccess(locked, timeout=5)))
    assert seen[0].startswith("QMessageBox: The system keyring is locked"), seen
    assert seen[1] == "Try again | Quit"
    assert prof is not None and prof.keys.mode == "keyring"
    prof.close()


def test_the_backup_tab_lists_the_folders_backups_newest_first_and_restores_one(
    qtbot: Any, config: Config, vault: Vault, tmp_path: Path
) -> None:
    """The Backup tab listed no backup of the folder: it lists this profile's own (made,
    size, the version that made them), newest first, and restores the one selected;
    a file anyone else put there is not listed."""
    from desktop_mem import __version__

    prof = Profile.open(config, vault)
    service = Service(prof)
    folder = tmp_path / "Backups"
    folder.mkdir()
    older = folder / "desktop-mem-default-20261201-090000.dmbackup"
    newer = folder / "desktop-mem-default-20261202-090000.dmbackup"
    service.keys.backup(older)
    prof.memories.add(NewMemory("I keep bees"))
    service.keys.backup(newer)
    (folder / "desktop-mem-default-20991231-000000.dmbackup").write_bytes(b"not ours" * 50)
    prof.settings.set("backup_folder", str(folder))
    page = BackupPage(BackupController(Context(service, app_settings(config.home))), True)
    qtbot.addWidget(page)
    page.show()
    qtbot.waitUntil(lambda: page.found.rowCount() == 2, timeout=10000)
    rows = [[page.found.item(r, c).text() for c in range(3)] for r in range(2)]
    assert [page.found.item(r, 0).toolTip() for r in range(2)] == [str(newer), str(older)]
    assert all(r[0].startswith("20") and r[1].endswith("B") and r[2] == __version__ for r in rows)
    assert not page.restore_selected.isEnabled()
    page.found.selectRow(1)
    with qtbot.waitSignal(page.restore_requested) as asked:
        page.restore_selected.click()
    assert asked.args == [str(older)]
    empty = tmp_path / "Empty"
    empty.mkdir()
    page.folder.setText(str(empty))
    page.folder.editingFinished.emit()
    qtbot.waitUntil(lambda: "No backup of this profile" in page.none_found.text(), timeout=10000)
    assert not page.found.isVisible() and page.none_found.isVisible()
    qtbot.waitUntil(lambda: tasks.busy() == 0, timeout=10000)
    prof.close()
