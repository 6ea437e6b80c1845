"""The command line, on the same core services as the window.

One parser: the global options, then a command from one module per group (memory,
chat, keys, system), each registering its handler with ``set_defaults(func=…)``.
Commands import what they need when they run, so `--version` or `memory list` do not
pay for the model-server client or Qt.

Exit codes: 0 ok, 1 error, 2 usage (or a file given that cannot be used), 3 locked
(wrong or missing key), 4 model server unavailable or model missing, 130 interrupted,
141 the output's reader went away.
docs/commands.md lists them, generated from the parser's epilog and core/errors.py by
tools/cli_reference.py.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, NoReturn, TextIO

from desktop_mem import __version__
from desktop_mem.core.config import global_options
from desktop_mem.core.errors import EXIT_ERROR, EXIT_OK, EXIT_USAGE, DesktopMemError, UsageError

EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report Ctrl+C
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE: the reader of the output went away

if TYPE_CHECKING:
    from desktop_mem.core.keys.vault import Vault

__all__ = ["build_parser", "global_options", "main"]

log = logging.getLogger("desktop_mem.cli")
MAX_ARG_INT = 2**63 - 1  # what SQLite's INTEGER holds


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: {message}\n")


# Which module registers each command: a command line builds only its own group's
# parsers (and imports only that module); help and unknown commands build them all.
GROUPS = {
    "memory": "memory",
    "wipe": "memory",
    "about": "about",
    "spaces": "spaces",
    "chat": "chat",
    "conversations": "conversations",
    "models": "models",
    "settings": "settings",
    "docs": "docs",
    "import": "imports",
    "review": "imports",
    "rekey": "keys",
    "backup": "keys",
    "restore": "keys",
    "recover": "keys",
    "recovery-code": "keys",
    "mcp": "apps",
    "clients": "apps",
    "sync": "sync",
    "self-test": "system",
    "doctor": "system",
}
_VALUED = ("--home", "--profile", "--ollama-host", "--embed-model")


def command_word(argv: Sequence[str]) -> str | None:
    """The command a command line names, skipping the global options and their values."""
    skip = False
    for token in argv:
        if skip:
            skip = False
        elif token == "--":
            return None
        elif token in _VALUED:
            skip = True
        elif not token.startswith("-"):
            return token
    return None


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser; given the command line, only the parsers its command needs."""
    import importlib

    from desktop_mem.cli import system

    p = _Parser(
        prog="desktop-mem",
        description="A local language model with a long-term memory you can see and control.",
        epilog="Exit codes: 0 ok, 1 error, 2 usage (or a file given that cannot be used), "
        "3 locked (wrong or missing key), "
        "4 model server unavailable or model missing, 130 interrupted, 141 the output's "
        "reader went away.",
    )
    p.add_argument("--version", action="version", version=f"desktop-mem {__version__}")
    global_options(p)
    p.set_defaults(func=system.window, opens_profile=False)
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    word = None if argv is None else command_word(argv)
    wanted = [GROUPS[word]] if word in GROUPS else []
    for name in wanted or dict.fromkeys(GROUPS.values()):
        module = importlib.import_module(f"desktop_mem.cli.{name}")
        if name in ("keys", "system"):
            module.add_parsers(sub)
        else:
            module.add_parsers(sub, _Parser)
    return p


def main(
    argv: Sequence[str] | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
    vault: Vault | None = None,
) -> int:
    started = time.monotonic()
    out = out or sys.stdout
    err = err or sys.stderr
    if list(sys.argv[1:] if argv is None else argv) == ["--version"]:
        out.write(f"desktop-mem {__version__}\n")  # before building the whole parser
        return EXIT_OK
    parser = build_parser(sys.argv[1:] if argv is None else argv)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    try:
        _check_arguments(args)
    except UsageError as exc:
        err.write(f"desktop-mem: {exc}\n")
        return exc.exit_code
    command = " ".join(x for x in (args.command, getattr(args, "action", None)) if x)
    code = _run(args, None if argv is None else list(argv), parser, out, err, vault)
    if command:
        log.info("%s: exit %d in %.0f ms", command, code, (time.monotonic() - started) * 1000)
    return code


def _check_arguments(args: argparse.Namespace) -> None:
    """Arguments every command can trust: text that is valid UTF-8 (a terminal in
    another encoding passes undecodable bytes through as surrogates) and whole numbers
    SQLite can hold."""
    for name, value in vars(args).items():
        if callable(value):
            continue
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
    argv: list[str] | None,
    parser: argparse.ArgumentParser,
    out: TextIO,
    err: TextIO,
    vault: Vault | None,
) -> int:
    from desktop_mem.cli import keys
    from desktop_mem.cli.context import Context
    from desktop_mem.core.config import Config

    try:
        config = Config.resolve(
            home=args.home,
            profile=args.profile,
            ollama_host=args.ollama_host,
            embed_model=args.embed_model,
        )
        ctx = Context(args, config, out, err, vault, argv, parser)
        if args.command is None:
            return int(args.func(ctx))
        from desktop_mem.core import logs

        logs.configure(config.home)
        if not args.opens_profile:
            return int(args.func(ctx))
        from desktop_mem.core.service import Service

        create = getattr(args, "creates_profile", True)
        with Service.open(config, ctx.vault, create=create) as app:
            code = app.keys.new_recovery_code_shown()
            if code and getattr(args, "announces_code", True):
                err.write(keys.recovery_notice(code, config.profile))
            ctx.new_code = code
            ctx._service = app
            return int(args.func(ctx))
    except DesktopMemError as exc:
        log.warning("%s failed: %s", args.command, type(exc).__name__)  # never the text
        err.write(f"desktop-mem: {exc}\n")
        return exc.exit_code
    except KeyboardInterrupt:
        err.write("desktop-mem: interrupted; nothing half-written was kept.\n")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (`desktop-mem memory list | head`): stop quietly, as git
        # does; the interpreter's last flush must not fail on the closed pipe either.
        if out is sys.stdout:
            with contextlib.suppress(OSError, ValueError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    except OSError as exc:
        where = getattr(exc, "filename", "") or "file system"
        err.write(f"desktop-mem: {exc.strerror or exc} ({where}).\n")
        return EXIT_ERROR


if __name__ == "__main__":
    raise SystemExit(main())
