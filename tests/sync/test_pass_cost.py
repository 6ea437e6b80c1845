"""A pass costs what changed: it reads this computer's sync state once, and parses no key
file (nor record kept in the profile) that it has already read and that has not changed
since. Counted, not timed: the statements the database runs, the records parsed."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from desktop_mem.core.memory.records import NewMemory
from desktop_mem.core.sync import files, records
from tests.sync.conftest import Computer, Computers


@contextmanager
def counting(computer: Computer, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    seen: dict[str, Any] = {"statements": [], "parsed": 0}
    for name in ("key_file", "join_record"):
        real = getattr(records, name)

        def parse(*a: Any, _real: Any = real, **k: Any) -> Any:
            seen["parsed"] += 1
            return _real(*a, **k)

        monkeypatch.setattr(records, name, parse)
    conn = computer.profile.db.conn
    conn.set_trace_callback(seen["statements"].append)
    try:
        yield seen
    finally:
        conn.set_trace_callback(None)
        monkeypatch.undo()


def _two(computers: Computers) -> tuple[Computer, Computer]:
    laptop = computers.first()
    desktop = computers.pair(laptop, "desktop")
    for c in (laptop, desktop, laptop, desktop):
        c.sync()
    return laptop, desktop


def test_an_idle_pass_reads_its_state_once_and_parses_nothing_it_has_read(
    computers: Computers, monkeypatch: pytest.MonkeyPatch
) -> None:
    _laptop, desktop = _two(computers)
    with counting(desktop, monkeypatch) as seen:
        desktop.sync()
    state_reads = [s for s in seen["statements"] if "FROM meta" in s and "sync." in s]
    assert len(state_reads) <= 2, state_reads  # the state once (and the clock)
    assert seen["parsed"] == 0
    work = [s for s in seen["statements"] if not s.startswith(("BEGIN", "COMMIT"))]
    assert len(work) <= 20, work


def test_a_key_file_that_changed_is_read_again_even_with_its_time_put_back(
    computers: Computers, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Anyone who can write the folder can rewrite a key file and set its modification
    time back: what this computer read before is not taken for what is there now."""
    laptop, desktop = _two(computers)
    layout = laptop.syncer.layout()
    path = next(p for _n, _w, p in layout.key_files())
    st = os.stat(path)
    data = path.read_bytes()
    path.write_bytes(data[:-1] + bytes([data[-1] ^ 1]))  # one bit: its signature fails
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    with counting(desktop, monkeypatch) as seen:
        result = desktop.sync()
    assert seen["parsed"] >= 1
    assert any(path.name in r for r in result.refused)


def test_a_new_generation_is_read_and_the_state_follows_within_the_pass(
    computers: Computers, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a pass writes to its state is what the rest of the pass reads (the state is
    read once, then kept up to date): a removal's new key is written with at once."""
    laptop, desktop = _two(computers)
    third = computers.pair(laptop, "third")
    for c in (laptop, desktop, third, laptop, desktop):
        c.sync()
    laptop.syncer.remove(third.syncer.device)
    with counting(desktop, monkeypatch) as seen:
        desktop.sync()
    assert seen["parsed"] >= 1  # the removal's key file, new
    desktop.service.memories.add(NewMemory("Written after the removal"))
    desktop.sync()
    laptop.sync()
    assert "Written after the removal" in laptop.texts()
    newest = desktop.syncer.chain().current
    assert newest is not None and third.syncer.device in desktop.syncer.chain().removed
    assert files.key_name(newest.number, newest.writer) in {
        p.name for _n, _w, p in layout_of(desktop).key_files()
    }


def layout_of(c: Computer) -> files.Layout:
    return c.syncer.layout()
