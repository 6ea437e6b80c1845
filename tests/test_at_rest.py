"""At rest and after deletion: a scripted session through the real command line, then
every file the app wrote is searched for the plaintext of every message and memory.

- Data folder (database, WAL, logs, sidecar) and the temp folder: nothing.
- The exports the user asked for, written aside: everything (so the search is real).
- The keyring: one entry, the random key, nothing else.
- Deleting a memory, a conversation or everything: gone from the decrypted pages of
  the file and the WAL, FTS5 and vector shadow tables included, and from the history.
"""

from __future__ import annotations

import io
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest

from desktop_mem.cli import main
from desktop_mem.core.keys.vault import SERVICE, Vault, key_account
from tests import leaks
from tests.conftest import Run
from tests.fakes.keyrings import MemoryKeyring, stored_key
from tests.fakes.ollama_server import FakeOllama
from tests.sqlcipher_pages import decrypted_pages, header_ok

SAID = "Zebrafinch4242 sings 绝密口令 at dawn"  # what the user types
LEARNED = "Keeps an axolotl named Wombleberry55 in 秘密水族箱"  # what extraction stores
ADDED = "Plumcandle9931 is the door code 保险箱密码"  # added by hand, then edited
EDITED = "Plumcandle9931 is the gate code now"
DELETED = "Ghostlemur6060 knows 删除的秘密"  # added, then deleted
FORGOTTEN_CHAT = "Marmosetquill1717 confided 对话秘密"  # said in a conversation then deleted

SECRETS = ["Zebrafinch4242", "绝密口令", "Wombleberry55", "秘密水族箱", "Plumcandle9931",
           "保险箱密码", "gate code", "Ghostlemur6060", "删除的秘密", "Marmosetquill1717",
           "对话秘密"]  # fmt: skip


class Cli:
    def __init__(self, home: Path, fake: FakeOllama, vault: Vault) -> None:
        self.base = ["--home", str(home), "--ollama-host", fake.url, "--embed-model", "fake-embed"]
        self.vault = vault

    def __call__(self, *args: str) -> str:
        out, err = io.StringIO(), io.StringIO()
        code = main([*self.base, *args], out=out, err=err, vault=self.vault)
        assert code == 0, err.getvalue()
        return out.getvalue()

    def json(self, *args: str) -> Any:
        return json.loads(self(*args, "--json"))


def _learn(body: dict[str, Any]) -> dict[str, Any]:
    props = (body.get("format") or {}).get("properties", {})
    text = json.dumps(body["messages"], ensure_ascii=False)
    if "memories" in props and "Zebrafinch4242" in text:
        return {"memories": [{"text": LEARNED, "kind": "fact"}]}
    return {k: [] for k, v in props.items() if v.get("type") == "array"} or {"action": "NOOP"}


@pytest.fixture
def session(
    home: Path,
    fake_ollama: FakeOllama,
    vault: Vault,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> tuple[Cli, Path, Path]:
    """Runs the session; returns the CLI, the temp folder and the folder of exports."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setenv("TMPDIR", str(temp))
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    aside = tmp_path / "chosen-by-the-user"
    aside.mkdir()
    fake_ollama.json_responder = _learn
    cli = Cli(home, fake_ollama, vault)

    chat = cli.json("chat", SAID)
    assert chat["status"] == "complete"
    mems = {m["text"]: m["id"] for m in cli.json("memory", "list")}
    assert LEARNED in mems, "extraction stored the learned memory"
    cli("chat", "and what about the weather?", "--conversation", str(chat["conversation_id"]))
    fake_ollama.fail_next(500, paths=("/api/chat",))  # an error gets logged
    err = io.StringIO()
    assert main([*cli.base, "chat", "one more"], vault=vault, out=io.StringIO(), err=err) != 0
    assert "Ollama failed" in err.getvalue()

    added = cli.json("memory", "add", ADDED)["id"]
    cli("memory", "edit", str(added), EDITED)
    cli("memory", "pin", str(added))
    gone = cli.json("memory", "add", DELETED)["id"]
    cli("memory", "search", "Ghostlemur6060")
    cli("memory", "delete", str(gone))
    other = cli.json("chat", FORGOTTEN_CHAT)["conversation_id"]
    cli("conversations", "search", "Marmosetquill1717")
    cli("conversations", "delete", str(other))

    cli("memory", "export", str(aside / "memories.json"))
    cli("memory", "export", str(aside / "memories.md"))
    cli("conversations", "export", str(chat["conversation_id"]), str(aside / "chat.md"))
    cli("doctor")
    return cli, temp, aside


def test_no_plaintext_in_anything_the_app_wrote(
    session: tuple[Cli, Path, Path], home: Path, isolated: MemoryKeyring
) -> None:
    _, temp, aside = session
    exported = leaks.files_under(aside)
    assert len(exported) == 3
    found_aside = leaks.leaks_in([p.read_bytes() for p in exported], SECRETS)
    for kept in ("Zebrafinch4242", "Wombleberry55", "gate code"):
        assert kept in found_aside, f"the export holds {kept}: the search can find things"

    written = leaks.files_under(home, temp)
    names = {p.name for p in written}
    assert "memory.db" in names and any(n.endswith(".log") for n in names)
    log = next(p for p in written if p.suffix == ".log").read_text("utf-8")
    assert "500" in log or "error" in log.lower(), "the log recorded the failed turn"
    assert leaks.scan_files(written, SECRETS) == []

    entries = {a: s for (svc, a), s in isolated.secrets.items() if svc == SERVICE}
    assert list(entries) == [key_account(home / "profiles" / "default" / "memory.db", "default")]
    (secret,) = entries.values()
    assert len(secret) == 64 and int(secret, 16) >= 0, "the keyring holds the raw key only"


def _pages(home: Path, isolated: MemoryKeyring) -> list[bytes]:
    path = home / "profiles" / "default" / "memory.db"
    pages = decrypted_pages(
        path, secret_hex=isolated.secrets[(SERVICE, key_account(path, "default"))]
    )
    assert header_ok(pages[0])
    return pages


def test_deleted_things_are_gone_from_the_decrypted_file(
    session: tuple[Cli, Path, Path], home: Path, isolated: MemoryKeyring
) -> None:
    """Decrypted: what was deleted is gone (messages_fts, message_vectors, the history
    and free pages included); what was kept is still there (the check can see)."""
    pages = _pages(home, isolated)
    present = leaks.leaks_in(pages, SECRETS)
    assert {"Zebrafinch4242", "Wombleberry55", "Plumcandle9931", "gate code"} <= set(present)
    assert (
        leaks.leaks_in(pages, ["Ghostlemur6060", "删除的秘密", "Marmosetquill1717", "对话秘密"])
        == []
    )
    # the edit's history keeps the old text on purpose (restore needs it) ...
    assert "保险箱密码" in present


def test_wipe_leaves_nothing(
    session: tuple[Cli, Path, Path], home: Path, isolated: MemoryKeyring
) -> None:
    cli, _, _ = session
    assert "for good" in cli("wipe", "--yes")
    assert cli.json("memory", "list") == [] and cli.json("conversations", "list") == []
    pages = _pages(home, isolated)
    assert leaks.leaks_in(pages, SECRETS) == []
    report_files = leaks.files_under(home)
    assert leaks.scan_files(report_files, SECRETS) == []


def test_a_deletion_held_up_by_a_reader_says_so_and_completes_when_it_lets_go(
    run: Run,
    home: Path,
    vault: Vault,
    isolated: MemoryKeyring,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from desktop_mem.core.db import database as dbmod
    from desktop_mem.core.db.opening import open_profile

    monkeypatch.setattr(dbmod, "BUSY_TIMEOUT_MS", 300)
    canary = "pelicanquartz reader canary 9321"
    assert run("memory", "add", canary)[0] == 0
    assert run("memory", "add", "something to keep")[0] == 0
    reader = open_profile(home, "default", vault=vault)
    reader.conn.execute("BEGIN")
    reader.conn.execute("SELECT count(*) FROM memories").fetchone()  # an open snapshot
    code, out, _ = run("memory", "delete", "1")
    assert code == 0 and "for good" in out
    assert "stays in the file until it lets go" in out, "no false 'gone' while a reader holds it"
    reader.conn.execute("COMMIT")
    reader.close()  # its closing checkpoint completes the erase
    key = stored_key(isolated, home / "profiles" / "default" / "memory.db")
    path = home / "profiles" / "default" / "memory.db"
    assert not any(canary.encode() in p for p in decrypted_pages(path, secret_hex=key))
