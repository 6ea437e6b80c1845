"""Ways to lose a profile's key for good, each closed: a copied profile's rotation, a
rotation racing another opener, a tampered profile.json, a wrong key with a leftover
WAL, and an emptied database file."""

from __future__ import annotations

import json
import shutil
import stat
from pathlib import Path

import pytest

from desktop_mem.core import paths
from desktop_mem.core.config import Config
from desktop_mem.core.db import database as dbmod
from desktop_mem.core.db.files import OLD_SUFFIX, ProfileLock, sibling
from desktop_mem.core.db.opening import open_profile
from desktop_mem.core.db.rekey import change_key
from desktop_mem.core.errors import DatabaseCorrupt, ProfileBusy, UsageError, WrongKey
from desktop_mem.core.keys.vault import SERVICE, Vault, read_sidecar
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.profile import Profile
from tests import report
from tests.fakes.keyrings import MemoryKeyring


@pytest.fixture(autouse=True)
def _counted() -> None:
    report.add("key_attacks")


TEXTS = ["I live in Lisbon", "My sister is called Ana"]


def _seed(config: Config, vault: Vault) -> None:
    with Profile.open(config, vault) as prof:
        prof.memories.add_many([NewMemory(t) for t in TEXTS])


def _texts(config: Config, vault: Vault, profile: str) -> set[str]:
    cfg = Config(**{**config.__dict__, "profile": profile})
    with Profile.open(cfg, vault, create=False) as prof:
        return {m.text for m in prof.memories.list()}


def test_rotating_a_copied_profile_never_deletes_the_originals_key(
    config: Config, vault: Vault, isolated: MemoryKeyring
) -> None:
    _seed(config, vault)
    change_key(config.home, "default", None, vault=vault)  # the sidecar now names an account
    original = paths.database_path(config.home, "default")
    shared = read_sidecar(original)["key_account"]
    copy_dir = original.parent.with_name("work2")
    shutil.copytree(original.parent, copy_dir)
    change_key(config.home, "work2", None, vault=vault)
    assert (SERVICE, shared) in isolated.secrets, "the account both named is still there"
    copied = read_sidecar(copy_dir / "memory.db")  # became its own profile on its first open
    assert copied["profile_id"] != read_sidecar(original)["profile_id"]
    assert copied["key_account"].startswith(f"profile-id:{copied['profile_id']}:")
    assert _texts(config, vault, "default") == set(TEXTS)
    assert _texts(config, vault, "work2") == set(TEXTS)
    # the original's own rotation still retires its own old key
    change_key(config.home, "default", None, vault=vault)
    assert (SERVICE, shared) not in isolated.secrets
    assert _texts(config, vault, "default") == _texts(config, vault, "work2") == set(TEXTS)


def test_a_key_named_by_another_profile_is_never_deleted(
    config: Config, vault: Vault, isolated: MemoryKeyring
) -> None:
    _seed(config, vault)
    path = paths.database_path(config.home, "default")
    live = read_sidecar(path)["key_account"]
    other = path.parent.with_name("other")
    other.mkdir()
    # another profile's settings name the account this one is about to retire
    (other / "profile.json").write_text(
        json.dumps({"format": 1, "key_mode": "keyring", "key_account": live})
    )
    change_key(config.home, "default", None, vault=vault)
    assert (SERVICE, live) in isolated.secrets
    assert "retired_account" not in read_sidecar(path)


def test_a_tampered_sidecar_that_retires_the_live_key_changes_nothing(
    config: Config, vault: Vault, isolated: MemoryKeyring
) -> None:
    _seed(config, vault)
    path = paths.database_path(config.home, "default")
    side = path.with_name("profile.json")
    data = json.loads(side.read_text())
    data["retired_account"] = data["key_account"]
    side.write_text(json.dumps(data))
    before = side.read_text()
    with pytest.raises(DatabaseCorrupt, match="damaged.*Nothing was changed"):
        Profile.open(config, vault)
    assert (SERVICE, data["key_account"]) in isolated.secrets
    assert side.read_text() == before
    data.pop("retired_account")
    side.write_text(json.dumps(data))
    assert _texts(config, vault, "default") == set(TEXTS)


def test_recovery_never_runs_while_another_process_has_the_profile(
    config: Config, vault: Vault, isolated: MemoryKeyring, monkeypatch: pytest.MonkeyPatch
) -> None:
    _seed(config, vault)
    path = paths.database_path(config.home, "default")
    # what an interrupted (or running) key change leaves: the old file beside the new
    shutil.copy2(path, sibling(path, OLD_SUFFIX))
    other = ProfileLock(path)
    assert other.acquire(exclusive=False)  # another desktop-mem has it open
    try:
        with pytest.raises(ProfileBusy, match="middle of a key change"):
            open_profile(config.home, "default", None, vault)
        assert sibling(path, OLD_SUFFIX).exists(), "nothing was restored over the new file"
    finally:
        other.release()
    # a key change in progress holds it exclusively: openers wait, then give up
    monkeypatch.setattr(dbmod, "BUSY_TIMEOUT_MS", 200)
    assert other.acquire(exclusive=True)
    try:
        with pytest.raises(ProfileBusy, match="being changed"):
            open_profile(config.home, "default", None, vault)
    finally:
        other.release()
    assert _texts(config, vault, "default") == set(TEXTS)  # alone, it finishes the recovery
    assert not sibling(path, OLD_SUFFIX).exists()


def test_a_rotation_refuses_while_the_profile_is_open_elsewhere(
    config: Config, vault: Vault, isolated: MemoryKeyring
) -> None:
    _seed(config, vault)
    before = dict(isolated.secrets)
    with Profile.open(config, vault), pytest.raises(ProfileBusy, match="not changed"):
        change_key(config.home, "default", None, vault=vault)
    assert isolated.secrets == before


def test_a_wrong_key_never_touches_a_leftover_wal(
    config: Config, vault: Vault, tmp_path: Path
) -> None:
    cfg = Config(**{**config.__dict__, "passphrase": "right passphrase"})
    prof = Profile.open(cfg, vault)
    prof.memories.add(NewMemory("I keep bees"))
    path = prof.db.path
    crashed = tmp_path / "crashed" / "profiles" / "default"
    crashed.mkdir(parents=True)
    for name in ("memory.db", "memory.db-wal", "memory.db-shm", "profile.json"):
        if (path.parent / name).exists():
            shutil.copy2(path.parent / name, crashed / name)  # as a crash leaves them
    prof.close()
    wal = crashed / "memory.db-wal"
    assert wal.exists() and wal.stat().st_size > 0
    before = {p.name: p.read_bytes() for p in crashed.iterdir()}
    with pytest.raises(WrongKey, match="Nothing was changed"):
        open_profile(tmp_path / "crashed", "default", "a wrong passphrase", vault)
    after = {p.name: p.read_bytes() for p in crashed.iterdir() if p.suffix != ".lock"}
    assert after == before, "the WAL (and everything else) is as it was"
    home = tmp_path / "crashed"
    with Profile.open(Config(**{**cfg.__dict__, "home": home}), vault) as again:
        assert [m.text for m in again.memories.list()] == ["I keep bees"]


def test_an_emptied_database_is_not_taken_for_a_new_profile(config: Config, vault: Vault) -> None:
    _seed(config, vault)
    path = paths.database_path(config.home, "default")
    path.write_bytes(b"")
    with pytest.raises(DatabaseCorrupt, match="empty.*restore it from a backup"):
        Profile.open(config, vault)
    assert path.stat().st_size == 0


def test_a_profile_name_with_a_trailing_newline_is_refused() -> None:
    with pytest.raises(UsageError, match="not a valid profile name"):
        paths.check_profile_name("work\n")
    assert paths.check_profile_name("work") == "work"


def test_the_database_is_private_after_a_rotation(config: Config, vault: Vault) -> None:
    _seed(config, vault)
    change_key(config.home, "default", None, vault=vault)
    path = paths.database_path(config.home, "default")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
