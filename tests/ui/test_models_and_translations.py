"""Item models pass Qt's model tester; every interface string has a Chinese translation."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QModelIndex, Qt

from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.profile import Profile
from desktop_mem.ui.item_models import ID_ROLE, SORT_ROLE, ConversationListModel, MemoryTableModel

ROOT = Path(__file__).resolve().parents[2]


def test_memory_table_model(qtmodeltester: Any, profile: Profile) -> None:
    store = profile.memories
    store.add_many(
        [NewMemory("I live in Hangzhou"), NewMemory("我喜欢喝茶", kind="preference", pinned=True)]
    )
    store.add(NewMemory("an exam", valid_until="2020-01-01"))
    model = MemoryTableModel()
    model.set_memories(store.list())
    qtmodeltester.check(model)
    assert model.rowCount() == 3 and model.columnCount() == 7
    texts = [model.data(model.index(r, 0)) for r in range(3)]
    assert "an exam (expired)" in texts
    pinned_row = model.row_of(next(m.id for m in store.list() if m.pinned))
    assert model.data(model.index(pinned_row, 2), SORT_ROLE) == 1
    model.set_memories([])
    qtmodeltester.check(model)


def test_memory_table_sorts_itself_and_the_selection_follows(
    qtmodeltester: Any, profile: Profile
) -> None:
    from PySide6.QtCore import QPersistentModelIndex, Qt

    profile.memories.add_many([NewMemory(t) for t in ("banana", "Apple", "cherry")])
    model = MemoryTableModel()
    model.set_memories(profile.memories.list())
    held = QPersistentModelIndex(model.index(model.row_of(model.memory(0).id), 0))  # type: ignore[union-attr]
    held_id = model.memory(held.row()).id  # type: ignore[union-attr]
    model.sort(0, Qt.SortOrder.AscendingOrder)
    assert [model.memory(r).text for r in range(3)] == ["Apple", "banana", "cherry"]  # type: ignore[union-attr]
    assert model.memory(held.row()).id == held_id, "a selected row stays selected"  # type: ignore[union-attr]
    model.sort(0, Qt.SortOrder.DescendingOrder)
    assert model.memory(0).text == "cherry"  # type: ignore[union-attr]
    qtmodeltester.check(model)


def test_conversation_list_model(qtmodeltester: Any, profile: Profile) -> None:
    convs = profile.conversations
    a = convs.create().id
    convs.add_message(a, "user", "Plan a trip to Kyoto")
    convs.create()
    model = ConversationListModel()
    model.set_conversations(convs.list())
    qtmodeltester.check(model)
    assert "Plan a trip to Kyoto" in [model.data(model.index(r)) for r in range(3)]
    assert model.data(model.index(model.row_of(a))).startswith("Plan")
    assert model.headings() == ["Today"] and model.count() == 2
    assert model.flags(model.index(0)) == Qt.ItemFlag.NoItemFlags, "a heading is not selectable"
    assert model.conversation(0) is None and model.data(model.index(0), ID_ROLE) is None


def test_conversations_are_grouped_by_date_with_pinned_first(profile: Profile) -> None:
    from datetime import date, timedelta

    from desktop_mem.core.chat.conversations import Conversation

    today = date(2026, 12, 1)

    def conv(n: int, days_ago: int, pinned: bool = False) -> Conversation:
        when = (today - timedelta(days=days_ago)).isoformat() + "T12:00:00"
        return Conversation(n, f"chat {n}", None, when, when, 2, pinned)

    rows = [conv(9, 40, pinned=True), conv(1, 0), conv(2, 1), conv(3, 3), conv(4, 20),
            conv(5, 400)]  # fmt: skip
    model = ConversationListModel()
    model.set_conversations(rows, today=today)
    assert model.headings() == [
        "Pinned", "Today", "Yesterday", "Previous 7 days", "Previous 30 days", "Older"
    ]  # fmt: skip
    assert [c.id for c in model.conversations()] == [9, 1, 2, 3, 4, 5]
    assert model.row_of(1) == 3 and model.conversation(model.row_of(5)).id == 5  # type: ignore[union-attr]
    model.set_conversations(rows, grouped=False, today=today)
    assert model.headings() == [] and model.rowCount() == 6, "search results: no headings"


def _zh_module() -> Any:
    spec = importlib.util.spec_from_file_location("zh_CN", ROOT / "resources/translations/zh_CN.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_interface_string_is_translated(tmp_path: Path) -> None:
    zh = _zh_module()
    fresh = tmp_path / "fresh.ts"
    ui = sorted(str(p) for p in (ROOT / "desktop_mem/ui").glob("*.py"))
    lupdate = Path(sys.executable).parent / "pyside6-lupdate"
    subprocess.run([str(lupdate), *ui, "-ts", str(fresh)], check=True, capture_output=True)
    sources = {s for s, _ in zh.sources(fresh)}
    assert len(sources) > 150
    missing = sorted(s for s in sources if s not in zh.ZH)
    assert missing == [], f"untranslated (run resources/translations/zh_CN.py): {missing}"
    committed = {s for s, _ in zh.sources()}
    assert sources <= committed, (
        "desktop_mem_zh_CN.ts is stale: run resources/translations/zh_CN.py"
    )
    # the shipped .qm holds what the .ts says: every source the interface shows
    from PySide6.QtCore import QTranslator

    qm = ROOT / "desktop_mem/resources/translations/desktop_mem_zh_CN.qm"
    translator = QTranslator()
    assert translator.load(str(qm))
    assert (
        translator.translate(
            "errors", "The disk is full: nothing was changed; free some space and try again."
        )
        == zh.ZH["The disk is full: nothing was changed; free some space and try again."]
    )


def test_every_counted_string_has_english_plural_forms(tmp_path: Path, qapp: Any) -> None:
    """English needs its plurals written out too: "1 memory", "2 memories", never
    "memory(s)"."""
    import importlib.util

    from PySide6.QtCore import QCoreApplication

    from desktop_mem.ui.app import install_language

    spec = importlib.util.spec_from_file_location("en", ROOT / "resources/translations/en.py")
    en = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(en)  # type: ignore[union-attr]
    fresh = tmp_path / "fresh.ts"
    ui = sorted(str(p) for p in (ROOT / "desktop_mem/ui").glob("*.py"))
    lupdate = Path(sys.executable).parent / "pyside6-lupdate"
    subprocess.run([str(lupdate), *ui, "-ts", str(fresh)], check=True, capture_output=True)
    # A string holding %n is counted, however it is asked for: pyside6-lupdate marks
    # only tr(..., n) as counted, not QCoreApplication.translate(context, text, "", n).
    counted = {s for s, numerus in _zh_module().sources(fresh) if numerus or "%n" in s}
    assert counted and not counted - set(en.EN), "run resources/translations/en.py"
    install_language(qapp, "en")
    one = QCoreApplication.translate("MemoryBrowser", "%n memory(s)", "", 1)
    many = QCoreApplication.translate("MemoryBrowser", "%n memory(s)", "", 2)
    assert (one, many) == ("1 memory", "2 memories")
    import xml.etree.ElementTree as ET

    for context in ET.parse(fresh).getroot().iter("context"):
        for message in context.iter("message"):
            source = message.findtext("source") or ""
            if "%n" in source:
                shown = QCoreApplication.translate(context.findtext("name"), source, "", 2)
                assert shown == en.EN[source][1].replace("%n", "2"), source


def test_core_errors_are_worded_in_the_interface_language(qapp: Any) -> None:
    """By reason code, not by matching English words: rewording a core sentence keeps
    its translation, and every reason the core raises has one."""
    import re

    from desktop_mem.core import errors
    from desktop_mem.ui.app import install_language
    from desktop_mem.ui.errors import _wording, describe

    english = "The disk at /home is full: nothing was changed; free some space and try again."
    assert describe("disk_full", english) == english, "in English, the core's own sentence"
    command = "Ollama is not reachable at http://127.0.0.1:9: start it (`ollama serve`)."
    assert "`" not in describe("ollama_unreachable", command), "unless it names a command"
    core = "\n".join(p.read_text("utf-8") for p in (ROOT / "desktop_mem/core").rglob("*.py"))
    raised = set(re.findall(r'reason="([a-z_]+)"', core)) - {"error", "usage", "not_found",
                                                            "invalid_input", "locked",
                                                            "model_server"}  # fmt: skip
    assert {"disk_full", "reply_cut", "ollama_timeout", "wrong_code"} <= raised
    install_language(qapp, "zh_CN")
    try:
        for reason in sorted(raised):
            assert _wording(reason, "m", 1), f"no wording for the reason {reason!r}"
        reworded = errors.OllamaUnavailable("Ollama is down, sorry.")
        assert describe(reworded.reason, str(reworded)).startswith("无法连接 Ollama")
        assert "qwen2.5:7b" in describe("model_missing", "...", model="qwen2.5:7b")
        assert (
            describe("import_rejected", "...", lines=3)
            == "没有导入任何内容：3 行有问题（见详细信息）。"
        )
        assert (
            describe("invalid_input", "A specific English sentence.")
            == "A specific English sentence."
        )
    finally:
        install_language(qapp, "en")


def test_qts_own_buttons_are_chinese_too(qapp: Any) -> None:
    """Standard buttons (Yes/No, OK/Cancel, Save) come from Qt's translations."""
    from PySide6.QtWidgets import QDialogButtonBox

    from desktop_mem.ui.app import install_language

    install_language(qapp, "zh_CN")
    try:
        box = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        texts = {b.text().replace("&", "") for b in box.buttons()}
        assert texts & {"保存", "保存(S)"} and not texts & {"Save", "Cancel"}, texts
    finally:
        install_language(qapp, "en")


def test_a_long_listing_is_read_a_page_at_a_time(qtmodeltester: Any, profile: Profile) -> None:
    from desktop_mem.core.memory.records import Memory

    def memory(n: int) -> Memory:
        stamp = f"2026-01-01T00:00:{n % 60:02d}Z"
        return Memory(n, f"memory {n}", "fact", 0.5, False, "user", None, stamp, stamp,
                      None, None, None)  # fmt: skip

    everything = [memory(n) for n in range(1, 1201)]
    asked: list[tuple[int, int]] = []

    def more(offset: int, limit: int) -> list[Memory]:
        asked.append((offset, limit))
        return everything[offset : offset + limit]

    model = MemoryTableModel()
    page = MemoryTableModel.PAGE
    model.set_memories(everything[:page], more=more)
    assert model.rowCount() == page and model.canFetchMore(QModelIndex())
    while model.canFetchMore(QModelIndex()):
        model.fetchMore(QModelIndex())
    assert model.rowCount() == 1200 and asked[0][0] == page
    assert [model.memory(r).id for r in (0, 1199)] == [1, 1200]  # type: ignore[union-attr]
    model.set_memories(everything[:page], more=more)
    model.sort(0, Qt.SortOrder.DescendingOrder)  # sorting reads the rest first
    assert model.rowCount() == 1200 and model.memory(0).text == "memory 999"  # type: ignore[union-attr]
    model.set_memories(everything[:page], more=more)
    qtmodeltester.check(model)  # (it reads every page too)


def test_han_characters_take_simplified_chinese_forms(qapp: Any) -> None:
    """With a Simplified Chinese font installed, Han text is drawn with it, not with the
    Japanese member of the same family that fontconfig may prefer; Latin text keeps the
    application's own font."""
    from PySide6.QtGui import QFontDatabase, QFontInfo, QTextLayout

    from desktop_mem.ui.app import SC_FONTS, prepare_application

    installed = set(QFontDatabase.families())
    if not any(f in installed for f in SC_FONTS):
        pytest.skip("no Simplified Chinese font here (Debian: fonts-noto-cjk)")
    latin = QFontInfo(qapp.font()).family()
    prepare_application(qapp)
    layout = QTextLayout("我说这个 abc", qapp.font())
    layout.beginLayout()
    layout.createLine()
    layout.endLayout()
    families = [run.rawFont().familyName() for run in layout.glyphRuns()]
    # two runs, in no promised order: the Han one in a Simplified Chinese font
    assert len(families) == 2 and latin in families, families
    assert any(f in SC_FONTS for f in families) and not any("JP" in f for f in families)


def test_a_memorys_history_row_reads_as_chinese_in_chinese(qapp: Any) -> None:
    """The row's punctuation is the language's own: "创建（你）：…", not "创建 (你): …"."""
    from desktop_mem.core.memory.records import Version
    from desktop_mem.ui.app import install_language
    from desktop_mem.ui.memory_drawer import MemoryDrawer

    v = Version(2, "updated", "user", None, "Works as a nurse", "fact", 0.5, False, None,
                "2026-12-08", "2026-12-02T01:45:00Z")  # fmt: skip
    english = MemoryDrawer()._version_line(v)
    assert english == "v2 · 2026-12-02 01:45 · updated (you), until 2026-12-08: Works as a nurse"
    install_language(qapp, "zh_CN")
    try:
        row = MemoryDrawer()._version_line(v)
        assert "（你）" in row and "：Works as a nurse" in row and ": " not in row, row
    finally:
        install_language(qapp, "en")
