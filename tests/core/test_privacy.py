"""Privacy promises as tests: no plaintext on disk, and a deleted memory is gone from
the file itself, free pages, WAL, full-text and vector shadow tables included."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
import sqlcipher3

from desktop_mem.cli import main
from desktop_mem.core.keys.vault import Vault
from desktop_mem.core.memory.store import NewMemory, now_iso
from desktop_mem.core.profile import Profile
from tests import leaks
from tests.fakes.keyrings import MemoryKeyring, stored_key
from tests.fakes.ollama_server import FakeOllama
from tests.sqlcipher_pages import decrypted_pages, header_ok

CANARY = "Quokkazanzibar7781 hides the key under 秘密暗号石"
NEEDLES = ["quokkazanzibar7781", "秘密暗号", "暗号石", "hides the key"]


def leaks_in(blobs: list[bytes]) -> list[str]:
    return leaks.leaks_in(blobs, NEEDLES)


def _add_message(prof: Profile, text: str) -> int:
    with prof.db.transaction() as c:
        cid = c.execute(
            "INSERT INTO conversations(title, created_at, updated_at) VALUES ('t', ?, ?)",
            (now_iso(), now_iso()),
        ).lastrowid
        return int(
            c.execute(
                "INSERT INTO messages(conversation_id, role, content, created_at) VALUES (?, 'user', ?, ?)",
                (cid, text, now_iso()),
            ).lastrowid
        )


def test_no_plaintext_in_any_file_while_open_and_after(
    home: Path, fake_ollama: FakeOllama, vault: Vault, tmp_path: Path
) -> None:
    base = ["--home", str(home), "--ollama-host", fake_ollama.url, "--embed-model", "fake-embed"]
    out, err = io.StringIO(), io.StringIO()
    assert main([*base, "memory", "add", CANARY], out=out, err=err, vault=vault) == 0
    assert (
        main([*base, "memory", "search", "quokkazanzibar7781"], out=out, err=err, vault=vault) == 0
    )
    assert (
        main([*base, "memory", "edit", "1", CANARY + " (edited)"], out=out, err=err, vault=vault)
        == 0
    )
    assert main([*base, "doctor"], out=out, err=err, vault=vault) == 0
    from desktop_mem.core.config import Config

    with Profile.open(
        Config.resolve(home=home, ollama_host=fake_ollama.url, embed_model="fake-embed"), vault
    ) as prof:
        _add_message(prof, "message: " + CANARY)
        # while open: main file, -wal, -shm
        assert (home / "profiles" / "default" / "memory.db-wal").exists()
        assert leaks.scan_files(leaks.files_under(home), NEEDLES) == []
    written = leaks.files_under(home)
    assert any(p.suffix == ".log" for p in written), "the log exists and was scanned"
    assert leaks.scan_files(written, NEEDLES) == []


def test_deleted_memory_is_gone_from_decrypted_pages(
    profile: Profile, isolated: MemoryKeyring, tmp_path: Path
) -> None:
    store = profile.memories
    for i in range(50):
        store.add_many([NewMemory(f"filler memory number {i} about gardening and tea")])
    victim = store.add(NewMemory(CANARY, kind="fact")).memory
    store.edit(victim.id, text=CANARY + " and more")
    store.set_pinned(victim.id, True)
    code = profile.db.query("SELECT code FROM memory_codes WHERE memory_id = ?", (victim.id,))
    vector = profile.db.query(
        "SELECT embedding FROM memory_vectors WHERE memory_id = ?", (victim.id,)
    )
    traces = [code[0][0], vector[0][0][4:]]  # its binary code and its int8 vector
    key = stored_key(isolated, profile.db.path)
    path = profile.db.path

    before = decrypted_pages(path, secret_hex=key)
    assert header_ok(before[0])
    assert leaks_in(before) == NEEDLES, "the canary is visible in decrypted pages before deletion"
    assert all(any(t in page for page in before) for t in traces)

    store.delete(victim.id)
    pages = decrypted_pages(path, secret_hex=key)
    assert header_ok(pages[0])
    assert leaks_in(pages) == []
    # and so are its vectors, not just unlinked
    assert not any(t in page for t in traces for page in pages)

    # and a logical plaintext copy (sqlcipher_export) has nothing either
    plain = tmp_path / "plain.db"
    profile.db.execute(f"ATTACH DATABASE '{plain}' AS plain KEY ''")
    profile.db.query("SELECT sqlcipher_export('plain')")
    profile.db.execute("DETACH DATABASE plain")
    assert plain.read_bytes().startswith(b"SQLite format 3")
    assert b"filler memory number" in plain.read_bytes()  # the export worked
    assert leaks_in([plain.read_bytes()]) == []
    assert store.count() == 50


def test_forget_all_leaves_nothing(profile: Profile, isolated: MemoryKeyring) -> None:
    profile.memories.add(NewMemory(CANARY))
    profile.memories.add_many([NewMemory(f"{CANARY} copy {i}") for i in range(20)])
    profile.memories.forget_all()
    key = stored_key(isolated, profile.db.path)
    assert leaks_in(decrypted_pages(profile.db.path, secret_hex=key)) == []


def test_only_the_configured_server_is_contacted(profile: Profile, fake_ollama: FakeOllama) -> None:
    profile.memories.add(NewMemory("hello"))
    profile.search.search("hello")
    assert fake_ollama.paths() and set(fake_ollama.paths()) <= {"/api/embed"}
    # the conftest points OLLAMA_HOST at a dead port: anything else would have failed loudly


def test_database_files_are_private(profile: Profile) -> None:
    folder = profile.db.path.parent
    assert (folder.stat().st_mode & 0o077) == 0
    assert (profile.db.path.stat().st_mode & 0o077) == 0
    raw = profile.db.path.read_bytes()
    assert not raw.startswith(b"SQLite format 3")
    # and SQLite itself, given no key, cannot read a page of it
    plain = sqlcipher3.connect(f"file:{profile.db.path}?mode=ro", uri=True)
    try:
        plain.execute("PRAGMA cipher_log_level = NONE")
        with pytest.raises(sqlcipher3.DatabaseError, match="not a database"):
            plain.execute("SELECT count(*) FROM sqlite_master").fetchall()
    finally:
        plain.close()
