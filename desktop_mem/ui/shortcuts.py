"""Every keyboard shortcut, defined once; the help dialog lists this table."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QKeySequence

# name -> (key sequence, description source text; translated where shown)
SHORTCUTS: dict[str, tuple[str, str]] = {
    "new_chat": ("Ctrl+N", "New conversation"),
    "incognito": ("Ctrl+Shift+N", "New incognito conversation"),
    "send": ("Enter", "Send the message"),
    "newline": ("Shift+Enter", "New line in the message"),
    "stop": ("Esc", "Stop the answer"),
    "regenerate": ("Ctrl+R", "Regenerate the last answer"),
    "edit_last": ("Ctrl+E", "Edit the last message"),
    "focus_input": ("Ctrl+L", "Go to the message box"),
    "memories": ("Ctrl+M", "Show or hide the memory browser"),
    "search_memories": ("Ctrl+F", "Search memories"),
    "search_chats": ("Ctrl+Shift+F", "Search conversations"),
    "settings": ("Ctrl+,", "Settings"),
    "help": ("F1", "Keyboard shortcuts"),
    "quit": ("Ctrl+Q", "Quit"),
}


def key(name: str) -> QKeySequence:
    return QKeySequence(SHORTCUTS[name][0])


def describe(name: str) -> str:
    return QCoreApplication.translate("shortcuts", SHORTCUTS[name][1])


# The descriptions, for lupdate (it reads translate() calls with literal strings).
def _for_translators() -> None:  # pragma: no cover - never called
    QCoreApplication.translate("shortcuts", "New conversation")
    QCoreApplication.translate("shortcuts", "New incognito conversation")
    QCoreApplication.translate("shortcuts", "Send the message")
    QCoreApplication.translate("shortcuts", "New line in the message")
    QCoreApplication.translate("shortcuts", "Stop the answer")
    QCoreApplication.translate("shortcuts", "Regenerate the last answer")
    QCoreApplication.translate("shortcuts", "Edit the last message")
    QCoreApplication.translate("shortcuts", "Go to the message box")
    QCoreApplication.translate("shortcuts", "Show or hide the memory browser")
    QCoreApplication.translate("shortcuts", "Search memories")
    QCoreApplication.translate("shortcuts", "Search conversations")
    QCoreApplication.translate("shortcuts", "Settings")
    QCoreApplication.translate("shortcuts", "Keyboard shortcuts")
    QCoreApplication.translate("shortcuts", "Quit")
