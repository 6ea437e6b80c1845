"""The window's Import from ChatGPT, Claude…: what the file holds is said before anything
is written; the facts found are reviewed (accept all, reject all, each ticked, edited)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from desktop_mem.ui.main_window import MainWindow
from tests.fakes.ollama_server import FakeOllama
from tests.ui.driving import idle

DATA = Path(__file__).resolve().parents[1] / "data" / "imports"


def confirm_box(qtbot: Any, window: MainWindow) -> QMessageBox:
    qtbot.waitUntil(lambda: window.imports.box is not None, timeout=10000)
    box = window.imports.box
    assert box is not None
    return box


def test_import_says_what_it_found_then_reviews_the_facts(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama
) -> None:
    app = window.context.app
    window.imports.import_history(str(DATA / "claude_export.zip"))
    box = confirm_box(qtbot, window)
    assert box.text().splitlines() == [
        "This file is from Claude.",
        "3 new conversations, 8 messages (2024-04-10 to 2024-08-08)",
        "1 empty conversation: left out",
        "4 saved memories: proposed for you to review",
        "1 project: instructions proposed for review, documents kept with your conversations",
    ]
    assert app.counts()["messages"] == 0  # nothing written yet
    import_button = next(b for b in box.buttons() if b.text() == "Import")
    import_button.click()
    qtbot.waitUntil(lambda: window.imports.review is not None, timeout=10000)
    review = window.imports.review
    assert review is not None
    qtbot.waitUntil(review.isVisible, timeout=10000)
    idle(qtbot, window)
    assert app.counts()["messages"] == 8 + 2  # and the Allotment project's two
    # the facts all come from one service's history: it is named
    assert review.heading.text().startswith("5 facts about you found in your Claude history.")
    assert "4 of your imported messages not yet read" in review.reading.text()
    assert app.counts()["memories"] == 0

    fake_ollama.reply_json({"memories": [{"text": "Commutes 12 km to the hospital by bike"}]})
    review.read_button.click()
    qtbot.waitUntil(lambda: app.imports.to_read() == 0, timeout=10000)
    idle(qtbot, window)
    qtbot.waitUntil(lambda: len(review.proposals) == 6, timeout=10000)
    texts = [review.items.item(i).text() for i in range(review.items.count())]
    assert texts[0] == "Facts"
    assert "Commutes 12 km to the hospital by bike    (from Claude, 2024-04-10)" in texts
    assert texts[-2:] == [
        "Notes",
        "In my Claude project \u201cAllotment\u201d: I have a 10 by 5 metre allotment plot in "
        "Leeds.    (from Claude, 2024-02-02)",
    ]

    # untick all but the first, accept it; edit one; reject the rest
    first = review.items.item(1)
    for i in range(2, review.items.count()):
        review.items.item(i).setCheckState(Qt.CheckState.Unchecked)
    review.accept_button.click()
    assert app.counts()["memories"] == 1 and len(review.proposals) == 5
    assert first is not None
    review.reject_all.click()
    assert review.heading.text() == "No facts wait for review."
    assert app.counts()["memories"] == 1
    review.close()
    idle(qtbot, window)  # the memory list read again after the accept: done before closing


def test_an_idle_window_finds_facts_in_imported_history(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama
) -> None:
    app = window.context.app
    app.imports.run(DATA / "claude_conversations.json")
    fake_ollama.reply_json({"memories": [{"text": "Commutes 12 km to the hospital by bike"}]})
    window.sleeper.timer.setInterval(10)
    window.sleeper.user_active()  # counting quiet time from now
    qtbot.waitUntil(
        lambda: "1 fact about you was found" in window.statusBar().currentMessage(),
        timeout=20000,
    )
    assert app.imports.to_read() == 0
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
