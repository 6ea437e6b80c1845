"""The folder stays small and forgets: a snapshot plus the changes after it, a deleted
memory's text gone from every file once compacted, a computer away for months catches
up from the snapshot."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.sync import files, frame
from tests.sync.conftest import Computer, Computers


def _opened(computers: Computers, c: Computer) -> str:
    """Every record of every file in the folder, opened with the sync key."""
    layout = c.syncer.layout()
    chain = c.syncer.chain()
    out = []
    for device in layout.devices():
        for path in sorted(layout.device(device).iterdir()):
            kind = {".dmc": "changes", ".dms": "snapshot", ".dmd": "status"}.get(path.suffix)
            if kind is None:
                continue
            raw = frame.read_raw(path, layout.sync_id, kind)
            out += [
                json.dumps(r, ensure_ascii=False) for r in raw.records(chain.key(raw.header["key"]))
            ]
    return "\n".join(out)


def test_a_deleted_memory_leaves_every_file_of_the_folder(computers: Computers) -> None:
    laptop = computers.first("laptop")
    desktop = computers.join("desktop", laptop.code)
    laptop.service.memories.add(NewMemory("My old address was 12 Larkspur Lane", kind="fact"))
    laptop.service.memories.add(NewMemory("I like kites", kind="fact"))
    laptop.sync()
    desktop.sync()
    mid = next(m.id for m in desktop.service.memories.list(limit=10) if "Larkspur" in m.text)
    desktop.service.memories.edit(mid, text="My old address was 14 Larkspur Lane")
    desktop.sync()
    laptop.sync()
    assert "Larkspur" in _opened(computers, laptop)
    desktop.service.memories.delete([mid])
    desktop.sync(compact=True)
    laptop.sync(compact=True)
    desktop.sync(compact=True)
    assert "Larkspur" not in _opened(computers, laptop)
    assert "I like kites" in _opened(computers, laptop)
    assert laptop.texts() == desktop.texts() == ["I like kites"]


def test_a_computer_away_for_months_catches_up_from_the_snapshot(computers: Computers) -> None:
    laptop = computers.first("laptop")
    desktop = computers.join("desktop", laptop.code)
    laptop.service.memories.add(NewMemory("memory 0", kind="fact"))
    laptop.sync()
    desktop.sync()  # then the desktop is put away
    for n in range(1, 40):
        laptop.service.memories.add(NewMemory(f"memory {n}", kind="fact"))
        laptop.sync(compact=False)
    gone = [
        m.id for m in laptop.service.memories.list(limit=100) if m.text in ("memory 3", "memory 0")
    ]
    laptop.service.memories.delete(gone)
    laptop.sync(compact=True)
    changes, snaps = files.Layout.of(computers.folder, laptop.syncer.layout().sync_id).numbered(
        laptop.syncer.device
    )
    assert snaps and len(changes) <= 1  # the change files before the snapshot are gone
    desktop.sync()
    expected = sorted(f"memory {n}" for n in range(1, 40) if n != 3)
    assert desktop.texts() == expected == laptop.texts()


def test_the_folder_stays_within_about_twice_the_profile(computers: Computers) -> None:
    laptop = computers.first("laptop")
    desktop = computers.join("desktop", laptop.code)
    for round_ in range(6):
        for n in range(60):
            laptop.service.memories.add(
                NewMemory(f"Round {round_} note {n}: " + "words of a memory " * 6, kind="fact")
            )
        laptop.sync()
        desktop.sync()
        for m in laptop.service.memories.list(limit=100000)[:40]:
            laptop.service.memories.edit(m.id, text=m.text + " (edited)")
        laptop.sync()
        desktop.sync()
    laptop.sync(compact=True)
    desktop.sync(compact=True)
    data = sum(len(m.text.encode()) for m in laptop.service.memories.list(limit=100000))
    size = laptop.syncer.layout().size()
    assert desktop.texts() == laptop.texts()
    # history is synced too: the text and its versions, compressed, sealed
    history = sum(
        len(v.text.encode())
        for m in laptop.service.memories.list(limit=100000)
        for v in laptop.service.memories.history(m.id)
    )
    print("folder", size, "memories", data, "with history", history)
    assert size <= 2 * max(data, history), (size, data, history)


def test_a_memory_deleted_by_another_computer_is_gone_from_every_page_here(
    computers: Computers,
) -> None:
    from tests.fakes.keyrings import stored_key
    from tests.sqlcipher_pages import decrypted_pages

    canary = "Canary Pelargonium Tuesday-Swordfish"
    laptop = computers.first("laptop")
    for n in range(30):
        laptop.service.memories.add(NewMemory(f"filler memory {n} about gardening", kind="fact"))
    laptop.service.memories.add(NewMemory(canary, kind="fact"))
    laptop.sync()
    desktop = computers.join("desktop", laptop.code)
    desktop.sync()
    mid = next(m.id for m in desktop.service.memories.list(limit=100) if m.text == canary)
    desktop.service.memories.edit(mid, text=canary + " (edited)")
    desktop.sync()
    laptop.sync()
    path = laptop.profile.db.path
    key = stored_key(computers.keyring, path)
    needle = b"Pelargonium"
    assert any(needle in p for p in decrypted_pages(path, secret_hex=key))
    desktop.service.memories.delete([mid])
    desktop.sync()
    laptop.sync()
    assert canary not in laptop.texts()
    db = laptop.profile.db
    for (table,) in db.query("SELECT name FROM sqlite_master WHERE type = 'table'"):
        try:
            rows = db.query(f'SELECT * FROM "{table}"')
        except Exception:  # noqa: BLE001
            continue
        assert not [r for r in rows if "Pelargonium" in repr(r)], table
    assert not any(needle in p for p in decrypted_pages(path, secret_hex=key))
    dpath = desktop.profile.db.path
    assert not any(
        needle in p for p in decrypted_pages(dpath, secret_hex=stored_key(computers.keyring, dpath))
    )


def test_a_removed_computers_memories_reach_a_computer_joining_after_compaction(
    computers: Computers,
) -> None:
    """A computer taken out of the sync leaves its files' folder; what it wrote that
    stands (a memory, an edit's version) is carried by the others, in their snapshots
    too: a computer joining after every file was compacted still gets it."""
    laptop = computers.first("laptop")
    laptop.service.memories.add(NewMemory("The laptop's fact"))
    laptop.sync()
    desktop = computers.join("desktop", laptop.code)
    desktop.sync()
    desktop.service.memories.add(NewMemory("Written on the desktop before it was removed"))
    desktop.service.memories.edit(
        next(m.id for m in desktop.service.memories.list() if m.text == "The laptop's fact"),
        text="The laptop's fact, edited on the desktop",
    )
    desktop.sync()
    laptop.sync()
    tablet = computers.join("tablet", laptop.code)  # joined before the removal
    tablet.sync()
    laptop.syncer.remove(desktop.syncer.device)
    for c in (laptop, tablet, laptop, tablet):
        c.sync(compact=True)  # every file compacted: only snapshots and later changes
    assert desktop.syncer.device not in laptop.syncer.layout().devices()
    later = computers.join("later", laptop.code)
    later.sync()
    want = sorted(["Written on the desktop before it was removed",
                   "The laptop's fact, edited on the desktop"])  # fmt: skip
    assert later.texts() == want == tablet.texts() == laptop.texts()
    edited = next(m for m in later.service.memories.list() if m.text.startswith("The laptop"))
    versions = [v.text for v in later.service.memories.history(edited.id)]
    assert "The laptop's fact" in versions  # its history came with it


def test_a_removed_computer_joins_again_keeping_what_it_holds(computers: Computers) -> None:
    """Taken out by another computer (it was lost, then found), this computer joins the
    same sync again with a pairing code: as a new computer, with nothing lost on either
    side: what it changed while out is sent, what the others did is taken in."""
    from desktop_mem.core.errors import SyncError

    laptop = computers.first("laptop")
    laptop.service.memories.add(NewMemory("Shared before"))
    laptop.sync()
    desktop = computers.join("desktop", laptop.code)
    desktop.sync()
    old_device = desktop.syncer.device
    laptop.syncer.remove(old_device)
    laptop.service.memories.add(NewMemory("Added on the laptop after the removal"))
    laptop.sync()
    try:
        desktop.sync()
    except SyncError as exc:
        assert exc.reason == "sync_removed" and "pairing code" in str(exc)
    assert desktop.syncer.removed_here and desktop.syncer.info()["removed"]
    desktop.service.memories.add(NewMemory("Added on the desktop while it was out"))
    computers.pair(laptop, desktop)
    assert not desktop.syncer.removed_here and desktop.syncer.device != old_device
    laptop.sync()
    desktop.sync()
    want = sorted(["Shared before", "Added on the laptop after the removal",
                   "Added on the desktop while it was out"])  # fmt: skip
    assert desktop.texts() == want == laptop.texts()
    names = {p.name for p in laptop.syncer.peers() if not p.removed}
    assert names == {"desktop"}
    # and a computer joining later has all of it, once every file is compacted
    for c in (laptop, desktop, laptop):
        c.sync(compact=True)
    later = computers.join("later", laptop.code)
    later.sync()
    assert later.texts() == want


def test_a_removed_computers_folder_written_after_the_removal_goes(
    computers: Computers, tmp_path: Path
) -> None:
    """A computer taken out of the sync that wrote before it learned so (its files
    crossed the removal in the engine) leaves its folder in the sync folder again, with
    texts deleted since in it: the others' next pass removes it, and so does the
    computer itself when it joins again."""
    from desktop_mem.core.errors import SyncError

    laptop = computers.first("laptop")
    laptop.sync()
    desktop = computers.join("desktop", laptop.code)
    desktop.service.memories.add(NewMemory("The desktop's secret, deleted later"))
    desktop.sync()
    laptop.sync()
    old = desktop.syncer.device
    layout = laptop.syncer.layout()
    late = tmp_path / "late"
    shutil.copytree(layout.device(old), late)  # what the engine has not delivered yet
    laptop.syncer.remove(old)
    secret = next(m for m in laptop.service.memories.list() if "secret" in m.text)
    laptop.service.memories.delete([secret.id])
    laptop.sync(compact=True)
    shutil.copytree(late, layout.device(old))  # delivered now, after the removal
    assert "secret" in _opened(computers, laptop)
    laptop.sync(compact=True)
    assert not layout.device(old).exists()
    assert "secret" not in _opened(computers, laptop)
    # the computer taken out: its old folder goes when it joins again, too
    shutil.copytree(late, layout.device(old))
    with pytest.raises(SyncError):
        desktop.sync()
    computers.pair(laptop, desktop)
    assert not layout.device(old).exists()
    desktop.sync()
    laptop.sync()
    assert desktop.texts() == laptop.texts() == []


def test_a_computer_removed_by_one_it_has_not_heard_of_learns_it(computers: Computers) -> None:
    """The desktop joined again with the recovery code (a new id, let in by the recovery
    authority) and, before the laptop read anything of it, removed the laptop: the laptop
    still learns that it was removed (the desktop's join is a signed record, the removal
    too), and can join again."""
    from desktop_mem.core.errors import SyncError
    from desktop_mem.core.sync import pairing

    laptop = computers.first("laptop")
    laptop.service.memories.add(NewMemory("On the laptop"))
    laptop.sync()
    desktop = computers.join("desktop", laptop.code)
    desktop.sync()
    laptop.sync()
    laptop.syncer.remove(desktop.syncer.device)
    with pytest.raises(SyncError):
        desktop.sync()
    layout = laptop.syncer.layout()
    desktop.syncer.rejoin(computers.folder, pairing.join_with_recovery_code(layout, laptop.code))
    desktop.sync()  # its new status is in the folder: the laptop has not read it
    desktop.syncer.remove(laptop.syncer.device)
    with pytest.raises(SyncError) as raised:
        laptop.sync()
    assert raised.value.reason == "sync_removed"
    assert laptop.syncer.removed_here
    laptop.service.memories.add(NewMemory("On the laptop while it was out"))
    computers.pair(desktop, laptop)
    laptop.sync()
    desktop.sync()
    laptop.sync()
    assert laptop.texts() == desktop.texts() == ["On the laptop", "On the laptop while it was out"]


def test_a_removed_computer_cannot_come_back_as_a_new_one(
    computers: Computers, tmp_path: Path
) -> None:
    """A stolen computer taken out of the sync still holds the earlier sync keys. Given
    a fresh identity of its own making, what it writes under them (a memory added, one
    deleted) is never read by the others (no member let that identity in), and the next
    new key is not sealed to it."""
    from desktop_mem.core.sync import crypto

    laptop = computers.first("laptop")
    laptop.service.memories.add(NewMemory("The laptop's memory"))
    laptop.sync()
    desktop = computers.join("desktop", laptop.code)
    tablet = computers.join("tablet", laptop.code)
    for c in (desktop, tablet, laptop):
        c.sync()
    laptop.syncer.remove(desktop.syncer.device)
    # the thief: a new id and new keys on the stolen desktop, the old sync keys kept
    chain = desktop.syncer.chain()
    chain.removed.clear()
    fake = crypto.new_id()
    with desktop.profile.db.transaction() as conn:
        desktop.syncer.state.set(conn, {
            "device": fake, "device_keys": json.dumps(crypto.DeviceKeys.generate().to_dict()),
            "keys": json.dumps(chain.to_dict()), "seq": "0", "written": "0", "snapshot": "0",
        })  # fmt: skip
    desktop.service.memories.add(NewMemory("Injected by the thief"))
    mine = next(m for m in desktop.service.memories.list() if m.text == "The laptop's memory")
    desktop.service.memories.delete([mine.id])
    desktop.syncer.outgoing.export()
    desktop.syncer.outgoing.write_pending(
        desktop.syncer.layout(), chain, desktop.syncer.device_keys()
    )
    layout = desktop.syncer.layout()
    assert fake in layout.devices()  # it wrote its files
    laptop.sync()
    assert laptop.texts() == ["The laptop's memory"]
    tablet.sync()
    assert tablet.texts() == ["The laptop's memory"]
    assert fake not in laptop.syncer.chain().members
    # the next new key (the tablet removed too) is sealed to nobody it made up
    laptop.syncer.remove(tablet.syncer.device)
    assert fake not in laptop.syncer.chain().current.members


def test_one_let_in_just_before_a_removal_that_missed_it_gets_the_new_key(
    computers: Computers, tmp_path: Path
) -> None:
    """The tablet joined just before the desktop removed the laptop, and the desktop had
    not seen the tablet yet: the new key is sealed to the desktop alone. But the tablet
    was let in by a member that is not removed (the recovery authority), so it is still
    in: the desktop's next pass seals a new key to it too, and nothing is lost."""
    laptop = computers.first("laptop")
    laptop.service.memories.add(NewMemory("Shared by the laptop"))
    laptop.sync()
    desktop = computers.join("desktop", laptop.code)
    desktop.sync()
    tablet = computers.join("tablet", laptop.code)
    tablet.service.memories.add(NewMemory("Written on the tablet"))
    tablet.sync()
    layout = desktop.syncer.layout()
    away = [(layout.device(tablet.syncer.device), tmp_path / "tablet-files"),
            (layout.keys / f"join-{tablet.syncer.device}.dmj", tmp_path / "join")]  # fmt: skip
    for path, aside in away:  # not delivered to the desktop yet
        path.rename(aside)
    desktop.syncer.remove(laptop.syncer.device)
    assert tablet.syncer.device not in desktop.syncer.chain().current.members
    for path, aside in away:
        aside.rename(path)
    tablet.sync()  # no refusal: it goes on with the key it holds
    desktop.sync()  # a new generation, sealed to the tablet too
    assert tablet.syncer.device in desktop.syncer.chain().current.members
    tablet.sync()
    desktop.sync()
    want = ["Shared by the laptop", "Written on the tablet"]
    assert tablet.texts() == desktop.texts() == want
    assert tablet.syncer.chain().current.digest == desktop.syncer.chain().current.digest


def test_a_computer_let_in_by_one_removed_without_knowing_of_it_is_out(
    computers: Computers, tmp_path: Path
) -> None:
    """The tablet was let in with a pairing code shown on the laptop, just before the
    desktop, which had not heard of the tablet, removed the laptop: nothing that is not
    removed vouches for the tablet, so it is out. It says so at each pass (never taken
    for a refusal) and joins again with a pairing code, keeping what it holds."""
    from desktop_mem.core.errors import SyncError

    laptop = computers.first("laptop")
    laptop.service.memories.add(NewMemory("Shared by the laptop"))
    laptop.sync()
    desktop = computers.join("desktop", laptop.code)
    desktop.sync()
    tablet = computers.pair(laptop, "tablet")
    tablet.service.memories.add(NewMemory("Written on the tablet"))
    tablet.sync()
    layout = desktop.syncer.layout()
    away = [(layout.device(tablet.syncer.device), tmp_path / "tablet-files"),
            (layout.keys / f"join-{tablet.syncer.device}.dmj", tmp_path / "join")]  # fmt: skip
    for path, aside in away:
        path.rename(aside)
    desktop.syncer.remove(laptop.syncer.device)
    for path, aside in away:
        aside.rename(path)
    for _ in range(2):  # said at each pass, never taken for a refusal
        with pytest.raises(SyncError) as raised:
            tablet.sync()
        assert raised.value.reason == "sync_left_out" and "no longer in the sync" in str(
            raised.value
        )
    assert tablet.syncer.removed_here
    desktop.sync()
    assert tablet.syncer.device not in desktop.syncer.chain().members
    computers.pair(desktop, tablet)
    tablet.sync()
    desktop.sync()
    tablet.sync()
    want = ["Shared by the laptop", "Written on the tablet"]
    assert tablet.texts() == desktop.texts() == want


def test_two_removals_made_at_once_are_merged(computers: Computers, tmp_path: Path) -> None:
    """The laptop removes the tablet while the desktop, not having seen that yet, removes
    the phone: two new keys of the same generation. The next passes merge them into one
    that holds both removals and every key, and everything written under either opens
    on both; each removed computer learns it was."""
    from desktop_mem.core.errors import SyncError

    laptop = computers.first("laptop")
    laptop.sync()
    desktop = computers.join("desktop", laptop.code)
    tablet = computers.join("tablet", laptop.code)
    phone = computers.join("phone", laptop.code)
    for c in (desktop, tablet, phone, laptop, desktop, tablet, phone):
        c.sync()
    layout = laptop.syncer.layout()
    laptop.syncer.remove(tablet.syncer.device)
    laptop.service.memories.add(NewMemory("Written on the laptop after its removal"))
    laptop.sync()
    mine = [(p, tmp_path / p.name) for n, w, p in layout.key_files() if n == 2]
    for path, aside in mine:  # not delivered to the desktop yet
        path.rename(aside)
    desktop.syncer.remove(phone.syncer.device)
    for path, aside in mine:
        aside.rename(path)
    desktop.service.memories.add(NewMemory("Written on the desktop after its removal"))
    for c in (desktop, laptop, desktop, laptop):
        result = c.sync()
    assert not result.refused
    want = ["Written on the desktop after its removal", "Written on the laptop after its removal"]
    assert laptop.texts() == desktop.texts() == want
    ours = laptop.syncer.chain().current
    assert ours is not None and ours.number == 3
    theirs = desktop.syncer.chain().current
    assert theirs is not None and (theirs.number, theirs.writer) == (ours.number, ours.writer)
    gone = {tablet.syncer.device, phone.syncer.device}
    assert gone <= ours.removed and not gone & set(ours.members)
    for c in (tablet, phone):
        with pytest.raises(SyncError) as raised:
            c.sync()
        assert raised.value.reason == "sync_removed"


def test_a_computer_removed_twice_keeps_what_its_first_self_wrote(computers: Computers) -> None:
    """Removed, joined again, removed and joined again: what it wrote as its first self
    reaches a computer joining after every file was compacted."""
    from desktop_mem.core.errors import SyncError

    laptop = computers.first("laptop")
    laptop.sync()
    desktop = computers.join("desktop", laptop.code)
    desktop.service.memories.add(NewMemory("Written by the desktop's first self"))
    desktop.sync()
    for _ in range(2):
        laptop.syncer.remove(desktop.syncer.device)
        with pytest.raises(SyncError):
            desktop.sync()
        computers.pair(laptop, desktop)
        laptop.sync()
    for c in (laptop, desktop, laptop, desktop):
        c.sync(compact=True)
    later = computers.join("later", laptop.code)
    later.sync()
    assert later.texts() == ["Written by the desktop's first self"]
