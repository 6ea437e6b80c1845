"""Backups and the recovery code on the command line: backup, restore, recover,
recovery-code."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any, TextIO

from desktop_mem.core import backup, recovery
from desktop_mem.core.config import Config
from desktop_mem.core.errors import EXIT_OK, KeyMissing
from desktop_mem.core.profile import Profile
from desktop_mem.core.vault import Vault


def add_parsers(sub: Any) -> None:
    b = sub.add_parser(
        "backup",
        help="write an encrypted backup of the profile to a file (or a dated one into a folder)",
        description="The backup is encrypted like the profile; a keyring profile's backup also "
        "opens with its recovery code, on any computer.",
    )
    b.add_argument("file", help="the backup file, or a folder to put a dated one in")

    r = sub.add_parser(
        "restore",
        help="make a profile from a backup (named as in the backup, or --profile)",
        description="Asks for the recovery code when this computer's keyring does not hold the "
        f"backup's key (or reads ${recovery.RECOVERY_ENV}); a passphrase backup needs its "
        "passphrase ($DESKTOP_MEM_PASSPHRASE).",
    )
    r.add_argument("file")

    sub.add_parser(
        "recover",
        help="put the profile's key back into a new or reset keyring with its recovery code",
    )
    sub.add_parser(
        "recovery-code",
        help="make a new recovery code for this keyring profile (the old one stops opening it)",
    )


def recovery_notice(code: str, profile: str) -> str:
    return (
        f"\nProfile '{profile}' was created. Its recovery code opens it, and its backups, if "
        "this computer's keyring is ever lost:\n\n"
        f"    {code}\n\n"
        "Write it down and keep it somewhere safe: it is shown only this once.\n\n"
    )


def read_code(err: TextIO, why: str) -> str:
    given = os.environ.get(recovery.RECOVERY_ENV)
    if given:
        return recovery.normalize(given)
    if not sys.stdin.isatty():
        raise KeyMissing(
            f"{why}: give the profile's recovery code (set {recovery.RECOVERY_ENV}, or run "
            "this in a terminal to type it). Nothing was changed."
        )
    import getpass

    return recovery.normalize(getpass.getpass("Recovery code: ", stream=err))


def backup_command(args: argparse.Namespace, prof: Profile, out: TextIO) -> int:
    target = Path(args.file).expanduser()
    if target.is_dir():
        target = target / backup.backup_name(prof.config.profile)
    report = backup.write_backup(prof.db, target)
    out.write(
        f"Backed up profile '{prof.config.profile}' to {report.path} ({report.bytes:,} bytes, "
        f"encrypted, {report.rows} rows verified).\n"
    )
    return EXIT_OK


def restore_command(
    args: argparse.Namespace, config: Config, vault: Vault, out: TextIO, err: TextIO
) -> int:
    header, _ = backup.read_header(Path(args.file).expanduser())
    code = None
    if header.get("key_mode") == "keyring":
        code = _code_if_needed(header, vault, err)
    report = backup.restore(
        Path(args.file).expanduser(),
        config.home,
        args.profile or os.environ.get("DESKTOP_MEM_PROFILE") or None,
        config.passphrase,
        code,
        vault,
    )
    how = " with the recovery code" if report.used_recovery_code else ""
    out.write(
        f"Restored profile '{report.profile}'{how}: {report.memories} memories and "
        f"{report.messages} messages.\n"
    )
    return EXIT_OK


def _code_if_needed(header: dict[str, Any], vault: Vault, err: TextIO) -> str | None:
    """The recovery code, unless this computer's keyring still holds the backup's key."""
    why = "The key of this backup is not in this computer's keyring"
    if os.environ.get(recovery.RECOVERY_ENV):
        return read_code(err, why)
    account = header.get("key_account")
    if isinstance(account, str) and not vault.keyring.problem():
        try:
            if vault.keyring.get(str(header.get("profile", "")), account):
                return None
        except Exception:  # a locked keyring: the code is the way in
            pass
    return read_code(err, why)


def recover_command(config: Config, vault: Vault, out: TextIO, err: TextIO) -> int:
    code = read_code(err, "Putting the key back needs the recovery code")
    account = backup.recover_key(config.home, config.profile, code, vault)
    out.write(
        f"The key of profile '{config.profile}' is back in the system keyring (as {account}): "
        "the profile opens again.\n"
    )
    return EXIT_OK


def new_code_command(prof: Profile, out: TextIO) -> int:
    code = backup.renew_recovery_code(prof.db)
    out.write(
        f"New recovery code for profile '{prof.config.profile}':\n\n    {code}\n\n"
        "Write it down: it is shown only this once. The old code no longer opens the profile "
        "or new backups (backups made before keep the code they were made with).\n"
    )
    return EXIT_OK
