"""The Qt binding survives a long stream: every streamed piece of an answer is a signal
emitted from a worker thread, and PySide6 6.12.0 lost a reference to True on every emit
until the interpreter aborted (a few thousand emits: one long answer)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

STREAM = r"""
import os, sys, time
os.environ["QT_QPA_PLATFORM"] = "offscreen"
sys.path.insert(0, sys.argv[1])
from PySide6.QtWidgets import QApplication
from desktop_mem.ui import tasks

app = QApplication([])
pieces, finished = [], []

def answer(on_piece):
    for n in range(20_000):
        on_piece("tok ")
    return "done"

tasks.run(answer, piece=pieces.append, done=finished.append)
deadline = time.time() + 120
while not finished and time.time() < deadline:
    app.processEvents()
app.processEvents()
print(len(pieces), finished)
"""


def test_twenty_thousand_streamed_pieces_do_not_crash_the_window() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", STREAM, str(ROOT)], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-1500:]
    assert proc.stdout.split()[0] == "20000" and "done" in proc.stdout
