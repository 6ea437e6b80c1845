"""Keys and backups: `rekey`, `backup`, `restore`, `recover`, `recovery-code`."""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from desktop_mem.cli.context import Context
from desktop_mem.core.config import RECOVERY_ENV
from desktop_mem.core.errors import EXIT_OK, DesktopMemError, KeyMissing, UsageError
from desktop_mem.core.jsontypes import JSONObject

if TYPE_CHECKING:
    from desktop_mem.cli.context import Subparsers
    from desktop_mem.core.keys.vault import Vault

NEW_PASSPHRASE_ENV = "DESKTOP_MEM_NEW_PASSPHRASE"
log = logging.getLogger("desktop_mem.cli")


def add_parsers(sub: Subparsers) -> None:
    rk = sub.add_parser(
        "rekey",
        help="re-encrypt the profile under a new key (rotate it, or switch keyring/passphrase)",
        description="Copies the profile under a new key, verifies the copy, then switches; "
        "the old file is kept until the new one is committed. The new passphrase is read from "
        f"${NEW_PASSPHRASE_ENV}, else asked twice on the terminal.",
    )
    rk.add_argument(
        "--mode",
        choices=["keyring", "passphrase"],
        help="the new key's kind (default: keep the current one and rotate the key)",
    )
    rk.set_defaults(func=rekey, opens_profile=False)

    b = sub.add_parser(
        "backup",
        help="write an encrypted backup of the profile to a file (or a dated one into a folder)",
        description="The backup is encrypted like the profile; a keyring profile's backup also "
        "opens with its recovery code, on any computer.",
    )
    b.add_argument("file", help="the backup file, or a folder to put a dated one in")
    b.set_defaults(func=backup_command, opens_profile=True, creates_profile=False)

    r = sub.add_parser(
        "restore",
        help="make a profile from a backup (named as in the backup, or --profile)",
        description="Asks for the recovery code when this computer's keyring does not hold the "
        f"backup's key (or reads ${RECOVERY_ENV}); a passphrase backup needs its "
        "passphrase ($DESKTOP_MEM_PASSPHRASE).",
    )
    r.add_argument("file")
    r.set_defaults(func=restore_command, opens_profile=False)

    rc = sub.add_parser(
        "recover",
        help="put the profile's key back into a new or reset keyring with its recovery code",
    )
    rc.set_defaults(func=recover_command, opens_profile=False)
    nc = sub.add_parser(
        "recovery-code",
        help="make a new recovery code for this keyring profile (the old one stops opening it)",
    )
    nc.set_defaults(func=new_code_command, opens_profile=True, creates_profile=False)


def recovery_notice(code: str, profile: str, happened: str = "was created") -> str:
    return (
        f"\nProfile '{profile}' {happened}. Its recovery code opens it, and its backups, if "
        "this computer's keyring is ever lost:\n\n"
        f"    {code}\n\n"
        "Write it down and keep it somewhere safe: it is shown only this once.\n\n"
    )


def read_code(err: TextIO, why: str) -> str:
    from desktop_mem.core.keys import recovery

    given = os.environ.get(RECOVERY_ENV)
    if given:
        return recovery.normalize(given)
    if not sys.stdin.isatty():
        raise KeyMissing(
            f"{why}: give the profile's recovery code (set {RECOVERY_ENV}, or run "
            "this in a terminal to type it). Nothing was changed."
        )
    import getpass

    return recovery.normalize(getpass.getpass("Recovery code: ", stream=err))


def backup_command(ctx: Context) -> int:
    args, app, out = ctx.args, ctx.app, ctx.out
    report = app.keys.backup(Path(args.file))
    out.write(
        f"Backed up profile '{app.name}' to {report.path} ({report.bytes:,} bytes, "
        f"encrypted, {report.rows} rows verified).\n"
    )
    return EXIT_OK


def restore_command(ctx: Context) -> int:
    from desktop_mem.core.service import keys as backup

    args, config, vault, out, err = ctx.args, ctx.config, ctx.vault, ctx.out, ctx.err
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
    if report.synced_through:
        out.write(
            f"This profile syncs through {report.synced_through}: at its next sync it goes on as "
            "a new computer, what it had sent since this backup comes back to it from the "
            "folder, and the other computers keep everything they have.\n"
        )
    if report.new_recovery_code:
        err.write(
            "The backup holds no recovery code that could be proved to open it (it was made "
            "before recovery codes or before backups were sealed, or its recovery data was "
            "removed or changed), so the restored profile has a new one.\n"
        )
        err.write(recovery_notice(report.new_recovery_code, report.profile, "was restored"))
    return EXIT_OK


def _code_if_needed(header: JSONObject, vault: Vault, err: TextIO) -> str | None:
    """The recovery code, unless this computer's keyring still holds the backup's key."""
    why = "The key of this backup is not in this computer's keyring"
    if os.environ.get(RECOVERY_ENV):
        return read_code(err, why)
    account = header.get("key_account")
    if isinstance(account, str) and not vault.keyring.problem():
        try:
            if vault.keyring.get(str(header.get("profile", "")), account):
                return None
        except DesktopMemError:  # a locked keyring: the code is the way in
            pass
    return read_code(err, why)


def recover_command(ctx: Context) -> int:
    from desktop_mem.core.service import keys as backup

    config, vault, out, err = ctx.config, ctx.vault, ctx.out, ctx.err
    code = read_code(err, "Putting the key back needs the recovery code")
    account = backup.recover_key(config.home, config.profile, code, vault)
    out.write(
        f"The key of profile '{config.profile}' is back in the system keyring (as {account}): "
        "the profile opens again.\n"
    )
    return EXIT_OK


def new_code_command(ctx: Context) -> int:
    app, out = ctx.app, ctx.out
    code = app.keys.renew_recovery_code()
    out.write(
        f"New recovery code for profile '{app.name}':\n\n    {code}\n\n"
        "Write it down: it is shown only this once. The old code no longer opens the profile "
        "or new backups (backups made before keep the code they were made with).\n"
    )
    return EXIT_OK


def new_passphrase(err: TextIO) -> str:
    import getpass

    from desktop_mem.core.keys.vault import check_new_passphrase

    given = os.environ.get(NEW_PASSPHRASE_ENV)
    if given:
        return check_new_passphrase(given)
    if not sys.stdin.isatty():
        raise UsageError(
            f"A new passphrase is needed: set {NEW_PASSPHRASE_ENV}, or run this in a terminal."
        )
    first = check_new_passphrase(getpass.getpass("New passphrase: ", stream=err))
    if getpass.getpass("Repeat it: ", stream=err) != first:
        raise UsageError("The two passphrases differ: nothing was changed; try again.")
    return first


def rekey(ctx: Context) -> int:
    from desktop_mem.core import paths
    from desktop_mem.core.keys.vault import PASSPHRASE_ENV, read_key_mode
    from desktop_mem.core.service.keys import change_key

    config, out, err = ctx.config, ctx.out, ctx.err
    path = paths.database_path(config.home, config.profile)
    current = read_key_mode(path) or ("passphrase" if config.passphrase else "keyring")
    mode = ctx.args.mode or current
    new_pass = new_passphrase(err) if mode == "passphrase" else None
    report = change_key(config.home, config.profile, config.passphrase, mode, new_pass, ctx.vault)
    log.info(
        "key changed: %s -> %s, %d rows in %d tables verified",
        report.old_mode,
        report.new_mode,
        report.rows,
        report.tables,
    )
    where = "the system keyring" if report.new_mode == "keyring" else "your passphrase"
    out.write(
        f"Re-encrypted profile '{config.profile}' ({report.rows} rows in {report.tables} "
        f"tables, verified) with a new key held by {where}; the old key no longer opens it.\n"
    )
    if report.new_mode == "passphrase":
        out.write(
            f"From now on set {PASSPHRASE_ENV} to the new passphrase (or enter it in the app).\n"
        )
    if report.recovery_code:
        err.write(recovery_notice(report.recovery_code, config.profile))
    return EXIT_OK
