"""What the status says is true: "synced with desktop" means desktop has taken in
everything this computer wrote (its own status says so, and when); until then, how many
of this computer's changes it lacks, and since when."""

from __future__ import annotations

from desktop_mem.core.memory.store import NewMemory
from tests.sync.conftest import Computers


def _peer(c, name: str):
    return next(p for p in c.syncer.peers() if p.name == name)


def test_a_computer_that_has_not_taken_in_the_last_changes_is_not_synced(
    computers: Computers,
) -> None:
    laptop = computers.first("laptop")
    desktop = computers.join("desktop", laptop.code)
    laptop.sync()
    desktop.sync()
    laptop.sync()
    desk = _peer(laptop, "desktop")
    assert desk.up_to_date and desk.missing == 0
    assert desk.synced_at is not None

    # desktop's engine is paused: three changes made here do not reach it
    for text in ("I keep bees", "I play the cello", "我喜欢喝绿茶"):
        laptop.service.memories.add(NewMemory(text))
    laptop.sync()
    laptop.sync()  # laptop has read everything desktop wrote: that is not the question
    desk = _peer(laptop, "desktop")
    assert not desk.behind
    assert not desk.up_to_date and desk.synced_at is None
    assert desk.missing == 3
    sent = laptop.profile.db.query("SELECT written_at FROM sync_sent ORDER BY seq DESC LIMIT 1")
    assert desk.missing_since == sent[0][0]
    info = laptop.service.sync.info()
    (c,) = [c for c in info["computers"] if c["name"] == "desktop"]
    assert (c["up_to_date"], c["missing"], c["missing_since"]) == (False, 3, sent[0][0])
    # and one more change counts on top of them, still since the first
    laptop.service.memories.add(NewMemory("I run on Sundays"))
    laptop.sync()
    desk = _peer(laptop, "desktop")
    assert (desk.missing, desk.missing_since) == (4, sent[0][0])

    # the engine runs again: desktop takes them in, says so in its status, and when
    desktop.sync()
    laptop.sync()
    desk = _peer(laptop, "desktop")
    assert desk.up_to_date and desk.missing == 0
    status = desktop.profile.db.query(
        "SELECT applied_at FROM sync_peers WHERE device = ?", (laptop.syncer.device,)
    )[0][0]
    assert desk.received_at == status == desk.synced_at
    # counts that every computer has taken in are not kept
    assert laptop.profile.db.query("SELECT count(*) FROM sync_sent")[0][0] == 0


def test_a_computer_whose_files_did_not_all_arrive_is_said_to_be_behind(
    computers: Computers,
) -> None:
    laptop = computers.first("laptop")
    desktop = computers.join("desktop", laptop.code)
    laptop.sync()
    desktop.sync()
    laptop.sync()
    desktop.service.memories.add(NewMemory("written on the desktop"))
    desktop.sync()
    folder = desktop.syncer.layout().device(desktop.syncer.device)
    newest = sorted(folder.glob("c-*"))[-1]
    data = newest.read_bytes()
    newest.write_bytes(data[: len(data) // 2])  # still being delivered
    laptop.sync()
    desk = _peer(laptop, "desktop")
    assert desk.behind and desk.up_to_date  # it has everything laptop wrote
    newest.write_bytes(data)
    laptop.sync()
    assert not _peer(laptop, "desktop").behind
