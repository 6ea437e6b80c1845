"""Shared helpers for the benchmarks: the offline embedding server, a throwaway
profile, and small statistics."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED_BENCH = ROOT.parent / "shared" / "bench"
EMBED_SERVER = SHARED_BENCH / "embed_server.py"
BENCH_PASSPHRASE = "benchmark-only passphrase"


@contextmanager
def embed_server(script: Path = EMBED_SERVER, backend: str = "minilm") -> Iterator[str]:
    """Start ../shared/bench/embed_server.py (all-MiniLM-L6-v2 behind the Ollama API, or
    with backend "e5" multilingual-e5-small)."""
    if not script.exists():
        sys.exit(f"{script} not found: pass --ollama-host of a server with the embedding model")
    proc = subprocess.Popen(
        [sys.executable, str(script), "--port", "0", "--backend", backend],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline().strip()
        if not line.startswith("listening on "):
            sys.exit(f"the embedding server did not start: {line!r}")
        yield line.removeprefix("listening on ")
    finally:
        proc.terminate()
        proc.wait(10)


@contextmanager
def scratch_home() -> Iterator[Path]:
    """A temporary data folder; profiles in it use a passphrase (no keyring needed)."""
    with tempfile.TemporaryDirectory(prefix="desktop-mem-bench-") as tmp:
        old = os.environ.get("DESKTOP_MEM_PASSPHRASE")
        os.environ["DESKTOP_MEM_PASSPHRASE"] = BENCH_PASSPHRASE
        try:
            yield Path(tmp)
        finally:
            if old is None:
                os.environ.pop("DESKTOP_MEM_PASSPHRASE", None)
            else:
                os.environ["DESKTOP_MEM_PASSPHRASE"] = old


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    idx = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[idx]


def peak_rss_mb() -> float:
    """Peak resident memory of this process. Linux keeps ru_maxrss across execve (a
    child started from a big parent inherits its peak), so read VmHWM, which belongs
    to this address space."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
