"""Keys: keyring mode, passphrase mode, and every way a keyring can fail."""

from __future__ import annotations

import hashlib
import time
from pathlib import Path

import keyring.backends.fail
import keyring.backends.null
import pytest

from desktop_mem.core import paths
from desktop_mem.core.db.opening import open_profile
from desktop_mem.core.errors import (
    EXIT_LOCKED,
    KeyMissing,
    KeyringLocked,
    KeyringUnavailable,
    WrongKey,
)
from desktop_mem.core.keys.vault import (
    SERVICE,
    Key,
    KeyringAccess,
    Vault,
    backend_problem,
    read_key_mode,
    read_sidecar,
)
from tests.fakes.keyrings import HangingKeyring, LockedKeyring, MemoryKeyring, stored_key


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_new_profile_gets_a_random_raw_key_in_the_keyring(
    home: Path, vault: Vault, isolated: MemoryKeyring
) -> None:
    db = open_profile(home, "default", vault=vault)
    db.close()
    side = read_sidecar(db.path)
    assert side["key_account"] == f"profile-id:{side['profile_id']}"  # named for its own id
    secret = isolated.secrets[(SERVICE, side["key_account"])]
    assert len(secret) == 64 and int(secret, 16) >= 0
    assert read_key_mode(db.path) == "keyring"
    # the file is encrypted: no SQLite header
    assert not db.path.read_bytes().startswith(b"SQLite format 3")
    open_profile(home, "default", vault=vault).close()


def test_two_profiles_have_different_keys(
    home: Path, vault: Vault, isolated: MemoryKeyring
) -> None:
    open_profile(home, "work", vault=vault).close()
    open_profile(home, "home", vault=vault).close()
    work, other = (
        stored_key(isolated, home / "profiles" / n / "memory.db") for n in ("work", "home")
    )
    assert work != other


def test_passphrase_mode_when_no_keyring(home: Path) -> None:
    vault = Vault(KeyringAccess(keyring.backends.fail.Keyring(), timeout=1))
    db = open_profile(home, "default", passphrase="correct horse battery", vault=vault)
    db.close()
    assert read_key_mode(db.path) == "passphrase"
    open_profile(home, "default", passphrase="correct horse battery", vault=vault).close()


def test_no_keyring_and_no_passphrase_is_a_clear_locked_error(home: Path) -> None:
    vault = Vault(KeyringAccess(keyring.backends.fail.Keyring(), timeout=1))
    with pytest.raises(KeyringUnavailable) as err:
        open_profile(home, "default", vault=vault)
    assert "DESKTOP_MEM_PASSPHRASE" in str(err.value)
    assert err.value.exit_code == EXIT_LOCKED
    assert not paths.database_path(home, "default").exists(), "no plaintext fallback"


def test_null_backend_is_refused() -> None:
    assert "drops secrets" in (backend_problem(keyring.backends.null.Keyring()) or "")


def test_plaintext_keyrings_alt_backend_is_refused() -> None:
    PlainText = type("PlaintextKeyring", (MemoryKeyring,), {"__module__": "keyrings.alt.file"})
    assert "plain text" in (backend_problem(PlainText()) or "")


def test_wrong_passphrase_is_reported_and_the_file_is_untouched(home: Path) -> None:
    vault = Vault(KeyringAccess(keyring.backends.fail.Keyring(), timeout=1))
    db = open_profile(home, "default", passphrase="right passphrase", vault=vault)
    db.close()
    before = _digest(db.path)
    with pytest.raises(WrongKey) as err:
        open_profile(home, "default", passphrase="wrong passphrase", vault=vault)
    assert "passphrase is wrong" in str(err.value)
    assert _digest(db.path) == before
    open_profile(home, "default", passphrase="right passphrase", vault=vault).close()


def test_passphrase_profile_without_passphrase_says_how_to_give_it(home: Path) -> None:
    vault = Vault(KeyringAccess(keyring.backends.fail.Keyring(), timeout=1))
    open_profile(home, "default", passphrase="right passphrase", vault=vault).close()
    with pytest.raises(KeyMissing, match="DESKTOP_MEM_PASSPHRASE"):
        open_profile(home, "default", vault=vault)


def test_missing_keyring_entry_is_reported(
    home: Path, vault: Vault, isolated: MemoryKeyring
) -> None:
    open_profile(home, "default", vault=vault).close()
    isolated.secrets.clear()
    with pytest.raises(KeyMissing, match="not in the system keyring"):
        open_profile(home, "default", vault=vault)


def test_wrong_key_in_keyring_is_reported(
    home: Path, vault: Vault, isolated: MemoryKeyring
) -> None:
    db = open_profile(home, "default", vault=vault)
    db.close()
    before = _digest(db.path)
    isolated.secrets[(SERVICE, read_sidecar(db.path)["key_account"])] = "00" * 32
    with pytest.raises(WrongKey, match="could not be decrypted"):
        open_profile(home, "default", vault=vault)
    assert _digest(db.path) == before


def test_hanging_keyring_times_out_instead_of_blocking(home: Path) -> None:
    hanging = HangingKeyring()
    vault = Vault(KeyringAccess(hanging, timeout=0.3))
    start = time.monotonic()
    with pytest.raises(KeyringUnavailable, match="did not answer"):
        open_profile(home, "default", vault=vault)
    assert time.monotonic() - start < 5
    hanging.release.set()
    assert not paths.database_path(home, "default").exists()


def test_locked_keyring_refusal_is_a_clear_error(home: Path) -> None:
    """A dismissed unlock prompt is a locked keyring, not a missing one: its own reason
    (the window offers to try again) and the locked exit code."""
    vault = Vault(KeyringAccess(LockedKeyring(), timeout=1))
    with pytest.raises(KeyringLocked, match="The system keyring is locked") as caught:
        open_profile(home, "default", vault=vault)
    assert caught.value.reason == "keyring_locked" and caught.value.exit_code == EXIT_LOCKED
    assert "available" not in str(caught.value)
    assert not paths.database_path(home, "default").exists()


def test_key_never_shows_in_repr() -> None:
    key = Key("keyring", "ab" * 32)
    assert "ab" * 32 not in repr(key)
    assert "hunter2" not in repr(Key("passphrase", "hunter2"))


def test_passphrase_with_quotes_works(home: Path) -> None:
    vault = Vault(KeyringAccess(keyring.backends.fail.Keyring(), timeout=1))
    tricky = 'it\'s "quoted"; DROP TABLE x; --'
    open_profile(home, "default", passphrase=tricky, vault=vault).close()
    open_profile(home, "default", passphrase=tricky, vault=vault).close()
    with pytest.raises(WrongKey):
        open_profile(home, "default", passphrase="it's", vault=vault)
