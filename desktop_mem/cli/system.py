"""`doctor`, `self-test`, and no command at all: the desktop window."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from desktop_mem.cli import output
from desktop_mem.cli.context import Context
from desktop_mem.core.errors import EXIT_ERROR, EXIT_OK, SystemLibraryMissing

if TYPE_CHECKING:
    from desktop_mem.cli.context import Subparsers

# The system libraries Qt's xcb platform plugin loads that a desktop may lack (PySide6's
# wheels carry the rest), by their file names, each with its Debian/Ubuntu package.
# Without one of them Qt prints a page about plugins and aborts (exit 134).
XCB_LIBRARIES = (
    ("libxcb-cursor.so.0", "libxcb-cursor0"),
    ("libxkbcommon-x11.so.0", "libxkbcommon-x11-0"),
    ("libxcb-icccm.so.4", "libxcb-icccm4"),
    ("libxcb-keysyms.so.1", "libxcb-keysyms1"),
)


def add_parsers(sub: Subparsers) -> None:
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
    if uses_xcb():
        require_libraries()
    argv = sys.argv if ctx.argv is None else ["desktop-mem", *ctx.argv]
    return int(window_main(argv, config=ctx.config, vault=ctx.given_vault))


def uses_xcb() -> bool:
    """Whether Qt will start on X11 through its xcb plugin: on Linux, unless another
    platform is asked for, or a Wayland session gives Qt its Wayland plugin."""
    if not sys.platform.startswith("linux"):
        return False
    platform = os.environ.get("QT_QPA_PLATFORM", "").split(":")[0].split(";")[0].strip()
    if platform:
        return platform == "xcb"
    return not os.environ.get("WAYLAND_DISPLAY")


def require_libraries(libraries: tuple[tuple[str, str], ...] = XCB_LIBRARIES) -> None:
    """Load each library the way Qt's plugin will (dlopen by file name) before Qt tries:
    the first that does not load is named, with its package, in one sentence
    (SystemLibraryMissing, exit code 1) instead of Qt's abort."""
    import ctypes

    for name, package in libraries:
        try:
            ctypes.CDLL(name)
        except OSError:
            raise SystemLibraryMissing(
                f"The window needs the system library {name}, which is not installed: install "
                f"it (on Debian or Ubuntu: sudo apt-get install {package}) and start "
                "desktop-mem again; the command line works without it."
            ) from None
