"""Ids are never reused: an app, a window or a script holding the id of something deleted
must never reach something else through it. New profiles get AUTOINCREMENT tables;
profiles made by the older schema are rebuilt in place on open, keeping every id,
full-text entry, vector, trigger, counter and reference."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from desktop_mem.core.chat.records import UsedMemory
from desktop_mem.core.config import Config
from desktop_mem.core.db import migrations
from desktop_mem.core.db.backup import restore, write_backup
from desktop_mem.core.db.rekey import change_key
from desktop_mem.core.keys.vault import Vault
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.profile import Profile
from tests import report

OLD_SCHEMA = 9  # the newest migration before apps had keys and ids were never reused
NEW = (10, 11)  # apps with keys; ids never reused (the migrations under test)


def _next_after_deleting_the_newest(prof: Profile, tmp_path: Path) -> dict[str, tuple[int, int]]:
    """For each kind: (the id deleted, the id the next one got)."""
    out: dict[str, tuple[int, int]] = {}
    mems = [prof.memories.add(NewMemory(f"Memory number {n} about tea")).memory for n in range(3)]
    prof.memories.delete([mems[-1].id])
    out["memory"] = (mems[-1].id, prof.memories.add(NewMemory("Another memory")).memory.id)

    conv = prof.conversations.create("a chat")
    msgs = [prof.conversations.add_message(conv.id, "user", f"message {n}") for n in range(3)]
    prof.conversations.delete_messages([msgs[-1].id], prof.memories)
    out["message"] = (msgs[-1].id, prof.conversations.add_message(conv.id, "user", "next").id)
    last = prof.conversations.create("the newest chat")
    prof.conversations.delete(last.id, prof.memories)
    out["conversation"] = (last.id, prof.conversations.create("after it").id)

    doc = tmp_path / "notes.md"
    doc.write_text("# Tea\n\nGreen tea is grown in Hangzhou.\n", "utf-8")
    prof.documents.add(doc)
    first = prof.documents.list()[0]
    passages = [int(r[0]) for r in prof.db.query("SELECT id FROM doc_chunks")]
    prof.documents.remove(first.id)
    prof.documents.add(doc)
    again = prof.documents.list()[0]
    out["document"] = (first.id, again.id)
    out["passage"] = (
        max(passages),
        min(int(r[0]) for r in prof.db.query("SELECT id FROM doc_chunks")),
    )

    app, _ = prof.clients.add("Editor")
    prof.clients.remove("Editor")
    out["app"] = (app.id, prof.clients.add("Editor")[0].id)
    return out


def test_no_id_is_given_twice(profile: Profile, tmp_path: Path) -> None:
    found = _next_after_deleting_the_newest(profile, tmp_path)
    for kind, (deleted, following) in found.items():
        assert following > deleted, kind
    report.add("id_reuse", len(found))


def test_the_sequence_survives_a_backup_and_a_key_change(
    config: Config, vault: Vault, tmp_path: Path
) -> None:
    with Profile.open(config, vault) as prof:
        ids = [prof.memories.add(NewMemory(f"Memory {n} about tea")).memory.id for n in range(3)]
        prof.memories.delete([ids[-1]])
        write_backup(prof.db, tmp_path / "b.dmbackup")
    restore(tmp_path / "b.dmbackup", config.home, "copy", vault=vault)
    other = Config.resolve(home=config.home, profile="copy", ollama_host=config.ollama_host,
                           embed_model=config.embed_model)  # fmt: skip
    with Profile.open(other, vault) as prof:
        assert prof.memories.add(NewMemory("After the restore")).memory.id == ids[-1] + 1
    change_key(config.home, config.profile, None, vault=vault)
    with Profile.open(config, vault) as prof:
        assert prof.memories.add(NewMemory("After the rekey")).memory.id == ids[-1] + 1
    report.add("id_reuse", 2)


def _old_profile(config: Config, vault: Vault, tmp_path: Path, monkeypatch: Any) -> dict[str, Any]:
    """A profile whose tables are as the schema before this change made them (ids that can
    be reused, apps known by name), with something in every table the rebuild touches
    and the access log of an app known by name. The later migrations that only add a
    table or a column are applied too, so that today's stores can fill it."""
    older = [m for m in migrations.MIGRATIONS if m[0] <= OLD_SCHEMA or m[0] > max(NEW)]
    monkeypatch.setattr(migrations, "MIGRATIONS", older)
    with Profile.open(config, vault) as prof:
        mems = [
            prof.memories.add(NewMemory(f"Memory {n}: lives in Hangzhou with a cat")).memory
            for n in range(5)
        ]
        prof.memories.delete([mems[2].id])
        conv = prof.conversations.create("a chat")
        said = prof.conversations.add_message(conv.id, "user", "I grow green tea on the balcony")
        answer = prof.conversations.add_message(
            conv.id, "assistant", "Noted.", used=[UsedMemory(mems[0].id, 1, 0.9, mems[0].text)]
        )
        prof.conversations.index_vectors()
        doc = tmp_path / "handbook.md"
        doc.write_text("# Leave\n\nTwenty days of paid leave a year.\n", "utf-8")
        prof.documents.add(doc)
        with prof.db.transaction() as conn:
            conn.execute(
                "INSERT INTO clients(name, level, first_seen, last_seen) "
                "VALUES ('Claude Desktop', 'delete', '2026-01-01', '2026-01-02')"
            )
            conn.execute(
                "INSERT INTO client_access(client, tool, memory_id, at) "
                "VALUES ('Claude Desktop', 'search_memories', ?, '2026-01-02')",
                (mems[0].id,),
            )
        counts = {
            t: prof.db.query(f"SELECT count(*) FROM {t}")[0][0]
            for t in ("memories", "memory_vectors", "memory_codes", "memory_history", "messages",
                      "message_vectors", "message_memories", "documents", "doc_chunks",
                      "doc_chunk_vectors", "conversations")
        }  # fmt: skip
        counters = dict(prof.db.query("SELECT name, n FROM counters"))
        newest = max(m.id for m in mems)
    monkeypatch.undo()
    return {"counts": counts, "counters": counters, "said": said.id, "answer": answer.id,
            "conversation": conv.id, "kept": mems[0].id, "newest": newest}  # fmt: skip


def test_a_profile_of_the_old_schema_is_rebuilt_in_place(
    config: Config, vault: Vault, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = _old_profile(config, vault, tmp_path, monkeypatch)
    with Profile.open(config, vault) as prof:
        versions = {r[0] for r in prof.db.query("SELECT version FROM schema_migrations")}
        assert versions >= {10, 11}
        for table in migrations.NEVER_REUSED:
            sql = prof.db.query("SELECT sql FROM sqlite_schema WHERE name = ?", (table,))[0][0]
            assert "AUTOINCREMENT" in sql, table
        for table, n in old["counts"].items():
            assert prof.db.query(f"SELECT count(*) FROM {table}")[0][0] == n, table
        counters = dict(prof.db.query("SELECT name, n FROM counters"))
        for name in ("memories", "vectors", "message_vectors", "doc_vectors"):
            assert counters[name] == old["counters"][name], name  # counts (codes: generations)
        assert counters["memories"] == old["counts"]["memories"]
        assert prof.db.query("PRAGMA foreign_key_check") == []
        assert prof.db.query("PRAGMA integrity_check")[0][0] == "ok"
        assert prof.db.query("PRAGMA foreign_keys")[0][0] == 1
        # full-text rowids and vectors still point at the same rows
        words = [h.memory.id for h in prof.search.search("Hangzhou cat", k=10).hits]
        assert old["kept"] in words
        found, _ = prof.conversations.search("green tea balcony", k=3)
        assert [h.message.id for h in found][:1] == [old["said"]]
        assert [p.title for p in prof.documents.search("paid leave")] == ["handbook.md"]
        assert [u.memory_id for u in prof.conversations.used_memories(old["answer"])] == [
            old["kept"]
        ]
        # triggers still count; ids are not given again; deletes still cascade
        prof.memories.delete([old["newest"]])  # the old schema would give its id again
        added = prof.memories.add(NewMemory("A memory after the migration")).memory
        assert added.id > old["newest"]
        assert prof.memories.count() == old["counts"]["memories"]
        prof.conversations.delete(old["conversation"], prof.memories)
        assert prof.db.query("SELECT count(*) FROM messages")[0][0] == 0
        assert prof.db.query("SELECT count(*) FROM message_vectors")[0][0] == 0
        # the app known by name keeps its level and log, and needs a key to be known
        app = prof.clients.get("Claude Desktop")
        assert (app.level, app.has_key) == ("delete", False)
        assert [a.client for a in prof.clients.access_for_memory(old["kept"])] == ["Claude Desktop"]
        assert prof.clients.authenticate(None, "Claude Desktop").app is None
    report.add("id_reuse", 1)
