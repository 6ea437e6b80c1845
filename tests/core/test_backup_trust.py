"""What a person who can write to a backup folder (one Syncthing or Dropbox carries)
can do to the next restore, and what a backup can be pointed at (issue 45).

A header from before seals (version 1) restores only as what it is: a recovery record
in it is taken only when the code the user holds opens the key from it, so nobody can
slip in a record of their own code, which every later key would be sealed to. The
version is an exact integer (True and 1.0 equal 1 in Python). A record that cannot be
used never restores silently. A backup never replaces a link, a FIFO or a device, and
never writes through a name someone planted beside it."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from desktop_mem.core import paths
from desktop_mem.core.config import Config
from desktop_mem.core.db import backup_folder
from desktop_mem.core.db.backup import MAGIC, read_header, write_backup
from desktop_mem.core.db.recovery import recover_key
from desktop_mem.core.db.rekey import change_key
from desktop_mem.core.errors import WrongKey
from desktop_mem.core.keys import recovery
from desktop_mem.core.keys.vault import SERVICE, Vault, read_sidecar
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.profile import Profile
from tests import report
from tests.conftest import Run
from tests.core.test_backup import KILL_DRIVER, killed_backup
from tests.core.test_profile_identity import _rewrite_header
from tests.fakes.keyrings import MemoryKeyring

TEXT = "I keep bees on the roof"


def _backup(run: Run, tmp_path: Path) -> tuple[Path, str]:
    """A profile with one memory and its backup; the owner's recovery code."""
    code, _, err = run("memory", "add", TEXT)
    assert code == 0
    owner_code = next(line.strip() for line in err.splitlines() if line.count("-") == 5)
    made = tmp_path / "b.dmbackup"
    assert run("backup", str(made))[0] == 0
    return made, owner_code


def _someone_elses_record() -> tuple[str, dict[str, object]]:
    """What a person without the key can make: a record of their own code (sealing
    whatever they like, since they do not know the key)."""
    code, record = recovery.protect(os.urandom(32).hex())
    return code, record


def _restored_key(home: Path, vault: Vault, profile: str = "restored") -> str:
    side = read_sidecar(paths.database_path(home, profile))
    secret = vault.keyring.get(profile, side["key_account"])
    assert secret
    return secret


@pytest.mark.parametrize("version", [1, True, 1.0, "1"])
def test_a_header_marked_old_cannot_bring_someone_elses_recovery_code(
    run: Run, home: Path, vault: Vault, tmp_path: Path, version: object
) -> None:
    """The attack: the seal removed, `version` set to 1 (or True, 1.0), and a recovery
    record of the attacker's own code put in. Before, restore took the record without a
    word; after the owner's next key change, the attacker's code unsealed the new key
    from the next backup's header."""
    made, _ = _backup(run, tmp_path)
    their_code, their_record = _someone_elses_record()
    bad = tmp_path / "bad.dmbackup"
    _rewrite_header(made, bad, {"version": version, "recovery": their_record}, ("seal",))
    code, out, err = run("--profile", "restored", "restore", str(bad))
    if type(version) is not int:
        assert code != 0 and out == "" and err.count("\n") == 1, err
        assert "damaged" in err and not (home / "profiles" / "restored").exists()
        report.add("backup_headers")
        return
    assert code == 0 and "Restored profile 'restored'" in out
    assert "holds no recovery code that could be proved" in err  # said, with a new code
    new_code = next(line.strip() for line in err.splitlines() if line.count("-") == 5)
    with pytest.raises(WrongKey):
        recover_key(home, "restored", their_code, vault=vault)
    # the owner changes the key and backs up: the attacker's code opens neither
    change_key(home, "restored", None, vault=vault)
    config = Config.resolve(home=home, profile="restored", embed_model="fake-embed")
    with Profile.open(config, vault, create=False) as prof:
        assert [m.text for m in prof.memories.list()] == [TEXT]
        write_backup(prof.db, tmp_path / "next.dmbackup")
    header, _ = read_header(tmp_path / "next.dmbackup")
    with pytest.raises(WrongKey):
        recovery.unseal(header["recovery"], their_code)
    assert recovery.unseal(header["recovery"], new_code) == _restored_key(home, vault)
    report.add("backup_headers")


def test_an_old_header_keeps_its_recovery_record_only_when_the_owners_code_opens_it(
    run: Run, home: Path, vault: Vault, isolated: MemoryKeyring, tmp_path: Path
) -> None:
    """A genuine backup from before seals, restored on a computer without the key: the
    owner's code opens the key from its record, so the record stays (the code keeps
    working). The same header carrying someone else's record is refused with the
    owner's code: nothing restored."""
    made, owner_code = _backup(run, tmp_path)
    old = tmp_path / "old.dmbackup"
    _rewrite_header(made, old, {"version": 1}, ("seal",))
    forged = tmp_path / "forged.dmbackup"
    _rewrite_header(made, forged, {"version": 1, "recovery": _someone_elses_record()[1]}, ("seal",))
    isolated.secrets.clear()  # another computer: the keyring never had the key
    os.environ[recovery.RECOVERY_ENV] = owner_code
    try:
        code, out, err = run("--profile", "forged", "restore", str(forged))
        assert code == 3 and out == "" and "does not belong" in err and err.count("\n") == 1
        assert not (home / "profiles" / "forged").exists()
        code, out, err = run("--profile", "restored", "restore", str(old))
    finally:
        del os.environ[recovery.RECOVERY_ENV]
    assert code == 0 and "with the recovery code" in out and "new one" not in err
    side = read_sidecar(paths.database_path(home, "restored"))
    isolated.secrets.pop((SERVICE, side["key_account"]))  # and loses the keyring again
    recover_key(home, "restored", owner_code, vault=vault)  # the code the owner holds
    change_key(home, "restored", None, vault=vault)
    side = read_sidecar(paths.database_path(home, "restored"))
    assert recovery.unseal(side["recovery"], owner_code) == _restored_key(home, vault)
    report.add("backup_headers", 2)


@pytest.mark.parametrize(
    "broken",
    [
        {"version": 1, "salt": "AAAA", "public": "AAAA"},  # a lock of the wrong size
        {"version": True},  # not a record at all
        "not even an object",
    ],
)
def test_a_recovery_record_that_cannot_be_used_never_restores_silently(
    run: Run, home: Path, vault: Vault, isolated: MemoryKeyring, tmp_path: Path, broken: object
) -> None:
    """Before, it restored with exit 0; the next rekey then failed with "The recovery
    data (key) is damaged." while doctor said ok. Now the profile gets a code of its
    own (said once), the rekey works and doctor checks the record."""
    made, _ = _backup(run, tmp_path)
    bad = tmp_path / "bad.dmbackup"
    _rewrite_header(made, bad, {"version": 1, "recovery": broken}, ("seal",))
    code, out, err = run("--profile", "restored", "restore", str(bad))
    assert code == 0 and "holds no recovery code that could be proved" in err
    new_code = next(line.strip() for line in err.splitlines() if line.count("-") == 5)
    code, out, err = run("--profile", "restored", "rekey")
    assert code == 0, err
    code, out, _ = run("--profile", "restored", "doctor", "--json")
    checks = {c["name"]: c for c in json.loads(out)}
    assert checks["recovery code"]["ok"], checks["recovery code"]
    side = read_sidecar(paths.database_path(home, "restored"))
    isolated.secrets.pop((SERVICE, side["key_account"]))
    recover_key(home, "restored", new_code, vault=vault)
    report.add("backup_headers")


def test_doctor_says_when_the_recovery_record_does_not_open_the_key(
    run: Run, home: Path, tmp_path: Path
) -> None:
    """A record whose sealed key is another key's (profile.json edited, or restored by
    an older version from a forged header) is found by doctor, with the fix."""
    assert run("memory", "add", TEXT)[0] == 0
    sidecar = home / "profiles" / "default" / "profile.json"
    side = json.loads(sidecar.read_text())
    side["recovery"] = _someone_elses_record()[1]
    sidecar.write_text(json.dumps(side))
    code, out, _ = run("doctor", "--json")
    checks = {c["name"]: c for c in json.loads(out)}
    assert not checks["recovery code"]["ok"] and "recovery-code" in checks["recovery code"]["fix"]
    assert run("recovery-code")[0] == 0
    checks = {c["name"]: c for c in json.loads(run("doctor", "--json")[1])}
    assert checks["recovery code"]["ok"]
    report.add("backup_headers")


def test_a_record_proves_the_key_it_holds_without_the_code() -> None:
    secret = os.urandom(32).hex()
    _, record = recovery.protect(secret)
    assert recovery.holds(record, secret)
    assert not recovery.holds(record, os.urandom(32).hex())
    _, other = recovery.protect(os.urandom(32).hex())
    assert not recovery.holds({**record, "sealed_key": other["sealed_key"]}, secret)
    assert not recovery.holds({**record, "version": True}, secret)


# -- where a backup may be written --------------------------------------------------------


def _targets(tmp_path: Path) -> dict[str, Path]:
    victim = tmp_path / "victim.txt"
    victim.write_text("the user's own file\n")
    found = {"fifo": tmp_path / "pipe.dmbackup", "link": tmp_path / "link.dmbackup"}
    os.mkfifo(found["fifo"])
    os.symlink(victim, found["link"])
    found["dangling link"] = tmp_path / "dangling.dmbackup"
    os.symlink(tmp_path / "nowhere", found["dangling link"])
    if os.geteuid() == 0:
        device = tmp_path / "full.dmbackup"
        try:
            os.mknod(device, 0o600 | 0o020000, os.makedev(1, 7))  # /dev/full
            found["device"] = device
        except PermissionError:
            pass
    return found


def test_a_backup_never_replaces_a_fifo_a_link_or_a_device(run: Run, tmp_path: Path) -> None:
    """Before, `backup PATH` renamed over each and said it had backed up (as root it
    replaced /dev/full and the /dev/stdout link with plain files)."""
    assert run("memory", "add", TEXT)[0] == 0
    for what, target in _targets(tmp_path).items():
        before = os.lstat(target)
        code, out, err = run("backup", str(target))
        assert code == 2 and out == "" and err.count("\n") == 1, (what, err)
        assert "Nothing was written" in err and "Traceback" not in err, what
        after = os.lstat(target)
        assert (after.st_mode, after.st_ino) == (before.st_mode, before.st_ino), what
        report.add("backup_folder")
    assert (tmp_path / "victim.txt").read_text() == "the user's own file\n"
    assert not (tmp_path / "nowhere").exists()


def test_a_name_planted_beside_the_backup_is_never_written_through(
    run: Run, tmp_path: Path
) -> None:
    """The backup is written to `<file>.partial` first. A link planted there (by whoever
    writes to the folder) made the backup overwrite the file it points to, and a FIFO
    there made it wait for ever."""
    assert run("memory", "add", TEXT)[0] == 0
    victim = tmp_path / "victim.txt"
    victim.write_text("the user's own file\n")
    file = tmp_path / "b.dmbackup"
    os.symlink(victim, tmp_path / "b.dmbackup.partial")
    assert run("backup", str(file))[0] == 0
    assert victim.read_text() == "the user's own file\n"
    os.mkfifo(tmp_path / "c.dmbackup.partial")
    assert run("backup", str(tmp_path / "c.dmbackup"))[0] == 0  # it returns: not stuck
    assert read_header(tmp_path / "c.dmbackup")[0]["profile"] == "default"
    report.add("backup_folder", 2)


def test_a_fifo_or_a_device_dressed_as_a_backup_is_refused_without_waiting(
    run: Run, home: Path, tmp_path: Path
) -> None:
    """A FIFO named like a backup in a backup folder made restore (and the window's list
    of backups) wait for ever for a writer."""
    fifo = tmp_path / "desktop-mem-default-20990101-000000.dmbackup"
    os.mkfifo(fifo)
    code = subprocess.run(
        [sys.executable, "-c", "import sys; from desktop_mem.cli import main; "
         "sys.exit(main(sys.argv[1:]))", "--home", str(home), "restore", str(fifo)],
        capture_output=True, text=True, timeout=300,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
    )  # fmt: skip
    assert code.returncode == 2 and "not a regular file" in code.stderr, code.stderr
    assert code.stderr.count("\n") == 1
    raw = MAGIC + struct.pack(">I", 2) + b"{}"
    (tmp_path / "tiny.dmbackup").write_bytes(raw)
    assert run("restore", str(tmp_path / "tiny.dmbackup"))[0] != 0
    report.add("backup_folder")


# -- what a killed backup leaves ----------------------------------------------------------


def test_what_a_killed_backup_left_goes_with_every_forget_and_doctor_counts_it(
    tmp_path: Path, fake_ollama: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A backup killed while it copies the database leaves `memory.db.backup-PID-…`, a
    whole copy under the live key. Before, it survived "Forget everything" (with the
    window open) until the next backup, and nothing mentioned it."""
    monkeypatch.setenv("DESKTOP_MEM_PASSPHRASE", "leftover test passphrase")
    home = tmp_path / "home"
    config = Config.resolve(
        home=home, ollama_host=fake_ollama.url, embed_model="fake-embed",
        passphrase="leftover test passphrase",
    )  # fmt: skip
    base = ["--home", str(home), "--ollama-host", fake_ollama.url, "--embed-model", "fake-embed"]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    folder = home / "profiles" / "default"
    with Profile.open(config) as prof:  # the window, open all along
        prof.memories.add_many([NewMemory(f"{TEXT}, hive number {i}") for i in range(300)])
        prof.db.checkpoint()
        size = (folder / "memory.db").stat().st_size
        assert size // 4 > 100_000  # the copy crosses the limit, not the log's few lines
        killed_backup(base, tmp_path / "b.dmbackup", size // 2, env)
        left = [p for p in folder.iterdir() if ".backup-" in p.name]
        assert left, "the killed backup left its copy"
        prof.forget_everything()
        assert not [p for p in folder.iterdir() if ".backup-" in p.name]
        report.add("kills")
        killed_backup(base, tmp_path / "b.dmbackup", size // 4, env)
    code = subprocess.run(
        [sys.executable, "-c", KILL_DRIVER, *base, "doctor", "--json"],
        env=env, capture_output=True, text=True,
    )  # fmt: skip
    checks = {c["name"]: c for c in json.loads(code.stdout)}
    assert (
        checks["leftovers"]["ok"]
        and "killed backup left were removed" in (checks["leftovers"]["detail"])
    )
    assert not [p for p in folder.iterdir() if ".backup-" in p.name]
    report.add("kills")


def test_files_planted_in_the_backup_folder_neither_stop_nor_delete_the_backups(
    config: Config, vault: Vault, tmp_path: Path
) -> None:
    """Whoever writes to the backup folder can copy a real backup's header and date it
    2099. Before, such files counted as the newest backups: rotation (keep 2) deleted
    every real one, the one just made included, and the window's daily check saw a
    backup from 2099 and never made another."""
    folder = tmp_path / "Sync" / "backups"
    folder.mkdir(parents=True)
    with Profile.open(config, vault) as prof:
        prof.memories.add(NewMemory(TEXT))
        first = backup_folder.back_up_to_folder(prof.db, folder, keep=2).path
        for n in range(3):
            _rewrite_header(
                first, folder / f"desktop-mem-default-2099010{n}-000000.dmbackup",
                {"created_at": f"2099-01-0{n + 1}T00:00:00+00:00", "version": 1}, ("seal",),
            )  # fmt: skip
        second = backup_folder.back_up_to_folder(prof.db, folder, keep=2).path
        third = backup_folder.back_up_to_folder(prof.db, folder, keep=2).path
        assert not first.exists() and second.exists() and third.exists()  # the newest two
        assert len(list(folder.glob("desktop-mem-default-2099*"))) == 3  # not ours: left
        own = backup_folder.list_backups(folder, "default", prof.db._key)
        assert [b.path for b in own] == [third, second]
        assert own[0].created_at < "2099"  # what the daily check sees as the last one
    report.add("backup_folder", 3)


def test_a_thousand_forged_headers_cannot_freeze_the_daily_check(
    config: Config, vault: Vault, tmp_path: Path
) -> None:
    """Found attacking the change: for a passphrase profile, checking a header's seal
    costs a key derivation, and the window's daily check runs on its thread. Forged
    headers dated after the real backup would each cost one. Each check now looks at
    no more than four headers it has not seen; what it cannot vouch for makes it back
    up again, the worst a forger can cause."""
    cfg = Config(**{**config.__dict__, "passphrase": "a long passphrase for the folder"})
    folder = tmp_path / "Sync"
    folder.mkdir()
    with Profile.open(cfg, vault) as prof:
        prof.memories.add(NewMemory(TEXT))
        real = backup_folder.back_up_to_folder(prof.db, folder, keep=3).path
        for n in range(40):
            _rewrite_header(
                real, folder / f"desktop-mem-default-forged-{n:02}.dmbackup",
                {"created_at": later(real, n + 1), "seal": "0" * 64}, (),
            )  # fmt: skip
        seen = len(backup_folder._SEALED)
        assert backup_folder.newest_backup(folder, "default", prof.db._key) is None
        assert len(backup_folder._SEALED) - seen == 4  # four derivations, not forty
        for forged in folder.glob("*forged*"):
            forged.unlink()
        newest = backup_folder.newest_backup(folder, "default", prof.db._key)
        assert newest is not None and newest.path == real
    report.add("backup_folder")


def later(path: Path, minutes: int) -> str:
    """A date some minutes after the backup's own (within the day a clock may be ahead)."""
    from datetime import datetime, timedelta

    made = datetime.fromisoformat(str(read_header(path)[0]["created_at"]))
    return (made + timedelta(minutes=minutes)).isoformat()


def test_a_sealed_backup_whose_record_fails_its_own_proof_gets_a_new_code(
    run: Run, home: Path, tmp_path: Path
) -> None:
    """A record that can prove it opens the key and does not (profile.json changed before
    the backup was made, so the owner's own seal vouches for a record of another code) is
    not taken: the seal says who wrote the header, not that the record is right."""
    assert run("memory", "add", TEXT)[0] == 0
    sidecar = home / "profiles" / "default" / "profile.json"
    side = json.loads(sidecar.read_text())
    their_code, side["recovery"] = _someone_elses_record()
    sidecar.write_text(json.dumps(side))
    assert run("backup", str(tmp_path / "b.dmbackup"))[0] == 0
    code, out, err = run("--profile", "restored", "restore", str(tmp_path / "b.dmbackup"))
    assert code == 0 and "holds no recovery code that could be proved" in err
    side = read_sidecar(paths.database_path(home, "restored"))
    with pytest.raises(WrongKey):
        recovery.unseal(side["recovery"], their_code)
    report.add("backup_headers")
