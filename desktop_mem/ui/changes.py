"""What an answer taught, in words: the one table of change words the chat shows, for a
turn just answered and for one read back (the actions of core.chat.extract.Change)."""

from __future__ import annotations

import html
from collections.abc import Iterable

from PySide6.QtCore import QCoreApplication

from desktop_mem.core import textproc


def _words() -> dict[str, str]:
    return {
        "added": QCoreApplication.translate("Changes", "Remembered"),
        "updated": QCoreApplication.translate("Changes", "Updated"),
        "invalidated": QCoreApplication.translate("Changes", "Marked as no longer true"),
        "merged": QCoreApplication.translate("Changes", "Merged"),
    }


def describe(changes: Iterable[tuple[str, str]]) -> str:
    """(action, text) pairs as the notice under an answer (HTML, each text one line of
    at most 80 characters)."""
    words = _words()
    pattern = QCoreApplication.translate("Changes", "%1: %2")  # "%1：%2" in Chinese
    return " · ".join(
        pattern.replace("%1", words.get(action, action)).replace(
            "%2", html.escape(textproc.shorten(text, 80), quote=False)
        )
        for action, text in changes
    )


def undo_link() -> str:
    """The link after a notice of changes that can still be undone (TurnController.link)."""
    return ' — <a href="undo">' + QCoreApplication.translate("Changes", "Undo") + "</a>"
