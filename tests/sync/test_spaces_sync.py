"""Spaces through the sync folder: a space, what is in it and every change to either
reach the other computers, and nothing of one space lands in another or in the shared
space on the way."""

from __future__ import annotations

from desktop_mem.core.memory.spaces import EVERY, SHARED
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.sync import frame
from tests.sync.conftest import Computer, Computers


def _where(c: Computer) -> dict[str, str | None]:
    """Each memory's text and the name of its space (None: shared)."""
    names = {s.id: s.name for s in c.service.spaces.list()}
    return {m.text: names.get(m.space) if m.space else None
            for m in c.service.memories.list(scope=EVERY)}  # fmt: skip


def _formats(c: Computer) -> set[int]:
    layout = c.syncer.layout()
    folder = layout.device(c.syncer.device)
    return {p.read_bytes()[7] for p in folder.iterdir() if p.suffix in (".dmc", ".dms")}


def test_a_space_and_what_is_in_it_reach_the_other_computer_kept_apart(
    computers: Computers,
) -> None:
    laptop = computers.first("laptop")
    laptop.service.memories.add(NewMemory("I am allergic to peanuts"))
    laptop.sync()
    assert _formats(laptop) == {frame.FORMAT}  # no space yet: as before spaces
    desktop = computers.join("desktop", laptop.code)
    desktop.sync()
    client = laptop.service.spaces.create("客户 A", "Use the client's terms.", apart=True)
    laptop.service.memories.add(NewMemory("The client's launch is on 3 May", space=client.id))
    session = laptop.service.chat(space=client.id)
    session.send("Draft the launch email")
    session.close()
    laptop.sync()
    assert frame.SPACES_FORMAT in _formats(laptop)
    desktop.sync()
    [there] = desktop.service.spaces.list()
    assert (there.name, there.instruction, there.apart) == (
        "客户 A",
        "Use the client's terms.",
        True,
    )
    assert _where(desktop) == {"I am allergic to peanuts": None,
                               "The client's launch is on 3 May": "客户 A"}  # fmt: skip
    assert [c.space for c in desktop.service.conversations.list()] == [there.id]
    # the shared space's readers do not see it there either
    assert [m.text for m in desktop.service.memories.list(scope=SHARED)] == [
        "I am allergic to peanuts"
    ]
    hits = desktop.service.memories.search("launch", relevant_only=False).hits
    assert "The client's launch is on 3 May" not in [h.memory.text for h in hits]


def test_moves_renames_and_removals_of_spaces_reach_the_others(computers: Computers) -> None:
    laptop = computers.first("laptop")
    desktop = computers.join("desktop", laptop.code)
    work = laptop.service.spaces.create("Work")
    thesis = laptop.service.spaces.create("Thesis")
    report = laptop.service.memories.add(NewMemory("The report is due Friday", space=work.id))
    laptop.service.memories.add(NewMemory("Chapter 3 needs a new figure", space=thesis.id))
    laptop.sync()
    desktop.sync()
    # moved on the desktop, renamed on the laptop
    mem = next(m for m in desktop.service.memories.list(scope=EVERY) if m.text.startswith("The"))
    desktop.service.memories.move(mem.id, None)
    laptop.service.spaces.change(work.id, name="Job", apart=True)
    desktop.sync()
    laptop.sync()
    desktop.sync()
    for c in (laptop, desktop):
        assert _where(c) == {"The report is due Friday": None,
                             "Chapter 3 needs a new figure": "Thesis"}  # fmt: skip
        assert sorted((s.name, s.apart) for s in c.service.spaces.list()) == [
            ("Job", True), ("Thesis", False)
        ]  # fmt: skip
    assert [v.action for v in laptop.service.memories.history(report.memory.id)] == [
        "created", "moved"
    ]  # fmt: skip
    # taken out: the job's with its contents moved, the thesis's deleted
    laptop.service.spaces.remove(work.id, "move")
    laptop.service.spaces.remove(thesis.id, "delete")
    laptop.sync()
    desktop.sync()
    assert desktop.service.spaces.list() == []
    assert _where(desktop) == {"The report is due Friday": None}


def test_a_memory_naming_a_space_not_yet_known_is_kept_apart_until_it_arrives(
    computers: Computers,
) -> None:
    """Files arrive in any order through an engine, and anyone who can write the folder
    can name a space: what names a space this computer does not know is put in a space
    kept apart (never the shared one) until that space's own record comes."""
    from desktop_mem.core.sync.applying import Applier

    laptop = computers.first("laptop")
    applier = Applier(laptop.profile, "0" * 32)
    head = {"text": "A launch date from a space not seen yet", "kind": "fact",
            "importance": 0.5, "pinned": False, "source": "user", "created_at": "2026-01-01",
            "updated_at": "2026-01-01", "space": "f" * 32}  # fmt: skip
    with laptop.profile.db.transaction() as conn:
        applier.apply(conn, [{"k": "memory", "u": "e" * 32, "c": 5, "d": "0" * 32, "b": head,
                              "h": []}])  # fmt: skip
    [space] = laptop.service.spaces.list()
    assert space.apart and space.name == ""
    assert laptop.service.memories.list(scope=SHARED) == []
    with laptop.profile.db.transaction() as conn:
        applier.apply(conn, [{"k": "space", "u": "f" * 32, "c": 6, "d": "0" * 32,
                              "b": {"name": "Launch", "instruction": "", "apart": False}}])  # fmt: skip
    [space] = laptop.service.spaces.list()
    assert (space.name, space.apart) == ("Launch", False)
