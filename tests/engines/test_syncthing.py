"""Two computers through two real Syncthing instances, on 127.0.0.1 only."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from desktop_mem.core.memory.store import NewMemory
from tests.engines import syncthing
from tests.fakes.keyrings import MemoryKeyring
from tests.fakes.ollama_server import FakeOllama
from tests.sync.test_fuzz import Box, _join

pytestmark = pytest.mark.skipif(not syncthing.available(), reason="Debian's syncthing")
PATIENCE_S = 600  # only a bound against a hang: every wait is on observed progress


def _until(what: Callable[[], bool], nodes: list[syncthing.Syncthing], why: str) -> None:
    deadline = time.monotonic() + PATIENCE_S
    while not what():
        for node in nodes:
            assert node.proc is not None and node.proc.poll() is None, node.log.read_text()[-2000:]
        if time.monotonic() > deadline:
            raise TimeoutError(why)
        time.sleep(0.1)


@pytest.fixture
def nodes(tmp_path: Path) -> Iterator[list[syncthing.Syncthing]]:
    homes = [tmp_path / "st-a", tmp_path / "st-b"]
    folders = [tmp_path / "laptop-Sync", tmp_path / "desktop-Sync"]
    started = syncthing.pair(homes, folders)
    yield started
    for node in started:
        node.stop()


@pytest.mark.timeout(900)  # it waits on observed progress, however slow
def test_two_computers_through_real_syncthing(
    nodes: list[syncthing.Syncthing],
    tmp_path: Path,
    isolated: MemoryKeyring,
    fake_ollama: FakeOllama,
) -> None:
    a, b = nodes
    for node in nodes:
        assert syncthing.loopback_only(node.listening_addresses()), node.listening_addresses()
    laptop = Box(tmp_path, "laptop", fake_ollama, isolated)
    desktop = Box(tmp_path, "desktop", fake_ollama, isolated)
    laptop.folder, desktop.folder = a.folder, b.folder
    try:
        laptop.service.memories.add(NewMemory("I grow chillies on the windowsill"))
        laptop.syncer.set_up(laptop.folder, "laptop")
        laptop.syncer.run()
        a.scan()
        _until(lambda: any(b.folder.glob("desktop-mem-*/keys/*.dmk")) and any(
            b.folder.glob("desktop-mem-*/*/status.dmd")), nodes, "the folder reached the desktop")  # fmt: skip
        _until(lambda: _tries_join(desktop, laptop.code), nodes, "the desktop joined")

        def has(box: Box, text: str) -> Callable[[], bool]:
            def check() -> bool:
                box.syncer.run()
                return text in {r[0] for r in box.db.query("SELECT text FROM memories")}

            return check

        _until(has(desktop, "I grow chillies on the windowsill"), nodes, "the desktop got it")
        # both at once, then a delete on one reaching the other
        laptop.service.memories.add(NewMemory("laptop: my passport expires in May"))
        desktop.service.memories.add(NewMemory("desktop: 我下周去成都"))
        laptop.syncer.run()
        desktop.syncer.run()
        a.scan()
        b.scan()
        _until(has(laptop, "desktop: 我下周去成都"), nodes, "the laptop got the desktop's")
        _until(has(desktop, "laptop: my passport expires in May"), nodes, "the desktop got it")
        mid = laptop.db.query("SELECT id FROM memories WHERE text LIKE 'I grow%'")[0][0]
        laptop.service.memories.delete([mid])
        laptop.syncer.run()
        a.scan()
        _until(
            lambda: (
                (desktop.syncer.run() and False)
                or not desktop.db.query("SELECT 1 FROM memories WHERE text LIKE 'I grow%'")
            ),
            nodes,
            "the delete reached the desktop",
        )
        assert laptop.state()["memories"] == desktop.state()["memories"]
        # one writer per file: the engine never had a conflict to resolve
        for node in nodes:
            assert not list(node.folder.rglob("*sync-conflict*"))
        for node in nodes:
            assert syncthing.loopback_only(node.listening_addresses())
    finally:
        laptop.service.close()
        desktop.service.close()


def _tries_join(box: Box, code: str) -> bool:
    """Join once the key file and the first computer's files are whole here."""
    from desktop_mem.core.errors import SyncError

    try:
        _join(box, code)
    except SyncError:
        return False
    box.syncer.run()
    return True


@pytest.mark.timeout(900)  # it waits on observed progress, however slow
def test_make_sync_demo_runs_start_to_end(tmp_path: Path) -> None:
    """`make sync-demo`: the command line a user types, through two real Syncthings."""
    import re
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "tools/sync_demo.py", "--keep", str(tmp_path / "demo")],
        cwd=root, capture_output=True, text=True, timeout=PATIENCE_S,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "Joined as desktop: 1 memory" in done.stdout
    assert "'passport' in it: False; '成都' in it: False" in done.stdout
    listening = re.findall(r"its sockets are on (.*)", done.stdout)
    assert len(listening) == 2 and all("127.0.0.1" in line for line in listening), listening
