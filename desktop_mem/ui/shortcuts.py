"""Every keyboard shortcut, defined once; the help dialog lists this table."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication
from PySide6.QtGui import QKeySequence

# name -> (key sequence, description source text; translated where shown). The
# descriptions are marked for lupdate with QT_TRANSLATE_NOOP, in place.
SHORTCUTS: dict[str, tuple[str, object]] = {
    "new_chat": ("Ctrl+N", QT_TRANSLATE_NOOP("shortcuts", "New conversation")),
    "incognito": ("Ctrl+Shift+N", QT_TRANSLATE_NOOP("shortcuts", "New incognito conversation")),
    "send": ("Enter", QT_TRANSLATE_NOOP("shortcuts", "Send the message")),
    "newline": ("Shift+Enter", QT_TRANSLATE_NOOP("shortcuts", "New line in the message")),
    "tab": ("Ctrl+Tab", QT_TRANSLATE_NOOP("shortcuts", "A tab in the message (Tab moves on)")),
    "stop": ("Esc", QT_TRANSLATE_NOOP("shortcuts", "Stop the answer, or stop editing")),
    "regenerate": ("Ctrl+R", QT_TRANSLATE_NOOP("shortcuts", "Regenerate the last answer")),
    "edit_last": ("Ctrl+E", QT_TRANSLATE_NOOP("shortcuts", "Edit the last message")),
    "focus_input": ("Ctrl+L", QT_TRANSLATE_NOOP("shortcuts", "Go to the message box")),
    "memories": ("Ctrl+M", QT_TRANSLATE_NOOP("shortcuts", "Show or hide the memory browser")),
    "search_memories": ("Ctrl+F", QT_TRANSLATE_NOOP("shortcuts", "Search memories")),
    "search_chats": ("Ctrl+Shift+F", QT_TRANSLATE_NOOP("shortcuts", "Search conversations")),
    "new_memory": ("Ctrl+Shift+M", QT_TRANSLATE_NOOP("shortcuts", "Write a new memory")),
    "delete_memory": ("Del", QT_TRANSLATE_NOOP("shortcuts", "Delete the selected memories")),
    "remove_documents": ("Del", QT_TRANSLATE_NOOP("shortcuts", "Remove the selected documents")),
    "add_memory": ("Ctrl+Enter", QT_TRANSLATE_NOOP("shortcuts", "Add the new memory")),
    "page_chat": ("Ctrl+1", QT_TRANSLATE_NOOP("shortcuts", "Go to Chat")),
    "page_memories": ("Ctrl+2", QT_TRANSLATE_NOOP("shortcuts", "Go to Memories")),
    "page_documents": ("Ctrl+3", QT_TRANSLATE_NOOP("shortcuts", "Go to Documents")),
    "settings": ("Ctrl+,", QT_TRANSLATE_NOOP("shortcuts", "Settings")),
    "help": ("F1", QT_TRANSLATE_NOOP("shortcuts", "Keyboard shortcuts")),
    "quit": ("Ctrl+Q", QT_TRANSLATE_NOOP("shortcuts", "Quit")),
}


def key(name: str) -> QKeySequence:
    return QKeySequence(SHORTCUTS[name][0])


def describe(name: str) -> str:
    return QCoreApplication.translate("shortcuts", str(SHORTCUTS[name][1]))
