"""Two computers, one memory, with real Syncthing: `make sync-demo`.

Starts two Syncthing instances (Debian's `syncthing`) on 127.0.0.1 only, each with its
own copy of one shared folder, and two desktop-mem profiles ("laptop" and "desktop") in
a temporary data folder, each syncing through its own copy, with the command line a
user would type. It shows a memory told to the laptop reaching the desktop, both
changing things at once, a delete reaching the other computer, and that the folder
holds only ciphertext. Nothing leaves 127.0.0.1; everything is deleted at the end
(`--keep DIR` keeps it, to open a profile in the window afterwards with
`desktop-mem --home DIR/laptop`).

    python tools/sync_demo.py [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PASSPHRASE = "sync demo passphrase"


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--keep", help="a folder to use and keep (default: a temporary one)")
    args = ap.parse_args()
    from tests.engines import syncthing
    from tests.fakes.ollama_server import FakeOllama

    if not syncthing.available():
        print("This demo needs Syncthing: sudo apt-get install syncthing", file=sys.stderr)
        return 1
    base = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="desktop-mem-sync-"))
    base.mkdir(parents=True, exist_ok=True)
    fake = FakeOllama().start()
    nodes: list[syncthing.Syncthing] = []
    try:
        print(f"Two Syncthing instances on 127.0.0.1, in {base} ...")
        nodes = syncthing.pair(
            [base / "syncthing-laptop", base / "syncthing-desktop"],
            [base / "laptop-Sync", base / "desktop-Sync"],
        )
        for node in nodes:
            # every socket it holds (listening or connected), each local address once
            addresses = sorted(set(node.listening_addresses()))
            print(f"  {node.name}: its sockets are on {', '.join(addresses)}")
        env = dict(os.environ, DESKTOP_MEM_PASSPHRASE=PASSPHRASE, PYTHONPATH=str(ROOT))

        def cli(who: str, *words: str, show: bool = True) -> str:
            if show:
                print(f"\n[{who}] $ desktop-mem {' '.join(words)}")
            done = subprocess.run(
                [sys.executable, "-m", "desktop_mem", "--home", str(base / who),
                 "--ollama-host", fake.url, "--embed-model", "fake-embed", *words],
                env=env, capture_output=True, text=True,
            )  # fmt: skip
            if show:
                print((done.stdout + done.stderr).rstrip())
            if done.returncode:
                raise SystemExit(done.returncode)
            return done.stdout

        def until(what, why: str) -> None:
            deadline = time.monotonic() + 300
            while not what():
                if time.monotonic() > deadline:
                    raise SystemExit(f"gave up waiting: {why}")
                time.sleep(0.5)

        def has(who: str, text: str) -> bool:
            cli(who, "sync", "now", "--json", show=False)
            return text in cli(who, "memory", "list", "--json", show=False)

        cli("laptop", "memory", "add", "I grow chillies on the windowsill")
        cli("laptop", "sync", "setup", str(nodes[0].folder), "--name", "laptop")
        nodes[0].scan()
        print("\n... Syncthing carries the laptop's files to the desktop's folder")
        until(lambda: any(nodes[1].folder.glob("desktop-mem-*/*/status.dmd")), "the folder")
        code = None
        print("\nThe demo profile is protected by a passphrase, so the desktop joins with a "
              "pairing code shown on the laptop:")  # fmt: skip
        code = json.loads(cli("laptop", "sync", "pair", "--json"))["pairing_code"]
        nodes[0].scan()
        until(lambda: any(nodes[1].folder.glob("desktop-mem-*/pair-*.dmp")), "the offer")
        cli("desktop", "sync", "join", str(nodes[1].folder), "--code", code, "--name", "desktop")
        cli("desktop", "memory", "list")
        cli("desktop", "memory", "add", "我下周去成都出差")
        cli("laptop", "memory", "add", "My passport expires in May")
        cli("desktop", "sync", "now")
        cli("laptop", "sync", "now")
        for node in nodes:
            node.scan()
        until(lambda: has("laptop", "成都"), "the desktop's memory on the laptop")
        until(lambda: has("desktop", "passport"), "the laptop's memory on the desktop")
        cli("laptop", "memory", "list")
        mid = [m["id"] for m in json.loads(cli("laptop", "memory", "list", "--json", show=False))
               if "chillies" in m["text"]][0]  # fmt: skip
        cli("laptop", "memory", "delete", str(mid))
        cli("laptop", "sync", "now")
        nodes[0].scan()
        until(lambda: not has("desktop", "chillies"), "the delete on the desktop")
        cli("desktop", "memory", "list")
        cli("desktop", "sync", "status")
        raw = b"".join(p.read_bytes() for p in nodes[1].folder.rglob("*") if p.is_file())
        print(f"\nThe folder: {len(raw):,} bytes in "
              f"{sum(1 for p in nodes[1].folder.rglob('*') if p.is_file())} files; "
              f"'passport' in it: {b'passport' in raw}; '成都' in it: {'成都'.encode() in raw}")  # fmt: skip
        return 0
    finally:
        for node in nodes:
            node.stop()
        fake.stop()
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
