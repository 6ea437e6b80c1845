"""The memory browser, driven as a user would: listing, searching, the drawer, adding,
editing, deleting, import, forgetting."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QLabel, QMessageBox

from desktop_mem.core.chat.records import UsedMemory
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.profile import Profile
from desktop_mem.ui.main_window import MainWindow
from desktop_mem.ui.memory_browser import NewMemoryDialog
from tests.fakes.ollama_server import FakeOllama
from tests.ui.driving import idle, send


def test_edit_pin_delete_from_the_browser(
    qtbot: Any, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = window.context.app.profile.memories
    m = store.add(NewMemory("I prefer green tea")).memory
    other = store.add(NewMemory("我喜欢跑步")).memory
    window.memories.refresh_memories()
    idle(qtbot, window)  # listed off the GUI thread
    assert window.browser.select(m.id)
    window.browser.drawer.text.setPlainText("I prefer black coffee")
    window.browser.drawer.save_button.click()
    qtbot.waitUntil(lambda: store.get(m.id).text == "I prefer black coffee", timeout=5000)
    idle(qtbot, window)
    assert window.browser.drawer.history.count() == 2
    window.browser.drawer.pin_button.click()
    idle(qtbot, window)  # pinned off the GUI thread
    assert store.get(m.id).pinned
    # restore the first version
    window.browser.drawer.history.setCurrentRow(0)
    window.browser.drawer.restore_button.click()
    qtbot.waitUntil(lambda: store.get(m.id).text == "I prefer green tea", timeout=5000)
    idle(qtbot, window)
    # search, Chinese
    window.browser.search.setText("跑步")
    qtbot.waitUntil(lambda: "match" in window.browser.count.text(), timeout=5000)
    assert window.browser.model.memory(0).id == other.id, "search order, best first"
    window.browser.search.clear()
    qtbot.waitUntil(lambda: not window.browser._timer.isActive(), timeout=5000)
    qtbot.waitUntil(lambda: window.browser.model.rowCount() == 2, timeout=5000)
    # delete with confirmation
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    window.browser.select(other.id)
    window.browser.drawer.delete_button.click()
    qtbot.waitUntil(lambda: store.count() == 1, timeout=5000)
    idle(qtbot, window)
    assert window.browser.model.rowCount() == 1


def test_forget_everything_needs_the_typed_word(qtbot: Any, window: MainWindow) -> None:
    window.context.app.profile.memories.add_many([NewMemory(f"memory {i}") for i in range(3)])

    def type_it() -> None:
        dialog = QApplication.activeModalWidget()
        assert not dialog.ok.isEnabled()
        dialog.entry.setText("FORGET")
        dialog.ok.click()

    QTimer.singleShot(100, type_it)
    window.memories.forget_all()
    qtbot.waitUntil(lambda: window.context.app.profile.memories.count() == 0, timeout=5000)
    idle(qtbot, window)


def test_import_shows_rejected_rows_and_imports_nothing(
    qtbot: Any, window: MainWindow, tmp_path: Path
) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("text,kind\nfine memory,fact\nbroken,nonsense-kind\n", encoding="utf-8")
    window.memories.import_memories(str(bad))
    qtbot.waitUntil(lambda: window.memories.import_box is not None, timeout=5000)
    assert "line 3" in window.memories.import_box.detailedText()
    assert window.context.app.profile.memories.count() == 0
    good = tmp_path / "good.md"
    good.write_text("- I like jasmine tea\n- 我住在杭州\n", encoding="utf-8")
    window.memories.import_memories(str(good))
    qtbot.waitUntil(lambda: window.context.app.profile.memories.count() == 2, timeout=5000)
    idle(qtbot, window)
    assert window.browser.model.rowCount() == 2
    out = tmp_path / "export.json"
    window.memories.export_memories(str(out))
    qtbot.waitUntil(out.exists, timeout=5000)
    idle(qtbot, window)
    assert "我住在杭州" in out.read_text(encoding="utf-8")


def test_delete_everything_needs_the_typed_word_and_leaves_nothing(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama
) -> None:
    send(qtbot, window, "Remember my locker code 4471")
    window.conversations.new_conversation()
    send(qtbot, window, "another chat")
    window.context.app.profile.memories.add_many([NewMemory(f"memory {i}") for i in range(3)])
    count = window.context.app.profile.memories.count()  # the three, and "remember …" from the chat
    assert count == 4

    shown: list[str] = []

    def type_it() -> None:
        dialog = QApplication.activeModalWidget()
        shown.append(dialog.findChild(QLabel).text())
        dialog.entry.setText("DELETE")
        dialog.ok.click()

    QTimer.singleShot(100, type_it)
    window.memories.delete_everything()
    assert "2 conversations and all 4 memories" in shown[0]
    qtbot.waitUntil(lambda: window.conversation_panel.model.count() == 0, timeout=5000)
    idle(qtbot, window)
    assert (
        window.context.app.profile.memories.count() == 0
        and window.context.app.profile.conversations.list() == []
    )
    assert window.browser.model.rowCount() == 0 and window.chat.messages == []
    send(qtbot, window, "a fresh start")  # and the app goes on
    assert window.conversation_panel.model.count() == 1


def test_an_idle_window_tidies_memories_by_itself(qtbot: Any, window: MainWindow) -> None:
    for _ in range(2):
        window.context.app.profile.memories.add(NewMemory("My cat Mochi is eleven years old"))
    window.sleeper.timer.setInterval(10)
    window.sleeper.user_active()  # counting quiet time from now
    qtbot.waitUntil(lambda: " tidied (" in window.statusBar().currentMessage(), timeout=20000)
    assert window.context.app.profile.memories.history(2)[-1].action == "merged into #1"
    assert not window.context.app.memories.idle_due(), "done for now"
    # typing stops a pass and restarts the quiet time
    window.sleeper.running = True
    window.chat.input.setPlainText("h")
    assert window.sleeper._stop.is_set() and window.sleeper.timer.isActive()
    window.sleeper.running = False


def test_a_deleted_memory_leaves_the_details_and_errors_speak_to_a_window_user(
    qtbot: Any, window: MainWindow, profile: Profile
) -> None:
    mem = profile.memories.add(NewMemory("I keep bees in the garden")).memory
    window.memories.refresh_memories()
    idle(qtbot, window)  # listed off the GUI thread
    window.memories.show_memory(mem.id)
    assert window.browser.current is not None and window.browser.drawer.save_button.isEnabled()
    window.memories.delete_memories([mem.id], confirm=False)
    idle(qtbot, window)
    assert window.browser.current is None
    assert (
        not window.browser.drawer.save_button.isEnabled()
        and window.browser.drawer.text.toPlainText() == ""
    )
    window.memories.save_memory(mem.id, "edited after deletion", "fact", 0.5)  # a stale form
    qtbot.waitUntil(lambda: getattr(window, "error_box", None) is not None, timeout=5000)
    text = window.error_box.text()
    assert "no longer exists" in text and "desktop-mem" not in text and "`" not in text


def test_the_details_form_neither_doubles_as_add_nor_restores_the_current_version(
    qtbot: Any, window: MainWindow, profile: Profile
) -> None:
    mem = profile.memories.add(NewMemory("I keep bees")).memory
    profile.memories.edit(mem.id, text="I keep bees in the garden")
    profile.memories.add(NewMemory("Allergic to peanuts", pinned=True))
    window.memories.refresh_memories()
    idle(qtbot, window)  # listed off the GUI thread
    assert window.browser.model.memory(0).pinned  # pinned first, as in the CLI
    window.memories.show_memory(mem.id)
    b = window.browser
    assert b.drawer.pages.currentWidget() is not b.drawer.placeholder  # the drawer shows the memory
    assert not b.drawer.restore_button.isEnabled()  # the current version: nothing to restore
    b.drawer.history.setCurrentRow(0)  # the first version: previewed, restorable
    assert b.drawer.text.toPlainText() == "I keep bees" and b.drawer.restore_button.isEnabled()
    assert "from a chat" not in b.drawer.origin.text()
    # "New memory" is its own action: a dialog, while the drawer keeps the shown memory
    b.new_button.click()
    dialog = b.findChild(NewMemoryDialog)
    assert dialog is not None and dialog.isVisible() and not dialog.add_button.isEnabled()
    assert b.current is not None and b.current.id == mem.id
    dialog.edit.setPlainText("Plays the cello")
    dialog.kind_box.setCurrentIndex(dialog.kind_box.findData("preference"))
    dialog.pin.setChecked(True)
    assert dialog.add_button.isEnabled()
    dialog.add_button.click()
    qtbot.waitUntil(lambda: any(m.text == "Plays the cello" for m in profile.memories.list()))
    added = next(m for m in profile.memories.list() if m.text == "Plays the cello")
    assert (added.kind, added.pinned, added.source) == ("preference", True, "user")
    idle(qtbot, window)
    # Nothing selected: the drawer says what it is for instead of an empty form
    b.list.clearSelection()
    b.show_details(None, [], [])
    assert b.drawer.pages.currentWidget() is b.drawer.placeholder


def test_a_memory_can_be_given_an_end_date_in_the_window(
    qtbot: Any, window: MainWindow, profile: Profile
) -> None:
    from PySide6.QtCore import QDate

    mem = profile.memories.add(NewMemory("Business trip to Tokyo next week")).memory
    window.memories.show_memory(mem.id)
    b = window.browser
    assert not b.drawer.has_until.isChecked()
    b.drawer.has_until.setChecked(True)
    b.drawer.until.setDate(QDate(2026, 12, 8))
    b.drawer.save_button.click()
    qtbot.waitUntil(lambda: profile.memories.get(mem.id).valid_until == "2026-12-08", timeout=5000)
    idle(qtbot, window)
    b.drawer.has_until.setChecked(False)  # and taken away again
    b.drawer.save_button.click()
    qtbot.waitUntil(lambda: profile.memories.get(mem.id).valid_until is None, timeout=5000)
    idle(qtbot, window)


def test_the_browser_reads_a_long_list_a_page_at_a_time(
    qtbot: Any, window: MainWindow, profile: Profile
) -> None:
    profile.memories.add_many([NewMemory(f"note number {n}") for n in range(620)])
    window.memories.refresh_memories()
    idle(qtbot, window)
    model = window.browser.model
    assert model.rowCount() == model.PAGE, "one page read, not every memory"
    assert window.browser.count.text() == "620 memories", "the count is of all of them"
    window.show_page("memories")
    bar = window.browser.list.verticalScrollBar()
    bar.setValue(bar.maximum())  # scrolling to the end reads the next page
    qtbot.waitUntil(lambda: model.rowCount() == 620, timeout=5000)


def test_delete_asks_first_and_a_reflexive_enter_keeps_the_memory(
    qtbot: Any, window: MainWindow, profile: Profile, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.ui.driving import ORIGINAL_QUESTION, press_in_next_box

    mem = profile.memories.add(NewMemory("I keep bees in the garden")).memory
    window.memories.refresh_memories()
    idle(qtbot, window)
    monkeypatch.setattr(QMessageBox, "question", ORIGINAL_QUESTION)  # the real dialog
    seen: list[str] = []
    press_in_next_box(Qt.Key.Key_Return, seen)
    window.memories.delete_memories([mem.id])
    idle(qtbot, window)
    assert "Delete 1 memory for good" in seen[0] and profile.memories.count() == 1
    # each sentence's plural follows its own number: one memory, four answers (issue 44)
    cid = profile.conversations.create().id
    for n in range(4):
        profile.conversations.add_message(
            cid, "assistant", f"Answer {n}", used=[UsedMemory(mem.id, 1, 1.0, mem.text)]
        )
    press_in_next_box(Qt.Key.Key_Return, seen)
    window.memories.delete_memories([mem.id])
    idle(qtbot, window)
    assert "Delete 1 memory for good, with its history? It shaped 4 answers." in seen[1]
    other = profile.memories.add(NewMemory("I play the cello")).memory
    profile.conversations.add_message(
        cid, "assistant", "Answer", used=[UsedMemory(other.id, 1, 1.0, other.text)]
    )
    press_in_next_box(Qt.Key.Key_Return, seen)
    window.memories.delete_memories([mem.id, other.id])
    idle(qtbot, window)
    assert "Delete 2 memories for good, with their history? They shaped 5 answers." in seen[2]
    assert profile.memories.count() == 2
    profile.memories.delete([other.id])
    press_in_next_box(Qt.Key.Key_Y, seen)  # Yes, chosen on purpose
    window.memories.delete_memories([mem.id])
    idle(qtbot, window)
    assert profile.memories.count() == 0
    assert "Deleted 1 memory." in window.statusBar().currentMessage()
    assert window.browser.list_pages.currentWidget() is window.browser.empty
    assert "No memories yet" in window.browser.empty.text(), "an empty list says so"


@pytest.mark.parametrize(
    "row",
    [
        "v1 · 2026-12-03 12:45 · 创建（你）： Works as a nurse at a hospital in Hangzhou",
        "v1 · 2026-12-03 12:45 · created (you): Works as a nurse at a hospital in Hangzhou",
    ],
)
def test_a_history_row_is_as_tall_as_its_text_wrapped(qtbot: Any, row: str) -> None:
    """A version too long for the drawer's width wraps onto the next lines instead of
    being cut off, in Chinese as in English: each row is drawn as tall as its text's
    lines are, each line as tall as its fonts make it (the view's delegate measured a
    Chinese line in the list's font, shorter than the fallback font it is drawn in, and
    cut the row at two lines of three). The drawer's width at 800x600."""
    from PySide6.QtGui import QTextLayout, QTextOption

    from desktop_mem.ui.memory_drawer import TEXT_MARGINS, WrappedList

    rows = WrappedList(400)
    qtbot.addWidget(rows)
    rows.resize(266, 100)
    rows.addItem(row)
    rows.addItem(row.replace("a hospital", "the children's hospital"))
    rows.show()
    qtbot.waitExposed(rows)
    QApplication.processEvents()

    def lines_height(text: str, width: int) -> tuple[int, float]:
        layout = QTextLayout(text, rows.font())
        wrap = QTextOption()
        wrap.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        layout.setTextOption(wrap)
        count, height = 0, 0.0
        layout.beginLayout()
        while (line := layout.createLine()).isValid():
            line.setLineWidth(width - TEXT_MARGINS)
            count, height = count + 1, height + line.height()
        layout.endLayout()
        return count, height

    for n in range(rows.count()):
        drawn = rows.visualItemRect(rows.item(n))
        assert drawn.width() <= rows.viewport().width()
        count, height = lines_height(rows.item(n).text(), drawn.width())
        assert count >= 3  # too long for one or two lines at this width
        assert drawn.height() >= height
    assert rows.height() >= sum(rows.visualItemRect(rows.item(n)).height() for n in range(2))
