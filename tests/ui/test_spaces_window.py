"""Spaces in the window (issue 55, item 7), driven as a user would on the real window
and service: choosing the space beside the conversations, a chat in it given only that
space's memories, moving a conversation and memories, the memory browser's filter,
Settings > Spaces (make, rename, refuse, keep apart, delete moving or deleting what a
space holds), an app given a space, and documents added to and moved between spaces.
Every change shows by what the core announces, never a refresh by hand."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox, QPushButton

from desktop_mem.core.db.database import write_failed
from desktop_mem.core.documents.records import AddReport, Elsewhere
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.profile import Profile
from desktop_mem.core.service import Service
from desktop_mem.ui.app import app_settings
from desktop_mem.ui.apps_ui import AppsPage
from desktop_mem.ui.context import Context
from desktop_mem.ui.documents_ui import DocumentsPage
from desktop_mem.ui.main_window import MainWindow
from desktop_mem.ui.memory_drawer import MemoryDrawer
from desktop_mem.ui.spaces import ALL, data_of
from desktop_mem.ui.spaces_ui import SpaceDialog, SpacesPage
from tests.fakes.ollama_server import FakeOllama
from tests.ui.driving import idle, send
from tests.ui.test_events_follow import Refreshes


def choose(box: Any, choice: Any) -> None:
    """Choose an entry of a space box as a user does (activated, as a click is)."""
    row = box.findData(data_of(choice))
    assert row >= 0, f"{choice!r} is not offered: {[box.itemText(i) for i in range(box.count())]}"
    box.setCurrentIndex(row)
    box.activated.emit(row)


def shown_ids(window: MainWindow) -> set[int]:
    model = window.browser.model
    return {m.id for r in range(model.rowCount()) if (m := model.memory(r)) is not None}


def test_a_chat_started_in_a_space_is_given_that_space_and_the_shared_one_only(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama
) -> None:
    app = window.context.app
    work = app.spaces.create("Work").id
    family = app.spaces.create("Family").id
    app.profile.memories.add(NewMemory("My manager Priya wants the report by Friday", space=work))
    app.profile.memories.add(NewMemory("My sister Priya is getting married in March", space=family))
    app.profile.memories.add(NewMemory("I am allergic to peanuts"))
    panel = window.conversation_panel
    # the box beside the conversations follows the spaces made (announced)
    qtbot.waitUntil(lambda: panel.space_box.findData(str(family)) >= 0, timeout=5000)
    texts = [panel.space_box.itemText(i) for i in range(panel.space_box.count())]
    assert texts[:4] == ["All spaces", "Shared", "Family", "Work"]
    assert texts[-1] == "Manage spaces…"
    choose(panel.space_box, work)
    assert window.context.space.current == work
    panel.new_button.click()
    assert window.chat.space_badge.isVisible() and window.chat.space_badge.text() == "Work"
    assert "Space: Work" in window.status_bar.memory_status.text()
    fake_ollama.reply("Noted.")
    send(qtbot, window, "What does Priya want from me this week?")
    seen = fake_ollama.last_prompt()
    assert "My manager Priya wants the report by Friday" in seen
    assert "I am allergic to peanuts" in seen  # health: given in every space
    assert "married" not in seen, "another space's memory reached the prompt"
    cid = window.context.chat.conversation_id
    assert cid is not None and app.conversations.get(cid).space == work
    # the list shows the chosen space's conversations only; "All spaces" names each one's
    qtbot.waitUntil(lambda: panel.model.count() == 1, timeout=5000)
    choose(panel.space_box, family)
    qtbot.waitUntil(lambda: panel.model.count() == 0, timeout=5000)
    choose(panel.space_box, ALL)
    qtbot.waitUntil(lambda: panel.model.count() == 1, timeout=5000)
    from desktop_mem.ui.item_models import SPACE_ROLE

    row = panel.model.row_of(cid)
    assert panel.model.index(row).data(SPACE_ROLE) == "Work"
    # Move to space ▸ Family: the conversation, the chat's next turns and its header follow
    window.conversations.move_conversation(cid, family)
    qtbot.waitUntil(lambda: window.chat.space_badge.text() == "Family", timeout=5000)
    assert window.context.chat.space == family
    assert panel.model.index(panel.model.row_of(cid)).data(SPACE_ROLE) == "Family"
    fake_ollama.reply("Congratulations to her.")
    send(qtbot, window, "When is Priya getting married?")
    seen = fake_ollama.last_prompt()
    assert "married in March" in seen and "report by Friday" not in seen


def test_the_conversation_menu_offers_every_space_but_its_own(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama
) -> None:
    app = window.context.app
    work = app.spaces.create("Work").id
    fake_ollama.reply("Hi.")
    send(qtbot, window, "Hello there")
    cid = window.context.chat.conversation_id
    panel = window.conversation_panel
    qtbot.waitUntil(lambda: panel.model.row_of(cid) >= 0, timeout=5000)
    rect = panel.list.visualRect(panel.model.index(panel.model.row_of(cid)))
    seen: list[list[tuple[str, bool]]] = []

    def look() -> None:
        menu = QApplication.activePopupWidget()
        if menu is None:
            QTimer.singleShot(20, look)
            return
        move = next(a.menu() for a in menu.actions() if a.text() == "Move to space")
        seen.append([(a.text(), a.isEnabled()) for a in move.actions()])
        target = next(a for a in move.actions() if a.text() == "Work")
        menu.close()
        target.trigger()

    QTimer.singleShot(20, look)
    window.conversations.conversation_menu(rect.center())
    assert seen == [[("Shared (every space sees it)", False), ("Work", True)]]
    qtbot.waitUntil(lambda: app.conversations.get(cid).space == work, timeout=5000)
    qtbot.waitUntil(lambda: window.chat.space_badge.text() == "Work", timeout=5000)


def test_the_memory_browser_filters_by_space_and_moves_memories_with_their_history(
    qtbot: Any, window: MainWindow
) -> None:
    app = window.context.app
    work = app.spaces.create("Work").id
    shared = app.memories.add(NewMemory("Prefers tea to coffee")).memory.id
    report = app.memories.add(NewMemory("The quarterly report is due on Friday", space=work))
    window.show_page("memories")
    browser = window.browser
    qtbot.waitUntil(lambda: shown_ids(window) == {shared, report.memory.id}, timeout=5000)
    # "All spaces": each card says where it is
    from desktop_mem.ui.memory_cards import meta_line

    memory = app.memories.get(report.memory.id)
    assert "in Work" in meta_line(memory, spaces=browser.model.space_names)
    choose(browser.space_filter, work)
    qtbot.waitUntil(lambda: shown_ids(window) == {report.memory.id}, timeout=5000)
    assert browser.count.text() == "1 memory"
    choose(browser.space_filter, None)
    qtbot.waitUntil(lambda: shown_ids(window) == {shared}, timeout=5000)
    # a search searches the space chosen only
    browser.search.setText("report")
    qtbot.waitUntil(lambda: browser.count.text() == "No matches", timeout=5000)
    choose(browser.space_filter, work)
    qtbot.waitUntil(lambda: shown_ids(window) == {report.memory.id}, timeout=5000)
    browser.search.clear()
    choose(browser.space_filter, ALL)
    qtbot.waitUntil(lambda: len(shown_ids(window)) == 2, timeout=5000)
    # Move to space ▸ Shared on the selected card: its history says so
    assert browser.select(report.memory.id)
    qtbot.waitUntil(lambda: browser.current is not None, timeout=5000)
    drawer: MemoryDrawer = browser.drawer
    assert drawer.move_button.isVisible() and drawer.move_button.isEnabled()
    assert drawer.space.text() == "Work"
    browser.move_menu.aboutToShow.emit()
    labels = [(a.text(), a.isEnabled()) for a in browser.move_menu.actions()]
    assert labels == [("Shared (every space sees it)", True), ("Work", False)]
    browser.move_menu.actions()[0].trigger()
    qtbot.waitUntil(lambda: app.memories.get(report.memory.id).space is None, timeout=5000)
    qtbot.waitUntil(
        lambda: drawer.history.count() == 2 and "made shared" in drawer.history.item(1).text(),
        timeout=5000,
    )
    assert drawer.space.text().startswith("Shared")
    app.memories.move(report.memory.id, work)  # from elsewhere: shown alike
    qtbot.waitUntil(
        lambda: drawer.history.count() == 3 and "moved to Work" in drawer.history.item(2).text(),
        timeout=5000,
    )


def test_a_link_to_a_memory_of_another_space_shows_every_space(
    qtbot: Any, window: MainWindow
) -> None:
    app = window.context.app
    work = app.spaces.create("Work").id
    mid = app.memories.add(NewMemory("Standup is at nine", space=work)).memory.id
    window.show_page("memories")
    qtbot.waitUntil(lambda: window.browser.space_filter.findData(str(work)) >= 0, timeout=5000)
    choose(window.browser.space_filter, None)
    qtbot.waitUntil(lambda: mid not in shown_ids(window), timeout=5000)
    window.context.hub.memory_requested.emit(mid)
    qtbot.waitUntil(lambda: window.browser.current is not None, timeout=5000)
    assert window.browser.space_filter.currentData() == ALL
    qtbot.waitUntil(lambda: mid in shown_ids(window), timeout=5000)


@pytest.fixture
def page(qtbot: Any, profile: Profile, monkeypatch: pytest.MonkeyPatch) -> Any:
    calls = Refreshes(monkeypatch, SpacesPage, "refresh")
    context = Context(Service(profile), app_settings(profile.config.home))
    page = SpacesPage(context)
    qtbot.addWidget(page)
    calls.reset()

    def then(shown: Any) -> None:
        qtbot.waitUntil(lambda: calls.by_event > 0 and shown(), timeout=10000)
        assert calls.by_hand == [], "refreshed by hand after the spaces announced it"
        calls.reset()

    page.then = then
    return page


def names(page: SpacesPage) -> list[str]:
    return [page.table.item(r, 0).text() for r in range(page.table.rowCount())]


def test_settings_makes_renames_and_refuses_spaces_in_one_sentence(qtbot: Any, page: Any) -> None:
    assert names(page) == ["Shared"] and not page.delete_button.isEnabled()
    assert page.new_space("Thesis", "Answer as my supervisor would.")
    page.then(lambda: names(page) == ["Shared", "Thesis"])
    assert page.selected() is not None and page.selected().name == "Thesis"
    assert page.instruction.toPlainText() == "Answer as my supervisor would."
    # refused: one sentence a window user can act on
    assert not page.new_space("thesis")
    assert page.error.text() == "There is already a space named 'Thesis': choose another name."
    assert not page.new_space("Shared")
    assert "shared space" in page.error.text()
    assert not page.new_space("   ")
    assert page.error.text() == "A space needs a name."
    assert page.rename_space("Dissertation")
    page.then(lambda: names(page) == ["Shared", "Dissertation"])
    page.instruction.setPlainText("Cite sources.")
    assert page.save_instruction.isEnabled()
    page.save_instruction.click()
    page.then(lambda: page.ctx.app.spaces.list()[0].instruction == "Cite sources.")
    page.apart.click()
    page.then(lambda: page.table.item(1, 4).text() == "kept apart")
    assert page.ctx.app.spaces.list()[0].apart


def test_the_new_space_dialog_keeps_what_was_typed_when_a_name_is_refused(
    qtbot: Any, page: Any
) -> None:
    page.new_space("Work")
    page.then(lambda: "Work" in names(page))
    seen: list[str] = []

    def fill() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, SpaceDialog):
            QTimer.singleShot(20, fill)
            return
        dialog.name.setText("work")
        dialog.instruction.setPlainText("Be brief.")
        dialog._save()
        seen.append(dialog.error.text())
        dialog.name.setText("Clients")
        dialog._save()

    QTimer.singleShot(20, fill)
    assert page.new_space()
    assert seen == ["There is already a space named 'Work': choose another name."]
    page.then(lambda: names(page) == ["Shared", "Clients", "Work"])
    assert page.ctx.app.spaces.find("Clients").instruction == "Be brief."


def _answer(role_text: str, seen: list[str]) -> None:
    def look() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, look)
            return
        seen.append(box.text() + "\n" + box.informativeText())
        button = next(b for b in box.buttons() if b.text() == role_text)
        assert isinstance(button, QPushButton)
        button.click()

    QTimer.singleShot(20, look)


@pytest.mark.parametrize("contents", ["move", "delete"])
def test_deleting_a_space_asks_whether_to_move_or_delete_what_it_holds(
    qtbot: Any, page: Any, contents: str
) -> None:
    app = page.ctx.app
    work = app.spaces.create("Work").id
    page.then(lambda: names(page) == ["Shared", "Work"])
    mid = app.memories.add(NewMemory("The deploy is on Tuesday", space=work)).memory.id
    page.then(lambda: page.table.item(1, 1).text() == "1")
    page.select(work)
    seen: list[str] = []
    button = "Move them to the shared space" if contents == "move" else "Delete them for good"
    _answer(button, seen)
    assert page.remove_space()
    page.then(lambda: names(page) == ["Shared"])
    assert seen[0].startswith(
        "Delete the space “Work”? It holds 1 memory, 0 conversations, 0 documents."
    )
    left = {m.id: m.space for m in app.memories.list(scope=app.spaces.every())}
    assert left == ({mid: None} if contents == "move" else {})


def test_deleting_a_space_can_be_cancelled(qtbot: Any, page: Any) -> None:
    app = page.ctx.app
    work = app.spaces.create("Work").id
    page.then(lambda: names(page) == ["Shared", "Work"])
    page.select(work)
    seen: list[str] = []
    _answer("Cancel", seen)
    assert not page.remove_space()
    assert seen == ["Delete the space “Work”? It holds nothing.\n"]
    assert [s.name for s in app.spaces.list()] == ["Work"]


def test_an_app_is_given_the_spaces_ticked(
    qtbot: Any, profile: Profile, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = Service(profile)
    context = Context(service, app_settings(profile.config.home))
    calls = Refreshes(monkeypatch, AppsPage, "refresh")
    apps = AppsPage(service.apps, context.core, "work", home=tmp_path, spaces=service.spaces)
    qtbot.addWidget(apps)
    assert apps.connect_app("Cursor")
    qtbot.waitUntil(lambda: apps.table.rowCount() == 1, timeout=5000)
    apps.table.selectRow(0)
    ticks = [(a.text(), a.isChecked()) for a in apps.spaces_menu.actions()]
    assert ticks == [("Shared", True)] and apps.table.item(0, 4).text() == "Shared"
    assert apps.spaces_button.text() == "Shared"
    calls.reset()
    work = service.spaces.create("Work").id  # made elsewhere: the page follows
    qtbot.waitUntil(
        lambda: len(apps.spaces_menu.actions()) == 2 and calls.by_event > 0, timeout=5000
    )
    apps.spaces_menu.actions()[1].trigger()  # ticked: Work
    qtbot.waitUntil(lambda: apps.table.item(0, 4).text() == "Shared, Work", timeout=5000)
    assert service.apps.spaces_of(service.apps.get("Cursor")) == {None, work}
    assert apps.spaces_button.text() == "Shared, Work"
    apps.spaces_menu.actions()[0].trigger()  # unticked: Shared
    qtbot.waitUntil(lambda: apps.table.item(0, 4).text() == "Work", timeout=5000)
    assert service.apps.spaces_of(service.apps.get("Cursor")) == {work}
    assert calls.by_hand == [], "refreshed by hand after the registry announced it"
    apps.stop()


def _notes_and_pay(tmp_path: Path) -> tuple[Path, Path]:
    """A folder of notes (leave.md) and a file on its own (pay.md)."""
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "leave.md").write_text("# Leave\n\nTwenty days a year.\n", "utf-8")
    single = tmp_path / "pay.md"
    single.write_text("# Pay\n\nPaid on the last day of the month.\n", "utf-8")
    return folder, single


def test_documents_are_added_to_the_space_chosen_and_moved(
    qtbot: Any, profile: Profile, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, single = _notes_and_pay(tmp_path)
    service = Service(profile)
    work = service.spaces.create("Work").id
    calls = Refreshes(monkeypatch, DocumentsPage, "refresh")
    context = Context(service, app_settings(profile.config.home))
    docs = DocumentsPage(context)
    qtbot.addWidget(docs)
    choose(docs.space_box, work)
    assert context.space.current == work
    assert docs.add_files.toolTip() == "Added to the space Work"
    calls.reset()
    assert docs.add([single])
    qtbot.waitUntil(lambda: not docs.running and docs.table.rowCount() == 1, timeout=10000)
    assert docs.add([folder])
    qtbot.waitUntil(lambda: not docs.running and docs.table.rowCount() == 2, timeout=10000)
    assert {d.space for d in service.documents.list()} == {work}
    assert [f.space for f in service.documents.folders()] == [work]
    assert docs.table.item(0, 4).text() == "Work"
    assert calls.by_hand == [], "refreshed by hand after the documents announced it"
    # the shared space's documents: none yet (choosing a space lists again: no service call)
    choose(docs.space_box, None)
    qtbot.waitUntil(lambda: docs.table.rowCount() == 0, timeout=5000)
    choose(docs.space_box, ALL)
    qtbot.waitUntil(lambda: docs.table.rowCount() == 2, timeout=5000)
    calls.reset()
    pay = next(d.id for d in service.documents.list() if d.title == "pay.md")
    leave = next(d.id for d in service.documents.list() if d.title == "leave.md")
    row = next(r for r in range(2) if docs.table.item(r, 0).text() == "pay.md")
    docs.table.selectRow(row)
    assert docs.move_button.isEnabled()
    docs.move_menu.aboutToShow.emit()
    docs.move_menu.actions()[0].trigger()  # Shared
    qtbot.waitUntil(lambda: service.documents.get(pay).space is None, timeout=5000)
    # a watched folder's document moves with its folder
    row = next(r for r in range(2) if docs.table.item(r, 0).text() == "leave.md")
    docs.table.selectRow(row)
    assert not docs.move_button.isEnabled()
    assert docs.move_folder.isEnabled() and "Work" in docs.folders.currentText()
    docs.folder_menu.aboutToShow.emit()
    docs.folder_menu.actions()[0].trigger()
    qtbot.waitUntil(lambda: service.documents.get(leave).space is None, timeout=5000)
    qtbot.waitUntil(lambda: "Shared" in docs.folders.currentText(), timeout=5000)
    assert calls.by_hand == [], "refreshed by hand after the documents announced it"


def test_adding_again_in_another_space_says_where_it_stays(
    qtbot: Any, profile: Profile, tmp_path: Path
) -> None:
    """What was added to one space, added again in another, stays where it is and the
    status line says so, with how to move it (never a command to type)."""
    folder, single = _notes_and_pay(tmp_path)
    service = Service(profile)
    work = service.spaces.create("Work").id
    context = Context(service, app_settings(profile.config.home))
    docs = DocumentsPage(context)
    qtbot.addWidget(docs)
    said: list[str] = []
    docs.status.connect(said.append)
    choose(docs.space_box, work)
    for path in (single, folder):
        assert docs.add([path])
        qtbot.waitUntil(lambda: not docs.running, timeout=10000)
    choose(docs.space_box, None)  # the shared space
    said.clear()
    assert docs.add([single])
    qtbot.waitUntil(lambda: not docs.running and bool(said), timeout=10000)
    assert said[-1] == "pay.md is already in “Work” and stays there: Move to space moves it."
    assert docs.add([folder / "leave.md"])
    qtbot.waitUntil(lambda: not docs.running and len(said) == 2, timeout=10000)
    assert said[-1] == (
        "leave.md is in a watched folder of “Work” and stays there: move its folder to move it."
    )
    assert docs.add([folder])
    qtbot.waitUntil(lambda: not docs.running and len(said) == 3, timeout=10000)
    assert said[-1].startswith(f"The folder {folder} is already watched in “Work” and stays")
    assert docs.add([single, folder])
    qtbot.waitUntil(lambda: not docs.running and len(said) == 4, timeout=10000)
    assert (
        said[-1]
        == "2 of them are already in other spaces and stay there: Move to space moves them."
    )
    assert {d.space for d in service.documents.list()} == {work}
    assert not any("desktop-mem" in line for line in said)


def test_what_stays_elsewhere_does_not_hide_what_else_is_said(
    qtbot: Any, profile: Profile, tmp_path: Path, fake_ollama: FakeOllama
) -> None:
    """A file that stays in its space, added beside one the embedding model could not
    index: the status line says both (the sentence that it stays is added to what else
    is said, and stands alone only when nothing else is)."""
    single = tmp_path / "pay.md"
    single.write_text("# Pay\n\nPaid on the last day of the month.\n", "utf-8")
    new = tmp_path / "new.md"
    new.write_text("# New\n\nA file never added before.\n", "utf-8")
    service = Service(profile)
    work = service.spaces.create("Work").id
    docs = DocumentsPage(Context(service, app_settings(profile.config.home)))
    qtbot.addWidget(docs)
    said: list[str] = []
    docs.status.connect(said.append)
    choose(docs.space_box, work)
    assert docs.add([single])
    qtbot.waitUntil(lambda: not docs.running, timeout=10000)
    choose(docs.space_box, None)
    said.clear()
    fake_ollama.fail_next(500, times=20, paths=("/api/embed",))
    assert docs.add([single, new])
    qtbot.waitUntil(lambda: not docs.running and bool(said), timeout=20000)
    assert "pay.md is already in “Work” and stays there" in said[-1]
    assert said[-1].startswith("Documents: 1 added, 0 updated, 0 removed. 1 passage can be found")
    # nothing added, and the disk full: both said (the disk's sentence was dropped)
    full = write_failed(
        profile.config.home / "profile.db", sqlite3.OperationalError("database or disk is full")
    )
    stays = Elsewhere(str(single), work, service.documents.list()[0].id)
    text = docs.said(AddReport(stopped=full, elsewhere=[stays]))
    assert "is full: nothing was changed" in text and "stays there" in text
    assert docs.said(AddReport(elsewhere=[stays])).startswith("pay.md is already in “Work”")
    assert docs.said(AddReport(unchanged=[str(single)])) == ""  # nothing to say


def test_a_space_taken_out_under_a_new_chat_leaves_it_in_the_shared_space(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama
) -> None:
    app = window.context.app
    work = app.spaces.create("Work").id
    panel = window.conversation_panel
    qtbot.waitUntil(lambda: panel.space_box.findData(str(work)) >= 0, timeout=5000)
    choose(panel.space_box, work)
    panel.new_button.click()
    assert window.context.chat.space == work
    app.spaces.remove(work, "move")
    qtbot.waitUntil(lambda: window.context.chat.space is None, timeout=5000)
    assert window.context.space.current == ALL
    assert not window.chat.space_badge.isVisible()  # no space but the shared one: unsaid
    fake_ollama.reply("Hi.")
    send(qtbot, window, "Hello")
    cid = window.context.chat.conversation_id
    assert cid is not None and app.conversations.get(cid).space is None
    idle(qtbot, window)


def test_manage_spaces_opens_settings_at_spaces(qtbot: Any, window: MainWindow) -> None:
    shown: list[str] = []

    def look() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QDialog) or not hasattr(dialog, "tabs"):
            QTimer.singleShot(20, look)
            return
        shown.append(dialog.tabs.tabText(dialog.tabs.currentIndex()))
        dialog.reject()

    QTimer.singleShot(20, look)
    box = window.conversation_panel.space_box
    row = box.findData("manage")
    box.setCurrentIndex(row)
    box.activated.emit(row)
    assert shown == ["Spaces"]
    assert box.currentData() == data_of(window.context.space.current)


def test_what_a_space_learns_for_everywhere_is_said_and_can_be_kept_in_the_space(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama
) -> None:
    """A chat in Work learns where the person lives: that applies everywhere, so it is
    kept in the shared space, and the line under the answer says so, with a way to keep
    it in Work instead; what concerns the work stays in Work without a word."""
    app = window.context.app
    work = app.spaces.create("Work").id
    panel = window.conversation_panel
    qtbot.waitUntil(lambda: panel.space_box.findData(str(work)) >= 0, timeout=5000)
    choose(panel.space_box, work)
    panel.new_button.click()
    fake_ollama.reply_json(
        {"memories": [
            {"text": "Lives in Hangzhou with a cat named Mochi", "kind": "fact"},
            {"text": "Presents the Q3 roadmap on Friday", "kind": "event"},
        ]}
    )  # fmt: skip
    send(qtbot, window, "I live in Hangzhou with Mochi, and I present the roadmap Friday")
    answer = window.chat.messages[-1]
    qtbot.waitUntil(lambda: "Kept in the shared space" in answer.notice.text(), timeout=10000)
    notice = answer.notice.text()
    assert "Lives in Hangzhou" in notice.split("Kept in the shared space")[1]
    assert "roadmap" not in notice.split("Kept in the shared space")[1]
    home = next(m for m in app.memories.list(scope=app.spaces.every()) if "Hangzhou" in m.text)
    assert home.space is None
    href = next(h for h in notice.split('"') if h.startswith("keep:"))
    answer.notice.linkActivated.emit(href)
    qtbot.waitUntil(lambda: app.memories.get(home.id).space == work, timeout=10000)
    qtbot.waitUntil(lambda: "Kept in the shared space" not in answer.notice.text(), timeout=5000)
    assert [v.action for v in app.memories.history(home.id)] == ["created", "moved"]
