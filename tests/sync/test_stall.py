"""Nothing stalls silently (issue 51, item 3): a computer's own files in the folder
damaged, cut short, rolled back or deleted by the engine are written again by it; a
reader whose next file stays broken goes on from a snapshot, or says once where it is
stuck and is answered with a fresh one; a file half applied and then changed is read
from its start; and two computers under one identity both keep what they wrote."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.sync import files, incoming, pairing
from tests.conftest import Run
from tests.sync.conftest import Computer, Computers
from tests.sync.engine import SimEngine


def _layout(folder: Path) -> files.Layout:
    return files.Layout.of(folder, files.find_profiles(folder)[0])


def _own(computers: Computers, c: Computer) -> Path:
    return _layout(computers.folder).device(c.syncer.device)


def _pair(computers: Computers) -> tuple[Computer, Computer]:
    laptop = computers.first("laptop")
    laptop.service.memories.add(NewMemory("I keep bees"))
    laptop.sync()
    desktop = computers.join("desktop", laptop.code)
    desktop.sync()
    laptop.sync()
    return laptop, desktop


def _cut(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _everything(*cs: Computer) -> list[list[str]]:
    for _ in range(3):
        for c in cs:
            c.sync()
    return [c.texts() for c in cs]


def test_a_half_written_change_file_over_its_writers_copy_is_written_again(
    computers: Computers,
) -> None:
    """The engine copied a half-written change file back over its writer's own copy
    (and everywhere): 0.4's readers waited for it for ever, and everything the writer
    wrote afterwards never arrived."""
    laptop, desktop = _pair(computers)
    laptop.service.memories.add(NewMemory("I sing in a choir"))
    laptop.sync(compact=False)
    newest = sorted(_own(computers, laptop).glob("c-*.dmc"))[-1]
    _cut(newest)
    assert "I sing in a choir" not in desktop.texts()
    laptop.service.memories.add(NewMemory("I moved to Leeds"))
    result = laptop.sync()
    assert result.compacted  # a fresh snapshot of everything still standing
    assert not newest.exists()  # and the damaged change file is gone
    result = desktop.sync()
    assert result.refused == []
    want = ["I keep bees", "I moved to Leeds", "I sing in a choir"]
    assert desktop.texts() == want
    desktop.service.memories.add(NewMemory("I play chess"))
    assert _everything(laptop, desktop) == [[*want[:2], "I play chess", want[2]]] * 2


def test_a_damaged_change_file_refused_by_both_leaves_the_folder(
    computers: Computers,
) -> None:
    """A change file spoilt in place (one byte, the same size: its signature fails) is
    refused for what it is, by its reader and by its writer's own check; it still goes
    with the fresh snapshot that answers it, and no computer counts it as ignored for
    ever after."""
    laptop, desktop = _pair(computers)
    laptop.service.memories.add(NewMemory("I sing in a choir"))
    laptop.sync(compact=False)
    newest = sorted(_own(computers, laptop).glob("c-*.dmc"))[-1]
    data = bytearray(newest.read_bytes())
    data[len(data) // 2] ^= 0xFF
    newest.write_bytes(bytes(data))
    assert desktop.sync().refused  # said once
    laptop.sync()  # its own check finds it: a fresh snapshot, and the file goes
    assert not newest.exists()
    for c in (desktop, laptop, desktop):
        assert c.sync().ignored == 0, c.name
    assert desktop.texts() == ["I keep bees", "I sing in a choir"]


def test_a_deleted_change_file_is_written_again(computers: Computers) -> None:
    laptop, desktop = _pair(computers)
    laptop.service.memories.add(NewMemory("I sing in a choir"))
    laptop.sync(compact=False)
    laptop.service.memories.add(NewMemory("I moved to Leeds"))
    laptop.sync(compact=False)
    first = sorted(_own(computers, laptop).glob("c-*.dmc"))[-2]
    first.unlink()  # the one before the newest: the reader has a gap
    laptop.sync()
    desktop.sync()
    assert desktop.texts() == ["I keep bees", "I moved to Leeds", "I sing in a choir"]


def test_a_half_written_status_is_written_again(computers: Computers) -> None:
    laptop, desktop = _pair(computers)
    laptop.syncer.rename("work laptop")
    laptop.sync()
    _cut(_own(computers, laptop) / files.STATUS)
    desktop.sync()
    laptop.sync()  # nothing new to say, but its status in the folder is not the one it wrote
    result = desktop.sync()
    assert result.refused == [] and not result.waiting
    assert [p.name for p in desktop.syncer.peers()] == ["work laptop"]


def test_an_older_snapshot_put_back_is_written_again(computers: Computers) -> None:
    """A rollback: the engine puts back an older version of the writer's snapshot (one
    that still holds a text deleted since)."""
    laptop, desktop = _pair(computers)
    laptop.service.memories.add(NewMemory("a secret I delete"))
    laptop.sync(compact=True)
    snapshot = sorted(_own(computers, laptop).glob("s-*.dms"))[-1]
    older = snapshot.read_bytes()
    desktop.sync()
    desktop.service.memories.delete(
        [m.id for m in desktop.service.memories.list(limit=10) if "secret" in m.text]
    )
    desktop.sync()
    laptop.sync(compact=True)  # under the same number: what stands now
    assert snapshot.exists() and snapshot.read_bytes() != older
    snapshot.write_bytes(older)  # the rollback
    assert laptop.sync().compacted
    assert snapshot.exists() and snapshot.read_bytes() != older


def test_a_refused_change_file_covered_by_a_snapshot_does_not_stop_the_reader(
    computers: Computers,
) -> None:
    """A change file the reader's copy refuses, with a snapshot beyond it: the reader goes
    on from the snapshot at once (0.4 stopped at the file)."""
    laptop, desktop = _pair(computers)
    laptop.service.memories.add(NewMemory("I sing in a choir"))
    laptop.sync(compact=False)
    newest = sorted(_own(computers, laptop).glob("c-*.dmc"))[-1]
    kept = bytearray(newest.read_bytes())
    laptop.service.memories.add(NewMemory("I moved to Leeds"))
    laptop.sync(compact=True)
    assert not newest.exists()
    kept[len(kept) // 2] ^= 1
    newest.write_bytes(bytes(kept))  # an old copy come back, damaged
    result = desktop.sync()
    assert desktop.texts() == ["I keep bees", "I moved to Leeds", "I sing in a choir"]
    assert result.refused == []


# -- through the stand-in engine: each computer its own copy of the folder --------------


def _apart(computers: Computers, seed: int = 51) -> tuple[Computer, Computer, SimEngine]:
    """Two computers, each with its own copy of the folder, and an engine between them
    (it delivers everything whole at settle())."""
    folders = [computers.root / "laptop-Sync", computers.root / "desktop-Sync"]
    for folder in folders:
        folder.mkdir()
    laptop = computers.new("laptop")
    laptop.syncer.set_up(folders[0], "laptop")
    laptop.service.memories.add(NewMemory("I keep bees"))
    laptop.sync()
    engine = SimEngine(folders, random.Random(seed))
    engine.settle()
    desktop = computers.new("desktop")
    chain = pairing.join_with_recovery_code(_layout(folders[1]), laptop.code)
    desktop.syncer.join(folders[1], chain, "desktop")
    for c in (desktop, laptop, desktop):
        c.sync()
        engine.settle()
    assert desktop.texts() == ["I keep bees"]
    return laptop, desktop, engine


def test_a_reader_whose_copy_stays_broken_says_so_once_and_gets_a_fresh_snapshot(
    computers: Computers, run: Run
) -> None:
    """The reader's copy of a change file is damaged, the writer's is not (the engine
    thinks both the same): the reader says once where it is stuck, its status asks the
    writer, whose next pass writes a fresh snapshot; the writer's status never calls the
    stuck reader up to date."""
    laptop, desktop, engine = _apart(computers)
    laptop.service.memories.add(NewMemory("I sing in a choir"))
    laptop.sync(compact=False)
    engine.settle()
    theirs = sorted(_layout(engine.folders[1]).device(laptop.syncer.device).glob("c-*.dmc"))[-1]
    data = bytearray(theirs.read_bytes())
    data[len(data) // 2] ^= 1
    engine.spoil(1, str(theirs.relative_to(engine.folders[1])), bytes(data))

    first = desktop.sync()
    assert len(first.refused) == 1
    sentence = first.refused[0]
    assert sentence.startswith("laptop's change file") and "will send a fresh copy" in sentence
    assert "signature" in sentence
    assert desktop.sync().refused == []  # said once, not at every pass
    assert [s["file"] for s in desktop.syncer.info()["stuck"]] == [theirs.name]  # and kept
    engine.settle()
    laptop.sync()  # reads that the desktop is stuck
    info = {c["name"]: c for c in laptop.syncer.info()["computers"]}
    assert info["desktop"]["stuck"] == theirs.name
    # `sync status` says so, on both (never "up to date")
    for c, said in ((laptop, f"cannot read this computer's {theirs.name}"),
                    (desktop, f"Cannot go on with laptop's files past {theirs.name}")):  # fmt: skip
        c.close()
        code, out, err = run("sync", "status", base=["--home", str(c.home), "--ollama-host",
                             computers.fake.url, "--embed-model", "fake-embed"])  # fmt: skip
        assert code == 0 and said in out and "up to date" not in out, (out, err)
    computers.all.remove(laptop)
    computers.all.remove(desktop)
    laptop, desktop = computers.new("laptop"), computers.new("desktop")
    laptop.sync()
    engine.settle()
    desktop.sync()
    assert desktop.texts() == ["I keep bees", "I sing in a choir"]
    engine.settle()
    laptop.sync()
    assert {c["name"]: c for c in laptop.syncer.info()["computers"]}["desktop"]["stuck"] is None
    laptop.service.memories.add(NewMemory("I moved to Leeds"))
    laptop.sync()
    engine.settle()
    desktop.sync()
    assert "I moved to Leeds" in desktop.texts()


def test_a_change_file_that_stays_cut_short_is_waited_for_then_asked_for(
    computers: Computers, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A change file cut short in the reader's copy, which the engine believes whole: it
    may still be arriving, so it is waited for a while (nothing said), then asked for."""
    from desktop_mem.core.sync import reading

    laptop, desktop, engine = _apart(computers)
    for text in ("I sing in a choir", "I moved to Leeds"):
        laptop.service.memories.add(NewMemory(text))
        laptop.sync(compact=False)
    engine.settle()
    lost = sorted(_layout(engine.folders[1]).device(laptop.syncer.device).glob("c-*.dmc"))[-2]
    data = lost.read_bytes()
    engine.spoil(1, str(lost.relative_to(engine.folders[1])), data[: len(data) // 2])
    result = desktop.sync()
    assert result.waiting == [laptop.syncer.device] and result.refused == []
    monkeypatch.setattr(reading, "PATIENCE_S", 0.0)
    result = desktop.sync()
    assert len(result.refused) == 1 and "has stayed cut short" in result.refused[0]
    engine.settle()
    laptop.sync()
    engine.settle()
    desktop.sync()
    assert desktop.texts() == ["I keep bees", "I moved to Leeds", "I sing in a choir"]


def test_a_file_half_applied_then_changed_is_read_from_its_start(
    computers: Computers, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reader stopped half-way through a change file (Ctrl+C); the writer, killed after
    the file was in place and before it recorded so, wrote it again with other content.
    Going on "from record 2" of the new version skipped records it never had."""
    from desktop_mem.core.events import SyncProgress

    laptop, desktop = _pair(computers)
    monkeypatch.setattr(incoming, "APPLY_BATCH", 2)
    news = [NewMemory(f"memory {n}") for n in range(6)]
    made, _ = laptop.service.memories.add_many(news)
    laptop.sync(compact=False)

    def stop(event: object) -> None:
        if isinstance(event, SyncProgress):
            raise KeyboardInterrupt

    unsubscribe = desktop.profile.events.subscribe(stop)
    with pytest.raises(KeyboardInterrupt):
        desktop.sync()
    unsubscribe()
    assert len(desktop.texts()) == 3  # the bees and the first step of two
    # the writer killed after the rename: the same file written again, other content
    state = laptop.syncer.state
    with laptop.profile.db.transaction() as conn:
        state.set(conn, {"written": str(state.int("written") - 1)})
    # one it has already is deleted: the new version of the file is the old one less
    # that memory (its tombstone goes in the next file), so the first two records of
    # the new version are not the two it took in
    had = next(t for t in desktop.texts() if t.startswith("memory"))
    laptop.service.memories.delete([next(m.id for m in made if m.text == had)])
    laptop.sync(compact=False)
    desktop.sync()
    want = sorted(["I keep bees", *[f"memory {n}" for n in range(6)]])
    want.remove(had)
    assert desktop.texts() == want


@pytest.mark.parametrize("seed", [51, 3, 8])  # which copy's version of a file is kept
def test_two_computers_under_one_identity_keep_everything_both_wrote(
    computers: Computers, seed: int
) -> None:
    """A data folder copied to a second machine (a cloned disk): both write under one
    computer id, and the engine keeps one version of each file name without a word.
    One of the two goes on as a new computer, and everything both wrote arrives
    everywhere, then goes on arriving."""
    laptop, desktop, engine = _apart(computers, seed)
    laptop.service.memories.add(NewMemory("I drive a red Fiat"))
    laptop.sync()
    engine.settle()
    desktop.sync()
    engine.settle()
    laptop.sync()
    # the clone: the whole data folder, and its copy of the sync folder, at the same path
    # on another machine (here: its own path, which the profile is then told)
    laptop, clone = _clone(computers, engine, laptop)
    assert clone.syncer.device == laptop.syncer.device

    fiat = {c.name: c.service.memories.list(limit=10) for c in (laptop, clone)}
    laptop.service.memories.add(NewMemory("written on the laptop"))
    laptop.service.memories.edit(
        next(m.id for m in fiat["laptop"] if "Fiat" in m.text), text="I drive a blue Fiat"
    )
    clone.service.memories.add(NewMemory("written on the clone"))
    clone.service.memories.edit(
        next(m.id for m in fiat["clone"] if "Fiat" in m.text), text="I drive a green Fiat"
    )
    bees = next(m.id for m in fiat["clone"] if "bees" in m.text)
    clone.service.memories.delete([bees])
    laptop.sync()
    clone.sync()
    engine.settle()  # one version of each name is kept, silently
    assert engine.stats.get("overwritten")
    everyone = (laptop, clone, desktop)
    for _ in range(4):
        for c in everyone:
            c.sync()
            engine.settle()
    texts = [c.texts() for c in everyone]
    assert texts[0] == texts[1] == texts[2], texts
    assert "written on the laptop" in texts[0] and "written on the clone" in texts[0]
    assert "I keep bees" not in texts[0]
    assert len([t for t in texts[0] if "Fiat" in t]) == 1
    assert laptop.syncer.device != clone.syncer.device
    for c in everyone:  # both edits are in the memory's history, once each
        mid = next(m.id for m in c.service.memories.list(limit=10) if "Fiat" in m.text)
        history = [v.text for v in c.service.memories.history(mid)]
        for text in ("I drive a red Fiat", "I drive a blue Fiat", "I drive a green Fiat"):
            assert history.count(text) == 1, (c.name, history)
    # and what each writes from now on arrives everywhere
    laptop.service.memories.add(NewMemory("later, on the laptop"))
    clone.service.memories.add(NewMemory("later, on the clone"))
    for _ in range(2):
        for c in everyone:
            c.sync()
            engine.settle()
    final = sorted([*texts[0], "later, on the clone", "later, on the laptop"])
    assert [c.texts() for c in everyone] == [final] * 3


def _clone(computers: Computers, engine: SimEngine, laptop: Computer) -> tuple[Computer, Computer]:
    """The laptop's data folder and its copy of the sync folder, copied to another
    machine: two computers under one identity."""
    laptop.close()
    computers.all.remove(laptop)
    shutil.copytree(laptop.home, computers.root / "clone")
    folder = computers.root / "clone-Sync"
    shutil.copytree(engine.folders[0], folder)
    engine.add_folder(folder)
    laptop = computers.new("laptop")
    clone = computers.new("clone")
    with clone.profile.db.transaction() as conn:
        clone.syncer.state.set(conn, {"folder": str(folder)})
    return laptop, clone


def test_when_both_copies_go_on_as_new_computers_their_old_id_leaves(
    computers: Computers,
) -> None:
    """Each copy finds a file of its own replaced by the other's before it sees that the
    other went on as a new computer: both do. The id they shared is no one's; the lower
    of the new ids takes it out, and everything both wrote stays."""
    laptop, desktop, engine = _apart(computers)
    laptop, clone = _clone(computers, engine, laptop)
    old = laptop.syncer.device
    for c in (laptop, clone):
        for n in range(2):
            c.service.memories.add(NewMemory(f"{c.name} wrote {n}"))
            c.sync()
    # the engine kept the laptop's first file and the clone's second, everywhere
    mine = _layout(engine.folders[0]).device(old)
    theirs = _layout(engine.folders[2]).device(old)
    first, second = sorted(p.name for p in mine.glob("c-*.dmc"))[-2:]
    shutil.copyfile(mine / first, theirs / first)
    shutil.copyfile(theirs / second, mine / second)
    laptop.sync()
    clone.sync()
    assert old not in (laptop.syncer.device, clone.syncer.device)
    everyone = (laptop, clone, desktop)
    for _ in range(4):
        for c in everyone:
            c.sync()
            engine.settle()
    texts = [c.texts() for c in everyone]
    assert texts[0] == texts[1] == texts[2]
    assert {"laptop wrote 0", "laptop wrote 1", "clone wrote 0", "clone wrote 1"} <= set(texts[0])
    assert all(old in c.syncer.chain().removed for c in everyone)
    assert not any(_layout(f).device(old).exists() for f in engine.folders)


def test_a_memory_deleted_on_a_copy_before_it_was_sent_is_deleted_everywhere(
    computers: Computers,
) -> None:
    """Copied while a memory waited to be sent: the laptop sends it, the copy deletes it
    before its first pass. Its deletion must still be sent (0.4 sent nothing for a
    memory made and removed before it was sent, and the copy's deletion was lost)."""
    laptop, desktop, engine = _apart(computers)
    mid = laptop.service.memories.add(NewMemory("a memory sent by one copy only")).memory.id
    laptop, clone = _clone(computers, engine, laptop)
    clone.service.memories.delete([mid])
    everyone = (laptop, clone, desktop)
    for _ in range(4):
        for c in everyone:
            c.sync()
            engine.settle()
    assert [c.texts() for c in everyone] == [["I keep bees"]] * 3


def test_a_computer_whose_pairing_failed_can_join_again(computers: Computers) -> None:
    """Taken out, it asks to join again with a code shown on the tablet; the tablet is
    removed before it lets it in. It is told to join with a new code, and can."""
    from desktop_mem.core.errors import SyncError
    from desktop_mem.core.sync import pairing as pairing_

    laptop = computers.first("laptop")
    laptop.sync()
    desktop = computers.join("desktop", laptop.code)
    tablet = computers.join("tablet", laptop.code)
    for c in (desktop, tablet, laptop, desktop, tablet):
        c.sync()
    laptop.syncer.remove(desktop.syncer.device)
    with pytest.raises(SyncError):
        desktop.sync()
    code = tablet.syncer.offer_pairing()
    desktop.syncer.rejoin(computers.folder, pairing_.join_with_pairing_code(
        _layout(computers.folder), code))  # fmt: skip
    assert desktop.sync().waiting_for == tablet.syncer.device
    laptop.syncer.remove(tablet.syncer.device)  # before it let the desktop in
    with pytest.raises(SyncError) as caught:
        desktop.sync()
    assert "show a new pairing code" in str(caught.value)
    assert desktop.syncer.removed_here  # so joining again is offered, and works
    computers.pair(laptop, desktop)
    desktop.service.memories.add(NewMemory("back in"))
    desktop.sync()
    laptop.sync()
    assert "back in" in laptop.texts()


def test_a_damaged_record_in_keys_is_written_back_by_any_computer_that_took_it(
    computers: Computers,
) -> None:
    """The join that let a computer in, damaged after that computer was removed: no one
    writes it any more, yet a computer joining later needs it to trust what builds on
    it. Every computer that took it writes it back."""
    laptop, desktop = _pair(computers)
    tablet = computers.join("tablet", laptop.code)
    for c in (tablet, laptop, desktop):
        c.sync()
    laptop.syncer.remove(tablet.syncer.device)
    join = _layout(computers.folder).keys / files.join_name(tablet.syncer.device)
    whole = join.read_bytes()
    _cut(join)
    desktop.sync()
    assert join.read_bytes() == whole
    join.unlink()
    laptop.sync()
    assert join.read_bytes() == whole
    later = computers.join("later", laptop.code)
    later.sync()
    assert later.texts() == ["I keep bees"]


def test_a_computer_joined_with_a_code_takes_a_key_made_before_a_removal_it_knew(
    computers: Computers,
) -> None:
    """The phone, let in by the tablet, writes a generation (removing the reader) while,
    apart, the laptop removes the tablet and then shows a pairing code to a new computer.
    The new computer must take the phone's generation (written while the tablet still
    vouched for the phone) and the one that merges both: it was refusing it ('written by
    a computer that is not in this sync', since the code said the tablet was removed),
    never got the key the others write with, and read nothing more, silently."""
    laptop = computers.first("laptop")
    laptop.service.memories.add(NewMemory("I keep bees"))
    laptop.sync()
    tablet = computers.join("tablet", laptop.code)
    reader = computers.join("reader", laptop.code)
    for c in (tablet, reader, laptop):
        c.sync()
    phone = computers.pair(tablet, "phone")
    for c in (laptop, reader, tablet, phone):
        c.sync()
    # the phone syncs through its own copy of the folder for a while
    apart = computers.root / "phone-Sync"
    shutil.copytree(computers.folder, apart)
    with phone.profile.db.transaction() as conn:
        phone.syncer.state.set(conn, {"folder": str(apart)})
    phone.syncer.remove(reader.syncer.device)
    laptop.syncer.remove(tablet.syncer.device)
    late = computers.pair(laptop, "late")
    # the phone's generation arrives, and its copy of the folder is the others' again
    for path in _layout(apart).keys.iterdir():
        if not (_layout(computers.folder).keys / path.name).exists():
            shutil.copyfile(path, _layout(computers.folder).keys / path.name)
    with phone.profile.db.transaction() as conn:
        phone.syncer.state.set(conn, {"folder": str(computers.folder)})
    for c in (laptop, phone, late, laptop, phone, late):
        c.sync()
    laptop.service.memories.add(NewMemory("after both removals"))
    laptop.sync()
    late.sync()
    assert late.texts() == ["I keep bees", "after both removals"]
    assert late.syncer.chain().current.digest == laptop.syncer.chain().current.digest


def _joined(computers: Computers, engine: SimEngine, name: str, code: str) -> Computer:
    """Another computer, with its own copy of the folder, joined with the recovery code."""
    folder = computers.root / f"{name}-Sync"
    folder.mkdir()
    engine.add_folder(folder)
    engine.settle()
    c = computers.new(name)
    c.syncer.join(folder, pairing.join_with_recovery_code(_layout(folder), code), name)
    for x in (c, *computers.all, c):
        x.sync()
        engine.settle()
    return c


def test_a_key_file_a_copy_wrote_over_this_computers_own_reaches_the_others(
    computers: Computers,
) -> None:
    """What the three-computer fuzz showed (seed 4203, a computer waiting round after
    round): the laptop and its copy (a cloned disk) each wrote a key file of the same
    generation, under the same name (the laptop took the phone out, the copy the
    tablet); the engine kept the copy's. The copy went on as a new computer, the laptop
    kept the identity and built the next generation on both (the removals differed);
    the others could never take it: one of its parents was nowhere in the folder, nor
    carried in it (a computer carries only the key files others wrote: it puts its own
    back, but not over one signed with its key). Now it carries its own too when the
    folder holds another version under its name."""
    laptop, desktop, engine = _apart(computers)
    code = laptop.code
    phone = _joined(computers, engine, "phone", code)
    tablet = _joined(computers, engine, "tablet", code)
    laptop, clone = _clone(computers, engine, laptop)
    laptop.syncer.remove(phone.syncer.device)
    clone.syncer.remove(tablet.syncer.device)
    ours = _layout(engine.folders[0]).keys
    theirs = _layout(engine.folders[-1]).keys
    name = next(p.name for p in theirs.glob("*.dmk") if not (ours / p.name).exists() or
                (ours / p.name).read_bytes() != p.read_bytes())  # fmt: skip
    (ours / name).write_bytes((theirs / name).read_bytes())  # the engine keeps the copy's
    engine.settle()
    for c in (clone, laptop, desktop, clone, laptop, desktop):
        c.sync()
        engine.settle()
    assert clone.syncer.device != laptop.syncer.device
    current = laptop.syncer.chain().current
    assert desktop.syncer.chain().current.digest == current.digest
    assert {phone.syncer.device, tablet.syncer.device} <= desktop.syncer.chain().removed
    laptop.service.memories.add(NewMemory("written on the laptop after"))
    for c in (laptop, desktop):
        c.sync()
        engine.settle()
    assert "written on the laptop after" in desktop.texts()
