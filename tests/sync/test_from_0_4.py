"""A sync set up by desktop-mem 0.4 goes on after the update. The folder and profiles in
tests/data/sync-0.4.tar.gz were made by 0.4 itself (tests/data/make_sync_0_4.py, run on
its tree): the laptop set the sync up, the desktop joined with the recovery code, the
tablet with a pairing code (0.4 wrote no join record for it: it was trusted by its
status), and the phone joined and was removed by the desktop."""

from __future__ import annotations

import json
import tarfile
from pathlib import Path

import pytest

from desktop_mem.core.errors import SyncError
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.sync import frame
from tests.fakes.keyrings import MemoryKeyring
from tests.fakes.ollama_server import FakeOllama
from tests.sync.conftest import Computer

DATA = Path(__file__).resolve().parents[1] / "data" / "sync-0.4.tar.gz"


@pytest.fixture
def old(tmp_path: Path, isolated: MemoryKeyring) -> dict:
    with tarfile.open(DATA) as tar:
        tar.extractall(tmp_path, filter="data")
    made = json.loads((tmp_path / "made.json").read_text())
    for service, user, secret in made["keyring"]:
        isolated.set_password(service, user, secret)
    return made


def _open(tmp_path: Path, name: str, fake: FakeOllama, ring: MemoryKeyring) -> Computer:
    c = Computer(tmp_path, name, fake, ring)
    # the folder was somewhere else on the machine 0.4 ran on
    c.syncer.move(tmp_path / "Sync")
    return c


def test_a_sync_set_up_by_0_4_goes_on(
    tmp_path: Path, old: dict, isolated: MemoryKeyring, fake_ollama: FakeOllama
) -> None:
    computers = [_open(tmp_path, n, fake_ollama, isolated) for n in ("laptop", "desktop", "tablet")]
    laptop, desktop, tablet = computers
    try:
        for _ in range(3):
            for c in computers:
                assert not c.sync().refused
        for c in computers:  # the tablet, trusted by 0.4 through its status, is still in
            members = set(c.syncer.chain().members)
            assert members == {old["devices"][n] for n in ("laptop", "desktop", "tablet")}
            assert old["devices"]["phone"] not in members
        want = sorted(["I keep bees in Hangzhou", "我下个月要考驾照",
                       "Written on the desktop after the phone was removed"])  # fmt: skip
        assert laptop.texts() == desktop.texts() == tablet.texts() == want
        tablet.service.memories.add(NewMemory("Written on the tablet after the update"))
        for c in (tablet, laptop, desktop):
            c.sync()
        assert "Written on the tablet after the update" in laptop.texts() == desktop.texts()
        # the updated computers named a recovery authority: the code lets a computer in
        layout = laptop.syncer.layout()
        formats = {p.read_bytes()[7] for _n, _w, p in layout.key_files()}
        assert formats == {1, 2}
        newcomer = Computer(tmp_path, "newcomer", fake_ollama, isolated)
        newcomer.service.sync.join(tmp_path / "Sync", old["recovery_code"], "newcomer")
        assert newcomer.sync().refused == []
        assert "Written on the tablet after the update" in newcomer.texts()
        laptop.sync()
        assert newcomer.syncer.device in laptop.syncer.chain().members
        computers.append(newcomer)
        assert frame.FORMAT == 2
    finally:
        for c in computers:
            c.close()


def test_the_phone_removed_under_0_4_stays_out(
    tmp_path: Path, old: dict, isolated: MemoryKeyring, fake_ollama: FakeOllama
) -> None:
    """The phone was removed under 0.4; what it could still forge (a 0.4 key file naming
    itself, signed with its own key, on top of the generation before its removal) is
    not taken by an updated computer."""
    laptop = _open(tmp_path, "laptop", fake_ollama, isolated)
    try:
        laptop.sync()
        assert old["devices"]["phone"] not in laptop.syncer.chain().members
        with pytest.raises(SyncError):
            laptop.syncer.remove(old["devices"]["phone"] + "0")  # no such computer
    finally:
        laptop.close()
