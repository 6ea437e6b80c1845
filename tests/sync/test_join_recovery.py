"""Which recovery code opens a joined profile: the core says what joining did, so
nobody is told of a code that does not open it, nor left trusting one that no longer
does (the code shown at the joining profile's first start)."""

from __future__ import annotations

import pytest

from desktop_mem.core.errors import DesktopMemError
from desktop_mem.core.keys import recovery
from desktop_mem.core.keys.vault import read_sidecar
from desktop_mem.core.memory.store import NewMemory
from tests.fakes.keyrings import stored_key
from tests.sync.conftest import Computer, Computers


def _opens(c: Computer, code: str | None) -> bool:
    record = read_sidecar(c.profile.db.path).get("recovery")
    if code is None or record is None:
        return False
    try:
        return recovery.unseal(record, code) is not None
    except DesktopMemError:
        return False


def test_joining_takes_the_synced_profiles_code_and_says_so(computers: Computers) -> None:
    laptop = computers.first("laptop")
    laptop.service.memories.add(NewMemory("I keep bees"))
    laptop.sync()
    desktop = computers.new("desktop")
    own = desktop.code
    assert own and _opens(desktop, own)  # shown at its first start
    result = desktop.service.sync.join(computers.folder, laptop.code, "desktop")
    assert result.recovery == "synced"
    assert _opens(desktop, laptop.code)
    assert not _opens(desktop, own)  # what the front ends must say
    secret = recovery.unseal(read_sidecar(desktop.profile.db.path)["recovery"], laptop.code)
    assert secret == stored_key(computers.keyring, desktop.profile.db.path)


def test_a_synced_profile_without_a_code_leaves_this_ones_own(computers: Computers) -> None:
    laptop = computers.new("laptop", passphrase="correct horse battery")
    laptop.syncer.set_up(computers.folder, "laptop")
    assert laptop.code is None
    desktop = computers.new("desktop")
    own = desktop.code
    result = desktop.service.sync.join(computers.folder, laptop.syncer.offer_pairing(), "desktop")
    assert result.recovery == "own"
    assert _opens(desktop, own)


@pytest.mark.parametrize("pairing", [False, True])
def test_a_passphrase_profile_joining_has_no_code_to_be_told_of(
    computers: Computers, pairing: bool
) -> None:
    laptop = computers.first("laptop")
    desktop = computers.new("desktop", passphrase="correct horse battery")
    code = laptop.syncer.offer_pairing() if pairing else laptop.code
    result = desktop.service.sync.join(computers.folder, code, "desktop")
    assert result.recovery == "none"
    assert read_sidecar(desktop.profile.db.path).get("recovery") is None
    # joining again (taken out, then back) changes no key: nothing to say
    laptop.sync()
    laptop.service.sync.remove("desktop")
    with pytest.raises(DesktopMemError):
        desktop.sync()
    again = desktop.service.sync.join(computers.folder, laptop.syncer.offer_pairing())
    assert again.recovery is None
