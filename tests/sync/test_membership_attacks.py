"""The attacks found against 0.4's sync membership, run against real computers: a thief
holding a removed computer's whole data folder, forging key files and joins; and a
pairing code used twice. Each failed on 0.4 (holding a key was membership)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from desktop_mem.core.errors import SyncError
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.sync import crypto, files, frame, pairing, records
from desktop_mem.core.sync.membership import Member
from tests.sync.conftest import Computer, Computers

_CHAIN_INFO = b"desktop-mem sync key chain v1"


class Thief:
    """What someone holding a removed computer's data folder has: its device keys and
    every sync key it held, and write access to the folder."""

    def __init__(self, stolen: Computer) -> None:
        self.layout = stolen.syncer.layout()
        self.keys = stolen.syncer.device_keys()
        self.device = stolen.syncer.device
        self.sync_keys = dict(stolen.syncer.chain().keys)
        self.lock = stolen.syncer.chain().current.lock

    def key_file(
        self,
        number: int,
        writer: str,
        signer: crypto.DeviceKeys,
        members: dict[str, Member],
        removed: set[str],
        parents: list[str],
    ) -> bytes:
        """A key file of generation `number` as the thief can make it: a key of its own
        sealed to whoever it names, every old key carried, the writer's signing key sealed
        under the old key (what 0.4 believed)."""
        key = os.urandom(32)
        old = max(self.sync_keys.values(), key=lambda k: k.hex())
        nonce = os.urandom(12)
        chain = AESGCM(key).encrypt(
            nonce, json.dumps({k: v.hex() for k, v in self.sync_keys.items()}).encode(),
            _CHAIN_INFO + self.layout.sync_id.encode(),
        )  # fmt: skip
        wnonce = os.urandom(12)
        body = {
            "generation": number, "writer": writer, "parents": parents,
            "members": {d: m.to_dict() for d, m in members.items()}, "removed": sorted(removed),
            "lock": self.lock, "seals": {d: crypto.seal_to(m.agreement, key) for d, m in members.items()},
            "previous": {"nonce": crypto.b64(nonce), "sealed": crypto.b64(chain)},
            "key": crypto.key_id(key),
            "writer_signing": {
                "under": crypto.key_id(old), "nonce": crypto.b64(wnonce),
                "sealed": crypto.b64(AESGCM(old).encrypt(
                    wnonce, signer.public["signing"].encode(),
                    b"desktop-mem sync key file writer v1" + f" {self.layout.sync_id} {number} {writer}".encode(),
                )),
            },
        }  # fmt: skip
        header = {"kind": "keys", "sync": self.layout.sync_id, "generation": number,
                  "writer": writer}  # fmt: skip
        path = self.layout.keys / files.key_name(number, writer)
        frame.write_plain(path, header, body, signer)
        self.sync_keys[crypto.key_id(key)] = key
        return key

    def can_read(self, path: Path) -> bool:
        kind = "snapshot" if path.name.startswith("s-") else "changes"
        raw = frame.read_raw(path, self.layout.sync_id, kind)
        key = self.sync_keys.get(str(raw.header.get("key")))
        if key is None:
            return False
        return bool(list(raw.records(key)))


def _member(c: Computer) -> Member:
    pub = c.syncer.device_keys().public
    return Member(pub["agreement"], pub["signing"])


def _three(computers: Computers) -> tuple[Computer, Computer, Computer]:
    laptop = computers.first("laptop")
    laptop.service.memories.add(NewMemory("Shared before the theft"))
    laptop.sync()
    desktop = computers.join("desktop", laptop.code)
    stolen = computers.pair(laptop, "stolen")
    for c in (desktop, stolen, laptop, desktop):
        c.sync()
    return laptop, desktop, stolen


@pytest.mark.parametrize("variant", ["names itself", "removes the laptop"])
def test_a_removed_laptop_cannot_forge_its_way_back(computers: Computers, variant: str) -> None:
    """The desktop is off while the laptop removes the stolen computer. The thief writes
    a key file of the same generation, signed by a new id of its own making that sorts
    first (0.4 took it because its writer key came sealed under the old key), naming
    that id a member (or naming the laptop removed). The desktop does not take it, does
    not follow the thief's key, and nothing the thief writes under that id is applied."""
    laptop, desktop, stolen = _three(computers)
    thief = Thief(stolen)
    parent = laptop.syncer.chain().current.digest
    number = laptop.syncer.chain().current.number + 1
    laptop.syncer.remove(stolen.syncer.device)
    laptop.service.memories.add(NewMemory("Written by the laptop after the removal"))
    laptop.sync()
    fake_keys = crypto.DeviceKeys.generate()
    fake = "0" * 8 + crypto.new_id()[8:]  # sorts before every real id
    members = {fake: Member(fake_keys.public["agreement"], fake_keys.public["signing"]),
               desktop.syncer.device: _member(desktop)}  # fmt: skip
    removed = {laptop.syncer.device} if variant == "removes the laptop" else set()
    if variant == "names itself":
        members[laptop.syncer.device] = _member(laptop)
    thief.key_file(number, fake, fake_keys, members, removed, [parent])
    result = desktop.sync()
    assert any("not in this sync" in r for r in result.refused), result.refused
    assert fake not in desktop.syncer.chain().members
    assert desktop.syncer.chain().current.writer == laptop.syncer.device
    laptop.sync()
    assert fake not in laptop.syncer.chain().members
    assert stolen.syncer.device not in laptop.syncer.chain().members
    if variant == "removes the laptop":
        return  # (with a join for it that the thief backdates, see the fork test below)
    # the thief joins under its id with no code: a join it signs as the stolen computer
    records.write_join(
        thief.layout, fake, members[fake], thief.device, parent, "pair", None, thief.keys
    )
    for c in (laptop, desktop):
        c.sync()
        assert fake not in c.syncer.chain().members
    # what the laptop wrote after the removal, the thief cannot read
    mine = sorted(laptop.syncer.layout().device(laptop.syncer.device).glob("[cs]-*.dm[cs]"))
    assert mine and not [p.name for p in mine if thief.can_read(p)]
    assert "Written by the laptop after the removal" in desktop.texts()


def test_a_thiefs_fork_under_the_stolen_id_is_not_followed(computers: Computers) -> None:
    """The thief signs with the stolen computer's own key (a member before), making a
    generation of the same number that removes the laptop: both removals stand, the
    desktop never writes with the thief's key, and the thief reads nothing new."""
    laptop, desktop, stolen = _three(computers)
    thief = Thief(stolen)
    parent = laptop.syncer.chain().current.digest
    number = laptop.syncer.chain().current.number + 1
    laptop.syncer.remove(stolen.syncer.device)
    members = {stolen.syncer.device: _member(stolen), desktop.syncer.device: _member(desktop)}
    thief.key_file(number, stolen.syncer.device, thief.keys, members,
                   {laptop.syncer.device}, [parent])  # fmt: skip
    desktop.service.memories.add(NewMemory("Written on the desktop after both removals"))
    desktop.sync()
    chain = desktop.syncer.chain()
    assert {laptop.syncer.device, stolen.syncer.device} <= chain.removed
    assert chain.current is not None and chain.current.writer == desktop.syncer.device
    assert set(chain.current.members) == {desktop.syncer.device}
    mine = sorted(desktop.syncer.layout().device(desktop.syncer.device).glob("[cs]-*.dm[cs]"))
    assert mine and not [p.name for p in mine if thief.can_read(p)]
    with pytest.raises(SyncError) as raised:  # the laptop learns it was taken out too
        laptop.sync()
    assert raised.value.reason == "sync_removed"


def test_after_a_removal_nothing_in_the_folder_opens_with_the_removed_ones_keys(
    computers: Computers,
) -> None:
    """Every computer still in had change files in the folder sealed with a key the
    stolen computer holds (written while it was in, or after, while the removal had
    not reached the writer): whoever copies the folder later, with the stolen
    computer's keys, read them. At its first pass after the removal each computer puts
    a snapshot under the new key in their place."""
    laptop, desktop, stolen = _three(computers)
    desktop.service.memories.add(NewMemory("Written on the desktop before the removal"))
    desktop.sync()
    thief = Thief(stolen)
    laptop.syncer.remove(stolen.syncer.device)
    for c in (laptop, desktop):
        c.sync()
    for c in (laptop, desktop):
        folder = c.syncer.layout().device(c.syncer.device)
        held = sorted(folder.glob("[cs]-*.dm[cs]"))
        assert held, c.name
        assert not [p.name for p in held if thief.can_read(p)], c.name
    assert "Written on the desktop before the removal" in laptop.texts()


def test_a_pairing_code_lets_one_computer_in(computers: Computers) -> None:
    """Two computers try one pairing code: the first to ask is let in, the offer leaves
    the folder, the second is told the code was used, and the laptop says who joined
    (on the other computers too)."""
    laptop = computers.first("laptop")
    laptop.service.memories.add(NewMemory("Shared"))
    laptop.sync()
    desktop = computers.join("desktop", laptop.code)
    desktop.sync()
    assert [j["via"] for j in laptop.sync().joined] == ["recovery"]
    code = laptop.syncer.offer_pairing()
    layout = laptop.syncer.layout()
    assert layout.pair_files()
    first, second = computers.new("tablet"), computers.new("intruder")
    first.syncer.join(computers.folder, pairing.join_with_pairing_code(layout, code), "tablet")
    second.syncer.join(computers.folder, pairing.join_with_pairing_code(layout, code), "intruder")
    first.sync()
    second.sync()
    result = laptop.sync()
    assert [j["device"] for j in result.joined] == [first.syncer.device]
    assert result.joined[0]["via"] == "pair" and result.joined[0]["offered_at"]
    assert not layout.pair_files()  # used: out of the folder
    assert first.sync().let_in
    with pytest.raises(SyncError) as raised:
        second.sync()
    assert raised.value.reason == "sync_code_used"
    assert second.syncer.device not in laptop.syncer.chain().members
    with pytest.raises(SyncError):  # and the code opens nothing any more
        pairing.join_with_pairing_code(layout, code)
    seen = desktop.sync()
    assert [j["device"] for j in seen.joined] == [first.syncer.device]
    assert "Shared" in first.texts()


def test_a_join_request_without_the_code_is_not_let_in(computers: Computers) -> None:
    """Someone who sees an offer in the folder but not the code asks to be let in with a
    made-up proof: nothing happens."""
    laptop = computers.first("laptop")
    laptop.sync()
    laptop.syncer.offer_pairing()
    layout = laptop.syncer.layout()
    offer_id = layout.pair_files()[0].name[len("pair-") : -len(".dmp")]
    stranger = crypto.DeviceKeys.generate()
    device = crypto.new_id()
    member = Member(stranger.public["agreement"], stranger.public["signing"])
    records.write_request(layout, device, member, offer_id, os.urandom(32), 0, stranger)
    laptop.sync()
    assert device not in laptop.syncer.chain().members
    assert layout.pair_files()  # the offer still waits for the right computer


@pytest.mark.parametrize("where", ["another profile", "the same profile"])
def test_a_profile_planted_for_the_recovery_code_is_refused(
    computers: Computers, where: str
) -> None:
    """The recovery lock is public (its half in every key file): anyone who can write the
    folder can seal a sync of their own to it, so that a computer joining with the
    recovery code would write into their sync. With two starts that the code opens
    (another profile beside the real one, or a second first generation in it), the
    join is refused in one sentence: a pairing code is the way in then."""
    from desktop_mem.core.sync.keys import KeyChain

    laptop = computers.first("laptop")
    laptop.service.memories.add(NewMemory("The real profile"))
    laptop.sync()
    real = laptop.syncer.layout()
    lock = laptop.syncer.chain().current.lock
    planter = crypto.DeviceKeys.generate()
    if where == "another profile":
        fake = files.Layout.of(computers.folder, "0" * 32)
        fake.root.mkdir()
    else:
        fake = real
    KeyChain(fake.sync_id).start(fake, "f" * 32, planter, lock)
    newcomer = computers.new("newcomer")
    with pytest.raises(SyncError) as raised:
        newcomer.service.sync.join(computers.folder, laptop.code, "newcomer")
    assert raised.value.reason == "sync_ambiguous", raised.value
    assert "pairing code" in str(raised.value)
    assert not newcomer.service.sync.enabled
