"""The window's three searches behave one way (issue 30): as you type, with what each hit
was found by; "Weak matches too" shows each memory's relevance and which are weaker.
And what the Chinese interface showed in English."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt

from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.profile import Profile
from desktop_mem.core.service import Service
from desktop_mem.ui.app import app_settings, install_language
from desktop_mem.ui.context import Context
from desktop_mem.ui.documents_ui import DocumentsPage
from desktop_mem.ui.item_models import MESSAGE_ROLE, SNIPPET_ROLE
from desktop_mem.ui.main_window import MainWindow
from desktop_mem.ui.memory_cards import meta_line
from tests.fakes.ollama_server import FakeOllama
from tests.ui.driving import HANGZHOU, idle, marked_pixels, send


def test_conversations_are_searched_as_you_type_with_the_message_found(
    qtbot: Any, window: MainWindow, profile: Profile
) -> None:
    store = profile.conversations
    kyoto = store.create("Trip").id
    said = store.add_message(kyoto, "user", "We fly to Kyoto to see the temples in April").id
    other = store.create("Work").id
    store.add_message(other, "user", "帮我写一封请假邮件")
    store.index_vectors()
    window.conversations.refresh()
    panel = window.conversation_panel
    qtbot.keyClicks(panel.search, "kyoto temples")  # no Enter
    qtbot.waitUntil(lambda: panel.model.count() == 1, timeout=5000)
    index = panel.model.index(0)
    assert panel.model.conversations()[0].id == kyoto
    assert "Kyoto to see the temples" in index.data(SNIPPET_ROLE)
    assert index.data(MESSAGE_ROLE) == said
    panel.list.activated.emit(index)  # Enter on the hit: that message, in its conversation
    assert window.context.chat.conversation_id == kyoto
    panel.search.clear()
    assert panel.model.count() == 2, "cleared: every conversation again"
    qtbot.keyClicks(panel.search, "xylophone quantum")
    qtbot.waitUntil(lambda: panel.empty.isVisibleTo(window), timeout=5000)
    assert panel.model.count() == 0 and "No conversation" in panel.empty.text()
    idle(qtbot, window)


def test_documents_are_searched_as_you_type(
    qtbot: Any, profile: Profile, home: Path, tmp_path: Path, fake_ollama: FakeOllama
) -> None:
    (tmp_path / "leave.md").write_text("# Leave\n\nAnnual leave is twenty-five days.\n", "utf-8")
    profile.documents.add(tmp_path / "leave.md")
    page = DocumentsPage(Context(Service(profile), app_settings(home)))
    qtbot.addWidget(page)
    qtbot.keyClicks(page.search, "annual leave days")  # no Enter
    qtbot.waitUntil(lambda: page.results.count() > 0, timeout=5000)
    assert "twenty-five days" in page.results.item(0).text(), "with the passage found"


def test_weak_matches_are_called_so_and_a_match_needs_no_word(
    qtbot: Any, window: MainWindow, profile: Profile
) -> None:
    profile.memories.add_many(
        [
            NewMemory(t)
            for t in (
                "My sister Lin lives in Chengdu",
                "I keep bees",
                "Allergic to peanuts",
                "I play the cello",
            )
        ]  # fmt: skip
    )
    window.show_page("memories")
    b = window.browser
    b.all_matches.setChecked(True)
    qtbot.keyClicks(b.search, "zqxv wkrp blorft")  # nonsense
    qtbot.waitUntil(lambda: "weaker" in b.count.text(), timeout=5000)  # searched, not listed
    idle(qtbot, window)
    assert b.count.text() == "No relevant match; 4 weaker ones below", "not \u201c4 matches\u201d"
    for row in range(4):
        memory = b.model.memory(row)
        assert memory is not None
        line = meta_line(memory, b.model.found(memory.id))
        assert line.startswith("weak match · "), line
    b.search.clear()
    qtbot.keyClicks(b.search, "where does my sister live")
    qtbot.waitUntil(lambda: b.count.text().startswith("1 match"), timeout=5000)
    idle(qtbot, window)
    first = b.model.memory(0)
    assert first is not None and first.text == "My sister Lin lives in Chengdu"
    assert meta_line(first, b.model.found(first.id)).startswith("fact · ")
    assert b.count.text() == "1 match · 3 weaker"


def test_the_chinese_interface_says_undo_and_the_document_kind_in_chinese(
    qtbot: Any, profile: Profile, home: Path, fake_ollama: FakeOllama, tmp_path: Path, qapp: Any
) -> None:
    install_language(qapp, "zh_CN")
    try:
        (tmp_path / "notes.txt").write_text("Annual leave is twenty-five days.\n", "utf-8")
        profile.documents.add(tmp_path / "notes.txt")
        w = MainWindow(Service(profile), app_settings(home))
        qtbot.addWidget(w)
        w.show()
        qtbot.waitUntil(lambda: w.context.server.online, timeout=5000)
        assert w.documents_page.table.item(0, 1).text() == "纯文本", "not \u201ctext\u201d"
        fake_ollama.reply_json(HANGZHOU)
        send(qtbot, w, "I live in Hangzhou with my cat Mochi")
        qtbot.waitUntil(lambda: "已记住" in w.chat.messages[-1].notice.text(), timeout=10000)
        notice = w.chat.messages[-1].notice.text()
        assert "撤销" in notice and "Undo" not in notice
        idle(qtbot, w)
        w.close()
    finally:
        install_language(qapp, "en")


def test_a_word_that_is_in_a_memory_or_a_conversation_finds_it(
    qtbot: Any, window: MainWindow, profile: Profile
) -> None:
    """Found in the first-time walk: one word ("Lisbon"), which the relevance rule took
    for small talk, found nothing although a memory and a message hold it."""
    profile.memories.add_many([NewMemory("I live in Lisbon with my cat Mochi"),
                               NewMemory("I'm Mia")])  # fmt: skip
    cid = profile.conversations.create().id
    profile.conversations.add_message(cid, "user", "I live in Lisbon with my cat Mochi.")
    profile.conversations.index_vectors()
    window.conversations.refresh()
    b = window.browser
    window.show_page("memories")
    qtbot.keyClicks(b.search, "Lisbon")
    qtbot.waitUntil(lambda: b.count.text() == "No relevant match; 1 weaker one below"
                    or b.count.text().endswith("match"), timeout=5000)  # fmt: skip
    idle(qtbot, window)
    assert [b.model.memory(r).text for r in range(b.model.rowCount())] == [  # type: ignore[union-attr]
        "I live in Lisbon with my cat Mochi"
    ]
    panel = window.conversation_panel
    qtbot.keyClicks(panel.search, "Lisbon")
    qtbot.waitUntil(lambda: panel.model.count() == 1, timeout=5000)
    idle(qtbot, window)


def test_a_search_that_leaves_the_shown_memory_out_clears_the_details(
    qtbot: Any, window: MainWindow, profile: Profile
) -> None:
    """Found in the third walk (issue 44): the drawer kept showing a memory the search
    had removed from the list, and Save and Delete then acted on it unseen."""
    (bees, cello), _ = profile.memories.add_many([NewMemory("I keep bees in the garden"),
                                                  NewMemory("I play the cello on Sundays")])  # fmt: skip
    window.memories.refresh_memories()
    idle(qtbot, window)
    window.show_page("memories")
    b = window.browser
    assert b.select(bees.id)
    qtbot.waitUntil(lambda: b.current is not None and b.current.id == bees.id)
    assert b.drawer.pages.currentIndex() == 1
    qtbot.keyClicks(b.search, "cello")
    qtbot.waitUntil(lambda: b.model.rowCount() == 1, timeout=5000)
    idle(qtbot, window)
    assert b.model.memory(0).id == cello.id  # type: ignore[union-attr]
    assert b.current is None and b.drawer.pages.currentIndex() == 0, "nothing unseen shown"
    assert not b.drawer.delete_button.isEnabled()
    b.search.clear()  # every memory again: the one selected before is not brought back
    qtbot.waitUntil(lambda: b.model.rowCount() == 2, timeout=5000)
    idle(qtbot, window)
    assert b.current is None


def _shown(b: Any) -> list[tuple[str, bool]]:
    """Each listed memory as the user sees it: its text and whether its card calls it a
    weak match (no number: the one scale is match or weak match)."""
    out = []
    for row in range(b.model.rowCount()):
        memory = b.model.memory(row)
        line = meta_line(memory, b.model.found(memory.id)).split(" · ")[0]
        assert "relevance" not in line and not any(c.isdigit() for c in line[:12]), line
        out.append((memory.text, line == "weak match"))
    return out


def test_what_is_listed_and_called_weak_follows_one_scale(
    qtbot: Any, window: MainWindow, profile: Profile
) -> None:
    """Found in the third walk (issue 44): "weak match, relevance 6.0" beside a match at
    5.1, a 1.5 hit listed while a 3.6 hit was hidden, and a relevance of -0.6. One scale,
    with no number to contradict it: a match is what the chat's relevance rule keeps for
    the search (a greeting or gibberish has none), listed first and best first; the
    others are weak matches, listed with "Weak matches too"."""
    profile.memories.add_many(
        [
            NewMemory(t)
            for t in (
                "My sister Lin lives in Chengdu",
                "I keep bees in the garden",
                "Allergic to peanuts",
                "I play the cello on Sundays",
                "Lin's birthday is in May",
                "我妹妹住在成都",
                "我每周日拉大提琴",
                "The garden has two apple trees",
            )
        ]  # fmt: skip
    )
    window.show_page("memories")
    b = window.browser
    queries = ["where does my sister live", "Lin", "garden bees", "zqxv wkrp blorft",
               "cello", "我妹妹住在哪里", "大提琴", "hi"]  # fmt: skip
    for query in queries:
        listed: dict[bool, list[tuple[str, bool]]] = {}
        for weak_too in (True, False):
            b.all_matches.setChecked(weak_too)
            b.search.setText(query)  # as typed (keyClicks cannot type Chinese)
            done: list[bool] = []  # this query's search, whatever the typing started
            window.memories.search_memories(query, lambda d=done: d.append(True))
            qtbot.waitUntil(lambda d=done: bool(d), timeout=5000)
            idle(qtbot, window)
            listed[weak_too] = _shown(b)
        everything = listed[True]
        assert everything, query
        kept = [h.memory.text for h in profile.search.search(query, 50).hits]
        # a match is what the chat's rule keeps for this search, in its order, no other
        assert [t for t, weak in everything if not weak] == kept, (query, everything)
        assert [w for _t, w in everything] == sorted(w for _t, w in everything)
        assert listed[False] == [hit for hit in everything if not hit[1]], query
        if query in ("hi", "zqxv wkrp blorft"):  # about nothing the store holds
            assert listed[False] == [], (query, everything)
        if b.model.rowCount():
            tip = b.model.data(b.model.index(0, 0), Qt.ItemDataRole.ToolTipRole)
            assert "A match is what the chat would give the model" in tip, "explained"


def test_search_hits_mark_the_words_they_matched(
    qtbot: Any, window: MainWindow, profile: Profile
) -> None:
    """Issue 44: search results did not highlight the matched words. Marked in the memory
    list and in the conversations found, in English and in Chinese; a listing marks
    nothing."""
    profile.memories.add_many([NewMemory("I keep bees in the garden"),
                               NewMemory("我每周日拉大提琴")])  # fmt: skip
    cid = profile.conversations.create("Hobbies").id
    profile.conversations.add_message(cid, "user", "On Sundays I play the cello, 我拉大提琴")
    profile.conversations.index_vectors()
    window.conversations.refresh()
    window.memories.refresh_memories()
    idle(qtbot, window)
    window.show_page("memories")
    b = window.browser
    qtbot.waitUntil(lambda: b.model.rowCount() == 2, timeout=5000)
    assert marked_pixels(b.list) == 0, "a listing is no search: nothing is marked"
    for query in ("bee", "大提琴"):
        done: list[bool] = []
        b.search.setText(query)
        window.memories.search_memories(query, lambda d=done: d.append(True))
        qtbot.waitUntil(lambda d=done: bool(d), timeout=5000)
        idle(qtbot, window)
        assert b.model.query == query
        assert marked_pixels(b.list) > 50, query
    panel = window.conversation_panel
    for query in ("cello", "大提琴"):
        panel.search.setText(query)
        qtbot.waitUntil(lambda q=query: panel.model.query == q and panel.model.count() == 1,
                        timeout=5000)  # fmt: skip
        idle(qtbot, window)
        assert marked_pixels(panel.list) > 30, query
