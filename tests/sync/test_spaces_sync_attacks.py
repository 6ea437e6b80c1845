"""Attacks on spaces through sync (issue 55): a space kept apart must stay apart, and
nothing of one space may reach the shared space on the way, whatever the order in
which two computers change things."""

from __future__ import annotations

from tests.sync.conftest import Computers


def test_a_space_made_apart_on_one_computer_stays_apart_after_a_rename_on_another(
    computers: Computers,
) -> None:
    """Attack: the person keeps the client's space apart on the desktop while the
    laptop, not yet synced, renames it. A space travels as one record (name,
    instruction and apart together), so whichever record wins decides every field:
    the rename must not quietly turn the space back into one that reads, and adds
    to, the shared space."""
    laptop = computers.first("laptop")
    desktop = computers.join("desktop", laptop.code)
    client = laptop.service.spaces.create("Client")
    laptop.sync()
    desktop.sync()
    [there] = desktop.service.spaces.list()
    desktop.service.spaces.change(there.id, apart=True)
    desktop.sync()
    laptop.service.spaces.change(client.id, name="Client A")
    laptop.sync()
    desktop.sync()
    laptop.sync()
    for c in (laptop, desktop):
        assert [s.apart for s in c.service.spaces.list()] == [True]


def test_a_space_made_apart_stays_apart_when_a_rename_arrived_first(
    computers: Computers,
) -> None:
    """The same attack the other way round: the laptop's rename is in the folder before
    the desktop, which has not seen it, keeps the space apart."""
    laptop = computers.first("laptop")
    desktop = computers.join("desktop", laptop.code)
    client = laptop.service.spaces.create("Client")
    laptop.sync()
    desktop.sync()
    [there] = desktop.service.spaces.list()
    laptop.service.spaces.change(client.id, name="Client A")
    laptop.sync()
    desktop.service.spaces.change(there.id, apart=True)
    desktop.sync()
    laptop.sync()
    desktop.sync()
    for c in (laptop, desktop):
        assert [s.apart for s in c.service.spaces.list()] == [True]


def test_the_space_merge_rule_keeps_each_fields_last_change_whichever_computer_sorts_first() -> (
    None
):
    """The rule behind the two tests above, with the stamps fixed: "kept apart" made on
    one computer and a rename made later on another both stand, whether the renaming
    computer's id sorts before or after; a record without field stamps (an older one)
    counts every field changed at its own stamp."""
    from desktop_mem.core.sync.merge import merge_space

    base = {"name": "Client", "instruction": "", "apart": False}
    apart = {**base, "apart": True, "at": {"name": [1, "a"], "instruction": [1, "a"],
                                           "apart": [5, "a"]}}  # fmt: skip
    for renamer in ("0" * 8, "f" * 8):  # sorts before, and after, "a"
        renamed = {**base, "name": "Client A", "at": {"name": [6, renamer],
                   "instruction": [1, "a"], "apart": [1, "a"]}}  # fmt: skip
        for mine, mine_at, theirs, theirs_at in (
            (apart, (5, "a"), renamed, (6, renamer)),
            (renamed, (6, renamer), apart, (5, "a")),
        ):
            out = merge_space(mine, mine_at, theirs, theirs_at)
            assert (out["name"], out["apart"]) == ("Client A", True)
    older = {**base, "name": "Old name"}  # no "at": every field at its stamp
    out = merge_space(apart, (5, "a"), older, (7, "b"))
    assert (out["name"], out["apart"]) == ("Old name", False)
