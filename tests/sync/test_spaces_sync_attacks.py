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
