"""What the attacker's model checker (test_attacker.py) found, each on its own: the
smallest schedule that broke a promise of docs/security.md ("Sync"), as it was found."""

from __future__ import annotations

from pathlib import Path

from desktop_mem.core.sync import files
from tests.sync.conftest import Computer, Computers
from tests.sync.test_membership_attacks import Thief, _three


def _sealed_files(c: Computer) -> list[Path]:
    """What `c` wrote sealed in its own folder: change files, snapshots, its status."""
    folder = c.syncer.layout().device(c.syncer.device)
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.suffix in (".dmc", ".dms", ".dmd"))


def _thief_reads(thief: Thief, path: Path) -> bool:
    kind = {".dmc": "changes", ".dms": "snapshot", ".dmd": "status"}[path.suffix]
    raw = files.read_raw(path, thief.layout.sync_id, kind)
    return str(raw.header.get("key")) in thief.sync_keys


def test_a_removed_computer_is_no_member_once_this_computer_removed_it(
    computers: Computers,
) -> None:
    """The key chain kept in the profile named the removed computer among those in until
    the next pass."""
    laptop, _desktop, stolen = _three(computers)
    laptop.syncer.remove(stolen.syncer.device)
    assert stolen.syncer.device not in laptop.syncer.chain().members
