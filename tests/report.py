"""The reliability report: counters the tests add to, printed at the end of every run
(see `pytest_terminal_summary` in conftest.py) and quoted in docs/security.md."""

from __future__ import annotations

import threading
from collections import Counter

_lock = threading.Lock()
COUNTS: Counter[str] = Counter()

# (counter, how it reads in the table), in table order
ROWS = [
    ("kills", "kills survived (SIGKILL, or SIGXFSZ at a byte: writes, turns, rekey, backups)"),
    ("faults", "model-server faults injected (HTTP errors, drops, cut streams, garbage, bad JSON)"),
    ("inputs", "generated bad inputs (memory text, queries, import files)"),
    ("hostile", "hostile command lines (argument bytes, huge numbers, dates, hosts)"),
    ("key_attacks", "ways to lose a key tried (copies, races, tampering, WAL)"),
    ("backups", "profiles restored from a backup with only the recovery code"),
    ("mcp_attacks", "ways to take another app's rights over MCP tried (names, keys)"),
    ("mcp_frames", "malformed MCP frames sent raw (JSON, surrogates, ids, numbers, size, ^C)"),
    ("app_writes", "an app's writes aimed at memories it did not write (pinned, yours, sleep)"),
    ("logs", "floods and forged text aimed at the logs (access log, log file)"),
    ("id_reuse", "deleted ids checked never to come back (memories, messages, documents…)"),
    ("profile_copies", "copied or same-named profiles rekeyed, each still opening"),
    (
        "backup_headers",
        "backups with a changed or missing header field restored (refused, or a new code)",
    ),
    ("backup_folder", "files planted in or beside a backup folder (links, FIFOs, dates)"),
    ("doc_attacks", "hostile files in a watched folder (links, FIFOs, names, XML, Word)"),
    ("sync_attacks", "hostile files planted in the sync folder (links, FIFOs, sizes, depth)"),
    ("disks", "full and read-only disks (rekey, documents, a first message, a checkpoint)"),
    ("forget_checks", "forgotten facts asked again and looked for in the whole prompt"),
    ("leak_files", "files scanned for plaintext after a session"),
    ("leaks", "plaintext leaks found"),
]


def add(counter: str, n: int = 1) -> None:
    with _lock:
        COUNTS[counter] += n


def table() -> list[str]:
    width = max(len(label) for _, label in ROWS)
    lines = [f"{'reliability report':<{width}}  count", f"{'-' * width}  -----"]
    lines += [f"{label:<{width}}  {COUNTS[key]:>5}" for key, label in ROWS]
    return lines
