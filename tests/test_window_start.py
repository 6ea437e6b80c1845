"""The window's start on Linux: the system libraries Qt's xcb plugin needs are looked
for before Qt loads it, so a missing one is named in one sentence with its package and
a documented exit code, instead of Qt's page about plugins and its abort."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_mem.cli import system
from desktop_mem.core.errors import EXIT_ERROR, SystemLibraryMissing

ROOT = Path(__file__).resolve().parents[1]


def test_a_missing_library_is_named_with_its_package() -> None:
    libraries = (
        ("libc.so.6", "libc6"),  # present everywhere Linux runs this
        ("libxcb-not-installed-here.so.0", "libxcb-not-installed-here0"),
    )
    with pytest.raises(SystemLibraryMissing) as caught:
        system.require_libraries(libraries)
    said = str(caught.value)
    assert said.startswith("The window needs the system library libxcb-not-installed-here.so.0")
    assert "sudo apt-get install libxcb-not-installed-here0" in said
    assert "\n" not in said and said.count(". ") == 0, "one sentence"
    assert caught.value.exit_code == EXIT_ERROR
    assert caught.value.reason == "system_library_missing"


def test_the_libraries_qt_needs_load_here_and_are_documented() -> None:
    """Every library looked for is one Qt's xcb plugin loads (they are installed on this
    machine and by .ci/run), and docs/usage.md and .ci/run name every package."""
    system.require_libraries()  # all four load here
    packages = [package for _, package in system.XCB_LIBRARIES]
    assert packages == ["libxcb-cursor0", "libxkbcommon-x11-0", "libxcb-icccm4", "libxcb-keysyms1"]
    usage = (ROOT / "docs/usage.md").read_text("utf-8")
    ci = (ROOT / ".ci/run").read_text("utf-8")
    assert all(p in usage and p in ci for p in packages)
    commands = (ROOT / "docs/commands.md").read_text("utf-8")
    assert "`system_library_missing`" in commands.split("| 1 | error |")[1].split("\n")[0]


@pytest.mark.parametrize(
    ("env", "xcb"),
    [
        ({}, True),
        ({"QT_QPA_PLATFORM": "xcb"}, True),
        ({"QT_QPA_PLATFORM": "offscreen"}, False),
        ({"WAYLAND_DISPLAY": "wayland-0"}, False),
        ({"WAYLAND_DISPLAY": "wayland-0", "QT_QPA_PLATFORM": "xcb"}, True),
        ({"QT_QPA_PLATFORM": "wayland;xcb"}, False),
    ],
)
def test_only_a_start_on_x11_needs_them(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], xcb: bool
) -> None:
    for name in ("QT_QPA_PLATFORM", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert system.uses_xcb() is xcb
