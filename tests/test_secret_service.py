"""Against a real Secret Service: gnome-keyring in a private D-Bus session.

`.ci/run` installs gnome-keyring, libsecret-tools and dbus; elsewhere this is skipped
with the reason. The whole flow runs in child processes inside `dbus-run-session`,
so nothing touches the developer's own keyring.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

NEEDED = ("dbus-run-session", "gnome-keyring-daemon", "secret-tool")
missing = [tool for tool in NEEDED if shutil.which(tool) is None]

pytestmark = [
    pytest.mark.secret_service,
    pytest.mark.skipif(
        bool(missing),
        reason=f"no real Secret Service here (missing {', '.join(missing)}); .ci/run installs it",
    ),
]

SCRIPT = r"""
set -eu
eval "$(printf 'test-login-password' | gnome-keyring-daemon --unlock --components=secrets)"
export GNOME_KEYRING_CONTROL
PY="$1"; HOME_DIR="$2"
DM="$PY -m desktop_mem --home $HOME_DIR --ollama-host http://127.0.0.1:9 --embed-model fake-embed"
$PY -c 'import keyring; print("backend", type(keyring.get_keyring()).__module__)'
$DM memory add "stored with a key from the real keyring" --kind fact 2>/dev/null
printf 'remembered '; cat "$HOME/.cache/desktop-mem/keyring-backend"
$DM memory list --json > "$HOME_DIR/list.json"
# A remembered backend that does not work here is ignored: detection decides again.
echo keyring.backends.macOS.Keyring > "$HOME/.cache/desktop-mem/keyring-backend"
$DM memory list --json > "$HOME_DIR/list-redetected.json"
printf 'remembered-again '; cat "$HOME/.cache/desktop-mem/keyring-backend"
ACCOUNT=$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["key_account"])' "$HOME_DIR/profiles/default/profile.json")
printf 'key '; secret-tool lookup service desktop-mem username "$ACCOUNT"; echo
"""


def test_profile_key_lives_in_a_real_secret_service(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin:" + str(Path(sys.executable).parent),
        "HOME": str(tmp_path),
        "XDG_DATA_HOME": str(tmp_path / "xdg-data"),
        "XDG_RUNTIME_DIR": str(tmp_path / "run"),
        "PYTHONPATH": str(Path(__file__).resolve().parents[1]),
    }
    (tmp_path / "run").mkdir(mode=0o700)
    proc = subprocess.run(
        ["dbus-run-session", "--", "bash", "-c", SCRIPT, "probe", sys.executable, str(home)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr
    lines = dict(line.split(" ", 1) for line in proc.stdout.splitlines() if " " in line)
    assert lines["backend"].startswith("keyring.backends.SecretService")
    key = lines["key"].strip()
    assert len(key) == 64 and int(key, 16) >= 0, "a 32-byte raw key, hex-encoded"
    items = json.loads((home / "list.json").read_text("utf-8"))
    assert [m["text"] for m in items] == ["stored with a key from the real keyring"]
    # The backend detection found is remembered, so later commands skip detecting it.
    assert lines["remembered"].strip() == "keyring.backends.SecretService.Keyring"
    assert json.loads((home / "list-redetected.json").read_text("utf-8")) == items
    assert lines["remembered-again"].strip() == "keyring.backends.SecretService.Keyring"
    sidecar = json.loads((home / "profiles" / "default" / "profile.json").read_text("utf-8"))
    assert sidecar["key_mode"] == "keyring"
    assert key not in (home / "profiles" / "default" / "profile.json").read_text("utf-8")


RECOVERY_SCRIPT = r"""
set -eu
eval "$(printf 'test-login-password' | gnome-keyring-daemon --unlock --components=secrets)"
export GNOME_KEYRING_CONTROL
PY="$1"; HOME_DIR="$2"; FRESH="$3"; OUT="$4"
DM="$PY -m desktop_mem --ollama-host http://127.0.0.1:9 --embed-model fake-embed"
$DM --home "$HOME_DIR" memory add "kept safe by a recovery code" 2> "$OUT/created.txt"
$DM --home "$HOME_DIR" backup "$OUT/b.dmbackup"
# profile.json lost after a rotation: the rotated key is found under its own account
$DM --home "$HOME_DIR" rekey
rm "$HOME_DIR/profiles/default/profile.json"
$DM --home "$HOME_DIR" memory list --json > "$OUT/after-rotation.json"
# the keyring is wiped: only the recovery code opens the backup
secret-tool clear service desktop-mem
printf 'left '; secret-tool search --all service desktop-mem 2>/dev/null | grep -c '^\[' || true
CODE=$(grep -Eo '[0-9A-Z]{4}(-[0-9A-Z]{4}){5}' "$OUT/created.txt")
DESKTOP_MEM_RECOVERY_CODE="$CODE" $DM --home "$FRESH" restore "$OUT/b.dmbackup"
$DM --home "$FRESH" memory list --json > "$OUT/restored.json"
"""


def test_a_wiped_secret_service_loses_nothing_with_the_recovery_code(tmp_path: Path) -> None:
    home, fresh, out = tmp_path / "home", tmp_path / "fresh", tmp_path / "out"
    for d in (home, fresh, out):
        d.mkdir()
    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin:" + str(Path(sys.executable).parent),
        "HOME": str(tmp_path),
        "XDG_DATA_HOME": str(tmp_path / "xdg-data"),
        "XDG_RUNTIME_DIR": str(tmp_path / "run"),
        "PYTHONPATH": str(Path(__file__).resolve().parents[1]),
    }
    (tmp_path / "run").mkdir(mode=0o700)
    proc = subprocess.run(
        ["dbus-run-session", "--", "bash", "-c", RECOVERY_SCRIPT, "probe", sys.executable,
         str(home), str(fresh), str(out)],
        capture_output=True, text=True, timeout=180, env=env,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr + proc.stdout
    assert "Restored profile 'default' with the recovery code" in proc.stdout
    assert "left 0" in proc.stdout, "the keyring held no desktop-mem key before the restore"
    for name in ("after-rotation.json", "restored.json"):
        items = json.loads((out / name).read_text("utf-8"))
        assert [m["text"] for m in items] == ["kept safe by a recovery code"], name


COPIES_SCRIPT = r"""
set -eu
eval "$(printf 'test-login-password' | gnome-keyring-daemon --unlock --components=secrets)"
export GNOME_KEYRING_CONTROL
"$1" -c '
import sys
from pathlib import Path
from desktop_mem.core.config import Config
from desktop_mem.core.keys.vault import Vault
from tests.core.test_profile_identity import legacy_copies
root = Path(sys.argv[1])
config = Config.resolve(home=root / "unused", ollama_host="http://127.0.0.1:9", embed_model="fake-embed")
n = legacy_copies(config, Vault(), root / "plain", rotated=False)
n += legacy_copies(config, Vault(), root / "rotated", rotated=True)
print("profiles", n)
' "$2"
"""


def test_same_named_and_copied_profiles_each_keep_a_key_in_a_real_secret_service(
    tmp_path: Path,
) -> None:
    """Issue 28 against gnome-keyring: two data folders both holding `default` (one a copy
    of the other, as the old version left them sharing `profile:default`), and a copy
    under another name: each migrates on open, each is rekeyed, every one still opens."""
    from tests import report

    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin:" + str(Path(sys.executable).parent),
        "HOME": str(tmp_path),
        "XDG_DATA_HOME": str(tmp_path / "xdg-data"),
        "XDG_RUNTIME_DIR": str(tmp_path / "run"),
        "PYTHONPATH": str(Path(__file__).resolve().parents[1]),
    }
    (tmp_path / "run").mkdir(mode=0o700)
    proc = subprocess.run(
        ["dbus-run-session", "--", "bash", "-c", COPIES_SCRIPT, "probe", sys.executable,
         str(tmp_path / "data")],
        capture_output=True, text=True, timeout=300, env=env,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr + proc.stdout
    assert "profiles 5" in proc.stdout
    report.add("profile_copies", 5)


LOCKED_SCRIPT = r"""
set -u
eval "$(printf 'test-login-password' | gnome-keyring-daemon --unlock --components=secrets)"
export GNOME_KEYRING_CONTROL
PY="$1"; HOME_DIR="$2"
DM="$PY -m desktop_mem --home $HOME_DIR --ollama-host http://127.0.0.1:9 --embed-model fake-embed"
$DM memory add "kept behind a locked keyring" 2>/dev/null
# Lock the login collection: the unlock prompt asked for next cannot be shown here (no
# display), which the Secret Service reports as a dismissed prompt.
$PY -c 'import secretstorage; secretstorage.get_default_collection(secretstorage.dbus_init()).lock()'
$DM memory list --json > "$HOME_DIR/locked.out" 2> "$HOME_DIR/locked.err"
echo "locked-exit $?"
"""


def test_a_locked_secret_service_is_said_to_be_locked(tmp_path: Path) -> None:
    """A locked keyring whose unlock prompt is dismissed is not "no keyring": one
    sentence that says it is locked, and the locked exit code (3)."""
    home = tmp_path / "home"
    home.mkdir()
    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin:" + str(Path(sys.executable).parent),
        "HOME": str(tmp_path),
        "XDG_DATA_HOME": str(tmp_path / "xdg-data"),
        "XDG_RUNTIME_DIR": str(tmp_path / "run"),
        "PYTHONPATH": str(Path(__file__).resolve().parents[1]),
    }
    (tmp_path / "run").mkdir(mode=0o700)
    proc = subprocess.run(
        ["dbus-run-session", "--", "bash", "-c", LOCKED_SCRIPT, "probe", sys.executable,
         str(home)],
        capture_output=True, text=True, timeout=120, env=env,
    )  # fmt: skip
    assert "locked-exit 3" in proc.stdout, proc.stdout + proc.stderr
    err = (home / "locked.err").read_text("utf-8")
    assert err.startswith("desktop-mem: The system keyring is locked") and err.count("\n") == 1, err
    assert (home / "locked.out").read_text("utf-8") == ""
