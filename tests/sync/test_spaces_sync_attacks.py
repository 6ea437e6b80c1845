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


def test_a_forged_space_record_is_cleaned_and_never_trusted_for_more_than_it_says(
    computers: Computers,
) -> None:
    """Anyone who can write the folder (with a key it still holds) can send a space
    record of any shape: a name of 10,000 characters with control characters, the
    shared space's own name, an instruction of a megabyte, field stamps that are not
    stamps, a memory naming a space by something that is not an id. Each is cleaned
    or ignored; nothing crashes, nothing lands in the shared space."""
    from desktop_mem.core.memory.spaces import MAX_INSTRUCTION, MAX_NAME, SHARED
    from desktop_mem.core.sync.applying import Applier

    laptop = computers.first("laptop")
    applier = Applier(laptop.profile, "0" * 32)
    forged = [
        {"k": "space", "u": "a" * 32, "c": 3, "d": "0" * 32,
         "b": {"name": "\u202eX" * 5000 + "\n", "instruction": "i" * 1_000_000,
               "apart": "yes", "at": {"name": "soon", "apart": [10**12, 5]}}},
        {"k": "space", "u": "b" * 32, "c": 4, "d": "0" * 32,
         "b": {"name": "Shared", "instruction": ["not", "text"], "apart": True, "at": 7}},
        {"k": "memory", "u": "c" * 32, "c": 5, "d": "0" * 32, "h": [],
         "b": {"text": "Named by a space that is no id", "kind": "fact", "importance": 0.5,
               "pinned": False, "source": "user", "created_at": "2026-01-01",
               "updated_at": "2026-01-01", "space": {"id": 1}}},
    ]  # fmt: skip
    with laptop.profile.db.transaction() as conn:
        applier.apply(conn, forged)
    spaces = {s.name: s for s in laptop.service.spaces.list()}
    assert all(len(n) <= MAX_NAME and "\u202e" not in n and "\n" not in n for n in spaces)
    assert "Shared" not in spaces  # the shared space's name is kept as no name
    assert all(len(s.instruction) <= MAX_INSTRUCTION for s in spaces.values())
    # an "apart" that is not false keeps it apart: the side where nothing shared is read
    assert all(s.apart for s in spaces.values() if s.name.startswith("X"))
    # the memory naming no real space is in the shared space, as a record without one is
    assert [m.text for m in laptop.service.memories.list(scope=SHARED)] == [
        "Named by a space that is no id"
    ]
    # a later honest change of the first space still merges (the bad stamps are ignored)
    with laptop.profile.db.transaction() as conn:
        applier.apply(conn, [{"k": "space", "u": "a" * 32, "c": 9, "d": "1" * 32,
                              "b": {"name": "Client", "instruction": "", "apart": True}}])  # fmt: skip
    assert "Client" in {s.name for s in laptop.service.spaces.list()}
