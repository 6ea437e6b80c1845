"""Backups and the recovery code: a lost keyring must not lose the memories.

Everything runs on the real encrypted database and the real command line; the keyring
is the in-memory one from conftest, emptied to play a reinstalled system.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from desktop_mem.core.config import Config
from desktop_mem.core.db import backup, backup_folder
from desktop_mem.core.errors import UsageError
from desktop_mem.core.keys import recovery
from desktop_mem.core.keys.vault import Vault, read_sidecar
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.profile import Profile
from tests import report
from tests.conftest import Run
from tests.fakes.keyrings import MemoryKeyring
from tests.leaks import files_under, scan_files

SECRETS = ("my bank PIN is 4921", "我的护照号码是 E12345678", "the cat is called Mostarda")
CODE = re.compile(r"^    ([0-9A-Z]{4}(?:-[0-9A-Z]{4}){5})$", re.M)


def _make(run: Run) -> str:
    """A keyring profile with memories and a conversation; its recovery code."""
    code, _, err = run("memory", "add", SECRETS[0])
    assert code == 0, err
    found = CODE.search(err)
    assert found, f"no recovery code shown at creation: {err!r}"
    for text in SECRETS[1:]:
        assert run("memory", "add", text)[0] == 0
    return found.group(1)


def _add_conversation(config: Config, vault: Vault) -> None:
    with Profile.open(config, vault) as prof:
        convs = prof.conversations
        conv = convs.create("holiday plans")
        convs.add_message(conv.id, "user", "we fly to Lisbon on the ninth")
        convs.add_message(conv.id, "assistant", "noted: Lisbon on the ninth")


def _contents(home: Path, fake_url: str, vault: Vault, profile: str = "default") -> tuple:
    config = Config.resolve(
        home=home, profile=profile, ollama_host=fake_url, embed_model="fake-embed"
    )
    with Profile.open(config, vault, create=False) as prof:
        memories = sorted(m.text for m in prof.memories.list())
        messages = sorted(r[0] for r in prof.db.query("SELECT content FROM messages"))
    return memories, messages


def test_restore_without_the_keyring_brings_back_every_memory_and_message(
    run: Run, config: Config, vault: Vault, isolated: MemoryKeyring, tmp_path: Path, fake_ollama
) -> None:
    code = _make(run)
    _add_conversation(config, vault)
    before = _contents(config.home, fake_ollama.url, vault)
    file = tmp_path / "backups" / "mine.dmbackup"
    file.parent.mkdir()
    status, out, err = run("backup", str(file))
    assert status == 0, err
    assert "Backed up" in out

    isolated.secrets.clear()  # a reinstalled system: the keyring is empty
    fresh = tmp_path / "new-computer"
    base = ["--home", str(fresh), "--ollama-host", fake_ollama.url, "--embed-model", "fake-embed"]
    status, _, err = run("restore", str(file), base=base)
    assert status == 3 and "recovery code" in err  # no code, no terminal: asks for it
    assert not (fresh / "profiles" / "default").exists()

    os.environ[recovery.RECOVERY_ENV] = code.lower().replace("-", " ")  # as a person types it
    try:
        status, out, err = run("restore", str(file), base=base)
    finally:
        del os.environ[recovery.RECOVERY_ENV]
    assert status == 0, err
    assert "with the recovery code" in out
    assert _contents(fresh, fake_ollama.url, vault) == before
    assert len(before[0]) == len(SECRETS) and len(before[1]) == 2
    report.add("backups")


def test_a_wrong_recovery_code_restores_nothing(
    run: Run, isolated: MemoryKeyring, tmp_path: Path, fake_ollama
) -> None:
    code = _make(run)
    file = tmp_path / "b.dmbackup"
    assert run("backup", str(file))[0] == 0
    isolated.secrets.clear()
    wrong = recovery.new_code()
    assert wrong != code
    fresh = tmp_path / "other"
    os.environ[recovery.RECOVERY_ENV] = wrong
    try:
        status, _, err = run("restore", str(file), base=["--home", str(fresh)])
    finally:
        del os.environ[recovery.RECOVERY_ENV]
    assert status == 3 and "does not belong" in err
    assert not (fresh / "profiles" / "default").exists()


def test_a_backup_holds_no_plaintext_and_no_code(
    run: Run, config: Config, vault: Vault, tmp_path: Path
) -> None:
    code = _make(run)
    _add_conversation(config, vault)
    folder = tmp_path / "synced"
    folder.mkdir()
    assert run("backup", str(folder))[0] == 0
    files = files_under(folder) + [config.home / "profiles" / "default" / "profile.json"]
    assert len(files) == 2
    assert scan_files(files, [*SECRETS, "Lisbon on the ninth", code, code.replace("-", "")]) == []
    header, _ = backup.read_header(files_under(folder)[0])
    assert set(header) >= {"profile", "created_at", "key_mode", "recovery"}
    assert not any(s in json.dumps(header) for s in SECRETS)


def test_the_recovery_code_puts_the_key_back_into_a_reset_keyring(
    run: Run, isolated: MemoryKeyring, fake_ollama
) -> None:
    code = _make(run)
    isolated.secrets.clear()
    status, _, err = run("memory", "list")
    assert status == 3 and "not in the system keyring" in err
    os.environ[recovery.RECOVERY_ENV] = code
    try:
        status, out, err = run("recover")
    finally:
        del os.environ[recovery.RECOVERY_ENV]
    assert status == 0, err
    status, _, err = run("memory", "list")
    assert status == 0 and "3 memories" in err


def test_one_code_survives_key_rotations_and_opens_older_backups(
    run: Run, config: Config, vault: Vault, isolated: MemoryKeyring, tmp_path: Path
) -> None:
    code = _make(run)
    old_backup = tmp_path / "before-rotation.dmbackup"
    assert run("backup", str(old_backup))[0] == 0
    status, _, err = run("rekey")
    assert status == 0, err
    assert not CODE.search(err)  # a rotation keeps the code: nothing new to write down
    assert run("memory", "add", "added after the rotation")[0] == 0
    isolated.secrets.clear()
    os.environ[recovery.RECOVERY_ENV] = code
    try:
        assert run("recover")[0] == 0  # the rotated key, sealed without the code
        fresh = tmp_path / "elsewhere"
        status, _, err = run("restore", str(old_backup), base=["--home", str(fresh)])
        assert status == 0, err  # the old key, long retired, from the old backup
    finally:
        del os.environ[recovery.RECOVERY_ENV]
    assert len(_contents(config.home, "http://127.0.0.1:9", vault)[0]) == 4
    assert len(_contents(fresh, "http://127.0.0.1:9", vault)[0]) == 3


def test_a_passphrase_profile_backs_up_under_its_passphrase(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DESKTOP_MEM_PASSPHRASE", "a long enough passphrase")
    status, _, err = run("memory", "add", SECRETS[2])
    assert status == 0 and not CODE.search(err)  # the passphrase is what opens it
    file = tmp_path / "p.dmbackup"
    assert run("backup", str(file))[0] == 0
    fresh = ["--home", str(tmp_path / "fresh")]
    monkeypatch.setenv("DESKTOP_MEM_PASSPHRASE", "not the passphrase")
    status, _, err = run("restore", str(file), base=fresh)
    assert status == 3
    monkeypatch.setenv("DESKTOP_MEM_PASSPHRASE", "a long enough passphrase")
    status, out, err = run("--profile", "copy", "restore", str(file), base=fresh)
    assert status == 0, err
    assert "Restored profile 'copy'" in out and "1 memories" in out


def test_restore_never_overwrites_a_profile(run: Run, tmp_path: Path) -> None:
    _make(run)
    file = tmp_path / "b.dmbackup"
    assert run("backup", str(file))[0] == 0
    status, _, err = run("restore", str(file))
    assert status == 2 and "already exists" in err
    status, _, err = run("--profile", "second", "restore", str(file))
    assert status == 0, err  # the keyring still has the key: no code needed
    assert run("--profile", "second", "memory", "list")[0] == 0


def test_what_is_not_a_backup_is_refused_in_one_sentence(run: Run, tmp_path: Path) -> None:
    junk = tmp_path / "notes.txt"
    junk.write_text("hello")
    for target in (junk, tmp_path, tmp_path / "missing.dmbackup"):
        status, _, err = run("restore", str(target))
        assert status == 2, err
        assert err.count("\n") == 1 and "Traceback" not in err
    cut = tmp_path / "cut.dmbackup"
    _make(run)
    assert run("backup", str(cut))[0] == 0
    cut.write_bytes(cut.read_bytes()[:5000])  # truncated in transit
    status, _, err = run("--profile", "other", "restore", str(cut))
    assert status == 1 and "damaged" in err and "Traceback" not in err
    report.add("hostile", 4)


def test_a_folder_keeps_the_newest_backups(config: Config, vault: Vault, tmp_path: Path) -> None:
    folder = tmp_path / "auto"
    folder.mkdir()
    (folder / "desktop-mem-default-20200101-000000.dmbackup.partial").write_bytes(b"killed")
    (folder / "unrelated.txt").write_text("keep me")
    with Profile.open(config, vault) as prof:
        prof.memories.add(NewMemory("one memory to keep"))
        made = [backup_folder.back_up_to_folder(prof.db, folder, keep=2).path for _ in range(4)]
        kept = backup_folder.list_backups(folder, "default")
    assert [b.path for b in kept] == made[:1:-1]  # the two newest, newest first
    assert sorted(p.name for p in folder.iterdir() if not p.name.endswith(".dmbackup")) == [
        "unrelated.txt"
    ]
    with pytest.raises(UsageError, match="does not exist"), Profile.open(config, vault) as prof:
        backup_folder.back_up_to_folder(prof.db, tmp_path / "unplugged", keep=2)


def test_a_new_code_replaces_the_old_one(run: Run, isolated: MemoryKeyring, home: Path) -> None:
    old = _make(run)
    status, out, _ = run("recovery-code")
    new = CODE.search(out).group(1)
    assert status == 0 and new != old
    record = read_sidecar(home / "profiles" / "default" / "memory.db")["recovery"]
    with pytest.raises(Exception, match="does not belong"):
        recovery.unseal(record, old)
    assert len(recovery.unseal(record, new)) == 64


KILL_DRIVER = r"""
import sys
from desktop_mem.cli import main
sys.exit(main(sys.argv[1:]))
"""


# The command line with a limit on the size of any file it writes: the kernel kills it
# (SIGXFSZ, which Python ignores unless told) at the write that would cross `limit`, so
# it dies at a chosen byte of what it writes, on any machine, with no timing.
KILL_AT_DRIVER = r"""
import resource, signal, sys
limit = int(sys.argv[1])
signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
from desktop_mem.cli import main
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))
sys.exit(main(sys.argv[2:]))
"""


def killed_backup(base: list[str], file: Path, limit: int, env: dict[str, str]) -> None:
    """Run `backup FILE` and let the kernel kill it at the write that crosses `limit`."""
    cmd = [sys.executable, "-c", KILL_AT_DRIVER, str(limit), *base, "backup", str(file)]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    assert proc.returncode == -signal.SIGXFSZ, (proc.returncode, proc.stderr)


def test_a_backup_killed_half_way_leaves_the_previous_one_whole(
    tmp_path: Path, fake_ollama, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Kill a backup while it copies the database, and again while it writes its file
    (`<file>.partial`): the previous backup stays as it was, and the next open removes
    the copy the killed one left beside the database (a whole profile under its key)."""
    monkeypatch.setenv("DESKTOP_MEM_PASSPHRASE", "kill test passphrase")
    home = tmp_path / "home"
    config = Config.resolve(
        home=home,
        ollama_host=fake_ollama.url,
        embed_model="fake-embed",
        passphrase="kill test passphrase",
    )
    with Profile.open(config) as prof:
        for i in range(400):
            prof.memories.add(NewMemory(f"backup kill test memory number {i} " + "x" * 200))
    file = tmp_path / "b.dmbackup"
    base = ["--home", str(home), "--ollama-host", fake_ollama.url, "--embed-model", "fake-embed"]
    cmd = [sys.executable, "-c", KILL_DRIVER, *base, "backup", str(file)]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    assert subprocess.run(cmd, env=env, capture_output=True).returncode == 0
    previous = file.read_bytes()
    copy_bytes = backup.read_header(file)[0]["bytes"]
    log_bytes = (home / "logs" / "desktop-mem.log").stat().st_size
    assert copy_bytes // 2 > log_bytes + 100_000  # the copy is what crosses the limit
    profile_dir = home / "profiles" / "default"
    partial = file.with_name(file.name + ".partial")
    # half way through the copy; then in the file, past its header, in the database
    for limit in (copy_bytes // 2, copy_bytes + 1):
        killed_backup(base, file, limit, env)
        assert file.read_bytes() == previous, limit  # untouched by the killed one
        assert any(".backup-" in p.name for p in profile_dir.iterdir())  # killed mid-way
        assert partial.exists() == (limit > copy_bytes)
        report.add("kills")
    fresh = tmp_path / "restored"
    status = subprocess.run(
        [sys.executable, "-c", KILL_DRIVER, "--home", str(fresh), "restore", str(file)],
        env=env,
        capture_output=True,
        text=True,
    )
    assert status.returncode == 0, status.stderr
    assert "400 memories" in status.stdout
    # the next open clears what the killed ones left beside the database
    assert (
        subprocess.run([*cmd[:-2], "memory", "list"], env=env, capture_output=True).returncode == 0
    )
    assert not any(".backup-" in p.name for p in profile_dir.iterdir())
    assert subprocess.run(cmd, env=env, capture_output=True).returncode == 0
    assert not partial.exists()
    assert file.read_bytes() != previous


def test_a_backup_replaces_a_new_computers_empty_profile_and_retires_its_key(
    run: Run, config: Config, vault: Vault, isolated: MemoryKeyring, tmp_path: Path, fake_ollama
) -> None:
    """The window's way in: the app made an empty profile on the new computer; the backup
    takes its place, opened with the original code, and the empty one's key goes."""
    code = _make(run)
    file = tmp_path / "b.dmbackup"
    assert run("backup", str(file))[0] == 0
    isolated.secrets.clear()
    fresh = tmp_path / "new-computer"
    fresh_config = Config.resolve(home=fresh, ollama_host=fake_ollama.url, embed_model="fake-embed")
    Profile.open(fresh_config, vault).close()  # a first start: empty, with its own key
    (fresh_key,) = isolated.secrets
    with pytest.raises(Exception, match="does not belong"):
        backup.restore(file, fresh, replace=True, code=recovery.new_code(), vault=vault)
    assert fresh_key in isolated.secrets  # a failed restore changes nothing
    report_ = backup.restore(file, fresh, replace=True, code=code, vault=vault)
    assert report_.memories == 3 and report_.used_recovery_code
    assert fresh_key not in isolated.secrets  # the replaced profile's key is retired
    assert len(isolated.secrets) == 1
    assert _contents(fresh, fake_ollama.url, vault)[0] == sorted(SECRETS)
    side = read_sidecar(fresh / "profiles" / "default" / "memory.db")
    assert recovery.unseal(side["recovery"], code)  # the original code opens it from now on
