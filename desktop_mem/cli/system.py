"""`doctor`, `self-test`, and no command at all: the desktop window."""

from __future__ import annotations

import os
import sys
from typing import Any

from desktop_mem.cli import output
from desktop_mem.cli.context import Context
from desktop_mem.core.errors import EXIT_ERROR, EXIT_OK


def add_parsers(sub: Any) -> None:
    st = sub.add_parser(
        "self-test",
        help="check this installation in a temporary profile: database, sqlite-vec, "
        "embedding and search, the window, icon and translations",
    )
    st.add_argument("--no-window", action="store_true", help="skip the Qt part")
    st.add_argument("--json", action="store_true")
    st.set_defaults(func=self_test, opens_profile=False)

    doc = sub.add_parser(
        "doctor",
        help="check Ollama, the keyring, the database and sqlite-vec, what would slow every "
        "turn, and what waits to be learned from",
    )
    doc.add_argument("--json", action="store_true")
    doc.set_defaults(func=doctor, opens_profile=False)


def self_test(ctx: Context) -> int:
    from desktop_mem.ui import selftest  # Qt is imported only for the window checks

    checks = selftest.run(ctx.config, with_window=not ctx.args.no_window)
    output.report(checks, ctx.args.json, ctx.out)
    return EXIT_OK if checks and all(c.ok for c in checks) else EXIT_ERROR


def doctor(ctx: Context) -> int:
    from desktop_mem.core import doctor as checks

    found = checks.run(ctx.config, ctx.vault)
    output.report(found, ctx.args.json, ctx.out)
    return EXIT_OK if all(c.ok for c in found) else EXIT_ERROR


def window(ctx: Context) -> int:
    """No command: open the desktop window (or, without a display, say how to use the
    command line). Qt is imported here and nowhere else on the command line."""
    headless = sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    )
    try:
        from desktop_mem.ui.app import main as window_main
    except ImportError as exc:
        ctx.err.write(f"desktop-mem: the window needs PySide6 ({exc}); the command line works:\n")
        ctx.parser.print_help(ctx.out)
        return EXIT_ERROR
    if headless:
        ctx.parser.print_help(ctx.out)
        ctx.err.write("desktop-mem: no display here, so no window; the commands above work.\n")
        return EXIT_OK
    argv = sys.argv if ctx.argv is None else ["desktop-mem", *ctx.argv]
    return int(window_main(argv, config=ctx.config, vault=ctx.given_vault))
