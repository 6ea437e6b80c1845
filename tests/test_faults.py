"""Faults from the model server, and two processes on one profile (issue 5, items 5
and 8): each one leaves the app usable and keeps the user's message."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from desktop_mem.core.chat.session import ChatSession
from desktop_mem.core.config import Config
from desktop_mem.core.errors import DesktopMemError
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.models.llm import OllamaChat
from desktop_mem.core.profile import Profile
from desktop_mem.core.store import db as db_module
from tests.conftest import Run
from tests.fakes.ollama_server import FakeOllama, Reply


@pytest.fixture
def session(profile: Profile, fake_ollama: FakeOllama) -> ChatSession:
    s = ChatSession(profile, OllamaChat(fake_ollama.url, read_timeout=2.0))
    yield s
    s.close()


@pytest.mark.parametrize(
    ("fault", "expected"),
    [
        ({"status": 500, "body": '{"error": "CUDA out of memory"}'}, "CUDA out of memory"),
        ({"status": 404, "body": '{"error": "model \\"qwen2.5:7b\\" not found"}'}, "ollama pull"),
        ({"status": 200, "body": "\x00\xff not json at all {{{"}, "not valid|Unexpected|failed"),
        ({"status": 200, "drop": True}, "not reachable|stopped answering"),
        ({"status": 200, "delay": 3.0}, "did not answer in time"),
    ],
    ids=["500", "404", "garbage", "dropped", "timeout"],
)
def test_chat_survives_server_faults(
    session: ChatSession, fake_ollama: FakeOllama, fault: dict, expected: str
) -> None:
    import re

    fake_ollama.fail_next(paths=("/api/chat",), **fault)
    result = session.send("please keep this message")
    assert result.status == "error" and re.search(expected, result.error or ""), result.error
    assert session.messages()[0].content == "please keep this message"
    again = session.regenerate()
    assert again.status == "complete", "the app stays usable"


def test_a_ten_megabyte_answer(session: ChatSession, fake_ollama: FakeOllama) -> None:
    chunk = "lorem ipsum dolor sit amet " * 400  # ~10 KB
    fake_ollama.replies.append(Reply(chunks=[chunk] * 1000))
    result = session.send("write a very long story")
    assert result.status == "complete" and len(result.text) >= 10_000_000
    assert len(session.messages()[1].content) == len(result.text)


def test_embedding_faults_keep_the_memory(profile: Profile, fake_ollama: FakeOllama) -> None:
    fake_ollama.fail_next(200, paths=("/api/embed",), body="\x00garbage")
    result = profile.memories.add(NewMemory("saved even when the embedding is garbage"))
    assert result.warnings and profile.memories.get(result.memory.id)
    assert profile.search.search("garbage embedding", k=1).hits[0].memory.id == result.memory.id


def test_extraction_faults_never_reach_the_chat(
    profile: Profile, session: ChatSession, fake_ollama: FakeOllama
) -> None:
    fake_ollama.fail_next(500, paths=("/api/chat",), after=1, times=2)
    result = session.send("I live in Hangzhou")
    assert result.status == "complete" and result.learned(10) == []
    fake_ollama.reply_json({"memories": [{"text": "x" * 600}]})  # fails the schema
    fake_ollama.reply_json({"memories": "not a list"})
    assert session.send("I have a dog").learned(10) == []
    assert profile.memories.count() == 0 and len(session.messages()) == 4


def test_two_processes_write_the_same_profile(home: Path, fake_ollama: FakeOllama) -> None:
    env = dict(os.environ, DESKTOP_MEM_PASSPHRASE="two writers passphrase")
    base = [sys.executable, "-m", "desktop_mem", "--home", str(home), "--ollama-host",
            fake_ollama.url, "--embed-model", "fake-embed"]  # fmt: skip
    assert (
        subprocess.run([*base, "memory", "add", "first"], env=env, capture_output=True).returncode
        == 0
    )
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                "import sys\nfrom desktop_mem.cli import main\n"
                "for i in range(15):\n"
                "    code = main([*sys.argv[1:-1], 'memory', 'add', f'writer {sys.argv[-1]} {i}'])\n"
                "    assert code == 0, code\n",
                *base[3:],
                tag,
            ],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        for tag in ("a", "b")
    ]
    for p in procs:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err[-2000:]
    config = Config.resolve(home=home, ollama_host=fake_ollama.url, embed_model="fake-embed",
                            passphrase="two writers passphrase")  # fmt: skip
    with Profile.open(config) as prof:
        assert prof.db.query("PRAGMA integrity_check")[0][0] == "ok"
        texts = {m.text for m in prof.memories.list()}
        assert {f"writer {t} {i}" for t in "ab" for i in range(15)} <= texts
        assert prof.memories.index.count() == prof.memories.count() == 31
        # the in-memory codes of each process saw the other's writes
        assert prof.search.search("writer a 7", k=1).hits[0].memory.text == "writer a 7"


def test_a_writer_that_must_wait_too_long_gets_one_sentence_and_loses_nothing(
    profile: Profile, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another program holds the write lock longer than the busy timeout: the command
    says who is in the way and what to do, exits 1, and the next try works."""
    monkeypatch.setattr(db_module, "BUSY_TIMEOUT_MS", 200)
    profile.memories.add(NewMemory("kept before the wait"))
    with profile.db.transaction():  # the window, in the middle of a long write
        code, _, err = run("memory", "add", "typed while the other writes")
    assert code == 1
    assert err.count("\n") == 1 and "Another desktop-mem is writing" in err and "try again" in err
    code, _, err = run("memory", "add", "typed while the other writes")
    assert code == 0, err
    texts = {m.text for m in profile.memories.list()}
    assert texts == {"kept before the wait", "typed while the other writes"}


def test_a_full_disk_refuses_the_write_in_one_sentence_and_keeps_everything(
    profile: Profile, run: Run
) -> None:
    """SQLite's own SQLITE_FULL, through a page limit (max_page_count) on the window's
    connection: the write is refused whole, what was stored stays, and it works again
    once there is room."""
    profile.memories.add_many([NewMemory(f"stored before the disk filled {i}") for i in range(3)])
    pages = profile.db.query("PRAGMA page_count")[0][0]
    profile.db.execute(f"PRAGMA max_page_count = {pages}")
    with pytest.raises(DesktopMemError) as caught:
        profile.memories.add_many([NewMemory(f"too much {i} " + "x" * 3000) for i in range(20)])
    assert "full" in str(caught.value) and "nothing was changed" in str(caught.value)
    assert profile.memories.count() == 3 and profile.memories.index.count() == 3
    assert profile.search.search("stored before", k=3).hits
    profile.db.execute("PRAGMA max_page_count = 1073741823")
    profile.memories.add(NewMemory("room again"))
    assert profile.memories.count() == 4
    assert profile.db.query("PRAGMA integrity_check")[0][0] == "ok"


def test_an_export_into_a_pipe_writes_into_it_and_a_full_device_says_so(
    run: Run, tmp_path: Path
) -> None:
    """A target that is not a regular file is written into, never replaced by a rename;
    a device with no room (/dev/full, ENOSPC) gets one sentence."""
    assert run("memory", "add", "I keep bees")[0] == 0
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    code, _, err = run("memory", "export", str(fifo))
    reader.join(10)
    assert code == 0, err
    assert fifo.exists() and not fifo.is_file(), "the pipe is still a pipe"
    assert json.loads(got[0])["memories"][0]["text"] == "I keep bees"
    full = Path("/dev/full")
    if full.is_char_device():
        code, _, err = run("memory", "export", str(full))
        assert code == 1 and err.count("\n") == 1 and "/dev/full" in err
        assert full.is_char_device()
