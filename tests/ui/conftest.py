"""A modal dialog nobody answers would hang the suite: any that a test does not expect
fails it instead, with the dialog's text."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import shiboken6
from PySide6.QtWidgets import QMessageBox

from desktop_mem.core.profile import Profile
from desktop_mem.core.service import Service
from desktop_mem.ui import tasks
from desktop_mem.ui.app import app_settings
from desktop_mem.ui.main_window import MainWindow
from tests.ui import driving  # noqa: F401  (it keeps Qt's own QMessageBox.question first)


@pytest.fixture(autouse=True)
def no_unexpected_dialogs(monkeypatch: pytest.MonkeyPatch) -> None:
    def unexpected(*args: Any, **_kw: Any) -> Any:
        texts = [a for a in args if isinstance(a, str)]
        raise AssertionError(f"unexpected modal dialog: {texts}")

    for name in ("question", "information", "warning", "critical"):
        monkeypatch.setattr(QMessageBox, name, unexpected)


@pytest.fixture(autouse=True)
def english(qapp: Any) -> None:
    """As the app starts: English, with its plural forms ("1 memory", "2 memories")."""
    from desktop_mem.ui.app import install_language

    install_language(qapp, "en")


@pytest.fixture
def window(qtbot: Any, profile: Profile, home: Path) -> Iterator[MainWindow]:
    """The main window on the test's profile, connected to the fake server."""
    w = MainWindow(Service(profile), app_settings(home))
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: w.context.server.online, timeout=5000)
    # settled: what it starts with is done (search prepared for a new profile, say), so
    # nothing it started is still running when qtbot closes it after the test
    qtbot.waitUntil(lambda: tasks.busy() == 0, timeout=10000)
    yield w
    qtbot.waitUntil(lambda: tasks.busy() == 0, timeout=10000)
    # before the profile closes: nothing pending may touch it afterwards (qtbot closed it
    # already, and its deletion may have come first after a nested event loop)
    if shiboken6.isValid(w):
        w.close()
