"""Smoke test of a built package: the binary itself, headless, against the fake Ollama
server, with nothing from the source tree on its path.

    python packaging/smoke_test.py dist/desktop-mem-<version>-linux-<arch>

1. `desktop-mem --version`, timed (a cold start of the bundle).
2. `desktop-mem self-test`: in a fresh, temporary profile, SQLCipher and sqlite-vec load
   from the bundle, two memories are embedded and found again (English and Chinese),
   Qt starts offscreen, the icon and the Chinese translation load, the window opens.
3. In a fresh data folder, as a user would (`user_steps`, which the test suite runs
   against the source install too): `memory add`, `memory search` finds it in English
   and in Chinese and finds nothing for what it is not about, `memory list`.
4. With a real Secret Service (gnome-keyring in a private D-Bus session, when
   installed): a profile keyed from the keyring, and `doctor` with every check ok.
5. `install.sh` into a temporary prefix; the installed `desktop-mem` runs, the menu entry
   points at it; `install.sh --uninstall` removes it.

Exits 0 when everything passed. Runs from the source tree (the fake server lives in
tests/fakes), with any Python that has numpy.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.fakes.ollama_server import FakeOllama  # noqa: E402

ID = "io.github.desktopmem.DesktopMem"


KEYRING_SCRIPT = r"""
set -eu
eval "$(printf 'smoke-login-password' | gnome-keyring-daemon --unlock --components=secrets)"
export GNOME_KEYRING_CONTROL
unset DESKTOP_MEM_PASSPHRASE
"$@" memory add "kept with a key from the real keyring"
"$@" memory list
"$@" doctor
ACCOUNT=$(sed -n 's/.*"key_account": "\([^"]*\)".*/\1/p' "$HOME/../keyring-data/profiles/default/profile.json")
printf 'keyring entry: '; secret-tool lookup service desktop-mem username "$ACCOUNT" | tr -d '\n' | wc -c
"""


def keyring_session(binary: Path, url: str, work: Path, failures: list[str]) -> None:
    """The bundled keyring backends against a real Secret Service (gnome-keyring in a
    private D-Bus session): a new profile keyed from the keyring, and `doctor` all ok."""
    needed = ("dbus-run-session", "gnome-keyring-daemon", "secret-tool")
    if not all(shutil.which(t) for t in needed):
        print(f"skip keyring session (needs {', '.join(needed)})")
        return
    (work / "run").mkdir(mode=0o700, exist_ok=True)
    env = {"PATH": "/usr/bin:/bin", "HOME": str(work / "user"), "LANG": "C.UTF-8",
           "XDG_RUNTIME_DIR": str(work / "run"), "XDG_DATA_HOME": str(work / "user" / "xdg")}  # fmt: skip
    cmd = [str(binary), "--home", str(work / "keyring-data"), "--ollama-host", url,
           "--embed-model", "fake-embed"]  # fmt: skip
    start = time.perf_counter()
    proc = subprocess.run(
        ["dbus-run-session", "--", "bash", "-c", KEYRING_SCRIPT, "smoke", *cmd],
        env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    took = time.perf_counter() - start
    out = proc.stdout
    ok = proc.returncode == 0 and "kept with a key" in out and "keyring entry: 64" in out
    ok = ok and "FIX" not in out and "SecretService" in out
    print(f"{'ok ' if ok else 'FAIL'} {'keyring session + doctor':<28} {took * 1000:7.0f} ms")
    if not ok:
        failures.append("keyring session")
        print(out[-3000:], proc.stderr[-3000:], sep="\n")


def user_steps(program: list[str], base: list[str]) -> list[tuple[str, list[str], str, str]]:
    """What a new user does first, as (name, command line, what its output must say,
    what it must not):
    `program` runs desktop-mem, `base` is it with the data folder and the fake server.
    The same steps run against the source install in the test suite
    (tests/test_packaging.py), so a break shows there before a package is built. The
    fake model's meaning is the words two texts share: "where does my cat live?" is
    near the memory by "cat" (and the fake cannot know that "live" is "住")."""
    memory = "我住在杭州, with a cat named Mochi"
    return [
        ("--version", [*program, "--version"], "desktop-mem", ""),
        ("self-test", [*base, "self-test"], "window", ""),
        ("memory add", [*base, "memory", "add", memory], "", ""),
        ("memory search (English)", [*base, "memory", "search", "where does my cat live?"],
         "Mochi", ""),
        ("memory search (Chinese)", [*base, "memory", "search", "杭州"], "Mochi", ""),
        ("memory search (nothing)", [*base, "memory", "search", "what is my blood type?"],
         "", "Mochi"),
        ("memory list", [*base, "memory", "list"], "Mochi", ""),
    ]  # fmt: skip


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    bundle = Path(sys.argv[1]).resolve()
    binary = bundle / "desktop-mem"
    if not binary.exists():
        print(f"smoke test: no {binary}: build first (packaging/build-linux.sh)")
        return 1
    fake = FakeOllama().start()
    failures: list[str] = []
    with tempfile.TemporaryDirectory(prefix="desktop-mem-smoke-") as tmp:
        work = Path(tmp)
        env = {
            "PATH": "/usr/bin:/bin",
            "HOME": str(work / "user"),  # no real keyring, config or data of whoever runs it
            "LANG": "C.UTF-8",
            "QT_QPA_PLATFORM": "offscreen",
            "DESKTOP_MEM_PASSPHRASE": "smoke test passphrase",
        }
        (work / "user").mkdir()
        base = [str(binary), "--home", str(work / "data"), "--ollama-host", fake.url,
                "--embed-model", "fake-embed"]  # fmt: skip

        def step(name: str, args: list[str], expect: str = "", absent: str = "") -> str:
            start = time.perf_counter()
            proc = subprocess.run(args, env=env, capture_output=True, text=True, timeout=300)
            took = time.perf_counter() - start
            ok = proc.returncode == 0 and expect in proc.stdout
            ok = ok and not (absent and absent in proc.stdout)
            print(f"{'ok ' if ok else 'FAIL'} {name:<28} {took * 1000:7.0f} ms")
            if not ok:
                failures.append(name)
                print(proc.stdout[-3000:], proc.stderr[-3000:], sep="\n")
            return proc.stdout

        for name, args, expect, absent in user_steps([str(binary)], base):
            out = step(name, args, expect, absent)
            if name == "self-test":
                print("    " + out.strip().replace("\n", "\n    "))
        keyring_session(binary, fake.url, work, failures)

        prefix = work / "prefix"
        install = bundle / "install.sh"
        env_install = {**env, "PREFIX": str(prefix)}
        proc = subprocess.run(["sh", str(install)], env=env_install, capture_output=True, text=True)
        desktop = prefix / "share" / "applications" / f"{ID}.desktop"
        installed = prefix / "bin" / "desktop-mem"
        ok = proc.returncode == 0 and installed.exists() and desktop.exists()
        ok = ok and f"Exec={prefix}/lib/desktop-mem/desktop-mem" in desktop.read_text()
        ok = ok and any((prefix / "share" / "icons" / "hicolor").rglob(f"{ID}.png"))
        print(f"{'ok ' if ok else 'FAIL'} install.sh")
        if not ok:
            failures.append("install.sh")
            print(proc.stdout, proc.stderr)
        else:
            step("installed desktop-mem", [str(installed), "--version"], "desktop-mem")
            subprocess.run(["sh", str(install), "--uninstall"], env=env_install, check=True,
                           capture_output=True)  # fmt: skip
            if installed.exists() or desktop.exists():
                failures.append("uninstall")
                print("FAIL install.sh --uninstall left files")
    fake.stop()
    print("smoke test: " + ("passed" if not failures else f"FAILED: {', '.join(failures)}"))
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
