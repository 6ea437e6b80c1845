"""The window's import: one door (the menu and the memory browser's Import…), what the
file holds said before anything is written, the facts shown in the review as the chat
model finds them in the background, the status bar's words for them, Reject all asked
and undone, a roomy editor for Edit and accept."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QMessageBox, QPlainTextEdit

from desktop_mem.ui.main_window import MainWindow
from tests.fakes.ollama_server import FakeOllama
from tests.ui.driving import idle

DATA = Path(__file__).resolve().parents[1] / "data" / "imports"


def confirm_box(qtbot: Any, window: MainWindow) -> QMessageBox:
    qtbot.waitUntil(lambda: window.imports.box is not None, timeout=10000)
    box = window.imports.box
    assert box is not None
    return box


class GatedModel:
    """The fake server's structured answers, one extraction at a time: each waits until
    the test lets it through, so the test sees the review while reading goes on. The
    other structured requests (how a fact relates to another) answer at once."""

    def __init__(self) -> None:
        self.gate = threading.Semaphore(0)
        self.asked = 0
        self.lock = threading.Lock()

    def __call__(self, body: dict[str, Any]) -> dict[str, Any]:
        if "memories" not in body["format"]["properties"]:
            return {"action": "ADD"}
        with self.lock:
            self.asked += 1
            n = self.asked
        assert self.gate.acquire(timeout=60), "the test never let this extraction through"
        return {"memories": [{"text": f"Keeps bees in hive number {n}", "kind": "fact"}]}


def _choose_in_file_dialog(monkeypatch: pytest.MonkeyPatch, path: Path, seen: list[str]) -> None:
    """The file dialog (Qt's) answers with `path`; what it would list is noted."""

    def chosen(_parent: Any, _title: str, _folder: str, filters: str) -> tuple[str, str]:
        seen.append(filters)
        return str(path), ""

    monkeypatch.setattr(QFileDialog, "getOpenFileName", chosen)


def test_import_says_what_it_found_then_shows_facts_as_they_are_found(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama
) -> None:
    app = window.context.app
    model = GatedModel()
    fake_ollama.json_responder = model
    window.imports.choose(str(DATA / "claude_conversations.json"))
    box = confirm_box(qtbot, window)
    assert box.text().splitlines() == [
        "This file is from Claude.",
        "3 new conversations, 8 messages (2024-04-10 to 2024-08-08)",
        "1 empty conversation: left out",
    ]
    assert app.counts()["messages"] == 0  # nothing written yet
    next(b for b in box.buttons() if b.text() == "Import").click()
    qtbot.waitUntil(lambda: window.imports.review is not None, timeout=10000)
    review = window.imports.review
    assert review is not None
    # at once: the review is open and the chat model reads in the background
    qtbot.waitUntil(lambda: review.isVisible() and window.imports.reading, timeout=10000)
    qtbot.waitUntil(lambda: model.asked == 1, timeout=10000)
    assert review.heading.text().startswith("Reading your imported messages for facts")
    assert review.stop_button.isVisible() and review.progress.isVisible()
    assert not window.imports.found.isVisible()  # the review is open: no status line

    model.gate.release()  # the first message's fact: it appears while reading goes on
    qtbot.waitUntil(lambda: len(review.proposals) == 1, timeout=10000)
    assert review.heading.text() == (
        "1 fact about you found so far in your Claude history. None is used until you accept it."
    )
    qtbot.waitUntil(lambda: review.reading.text() == "Read 1 of 4 messages.", timeout=10000)
    assert review.progress.value() == 1 and review.progress.maximum() == 4
    assert window.imports.reading and app.counts()["memories"] == 0

    for _ in range(3):
        model.gate.release()
    qtbot.waitUntil(lambda: not window.imports.reading, timeout=10000)
    qtbot.waitUntil(lambda: len(review.proposals) == 4, timeout=10000)
    assert review.heading.text().startswith("4 facts about you found in your Claude history.")
    assert not review.progress.isVisible() and not review.read_button.isVisible()
    texts = [review.items.item(i).text() for i in range(review.items.count())]
    assert texts[0] == "Facts" and texts[1].startswith(
        "Keeps bees in hive number 1    (from Claude"
    )

    # closed with facts waiting: the status bar says what happened, and opens it again
    review.close()
    qtbot.waitUntil(window.imports.found.isVisible, timeout=10000)
    assert window.imports.found.text() == (
        '4 facts found in your imported conversations: <a href="review">Review</a>'
    )
    assert "While you were away" not in window.statusBar().currentMessage()
    window.imports.found.linkActivated.emit("review")
    qtbot.waitUntil(review.isVisible, timeout=10000)
    assert not window.imports.found.isVisible()
    review.accept_all.click()
    assert app.counts()["memories"] == 4
    review.close()
    assert not window.imports.found.isVisible()
    idle(qtbot, window)


def test_the_memory_browsers_import_takes_every_export(
    qtbot: Any, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One door: the browser's Import… lists zips and JSON, takes ChatGPT's export and
    a memories file alike, and says what a file of the wrong kind is."""
    from tests import exports

    filters: list[str] = []
    export = exports.chatgpt_split_zip(tmp_path / "chatgpt-export.zip", count=3)
    _choose_in_file_dialog(monkeypatch, export, filters)
    window.browser.import_button.click()
    box = confirm_box(qtbot, window)
    assert filters[0].split(";;")[0] == (
        "Exports and memories (*.zip *.json *.txt *.md *.markdown *.csv)"
    )
    assert box.text().splitlines()[:2] == [
        "This file is from ChatGPT.",
        "3 new conversations, 12 messages (2025-01-01 to 2025-01-03)",
    ]
    assert "2 facts you told it about yourself: proposed for you to review" in box.text()
    box.reject()
    window.imports.box = None

    # this app's own memories file goes to the memory import, as before
    own = tmp_path / "memories.json"
    own.write_text(json.dumps({"format": "desktop-mem/memories", "version": 1,
                               "memories": [{"text": "Drinks oolong tea"}]}))  # fmt: skip
    _choose_in_file_dialog(monkeypatch, own, [])
    window.browser.import_button.click()
    qtbot.waitUntil(lambda: window.context.app.counts()["memories"] == 1, timeout=10000)

    # a file of another kind: what it is, and what to choose instead
    photo = tmp_path / "holiday.pdf"
    photo.write_bytes(b"%PDF-1.7\n%\xe2\xe3\n1 0 obj\n")
    _choose_in_file_dialog(monkeypatch, photo, [])
    window.browser.import_button.click()
    box = confirm_box(qtbot, window)
    assert box.windowTitle() == "Nothing was imported"
    assert box.text() == (
        "holiday.pdf is a PDF document, not an export this app reads: choose the zip that "
        "ChatGPT or Claude sent you (or the conversations.json in it), a mem0 or "
        "OpenMemory JSON file, or a list of memories one per line. Nothing was imported."
    )
    assert "UTF-8" not in box.text()
    box.reject()
    idle(qtbot, window)


def test_reject_all_asks_first_and_can_be_undone(qtbot: Any, window: MainWindow) -> None:
    app = window.context.app
    app.imports.run(DATA / "claude_export.zip", propose=False)
    window.imports.show_review()
    review = window.imports.review
    assert review is not None
    qtbot.waitUntil(lambda: len(review.proposals) == 4, timeout=10000)
    before = sorted(p.text for p in review.proposals)
    assert review.reject_all.text() == "Reject all…"
    review.reject_all.click()
    box = review.confirm
    assert box is not None and box.isVisible()
    assert box.text() == "Reject all 4 facts found in your imported history?"
    box.button(QMessageBox.StandardButton.Cancel).click()
    assert app.imports.counts()["waiting"] == 4  # asked, and nothing done

    review.reject_all.click()
    box = review.confirm
    next(b for b in box.buttons() if b.text() == "Reject all").click()
    qtbot.waitUntil(lambda: not review.proposals, timeout=10000)
    assert review.heading.text() == "No facts wait for review."
    assert review.undo_line.isVisible()
    assert review.undo_line.text() == 'Rejected 4 facts. <a href="undo">Undo</a>'
    assert app.imports.counts() == {"waiting": 0, "accepted": 0, "rejected": 4}

    review.undo_line.linkActivated.emit("undo")
    qtbot.waitUntil(lambda: len(review.proposals) == 4, timeout=10000)
    assert sorted(p.text for p in review.proposals) == before
    assert app.imports.counts()["waiting"] == 4 and not review.undo_line.isVisible()

    # a rejection can be undone while the review is open, not after
    for i in range(2, review.items.count()):
        review.items.item(i).setCheckState(Qt.CheckState.Unchecked)
    review.reject_button.click()
    assert review.undo_line.isVisible() and app.imports.counts()["rejected"] == 1
    review.close()
    window.imports.show_review()
    assert not review.undo_line.isVisible() and len(review.proposals) == 3
    review.close()
    idle(qtbot, window)


def test_edit_and_accept_gives_room_for_the_text(qtbot: Any, window: MainWindow) -> None:
    app = window.context.app
    app.imports.run(DATA / "claude_export.zip", propose=False)
    window.imports.show_review()
    review = window.imports.review
    assert review is not None
    qtbot.waitUntil(lambda: len(review.proposals) == 4, timeout=10000)
    review.items.setCurrentRow(1)
    review.edit_button.click()
    editor = review.editor
    assert editor is not None
    qtbot.waitUntil(editor.isVisible, timeout=10000)
    # a multi-line editor with room for a long fact, not a one-line box
    assert isinstance(editor.editor, QPlainTextEdit)
    assert editor.editor.width() >= 480 and editor.editor.height() >= 120
    assert editor.editor.toPlainText() == review.proposals[0].text
    editor.editor.setPlainText("Is a nurse in Leeds.\nWorks night shifts on Tuesdays.")
    editor.accept_button.click()
    qtbot.waitUntil(lambda: len(review.proposals) == 3, timeout=10000)
    kept = [m.text for m in app.memories.store.list()]
    assert kept == ["Is a nurse in Leeds. Works night shifts on Tuesdays."]  # one line kept
    review.close()
    idle(qtbot, window)


def test_an_idle_window_finds_facts_in_imported_history(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama
) -> None:
    app = window.context.app
    app.imports.run(DATA / "claude_conversations.json")
    fake_ollama.reply_json({"memories": [{"text": "Commutes 12 km to the hospital by bike"}]})
    window.sleeper.timer.setInterval(10)
    window.sleeper.user_active()  # counting quiet time from now
    qtbot.waitUntil(window.imports.found.isVisible, timeout=20000)
    # the words fit what happened: facts found in imported conversations, not "while
    # you were away"
    assert window.imports.found.text() == (
        '1 fact found in your imported conversations: <a href="review">Review</a>'
    )
    assert "While you were away" not in window.statusBar().currentMessage()
    qtbot.waitUntil(lambda: app.imports.to_read() == 0, timeout=20000)
    assert [p.text for p in app.imports.proposals()] == ["Commutes 12 km to the hospital by bike"]
    assert app.counts()["memories"] == 0  # proposed, not imposed
    idle(qtbot, window)


def test_an_imported_conversation_says_where_it_came_from(qtbot: Any, window: MainWindow) -> None:
    app = window.context.app
    app.imports.run(DATA / "chatgpt_conversations.json", propose=False)
    sour = next(c for c in app.conversations.list() if c.title.startswith("Sourdough"))
    window.conversations.open_conversation(sour.id)
    idle(qtbot, window)
    assert window.chat.title.text() == ("Sourdough starter schedule  ·  from ChatGPT, 2024-03-02")
    model = window.conversation_panel.list.model()
    qtbot.waitUntil(lambda: model.rowCount() >= 3, timeout=10000)
    tips = [
        str(model.index(r, 0).data(Qt.ItemDataRole.ToolTipRole) or "")
        for r in range(model.rowCount())
    ]
    assert any(t.endswith("from ChatGPT, 2024-03-02") for t in tips)
    idle(qtbot, window)


def test_the_review_says_which_fact_replaces_which(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    from tests.core.test_importing import _mover, _moves_export

    app = window.context.app
    fake_ollama.json_responder = _mover
    app.imports.run(_moves_export(tmp_path / "conversations.json"))
    app.imports.propose_facts()
    window.imports.show_review()
    review = window.imports.review
    assert review is not None
    qtbot.waitUntil(lambda: len(review.proposals) == 2, timeout=10000)
    texts = [review.items.item(i).text() for i in range(review.items.count())]
    assert texts[1:] == [
        "Lives in Lisbon    (from Claude, 2024-06-10)  replaces: Lives in Berlin (2023-02-01)",
        "Lives in Berlin    (from Claude, 2023-02-01)  replaced by: Lives in Lisbon "
        "(2024-06-10), kept as past",
    ]
    review.accept_all.click()
    qtbot.waitUntil(lambda: not review.proposals, timeout=10000)
    current = [m.text for m in app.memories.store.list(include_expired=False)]
    assert current == ["Lives in Lisbon"]


def test_an_import_goes_to_the_space_the_window_is_in(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    """As a new chat does: the confirmation says where the conversations go, a
    project to a space of its own, and they go there."""
    app = window.context.app
    fake_ollama.json_responder = lambda body: {"memories": []}
    work = app.spaces.create("Work").id
    window.context.space.choose(work)
    convs = json.loads((DATA / "chatgpt_conversations.json").read_text())
    convs[2]["conversation_template_id"] = "g-p-67a1b2c3d4e5f60718293a4b5c6d7e8f"
    export = tmp_path / "conversations.json"
    export.write_text(json.dumps(convs), encoding="utf-8")
    window.imports.choose(str(export))
    box = confirm_box(qtbot, window)
    assert box.informativeText().endswith(
        "\n\nThey go to Work, the space you are in.\nIts project goes to a space of its own."
    )
    next(b for b in box.buttons() if b.text() == "Import").click()
    qtbot.waitUntil(lambda: len(app.conversations.list()) == 3, timeout=10000)
    qtbot.waitUntil(lambda: not window.imports.reading, timeout=10000)
    project = app.spaces.find("ChatGPT project 1").id
    assert sorted(c.space for c in app.conversations.list()) == sorted([work, work, project])
    if window.imports.review is not None:
        window.imports.review.close()
    idle(qtbot, window)
