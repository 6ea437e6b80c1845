"""A modal dialog nobody answers would hang the suite: any that a test does not expect
fails it instead, with the dialog's text."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtWidgets import QMessageBox


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
