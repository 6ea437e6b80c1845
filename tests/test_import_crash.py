"""An import killed with SIGKILL part way resumes when run again: nothing is duplicated,
no conversation is left half-stored, and the database is whole."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.imports import synthetic_export
from desktop_mem.core.config import Config
from desktop_mem.core.profile import Profile
from tests import report
from tests.fakes.ollama_server import FakeOllama

PASSPHRASE = "import crash passphrase"
CONVERSATIONS, TURNS = 400, 4

# Imports the export, printing each conversation read; with a number, it stops there
# (in the middle of a batch, three stored before it) until it is killed.
DRIVER = r"""
import sys
from pathlib import Path
from desktop_mem.core.config import Config
from desktop_mem.core.service import Service
home, host, export, hold = sys.argv[1:]
config = Config.resolve(home=Path(home), ollama_host=host, embed_model="fake-embed")

def progress(done, total):
    print(f"READ {done}", flush=True)
    if done == int(hold):
        sys.stdin.readline()  # nothing ever comes: the test kills it here

with Service.open(config) as app:
    app.imports.run(Path(export), propose=True, progress=progress)
print("DONE", flush=True)
"""


def _read_until(proc: subprocess.Popen[str], count: int) -> None:
    """Wait for the import to report `count` conversations read, however slow the
    machine: only its end (or the test's own timeout) stops the wait. Blocking reads
    of whole lines: a select() on the pipe would not see lines the text stream has
    already buffered, and would wait for ever once the import stops at `count`."""
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("READ ") and int(line.split()[1]) >= count:
            return
    raise AssertionError("the import ended before it was killed")


# It waits on the import's own progress (a slow, busy machine only makes it wait
# longer), so the suite's 120 s per test is not its bound.
@pytest.mark.timeout(900)
def test_an_import_killed_part_way_resumes_without_duplicates(
    home: Path, fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    export = tmp_path / "conversations.json"
    kept = synthetic_export(export, CONVERSATIONS, TURNS)
    env = dict(os.environ, DESKTOP_MEM_PASSPHRASE=PASSPHRASE,
               PYTHONPATH=str(Path(__file__).parents[1]))  # fmt: skip
    args = [sys.executable, "-c", DRIVER, str(home), fake_ollama.url, str(export)]
    proc = subprocess.Popen(
        [*args, "180"], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    _read_until(proc, 180)  # three batches of 50 stored, the fourth being read
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=30)
    report.add("kills")
    config = Config.resolve(
        home=home, ollama_host=fake_ollama.url, embed_model="fake-embed", passphrase=PASSPHRASE
    )
    with Profile.open(config, create=False) as prof:
        assert prof.db.query("PRAGMA integrity_check")[0][0] == "ok"
        stored = prof.db.query("SELECT count(*) FROM conversations")[0][0]
        assert stored == 150
        # whole conversations only: each stored one has every message of its kept branch
        assert prof.db.query(
            "SELECT count(*) FROM conversations c WHERE (SELECT count(*) FROM messages m "
            "WHERE m.conversation_id = c.id) != ?",
            (TURNS * 2,),
        ) == [(0,)]
    again = subprocess.run([*args, "0"], env=env, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0 and "DONE" in again.stdout, again.stderr[-2000:]
    with Profile.open(config, create=False) as prof:
        assert prof.db.query("SELECT count(*) FROM conversations")[0][0] == CONVERSATIONS
        assert prof.db.query("SELECT count(*) FROM messages")[0][0] == kept
        assert prof.db.query("SELECT count(DISTINCT origin_key) FROM conversations") == [
            (CONVERSATIONS,)
        ]
        assert prof.db.query("SELECT count(*) FROM messages_fts")[0][0] == kept
