"""Memories › About you, driven on the real widgets: the lines and what each cites (a
click opens the memory), rewrite now with its progress, edit (kept as written), remove
(it does not come back), off (not given), a forgotten memory's line gone at once; and
under each answer, chips for the lines it was given."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QInputDialog

from desktop_mem.core.memory.store import NewMemory
from desktop_mem.ui.about_dialog import AboutDialog, LineRow
from desktop_mem.ui.main_window import MainWindow
from tests.fakes.ollama_server import FakeOllama
from tests.ui.driving import idle, send

FACTS = ["I teach chemistry at a secondary school", "I live in Leeds", "我养了一只柯基，叫豆豆"]


def _open(qtbot: Any, window: MainWindow) -> AboutDialog:
    action = next(
        a for a in window.menuBar().actions()[1].menu().actions() if a.text() == "About you…"
    )
    action.trigger()
    dialog = window.about_you
    assert dialog is not None and dialog.isVisible()
    return dialog


def _rows(dialog: AboutDialog) -> list[LineRow]:
    rows = [dialog.items.itemWidget(dialog.items.item(i)) for i in range(dialog.items.count())]
    return [r for r in rows if isinstance(r, LineRow)]


def _remember(window: MainWindow) -> list[int]:
    app = window.context.app
    return [app.memories.add(NewMemory(t, source="user")).memory.id for t in FACTS]


def test_the_lines_cite_memories_and_a_click_opens_one(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama
) -> None:
    dialog = _open(qtbot, window)
    assert dialog.empty.isVisible() and "Once you have told the assistant" in dialog.empty.text()
    assert not dialog.rewrite_button.isEnabled()
    ids = _remember(window)
    qtbot.waitUntil(lambda: dialog.rewrite_button.isEnabled())
    assert "Rewrite now" in dialog.empty.text()
    dialog.rewrite_button.click()
    assert "Writing it from your memories" in dialog.status.text()
    qtbot.waitUntil(lambda: dialog.status.text() == "Rewritten: 3 lines.", timeout=10000)
    assert len(_rows(dialog)) == 3 and dialog.rewrite_button.isEnabled()
    texts = [r.text.text() for r in _rows(dialog)]
    assert sorted(texts) == sorted(FACTS)
    row = _rows(dialog)[texts.index("I live in Leeds")]
    assert "From: " in row.cites.text() and f'href="memory:{ids[1]}"' in row.cites.text()
    row.cites.linkActivated.emit(f"memory:{ids[1]}")
    qtbot.waitUntil(lambda: window.browser.current is not None)
    assert window.page() == "memories" and window.browser.current.text == "I live in Leeds"


def test_edit_remove_and_a_forgotten_memory(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama
) -> None:
    ids = _remember(window)
    window.context.app.about.rewrite()
    dialog = _open(qtbot, window)
    assert len(_rows(dialog)) == 3
    # edit: the user's words, kept as written, marked as theirs
    dialog.items.setCurrentRow([r.text.text() for r in _rows(dialog)].index(FACTS[0]))
    dialog.edit_button.click()
    editor = dialog.editor
    assert isinstance(editor, QInputDialog) and editor.textValue() == FACTS[0]
    editor.setTextValue("Head of chemistry, call me Ms. Okafor")
    editor.accept()
    qtbot.waitUntil(lambda: any("Ms. Okafor" in r.text.text() for r in _rows(dialog)))
    mine = next(r for r in _rows(dialog) if r.text.text().startswith("Head of"))
    assert mine.cites.text().startswith("In your words. From: ")
    assert "rewrite keeps it" in dialog.status.text()
    # remove: gone, and the rewrite does not bring it back
    dialog.items.setCurrentRow([r.text.text() for r in _rows(dialog)].index("I live in Leeds"))
    dialog.remove_button.click()
    qtbot.waitUntil(lambda: len(_rows(dialog)) == 2)
    assert "does not come back" in dialog.status.text()
    dialog.rewrite_button.click()
    qtbot.waitUntil(lambda: not dialog.rewriting, timeout=10000)
    texts = [r.text.text() for r in _rows(dialog)]
    assert "I live in Leeds" not in texts and texts[0] == "Head of chemistry, call me Ms. Okafor"
    # a memory forgotten in the browser takes the line citing it, at once
    window.memories.delete_memories([ids[0]], confirm=False)
    qtbot.waitUntil(lambda: len(_rows(dialog)) == 1)
    assert [r.text.text() for r in _rows(dialog)] == ["我养了一只柯基，叫豆豆"]


def test_off_is_neither_given_nor_written_and_answers_show_the_lines_given(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama
) -> None:
    ids = _remember(window)
    window.context.app.about.rewrite()
    send(qtbot, window, "What should I cook tonight?")
    answer = window.chat.messages[1]
    chips = [answer.chips.itemAt(i).widget() for i in range(answer.chips.count())]
    labels = [c.text() for c in chips if c is not None]
    assert "About you:" in labels
    # the profile is the same on every answer: its first two lines, the rest in a tooltip
    lines = [c for c in chips if c is not None and c.property("about_line") is not None]
    assert len(lines) == 2 and "+1 more" in labels
    more = next(c for c in chips if c is not None and c.text() == "+1 more")
    given = [ln.text for ln in window.context.app.about.lines()]
    assert more.toolTip() == given[2]
    leeds = next(c for c in lines if "Leeds" in c.toolTip())
    assert leeds.toolTip().startswith("In every answer: a line of what the model knows")
    leeds.click()  # opens the memory it came from
    qtbot.waitUntil(lambda: window.browser.current is not None)
    assert window.browser.current.id == ids[1]
    # forgetting that memory takes the chip with the line
    window.memories.delete_memories([ids[1]], confirm=False)
    idle(qtbot, window)
    qtbot.waitUntil(
        lambda: (
            len(
                [
                    c
                    for i in range(answer.chips.count())
                    if (c := answer.chips.itemAt(i).widget()) is not None
                    and c.property("about_line") is not None
                ]
            )
            == 2
        )  # fmt: skip
    )
    # turned off in the window: neither given nor written
    dialog = _open(qtbot, window)
    dialog.enabled.click()
    assert not window.context.app.about.enabled
    qtbot.waitUntil(lambda: "Turned off" in dialog.status.text())
    # as the setting was announced
    qtbot.waitUntil(lambda: not dialog.rewrite_button.isEnabled(), timeout=5000)
    assert not dialog.edit_button.isEnabled() and not dialog.items.isEnabled()
    window.show_page("chat")
    send(qtbot, window, "And for dessert?")
    prompt = fake_ollama.chat_requests(structured=False)[-1]["messages"][0]["content"]
    assert "<about_you>" not in prompt
    assert window.context.chat.session is not None
    last = window.chat.messages[-1]
    assert not [
        c for i in range(last.chips.count())
        if (c := last.chips.itemAt(i).widget()) is not None and c.property("about_line")
    ]  # fmt: skip


def test_settings_turn_it_off_and_on_too(qtbot: Any, window: MainWindow) -> None:
    from desktop_mem.ui.settings_dialog import SettingsDialog

    host = window.context.app.config.ollama_host
    values = {**window.context.app.settings.all(), "ollama_host": host,
              "chat_model": "qwen2.5:7b", "embed_model": "fake-embed", "language": "en",
              "theme": "light", "data_folder": "/tmp"}  # fmt: skip
    dialog = SettingsDialog(values, ["qwen2.5:7b"])
    qtbot.addWidget(dialog)
    assert dialog.about_you.isChecked()
    dialog.about_you.click()
    window.settings.apply_settings(dialog.values())
    assert not window.context.app.about.enabled
    idle(qtbot, window)  # the server checked again at the same address
    qtbot.waitUntil(lambda: window.context.server.online)
