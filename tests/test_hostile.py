"""Hostile input through the real command line: argument bytes that are not UTF-8,
integers no id can reach, dates at the edges of the calendar, malformed server
addresses, a SOCKS proxy in the environment. Each gets one sentence on stderr and its
documented exit code, never a traceback, and the profile still opens with all its
data."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests import report
from tests.conftest import Run
from tests.fakes.ollama_server import FakeOllama

BAD_TEXT = os.fsdecode(b"caf\xe9 in Latin-1")  # what a non-UTF-8 terminal passes through
HUGE = [str(2**64), str(-(2**64)), "9" * 400]
EDGE_DATES = ["0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00"]
BAD_HOSTS = ["http://[::1", "http://h:99999", "http://h:abc", "ftp://h", "http://"]


def _commands_with_text(text: str) -> list[list[str]]:
    return [
        ["memory", "add", text],
        ["memory", "search", text],
        ["memory", "edit", "1", text],
        ["memory", "list", "--kind", text],
        ["chat", text],
        ["conversations", "rename", "1", text],
        ["settings", "set", "chat_model", text],
    ]


def _commands_with_number(n: str) -> list[list[str]]:
    return [
        ["memory", "delete", n],
        ["memory", "edit", n, "new text"],
        ["memory", "history", n],
        ["memory", "search", "tea", "-k", n],
        ["memory", "list", "--limit", n],
        ["conversations", "show", n],
        ["conversations", "delete", n],
    ]


def _seeded(run: Run) -> None:
    assert run("memory", "add", "I drink oolong tea")[0] == 0
    assert run("chat", "hello there")[0] == 0


def _one_sentence(code: int, err: str, allowed: tuple[int, ...] = (1, 2)) -> None:
    report.add("hostile")
    assert code in allowed, err
    assert "Traceback" not in err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("desktop-mem: "), err


def _intact(run: Run) -> None:
    code, out, _ = run("memory", "list", "--json")
    assert code == 0 and [m["text"] for m in json.loads(out)] == ["I drink oolong tea"]
    code, out, _ = run("conversations", "list", "--json")
    assert code == 0 and len(json.loads(out)) == 1, "no empty conversation was left behind"


def test_arguments_that_are_not_utf8(run: Run, fake_ollama: FakeOllama) -> None:
    _seeded(run)
    for argv in _commands_with_text(BAD_TEXT):
        code, _, err = run(*argv)
        _one_sentence(code, err, (2,))
        assert "not valid UTF-8" in err
    _intact(run)


def test_integers_no_id_or_count_can_reach(run: Run, fake_ollama: FakeOllama) -> None:
    _seeded(run)
    for n in HUGE:
        for argv in _commands_with_number(n):
            code, _, err = run(*argv)
            _one_sentence(code, err)
    _intact(run)


def test_dates_at_the_edges_of_the_calendar(
    run: Run, fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    _seeded(run)
    for when in EDGE_DATES:
        for flag in ("--valid-from", "--valid-until"):
            code, _, err = run("memory", "add", "a dated memory", flag, when)
            _one_sentence(code, err)
            code, _, err = run("memory", "edit", "1", flag, when)
            _one_sentence(code, err)
        rows = {
            "json": json.dumps([{"text": "imported", "valid_from": when}]),
            "csv": f"text,valid_from\nimported,{when}\n",
        }
        for ext, body in rows.items():
            path = tmp_path / f"edge.{ext}"
            path.write_text(body, "utf-8")
            code, _, err = run("memory", "import", str(path))
            assert "Traceback" not in err and code in (0, 1, 2), err
    path = tmp_path / "surrogate.json"
    path.write_text('[{"text": "half a \\ud800 pair"}]', "utf-8")
    code, out, err = run("memory", "import", str(path))
    assert code == 0 and "Traceback" not in err, err
    assert run("memory", "delete", "2")[0] == 0  # it was stored, without the surrogate
    for digits in (400, 5000):
        path = tmp_path / "importance.json"
        path.write_text('[{"text": "imported", "importance": ' + "9" * digits + "}]", "utf-8")
        code, _, err = run("memory", "import", str(path))
        _one_sentence(code, err)
    _intact(run)


def test_malformed_server_addresses(run: Run, fake_ollama: FakeOllama) -> None:
    _seeded(run)
    for host in BAD_HOSTS:
        code, _, err = run("memory", "search", "tea", base=[*run.base[:2], "--ollama-host", host])
        _one_sentence(code, err, (2,))
        assert "not a valid Ollama address" in err
    _intact(run)


def test_a_socks_proxy_in_the_environment_breaks_nothing(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "DESKTOP_MEM_HOME": str(tmp_path),
        "DESKTOP_MEM_PASSPHRASE": "x" * 10,
        "ALL_PROXY": "socks5://127.0.0.1:9",
    }
    for argv in (["--version"], ["memory", "list"]):
        proc = subprocess.run(
            [sys.executable, "-m", "desktop_mem", *argv],
            capture_output=True, text=True, timeout=120, env=env,
        )  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("raw", [b"caf\xe9", b"\xff\xfe", b"ok \xc3"])
def test_undecodable_bytes_from_a_real_process(tmp_path: Path, raw: bytes) -> None:
    env = {**os.environ, "DESKTOP_MEM_HOME": str(tmp_path), "DESKTOP_MEM_PASSPHRASE": "x" * 10}
    proc = subprocess.run(
        [sys.executable.encode(), b"-m", b"desktop_mem", b"memory", b"add", raw],
        capture_output=True, timeout=120, env=env,
    )  # fmt: skip
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 2 and "Traceback" not in err and "not valid UTF-8" in err


def test_a_damaged_database_is_one_sentence_and_is_not_written(
    run: Run, fake_ollama: FakeOllama, home: Path
) -> None:
    for n in range(40):
        assert run("memory", "add", f"memory number {n} about oolong tea and the sea")[0] == 0
    path = home / "profiles" / "default" / "memory.db"
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF  # one flipped byte in a page in the middle
    path.write_bytes(bytes(data))
    code, out, _ = run("doctor")  # names the damage, whichever page it is in
    assert code == 1 and "damaged" in out
    failed = 0
    for argv in (
        ["memory", "list"],
        ["memory", "search", "oolong tea"],
        ["memory", "search", "sea", "--all"],
        ["memory", "add", "one more"],
        ["wipe", "--yes"],
    ):
        code, _, err = run(*argv)
        assert "Traceback" not in err
        if code != 0:  # what did not touch the damaged page may still work
            _one_sentence(code, err, (1,))
            assert "damaged" in err
            failed += 1
    assert failed, "the damage was met"
