"""What the window watches (issue 54, item 5): no filter sees every event of the
application; the one that gives the keyboard back after a dialog closes watches only the
window's dialogs that took the keyboard."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QDialog

from desktop_mem.ui.main_window import FocusBack, MainWindow
from tests.fakes.ollama_server import FakeOllama
from tests.ui.driving import send


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The events the window's focus filter is given (counted from its making on)."""
    got: list[int] = []
    original = FocusBack.eventFilter

    def counted(self: FocusBack, watched: QObject, event: QEvent) -> bool:
        got.append(int(event.type().value))
        return original(self, watched, event)

    monkeypatch.setattr(FocusBack, "eventFilter", counted)
    return got


def test_a_chat_turn_passes_no_event_through_the_windows_filters(
    qtbot: Any, seen: list[int], window: MainWindow, fake_ollama: FakeOllama
) -> None:
    """It was installed on the application: about 830 events of one turn went through it
    (the chat's repaints, timers, the status bar), each for nothing."""
    seen.clear()
    fake_ollama.reply("Hangzhou is lovely in spring.")
    window.activateWindow()
    send(qtbot, window, "Tell me about Hangzhou")
    assert window.chat.messages[-1].message_id is not None  # the turn ran, answer kept
    print(f"\nevents through the window's focus filter in one turn: {len(seen)}")
    assert seen == []


def test_the_keyboard_comes_back_when_a_dialog_of_the_window_closes(
    qtbot: Any, window: MainWindow
) -> None:
    dialog = QDialog(window.documents_page)  # a dialog of a page, not of the window itself
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.activateWindow()
    qtbot.waitUntil(dialog.isActiveWindow, timeout=5000)
    with qtbot.waitSignal(window.focus_back.later.timeout, timeout=5000):
        dialog.hide()
    qtbot.waitUntil(window.isActiveWindow, timeout=5000)


def test_a_passing_message_leaves_room_for_every_permanent_part_of_the_bar(
    qtbot: Any, window: MainWindow
) -> None:
    """At 800x600, a long sentence in the status bar ran under the facts an import found
    (a permanent part the import adds to the bar), cut mid-word where they met: it is cut
    with "…" before every permanent part showing, the whole sentence in the tooltip."""
    window.resize(800, 600)
    window.show()
    qtbot.waitExposed(window)
    found = window.imports.found
    found.setText("8 facts found in your imported conversations: <a href='#'>Review</a>")
    found.show()
    qtbot.waitUntil(lambda: found.width() > 100)
    sentence = (
        "3 memory changes written on old laptop after it was removed were undone here. "
        "Settings > Sync keeps their text until you dismiss them."
    )
    window.status_bar.show_message(sentence)
    bar = window.statusBar()
    shown = bar.currentMessage()
    assert shown.endswith("…") and bar.toolTip() == sentence
    room = bar.width() - found.width()
    assert bar.fontMetrics().horizontalAdvance(shown) < room
