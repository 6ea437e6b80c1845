"""One writer per table: every table's rows are written by the store that owns them,
which announces each change after its commit; no store exists without the bus; and
each announcement says whose change it is.

The rule is read from the source: every SQL statement that writes (INSERT, REPLACE,
UPDATE, DELETE) names its table, and the modules that may name each table are the
store's own (a store's halves live in modules of their own: its sync rows, its
learning marks). The schema's migrations are the database's, not a writer's."""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import pytest

from desktop_mem.core.events import (
    IMPORT,
    SERVICE,
    SYNC,
    ConversationsChanged,
    Event,
    MemoriesChanged,
    acting,
)
from desktop_mem.core.memory.records import NewMemory

ROOT = Path(__file__).resolve().parents[1] / "desktop_mem"
WRITE = re.compile(
    r"\b(?:INSERT(?:\s+OR\s+\w+)?\s+INTO|REPLACE\s+INTO|UPDATE(?:\s+OR\s+\w+)?(?!\s+SET)"
    r"|DELETE\s+FROM)\s+([a-z_]+)",
    re.IGNORECASE,
)
MEMORY_STORE = {"core/memory/store.py", "core/memory/arrived.py", "core/memory/indexing.py"}
CONVERSATION_STORE = {
    "core/chat/conversations.py",
    "core/chat/arrived.py",
    "core/chat/marks.py",
    "core/chat/versions.py",
}
DOCUMENT_STORE = {"core/documents/store.py", "core/documents/folders.py"}
OWNERS: dict[str, set[str]] = {
    "memories": MEMORY_STORE,
    "memories_fts": MEMORY_STORE,
    "memory_history": MEMORY_STORE,
    "conversations": CONVERSATION_STORE,
    "messages": CONVERSATION_STORE,
    "messages_fts": CONVERSATION_STORE,
    "message_memories": CONVERSATION_STORE,
    "message_recalls": CONVERSATION_STORE,
    "documents": DOCUMENT_STORE,
    "doc_chunks": DOCUMENT_STORE,
    "doc_chunks_fts": DOCUMENT_STORE,
    "doc_folders": DOCUMENT_STORE,
    "doc_removed": DOCUMENT_STORE,
    "proposals": {"core/chat/proposals.py"},
}
SCHEMA = {"core/db/migrations.py"}
SETTING_WRITE = re.compile(
    r"(?:INSERT(?: OR \w+)? INTO|UPDATE|DELETE FROM) meta\b[^\n]*\n?[^\n]*setting\."
    r"|meta_set\(\s*f?[\"']setting\."
)


def writes(source: str) -> set[str]:
    """The tables the SQL in a module's string literals writes."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        text = None
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        elif isinstance(node, ast.JoinedStr):
            text = "".join(v.value for v in node.values if isinstance(v, ast.Constant))
        if text:
            found |= {t.lower() for t in WRITE.findall(text)}
    return found


def test_each_table_is_written_by_its_store_alone() -> None:
    wrong = []
    for path in sorted(ROOT.rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        if name in SCHEMA:
            continue
        for table in writes(path.read_text(encoding="utf-8")):
            if table in OWNERS and name not in OWNERS[table]:
                wrong.append(f"{name} writes {table}")
            if table.startswith("sync_") and not name.startswith("core/sync/"):
                wrong.append(f"{name} writes {table} (sync state)")
    assert wrong == []


def test_a_synced_setting_is_written_by_the_settings_alone() -> None:
    """The settings live in the meta table beside other notes; the rows named
    setting.* are the settings store's."""
    wrong = [
        path.relative_to(ROOT).as_posix()
        for path in sorted(ROOT.rglob("*.py"))
        if path.relative_to(ROOT).as_posix() not in {"core/settings.py", *SCHEMA}
        and SETTING_WRITE.search(path.read_text(encoding="utf-8"))
    ]
    assert wrong == []


def test_the_check_sees_a_write_around_a_store() -> None:
    src = """conn.execute("INSERT INTO messages(conversation_id, role) VALUES (?, ?)", x)
conn.execute(f"UPDATE memories SET text = ? WHERE id IN ({marks})", y)
conn.execute("INSERT INTO sync_peers(device) VALUES (?) ON CONFLICT(device) DO UPDATE SET x = 1")
"""
    assert writes(src) == {"messages", "memories", "sync_peers"}
    assert SETTING_WRITE.search('conn.execute("DELETE FROM meta WHERE key = ?", (f"setting.{k}",))')
    assert SETTING_WRITE.search('db.meta_set(f"setting.{key}", raw)')
    assert not SETTING_WRITE.search(
        'conn.execute("SELECT value FROM meta WHERE key = ?", ("setting.x",))'
    )
    assert writes('db.query("SELECT id FROM memories WHERE uid = ?")') == set()


@pytest.mark.parametrize(
    "name",
    [
        "desktop_mem.core.memory.store:MemoryStore",
        "desktop_mem.core.chat.conversations:ConversationStore",
        "desktop_mem.core.documents.store:DocumentStore",
        "desktop_mem.core.settings:Settings",
        "desktop_mem.core.memory.about:AboutStore",
        "desktop_mem.core.clients:ClientRegistry",
        "desktop_mem.core.chat.proposals:ProposalStore",
    ],
)
def test_no_store_can_be_made_without_the_bus(name: str) -> None:
    module, cls = name.split(":")
    store = getattr(__import__(module, fromlist=[cls]), cls)
    param = inspect.signature(store.__init__).parameters["events"]
    assert param.default is inspect.Parameter.empty


def test_an_event_says_who_made_it() -> None:
    assert MemoriesChanged("added").origin == SERVICE
    with acting(SYNC):
        assert MemoriesChanged("added").origin == SYNC
        with acting(IMPORT):
            assert ConversationsChanged("added").origin == IMPORT
        assert Event().origin == SYNC
    assert Event().origin == SERVICE


def test_a_write_inside_a_transaction_is_announced_after_its_commit(profile) -> None:
    """A store's write inside a caller's transaction (a sync step, an import batch) is
    announced once, after the commit, with every id it gathered; a rolled-back one is
    never announced."""
    heard: list[tuple[Event, int]] = []
    db = profile.db

    def listener(event: Event) -> None:
        if isinstance(event, MemoriesChanged):
            count = db.query("SELECT count(*) FROM memories")[0][0]
            heard.append((event, count))

    profile.events.subscribe(listener)
    from desktop_mem.core.memory.arrived import ArrivedMemory

    def arrived(text: str) -> ArrivedMemory:
        return ArrivedMemory(
            text, "fact", 0.5, False, "user", None, "2026-01-01T00:00:00+00:00",
            "2026-01-01T00:00:00+00:00", None, None, None, None,
        )  # fmt: skip

    with db.transaction() as conn:
        first, _ = profile.memories.put_arrived(conn, "uid-1", arrived("I live in Lisbon"))
        second, _ = profile.memories.put_arrived(conn, "uid-2", arrived("I keep bees"))
        assert heard == []  # nothing said before the commit
    assert [(e.change, e.ids, n) for e, n in heard] == [("added", (first, second), 2)]
    heard.clear()
    with pytest.raises(RuntimeError), db.transaction() as conn:
        profile.memories.put_arrived(conn, "uid-3", arrived("I play the cello"))
        raise RuntimeError("the pass stopped")
    with db.transaction():
        pass
    assert heard == []
    assert profile.memories.add(NewMemory("I read on trains")).memory is not None
    assert [e.change for e, _ in heard] == ["added"]


def test_the_bus_keeps_no_listener_from_the_committing_thread_s_lock(profile) -> None:
    """Announcements are made outside the database lock: a listener that waits for
    another thread's read (the window's list, refreshed off the GUI thread) goes on."""
    import threading

    from desktop_mem.core.memory.arrived import ArrivedMemory

    done = threading.Event()

    def listener(event: Event) -> None:
        t = threading.Thread(target=lambda: (profile.db.execute("SELECT 1"), done.set()))
        t.start()
        t.join(timeout=30)

    stop = profile.events.subscribe(listener)
    with profile.db.transaction() as conn:
        profile.memories.put_arrived(
            conn, "uid-9",
            ArrivedMemory("I swim", "fact", 0.5, False, "user", None, "", "", None, None,
                          None, None),
        )  # fmt: skip
    stop()
    assert done.is_set()


def test_events_is_required_everywhere_a_store_is_made() -> None:
    """No store falls back to a bus nobody hears."""
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in sorted(ROOT.rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"events or Events\(\)|events: Events \| None", line)
    ]
    assert found == []
