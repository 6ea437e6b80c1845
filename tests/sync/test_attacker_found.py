"""What the attacker's model checker (test_attacker.py) found, each on its own: the
smallest schedule that broke a promise of docs/security.md ("Sync"), as it was found."""

from __future__ import annotations

import base64
import json
import os
import time
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from desktop_mem.core.errors import SyncError
from desktop_mem.core.keys.recovery import RecoveryLock
from desktop_mem.core.memory.records import now_iso
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.sync import crypto, files, frame, pairing, records
from desktop_mem.core.sync.keys import Current, KeyChain
from desktop_mem.core.sync.membership import Member
from tests.sync.conftest import Computer, Computers
from tests.sync.test_membership_attacks import Thief, _member, _three


def _sealed_files(c: Computer) -> list[Path]:
    """What `c` wrote sealed in its own folder: change files, snapshots, its status."""
    folder = c.syncer.layout().device(c.syncer.device)
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.suffix in (".dmc", ".dms", ".dmd"))


def _thief_reads(thief: Thief, path: Path) -> bool:
    kind = {".dmc": "changes", ".dms": "snapshot", ".dmd": "status"}[path.suffix]
    raw = frame.read_raw(path, thief.layout.sync_id, kind)
    return str(raw.header.get("key")) in thief.sync_keys


def test_a_removed_computer_is_no_member_once_this_computer_removed_it(
    computers: Computers,
) -> None:
    """The key chain kept in the profile named the removed computer among those in until
    the next pass."""
    laptop, _desktop, stolen = _three(computers)
    laptop.syncer.remove(stolen.syncer.device)
    assert stolen.syncer.device not in laptop.syncer.chain().members


def test_a_computer_waiting_to_be_let_in_writes_nothing_a_removed_one_can_read(
    computers: Computers,
) -> None:
    """A pairing code shown before the stolen computer was removed carries the key it
    holds. The computer that joined with it, waiting to be let in, wrote its status and
    what was added there sealed with that key, after it had taken in the removal: the
    thief read them."""
    laptop, desktop, stolen = _three(computers)
    code = laptop.syncer.offer_pairing()
    thief = Thief(stolen)
    tablet = computers.new("tablet")
    chain = pairing.join_with_pairing_code(laptop.syncer.layout(), code)
    tablet.syncer.join(computers.folder, chain, "tablet")
    desktop.syncer.remove(stolen.syncer.device)
    tablet.service.memories.add(NewMemory("Written on the tablet while it waits"))
    assert tablet.sync().waiting_for == laptop.syncer.device
    assert stolen.syncer.device in tablet.syncer.chain().removed
    assert not [p.name for p in _sealed_files(tablet) if _thief_reads(thief, p)]
    # let in, it is given the new key and sends what it holds
    laptop.sync()
    assert tablet.sync().let_in
    for c in (laptop, tablet, desktop):
        c.sync()
    assert "Written on the tablet while it waits" in desktop.texts()
    assert not [p.name for p in _sealed_files(tablet) if _thief_reads(thief, p)]


def test_a_computer_let_in_after_a_removal_takes_the_thiefs_fork_like_the_others(
    computers: Computers,
) -> None:
    """A pairing code carried the removals its maker knew as something the joining
    computer trusted without records, so the rules ran differently there: a key file the
    thief wrote on a generation from before its removal was taken by every other
    computer and refused by the one let in afterwards, which then could take nothing
    built on it, and stopped syncing for good."""
    laptop, desktop, stolen = _three(computers)
    thief = Thief(stolen)
    first = laptop.syncer.chain().current
    laptop.syncer.remove(stolen.syncer.device)
    desktop.sync()
    tablet = computers.pair(desktop, "tablet")
    members = {stolen.syncer.device: _member(stolen), desktop.syncer.device: _member(desktop)}
    thief.key_file(first.number + 1, stolen.syncer.device, thief.keys, members, set(),
                   [first.digest])  # fmt: skip
    laptop.service.memories.add(NewMemory("Written on the laptop after the fork"))
    for _ in range(3):
        for c in (laptop, desktop, tablet):
            c.sync()
    assert "Written on the laptop after the fork" in tablet.texts()
    assert tablet.syncer.chain().current.digest == laptop.syncer.chain().current.digest


def test_a_join_no_one_signed_does_not_tell_a_waiting_computer_its_code_was_used(
    computers: Computers,
) -> None:
    """Anyone who can write the folder wrote a join for a made-up computer, as if the
    computer that showed the code had let it in at the time the code was shown (the
    offer's file says when, to the second): the computer waiting with that code gave up,
    told its code had been used by another computer."""
    laptop, _desktop, _stolen = _three(computers)
    code = laptop.syncer.offer_pairing()
    tablet = computers.new("tablet")
    layout = laptop.syncer.layout()
    tablet.syncer.join(computers.folder, pairing.join_with_pairing_code(layout, code), "tablet")
    shown = tablet.syncer.chain().pending.offered_at
    stranger = crypto.DeviceKeys.generate()
    member = Member(stranger.public["agreement"], stranger.public["signing"])
    parent = laptop.syncer.chain().current.digest
    records.write_join(
        layout, crypto.new_id(), member, laptop.syncer.device, parent, "pair", shown, stranger
    )
    assert tablet.sync().waiting_for == laptop.syncer.device
    laptop.sync()
    assert tablet.sync().let_in


def test_two_codes_shown_in_the_same_second_let_in_two_computers(
    computers: Computers, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A join said which code let a computer in by when the code was shown, to the
    second: of two codes shown on one computer within a second, the second computer to
    be let in was told its code had been used by the first."""
    monkeypatch.setitem(crypto._PAIR_SCRYPT, "n", 2**10)  # two offers within a second
    laptop, _desktop, _stolen = _three(computers)
    layout = laptop.syncer.layout()
    for _attempt in range(20):
        first, second = laptop.syncer.offer_pairing(), laptop.syncer.offer_pairing()
        made = sorted(o.made for o in laptop.syncer.chain().offers.values())
        if made[-1] == made[-2]:
            break
    else:
        pytest.skip("no two offers made within the same second")
    tablet, phone = computers.new("tablet"), computers.new("phone")
    tablet.syncer.join(computers.folder, pairing.join_with_pairing_code(layout, first), "tablet")
    laptop.sync()  # lets the tablet in
    assert tablet.sync().let_in
    phone.syncer.join(computers.folder, pairing.join_with_pairing_code(layout, second), "phone")
    assert phone.sync().waiting_for == laptop.syncer.device
    laptop.sync()
    assert phone.sync().let_in


@pytest.mark.parametrize("how", ["on the generation before its removal", "laundered"])
def test_the_thief_cannot_take_out_a_computer_let_in_after_its_removal(
    computers: Computers, how: str
) -> None:
    """Every removal in every key file taken counted, so the thief (whose key files on a
    generation from before its removal are taken: it was a member there) could take out
    any computer it saw in the folder, at any time: every computer let in after its
    removal, and each again after it joined again. A removed computer takes out only
    computers that were in when it was removed. Laundered: the thief first names the
    new computer a member in a key file of its own, then removes it on top of that."""
    laptop, desktop, stolen = _three(computers)
    thief = Thief(stolen)
    first = laptop.syncer.chain().current
    laptop.syncer.remove(stolen.syncer.device)
    desktop.sync()
    tablet = computers.pair(desktop, "tablet")
    laptop.sync()
    own = {stolen.syncer.device: _member(stolen)}
    base, number = first.digest, first.number + 1
    if how == "laundered":
        named = {**own, tablet.syncer.device: _member(tablet)}
        thief.key_file(number, stolen.syncer.device, thief.keys, named, set(), [base])
        base = _digest_of(laptop, number, stolen.syncer.device)
        number += 1
    thief.key_file(number, stolen.syncer.device, thief.keys, own,
                   {tablet.syncer.device}, [base])  # fmt: skip
    tablet.service.memories.add(NewMemory("Written on the tablet after the thief's key file"))
    for _ in range(2):
        for c in (tablet, laptop, desktop):
            c.sync()
    assert "Written on the tablet after the thief's key file" in laptop.texts()
    for c in (laptop, desktop, tablet):
        assert tablet.syncer.device in c.syncer.chain().members
        assert tablet.syncer.device not in c.syncer.chain().removed


def _digest_of(c: Computer, number: int, writer: str) -> str:
    layout = c.syncer.layout()
    return records.read_key_file(
        layout.keys / files.key_name(number, writer), layout.sync_id, number, writer
    ).record.digest


def test_every_computer_taken_out_by_the_thief_joins_again_with_the_recovery_code(
    computers: Computers,
) -> None:
    """The thief took out every computer along with itself (a key file on the generation
    before its removal, removing them all: allowed, both removals stand). Joining again
    with the recovery code then said the profile had no recovery code (every key was
    given to a computer removed since, so there was none to join with), and nothing
    could sync again. The one that joins again is then out of the thief's reach."""
    laptop, desktop, stolen = _three(computers)
    thief = Thief(stolen)
    first = laptop.syncer.chain().current
    laptop.syncer.remove(stolen.syncer.device)
    desktop.sync()
    everyone = {laptop.syncer.device, desktop.syncer.device}
    own = {stolen.syncer.device: _member(stolen)}
    thief.key_file(first.number + 1, stolen.syncer.device, thief.keys, own, everyone,
                   [first.digest])  # fmt: skip
    for c in (laptop, desktop):
        with pytest.raises(SyncError) as told:
            c.sync()
        assert told.value.reason == "sync_removed"
    laptop.service.sync.join(computers.folder, laptop.code, index=False)
    computers.pair(laptop, desktop)
    laptop.service.memories.add(NewMemory("Written on the laptop once back"))
    for c in (laptop, desktop, laptop):
        c.sync()
    assert "Written on the laptop once back" in desktop.texts()
    # the thief, again, on the generation before its removal and on its own
    for base in (first.digest, _digest_of(laptop, first.number + 1, stolen.syncer.device)):
        number = first.number + (1 if base == first.digest else 2)
        back = {laptop.syncer.device, desktop.syncer.device}
        thief.key_file(number + 5, stolen.syncer.device, thief.keys, own, back, [base])
    for c in (laptop, desktop, laptop):
        c.sync()
    assert {laptop.syncer.device, desktop.syncer.device} <= set(laptop.syncer.chain().members)
    # and a computer let in now (which trusts the records the laptop took, those key
    # files of the thief's among them) finds the laptop in
    tablet = computers.pair(laptop, "tablet")
    assert "Written on the laptop once back" in tablet.texts()


def _everyone_out_beside_a_planted_start(
    computers: Computers,
) -> tuple[Computer, Computer, Thief, Current]:
    """The laptop removes the stolen computer; the thief takes every computer out along
    with itself (a key file on the first) and plants a second start of the sync sealed
    to the recovery lock (public). Both computers are told they are out. Returns the
    laptop, the desktop, the thief and the first generation."""
    laptop, desktop, stolen = _three(computers)
    thief = Thief(stolen)
    first = laptop.syncer.chain().current
    assert first is not None
    laptop.syncer.remove(stolen.syncer.device)
    own = {stolen.syncer.device: _member(stolen)}
    everyone = {laptop.syncer.device, desktop.syncer.device}
    thief.key_file(first.number + 1, stolen.syncer.device, thief.keys, own, everyone,
                   [first.digest])  # fmt: skip
    planter = crypto.DeviceKeys.generate()
    KeyChain(thief.layout.sync_id).start(thief.layout, crypto.new_id(), planter, thief.lock)
    for c in (laptop, desktop):
        with pytest.raises(SyncError):
            c.sync()
    return laptop, desktop, thief, first


def test_a_start_planted_for_the_recovery_code_does_not_keep_out_a_computer_joining_again(
    computers: Computers,
) -> None:
    """The thief took every computer out along with itself, and planted a second start of
    the sync sealed to the recovery lock (public): joining again with the recovery code
    was refused as ambiguous, and with no computer left in to show a pairing code,
    nothing could sync again. A computer joining again knows which start is its own."""
    laptop, desktop, thief, first = _everyone_out_beside_a_planted_start(computers)
    laptop.service.sync.join(computers.folder, laptop.code, index=False)
    computers.pair(laptop, desktop)
    laptop.service.memories.add(NewMemory("Written on the laptop once back"))
    for c in (laptop, desktop):
        c.sync()
    assert "Written on the laptop once back" in desktop.texts()


def test_removing_a_computer_while_this_ones_folder_is_a_link(
    computers: Computers, tmp_path: Path
) -> None:
    """Anyone who can write the folder replaced this computer's own folder by a link: a
    pass removes the link and makes the folder again, but `sync remove` wrote the
    removed computer's records into it as it was, and failed with a fragment of a
    sentence ("it is a symbolic link, ...") naming no file, the removal half done."""
    laptop, desktop, stolen = _three(computers)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "thesis.txt").write_text("four years of work")
    own = desktop.syncer.layout().device(desktop.syncer.device)
    for path in own.iterdir():
        path.unlink()
    own.rmdir()
    own.symlink_to(outside, target_is_directory=True)
    desktop.syncer.remove(stolen.syncer.device)
    assert sorted(p.name for p in outside.iterdir()) == ["thesis.txt"]
    assert own.is_dir() and not own.is_symlink()
    desktop.service.memories.add(NewMemory("Written on the desktop after the removal"))
    desktop.sync()
    laptop.sync()
    assert "Written on the desktop after the removal" in laptop.texts()


def test_what_a_removed_computer_wrote_reaches_one_let_in_after_all_joined_again(
    computers: Computers,
) -> None:
    """What the stolen computer wrote before its removal is carried by the others. Once
    the thief took them all out along with itself and they joined again (new ids, their
    old folders gone), that was only in their snapshots: a computer let in afterwards
    read their change files from the first and never got it."""
    laptop, desktop, stolen = _three(computers)
    stolen.service.memories.add(NewMemory("Written on the stolen one before"))
    for c in (stolen, laptop, desktop):
        c.sync()
    thief = Thief(stolen)
    first = laptop.syncer.chain().current
    laptop.syncer.remove(stolen.syncer.device)
    desktop.sync()
    own = {stolen.syncer.device: _member(stolen)}
    everyone = {laptop.syncer.device, desktop.syncer.device}
    thief.key_file(first.number + 1, stolen.syncer.device, thief.keys, own, everyone,
                   [first.digest])  # fmt: skip
    for c in (laptop, desktop):
        with pytest.raises(SyncError):
            c.sync()
    laptop.service.sync.join(computers.folder, laptop.code, index=False)
    computers.pair(laptop, desktop)
    for c in (laptop, desktop, laptop):
        c.sync()
    tablet = computers.pair(laptop, "tablet")
    for c in (tablet, laptop, desktop, tablet):
        c.sync()
    assert "Written on the stolen one before" in tablet.texts()


def test_the_removal_of_the_thief_stands_when_it_takes_out_the_one_that_let_it_in(
    computers: Computers,
) -> None:
    """The thief took out, along with itself, the computer that had let it in, naming no
    one in its key file: its own join counted for nothing then, and the removal of it
    (by a computer it took out) no longer counted either, as if it had never been in.
    Then the first key was nobody's to avoid, and a computer joining again with the
    recovery code wrote with it: the thief read what it wrote."""
    laptop, desktop, stolen = _three(computers)
    thief = Thief(stolen)
    first = laptop.syncer.chain().current
    laptop.syncer.remove(stolen.syncer.device)
    desktop.sync()
    everyone = {laptop.syncer.device, desktop.syncer.device}
    thief.key_file(first.number + 1, stolen.syncer.device, thief.keys, {}, everyone,
                   [first.digest])  # fmt: skip
    for c in (laptop, desktop):
        with pytest.raises(SyncError):
            c.sync()
    laptop.service.sync.join(computers.folder, laptop.code, index=False)
    laptop.service.memories.add(NewMemory("Written on the laptop once back"))
    laptop.sync()
    assert stolen.syncer.device in laptop.syncer.chain().removed
    assert not [p.name for p in _sealed_files(laptop) if _thief_reads(thief, p)]


def test_joining_again_with_the_recovery_code_keeps_the_records_it_knew(
    computers: Computers,
) -> None:
    """Joining again with the recovery code read the records from the folder alone. With
    the join of the computer that removed the thief damaged there by anyone who can
    write the folder (and the thief having taken everyone out along with itself), that
    removal was not taken, and the thief counted as in again: its own key file was the
    newest the rules knew. A computer joining again reads the records it held too."""
    laptop, desktop, stolen = _three(computers)
    thief = Thief(stolen)
    first = laptop.syncer.chain().current
    desktop.syncer.remove(stolen.syncer.device)  # desktop joined with the recovery code
    laptop.sync()
    own = {stolen.syncer.device: _member(stolen)}
    everyone = {laptop.syncer.device, desktop.syncer.device}
    thief.key_file(first.number + 1, stolen.syncer.device, thief.keys, own, everyone,
                   [first.digest])  # fmt: skip
    for c in (laptop, desktop):
        with pytest.raises(SyncError):
            c.sync()
    layout = desktop.syncer.layout()
    (layout.keys / files.join_name(desktop.syncer.device)).write_bytes(b"garbage")
    desktop.service.sync.join(computers.folder, laptop.code, index=False)
    desktop.service.memories.add(NewMemory("Written on the desktop once back"))
    desktop.sync()
    chain = desktop.syncer.chain()
    assert stolen.syncer.device in chain.removed
    assert stolen.syncer.device not in chain.members
    assert not [p.name for p in _sealed_files(desktop) if _thief_reads(thief, p)]


def test_a_missing_first_key_file_is_not_taken_for_a_passphrase(computers: Computers) -> None:
    """Anyone who can write the folder took its first key file out: joining with the
    recovery code said the profile had no recovery code, being protected by a
    passphrase, which was not so."""
    laptop, _desktop, _stolen = _three(computers)
    layout = laptop.syncer.layout()
    for number, _writer, path in layout.key_files():
        if number == 1:
            path.unlink()
    newcomer = computers.new("newcomer")
    with pytest.raises(SyncError) as told:
        newcomer.service.sync.join(computers.folder, laptop.code, "newcomer", index=False)
    assert "passphrase" not in str(told.value)
    assert told.value.reason == "sync_not_found", told.value


@pytest.mark.xfail(
    reason="design: a computer joining with the recovery code trusts the sync's first key "
    "file and sees only what the folder holds; the thief, who can write the folder, can "
    "take its removal's key file out of it and offer a key file of its own instead. A "
    "check of the statuses the computers in write (sealed with the new key) was tried: "
    "it kept honest computers from joining again in the model checker's histories (seed "
    "5200, schedule 15), so it is not in. The pairing code is the way in that trusts "
    "nothing the folder shows.",
    strict=True,
)
def test_a_computer_joining_with_the_recovery_code_cannot_be_shown_a_history_without_the_removal(
    computers: Computers,
) -> None:
    _laptop, _desktop, newcomer, thief = _joined_on_the_thiefs_fork(computers)
    assert not [p.name for p in _sealed_files(newcomer) if _thief_reads(thief, p)]


def test_what_a_computer_joined_on_the_thiefs_fork_wrote_leaves_the_folder_once_it_knows(
    computers: Computers,
) -> None:
    """The case above, once the laptop's next pass has put its removal's key file back:
    the newcomer takes the removal in and writes with a key the thief does not hold; but
    the change file it wrote before, sealed with the thief's key, stayed in the folder
    for the thief to read whenever it came. A computer that learns of a removal puts a
    snapshot under the key of now in place of every file of its own sealed before."""
    laptop, desktop, newcomer, thief = _joined_on_the_thiefs_fork(computers)
    assert [p.name for p in _sealed_files(newcomer) if _thief_reads(thief, p)]
    for c in (laptop, desktop, newcomer, laptop, newcomer):
        c.sync()
    assert thief.device in newcomer.syncer.chain().removed
    newcomer.service.memories.add(NewMemory("Written once the removal was known"))
    newcomer.sync()
    laptop.sync()
    assert "Written on the new computer" in laptop.texts()
    assert "Written once the removal was known" in laptop.texts()
    for c in (laptop, desktop, newcomer):
        assert not [p.name for p in _sealed_files(c) if _thief_reads(thief, p)], c.name


def _joined_on_the_thiefs_fork(
    computers: Computers,
) -> tuple[Computer, Computer, Computer, Thief]:
    """The laptop removes the stolen computer; the thief takes the removal's key file
    out of the folder and offers one of its own on the generation before (naming every
    computer, its key sealed to the recovery lock too, which is public); a newcomer
    joins with the recovery code, writes a memory and syncs."""
    laptop, desktop, stolen = _three(computers)
    thief = Thief(stolen)
    first = laptop.syncer.chain().current
    laptop.syncer.remove(stolen.syncer.device)
    desktop.sync()
    layout = laptop.syncer.layout()
    removal = laptop.syncer.chain().current
    (layout.keys / files.key_name(removal.number, removal.writer)).unlink()
    members = {stolen.syncer.device: _member(stolen), laptop.syncer.device: _member(laptop),
               desktop.syncer.device: _member(desktop)}  # fmt: skip
    # naming the recovery authority as every key file does (copied)
    authority = records.read_key_file(
        layout.keys / files.key_name(first.number, first.writer), layout.sync_id,
        first.number, first.writer,
    ).body["authority"]  # fmt: skip
    key = os.urandom(32)
    body = {
        "generation": first.number + 1, "writer": stolen.syncer.device,
        "parents": [first.digest], "removed": [], "lock": thief.lock,
        "members": {d: m.to_dict() for d, m in members.items()},
        "seals": {d: crypto.seal_to(m.agreement, key) for d, m in members.items()},
        "previous": _carried(key, thief), "key": crypto.key_id(key), "authority": authority,
    }  # fmt: skip
    body["seals"]["recovery"] = RecoveryLock.from_dict(thief.lock).seal(key)
    header = {"kind": "keys", "sync": layout.sync_id, "generation": first.number + 1,
              "writer": stolen.syncer.device}  # fmt: skip
    path = layout.keys / files.key_name(first.number + 1, stolen.syncer.device)
    frame.write_plain(path, header, body, thief.keys)
    thief.sync_keys[crypto.key_id(key)] = key
    newcomer = computers.new("newcomer")
    newcomer.service.sync.join(computers.folder, laptop.code, "newcomer", index=False)
    newcomer.service.memories.add(NewMemory("Written on the new computer"))
    newcomer.sync()
    return laptop, desktop, newcomer, thief


def _carried(key: bytes, thief: Thief) -> dict[str, str]:
    """Every key the thief holds, sealed under `key` (as a key file carries them)."""
    nonce = os.urandom(12)
    sealed = AESGCM(key).encrypt(
        nonce,
        json.dumps({k: v.hex() for k, v in thief.sync_keys.items()}).encode(),
        b"desktop-mem sync key chain v1" + thief.layout.sync_id.encode(),
    )
    return {"nonce": crypto.b64(nonce), "sealed": crypto.b64(sealed)}


def test_a_computer_that_missed_the_removal_does_not_vouch_for_the_thiefs_ids(
    computers: Computers,
) -> None:
    """The tablet had not read the key file removing the stolen computer when anyone who
    can write the folder replaced it (or an engine had not brought it yet). The thief
    wrote a key file on the generation before, naming an id of its own; the tablet took
    it (the stolen computer was in, as far as it knew) and wrote the next generation on
    it, naming everyone it named. That generation was the tablet's, which no removal
    touches: the thief's id was a member for every computer, for good. A generation
    vouches only for computers that were in where it builds on."""
    laptop, desktop, stolen = _three(computers)
    tablet = computers.pair(laptop, "tablet")
    for c in (laptop, desktop, stolen, tablet):
        c.sync()
    thief = Thief(stolen)
    first = laptop.syncer.chain().current
    laptop.syncer.remove(stolen.syncer.device)
    layout = laptop.syncer.layout()
    removal = laptop.syncer.chain().current
    path = layout.keys / files.key_name(removal.number, removal.writer)
    saved = path.read_bytes()
    path.write_bytes(b"not what it was")  # before the tablet read it
    mole_keys = crypto.DeviceKeys.generate()
    mole = crypto.new_id()
    members = {
        stolen.syncer.device: _member(stolen), tablet.syncer.device: _member(tablet),
        laptop.syncer.device: _member(laptop),
        mole: Member(mole_keys.public["agreement"], mole_keys.public["signing"]),
    }  # fmt: skip
    thief.key_file(first.number + 1, stolen.syncer.device, thief.keys, members, set(),
                   [first.digest])  # fmt: skip
    tablet.sync()  # it writes the next generation, on the thief's
    path.write_bytes(saved)  # the folder repaired
    for _ in range(2):
        for c in (laptop, desktop, tablet):
            c.sync()
    for c in (laptop, desktop, tablet):
        chain = c.syncer.chain()
        assert mole not in chain.members, c.name
        assert chain.current is not None and chain.current.key_id not in thief.sync_keys


def test_a_join_taken_out_of_the_folder_does_not_leave_out_one_that_joined_later(
    computers: Computers,
) -> None:
    """A computer keeps every record it takes, so that a copy taken out of the folder later
    undoes nothing; but it kept a join only while the computer it let in was named in no
    key file. One that joined after the removal (with the recovery code) never kept the
    join of the computer that removed the thief (named in its own key file by then):
    once anyone who can write the folder damaged that join, the removal was no longer
    taken there, and it was told it was no longer in the sync."""
    laptop, desktop, stolen = _three(computers)
    tablet = computers.pair(laptop, "tablet")
    for c in (laptop, desktop, stolen, tablet):
        c.sync()
    tablet.syncer.remove(stolen.syncer.device)
    newcomer = computers.new("newcomer")
    newcomer.service.sync.join(computers.folder, laptop.code, "newcomer", index=False)
    layout = tablet.syncer.layout()
    (layout.keys / files.join_name(tablet.syncer.device)).write_bytes(b"damaged")
    newcomer.service.memories.add(NewMemory("Written on the newcomer"))
    newcomer.sync()
    laptop.sync()
    assert "Written on the newcomer" in laptop.texts()


def test_what_the_thief_wrote_while_its_removal_was_hidden_does_not_stay(
    computers: Computers,
) -> None:
    """The removal's key file is taken out of the folder before the desktop reads it
    (anyone who can write the folder can; an engine that has not brought it yet does the
    same). The stolen computer's own app, which does not see its removal either, sends
    a memory; the desktop takes it in. Once the key file is back, the desktop takes the
    removal in, but keeps the thief's memory, which no other computer has: they differ
    for good."""
    laptop, desktop, stolen = _three(computers)
    laptop.syncer.remove(stolen.syncer.device)
    layout = laptop.syncer.layout()
    removal = laptop.syncer.chain().current
    path = layout.keys / files.key_name(removal.number, removal.writer)
    saved = path.read_bytes()
    path.unlink()
    stolen.service.memories.add(NewMemory("Written by the thief after the removal"))
    stolen.sync()
    desktop.sync()
    path.write_bytes(saved)
    for _ in range(2):
        for c in (laptop, desktop):
            c.sync(compact=True)
    assert stolen.syncer.device in desktop.syncer.chain().removed
    assert desktop.texts() == laptop.texts()
    assert "Written by the thief after the removal" not in desktop.texts()


def test_what_the_thief_edited_and_deleted_while_its_removal_was_hidden_comes_back(
    computers: Computers,
) -> None:
    """The same with the thief's edit and deletion of memories the others wrote, and a
    memory of its own from before its removal, which stands: once the removal reaches
    the desktop, the edit and the deletion are undone there (what they overwrote comes
    back from the laptop, which never took them), the thief's old memory stays, and
    nothing of it travels on, not even in a snapshot the desktop wrote meanwhile."""
    laptop, desktop, stolen = _three(computers)
    stolen.service.memories.add(NewMemory("Written by the stolen computer while it was in"))
    laptop.service.memories.add(NewMemory("My passport number ends in 417"))
    laptop.service.memories.add(NewMemory("My sister lives in Porto"))
    for c in (stolen, laptop, desktop, stolen):
        c.sync()
    on_stolen = {m.text: m.id for m in stolen.service.memories.list()}
    kept, gone = on_stolen["My passport number ends in 417"], on_stolen["My sister lives in Porto"]
    laptop.syncer.remove(stolen.syncer.device)
    layout = laptop.syncer.layout()
    removal = laptop.syncer.chain().current
    path = layout.keys / files.key_name(removal.number, removal.writer)
    saved = path.read_bytes()
    path.unlink()
    stolen.service.memories.edit(kept, text="My passport number ends in 999")
    stolen.service.memories.delete([gone])
    stolen.service.memories.add(NewMemory("Written by the thief after the removal"))
    stolen.sync()
    desktop.sync(compact=True)  # its snapshot carries what it took in
    assert "My passport number ends in 999" in desktop.texts()
    path.write_bytes(saved)
    for _ in range(2):
        for c in (laptop, desktop):
            c.sync()
    expected = sorted(
        [
            "Shared before the theft",
            "Written by the stolen computer while it was in",
            "My passport number ends in 417",
            "My sister lives in Porto",
        ]
    )
    assert sorted(desktop.texts()) == expected
    assert sorted(laptop.texts()) == expected
    # what was undone is kept for the user to look at, said as written on the stolen one
    undone = {item.text for item in desktop.syncer.lost() if item.kind == "memory_removed"}
    assert undone == {"Written by the thief after the removal", "My passport number ends in 999"}
    assert {item.device for item in desktop.syncer.lost()} == {stolen.syncer.device}
    assert not laptop.syncer.lost()
    history = desktop.service.memories.history(
        next(m.id for m in desktop.service.memories.list() if "passport" in m.text)
    )
    assert not any("999" in (h.text or "") for h in history)


def test_a_key_file_the_thief_writes_again_does_not_strand_the_others(
    computers: Computers,
) -> None:
    """The thief writes a key file on the generation before its removal; the laptop takes
    it and writes the next one on top of it (both removals stand). The thief then writes
    its key file again, differently, under the same name: the desktop, which had not
    read the first, never takes the laptop's either, and cannot read what the laptop
    writes from then on."""
    laptop, desktop, stolen = _three(computers)
    thief = Thief(stolen)
    first = laptop.syncer.chain().current
    laptop.syncer.remove(stolen.syncer.device)
    own = {stolen.syncer.device: _member(stolen)}
    thief.key_file(first.number + 1, stolen.syncer.device, thief.keys, own, set(),
                   [first.digest])  # fmt: skip
    laptop.sync()  # takes it, and writes the next generation on both
    thief.key_file(first.number + 1, stolen.syncer.device, thief.keys, own, set(),
                   [first.digest])  # fmt: skip
    laptop.service.memories.add(NewMemory("Written on the laptop after"))
    for _ in range(2):
        for c in (laptop, desktop):
            c.sync()
    assert "Written on the laptop after" in desktop.texts()


def test_a_key_file_carries_only_what_it_builds_on_as_it_was(computers: Computers) -> None:
    """What a key file carries of the key files it builds on is taken only for a parent
    it names, and only when the bytes are that parent (their digest): anything else
    it says it carries (another file, a changed copy, not base64) is left out."""
    laptop, _desktop, stolen = _three(computers)
    first = laptop.syncer.chain().current
    laptop.syncer.remove(stolen.syncer.device)
    layout = laptop.syncer.layout()
    removal = laptop.syncer.chain().current
    sync_id = layout.sync_id
    parent = records.read_key_file(
        layout.keys / files.key_name(first.number, first.writer), sync_id, first.number,
        first.writer,
    )  # fmt: skip
    child = records.read_key_file(
        layout.keys / files.key_name(removal.number, removal.writer), sync_id,
        removal.number, removal.writer,
    )  # fmt: skip
    assert parent.record.digest in (child.record.parents or ())
    whole = base64.b64encode(parent.data).decode()
    changed = base64.b64encode(parent.data[:-1] + bytes([parent.data[-1] ^ 1])).decode()

    def carrying(carries: object) -> list[str]:
        body = {**child.body, "carries": carries}
        kf = records.KeyFile(child.record, body, child.data)
        return [k.record.digest for k in records.carried(kf, sync_id)]

    assert carrying({parent.record.digest: whole}) == [parent.record.digest]
    assert carrying({"0" * 64: whole}) == []  # not a parent it names
    assert carrying({parent.record.digest: changed}) == []
    assert carrying({parent.record.digest: "not base64!"}) == []
    assert carrying(["not", "a", "map"]) == []


def test_a_generation_written_without_a_key_to_write_with_keeps_the_recovery_authority(
    computers: Computers,
) -> None:
    """When no generation was left to write with (here the thief took out the laptop,
    whose removal of it no longer vouches, so the only key left was one the thief held),
    the computer that wrote the next one made a new recovery authority, as if the
    recovery code had changed: every computer let in with the recovery code that it did
    not name was out."""
    laptop, desktop, stolen = _three(computers)
    thief = Thief(stolen)
    first = laptop.syncer.chain().current
    laptop.syncer.remove(stolen.syncer.device)
    own = {stolen.syncer.device: _member(stolen)}
    thief.key_file(first.number + 1, stolen.syncer.device, thief.keys, own,
                   {laptop.syncer.device}, [first.digest])  # fmt: skip
    desktop.sync()  # writes the next generation
    layout = desktop.syncer.layout()
    authorities = set()
    for number, writer, path in layout.key_files():
        if writer != stolen.syncer.device:
            body = records.read_key_file(path, layout.sync_id, number, writer).body
            authorities.add(body["authority"]["signing"])
    assert len(authorities) == 1, authorities


def test_a_join_taken_out_of_the_folder_does_not_hide_a_member_from_one_joining_later(
    computers: Computers,
) -> None:
    """The desktop's join was taken out of the folder (anyone who can write it can)
    before a new computer joined with the recovery code: that one did not count the
    desktop in though the removal's key file names it (a list vouched only for computers
    whose join it could read), and wrote a generation without it."""
    laptop, desktop, stolen = _three(computers)
    laptop.syncer.remove(stolen.syncer.device)
    desktop.sync()
    layout = laptop.syncer.layout()
    (layout.keys / files.join_name(desktop.syncer.device)).unlink()
    newcomer = computers.new("newcomer")
    newcomer.service.sync.join(computers.folder, laptop.code, "newcomer", index=False)
    desktop.service.memories.add(NewMemory("Written on the desktop"))
    newcomer.service.memories.add(NewMemory("Written on the newcomer"))
    for _ in range(2):
        for c in (desktop, newcomer, laptop):
            c.sync()
    assert "Written on the desktop" in newcomer.texts()
    assert "Written on the newcomer" in desktop.texts()


def test_the_thief_cannot_take_out_a_later_computer_through_one_that_missed_its_removal(
    computers: Computers,
) -> None:
    """The desktop had not read the key file removing the stolen computer when anyone who
    can write the folder damaged it. The thief wrote a key file on the generation before,
    removing a computer let in after its removal; the desktop took it (the stolen
    computer was in, as far as it knew) and wrote the next generation on it, keeping
    every removal it knew of, as it must: the removal of the new computer was then the
    desktop's own, and counted. A removal carried from a generation counts only as that
    generation's does."""
    laptop, desktop, stolen = _three(computers)
    thief = Thief(stolen)
    first = laptop.syncer.chain().current
    laptop.syncer.remove(stolen.syncer.device)
    newcomer = computers.new("newcomer")
    newcomer.service.sync.join(computers.folder, laptop.code, "newcomer", index=False)
    laptop.sync()
    layout = laptop.syncer.layout()
    path = next(p for n, _w, p in layout.key_files() if n == first.number + 1)
    saved = path.read_bytes()
    path.write_bytes(b"damaged")  # before the desktop read it
    own = {stolen.syncer.device: _member(stolen), desktop.syncer.device: _member(desktop)}
    thief.key_file(first.number + 1, stolen.syncer.device, thief.keys, own,
                   {newcomer.syncer.device}, [first.digest])  # fmt: skip
    desktop.sync()  # it writes the next generation, on the thief's, keeping its removal
    path.write_bytes(saved)
    newcomer.service.memories.add(NewMemory("Written on the newcomer"))
    for _ in range(2):
        for c in (laptop, desktop, newcomer):
            c.sync()
    assert newcomer.syncer.device not in laptop.syncer.chain().removed
    assert "Written on the newcomer" in laptop.texts()


def test_a_computer_waiting_for_one_no_longer_in_is_told(computers: Computers) -> None:
    """The phone waited to be let in by the tablet, whose pairing code it joined with;
    the tablet was left out (the thief took out, along with itself, the laptop that had
    let the tablet in). The phone was told only if the tablet was removed itself, so it
    waited for good, for a computer that would never let it in."""
    laptop, _desktop, stolen = _three(computers)
    tablet = computers.pair(laptop, "tablet")
    thief = Thief(stolen)
    first = laptop.syncer.chain().current
    code = tablet.syncer.offer_pairing()
    phone = computers.new("phone")
    phone.syncer.join(computers.folder, pairing.join_with_pairing_code(
        laptop.syncer.layout(), code), "phone")  # fmt: skip
    laptop.syncer.remove(stolen.syncer.device)
    own = {stolen.syncer.device: _member(stolen)}
    thief.key_file(first.number + 1, stolen.syncer.device, thief.keys, own,
                   {laptop.syncer.device}, [first.digest])  # fmt: skip
    with pytest.raises(SyncError) as told:
        tablet.sync()
    assert told.value.reason == "sync_left_out"
    with pytest.raises(SyncError) as told:
        phone.sync()
    assert told.value.reason == "sync_left_out"


@pytest.mark.xfail(
    reason="design: joining with the recovery code trusts the first key file the folder "
    "holds; with the real one damaged and one of the thief's planted (the recovery lock "
    "is public), there is one start, the thief's, whose records name none of the real "
    "computers, so their statuses (sealed with keys the code did not open) are no "
    "member's and prove nothing. The pairing code is the way in that trusts nothing the "
    "folder shows.",
    strict=True,
)
def test_a_computer_joining_with_the_recovery_code_is_not_joined_to_a_planted_start(
    computers: Computers,
) -> None:
    laptop, _desktop, newcomer, _thief, _first = _joined_to_a_planted_start(computers)
    assert laptop.syncer.device in newcomer.syncer.chain().members


def _joined_to_a_planted_start(
    computers: Computers,
) -> tuple[Computer, Computer, Computer, Thief, Path]:
    """The laptop removes the stolen computer; the real first key file is damaged and a
    start of the thief's planted (sealed to the recovery lock, which is public); a
    newcomer joins with the recovery code, writes a memory and syncs."""
    laptop, desktop, stolen = _three(computers)
    thief = Thief(stolen)
    laptop.syncer.remove(stolen.syncer.device)
    layout = laptop.syncer.layout()
    first = next(p for n, _w, p in layout.key_files() if n == 1)
    first.write_bytes(b"damaged")
    planter = crypto.DeviceKeys.generate()
    KeyChain(layout.sync_id).start(layout, crypto.new_id(), planter, thief.lock)
    newcomer = computers.new("newcomer")
    newcomer.service.sync.join(computers.folder, laptop.code, "newcomer", index=False)
    newcomer.service.memories.add(NewMemory("Written on the new computer"))
    newcomer.sync()
    return laptop, desktop, newcomer, thief, first


def test_a_computer_joined_to_a_planted_start_stops_once_the_real_one_is_back(
    computers: Computers,
) -> None:
    """The case above, once the laptop's next pass has written the real first key file
    back: the newcomer went on syncing with the thief's start for good (the real one
    was to it "another sync than the one this computer is in"), so the thief read all
    it wrote. Joined with the recovery code alone, it cannot tell the two apart: it
    stops, says so, writes nothing more, and joins again with a pairing code."""
    laptop, desktop, newcomer, thief, first = _joined_to_a_planted_start(computers)
    layout = laptop.syncer.layout()
    laptop.sync()
    desktop.sync()
    assert layout.keys.joinpath(first.name).read_bytes() != b"damaged"
    sealed = {p.name: p.read_bytes() for p in _sealed_files(newcomer)}
    newcomer.service.memories.add(NewMemory("Written once the real start was back"))
    for _ in range(2):
        with pytest.raises(SyncError) as told:
            newcomer.sync()
        assert told.value.reason == "sync_contested"
        assert "pairing code" in str(told.value)
    assert {p.name: p.read_bytes() for p in _sealed_files(newcomer)} == sealed
    # joining again with the recovery code does not make the start it joined its own
    newcomer.service.sync.join(computers.folder, laptop.code, index=False)
    with pytest.raises(SyncError) as told:
        newcomer.sync()
    assert told.value.reason == "sync_contested"
    computers.pair(laptop, newcomer)
    newcomer.sync()
    laptop.sync()
    assert {"Written on the new computer", "Written once the real start was back"} <= set(
        laptop.texts()
    )
    assert newcomer.syncer.device in laptop.syncer.chain().members
    assert not [p.name for p in _sealed_files(newcomer) if _thief_reads(thief, p)]


def test_a_start_planted_beside_the_real_one_stops_a_recovery_joined_computer_until_taken_out(
    computers: Computers,
) -> None:
    """The desktop joined the real sync with the recovery code; a start is planted
    beside it. It cannot tell which is its own: it stops and says so, until the laptop
    (which set the sync up, and knows its start) takes the planted one out."""
    laptop, desktop, stolen = _three(computers)
    thief = Thief(stolen)
    layout = laptop.syncer.layout()
    real = {p.name for _n, _w, p in layout.key_files()}
    KeyChain(layout.sync_id).start(layout, crypto.new_id(), crypto.DeviceKeys.generate(),
                                   thief.lock)  # fmt: skip
    planted = {p.name for _n, _w, p in layout.key_files()} - real
    assert planted
    with pytest.raises(SyncError) as told:
        desktop.sync()
    assert told.value.reason == "sync_contested"
    assert desktop.syncer.removed_here  # Settings > Sync offers to join again
    laptop.service.memories.add(NewMemory("Written beside a planted start"))
    said = laptop.sync().refused
    assert any("planted" in line for line in said), said
    assert not planted & {p.name for _n, _w, p in layout.key_files()}
    desktop.sync()
    assert not desktop.syncer.removed_here
    assert "Written beside a planted start" in desktop.texts()


def test_a_computer_the_thief_takes_out_with_its_inviter_joins_again(
    computers: Computers,
) -> None:
    """Seed 5100, engine schedule 9: the desktop removed the stolen computer, naming the
    tablet among those in; the thief took out, along with itself, the laptop that had
    let the tablet in. The tablet's join is void (the removal of the computer that signed
    it did not keep it), and the desktop naming it is not a join signed for it: this is
    the same history as seed 6300's engine schedule 33 (the desktop there in the thief's
    place, an id the thief let in with a join it backdated in the tablet's), which no
    rule over the records can tell apart from it. The tablet is told it is left out,
    joins again with a pairing code, and syncs. (Under the rule of two commits before
    the desktop's list vouched for it and it stayed; so did the thief's id.)"""
    laptop, desktop, stolen = _three(computers)
    tablet = computers.pair(laptop, "tablet")
    for c in (desktop, tablet):
        c.sync()
    thief = Thief(stolen)
    first = laptop.syncer.chain().current
    desktop.syncer.remove(stolen.syncer.device)
    mole = crypto.DeviceKeys.generate()
    named = {crypto.new_id(): Member(mole.public["agreement"], mole.public["signing"])}
    thief.key_file(first.number + 1, stolen.syncer.device, thief.keys, named,
                   {laptop.syncer.device}, [first.digest])  # fmt: skip
    with pytest.raises(SyncError) as told:
        tablet.sync()
    assert told.value.reason == "sync_left_out"
    desktop.sync()
    assert tablet.syncer.device not in desktop.syncer.chain().members
    computers.pair(desktop, tablet)
    tablet.service.memories.add(NewMemory("Written on the tablet"))
    tablet.sync()
    desktop.sync()
    assert "Written on the tablet" in desktop.texts()
    assert tablet.syncer.device in desktop.syncer.chain().members
    # listed once, under its new id (its old one, never read again, stood there for
    # good, behind on everything the desktop wrote)
    assert [p.device for p in desktop.syncer.peers() if not p.removed] == [tablet.syncer.device]


def test_a_thiefs_id_carried_on_by_one_that_missed_the_removal_is_not_vouched_for(
    computers: Computers,
) -> None:
    """Seed 7001, schedule 520: as above, the tablet missed the removal and wrote a
    generation on the thief's key file naming its id; then it wrote another (taking a
    computer out) on its own, naming the id again: that one's list, a step further from
    the thief's key file, vouched for the id once more."""
    laptop, desktop, stolen = _three(computers)
    tablet = computers.pair(laptop, "tablet")
    for c in (laptop, desktop, stolen, tablet):
        c.sync()
    thief = Thief(stolen)
    first = laptop.syncer.chain().current
    laptop.syncer.remove(stolen.syncer.device)
    layout = laptop.syncer.layout()
    removal = laptop.syncer.chain().current
    path = layout.keys / files.key_name(removal.number, removal.writer)
    saved = path.read_bytes()
    path.write_bytes(b"not what it was")
    mole_keys = crypto.DeviceKeys.generate()
    mole = crypto.new_id()
    members = {
        stolen.syncer.device: _member(stolen), tablet.syncer.device: _member(tablet),
        laptop.syncer.device: _member(laptop),
        mole: Member(mole_keys.public["agreement"], mole_keys.public["signing"]),
    }  # fmt: skip
    thief.key_file(first.number + 1, stolen.syncer.device, thief.keys, members, set(),
                   [first.digest])  # fmt: skip
    tablet.sync()  # the next generation, on the thief's
    tablet.syncer.remove(desktop.syncer.device)  # and another, on its own
    path.write_bytes(saved)
    for _ in range(2):
        for c in (laptop, tablet):
            c.sync()
    for c in (laptop, tablet):
        assert mole not in c.syncer.chain().members, c.name


def test_an_id_the_thief_lets_in_cannot_take_out_a_computer_let_in_after_its_removal(
    computers: Computers,
) -> None:
    """Engine schedule 113 of seed 7001: the thief let an id of its own in with a join it
    backdated to the generation before its removal, and wrote a key file as that id,
    removing a computer let in afterwards. The id is not removed (only no longer in), so
    every removal of its counted: the rule for a removed computer's key files did not
    reach the ids it let in."""
    laptop, desktop, stolen = _three(computers)
    thief = Thief(stolen)
    first = laptop.syncer.chain().current
    laptop.syncer.remove(stolen.syncer.device)
    desktop.sync()
    tablet = computers.pair(desktop, "tablet")
    mole_keys = crypto.DeviceKeys.generate()
    mole = crypto.new_id()
    member = Member(mole_keys.public["agreement"], mole_keys.public["signing"])
    records.write_join(thief.layout, mole, member, stolen.syncer.device, first.digest,
                       "pair", None, thief.keys)  # fmt: skip
    thief.key_file(first.number + 1, mole, mole_keys, {mole: member},
                   {tablet.syncer.device}, [first.digest])  # fmt: skip
    tablet.service.memories.add(NewMemory("Written on the tablet"))
    for _ in range(2):
        for c in (tablet, laptop, desktop):
            c.sync()
    assert tablet.syncer.device not in laptop.syncer.chain().removed
    assert "Written on the tablet" in laptop.texts()


def test_what_a_sweep_undid_comes_back_with_the_carriers_late_file(
    computers: Computers,
) -> None:
    """The removal reached the desktop before the change file in which the laptop, which
    removed the stolen computer, carries what the stolen computer wrote while it was in:
    the desktop's sweep found none of it in the laptop's files, undid it and kept its
    text for the user; once the file arrives, the memory is back and no longer said to
    be lost (only what the thief wrote after stays undone)."""
    laptop, desktop, stolen = _three(computers)
    stolen.service.memories.add(NewMemory("Written by the stolen computer while it was in"))
    for c in (stolen, laptop, desktop):
        c.sync()
    laptop.syncer.remove(stolen.syncer.device)
    layout = laptop.syncer.layout()
    folder = layout.device(laptop.syncer.device)
    late = {p.name: p.read_bytes() for p in folder.iterdir() if p.name.startswith("c-")}
    newest = max(late)
    (folder / newest).unlink()
    desktop.sync()
    undone = [item.text for item in desktop.syncer.lost()]
    assert undone == ["Written by the stolen computer while it was in"]
    (folder / newest).write_bytes(late[newest])
    desktop.sync()
    assert "Written by the stolen computer while it was in" in desktop.texts()
    assert desktop.syncer.lost() == []
    assert sorted(desktop.texts()) == sorted(laptop.texts())


def test_an_edit_the_remover_never_read_is_undone_and_the_memory_keeps_its_history(
    computers: Computers,
) -> None:
    """Seed 6100, schedule 24: the stolen computer edited a memory the laptop wrote; the
    laptop took the edit in; the desktop, which had not read it, removed the stolen
    computer. The laptop's sweep found the edit in none of the desktop's files and took
    the whole memory out, its own first version with it, which only the laptop's own
    files held (a computer does not read its own): the laptop lacked a text for good.
    Now the memory goes back to its newest version that stands, its history kept."""
    laptop, desktop, stolen = _three(computers)
    laptop.service.memories.add(NewMemory("I keep bees"))
    for c in (laptop, desktop, stolen):
        c.sync()
    mid = next(m.id for m in stolen.service.memories.list() if m.text == "I keep bees")
    stolen.service.memories.edit(mid, text="I keep wasps")
    stolen.sync()
    laptop.sync()
    assert "I keep wasps" in laptop.texts()
    desktop.syncer.remove(stolen.syncer.device)
    for _ in range(2):
        for c in (laptop, desktop):
            c.sync()
    assert sorted(laptop.texts()) == sorted(desktop.texts())
    assert "I keep bees" in laptop.texts() and "I keep wasps" not in laptop.texts()
    on_laptop = next(m for m in laptop.service.memories.list() if m.text == "I keep bees")
    history = [v.text for v in laptop.service.memories.history(on_laptop.id)]
    assert history and "I keep wasps" not in history
    assert [i.text for i in laptop.syncer.lost()] == ["I keep wasps"]


def test_a_snapshot_planted_under_an_honest_name_beyond_its_files_goes(
    computers: Computers,
) -> None:
    """Seed 6300, schedule 25: the thief put a snapshot under the desktop's name, numbered
    above every file the desktop wrote and sealed with a key the others do not hold: they
    took it for the desktop's newest snapshot, still arriving, and waited for good, so
    an edit made on the desktop never reached them. The desktop removes what is under
    its name, beyond its files, that it did not sign."""
    laptop, desktop, stolen = _three(computers)
    thief = Thief(stolen)
    laptop.syncer.remove(stolen.syncer.device)
    for c in (desktop, laptop):
        c.sync()
    layout = desktop.syncer.layout()
    seq = desktop.syncer.state.int("written") + 3
    header = {"kind": "snapshot", "sync": layout.sync_id, "device": desktop.syncer.device,
              "seq": seq}  # fmt: skip
    key = os.urandom(32)  # one no computer still in holds
    planted = layout.device(desktop.syncer.device) / files.snapshot_name(seq)
    frame.write_sealed(planted, header, [], key, thief.keys)
    desktop.service.memories.add(NewMemory("Written on the desktop after"))
    for _ in range(3):
        for c in (desktop, laptop):
            c.sync()
    assert "Written on the desktop after" in laptop.texts()
    assert not laptop.syncer.last_pass.waiting
    assert not planted.exists()


def test_a_join_the_thief_backdates_is_not_vouched_for_by_a_list_naming_its_id(
    computers: Computers,
) -> None:
    """Seed 6300, engine schedule 33 (32 steps): the thief let an id of its own in with a
    join it backdated to the generation before its removal; the tablet, which had not
    received the removal, took the join and then removed the desktop (which had removed
    the stolen computer) in a generation naming that id. A generation's list vouched
    for any id that what it builds on did not name, so the merge of the two removals
    kept the id: a member, given every key after, on every computer. A list naming an
    id is not a join signed for it: the only join is the thief's, and it counts for
    nothing once its signer's removal is known."""
    laptop, desktop, stolen = _three(computers)
    tablet = computers.pair(laptop, "tablet")
    for c in (laptop, desktop, stolen, tablet):
        c.sync()
    thief = Thief(stolen)
    first = laptop.syncer.chain().current
    desktop.syncer.remove(stolen.syncer.device)
    layout = desktop.syncer.layout()
    removal = desktop.syncer.chain().current
    path = layout.keys / files.key_name(removal.number, removal.writer)
    saved = path.read_bytes()
    path.write_bytes(b"not what it was")  # the removal kept from the tablet
    mole_keys = crypto.DeviceKeys.generate()
    mole = crypto.new_id()
    member = Member(mole_keys.public["agreement"], mole_keys.public["signing"])
    records.write_join(thief.layout, mole, member, stolen.syncer.device, first.digest,
                       "pair", None, thief.keys)  # fmt: skip
    tablet.sync()
    assert mole in tablet.syncer.chain().members  # as from a member: it missed the removal
    tablet.syncer.remove(desktop.syncer.device)
    assert mole in tablet.syncer.chain().current.members
    path.write_bytes(saved)
    for _ in range(3):
        for c in (laptop, tablet):
            c.sync()
    for c in (laptop, tablet):
        chain = c.syncer.chain()
        assert stolen.syncer.device in chain.removed, c.name
        assert mole not in chain.members, c.name
        assert mole not in chain.current.members, c.name  # its key is not sealed to it


def test_what_the_thief_wrote_does_not_stay_when_it_takes_out_the_one_that_removed_it(
    computers: Computers,
) -> None:
    """Seed 5200, engine schedule 114: the desktop removed the stolen computer; the thief
    sent a memory with the stolen computer's app, which the laptop and the tablet took in
    before the removal reached them (the engine was late with it), and took out, along
    with itself, every computer (a key file on the generation before its removal). Both
    removals stand, so the desktop, which carries what of the stolen computer stands, is
    out too: the rule found no one still in to carry it (they removed one another), the
    laptop and the tablet kept the thief's memory, and once all three had joined again
    the desktop took it from them. The desktop, joined again, carries it under its new
    id: its join names the id it had."""
    laptop, desktop, stolen = _three(computers)
    tablet = computers.pair(laptop, "tablet")
    for c in (laptop, desktop, stolen, tablet):
        c.sync()
    thief = Thief(stolen)
    first = laptop.syncer.chain().current
    desktop.syncer.remove(stolen.syncer.device)
    layout = desktop.syncer.layout()
    removal = desktop.syncer.chain().current
    path = layout.keys / files.key_name(removal.number, removal.writer)
    saved = path.read_bytes()
    path.unlink()  # late through the engine
    stolen.service.memories.add(NewMemory("Written by the thief after the removal"))
    stolen.sync()
    for c in (laptop, tablet):
        c.sync()
        assert "Written by the thief after the removal" in c.texts()
    everyone = {laptop.syncer.device, desktop.syncer.device, tablet.syncer.device}
    own = {stolen.syncer.device: _member(stolen)}
    thief.key_file(first.number + 1, stolen.syncer.device, thief.keys, own, everyone,
                   [first.digest])  # fmt: skip
    path.write_bytes(saved)
    for c in (laptop, desktop, tablet):
        with pytest.raises(SyncError) as told:
            c.sync()
        assert told.value.reason == "sync_removed"
    laptop.service.sync.join(computers.folder, laptop.code, index=False)
    computers.pair(laptop, desktop)
    computers.pair(laptop, tablet)
    for _ in range(3):
        for c in (laptop, desktop, tablet):
            c.sync(compact=True)
    for c in (laptop, desktop, tablet):
        assert stolen.syncer.device in c.syncer.chain().removed, c.name
        assert "Written by the thief after the removal" not in c.texts(), c.name


def _the_desktops_own_overwritten(computers: Computers) -> tuple[Computer, Computer, Path]:
    """The thief deletes and edits the desktop's own memories and chat while its removal
    is hidden from the desktop, which takes the changes in; then the removal's key file
    is put back. The laptop, the desktop and the desktop's status file."""
    laptop, desktop, stolen = _three(computers)
    desktop.service.memories.add(NewMemory("My sister lives in Porto"))
    mine = desktop.service.memories.add(NewMemory("My passport number ends in 417")).memory
    desktop.service.memories.edit(mine.id, text="My passport number ends in 418")
    chat = desktop.service.profile.conversations.create("Packing")
    desktop.service.profile.conversations.add_message(chat.id, "user", "Pack the blue coat")
    for c in (desktop, laptop, stolen, desktop):
        c.sync()
    on_stolen = {m.text: m.id for m in stolen.service.memories.list()}
    laptop.syncer.remove(stolen.syncer.device)
    layout = laptop.syncer.layout()
    removal = laptop.syncer.chain().current
    path = layout.keys / files.key_name(removal.number, removal.writer)
    saved = path.read_bytes()
    path.unlink()
    stolen.service.memories.delete([on_stolen["My sister lives in Porto"]])
    stolen.service.memories.edit(on_stolen["My passport number ends in 418"], text="ends in 999")
    stolen_chat = stolen.service.profile.conversations.list()[0]
    stolen.service.conversations.delete(stolen_chat.id)
    stolen.sync()
    desktop.sync(compact=True)
    assert "My sister lives in Porto" not in desktop.texts()  # taken in, the removal hidden
    path.write_bytes(saved)
    return laptop, desktop, layout.device(desktop.syncer.device) / files.STATUS


def test_what_the_thief_deleted_of_the_computers_own_comes_back_to_it_too(
    computers: Computers,
) -> None:
    """Found by the fuzz (three computers, seeds 4207, 4208 and 4210): what the thief
    deleted and edited while its removal was hidden was the desktop's own: its memory,
    its edit, and the messages of its chat. When the removal reaches the desktop, the
    thief's changes are undone and every computer still in is read again, so that what
    they overwrote comes back "from whoever wrote it"; but the desktop wrote it, and no
    computer sends the desktop its own records back. The laptop, which never took the
    thief's changes, kept them: the two differed for good. Now the desktop's status
    asks the others to send back what they hold of its own."""
    laptop, desktop, _status = _the_desktops_own_overwritten(computers)
    for _ in range(3):  # the laptop compacting at once: its snapshot gives them back too
        laptop.sync(compact=True)
        desktop.sync()
    assert sorted(desktop.texts()) == sorted(laptop.texts())
    assert "My sister lives in Porto" in desktop.texts()
    assert "My passport number ends in 418" in desktop.texts()
    assert [c.title for c in desktop.service.profile.conversations.list()] == ["Packing"]


def test_an_ask_for_records_back_is_answered_once_even_when_its_status_comes_again(
    computers: Computers,
) -> None:
    """The desktop's ask (above) stays in its status. The laptop answers it once: not
    again at each pass that reads the same status, nor when an older status carrying the
    ask is put back in the folder (an engine's replay, or whoever can write the folder)."""
    laptop, desktop, status = _the_desktops_own_overwritten(computers)
    desktop.sync()  # takes the removal in, undoes the thief's changes, asks
    asking = status.read_bytes()
    state = laptop.syncer.state
    seq = state.int("seq")
    laptop.sync()
    assert state.int("seq") == seq + 1  # what it holds of the desktop's, refiled
    for _ in range(3):
        desktop.sync()
        laptop.sync()
    assert "My sister lives in Porto" in desktop.texts()
    assert state.int("seq") == seq + 1
    status.write_bytes(asking)
    laptop.sync()
    assert state.int("seq") == seq + 1


def test_what_the_first_remover_carries_comes_back_when_the_tablet_learns_of_it_late(
    computers: Computers,
) -> None:
    """The laptop and the desktop took the stolen computer out at the same time, each
    not knowing of the other's removal. The one whose id sorts first carries what the
    stolen computer wrote (the same on every computer); it had read a memory the
    stolen computer wrote, the other had not. The tablet learned first of the removal
    that does not carry it, and undid the memory; when the other removal arrived, the
    memory was to come back from the carrier's files, which the tablet had already read
    (and screened the memory out of): it stayed without it for good, unlike the others."""
    laptop, desktop, stolen = _three(computers)
    tablet = computers.pair(laptop, "tablet")
    for c in (stolen, laptop, desktop, tablet):
        c.sync()
    low, high = sorted((laptop, desktop), key=lambda c: c.syncer.device)
    layout = laptop.syncer.layout()
    stolen.service.memories.add(NewMemory("Written by the stolen computer while it was in"))
    stolen.sync()
    for c in (low, tablet):
        c.sync()
    assert "Written by the stolen computer while it was in" in tablet.texts()

    def hidden(paths: list[Path]) -> dict[Path, bytes]:
        kept = {p: p.read_bytes() for p in paths}
        for p in paths:
            p.unlink()
        return kept

    def back(kept: dict[Path, bytes]) -> None:
        for p, data in kept.items():
            p.write_bytes(data)

    def key_files_of(c: Computer) -> list[Path]:
        return [p for _n, w, p in layout.key_files() if w == c.syncer.device]

    # the one that sorts last removes it without having read the memory
    hidden([max(layout.device(stolen.syncer.device).glob("c-*.dmc"))])
    high.syncer.remove(stolen.syncer.device)  # (its folder goes with it)
    # the other, at the same time, without knowing of that removal
    before = set(key_files_of(high))
    theirs = hidden(key_files_of(high))
    low.syncer.remove(stolen.syncer.device)
    back(theirs)
    # the tablet learns of the removal that does not carry the memory first
    carrying = hidden([p for p in key_files_of(low)])
    tablet.sync()
    assert before <= set(key_files_of(high))
    assert stolen.syncer.device in tablet.syncer.chain().removed
    assert "Written by the stolen computer while it was in" not in tablet.texts()
    back(carrying)
    for _ in range(3):
        for c in (low, high, tablet):
            c.sync()
    assert "Written by the stolen computer while it was in" in low.texts()
    assert sorted(tablet.texts()) == sorted(low.texts()) == sorted(high.texts())


def test_the_folder_of_an_id_left_out_goes_again_when_an_engine_brings_it_back(
    computers: Computers,
) -> None:
    """What the three-computer fuzz showed once (seed 4200, under load): a deleted text
    still in the folder, in the first change file of an id no computer had. One way it
    arises: the tablet, left out (the thief took out the laptop that had let it in),
    joined again as a new computer and removed its old folder; the engine brought that
    folder back (as engines do with a deleted file another copy still had). A left-out
    id is in no removal, so no computer took its folder out again, and what it held
    stayed, a text deleted since among it. Now every computer takes out the folder of an
    id a computer in the sync had before it joined again."""
    laptop, desktop, stolen = _three(computers)
    tablet = computers.pair(laptop, "tablet")
    tablet.service.memories.add(NewMemory("Written on the tablet, deleted later"))
    for c in (tablet, desktop):
        c.sync()
    thief = Thief(stolen)
    first = laptop.syncer.chain().current
    desktop.syncer.remove(stolen.syncer.device)
    thief.key_file(first.number + 1, stolen.syncer.device, thief.keys, {},
                   {laptop.syncer.device}, [first.digest])  # fmt: skip
    with pytest.raises(SyncError) as told:
        tablet.sync()
    assert told.value.reason == "sync_left_out"
    layout = desktop.syncer.layout()
    old = tablet.syncer.device
    kept = {p.name: p.read_bytes() for p in layout.device(old).iterdir()}
    computers.pair(desktop, tablet)
    assert not layout.device(old).exists()
    layout.device(old).mkdir()  # the engine brings the old folder back
    for name, data in kept.items():
        (layout.device(old) / name).write_bytes(data)
    gone = next(m for m in desktop.service.memories.list() if m.text.startswith("Written on"))
    desktop.service.memories.delete([gone.id])
    for c in (desktop, tablet, desktop):
        c.sync(compact=True)
    assert old not in layout.devices()


def test_a_computer_stopped_beside_a_planted_start_still_hears_it_was_taken_out(
    computers: Computers,
) -> None:
    """Seed 8200, schedule 21 at 32 steps: the desktop, joined with the recovery code,
    stopped beside a start the thief planted, and so never read the thief's removal of
    it (along with itself); once the folder was repaired it learned it only then. A
    computer stopped this way still says it was taken out, first."""
    laptop, desktop, stolen = _three(computers)
    thief = Thief(stolen)
    first = laptop.syncer.chain().current
    laptop.syncer.remove(stolen.syncer.device)
    own = {stolen.syncer.device: _member(stolen)}
    thief.key_file(first.number + 1, stolen.syncer.device, thief.keys, own,
                   {desktop.syncer.device}, [first.digest])  # fmt: skip
    layout = laptop.syncer.layout()
    KeyChain(layout.sync_id).start(layout, crypto.new_id(), crypto.DeviceKeys.generate(),
                                   thief.lock)  # fmt: skip
    with pytest.raises(SyncError) as told:
        desktop.sync()
    assert told.value.reason == "sync_removed"
    assert desktop.syncer.device in desktop.syncer.chain().removed
    assert desktop.syncer.removed_here


def _removal_kept_away(computers: Computers) -> tuple[Computer, Computer, Computer, Path]:
    """Three computers; the desktop removes the stolen one, and the returned path is that
    key file, which the test then keeps out of the folder (and puts back)."""
    laptop, desktop, stolen = _three(computers)
    desktop.syncer.remove(stolen.syncer.device)
    layout = laptop.syncer.layout()
    removal = next(p for _n, w, p in layout.key_files() if w == desktop.syncer.device)
    return laptop, desktop, stolen, removal


def test_a_computer_the_thief_leaves_off_a_key_file_is_back_once_the_removal_reaches_it(
    computers: Computers,
) -> None:
    """Seed 8200, engine schedule 42 at 32 steps: the desktop removed the stolen
    computer, and the laptop's copy of that key file was damaged. The thief wrote a key
    file on top of the first that named only an id of its own and removed no one; for
    the laptop the stolen computer was still a member, so the laptop stopped, told it
    was left out. What is promised: once the removal reaches it, it is in again at that
    pass, without joining again, and what it wrote meanwhile reaches the others.
    (Refusing such a key file outright was tried: which computers are members depends
    on what each trusts, so honest key files were refused too and schedule 48 stopped
    converging.)"""
    laptop, desktop, stolen, removal = _removal_kept_away(computers)
    thief = Thief(stolen)
    first = laptop.syncer.chain().current
    held = removal.read_bytes()
    removal.unlink()  # kept from the laptop
    minted = crypto.DeviceKeys.generate()
    thief.key_file(first.number + 1, stolen.syncer.device, thief.keys,
                   {crypto.new_id(): Member(minted.public["agreement"], minted.public["signing"])},
                   set(), [first.digest])  # fmt: skip
    laptop.service.memories.add(NewMemory("Written while the removal was kept away"))
    with pytest.raises(SyncError) as told:
        laptop.sync()
    assert told.value.reason == "sync_left_out"
    removal.write_bytes(held)  # the folder repaired
    laptop.sync()  # in again at its first pass: no pairing code needed
    assert laptop.syncer.device in laptop.syncer.chain().members
    assert stolen.syncer.device in laptop.syncer.chain().removed
    for c in (desktop, laptop, desktop):
        c.sync()
    assert "Written while the removal was kept away" in desktop.texts()


def test_what_the_thief_wrote_after_a_removal_no_one_saw_goes_once_its_remover_joins_again(
    computers: Computers,
) -> None:
    """Seed 8200, schedule 394 at 32 steps: a fourth computer removed the stolen one,
    and that key file was kept from the others, so the laptop, for which the stolen
    computer was still a member, took in what the thief wrote afterwards; meanwhile the
    user removed the fourth computer from the laptop. Once the folder was repaired the
    stolen computer was out everywhere, but what it wrote after its removal stayed:
    the computer that first removed it was out too, so its records were judged by the
    laptop's files, which held them. The computer that first removed it knows how far
    it had read the stolen one: once it joins again, what it holds is what stands."""
    laptop, desktop, stolen = _three(computers)
    fourth = computers.pair(laptop, "fourth")
    for c in (laptop, desktop, stolen, fourth):
        c.sync()
    fourth.syncer.remove(stolen.syncer.device)
    layout = laptop.syncer.layout()
    removal = next(p for _n, w, p in layout.key_files() if w == fourth.syncer.device)
    held = removal.read_bytes()
    removal.unlink()  # kept from every other computer
    laptop.syncer.remove(fourth.syncer.device)  # the user, not knowing
    stolen.service.memories.add(NewMemory("CANARY written after the removal"))
    stolen.sync()  # the stolen computer's own app: its removal is not in the folder
    laptop.sync()
    assert "CANARY written after the removal" in laptop.texts()  # taken in, as a member's
    removal.write_bytes(held)  # the folder repaired
    with pytest.raises(SyncError):
        fourth.sync()  # it hears it was removed
    computers.pair(laptop, fourth)  # and joins again, keeping what it holds
    for _ in range(3):
        for c in (laptop, desktop, fourth):
            c.sync()
    for c in (laptop, desktop, fourth):
        assert stolen.syncer.device in c.syncer.chain().removed
        assert "CANARY written after the removal" not in c.texts(), c.name
        assert "Shared before the theft" in c.texts()


def test_one_let_in_at_the_start_stays_in_when_the_remover_is_taken_out_in_turn(
    computers: Computers,
) -> None:
    """What the three-computer fuzz showed (seed 4203, about one run in sixteen: a
    computer waiting round after round, or two computers left apart). The laptop let
    the desktop and the tablet in; the desktop took the laptop out; the laptop joined
    again (the tablet showed the code) and took the desktop out. The tablet trusts only
    the first key file (it joined when that was all there was): the laptop's first
    removal kept it and the desktop, and the desktop's own removal came later, yet the
    second removal, which carries the laptop's, did not name the desktop among those in,
    so the desktop's join was taken for one the removal of the laptop did not know of;
    the desktop's key file then vouched for no one, nor did anything after it, and the
    tablet was told it was left out while the others counted it in. A removal that
    takes a computer out knew of it as much as one that names it among those in."""
    laptop = computers.first("laptop")
    desktop = computers.pair(laptop, "desktop")
    tablet = computers.pair(laptop, "tablet")
    for c in (desktop, tablet, laptop):
        c.sync()
    desktop.syncer.remove(laptop.syncer.device)
    with pytest.raises(SyncError) as told:
        laptop.sync()
    assert told.value.reason == "sync_removed"
    computers.pair(tablet, laptop)
    laptop.syncer.remove(desktop.syncer.device)
    tablet.service.memories.add(NewMemory("Written on the tablet"))
    tablet.sync()  # (it was told here that it was left out)
    laptop.sync()
    assert "Written on the tablet" in laptop.texts()
    for c in (tablet, laptop):
        members = c.syncer.chain().members
        assert set(members) == {tablet.syncer.device, laptop.syncer.device}


def test_a_computer_let_in_does_not_take_a_key_file_of_an_id_the_thief_made_up(
    computers: Computers,
) -> None:
    """Seed 8200, schedule 50 at 32 steps: after its removal the thief
    wrote a key file on the generation before it naming an id of its own making, and a
    key file signed by that id on top. Every computer refused the second (a removed
    computer's list vouches for no one it alone names). But a computer let in with a
    pairing code trusted every key file its inviter had taken, the thief's first one
    among them, so it took the second, built its next key file on it, and the others
    waited for that one's parent for good: nothing it wrote reached them."""
    laptop, desktop, stolen = _three(computers)
    thief = Thief(stolen)
    first = laptop.syncer.chain().current
    desktop.syncer.remove(stolen.syncer.device)
    for c in (laptop, desktop):
        c.sync()
    made_up, made_keys = crypto.new_id(), crypto.DeviceKeys.generate()
    made = Member(made_keys.public["agreement"], made_keys.public["signing"])
    n = first.number + 1
    thief.key_file(n, stolen.syncer.device, thief.keys,
                   {stolen.syncer.device: _member(stolen), made_up: made,
                    laptop.syncer.device: _member(laptop), desktop.syncer.device: _member(desktop)},
                   set(), [first.digest])  # fmt: skip
    backdated = _digest_of(laptop, n, stolen.syncer.device)
    thief.key_file(n + 1, made_up, made_keys,
                   {made_up: made, laptop.syncer.device: _member(laptop),
                    desktop.syncer.device: _member(desktop)},
                   set(), [backdated])  # fmt: skip
    for c in (laptop, desktop):
        said = c.sync().refused
        assert any(made_up in line for line in said), said  # the made-up id's is refused
    tablet = computers.pair(laptop, "tablet")
    tablet.service.memories.add(NewMemory("Written on the computer let in"))
    for _ in range(2):
        for c in (tablet, laptop, desktop):
            c.sync()
    for c in (tablet, laptop, desktop):
        assert "Written on the computer let in" in c.texts(), c.name
        assert set(c.syncer.chain().members) == {
            laptop.syncer.device,
            desktop.syncer.device,
            tablet.syncer.device,
        }


def test_a_right_recovery_code_is_not_called_wrong_beside_the_thiefs_key_file(
    computers: Computers,
) -> None:
    """Seed 8200, schedule 510 at 32 steps: with the stolen computer's removal kept
    out of the folder, the newest key file was the thief's, which the recovery code
    cannot join with; a computer joining with the right code was told that the code
    did not open the profile (or that the profile had none). It is told the code is
    right and what stands in its way, and joins once the removal is back."""
    laptop, desktop, stolen, removal = _removal_kept_away(computers)
    thief = Thief(stolen)
    first = laptop.syncer.chain().current
    held = removal.read_bytes()
    removal.unlink()  # kept out of the folder
    everyone = {d.syncer.device: _member(d) for d in (laptop, desktop, stolen)}
    thief.key_file(first.number + 1, stolen.syncer.device, thief.keys, everyone, set(),
                   [first.digest])  # fmt: skip
    with pytest.raises(SyncError) as told:
        computers.join("tablet", laptop.code)
    assert told.value.reason == "sync_recovery_blocked", told.value
    assert "recovery code is right" in str(told.value)
    removal.write_bytes(held)  # the folder repaired
    tablet = computers.join("tablet", laptop.code)
    tablet.sync()
    assert stolen.syncer.device in tablet.syncer.chain().removed


def test_a_join_copied_under_another_computers_name_is_not_taken_for_a_copy_of_this_one(
    computers: Computers,
) -> None:
    """Found by the model checker (seed 8400, schedule 33 through the engine): whoever
    can write the folder copied a join the laptop had signed (the one that let the
    stolen computer in) over another computer's join in keys/. The laptop took it for a
    copy of itself at work (a valid record signed with its key that it did not write)
    and went on as a new computer, at will of someone with no key; there, with the
    thief's key file taking its former id out, it was out in its own view without being
    told, and its pairing code let no one in. A record under a name that is not its own
    is a misplaced copy: written back, and the computer stays itself."""
    laptop, desktop, stolen = _three(computers)
    layout = laptop.syncer.layout()
    device = laptop.syncer.device
    planted = layout.keys / files.join_name(desktop.syncer.device)
    real = planted.read_bytes()
    planted.write_bytes((layout.keys / files.join_name(stolen.syncer.device)).read_bytes())
    laptop.service.memories.add(NewMemory("Written on the laptop after"))
    laptop.sync()
    assert laptop.syncer.device == device
    assert planted.read_bytes() == real
    desktop.sync()
    assert "Written on the laptop after" in desktop.texts()


def test_a_change_file_copied_under_another_of_its_names_is_not_taken_for_a_copy_of_it(
    computers: Computers,
) -> None:
    """As above, in the computer's own folder: one of its change files copied over
    another of its own (anyone can copy a file) is damage to mend, not a copy of it
    writing under its name."""
    laptop, desktop, _stolen = _three(computers)
    for text in ("First after", "Second after"):
        laptop.service.memories.add(NewMemory(text))
        laptop.sync(compact=False)
    device = laptop.syncer.device
    folder = laptop.syncer.layout().device(device)
    n = laptop.syncer.state.int("written")
    (folder / files.changes_name(n)).write_bytes((folder / files.changes_name(n - 1)).read_bytes())
    laptop.sync()
    assert laptop.syncer.device == device
    desktop.sync()
    assert {"First after", "Second after"} <= set(desktop.texts())


def test_a_computer_joining_again_knows_its_start_when_the_folders_copy_is_damaged(
    computers: Computers,
) -> None:
    """Found by the model checker (seed 8600, schedule 332): the thief took every
    computer out along with itself, planted a start of its own (the recovery lock is
    public), and the folder's copy of the real first key file was damaged. The laptop,
    which set the sync up and keeps that key file, joined again with the recovery code
    and took the planted start: it looked for the start it knew only among those the
    folder could still read. It knows its start from what it keeps."""
    laptop, desktop, thief, first = _everyone_out_beside_a_planted_start(computers)
    (thief.layout.keys / files.key_name(first.number, first.writer)).write_bytes(b"damaged")
    laptop.service.sync.join(computers.folder, laptop.code, index=False)
    assert first.digest in laptop.syncer.chain().anchor.trusted
    computers.pair(laptop, desktop)
    laptop.service.memories.add(NewMemory("Written on the laptop once back"))
    for c in (laptop, desktop):
        c.sync()
    assert "Written on the laptop once back" in desktop.texts()
    starts = [p.name for n, _w, p in laptop.syncer.layout().key_files() if n == 1]
    assert starts == [files.key_name(first.number, first.writer)]


def test_a_computer_waiting_on_one_that_joined_again_is_told(computers: Computers) -> None:
    """Seed 8800, schedule 180: the thief took out, along with itself, the laptop that
    had let the tablet in, so the tablet was told it was left out. But pc3, which the
    tablet had let in on a key file the tablet wrote, trusts that key file and counted
    the tablet in still. The tablet joined again through pc3: its old id stayed a member
    in every view, an id no computer acts as. The phone, waiting on a pairing code the
    tablet had shown under that id, waited for good without a word, and pc3 listed the
    tablet twice. The tablet now takes its old id out once it is in again."""
    laptop, desktop, stolen = _three(computers)
    tablet = computers.pair(laptop, "tablet")
    for c in (desktop, tablet):
        c.sync()
    thief = Thief(stolen)
    first = laptop.syncer.chain().current
    laptop.syncer.remove(stolen.syncer.device)
    tablet.sync()
    tablet.syncer.remove(desktop.syncer.device)
    pc3 = computers.pair(tablet, "pc3")
    code = tablet.syncer.offer_pairing()
    phone = computers.new("phone")
    phone.syncer.join(computers.folder, pairing.join_with_pairing_code(
        laptop.syncer.layout(), code), "phone")  # fmt: skip
    thief.key_file(first.number + 1, stolen.syncer.device, thief.keys, {},
                   {laptop.syncer.device}, [first.digest])  # fmt: skip
    old = tablet.syncer.device
    with pytest.raises(SyncError) as told:
        tablet.sync()
    assert told.value.reason == "sync_left_out"
    pc3.sync()
    assert old in pc3.syncer.chain().members  # pc3 trusts the key file the tablet wrote
    computers.pair(pc3, tablet)
    for c in (tablet, pc3):
        c.sync()
    assert old not in pc3.syncer.chain().members
    assert [p.name for p in pc3.syncer.peers() if not p.removed] == ["tablet"]
    with pytest.raises(SyncError) as told:
        phone.sync()
    assert told.value.reason == "sync_left_out"


def test_a_memory_put_back_to_a_removed_computers_version_stays_in_the_carriers_files(
    computers: Computers,
) -> None:
    """Seed 8700, schedule 65: the stolen computer wrote a memory before the theft and
    the desktop edited it; the tablet read both and took the stolen computer out, so
    its files say what of it stands. Then pc3, which had read nothing of the desktop,
    took the desktop out: the desktop's edit is undone everywhere, and the tablet put
    the memory back to the stolen computer's version, which stands. But the tablet kept
    no record for it, so none of its files held it after its next snapshot, and the
    laptop, learning of the theft from them, dropped a memory that stands. (And the
    record it keeps now is the one the stolen computer wrote: when that version was
    made, not when the edit undone was, or two computers would hold two bodies under
    one stamp for good: an attack on the first fix.)"""
    laptop, desktop, stolen = _three(computers)
    tablet = computers.pair(laptop, "tablet")
    stolen.service.memories.add(NewMemory("Written on the stolen one before"))
    for c in (stolen, laptop, desktop, tablet):
        c.sync()
    mine = next(m for m in desktop.service.memories.list() if m.text.startswith("Written on"))
    written = now_iso()
    while now_iso() == written:  # the edit a second later than the memory, as seen here
        time.sleep(0.05)
    desktop.service.memories.edit(mine.id, text="Written on the stolen one, edited on the desktop")
    for c in (desktop, tablet):
        c.sync()
    tablet.syncer.remove(stolen.syncer.device)
    pc3 = computers.join("pc3", laptop.code)
    pc3.syncer.remove(desktop.syncer.device)
    for compact in (None, True):
        tablet.sync(compact=compact)
    assert "Written on the stolen one before" in tablet.texts()
    laptop.sync()
    assert "Written on the stolen one before" in laptop.texts()

    def seen(c: Computer) -> list[tuple[str, str, str]]:
        return sorted((m.text, str(m.updated_at), str(m.created_at))
                      for m in c.service.memories.list())  # fmt: skip

    for c in (pc3, tablet, laptop, pc3):
        c.sync(compact=True)
    assert seen(tablet) == seen(laptop) == seen(pc3)


@pytest.mark.parametrize("how", ["junk", "forged", "fifo", "sparse"])
def test_what_stands_of_a_removed_computer_is_not_dropped_while_its_carriers_file_is_damaged(
    computers: Computers, how: str
) -> None:
    """Seed 8800, schedule 387: the desktop took the stolen computer out, so its files
    say what of it stands (a memory written before the theft). Someone damaged the
    desktop's change file that says so (junk, a file sealed and signed by the thief, a
    FIFO in its place, a sparse 1.5 GB file: the sweep neither hangs nor reads it whole),
    and the laptop learnt of the removal then: it took the unreadable file for one
    holding nothing and dropped the memory. The desktop was taken out in its turn before
    it mended the file, so the laptop carries the stolen computer now, without the
    memory, and every other computer dropped it from the laptop's files. What is dropped
    for good now waits until every one of the carrier's files can be read, those a pass
    refused already among them (an attack on the first fix: at the laptop's second pass
    the refused file was no longer listed)."""
    laptop, desktop, stolen = _three(computers)
    tablet = computers.pair(laptop, "tablet")
    stolen.service.memories.add(NewMemory("Written on the stolen one before"))
    for c in (stolen, laptop, desktop, tablet):
        c.sync()
    thief = Thief(stolen)
    desktop.syncer.remove(stolen.syncer.device)
    tablet.sync()
    layout = desktop.syncer.layout()
    changes, _snapshots = layout.numbered(desktop.syncer.device)
    n = max(changes)
    newest = layout.device(desktop.syncer.device) / files.changes_name(n)
    if how == "junk":
        newest.write_bytes(b"damaged")
    elif how == "fifo":
        newest.unlink()
        os.mkfifo(newest)
    elif how == "sparse":
        with newest.open("r+b") as f:
            f.truncate(1500 * 1024 * 1024)  # nothing on disk
    else:
        chain = desktop.syncer.chain()
        header = {"kind": "changes", "sync": layout.sync_id, "device": desktop.syncer.device,
                  "seq": n}  # fmt: skip
        frame.write_sealed(newest, header, [], chain.write_key, thief.keys)
    for _ in range(2):  # the file refused at the first pass
        laptop.sync()
        assert "Written on the stolen one before" in laptop.texts()
    laptop.syncer.remove(desktop.syncer.device)
    for c in (tablet, laptop, tablet):
        c.sync()
    for c in (laptop, tablet):
        assert "Written on the stolen one before" in c.texts()


def test_a_former_list_in_the_thiefs_join_does_not_hide_a_live_computer_for_good(
    computers: Computers,
) -> None:
    """The desktop removes the stolen computer and that key file is kept from the tablet
    (let in by the desktop). The thief deletes a memory the laptop wrote, lets an id of
    its own in with a join it backdates that names the laptop among that id's former
    ids, and writes a key file on top of the last one that leaves the laptop off (not
    removed). The tablet, missing the removal, takes all of it. Once the folder is
    repaired the laptop is a member again for the tablet: it should be listed again,
    and what the thief deleted of it should come back. (An attack on the fix for seed
    8800's schedule 180: the tablet stopped listing the laptop as an id another had
    before it joined again, for good, and did not read its files again once the
    thief's deletion was undone, so the memory never came back.)"""
    laptop, desktop, stolen = _three(computers)
    tablet = computers.pair(desktop, "tablet")
    laptop.service.memories.add(NewMemory("The laptop's own memory"))
    for c in (laptop, desktop, stolen, tablet, laptop, desktop, stolen, tablet):
        c.sync()
    assert "The laptop's own memory" in tablet.texts()
    thief = Thief(stolen)
    first = tablet.syncer.chain().current
    desktop.syncer.remove(stolen.syncer.device)
    layout = tablet.syncer.layout()
    removal = next(p for _n, w, p in layout.key_files() if w == desktop.syncer.device)
    held = removal.read_bytes()
    removal.unlink()  # kept from the tablet
    mine = next(m for m in stolen.service.memories.list() if m.text == "The laptop's own memory")
    stolen.service.memories.delete([mine.id])
    stolen.sync()  # the thief's app: its removal is not in the folder
    mole_keys = crypto.DeviceKeys.generate()
    mole = crypto.new_id()
    member = Member(mole_keys.public["agreement"], mole_keys.public["signing"])
    records.write_join(thief.layout, mole, member, stolen.syncer.device, first.digest,
                       "pair", None, thief.keys, None, [laptop.syncer.device])  # fmt: skip
    members = {d: _member(c) for d, c in ((tablet.syncer.device, tablet),
               (desktop.syncer.device, desktop), (stolen.syncer.device, stolen))}  # fmt: skip
    members[mole] = member
    thief.key_file(first.number + 1, stolen.syncer.device, thief.keys, members, set(),
                   [first.digest])  # fmt: skip
    tablet.sync()
    removal.write_bytes(held)  # the folder repaired
    for compact in (None, True, None, True, None):
        for c in (tablet, laptop, desktop):
            c.sync(compact=compact)
    assert stolen.syncer.device in tablet.syncer.chain().removed
    assert laptop.syncer.device in tablet.syncer.chain().members
    assert "The laptop's own memory" in laptop.texts()
    assert "The laptop's own memory" in desktop.texts()
    assert "The laptop's own memory" in tablet.texts()
    listed = {p.device for p in tablet.syncer.peers() if not p.removed}
    # (and the id the thief let in, which the records no longer count, is not listed)
    assert listed == {laptop.syncer.device, desktop.syncer.device}
