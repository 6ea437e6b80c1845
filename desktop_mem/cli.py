"""The command line, on the same core services as the GUI.

Exit codes (documented in the README): 0 ok, 1 error, 2 usage, 3 locked (wrong or
missing key), 4 model server unavailable or model missing.
"""

from __future__ import annotations

import argparse
import json
import logging
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn, TextIO

from desktop_mem import __version__, cli_backup, cli_chat
from desktop_mem.core import doctor, logs, paths
from desktop_mem.core.config import Config
from desktop_mem.core.errors import (
    EXIT_ERROR,
    EXIT_OK,
    EXIT_USAGE,
    DesktopMemError,
    ImportRejected,
    UsageError,
)
from desktop_mem.core.export import import_file, write_export
from desktop_mem.core.memories import KINDS, Memory, NewMemory
from desktop_mem.core.profile import Profile
from desktop_mem.core.rekey import change_key
from desktop_mem.core.vault import PASSPHRASE_ENV, Vault, read_key_mode

NEW_PASSPHRASE_ENV = "DESKTOP_MEM_NEW_PASSPHRASE"
log = logging.getLogger("desktop_mem.cli")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="desktop-mem",
        description="A local language model with a long-term memory you can see and control.",
        epilog="Exit codes: 0 ok, 1 error, 2 usage, 3 locked (wrong or missing key), "
        "4 model server unavailable or model missing.",
    )
    p.add_argument("--version", action="version", version=f"desktop-mem {__version__}")
    p.add_argument("--home", help="data folder (default: $DESKTOP_MEM_HOME, else the platform's)")
    p.add_argument("--profile", help="profile name (default: 'default')")
    p.add_argument(
        "--ollama-host", help="Ollama address (default: $OLLAMA_HOST, else http://127.0.0.1:11434)"
    )
    p.add_argument("--embed-model", help="embedding model (default: the profile's, else bge-m3)")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    mem = sub.add_parser("memory", help="view and change memories")
    msub = mem.add_subparsers(dest="action", metavar="ACTION", parser_class=_Parser, required=True)

    a = msub.add_parser("add", help="remember something")
    a.add_argument("text")
    a.add_argument("--kind", default="fact", help=f"one of {', '.join(KINDS)} (default: fact)")
    a.add_argument("--pin", action="store_true", help="pin it: always in the prompt")
    a.add_argument("--importance", type=float, default=0.5, help="0 to 1 (default 0.5)")
    a.add_argument("--valid-from", help="date it becomes true (YYYY-MM-DD)")
    a.add_argument("--valid-until", help="date it stops being true (YYYY-MM-DD)")
    a.add_argument("--json", action="store_true")

    ls = msub.add_parser("list", help="list memories, newest first (pinned on top)")
    ls.add_argument("--kind")
    pin = ls.add_mutually_exclusive_group()
    pin.add_argument("--pinned", dest="pinned", action="store_true", default=None)
    pin.add_argument("--unpinned", dest="pinned", action="store_false")
    ls.add_argument("--text", help="only memories containing this text")
    ls.add_argument("--since", help="created on or after (YYYY-MM-DD)")
    ls.add_argument("--until", help="created on or before (YYYY-MM-DD)")
    ls.add_argument("--current", action="store_true", help="hide expired memories")
    ls.add_argument("--limit", type=int)
    ls.add_argument("--json", action="store_true")

    s = msub.add_parser("search", help="hybrid search (meaning and keywords)")
    s.add_argument("query")
    s.add_argument("-k", type=int, default=10, help="how many results (default 10)")
    s.add_argument("--kind")
    s.add_argument("--current", action="store_true", help="hide expired memories")
    s.add_argument(
        "--all", action="store_true", help="list the best k ranked, relevant to the query or not"
    )
    s.add_argument("--json", action="store_true")

    e = msub.add_parser("edit", help="change a memory (keeps the old version in its history)")
    e.add_argument("id", type=int)
    e.add_argument("text", nargs="?")
    e.add_argument("--kind")
    e.add_argument("--importance", type=float)
    e.add_argument("--valid-from")
    e.add_argument("--valid-until")
    e.add_argument("--json", action="store_true")

    d = msub.add_parser("delete", help="delete memories for good (with their history)")
    d.add_argument("ids", type=int, nargs="+", metavar="ID")

    for name, text in (("pin", "always put it in the prompt"), ("unpin", "stop pinning it")):
        x = msub.add_parser(name, help=text)
        x.add_argument("id", type=int)

    h = msub.add_parser("history", help="every version of a memory")
    h.add_argument("id", type=int)
    h.add_argument("--json", action="store_true")

    r = msub.add_parser("restore", help="make an earlier version current again")
    r.add_argument("id", type=int)
    r.add_argument("version", type=int)

    ex = msub.add_parser("export", help="write all memories to a file")
    ex.add_argument("file")
    ex.add_argument(
        "--format", choices=("json", "md"), help="default: from the file name, else json"
    )

    im = msub.add_parser(
        "import", help="add memories from JSON, Markdown/text or CSV (all or nothing)"
    )
    im.add_argument("file")
    im.add_argument("--json", action="store_true")

    fa = msub.add_parser("forget-all", help="delete every memory of this profile")
    fa.add_argument("--yes", action="store_true", help="confirm: this cannot be undone")

    re_ = msub.add_parser("reembed", help="re-index every memory with the embedding model")
    re_.add_argument("--missing", action="store_true", help="only memories without a vector")

    cli_chat.add_memory_parsers(msub)
    cli_chat.add_parsers(sub, _Parser)

    wp = sub.add_parser(
        "wipe", help="delete every memory and every conversation of this profile for good"
    )
    wp.add_argument("--yes", action="store_true", help="confirm: this cannot be undone")

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

    cli_backup.add_parsers(sub)

    st = sub.add_parser(
        "self-test",
        help="check this installation in a temporary profile: database, sqlite-vec, "
        "embedding and search, the window, icon and translations",
    )
    st.add_argument("--no-window", action="store_true", help="skip the Qt part")
    st.add_argument("--json", action="store_true")

    doc = sub.add_parser("doctor", help="check Ollama, the keyring, the database and sqlite-vec")
    doc.add_argument("--json", action="store_true")
    return p


# -- output helpers -------------------------------------------------------------------


def _print_json(data: Any, out: TextIO) -> None:
    json.dump(data, out, ensure_ascii=False, indent=2)
    out.write("\n")


def _warn(warnings: Sequence[str], err: TextIO) -> None:
    for w in warnings:
        err.write(f"warning: {w}\n")


def _one_line(text: str, width: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: max(1, width - 1)] + "…"


def _memory_line(m: Memory, width: int, score: float | None = None) -> str:
    mark = "*" if m.pinned else " "
    state = " (expired)" if m.expired else ""
    head = f"{m.id:>6} {mark} {m.kind:<10} {m.created_at[:10]} "
    if score is not None:
        head += f"{score:.4f} "
    return head + _one_line(m.text, max(20, width - len(head) - len(state))) + state


def _progress(err: TextIO, what: str) -> Callable[[int, int], None] | None:
    if not err.isatty():
        return None

    def show(done: int, total: int) -> None:
        err.write(f"\r{what} {done}/{total}")
        if done >= total:
            err.write("\n")
        err.flush()

    return show


# -- commands -------------------------------------------------------------------------


def _memory(args: argparse.Namespace, prof: Profile, out: TextIO, err: TextIO) -> int:
    store = prof.memories
    width = shutil.get_terminal_size((100, 20)).columns
    act = args.action
    if act == "add":
        res = store.add(
            NewMemory(
                args.text,
                kind=args.kind,
                importance=args.importance,
                pinned=args.pin,
                valid_from=args.valid_from,
                valid_until=args.valid_until,
            )
        )
        _warn(res.warnings, err)
        if args.json:
            _print_json(res.memory.to_dict(), out)
        else:
            out.write(f"Remembered {res.memory.id}: {_one_line(res.memory.text, width - 20)}\n")
    elif act == "list":
        mems = store.list(
            kind=args.kind,
            pinned=args.pinned,
            text=args.text,
            since=args.since,
            until=args.until,
            include_expired=not args.current,
            limit=args.limit,
        )
        if args.json:
            _print_json([m.to_dict() for m in mems], out)
        else:
            for m in mems:
                out.write(_memory_line(m, width) + "\n")
            err.write(f"{len(mems)} memories\n")
    elif act == "search":
        if args.k < 1:
            raise UsageError("-k must be at least 1.")
        result = prof.search.search(
            args.query,
            k=args.k,
            include_expired=not args.current,
            kinds={args.kind} if args.kind else None,
            relevant_only=not args.all,
        )
        _warn(result.warnings, err)
        if args.json:
            _print_json([h.to_dict() for h in result.hits], out)
        else:
            for h in result.hits:
                out.write(_memory_line(h.memory, width, h.score) + "\n")
            if not result.hits:
                err.write(
                    "No memory matches: none is about this (--all lists the nearest anyway).\n"
                )
    elif act == "edit":
        if (
            args.text is None
            and args.kind is None
            and args.importance is None
            and args.valid_from is None
            and args.valid_until is None
        ):
            raise UsageError(
                "Nothing to change: give the new text, or --kind, --importance, --valid-from, --valid-until."
            )
        res = store.edit(
            args.id,
            text=args.text,
            kind=args.kind,
            importance=args.importance,
            valid_from=args.valid_from,
            valid_until=args.valid_until,
        )
        _warn(res.warnings, err)
        if args.json:
            _print_json(res.memory.to_dict(), out)
        else:
            out.write(f"Updated {res.memory.id}: {_one_line(res.memory.text, width - 20)}\n")
    elif act == "delete":
        n = store.delete(args.ids)
        out.write(f"Deleted {n} {'memory' if n == 1 else 'memories'} for good.\n")
        _pending_erase(prof, out)
    elif act in ("pin", "unpin"):
        m = store.set_pinned(args.id, act == "pin")
        out.write(f"{'Pinned' if m.pinned else 'Unpinned'} {m.id}.\n")
    elif act == "history":
        versions = store.history(args.id)
        if args.json:
            _print_json([v.to_dict() for v in versions], out)
        else:
            for v in versions:
                pin = " pinned" if v.pinned else ""
                until = f" until {v.valid_until}" if v.valid_until else ""
                out.write(
                    f"v{v.version} {v.changed_at} {v.action} by {v.actor}"
                    + (f" (message {v.message_id})" if v.message_id else "")
                    + f": [{v.kind}{pin}{until}] {_one_line(v.text, width - 50)}\n"
                )
    elif act == "restore":
        res = store.restore(args.id, args.version)
        _warn(res.warnings, err)
        out.write(f"Restored {args.id} to version {args.version}.\n")
    elif act == "export":
        path = Path(args.file)
        fmt = args.format or (
            "md" if path.suffix.lower() in (".md", ".markdown", ".txt") else "json"
        )
        n = write_export(store, path, fmt, prof.config.profile)
        out.write(f"Exported {n} memories to {path} ({fmt}). This file is not encrypted.\n")
    elif act == "import":
        try:
            report = import_file(store, Path(args.file), progress=_progress(err, "Importing"))
        except ImportRejected as exc:
            if args.json:
                _print_json(
                    {
                        "imported": 0,
                        "problems": [{"line": ln, "error": msg} for ln, msg in exc.problems],
                    },
                    out,
                )
            raise
        _warn(report.warnings, err)
        if args.json:
            _print_json(
                {"imported": report.imported, "duplicates": report.duplicates, "ids": report.ids},
                out,
            )
        else:
            dup = f", skipped {report.duplicates} already known" if report.duplicates else ""
            out.write(f"Imported {report.imported} memories{dup}.\n")
    elif act == "forget-all":
        if not args.yes:
            raise UsageError(
                f"This deletes all {store.count()} memories of profile '{prof.config.profile}' for "
                "good: run again with --yes to confirm."
            )
        n = store.forget_all()
        out.write(f"Deleted all {n} memories for good.\n")
        _pending_erase(prof, out)
    elif act == "reembed":
        n = store.reembed(progress=_progress(err, "Embedding"), only_missing=args.missing)
        out.write(f"Indexed {n} memories with {prof.embedder.model}.\n")
    return EXIT_OK


def _wipe(args: argparse.Namespace, prof: Profile, out: TextIO) -> int:
    from desktop_mem.core.conversations import ConversationStore

    convs = ConversationStore(prof.db, prof.embedder, prof.search.reference)
    if not args.yes:
        n_msgs = prof.db.query("SELECT count(*) FROM messages")[0][0]
        raise UsageError(
            f"This deletes all {prof.memories.count()} memories and {n_msgs} messages of "
            f"profile '{prof.config.profile}' for good: run again with --yes to confirm."
        )
    messages = convs.delete_all()
    memories = prof.memories.forget_all()
    out.write(f"Deleted {memories} memories and {messages} messages for good.\n")
    _pending_erase(prof, out)
    return EXIT_OK


PENDING_ERASE = (
    "Another desktop-mem window or command is reading this profile: the old copy stays in "
    "the file until it lets go, and is overwritten then (at the latest when it closes)."
)


def _pending_erase(prof: Profile, out: TextIO) -> None:
    if not prof.db.checkpoint_complete:
        out.write(PENDING_ERASE + "\n")


def _new_passphrase(err: TextIO) -> str:
    import getpass
    import os

    from desktop_mem.core.vault import check_new_passphrase

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


def _rekey(args: argparse.Namespace, config: Config, vault: Vault, out: TextIO, err: TextIO) -> int:
    path = paths.database_path(config.home, config.profile)
    current = read_key_mode(path) or ("passphrase" if config.passphrase else "keyring")
    mode = args.mode or current
    new_pass = _new_passphrase(err) if mode == "passphrase" else None
    report = change_key(config.home, config.profile, config.passphrase, mode, new_pass, vault)
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
        err.write(cli_backup.recovery_notice(report.recovery_code, config.profile))
    return EXIT_OK


def _self_test(args: argparse.Namespace, config: Config, out: TextIO) -> int:
    from desktop_mem.ui import selftest  # Qt is imported only for the window checks

    checks = selftest.run(config, with_window=not args.no_window)
    _report(checks, args.json, out)
    return EXIT_OK if checks and all(c.ok for c in checks) else EXIT_ERROR


def _report(checks: Sequence[Any], as_json: bool, out: TextIO) -> None:
    if as_json:
        _print_json([c.to_dict() for c in checks], out)
        return
    for c in checks:
        out.write(f"{'ok ' if c.ok else 'FIX'} {c.name:<16} {c.detail}\n")
        if c.fix:
            out.write(f"    {'':<16} -> {c.fix}\n")


def _doctor(args: argparse.Namespace, config: Config, vault: Vault, out: TextIO) -> int:
    checks = doctor.run(config, vault)
    _report(checks, args.json, out)
    return EXIT_OK if all(c.ok for c in checks) else EXIT_ERROR


def _window(
    argv: Sequence[str] | None,
    parser: argparse.ArgumentParser,
    out: TextIO,
    err: TextIO,
    vault: Vault | None,
) -> int:
    """No command: open the desktop window (or, without a display, say how to use the
    command line)."""
    import os

    headless = sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    )
    try:
        from desktop_mem.ui.app import main as window_main
    except ImportError as exc:
        err.write(f"desktop-mem: the window needs PySide6 ({exc}); the command line works:\n")
        parser.print_help(out)
        return EXIT_ERROR
    if headless:
        parser.print_help(out)
        err.write("desktop-mem: no display here, so no window; the commands above work.\n")
        return EXIT_OK
    return window_main(["desktop-mem", *(sys.argv[1:] if argv is None else argv)], vault=vault)


def main(
    argv: Sequence[str] | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
    vault: Vault | None = None,
) -> int:
    started = time.monotonic()
    code, command = _main(argv, out, err, vault)
    if command:
        log.info("%s: exit %d in %.0f ms", command, code, (time.monotonic() - started) * 1000)
    return code


def _main(
    argv: Sequence[str] | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
    vault: Vault | None = None,
) -> tuple[int, str]:
    out = out or sys.stdout
    err = err or sys.stderr
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0), ""
    try:
        _check_arguments(args)
    except UsageError as exc:
        err.write(f"desktop-mem: {exc}\n")
        return exc.exit_code, ""
    command = " ".join(x for x in (args.command, getattr(args, "action", None)) if x)
    return _run(args, argv, parser, out, err, vault), command


MAX_ARG_INT = 2**63 - 1  # what SQLite's INTEGER holds


def _check_arguments(args: argparse.Namespace) -> None:
    """Arguments every command can trust: text that is valid UTF-8 (a terminal in
    another encoding passes undecodable bytes through as surrogates) and whole numbers
    SQLite can hold."""
    for name, value in vars(args).items():
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str) and any("\udc80" <= ch <= "\udcff" for ch in item):
                raise UsageError(
                    f"The {name.replace('_', ' ')} argument is not valid UTF-8 text: set the "
                    "terminal to UTF-8 and try again. Nothing was changed."
                )
            if isinstance(item, int) and not isinstance(item, bool) and abs(item) > MAX_ARG_INT:
                raise UsageError(
                    f"The {name.replace('_', ' ')} argument {str(item)[:24]}… is too large: "
                    "nothing has an id or a count that big. Nothing was changed."
                )


def _run(
    args: argparse.Namespace,
    argv: Sequence[str] | None,
    parser: argparse.ArgumentParser,
    out: TextIO,
    err: TextIO,
    vault: Vault | None,
) -> int:
    try:
        config = Config.resolve(
            home=args.home,
            profile=args.profile,
            ollama_host=args.ollama_host,
            embed_model=args.embed_model,
        )
        if args.command is None:
            return _window(argv, parser, out, err, vault)
        logs.configure(config.home)
        vault = vault or Vault()
        if args.command == "doctor":
            return _doctor(args, config, vault, out)
        if args.command == "self-test":
            return _self_test(args, config, out)
        if args.command == "rekey":
            return _rekey(args, config, vault, out, err)
        if args.command == "models":
            return cli_chat.models(args, config, out, err)
        if args.command == "restore":
            return cli_backup.restore_command(args, config, vault, out, err)
        if args.command == "recover":
            return cli_backup.recover_command(config, vault, out, err)
        create = args.command not in ("backup", "recovery-code")
        with Profile.open(config, vault, create=create) as prof:
            if prof.db.new_recovery_code:
                err.write(cli_backup.recovery_notice(prof.db.new_recovery_code, config.profile))
            if args.command == "backup":
                return cli_backup.backup_command(args, prof, out)
            if args.command == "recovery-code":
                return cli_backup.new_code_command(prof, out)
            if args.command == "chat":
                return cli_chat.chat(args, prof, out, err)
            if args.command == "conversations":
                return cli_chat.conversations(args, prof, out, err)
            if args.command == "wipe":
                return _wipe(args, prof, out)
            if args.command == "settings":
                return cli_chat.settings(args, prof, out, err)
            if args.action == "consolidate":
                return cli_chat.consolidate(args, prof, out, err)
            return _memory(args, prof, out, err)
    except DesktopMemError as exc:
        log.warning("%s failed: %s", args.command, type(exc).__name__)  # never the text
        err.write(f"desktop-mem: {exc}\n")
        return exc.exit_code
    except KeyboardInterrupt:
        err.write("desktop-mem: interrupted; nothing half-written was kept.\n")
        return 130
    except OSError as exc:
        err.write(
            f"desktop-mem: {exc.strerror or exc} ({getattr(exc, 'filename', '') or 'file system'}).\n"
        )
        return EXIT_ERROR


if __name__ == "__main__":
    raise SystemExit(main())
