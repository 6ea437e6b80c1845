"""Whose key it is: a key belongs to exactly one profile. Same-named profiles in two data
folders, copied profile folders and profiles from before profile ids each end up with
a keyring entry of their own, so a key change in one never locks out another; and a
backup's header is sealed, so a removed recovery block is refused, not restored."""

from __future__ import annotations

import json
import shutil
import struct
from pathlib import Path

import keyring.errors
import pytest

from desktop_mem.core import paths
from desktop_mem.core.config import Config
from desktop_mem.core.db import database as dbmod
from desktop_mem.core.db.backup import MAGIC, restore, write_backup
from desktop_mem.core.db.recovery import recover_key
from desktop_mem.core.db.rekey import change_key
from desktop_mem.core.errors import DatabaseCorrupt, DesktopMemError, KeyMissing
from desktop_mem.core.keys.vault import SERVICE, Key, KeyringAccess, Vault, read_sidecar
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.profile import Profile
from tests import report
from tests.conftest import Run
from tests.fakes.keyrings import MemoryKeyring
from tests.fakes.ollama_server import FakeOllama

TEXT = "I keep bees on the roof"


def _config(config: Config, home: Path, profile: str = "default") -> Config:
    return Config(**{**config.__dict__, "home": home, "profile": profile})


def _texts(config: Config, vault: Vault) -> list[str]:
    with Profile.open(config, vault, create=False) as prof:
        return [m.text for m in prof.memories.list()]


def make_legacy(config: Config, vault: Vault, account: str | None = None) -> str:
    """A profile as desktop-mem wrote it before profile ids: profile.json without an id,
    its key under the account named for the profile's name (or `account`, as a key
    rotated then was named, which profile.json then names), no id in the database.
    Returns the recovery code it was made with."""
    with Profile.open(config, vault) as prof:
        prof.memories.add(NewMemory(TEXT))
        code = prof.db.new_recovery_code
    path = paths.database_path(config.home, config.profile)
    side = read_sidecar(path)
    secret = vault.keyring.get(config.profile, side["key_account"])
    assert secret
    vault.keyring.delete(config.profile, side["key_account"])
    vault.keyring.set(config.profile, secret, account or f"profile:{config.profile}")
    conn = dbmod.connect(path, Key("keyring", secret))
    conn.execute("DELETE FROM meta WHERE key LIKE 'profile.%'")
    conn.close()
    legacy = {k: side[k] for k in ("format", "key_mode", "updated_at", "recovery")}
    if account:
        legacy["key_account"] = account
    path.with_name("profile.json").write_text(json.dumps(legacy, indent=2))
    assert code is not None
    return code


def test_same_named_profiles_in_two_data_folders_have_their_own_keys(
    config: Config, vault: Vault, isolated: MemoryKeyring, tmp_path: Path
) -> None:
    a, b = _config(config, tmp_path / "A"), _config(config, tmp_path / "B")
    for cfg in (a, b):
        with Profile.open(cfg, vault) as prof:
            prof.memories.add(NewMemory(TEXT))
    change_key(b.home, "default", None, vault=vault)
    assert _texts(a, vault) == _texts(b, vault) == [TEXT]  # issue 28: A was locked out
    change_key(a.home, "default", None, vault=vault)
    assert _texts(a, vault) == _texts(b, vault) == [TEXT]
    report.add("profile_copies", 2)


def _copy_profile(src: Config, dest: Config) -> None:
    target = paths.database_path(dest.home, dest.profile).parent
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copytree(paths.database_path(src.home, src.profile).parent, target)


def legacy_copies(config: Config, vault: Vault, root: Path, rotated: bool) -> int:
    """The attack of issue 28: data folders A and B both hold `default` (B a copy of A's
    folder), sharing the entry `profile:default`; with a key rotated by the old version
    (named in profile.json), a copy under another name, `work2`, shares it too. Each
    opens without being locked out and becomes its own; then each is rekeyed in turn,
    and every one still opens after every rekey. Returns how many profiles."""
    a = _config(config, root / "A")
    old_account = "profile:default:0a1b2c3d" if rotated else None
    make_legacy(a, vault, old_account)
    b = _config(config, root / "B")
    _copy_profile(a, b)
    everyone = [a, b]
    if rotated:  # before, only a rotated key's profile.json named its entry
        everyone.append(_config(config, a.home, "work2"))
        _copy_profile(a, everyone[-1])
    for cfg in everyone:
        assert _texts(cfg, vault) == [TEXT]  # migrated on open
    ids = {read_sidecar(paths.database_path(c.home, c.profile))["profile_id"] for c in everyone}
    assert len(ids) == len(everyone)  # each its own profile
    for cfg in everyone:
        change_key(cfg.home, cfg.profile, None, vault=vault)
        for each in everyone:
            assert _texts(each, vault) == [TEXT], (cfg.home, cfg.profile, each.home)
    # the entry the old version made may be another folder's: it stays
    assert vault.keyring.get("default", old_account or "profile:default")
    return len(everyone)


@pytest.mark.parametrize("rotated", [False, True])
def test_profiles_from_before_ids_and_their_copies_migrate_and_each_rekeys(
    config: Config, vault: Vault, tmp_path: Path, rotated: bool
) -> None:
    report.add("profile_copies", legacy_copies(config, vault, tmp_path, rotated))


def test_a_copy_opened_only_after_the_original_rekeyed_comes_back_with_its_code(
    config: Config, vault: Vault, isolated: MemoryKeyring, tmp_path: Path
) -> None:
    """A copy made but never opened cannot know its key is about to be retired: it is
    told to put the key back with the recovery code, which works."""
    with Profile.open(config, vault) as prof:
        prof.memories.add(NewMemory(TEXT))
        code = prof.db.new_recovery_code
    assert code is not None
    original = paths.database_path(config.home, "default").parent
    copy = _config(config, tmp_path / "B")
    (copy.home / "profiles").mkdir(parents=True)
    shutil.copytree(original, copy.home / "profiles" / "default")
    change_key(config.home, "default", None, vault=vault)
    with pytest.raises(KeyMissing, match="recovery code"):
        _texts(copy, vault)
    recover_key(copy.home, "default", code, vault=vault)
    assert _texts(copy, vault) == _texts(config, vault) == [TEXT]
    change_key(copy.home, "default", None, vault=vault)
    assert _texts(copy, vault) == _texts(config, vault) == [TEXT]
    report.add("profile_copies", 1)


class ReadOnlyKeyring(MemoryKeyring):
    """A keyring that answers reads but refuses to store (locked for writing)."""

    def set_password(self, service: str, username: str, password: str) -> None:
        raise keyring.errors.KeyringLocked("locked")


def test_a_copy_that_cannot_get_its_own_entry_opens_but_changes_no_key(
    config: Config, vault: Vault, isolated: MemoryKeyring, tmp_path: Path
) -> None:
    with Profile.open(config, vault) as prof:
        prof.memories.add(NewMemory(TEXT))
    copy = _config(config, tmp_path / "B")
    (copy.home / "profiles").mkdir(parents=True)
    shutil.copytree(
        paths.database_path(config.home, "default").parent, copy.home / "profiles" / "default"
    )
    stuck = ReadOnlyKeyring()
    stuck.secrets = isolated.secrets
    locked = Vault(KeyringAccess(stuck, timeout=2.0))
    assert _texts(copy, locked) == [TEXT]  # it opens with the key it shares
    with pytest.raises(DesktopMemError, match="could not yet get a keyring entry"):
        change_key(copy.home, "default", None, vault=locked)
    assert _texts(config, vault) == _texts(copy, vault) == [TEXT]  # settled now
    change_key(copy.home, "default", None, vault=vault)
    assert _texts(config, vault) == _texts(copy, vault) == [TEXT]
    report.add("profile_copies", 1)


# -- the backup's header -------------------------------------------------------------


def _rewrite_header(
    src: Path, dest: Path, change: dict[str, object], drop: tuple[str, ...]
) -> None:
    raw = src.read_bytes()
    (length,) = struct.unpack(">I", raw[len(MAGIC) : len(MAGIC) + 4])
    start = len(MAGIC) + 4
    header = json.loads(raw[start : start + length])
    for k in drop:
        header.pop(k, None)
    header.update(change)
    body = json.dumps(header).encode("ascii")
    dest.write_bytes(MAGIC + struct.pack(">I", len(body)) + body + raw[start + length :])


@pytest.mark.parametrize(
    ("what", "change", "drop"),
    [
        ("recovery removed", {}, ("recovery",)),
        ("profile renamed", {"profile": "someone-else"}, ()),
        ("key mode changed", {"key_mode": "passphrase"}, ()),
        ("created_at changed", {"created_at": "2001-01-01T00:00:00+00:00"}, ()),
        ("field added", {"note": "hello"}, ()),
        ("seal removed", {}, ("seal",)),
        ("seal of another", {"seal": "0" * 64}, ()),
    ],
)
def test_a_changed_backup_header_is_refused_in_one_sentence(
    run: Run,
    home: Path,
    tmp_path: Path,
    what: str,
    change: dict[str, object],
    drop: tuple[str, ...],
) -> None:
    assert run("memory", "add", TEXT)[0] == 0
    made = tmp_path / "b.dmbackup"
    assert run("backup", str(made))[0] == 0
    bad = tmp_path / "bad.dmbackup"
    _rewrite_header(made, bad, change, drop)
    code, out, err = run("--profile", "restored", "restore", str(bad))
    assert code != 0 and out == "", what
    assert err.count("\n") == 1 and ("altered" in err or "passphrase" in err), (what, err)
    assert not (home / "profiles" / "restored").exists()
    report.add("backup_headers")


def test_a_backup_without_recovery_data_says_so_and_gives_a_new_code(
    config: Config, vault: Vault, isolated: MemoryKeyring, tmp_path: Path, fake_ollama: FakeOllama
) -> None:
    """A header from before seals (version 1) cannot be checked; one without a recovery
    block restores, says so, and the restored profile gets a code that opens it."""
    with Profile.open(config, vault) as prof:
        prof.memories.add(NewMemory(TEXT))
        write_backup(prof.db, tmp_path / "b.dmbackup")
    old = tmp_path / "old.dmbackup"
    _rewrite_header(tmp_path / "b.dmbackup", old, {"version": 1}, ("recovery", "seal"))
    run = Run(config.home, fake_ollama, vault)
    code, out, err = run("--profile", "restored", "restore", str(old))
    assert code == 0 and "Restored profile 'restored'" in out
    assert "holds no recovery code" in err
    new_code = next(line.strip() for line in err.splitlines() if line.count("-") == 5)
    restored = _config(config, config.home, "restored")
    side = read_sidecar(paths.database_path(config.home, "restored"))
    isolated.secrets.pop((SERVICE, side["key_account"]))  # the keyring is lost
    recover_key(config.home, "restored", new_code, vault=vault)
    assert _texts(restored, vault) == [TEXT]
    report.add("backup_headers")


def test_a_sealed_backup_restores_and_a_passphrase_seal_is_checked_too(
    config: Config, vault: Vault, tmp_path: Path
) -> None:
    cfg = Config(**{**config.__dict__, "profile": "pp", "passphrase": "a long passphrase"})
    with Profile.open(cfg, vault) as prof:
        prof.memories.add(NewMemory(TEXT))
        write_backup(prof.db, tmp_path / "p.dmbackup")
    _rewrite_header(tmp_path / "p.dmbackup", tmp_path / "bad.dmbackup", {"profile": "x"}, ())
    with pytest.raises(DatabaseCorrupt, match="altered"):
        restore(tmp_path / "bad.dmbackup", config.home, "other", "a long passphrase", vault=vault)
    done = restore(tmp_path / "p.dmbackup", config.home, "other", "a long passphrase", vault=vault)
    assert done.memories == 1 and done.new_recovery_code is None
    report.add("backup_headers", 2)
