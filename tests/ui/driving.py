"""What the window tests share: driving the chat as a user does, and waiting for the
window's background work to finish (on observed progress, never on time)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox

from desktop_mem.ui import tasks
from desktop_mem.ui.main_window import MainWindow

HANGZHOU = {"memories": [{"text": "Lives in Hangzhou with a cat named Mochi", "kind": "fact"}]}


def idle(qtbot: Any, w: MainWindow) -> None:
    qtbot.waitUntil(lambda: not w.context.chat.busy and tasks.busy() == 0, timeout=10000)


def send(qtbot: Any, w: MainWindow, text: str) -> None:
    w.chat.input.setPlainText(text)
    qtbot.keyClick(w.chat.input, Qt.Key.Key_Return)
    idle(qtbot, w)


ORIGINAL_QUESTION = QMessageBox.question  # as Qt has it (tests/ui/conftest.py guards it)


def press_in_next_box(key: Qt.Key, seen: list[str]) -> None:
    """When the next message box opens, note its text (and its informative text) and
    press `key` in it as a user would: Enter takes the default button."""

    def look() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, look)
            return
        seen.append(box.text() + "\n" + box.informativeText())
        QTest.keyClick(box, key)

    QTimer.singleShot(20, look)


def marked_pixels(view: Any) -> int:
    """How many pixels of a list's viewport are painted in a search's mark colour (on a
    selected row or not)."""
    from desktop_mem.ui.highlight import mark_color

    image = view.viewport().grab().toImage()
    marks = {mark_color(view.palette(), s).rgb() for s in (False, True)}
    return sum(
        1
        for y in range(0, image.height())
        for x in range(0, image.width())
        if image.pixel(x, y) in marks
    )
