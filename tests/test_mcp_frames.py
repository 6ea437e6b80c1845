"""The MCP server under raw frames: bytes written straight to `desktop-mem mcp`'s stdin, as
a broken or hostile client would, not through the SDK's client (which never sends
them). Each bad frame gets a JSON-RPC error of one sentence, the next request is
served, and nothing reaches stderr (the host app's log)."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from desktop_mem.core.keys.vault import KeyringAccess, Vault
from tests import report
from tests.conftest import Run
from tests.fakes.keyrings import FileKeyring
from tests.fakes.ollama_server import FakeOllama
from tests.test_mcp import _env

ANSWER_WAIT_S = 60  # a guard against a wedged server, not a timing assertion

INIT = {
    "jsonrpc": "2.0", "id": 0, "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {},
               "clientInfo": {"name": "raw", "version": "1"}},
}  # fmt: skip


def _call(rid: Any, tool: str, arguments: str) -> bytes:
    return (
        f'{{"jsonrpc":"2.0","id":{rid},"method":"tools/call",'
        f'"params":{{"name":"{tool}","arguments":{arguments}}}}}'
    ).encode()


# (what it is, the frame, the id its error must carry)
BAD_FRAMES: list[tuple[str, bytes, Any]] = [
    ("not JSON", b"this is not json", None),
    ("cut JSON", b'{"jsonrpc":"2.0","id":7,"method":', None),
    ("not UTF-8", b'{"jsonrpc":"2.0","id":7,"method":"\xff\xfe"}', None),
    ("lone surrogate in a query", _call(11, "search_memories", '{"query":"\\ud800 x"}'), 11),
    ("lone low surrogate", _call(12, "search_memories", '{"query":"a\\udfff"}'), 12),
    ("surrogate in a key", b'{"jsonrpc":"2.0","id":13,"method":"ping","params":{"\\ud800":1}}', 13),
    ("boolean id", b'{"jsonrpc":"2.0","id":true,"method":"tools/list"}', None),
    ("false id", b'{"jsonrpc":"2.0","id":false,"method":"tools/list"}', None),
    ("fractional id", b'{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}', None),
    ("object id", b'{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}', None),
    ("huge id", b'{"jsonrpc":"2.0","id":100000000000000000000000,"method":"tools/list"}', None),
    ("10**23 as memory id", _call(14, "delete_memory", '{"memory_id":100000000000000000000000}'), 14),
    ("1e999 as a limit", _call(15, "search_memories", '{"query":"a","limit":1e999}'), 15),
    ("a 5,000-digit number", _call(16, "delete_memory", '{"memory_id":' + "9" * 5000 + "}"), 16),
    ("NaN", b'{"jsonrpc":"2.0","id":17,"method":"ping","params":{"x":NaN}}', None),
    ("a batch", b'[{"jsonrpc":"2.0","id":18,"method":"ping"}]', None),
    ("a number, not an object", b"42", None),
    ("no method", b'{"jsonrpc":"2.0","id":19}', 19),
    ("wrong jsonrpc version", b'{"jsonrpc":"1.0","id":20,"method":"ping"}', 20),
    ("nested 100,000 deep", b"[" * 100_000 + b"]" * 100_000, None),
    ("nested 40 deep", _call(21, "search_memories", '{"query":"a","x":' + "[" * 40 + "]" * 40 + "}"), 21),
    ("2 MiB frame", _call(22, "search_memories", '{"query":"' + "a" * (2 << 20) + '"}'), None),
]  # fmt: skip


class Server:
    def __init__(self, home: Path, fake: FakeOllama) -> None:
        args = ["--home", str(home), "--ollama-host", fake.url, "--embed-model", "fake-embed"]
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "desktop_mem", *args, "mcp"],
            env=_env(home),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=str(Path(__file__).resolve().parents[1]),
        )
        self.answers: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.answers.put(line)

    def send(self, frame: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(frame + b"\n")
        self.proc.stdin.flush()

    def answer(self) -> dict[str, Any]:
        return json.loads(self.answers.get(timeout=ANSWER_WAIT_S))

    def close(self) -> bytes:
        assert self.proc.stdin is not None and self.proc.stderr is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=ANSWER_WAIT_S)
        return self.proc.stderr.read()


def _one_sentence(text: str) -> bool:
    return bool(text) and "\n" not in text and text.endswith(".") and len(text) < 240


def test_every_bad_frame_is_answered_in_one_sentence_and_the_next_is_served(
    tmp_path: Path, fake_ollama: FakeOllama, monkeypatch: Any
) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv("DESKTOP_MEM_TEST_KEYRING_FILE", str(home.parent / "keyring.json"))
    run = Run(home, fake_ollama, Vault(KeyringAccess(FileKeyring())))
    assert run("memory", "add", "Lives in Hangzhou")[0] == 0
    server = Server(home, fake_ollama)
    try:
        server.send(b"not json before initialize")  # the order that once stopped every answer
        first = server.answer()
        assert first["id"] is None and first["error"]["code"] == -32700
        server.send(json.dumps(INIT).encode())
        assert server.answer()["result"]["serverInfo"]["name"] == "desktop-mem"
        server.send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')
        for n, (what, frame, rid) in enumerate(BAD_FRAMES):
            server.send(frame)
            got = server.answer()
            assert "error" in got, what
            assert got["id"] == rid, what
            assert _one_sentence(got["error"]["message"]), (what, got["error"]["message"])
            server.send(f'{{"jsonrpc":"2.0","id":{1000 + n},"method":"tools/list"}}'.encode())
            served = server.answer()
            assert served["id"] == 1000 + n and "tools" in served["result"], what
        # booleans are not integers: memory 1 is not deleted by `true`
        server.send(_call(30, "delete_memory", '{"memory_id":true}'))
        typed = server.answer()
        assert typed["id"] == 30 and typed["result"]["isError"]
        assert _one_sentence(typed["result"]["content"][0]["text"])
        assert "whole number" in typed["result"]["content"][0]["text"]
        server.send(_call(31, "list_memories", "{}"))
        listed = server.answer()["result"]["structuredContent"]["memories"]
        assert [m["id"] for m in listed] == [1]
        stderr = server.close()
    finally:
        if server.proc.poll() is None:
            server.proc.kill()
    assert stderr == b""
    report.add("mcp_frames", len(BAD_FRAMES) + 2)
