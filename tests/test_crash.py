"""Crash safety: the real command line writing, killed with SIGKILL at random moments.

After every kill the database must open, pass `PRAGMA integrity_check` and SQLCipher's
`cipher_integrity_check`, hold every memory whose command had reported success, and
hold either all of an import or none of it.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from desktop_mem.core.config import Config
from desktop_mem.core.profile import Profile
from tests.fakes.ollama_server import FakeOllama

PASSPHRASE = "crash test passphrase"
KILLS = 12
IMPORT_ROWS = 600

DRIVER = r"""
import sys
from desktop_mem.cli import main
base = sys.argv[1:]
i = 0
while True:
    text = f"crash memory {sys.argv[-1]}-{i}"
    if main([*base[:-1], "memory", "add", text]) == 0:
        print(f"OK {text}", flush=True)
    i += 1
"""


def _check(home: Path, fake: FakeOllama, reported: set[str], imports: list[int]) -> None:
    config = Config.resolve(
        home=home, ollama_host=fake.url, embed_model="fake-embed", passphrase=PASSPHRASE
    )
    with Profile.open(config) as prof:
        assert prof.db.query("PRAGMA integrity_check")[0][0] == "ok"
        assert prof.db.query("PRAGMA cipher_integrity_check") == []
        texts = {m.text for m in prof.memories.list()}
        assert reported <= texts, f"lost: {sorted(reported - texts)[:3]}"
        imported = sum(1 for t in texts if t.startswith("imported row "))
        assert imported % IMPORT_ROWS == 0, f"a half-applied import: {imported} rows"
        imports.append(imported // IMPORT_ROWS)
        assert prof.memories.index.count() <= prof.memories.count()


def test_sigkill_during_writes_loses_nothing_reported(
    home: Path, fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    rng = random.Random(7)
    env = dict(
        os.environ, DESKTOP_MEM_PASSPHRASE=PASSPHRASE, PYTHONPATH=str(Path(__file__).parents[1])
    )
    base = ["--home", str(home), "--ollama-host", fake_ollama.url, "--embed-model", "fake-embed"]
    reported: set[str] = set()
    imports: list[int] = []
    for kill in range(KILLS):
        if kill % 3 == 2:  # an import of new rows, killed part-way or not
            rows = [{"text": f"imported row {kill}-{i} about tea"} for i in range(IMPORT_ROWS)]
            big = tmp_path / f"big-{kill}.json"
            payload = {"format": "desktop-mem/memories", "version": 1, "memories": rows}
            big.write_text(json.dumps(payload))
            cmd = [sys.executable, "-m", "desktop_mem", *base, "memory", "import", str(big)]
        else:  # a stream of adds, each reported when it returned
            cmd = [sys.executable, "-c", DRIVER, *base, str(kill)]
        proc = subprocess.Popen(
            cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
        )
        time.sleep(rng.uniform(0.8, 4.0) if kill % 3 == 2 else rng.uniform(1.0, 2.5))
        proc.send_signal(signal.SIGKILL)
        out, _ = proc.communicate(timeout=30)
        reported |= {line[3:] for line in out.splitlines() if line.startswith("OK ")}
        _check(home, fake_ollama, reported, imports)
    assert len(reported) > 5, "the adds got far enough to be killed in the middle of work"
    print(
        f"crash safety: {KILLS} kills survived, {len(reported)} reported memories kept, imports {imports}"
    )
