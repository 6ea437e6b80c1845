"""kill -9 of a computer in the middle of applying what it received and in the middle
of writing its change file: the next pass goes on from where it stopped, and nothing is
lost or applied twice."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.sync import files, frame, pairing, records
from tests.fakes.ollama_server import FakeOllama
from tests.sync.conftest import Computer, Computers

ROOT = Path(__file__).resolve().parents[2]


def _cli(home: Path, fake: FakeOllama, *args: str) -> list[str]:
    return [sys.executable, "-m", "desktop_mem", "--home", str(home), "--ollama-host", fake.url,
            "--embed-model", "fake-embed", *args]  # fmt: skip


def _env() -> dict[str, str]:
    return dict(os.environ, DESKTOP_MEM_PASSPHRASE="kill test passphrase", PYTHONPATH=str(ROOT))


def _kill_when(cmd: list[str], ready) -> bool:
    """Run `cmd` and SIGKILL it as soon as `ready()` is observed; whether it was killed
    (a fast machine may finish first)."""
    proc = subprocess.Popen(cmd, env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    while proc.poll() is None:
        if ready():
            proc.send_signal(signal.SIGKILL)
            break
        time.sleep(0.005)
    proc.wait(timeout=60)
    return proc.returncode == -signal.SIGKILL


def _run(cmd: list[str]) -> str:
    done = subprocess.run(cmd, env=_env(), capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.timeout(900)  # it waits on observed progress, however slow
def test_kill_9_while_applying_and_while_writing_loses_nothing(
    computers: Computers, fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    laptop = computers.first("laptop")
    laptop.service.memories.add_many(
        [NewMemory(f"laptop memory {n}: " + "something said about a day " * 4) for n in range(2500)]
    )
    laptop.sync()
    home = tmp_path / "desktop"
    wal = home / "profiles" / "default" / "memory.db-wal"
    killed = []

    # 1. killed while joining: once its database is being written well past its creation
    killed.append(
        _kill_when(
            _cli(home, fake_ollama, "sync", "join", str(computers.folder), "--code", laptop.code),
            lambda: wal.exists() and wal.stat().st_size > 2_000_000,
        )
    )
    status = json.loads(_run(_cli(home, fake_ollama, "sync", "status", "--json")))
    if status["enabled"]:
        _run(_cli(home, fake_ollama, "sync", "now"))
    else:  # killed before it had joined: the empty profile joins again
        _run(_cli(home, fake_ollama, "sync", "join", str(computers.folder), "--code", laptop.code))
    listed = json.loads(
        _run(_cli(home, fake_ollama, "memory", "list", "--json", "--limit", "100000"))
    )
    assert len(listed) == 2500 and len({m["text"] for m in listed}) == 2500

    # 2. killed while writing its change file: when its temporary file appears
    extra = tmp_path / "extra.json"
    extra.write_text(json.dumps([{"text": f"desktop memory {n}"} for n in range(3000)]))
    _run(_cli(home, fake_ollama, "memory", "import", str(extra)))
    device = json.loads(_run(_cli(home, fake_ollama, "sync", "status", "--json")))["device"]
    mine = next(computers.folder.glob("desktop-mem-*")) / device

    def writing() -> bool:
        return mine.is_dir() and any(p.name.startswith(".~dm-") for p in mine.iterdir())

    killed.append(_kill_when(_cli(home, fake_ollama, "sync", "now"), writing))
    _run(_cli(home, fake_ollama, "sync", "now"))
    laptop.sync()
    texts = laptop.texts()
    assert len(texts) == 5500 and sum(t.startswith("desktop memory") for t in texts) == 3000
    assert not any(p.name.startswith(".~dm-") for p in mine.iterdir())
    print(f"kills that landed mid-work: {sum(killed)} of {len(killed)}")


def _progress_of(cmd: list[str], kill_at: int | None = None) -> tuple[list[int], bool, str]:
    """Run `cmd` with its stderr on a terminal (so it shows its progress), read the
    "N of M records" it shows; SIGKILL it once N reaches `kill_at`. Returns the Ns,
    whether it was killed, and all it wrote."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(cmd, env=_env(), stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    seen: list[int] = []
    text, killed = "", False
    try:
        while True:
            ready, _, _ = select.select([master], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(master, 4096)
                except OSError:  # the child closed the terminal
                    chunk = b""
                if not chunk and proc.poll() is not None:
                    break
                text += chunk.decode("utf-8", "replace")
                seen = [
                    int(n.replace(",", "")) for n in re.findall(r"([\d,]+) of [\d,]+ records", text)
                ]
                if kill_at is not None and seen and seen[-1] >= kill_at and proc.poll() is None:
                    proc.send_signal(signal.SIGKILL)
                    killed = True
            elif proc.poll() is not None:
                break
    finally:
        os.close(master)
        proc.wait(timeout=600)
    if not killed:
        assert proc.returncode == 0, text
    return seen, killed, text


@pytest.mark.timeout(1200)  # it waits on observed progress, however slow
def test_a_join_killed_half_way_goes_on_from_where_it_stopped(
    computers: Computers, fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    from desktop_mem.core.sync.syncer import APPLY_BATCH

    laptop = computers.first("laptop")
    conversations = laptop.service.profile.conversations
    per = 100
    for c in range(2 * APPLY_BATCH // per + 10):  # more than two steps of records
        conv = conversations.create(f"chat {c}")
        conversations.add_messages(
            conv.id, [("user" if i % 2 == 0 else "assistant", f"message {c}-{i}", None)
                      for i in range(per)],
        )  # fmt: skip
    laptop.sync()
    total = len(conversations.list(limit=100000))
    home = tmp_path / "desktop"
    join = _cli(home, fake_ollama, "sync", "join", str(computers.folder), "--code", laptop.code)
    first, killed, joining = _progress_of(join, kill_at=APPLY_BATCH)
    assert first and first[0] >= APPLY_BATCH
    rest, _, shown = _progress_of(_cli(home, fake_ollama, "sync", "now"))
    if killed:  # it went on from the step it had committed, not from the start
        assert rest and rest[0] > APPLY_BATCH, rest
    # then the vectors for what arrived, by this computer's model, with their progress
    indexing = re.findall(
        r"Indexing what arrived by meaning: ([\d,]+) of ([\d,]+)", joining + shown
    )
    assert indexing and indexing[-1][0] == indexing[-1][1], shown[-500:]
    listed = json.loads(_run(_cli(home, fake_ollama, "conversations", "list", "--json")))
    print(f"join killed after a step: {killed}; progress then {first}, after {rest}")
    assert len(listed) == total and len({c["title"] for c in listed}) == total
    assert sum(c["messages"] for c in listed) == total * per


def test_killed_after_its_change_file_was_in_place_it_stays_the_same_computer(
    computers: Computers,
) -> None:
    """kill -9 after the change file's rename and before the pass recorded it: the file
    in the folder, the profile's "written" one behind. The next pass writes that file
    again under its name, as the same computer (not as a restored copy, which would
    leave its folder behind with texts deleted since)."""
    laptop = computers.first("laptop")
    laptop.service.memories.add(NewMemory("written before the kill"))
    laptop.sync()
    desktop = computers.join("desktop", laptop.code)
    desktop.sync()
    mem = laptop.service.memories.add(NewMemory("deleted after the kill")).memory
    laptop.sync()
    device = laptop.syncer.device
    written = laptop.syncer.state.int("written")
    with laptop.profile.db.transaction() as conn:  # the state such a kill leaves
        laptop.syncer.state.set(conn, {"written": str(written - 1)})
    laptop.service.memories.delete([mem.id])
    laptop.sync(compact=True)
    assert laptop.syncer.device == device
    from desktop_mem.core.sync import files

    layout = files.Layout.of(computers.folder, files.find_profiles(computers.folder)[0])
    assert sorted(layout.devices()) == sorted([device, desktop.syncer.device])
    desktop.sync()
    assert desktop.texts() == ["written before the kill"]
    assert laptop.texts() == ["written before the kill"]


class _Killed(BaseException):
    """kill -9 at this point: nothing after it runs (no `except Exception` sees it)."""


def _killed_once_written(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """The process is killed right after records.`name` put its file in place."""
    real = getattr(records, name)

    def write(*args: object, **kwargs: object) -> object:
        real(*args, **kwargs)
        raise _Killed

    monkeypatch.setattr(records, name, write)


def _texts_in_folder(c: Computer) -> str:
    """Every record of every change file and snapshot in the folder, opened."""
    layout, chain = c.syncer.layout(), c.syncer.chain()
    out = []
    for device in layout.devices():
        for path in sorted(layout.device(device).iterdir()):
            kind = {".dmc": "changes", ".dms": "snapshot"}.get(path.suffix)
            if kind is not None:
                raw = frame.read_raw(path, layout.sync_id, kind)
                out += [json.dumps(r) for r in raw.records(chain.key(raw.header["key"]))]
    return "\n".join(out)


def test_killed_after_the_join_it_signed_was_in_place_it_stays_the_same_computer(
    computers: Computers, monkeypatch: pytest.MonkeyPatch
) -> None:
    """kill -9 after the join that lets in a computer (asking with a pairing code shown
    here) took its name, before the pass kept that it signed it: the next pass took the
    join for the work of a copy of this computer under its identity and went on as a
    new computer. Its old id stayed a member no one writes as, its folder for good, with
    texts deleted since in it (the sync fuzz, seed 4203)."""
    laptop = computers.first("laptop")
    mem = laptop.service.memories.add(NewMemory("deleted after the kill")).memory
    laptop.service.memories.add(NewMemory("kept"))
    laptop.sync()
    desktop = computers.join("desktop", laptop.code)
    desktop.sync()
    device = laptop.syncer.device
    code = laptop.syncer.offer_pairing()
    tablet = computers.new("tablet")
    chain = pairing.join_with_pairing_code(laptop.syncer.layout(), code)
    tablet.syncer.join(computers.folder, chain, "tablet")
    assert tablet.sync().waiting_for == device
    with monkeypatch.context() as m:
        _killed_once_written(m, "write_join")
        with pytest.raises(_Killed):
            laptop.sync()  # lets the tablet in
    laptop.service.memories.delete([mem.id])
    laptop.sync(compact=True)
    assert laptop.syncer.device == device
    assert tablet.sync().let_in
    desktop.sync()
    assert sorted(laptop.syncer.layout().devices()) == sorted(
        c.syncer.device for c in (laptop, desktop, tablet)
    )
    assert "deleted after the kill" not in _texts_in_folder(desktop)
    assert laptop.texts() == desktop.texts() == tablet.texts() == ["kept"]


def test_killed_after_the_key_file_it_wrote_was_in_place_it_stays_the_same_computer(
    computers: Computers, monkeypatch: pytest.MonkeyPatch
) -> None:
    """kill -9 while taking a computer out, after the new generation's key file took
    its name, before the key chain kept that this computer wrote it: the next pass took
    the key file for the work of a copy of this computer and went on as a new one."""
    laptop = computers.first("laptop")
    laptop.service.memories.add(NewMemory("kept"))
    laptop.sync()
    desktop = computers.join("desktop", laptop.code)
    stolen = computers.join("stolen", laptop.code)
    desktop.sync()
    stolen.sync()
    laptop.sync()
    device = laptop.syncer.device
    with monkeypatch.context() as m:
        _killed_once_written(m, "write_key_file")
        with pytest.raises(_Killed):
            laptop.syncer.remove(stolen.syncer.device)
    laptop.sync()
    assert laptop.syncer.device == device
    assert stolen.syncer.device in laptop.syncer.chain().removed
    desktop.sync()
    assert sorted(desktop.syncer.chain().members) == sorted([device, desktop.syncer.device])
    assert sorted(files.Layout.of(computers.folder, laptop.syncer.layout().sync_id).devices()) == (
        sorted([device, desktop.syncer.device])
    )


@pytest.mark.timeout(900)  # it waits on observed progress, however slow
def test_kill_9_while_mending_its_own_damaged_file_loses_nothing(
    computers: Computers, fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    """The engine cut this computer's own change file short in the folder; the pass that
    mends it (a fresh snapshot) is killed while it writes; the next pass mends it, and
    the other computer takes in everything."""
    laptop = computers.first("laptop")
    laptop.sync()
    home = tmp_path / "desktop"
    _run(_cli(home, fake_ollama, "sync", "join", str(computers.folder), "--code", laptop.code))
    extra = tmp_path / "extra.json"
    extra.write_text(json.dumps([{"text": f"desktop memory {n}"} for n in range(3000)]))
    _run(_cli(home, fake_ollama, "memory", "import", str(extra)))
    _run(_cli(home, fake_ollama, "sync", "now"))
    device = json.loads(_run(_cli(home, fake_ollama, "sync", "status", "--json")))["device"]
    mine = next(computers.folder.glob("desktop-mem-*")) / device
    newest = sorted(mine.glob("c-*.dmc"))[-1]
    newest.write_bytes(newest.read_bytes()[:1000])  # a half-written copy over its own

    def writing() -> bool:
        return any(p.name.startswith(".~dm-") for p in mine.iterdir())

    killed = _kill_when(_cli(home, fake_ollama, "sync", "now"), writing)
    _run(_cli(home, fake_ollama, "sync", "now"))
    laptop.sync()
    texts = laptop.texts()
    assert sum(t.startswith("desktop memory") for t in texts) == 3000
    assert not newest.exists() and not any(p.name.startswith(".~dm-") for p in mine.iterdir())
    print(f"killed while mending: {killed}")
