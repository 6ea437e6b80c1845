"""Key rotation and keyring <-> passphrase changes: no data lost, the old key retired."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from desktop_mem.core import paths
from desktop_mem.core.config import Config
from desktop_mem.core.db.files import OLD_SUFFIX, REKEY_SUFFIX
from desktop_mem.core.db.opening import open_profile
from desktop_mem.core.db.rekey import change_key
from desktop_mem.core.errors import KeyMissing, ProfileBusy, UsageError, WrongKey
from desktop_mem.core.keys.vault import SERVICE, Vault, read_key_mode, read_sidecar
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.profile import Profile
from tests.conftest import Run
from tests.fakes.keyrings import MemoryKeyring
from tests.fakes.ollama_server import FakeOllama

OLD_PASS = "old passphrase 1"
NEW_PASS = "new passphrase 2"
TEXTS = ["I live in Lisbon", "我喜欢喝乌龙茶", "My sister is called Ana"]


def _seed(config: Config, vault: Vault) -> None:
    with Profile.open(config, vault) as prof:
        prof.memories.add_many([NewMemory(t) for t in TEXTS])


def _texts(config: Config, vault: Vault) -> set[str]:
    with Profile.open(config, vault) as prof:
        assert prof.db.query("PRAGMA integrity_check")[0][0] == "ok"
        assert prof.search.search("乌龙茶", k=1).hits[0].memory.text == "我喜欢喝乌龙茶"
        return {m.text for m in prof.memories.list()}


def _with(config: Config, passphrase: str | None) -> Config:
    return Config(**{**config.__dict__, "passphrase": passphrase})


def test_rotating_a_keyring_key_keeps_everything_and_retires_the_old_key(
    config: Config, vault: Vault, isolated: MemoryKeyring
) -> None:
    _seed(config, vault)
    first = read_sidecar(paths.database_path(config.home, "default"))["key_account"]
    old_secret = isolated.secrets[(SERVICE, first)]
    report = change_key(config.home, "default", None, vault=vault)
    assert report.old_mode == report.new_mode == "keyring" and report.rows > 0
    accounts = [a for (s, a) in isolated.secrets if s == SERVICE]
    assert len(accounts) == 1 and accounts[0] != first  # the old one deleted
    assert accounts[0].startswith(first + ":")  # named for the profile's id
    assert isolated.secrets[(SERVICE, accounts[0])] != old_secret
    side = read_sidecar(paths.database_path(config.home, "default"))
    assert side["key_account"] == accounts[0] and "retired_account" not in side
    assert _texts(config, vault) == set(TEXTS)
    db_path = paths.database_path(config.home, "default")
    for suffix in (OLD_SUFFIX, REKEY_SUFFIX):
        assert not db_path.with_name(db_path.name + suffix).exists()
    # the old key no longer opens the file
    isolated.secrets[(SERVICE, accounts[0])] = old_secret
    with pytest.raises(WrongKey):
        open_profile(config.home, "default", vault=vault)


def test_keyring_to_passphrase_and_back(
    config: Config, vault: Vault, isolated: MemoryKeyring
) -> None:
    _seed(config, vault)
    change_key(config.home, "default", None, "passphrase", OLD_PASS, vault)
    path = paths.database_path(config.home, "default")
    assert read_key_mode(path) == "passphrase"
    assert not [a for (s, a) in isolated.secrets if s == SERVICE], "the keyring key is deleted"
    with pytest.raises(KeyMissing):
        open_profile(config.home, "default", vault=vault)
    assert _texts(_with(config, OLD_PASS), vault) == set(TEXTS)

    change_key(config.home, "default", OLD_PASS, "passphrase", NEW_PASS, vault)
    with pytest.raises(WrongKey):
        open_profile(config.home, "default", OLD_PASS, vault=vault)
    assert _texts(_with(config, NEW_PASS), vault) == set(TEXTS)

    change_key(config.home, "default", NEW_PASS, "keyring", None, vault)
    assert read_key_mode(path) == "keyring"
    assert _texts(config, vault) == set(TEXTS)
    with pytest.raises(WrongKey):  # passphrase mode is over: the passphrase is no key
        from desktop_mem.core.db.database import connect
        from desktop_mem.core.keys.vault import Key

        connect(path, Key("passphrase", NEW_PASS))


def test_rekey_refuses_while_the_profile_is_open_elsewhere(config: Config, vault: Vault) -> None:
    _seed(config, vault)
    with Profile.open(config, vault) as other:
        with pytest.raises(ProfileBusy):
            change_key(config.home, "default", None, vault=vault)
        assert other.memories.count() == len(TEXTS)
    assert _texts(config, vault) == set(TEXTS)


def test_rekey_input_errors_change_nothing(config: Config, vault: Vault) -> None:
    _seed(_with(config, OLD_PASS), vault)
    path = paths.database_path(config.home, "default")
    before = path.read_bytes()
    with pytest.raises(WrongKey):
        change_key(config.home, "default", "not it at all", "passphrase", NEW_PASS, vault)
    with pytest.raises(UsageError):
        change_key(config.home, "default", OLD_PASS, "passphrase", OLD_PASS, vault)
    with pytest.raises(UsageError):
        change_key(config.home, "default", OLD_PASS, "passphrase", "", vault)
    assert path.read_bytes() == before
    assert _texts(_with(config, OLD_PASS), vault) == set(TEXTS)


@pytest.mark.parametrize("stage", ["copy-written", "switched", "committed"])
def test_an_interrupted_rekey_opens_with_one_key_or_the_other(
    config: Config, vault: Vault, stage: str
) -> None:
    """The three states a crash can leave, built by hand: each opens with the right key
    and holds everything."""
    _seed(_with(config, OLD_PASS), vault)
    path = paths.database_path(config.home, "default")
    backup = path.read_bytes()
    change_key(config.home, "default", OLD_PASS, "passphrase", NEW_PASS, vault)
    rekeyed = path.read_bytes()
    old = path.with_name(path.name + OLD_SUFFIX)
    if stage == "copy-written":  # killed before the switch: a stray copy beside the old file
        path.write_bytes(backup)
        path.with_name(path.name + REKEY_SUFFIX).write_bytes(rekeyed)
        good, bad = OLD_PASS, NEW_PASS
    elif stage == "switched":  # killed after the switch: both files, either key may be right
        old.write_bytes(backup)
        good, bad = OLD_PASS, NEW_PASS  # the user still has the old passphrase
    else:
        old.write_bytes(backup)
        good, bad = NEW_PASS, OLD_PASS
    with pytest.raises(WrongKey):
        open_profile(config.home, "default", "neither of them", vault=vault).close()
    assert old.exists() or stage == "copy-written", "a wrong key must not resolve anything"
    assert _texts(_with(config, good), vault) == set(TEXTS)
    assert not old.exists() and not path.with_name(path.name + REKEY_SUFFIX).exists()
    with pytest.raises(WrongKey):
        open_profile(config.home, "default", bad, vault=vault)


def test_cli_rekey(run: Run, home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert run("memory", "add", "I keep bees")[0] == 0
    monkeypatch.setenv("DESKTOP_MEM_NEW_PASSPHRASE", NEW_PASS)
    code, out, err = run("rekey", "--mode", "passphrase")
    assert code == 0, err
    assert "passphrase" in out and "verified" in out
    code, _, err = run("memory", "list")
    assert code == 3 and "passphrase" in err
    monkeypatch.setenv("DESKTOP_MEM_PASSPHRASE", NEW_PASS)
    code, out, _ = run("memory", "list")
    assert code == 0 and "I keep bees" in out
    code, out, err = run("rekey", "--mode", "keyring")
    assert code == 0, err
    monkeypatch.delenv("DESKTOP_MEM_PASSPHRASE")
    code, out, _ = run("memory", "list")
    assert code == 0 and "I keep bees" in out
    assert not any(p.name.endswith((OLD_SUFFIX, REKEY_SUFFIX)) for p in home.rglob("*"))
    assert os.listdir(home)


def test_cli_rekey_without_a_new_passphrase_is_a_usage_error(
    run: Run, monkeypatch: pytest.MonkeyPatch, fake_ollama: FakeOllama
) -> None:
    assert run("memory", "add", "I keep bees")[0] == 0
    monkeypatch.delenv("DESKTOP_MEM_NEW_PASSPHRASE", raising=False)
    code, _, err = run("rekey", "--mode", "passphrase")
    assert code == 2 and "DESKTOP_MEM_NEW_PASSPHRASE" in err


def test_a_short_new_passphrase_is_refused_from_the_environment_too(
    run: Run, monkeypatch: pytest.MonkeyPatch, fake_ollama: FakeOllama
) -> None:
    assert run("memory", "add", "I keep bees")[0] == 0
    monkeypatch.setenv("DESKTOP_MEM_NEW_PASSPHRASE", "short")
    code, _, err = run("rekey", "--mode", "passphrase")
    assert code == 2 and "shorter than 8 characters" in err
    code, out, _ = run("memory", "list")
    assert code == 0 and "I keep bees" in out, "still the keyring key"
