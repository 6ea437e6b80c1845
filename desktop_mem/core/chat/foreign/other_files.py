"""What a file that is not an export is, by its first bytes (a PDF, a picture, a
table…), and the one sentence that refuses it and says what to choose instead."""

from __future__ import annotations

import zipfile
from pathlib import Path

from desktop_mem.core.errors import ExportRejected

_WHAT = {
    "pdf": "a PDF document", "picture": "a picture", "word": "a Word document",
    "spreadsheet": "a spreadsheet", "web_page": "a web page",
    "zip": "a zip without a conversations.json in it", "empty": "empty",
    "binary": "not a text file", "table": "a table (CSV)",
    "memories_table": "a table of memories", "other_json": "JSON of another kind",
    "other": "a file of another kind",
}  # fmt: skip


def what_it_is(path: Path) -> str:
    """What a file that is not an export is, by its first bytes: a key of _WHAT."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(4096)
    except OSError:
        return "other"
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if not text:
        return "empty"
    if head.startswith(b"%PDF"):
        return "pdf"
    if head.startswith((b"\x89PNG", b"\xff\xd8\xff", b"GIF8", b"BM")) or head[8:12] in (
        b"WEBP", b"heic", b"avif"
    ) or head[4:8] == b"ftyp":  # fmt: skip
        return "picture"
    if zipfile.is_zipfile(path):
        try:
            with zipfile.ZipFile(path) as z:
                names = z.namelist()
        except (zipfile.BadZipFile, OSError):
            return "zip"
        if any(n.startswith("word/") for n in names):
            return "word"
        if any(n.startswith("xl/") for n in names):
            return "spreadsheet"
        return "zip"
    if b"\x00" in head:
        return "binary"
    lower = text[:512].lower()
    if lower.startswith((b"<!doctype html", b"<html")) or b"<html" in lower:
        return "web_page"
    if text[:1] in (b"[", b"{"):
        return "other_json"
    first = text.split(b"\n", 1)[0].lower()
    if b"," in first or b"\t" in first:
        return "memories_table" if first.split(b",")[0].strip(b'"') == b"text" else "table"
    return "other"


def not_an_export(path: Path) -> ExportRejected:
    what = what_it_is(path)
    advice = (
        "choose the zip that ChatGPT or Claude sent you (or the conversations.json in it), "
        "a mem0 or OpenMemory JSON file, or a list of memories one per line"
    )
    if what == "web_page" and path.name.lower() == "chat.html":
        advice = "choose the zip it came in, or the conversations.json beside it"
    elif what == "memories_table":
        advice = "import it as memories (desktop-mem memory import, or Import… in the window)"
    return ExportRejected(
        f"{path.name} is {_WHAT[what]}, not an export this app reads: {advice}. Nothing "
        "was imported.",
        path.name, "not_export", what,
    )  # fmt: skip
