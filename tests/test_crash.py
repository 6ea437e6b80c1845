"""Crash safety: the real command line writing, killed with SIGKILL at random moments.

Five workloads take turns on one profile: a stream of `memory add`, a large `memory
import`, `memory reembed`, chat turns with memory extraction, and `rekey` between two
passphrases. After every kill the database must open (with the old or the new key, never
neither), pass `PRAGMA integrity_check` and SQLCipher's `cipher_integrity_check`, hold
every memory and chat turn whose command had reported success, and hold either all of
an import or none of it.
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from desktop_mem.core.config import Config
from desktop_mem.core.errors import WrongKey
from desktop_mem.core.profile import Profile
from tests import report
from tests.fakes.ollama_server import FakeOllama, Reply

PASSPHRASES = ("crash test passphrase A", "crash test passphrase B")
ROUNDS = 4  # kills per workload
IMPORT_ROWS = 600
WORKLOADS = ("add", "import", "reembed", "chat", "rekey")

# Each driver runs its command in a loop, in-process, and prints "OK <what>" only after
# the command returned 0: that is the promise the check holds the store to.
ADD_DRIVER = r"""
import sys
from desktop_mem.cli import main
base, tag = sys.argv[1:-1], sys.argv[-1]
i = 0
while True:
    text = f"crash memory {tag}-{i}"
    if main([*base, "memory", "add", text]) == 0:
        print(f"OK {text}", flush=True)
    i += 1
"""

CHAT_DRIVER = r"""
import sys
from desktop_mem.cli import main
base, tag = sys.argv[1:-1], sys.argv[-1]
i = 0
while True:
    text = f"crash chat {tag}x{i}: my favourite number is {tag}x{i}"
    if main([*base, "chat", text]) == 0:
        print(f"OK {text}", flush=True)
    i += 1
"""

REKEY_DRIVER = r"""
import os, sys
from desktop_mem.cli import main
base, current, other = sys.argv[1:-2], sys.argv[-2], sys.argv[-1]
while True:
    os.environ["DESKTOP_MEM_PASSPHRASE"] = current
    os.environ["DESKTOP_MEM_NEW_PASSPHRASE"] = other
    if main([*base, "rekey"]) == 0:
        print(f"OK {other}", flush=True)
        current, other = other, current
"""

FACT = re.compile(r"crash chat (\d+x\d+)")


def _extract(body: dict[str, Any]) -> dict[str, Any]:
    """The fake model's extraction: one memory per chat turn it is shown."""
    props = (body.get("format") or {}).get("properties", {})
    if "action" in props:  # consolidation: the similar "Favourite number" facts are all new
        return {"action": "ADD"}
    if "memories" not in props:
        return {k: [] for k in props}
    text = " ".join(m.get("content", "") for m in body["messages"])
    return {
        "memories": [
            {"text": f"Favourite number is {t}", "kind": "fact"} for t in FACT.findall(text)[-1:]
        ]
    }


class Ledger:
    """What the killed commands promised, and what every check found."""

    def __init__(self, home: Path, fake: FakeOllama) -> None:
        self.home = home
        self.fake = fake
        self.passphrase = PASSPHRASES[0]
        self.memories: set[str] = set()
        self.chats: set[str] = set()
        self.imports: list[int] = []
        self.rekeys = 0

    def open(self) -> Profile:
        last_error: WrongKey | None = None
        for candidate in (self.passphrase, *[p for p in PASSPHRASES if p != self.passphrase]):
            config = Config.resolve(
                home=self.home,
                ollama_host=self.fake.url,
                embed_model="fake-embed",
                passphrase=candidate,
            )
            try:
                prof = Profile.open(config, create=False)
            except WrongKey as exc:  # a rekey killed after its commit: the other key
                last_error = exc
                continue
            self.passphrase = candidate
            return prof
        raise AssertionError(f"the profile opens with neither key: {last_error}")

    def check(self) -> None:
        with self.open() as prof:
            assert prof.db.query("PRAGMA integrity_check")[0][0] == "ok"
            assert prof.db.query("PRAGMA cipher_integrity_check") == []
            texts = {m.text for m in prof.memories.list()}
            assert self.memories <= texts, f"lost: {sorted(self.memories - texts)[:3]}"
            imported = sum(1 for t in texts if t.startswith("imported row "))
            assert imported % IMPORT_ROWS == 0, f"a half-applied import: {imported} rows"
            self.imports.append(imported // IMPORT_ROWS)
            assert prof.memories.index.count() <= prof.memories.count()
            said = {r[0] for r in prof.db.query("SELECT content FROM messages WHERE role = 'user'")}
            assert self.chats <= said, f"lost chat turns: {sorted(self.chats - said)[:3]}"
            home = prof.db.path.parent
        leftovers = [p.name for p in home.iterdir() if p.name.endswith((".rekey", ".old"))]
        assert not leftovers, f"a key change left files behind: {leftovers}"


def _command(workload: str, base: list[str], tag: str, ledger: Ledger, tmp: Path) -> list[str]:
    if workload == "add":
        return [sys.executable, "-c", ADD_DRIVER, *base, tag]
    if workload == "import":
        rows = [{"text": f"imported row {tag}-{i} about tea"} for i in range(IMPORT_ROWS)]
        big = tmp / f"big-{tag}.json"
        big.write_text(
            json.dumps({"format": "desktop-mem/memories", "version": 1, "memories": rows})
        )
        return [sys.executable, "-m", "desktop_mem", *base, "memory", "import", str(big)]
    if workload == "reembed":
        return [sys.executable, "-m", "desktop_mem", *base, "memory", "reembed"]
    if workload == "chat":
        return [sys.executable, "-c", CHAT_DRIVER, *base, tag]
    other = next(p for p in PASSPHRASES if p != ledger.passphrase)
    return [sys.executable, "-c", REKEY_DRIVER, *base, ledger.passphrase, other]


PROGRESSING = ("add", "chat", "rekey")  # drivers that print "OK ..." after each success


def _oks(proc: subprocess.Popen[str], count: int) -> str:
    """Read the driver's output up to its `count`-th acknowledged write (blocking reads
    of whole lines: a select() on the pipe misses lines the text stream has buffered;
    a workload that hangs is bounded by the test's own timeout)."""
    assert proc.stdout is not None
    seen = ""
    for line in proc.stdout:
        seen += line
        if line.startswith("OK "):
            count -= 1
            if not count:
                return seen
    raise AssertionError(f"the workload acknowledged nothing: {seen[-300:]!r}")


def _settle(workload: str, out: str, ledger: Ledger) -> None:
    done = [line[3:] for line in out.splitlines() if line.startswith("OK ")]
    if workload == "add":
        ledger.memories |= set(done)
    elif workload == "chat":
        ledger.chats |= set(done)
        ledger.memories |= {f"Favourite number is {FACT.search(t)[1]}" for t in done}  # type: ignore[index]
    elif workload == "rekey" and done:
        ledger.passphrase = done[-1]
        ledger.rekeys += len(done)


def test_sigkill_during_writes_loses_nothing_reported(
    home: Path, fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    rng = random.Random(7)
    fake_ollama.json_responder = _extract
    # answers stream slowly enough to be killed in the middle of one
    fake_ollama.responder = lambda body: Reply("Noted, I will remember that.", chunk_delay=0.02)
    base = ["--home", str(home), "--ollama-host", fake_ollama.url, "--embed-model", "fake-embed"]
    ledger = Ledger(home, fake_ollama)
    kills = 0
    for round_ in range(ROUNDS):
        for workload in WORKLOADS:
            tag = f"{round_}{WORKLOADS.index(workload)}"
            env = dict(
                os.environ,
                DESKTOP_MEM_PASSPHRASE=ledger.passphrase,
                PYTHONPATH=str(Path(__file__).parents[1]),
            )
            cmd = _command(workload, base, tag, ledger, tmp_path)
            proc = subprocess.Popen(
                cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
            )
            first = ""
            if workload in PROGRESSING:
                # on observed progress, not a clock: two to four acknowledged writes,
                # then a random moment later (a slow machine only makes this wait longer)
                first = _oks(proc, rng.randint(2, 4))
                time.sleep(rng.uniform(0.0, 1.5))
            else:  # one command: killed at a random moment, whether or not it finished
                time.sleep(rng.uniform(0.8, 3.5))
            proc.send_signal(signal.SIGKILL)
            out, _ = proc.communicate(timeout=30)
            out = first + out
            kills += 1
            _settle(workload, out, ledger)
            ledger.check()
            report.add("kills")
    assert len(ledger.memories) > 10 and ledger.chats and ledger.rekeys, (
        "every workload got far enough to be killed in the middle of work"
    )
    print(
        f"crash safety: {kills} kills survived; kept {len(ledger.memories)} reported memories, "
        f"{len(ledger.chats)} chat turns, {ledger.rekeys} key changes; imports {ledger.imports}"
    )
