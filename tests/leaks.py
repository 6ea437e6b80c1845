"""Looking for plaintext where there must be none: in files, and in decrypted pages."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from tests import report


def _forms(needle: str) -> list[bytes]:
    """The byte forms a text can take on disk: UTF-8 and UTF-16 either way, upper-,
    lower- and capitalised (FTS tokens are case-folded)."""
    forms = []
    for variant in {needle, needle.lower(), needle.upper(), needle.capitalize()}:
        forms += [variant.encode(enc) for enc in ("utf-8", "utf-16-le", "utf-16-be")]
    return forms


def leaks_in(blobs: Sequence[bytes], needles: Iterable[str]) -> list[str]:
    found = []
    for needle in needles:
        if any(form in b for form in _forms(needle) for b in blobs):
            found.append(needle)
    return found


def files_under(*roots: Path) -> list[Path]:
    return [p for root in roots if root.exists() for p in root.rglob("*") if p.is_file()]


def scan_files(files: Sequence[Path], needles: Iterable[str]) -> list[str]:
    """Leaks of any needle in these files, counted in the reliability report."""
    found = leaks_in([p.read_bytes() for p in files], needles)
    report.add("leak_files", len(files))
    report.add("leaks", len(found))
    return found
