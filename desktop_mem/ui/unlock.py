"""Opening a profile from the window: the key from the keyring or a passphrase asked
for, the recovery code when the keyring lost it, a backup restored in its place. The
keyring and the key derivation run off the GUI thread; nothing is written until the
key is right."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QApplication, QInputDialog, QMessageBox, QWidget

from desktop_mem.core import paths
from desktop_mem.core.config import Config
from desktop_mem.core.errors import (
    DesktopMemError,
    KeyMissing,
    KeyringLocked,
    KeyringUnavailable,
    WrongKey,
)
from desktop_mem.core.keys.vault import Vault, read_key_mode
from desktop_mem.core.service import Service
from desktop_mem.core.service import keys as backup
from desktop_mem.ui.backup_ui import LockedDialog, RecoveryCodeDialog, choose_backup_file
from desktop_mem.ui.passphrase_dialog import PassphraseDialog
from desktop_mem.ui.tasks import R, describe_exception


def open_profile(config: Config, vault: Vault, parent: QWidget | None = None) -> Service | None:
    """Open the profile, asking for a passphrase when it needs one; None if the user
    gave up. A wrong passphrase says so and asks again; nothing is ever written."""
    db = paths.database_path(config.home, config.profile)
    error = ""
    while True:
        try:
            return off_gui_thread(Service.open, config, vault)
        except KeyringLocked as exc:  # there, but locked: not a reason for a passphrase
            if ask_to_unlock_again(exc, parent):
                continue
            return None
        except (KeyMissing, WrongKey, KeyringUnavailable) as exc:
            exists = db.exists()
            needs_passphrase = (exists and read_key_mode(db) == "passphrase") or (
                not exists and isinstance(exc, KeyringUnavailable)
            )
            if isinstance(exc, KeyMissing) and exists and read_key_mode(db) != "passphrase":
                if unlock_locked_profile(config, vault, parent):
                    continue
                return None
            if not needs_passphrase:
                QMessageBox.critical(
                    parent,
                    QApplication.translate("app", "Cannot open your memories"),
                    describe_exception(exc, str(exc)),
                )
                return None
            if isinstance(exc, WrongKey):
                error = QApplication.translate(
                    "app", "That passphrase is not right. Nothing was changed; try again."
                )
            dialog = PassphraseDialog(config.profile, create=not exists, error=error, parent=parent)
            if dialog.exec() != PassphraseDialog.DialogCode.Accepted:
                return None
            config.passphrase = dialog.passphrase()


def ask_to_unlock_again(exc: KeyringLocked, parent: QWidget | None = None) -> bool:
    """The keyring's unlock prompt was closed: say so (not "no keyring"), and offer to
    ask again. True: try again; False: the user quits."""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle(QApplication.translate("app", "Your keyring is locked"))
    box.setText(describe_exception(exc, str(exc)))
    again = box.addButton(
        QApplication.translate("app", "Try again"), QMessageBox.ButtonRole.AcceptRole
    )
    box.addButton(QApplication.translate("app", "Quit"), QMessageBox.ButtonRole.RejectRole)
    box.setDefaultButton(again)
    box.exec()
    return box.clickedButton() is again


def unlock_locked_profile(config: Config, vault: Vault, parent: QWidget | None = None) -> bool:
    """The keyring does not hold the profile's key: put it back with the recovery code,
    or put a backup in the profile's place. False if the user quits."""
    error = ""
    while True:
        dialog = LockedDialog(config.profile, parent)
        if error:
            dialog.show_error(error)
        if dialog.exec() != LockedDialog.DialogCode.Accepted:
            return False
        if dialog.choice == "restore":
            path = choose_backup_file(parent)
            if path and restore_with_prompts(config, vault, path, parent, replace=True):
                return True
            continue
        try:
            off_gui_thread(
                backup.recover_key, config.home, config.profile, dialog.code.text(), vault
            )
        except DesktopMemError as exc:
            error = (
                QApplication.translate(
                    "app", "That recovery code does not open this profile: check it and try again."
                )
                if isinstance(exc, WrongKey)
                else describe_exception(exc, str(exc))
            )
            continue
        return True


def restore_with_prompts(
    config: Config, vault: Vault, path: str, parent: QWidget | None = None, replace: bool = False
) -> bool:
    """Restore a backup as the profile, asking for the backup's passphrase or recovery
    code when it needs one. False if it did not happen (the user was told why)."""
    title = QApplication.translate("app", "Restore a backup")
    try:
        header, _ = backup.read_header(Path(path))
    except DesktopMemError as exc:
        QMessageBox.warning(parent, title, describe_exception(exc, str(exc)))
        return False
    passphrase: str | None = None
    code: str | None = None
    error = ""
    while True:
        try:
            report = off_gui_thread(
                backup.restore, Path(path), config.home, config.profile, passphrase, code, vault,
                replace,
            )  # fmt: skip
        except (KeyMissing, WrongKey) as exc:
            if header.get("key_mode") == "passphrase":
                if passphrase is not None:
                    error = QApplication.translate(
                        "app", "That passphrase is not right. Nothing was changed; try again."
                    )
                dialog = PassphraseDialog(
                    config.profile,
                    create=False,
                    error=error,
                    parent=parent,
                    explanation=QApplication.translate(
                        "app",
                        "This backup is protected by the passphrase of the profile it was made "
                        "from. Enter it to restore the backup.",
                    ),
                )
                if dialog.exec() != PassphraseDialog.DialogCode.Accepted:
                    return False
                passphrase = dialog.passphrase()
                continue
            if code is not None and isinstance(exc, WrongKey):
                error = QApplication.translate(
                    "app", "That recovery code does not open this backup: check it and try again."
                )
            text = QApplication.translate(
                "app",
                "The key of this backup is not in this computer's keyring. Enter the recovery "
                "code of the profile it was made from.",
            )
            given, ok = QInputDialog.getText(parent, title, f"{error}\n\n{text}" if error else text)
            if not ok:
                return False
            code = given
            continue
        except DesktopMemError as exc:
            QMessageBox.warning(parent, title, describe_exception(exc, str(exc)))
            return False
        if header.get("key_mode") == "passphrase":
            config.passphrase = passphrase
        if report.new_recovery_code:  # the backup had none: the restored profile has one now
            RecoveryCodeDialog(report.new_recovery_code, config.profile, parent).exec()
        return True


def off_gui_thread(fn: Callable[..., R], *args: object) -> R:
    """Run fn on a worker and wait for it with the event loop running: the keyring (which
    can take seconds to answer, or time out) and the passphrase's key derivation never
    run on the GUI thread (it would freeze the window). Its exception is raised here."""
    from PySide6.QtCore import QEventLoop, QThreadPool

    from desktop_mem.ui.tasks import Task

    loop = QEventLoop()
    results: list[R] = []
    errors: list[BaseException] = []
    task = Task(fn, *args)

    def done(result: R) -> None:
        results.append(result)
        loop.quit()

    def failed(_text: str, exc: BaseException) -> None:
        errors.append(exc)
        loop.quit()

    task.signals.done.connect(done)
    task.signals.failed.connect(failed)
    QThreadPool.globalInstance().start(task)
    if not results and not errors:
        loop.exec()
    if errors:
        raise errors[0]
    return results[0]
