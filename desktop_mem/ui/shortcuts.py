"""Every keyboard shortcut, defined once; the help dialog lists this table."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication
from PySide6.QtGui import QKeySequence

# name -> (key sequence, description source text; translated where shown). The
# descriptions are marked for lupdate with QT_TRANSLATE_NOOP, in place.
SHORTCUTS: dict[str, tuple[str, str]] = {
    "new_chat": ("Ctrl+N", QT_TRANSLATE_NOOP("shortcuts", "New conversation")),
    "incognito": ("Ctrl+Shift+N", QT_TRANSLATE_NOOP("shortcuts", "New incognito conversation")),
    "send": ("Enter", QT_TRANSLATE_NOOP("shortcuts", "Send the message")),
    "newline": ("Shift+Enter", QT_TRANSLATE_NOOP("shortcuts", "New line in the message")),
    "stop": ("Esc", QT_TRANSLATE_NOOP("shortcuts", "Stop the answer")),
    "regenerate": ("Ctrl+R", QT_TRANSLATE_NOOP("shortcuts", "Regenerate the last answer")),
    "edit_last": ("Ctrl+E", QT_TRANSLATE_NOOP("shortcuts", "Edit the last message")),
    "focus_input": ("Ctrl+L", QT_TRANSLATE_NOOP("shortcuts", "Go to the message box")),
    "memories": ("Ctrl+M", QT_TRANSLATE_NOOP("shortcuts", "Show or hide the memory browser")),
    "search_memories": ("Ctrl+F", QT_TRANSLATE_NOOP("shortcuts", "Search memories")),
    "search_chats": ("Ctrl+Shift+F", QT_TRANSLATE_NOOP("shortcuts", "Search conversations")),
    "settings": ("Ctrl+,", QT_TRANSLATE_NOOP("shortcuts", "Settings")),
    "help": ("F1", QT_TRANSLATE_NOOP("shortcuts", "Keyboard shortcuts")),
    "quit": ("Ctrl+Q", QT_TRANSLATE_NOOP("shortcuts", "Quit")),
}


def key(name: str) -> QKeySequence:
    return QKeySequence(SHORTCUTS[name][0])


def describe(name: str) -> str:
    return QCoreApplication.translate("shortcuts", SHORTCUTS[name][1])
