"""The database file: migrations, corruption, and the settings that privacy relies on."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlcipher3

from desktop_mem.core.db import migrations
from desktop_mem.core.db.opening import open_profile
from desktop_mem.core.errors import DesktopMemError, WrongKey
from desktop_mem.core.events import Events
from desktop_mem.core.keys.vault import Vault


def test_migrations_are_recorded_and_not_rerun(home: Path, vault: Vault) -> None:
    db = open_profile(home, "default", vault=vault)
    versions = [r[0] for r in db.query("SELECT version FROM schema_migrations ORDER BY version")]
    assert versions == [v for v, _, _ in migrations.MIGRATIONS]
    db.close()
    db = open_profile(home, "default", vault=vault)
    assert migrations.migrate(db.conn) == []
    db.close()


def test_pragmas_for_privacy_and_durability(home: Path, vault: Vault) -> None:
    with open_profile(home, "default", vault=vault) as db:
        assert db.query("PRAGMA journal_mode")[0][0] == "wal"
        assert db.query("PRAGMA secure_delete")[0][0] == 1
        assert db.query("PRAGMA temp_store")[0][0] == 2  # memory: no plaintext temp files
        assert db.query("PRAGMA foreign_keys")[0][0] == 1
        assert db.query("SELECT vec_version()")[0][0].startswith("v")


def test_profile_from_a_newer_version_is_refused(home: Path, vault: Vault) -> None:
    with open_profile(home, "default", vault=vault) as db:
        db.execute("INSERT INTO schema_migrations VALUES (999, 'future', 'x')")
    with pytest.raises(DesktopMemError, match="newer desktop-mem"):
        open_profile(home, "default", vault=vault)


def test_corrupt_file_is_a_clear_error_and_is_not_changed(home: Path, vault: Vault) -> None:
    db = open_profile(home, "default", vault=vault)
    db.close()
    garbage = b"\x00garbage" * 1000
    db.path.write_bytes(garbage)
    with pytest.raises(WrongKey, match="damaged"):
        open_profile(home, "default", vault=vault)
    assert db.path.read_bytes() == garbage


def test_open_without_create_says_the_profile_does_not_exist(home: Path, vault: Vault) -> None:
    with pytest.raises(DesktopMemError, match="no profile 'nope'"):
        open_profile(home, "nope", vault=vault, create=False)


def test_transaction_rolls_back_on_error(home: Path, vault: Vault) -> None:
    with open_profile(home, "default", vault=vault) as db:
        with pytest.raises(RuntimeError), db.transaction() as c:
            c.execute("INSERT INTO meta VALUES ('a', 'b')")
            raise RuntimeError("boom")
        assert db.meta_get("a") is None


def test_reads_from_other_threads_do_not_wait_behind_a_write(home: Path, vault: Vault) -> None:
    """With the read-only connection open, a thread reading while another holds the
    connection in a transaction gets the last commit at once; the writing thread still
    sees its own uncommitted rows."""
    import threading

    with open_profile(home, "default", vault=vault) as db:
        db.meta_set("committed", "yes")
        assert db.open_reader()
        inside = threading.Event()
        read_done = threading.Event()
        seen: dict[str, object] = {}

        def writer() -> None:
            with db.transaction() as c:
                c.execute("INSERT INTO meta(key, value) VALUES ('pending', 'not yet')")
                seen["writer"] = db.meta_get("pending")  # its own connection: sees it
                inside.set()
                # The reader must finish while this transaction is still open; if it
                # queued behind the lock, this wait would end only at the bound.
                seen["reader_finished_inside"] = read_done.wait(60)

        def reader() -> None:
            inside.wait(60)
            seen["reader"] = (db.meta_get("committed"), db.meta_get("pending"))
            read_done.set()

        threads = [threading.Thread(target=writer), threading.Thread(target=reader)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        assert seen == {
            "writer": "not yet",
            "reader": ("yes", None),  # the last commit, not the open transaction
            "reader_finished_inside": True,
        }
        assert db.meta_get("pending") == "not yet"  # committed now: the reader sees it
        with pytest.raises(sqlcipher3.OperationalError, match="readonly"):
            db._reader.execute("INSERT INTO meta(key, value) VALUES ('x', 'y')")
    assert db._reader is None  # closed with the profile
    assert not db.open_reader()  # and not reopened after


def test_existing_conversations_become_one_version_each(
    home: Path, vault: Vault, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Migration 16 on a profile written before answer versions: each message follows
    the one before it, every one is the version shown, and the conversation reads the
    same."""
    from desktop_mem.core.chat.conversations import ConversationStore

    before = [m for m in migrations.MIGRATIONS if m[0] < 16]
    monkeypatch.setattr(migrations, "MIGRATIONS", before)
    with open_profile(home, "default", vault=vault) as db:
        db.execute(
            "INSERT INTO conversations(title, created_at, updated_at) VALUES ('t', 'x', 'x')"
        )
        for n, role in enumerate(("user", "assistant", "user", "assistant")):
            db.execute(
                "INSERT INTO messages(conversation_id, role, content, status, created_at) "
                "VALUES (1, ?, ?, 'complete', '2026-01-01T00:00:00+00:00')",
                (role, f"message {n}"),
            )
    monkeypatch.undo()
    with open_profile(home, "default", vault=vault) as db:
        store = ConversationStore(db, events=Events())
        assert [m.content for m in store.messages(1)] == [f"message {n}" for n in range(4)]
        assert set(store.versions(1).values()) == {(1, 1)}
        assert [r[0] for r in db.query("SELECT parent_id FROM messages ORDER BY id")] == [
            None, 1, 2, 3,
        ]  # fmt: skip
