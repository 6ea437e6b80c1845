"""The chat reads like the apps people know (issue 30): the newest exchange in view as it
streams, a readable column on a wide window, answer versions kept on Regenerate and
Edit with a "‹ 2/3 ›" switcher, an editing state, a keyboard that never gets trapped,
and a document chip that always shows its passage."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QPushButton

from desktop_mem.core.profile import Profile
from desktop_mem.ui.chat_view import COLUMN
from desktop_mem.ui.main_window import MainWindow
from desktop_mem.ui.message_widget import MessageWidget
from desktop_mem.ui.passage_dialog import PassageDialog
from tests.fakes.ollama_server import FakeOllama
from tests.ui.driving import idle, send


def _long_conversation(profile: Profile, turns: int = 25) -> int:
    store = profile.conversations
    cid = store.create("A long one").id
    for n in range(turns):
        store.add_message(cid, "user", f"question {n}: " + "tell me more " * 20)
        store.add_message(cid, "assistant", f"answer {n}: " + "here is more " * 40)
    return cid


def _bottom_in_view(window: MainWindow, widget: MessageWidget) -> bool:
    view = window.chat.scroll_area.viewport()
    bottom = widget.mapTo(view, QPoint(0, widget.height())).y()
    return 0 < bottom <= view.height() + 2


def test_the_newest_exchange_is_in_view_as_it_streams(
    qtbot: Any, window: MainWindow, profile: Profile, fake_ollama: FakeOllama
) -> None:
    window.resize(1000, 700)
    cid = _long_conversation(profile)
    window.conversations.open_conversation(cid)
    idle(qtbot, window)
    qtbot.waitUntil(lambda: _bottom_in_view(window, window.chat.messages[-1]), timeout=5000)
    fake_ollama.reply(" ".join(f"word{i}" for i in range(600)), chunk_delay=0.005)
    window.chat.input.setPlainText("and one more question")
    qtbot.keyClick(window.chat.input, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: len(window.chat.messages[-1].text()) > 1500, timeout=10000)
    answer = window.chat.messages[-1]
    qtbot.waitUntil(lambda: _bottom_in_view(window, answer), timeout=2000)  # mid-stream
    idle(qtbot, window)
    qtbot.waitUntil(lambda: _bottom_in_view(window, answer), timeout=2000)  # and at its end
    # a reader who scrolls up while an answer streams is left where they are
    fake_ollama.reply(" ".join(f"more{i}" for i in range(600)), chunk_delay=0.005)
    window.chat.input.setPlainText("one last question")
    qtbot.keyClick(window.chat.input, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: len(window.chat.messages[-1].text()) > 100, timeout=10000)
    bar = window.chat.scroll_area.verticalScrollBar()
    bar.setValue(0)
    idle(qtbot, window)
    assert bar.value() == 0


def test_a_wide_window_reads_in_a_centred_column(qtbot: Any, window: MainWindow) -> None:
    window.resize(1900, 900)
    qtbot.waitUntil(lambda: window.chat.width() > COLUMN + 200, timeout=5000)
    column = window.chat.input.parentWidget()
    assert column.width() <= COLUMN, "about 90 characters a line, not the window's width"
    left = column.mapTo(window.chat, QPoint(0, 0)).x()
    right = window.chat.width() - (left + column.width())
    assert abs(left - right) <= 2, "centred"


def test_regenerate_and_edit_keep_the_earlier_versions_behind_a_switcher(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama
) -> None:
    fake_ollama.reply("first answer")
    send(qtbot, window, "question one")
    fake_ollama.reply("second answer")
    window.chat.messages[-1].redo_button.click()  # Regenerate
    idle(qtbot, window)
    answer = window.chat.messages[-1]
    assert answer.text() == "second answer" and answer.version_label.text() == "2/2"
    assert answer.previous_button.isVisibleTo(window) and not answer.next_button.isEnabled()
    answer.previous_button.click()
    assert [m.text() for m in window.chat.messages] == ["question one", "first answer"]
    assert window.chat.messages[-1].version_label.text() == "1/2"
    cid = window.context.chat.conversation_id
    window.conversations.new_conversation(False)
    window.conversations.open_conversation(cid)  # the choice is kept
    assert window.chat.messages[-1].text() == "first answer"
    # Edit shows that a message is being edited; Esc stops editing and changes nothing
    question = window.chat.messages[0]
    question.redo_button.click()
    assert window.chat.edit_bar.isVisibleTo(window) and question.property("editing")
    assert window.chat.input.toPlainText() == "question one"
    qtbot.keyClick(window.chat.input, Qt.Key.Key_Escape)
    assert not window.chat.edit_bar.isVisibleTo(window) and not question.property("editing")
    assert window.chat.input.toPlainText() == ""
    window.chat.edit_last_message()  # Ctrl+E
    window.chat.input.setPlainText("question two")
    qtbot.keyClick(window.chat.input, Qt.Key.Key_Return)
    idle(qtbot, window)
    assert [m.text() for m in window.chat.messages] == ["question two", "You said: question two"]
    edited = window.chat.messages[0]
    assert edited.version_label.text() == "2/2" and not window.chat.edit_bar.isVisibleTo(window)
    edited.previous_button.click()  # the first question, with the answer chosen for it
    assert [m.text() for m in window.chat.messages] == ["question one", "first answer"]


def test_tab_moves_the_focus_and_ctrl_tab_is_a_tab(qtbot: Any, window: MainWindow) -> None:
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=5000)
    composer = window.chat.input
    composer.setFocus()
    qtbot.waitUntil(composer.hasFocus, timeout=2000)
    composer.setPlainText("def f():")
    composer.moveCursor(composer.textCursor().MoveOperation.End)
    qtbot.keyClick(composer, Qt.Key.Key_Tab, Qt.KeyboardModifier.ControlModifier)
    assert composer.toPlainText() == "def f():\t"
    qtbot.keyClick(composer, Qt.Key.Key_Tab)
    assert not composer.hasFocus(), "Tab leaves the message box"
    assert "\t\t" not in composer.toPlainText()
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Backtab)
    assert composer.hasFocus(), "Shift+Tab comes back"


def test_a_new_memory_is_written_by_keyboard_alone(
    qtbot: Any, window: MainWindow, profile: Profile
) -> None:
    window.activateWindow()
    dialog = window.browser.new_memory()
    qtbot.waitUntil(dialog.isVisible, timeout=2000)
    dialog.activateWindow()
    qtbot.waitUntil(dialog.isActiveWindow, timeout=2000)
    dialog.edit.setFocus()
    qtbot.keyClicks(dialog.edit, "I am vegetarian")
    qtbot.keyClick(dialog.edit, Qt.Key.Key_Tab)
    assert dialog.kind_box.hasFocus() and dialog.edit.toPlainText() == "I am vegetarian"
    dialog.edit.setFocus()
    qtbot.keyClick(dialog.edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: [m.text for m in profile.memories.list()] == ["I am vegetarian"])
    idle(qtbot, window)


def test_a_document_chip_shows_its_passage_even_with_no_file_viewer(
    qtbot: Any, window: MainWindow, profile: Profile, fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    (tmp_path / "handbook.md").write_text(
        "# Handbook\n\n## Leave\n\nAnnual leave is twenty-five days per year.\n", "utf-8"
    )
    profile.documents.add(tmp_path / "handbook.md")
    fake_ollama.reply("Twenty-five days.")
    send(qtbot, window, "How many days of annual leave per year do I get?")
    chips = window.chat.messages[-1].chip_row.findChildren(QPushButton)
    chip = next(c for c in chips if c.text().startswith("handbook.md"))
    chip.click()
    dialog = window.findChild(PassageDialog)
    assert dialog is not None and dialog.isVisible()
    assert "twenty-five days" in dialog.text.toPlainText()
    assert dialog.path.text() == str(tmp_path / "handbook.md")
    dialog.reject()
