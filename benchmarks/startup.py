"""Start-up time: from launching the program to something the user can use.

- cli: `desktop-mem --version` (interpreter and command-line imports), and `desktop-mem
  memory list --limit 1` on a profile of 10,000 memories (opening the encrypted
  database with a passphrase, SQLCipher's 256,000 PBKDF2 rounds included).
- key: opening that profile in-process with a raw keyring key versus a passphrase (the
  key derivation's share).
- window: a process that starts Qt (offscreen), opens the profile and shows the main
  window, until the memory browser is filled, the model server has answered and the
  window has painted: the moment it is usable. Split into imports, profile, window.
- secret service (when dbus-run-session and gnome-keyring are installed): the same three
  commands with the key in a real GNOME Keyring in a private D-Bus session, as a Linux
  desktop user has it; once with the backend detection keyring does when nothing is
  remembered, then as every later run goes (the backend remembered).
- bundle (with --bundle DIR, a `make package` result): `desktop-mem --version` of the
  packaged binary.

Each is run --runs times (default 7) with a warm file cache; medians and maxima.

    python benchmarks/startup.py [--memories 10000] [--bundle dist/desktop-mem-0.1.0-linux-x86_64]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import BENCH_PASSPHRASE, ROOT, scratch_home
from desktop_mem.core.config import Config
from desktop_mem.core.keys.vault import KeyringAccess, Vault
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.profile import Profile
from tests.fakes.keyrings import MemoryKeyring
from tests.fakes.ollama_server import FakeOllama

WINDOW_DRIVER = r"""
import json, sys, time
t_start = time.time()
from PySide6.QtCore import QThread
from PySide6.QtWidgets import QApplication
from desktop_mem.core.config import Config
from desktop_mem.core.profile import Profile
from desktop_mem.core.service import Service
from desktop_mem.ui import tasks
from desktop_mem.ui.app import app_settings, prepare_application
from desktop_mem.ui.main_window import MainWindow
t_imported = time.time()
app = QApplication(["desktop-mem"])
prepare_application(app)
config = Config.resolve(home=sys.argv[1], ollama_host=sys.argv[2], embed_model="fake-embed")
profile = Profile.open(config)
t_opened = time.time()
window = MainWindow(Service(profile), app_settings(config.home))
window.show()
for _ in range(2000):
    app.processEvents()
    if window.context.server.online and not tasks.busy() and window.browser.model.rowCount():
        break
    QThread.msleep(2)
window.grab()  # a full paint
t_usable = time.time()
print(json.dumps({"start": t_start, "imported": t_imported, "opened": t_opened,
                  "usable": t_usable, "rows": window.browser.model.rowCount()}))
window.close()
profile.close()
"""


def _timed(cmd: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, capture_output=True, timeout=300)
    return (time.perf_counter() - start) * 1000


def _summary(values: list[float]) -> dict[str, float]:
    return {"median_ms": round(statistics.median(values), 1), "max_ms": round(max(values), 1)}


SECRET_SERVICE_SHELL = r"""
set -eu
eval "$(printf 'benchmark login' | gnome-keyring-daemon --unlock --components=secrets)"
export GNOME_KEYRING_CONTROL
exec "$@"
"""


def _secret_service_child(home: str, url: str, runs: int) -> None:
    """Inside the private D-Bus session: key the profile into the real keyring, time the
    commands, put the passphrase back."""
    from desktop_mem.core.db.rekey import change_key
    from desktop_mem.core.keys.vault import _remembered_path

    change_key(Path(home), "default", BENCH_PASSPHRASE, "keyring", None, Vault())
    env = {k: v for k, v in os.environ.items() if k != "DESKTOP_MEM_PASSPHRASE"}
    cli = [sys.executable, "-m", "desktop_mem", "--home", home, "--ollama-host", url,
           "--embed-model", "fake-embed"]  # fmt: skip
    commands = {
        "add": [*cli, "memory", "add", "benchmark memory about start-up time"],
        "list": [*cli, "memory", "list", "--limit", "1"],
        "search": [*cli, "memory", "search", "topic 5 memory"],
    }
    out: dict[str, dict[str, float]] = {}
    for name, cmd in commands.items():
        detecting = []
        for _ in range(runs):
            _remembered_path().unlink(missing_ok=True)
            detecting.append(_timed(cmd, env))
        out[f"{name}_detecting"] = _summary(detecting)
        out[name] = _summary([_timed(cmd, env) for _ in range(runs)])
    change_key(Path(home), "default", None, "passphrase", BENCH_PASSPHRASE, Vault())
    print(json.dumps(out))


def _secret_service(
    home: Path, url: str, runs: int, env: dict[str, str]
) -> dict[str, object] | None:
    if not all(shutil.which(t) for t in ("dbus-run-session", "gnome-keyring-daemon")):
        return None
    private = home / "secret-service"
    (private / "run").mkdir(parents=True, mode=0o700, exist_ok=True)
    child_env = {
        k: v for k, v in env.items() if not k.startswith(("DBUS_", "XDG_", "PYTHON_KEYRING"))
    }
    child_env.update(HOME=str(private), XDG_RUNTIME_DIR=str(private / "run"),
                     XDG_DATA_HOME=str(private / "data"), XDG_CACHE_HOME=str(private / "cache"))  # fmt: skip
    proc = subprocess.run(
        ["dbus-run-session", "--", "bash", "-c", SECRET_SERVICE_SHELL, "bench", sys.executable,
         str(Path(__file__).resolve()), "--secret-service-child", str(home), url, str(runs)],
        env=child_env, capture_output=True, text=True, timeout=900, check=False,
    )  # fmt: skip
    if proc.returncode != 0:
        print(f"secret service rows skipped: {proc.stderr.strip()[-300:]}", file=sys.stderr)
        return None
    return dict(json.loads(proc.stdout.strip().splitlines()[-1]))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--memories", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--bundle", help="a built package folder (make package)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--secret-service-child", nargs=3, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.secret_service_child:
        home, url, runs = args.secret_service_child
        _secret_service_child(home, url, int(runs))
        return

    fake = FakeOllama(embed_models={"fake-embed": 1024}).start()
    results: dict[str, object] = {"memories": args.memories, "runs": args.runs}
    with scratch_home() as home:
        config = Config.resolve(home=home, ollama_host=fake.url, embed_model="fake-embed")
        with Profile.open(config) as prof:
            for start in range(0, args.memories, 1000):
                n = min(1000, args.memories - start)
                prof.memories.add_many(
                    [
                        NewMemory(f"memory {start + i} about topic {(start + i) % 97}")
                        for i in range(n)
                    ]
                )
        env = dict(os.environ, PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen",
                   DESKTOP_MEM_PASSPHRASE=BENCH_PASSPHRASE)  # fmt: skip
        # As installed: Python keeps compiled bytecode (a sandbox may turn that off).
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        cli = [sys.executable, "-m", "desktop_mem", "--home", str(home), "--ollama-host", fake.url,
               "--embed-model", "fake-embed"]  # fmt: skip
        _timed([*cli, "memory", "list", "--limit", "1"], env)  # compile once, as an install does
        # The floor: the interpreter alone, to read the other rows against (on a shared
        # machine every row moves with it).
        results["python_floor"] = _summary(
            [_timed([sys.executable, "-c", "pass"], env) for _ in range(args.runs)]
        )
        results["cli_version"] = _summary(
            [_timed([sys.executable, "-m", "desktop_mem", "--version"], env) for _ in range(args.runs)]
        )  # fmt: skip
        results["cli_memory_list"] = _summary(
            [_timed([*cli, "memory", "list", "--limit", "1"], env) for _ in range(args.runs)]
        )

        # The key derivation's share: the same profile re-keyed to a raw keyring key.
        from desktop_mem.core.db.rekey import change_key

        keyring = MemoryKeyring()
        vault = Vault(KeyringAccess(keyring))
        opens: dict[str, list[float]] = {"passphrase": [], "keyring": []}
        for _ in range(args.runs):
            start = time.perf_counter()
            Profile.open(config, vault).close()
            opens["passphrase"].append((time.perf_counter() - start) * 1000)
        change_key(home, "default", BENCH_PASSPHRASE, "keyring", None, vault)
        keyed = Config(**{**config.__dict__, "passphrase": None})
        for _ in range(args.runs):
            start = time.perf_counter()
            Profile.open(keyed, vault).close()
            opens["keyring"].append((time.perf_counter() - start) * 1000)
        results["open_profile"] = {k: _summary(v) for k, v in opens.items()}

        # The command line as a user with a desktop keyring runs it: the key in the
        # keyring (here a file-backed backend that child processes share).
        from tests.fakes.keyrings import FileKeyring

        keyring_file = Path(home) / "bench-keyring.json"
        os.environ["DESKTOP_MEM_TEST_KEYRING_FILE"] = str(keyring_file)
        file_vault = Vault(KeyringAccess(FileKeyring()))
        for (service, account), secret in keyring.secrets.items():
            FileKeyring().set_password(service, account, secret)
        kenv = {k: v for k, v in env.items() if k != "DESKTOP_MEM_PASSPHRASE"}
        kenv.update(PYTHON_KEYRING_BACKEND="tests.fakes.keyrings.FileKeyring",
                    DESKTOP_MEM_TEST_KEYRING_FILE=str(keyring_file))  # fmt: skip
        commands = {
            "add": [*cli, "memory", "add", "benchmark memory about start-up time"],
            "list": [*cli, "memory", "list", "--limit", "1"],
            "search": [*cli, "memory", "search", "topic 5 memory"],
        }
        _timed(commands["search"], kenv)  # the search path's modules, compiled once
        results["cli_keyring"] = {
            name: _summary([_timed(cmd, kenv) for _ in range(args.runs)])
            for name, cmd in commands.items()
        }
        change_key(home, "default", None, "passphrase", BENCH_PASSPHRASE, file_vault)
        secret_service = _secret_service(Path(home), fake.url, args.runs, env)
        if secret_service:
            results["cli_secret_service"] = secret_service

        phases: dict[str, list[float]] = {"imports": [], "profile": [], "window": [], "total": []}
        for _ in range(args.runs):
            t0 = time.time()
            proc = subprocess.run([sys.executable, "-c", WINDOW_DRIVER, str(home), fake.url],
                                  env=env, check=True, capture_output=True, text=True, timeout=300)  # fmt: skip
            marks = json.loads(proc.stdout.strip().splitlines()[-1])
            assert marks["rows"] > 0
            phases["imports"].append((marks["imported"] - t0) * 1000)
            phases["profile"].append((marks["opened"] - marks["imported"]) * 1000)
            phases["window"].append((marks["usable"] - marks["opened"]) * 1000)
            phases["total"].append((marks["usable"] - t0) * 1000)
        results["window"] = {k: _summary(v) for k, v in phases.items()}

        if args.bundle:
            binary = str(Path(args.bundle).resolve() / "desktop-mem")
            results["bundle_version"] = _summary(
                [_timed([binary, "--version"], env) for _ in range(args.runs)]
            )
    fake.stop()

    if args.json:
        print(json.dumps(results, indent=2))
        return
    print(f"start-up, {args.memories:,} memories, {args.runs} runs (median / max ms)")
    rows = [
        ("python -c pass (the floor)", results["python_floor"]),
        ("desktop-mem --version", results["cli_version"]),
        ("desktop-mem memory list (passphrase)", results["cli_memory_list"]),
        ("desktop-mem memory add (keyring)", results["cli_keyring"]["add"]),  # type: ignore[index]
        ("desktop-mem memory list (keyring)", results["cli_keyring"]["list"]),  # type: ignore[index]
        ("desktop-mem memory search (keyring)", results["cli_keyring"]["search"]),  # type: ignore[index]
        *[
            (f"memory {name} (real Secret Service{', detecting' if tail else ''})", s)
            for key, s in dict(results.get("cli_secret_service") or {}).items()  # type: ignore[call-overload]
            for name, _, tail in [key.partition("_")]
        ],
        ("open profile: keyring key", results["open_profile"]["keyring"]),  # type: ignore[index]
        ("open profile: passphrase (PBKDF2)", results["open_profile"]["passphrase"]),  # type: ignore[index]
        ("window: interpreter + imports", results["window"]["imports"]),  # type: ignore[index]
        ("window: open profile (passphrase)", results["window"]["profile"]),  # type: ignore[index]
        ("window: build, fill, first paint", results["window"]["window"]),  # type: ignore[index]
        ("window: launch to usable", results["window"]["total"]),  # type: ignore[index]
    ]
    if "bundle_version" in results:
        rows.append(("packaged binary --version", results["bundle_version"]))
    for label, s in rows:
        print(f"  {label:<40} {s['median_ms']:>8.0f} {s['max_ms']:>8.0f}")  # type: ignore[index]


if __name__ == "__main__":
    main()
