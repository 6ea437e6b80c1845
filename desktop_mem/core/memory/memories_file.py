"""Reading a memories file back: this app's export (versioned JSON), a Markdown or text
list, or CSV with a header, each row naming its space when it had one.

Validate everything first, then all or nothing: a file with one bad row imports nothing
and reports every bad row with its line number."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from desktop_mem.core.errors import DesktopMemError, ImportRejected, InvalidInput, NotFound
from desktop_mem.core.memory.export import FORMAT_NAME, FORMAT_VERSION
from desktop_mem.core.memory.spaces import MAX_INSTRUCTION, SpaceStore, clean_name, only
from desktop_mem.core.memory.store import KINDS, MemoryStore, NewMemory

MAX_IMPORT_BYTES = 64 * 1024 * 1024
MAX_REPORTED_PROBLEMS = 50

# -- import ---------------------------------------------------------------------------


@dataclass
class Row:
    line: int
    fields: dict[str, Any]


@dataclass
class ImportReport:
    imported: int = 0
    duplicates: int = 0
    warnings: list[str] = field(default_factory=list)
    ids: list[int] = field(default_factory=list)


def _looks_chinese_legacy(raw: bytes) -> bool:
    """Decodes strictly as GB18030 into mostly CJK characters: then the file is almost
    surely GBK text, and the error can say so. Only a hint: guessing an encoding and
    importing mojibake would be worse than asking for UTF-8."""
    try:
        text = raw.decode("gb18030")
    except UnicodeDecodeError:
        return False
    wide = [c for c in text if ord(c) > 0x7F]
    cjk = sum(1 for c in wide if "\u4e00" <= c <= "\u9fff" or "\u3000" <= c <= "\u303f")
    return bool(wide) and cjk / len(wide) >= 0.9


def _too_big(path: Path, size: int) -> InvalidInput:
    return InvalidInput(
        f"{path} is {size // (1024 * 1024)} MB or more; imports are limited to "
        f"{MAX_IMPORT_BYTES // (1024 * 1024)} MB: split the file."
    )


def read_text(path: Path) -> str:
    """The file's text, read only if it is a regular file within the size limit (a
    device, a FIFO or a huge sparse file is refused before anything is read), and never
    more than the limit even if it grows meanwhile."""
    try:
        # O_NONBLOCK: opening a FIFO with no writer must not hang before the check
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise InvalidInput(f"There is no file {path}: check the name.") from None
    except IsADirectoryError:
        raise InvalidInput(f"{path} is a folder, not a file.") from None
    except OSError as exc:
        raise InvalidInput(f"Could not read {path} ({exc.strerror or exc}).") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise InvalidInput(f"{path} is a folder, not a file.")
        if not stat.S_ISREG(info.st_mode):
            raise InvalidInput(
                f"{path} is not a regular file (a device, pipe or socket): save what it holds "
                "to a file and import that."
            )
        if info.st_size > MAX_IMPORT_BYTES:
            raise _too_big(path, info.st_size)
        with os.fdopen(fd, "rb", closefd=False) as fh:
            raw = fh.read(MAX_IMPORT_BYTES + 1)
    except OSError as exc:
        raise InvalidInput(f"Could not read {path} ({exc.strerror or exc}).") from None
    finally:
        os.close(fd)
    if len(raw) > MAX_IMPORT_BYTES:
        raise _too_big(path, len(raw))
    if raw.startswith(b"PK\x03\x04"):
        raise InvalidInput(
            f"{path} is a zip archive, not a memories file: if it is ChatGPT's or Claude's "
            "export, import it as another assistant's history."
        )
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return raw.decode("utf-16")
        except UnicodeDecodeError:
            pass
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        hint = ""
        if _looks_chinese_legacy(raw):
            hint = (
                "; it looks like GBK/GB18030, as Excel and Notepad save on Chinese Windows "
                '(in Excel choose "CSV UTF-8")'
            )
        raise InvalidInput(
            f"{path} is not UTF-8 text (line {line}{hint}): save it as UTF-8 and import it again."
        ) from None
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        raise InvalidInput(f"{path} contains a NUL byte (line {line}): it is not a text file.")
    return text


_OWN_JSON = re.compile(
    r'^\s*(?:\{[^\[]*"format"\s*:\s*"desktop-mem/memories"|\[\s*\{\s*"text"\s*:)'
)


def is_memories_file(path: Path) -> bool:
    """A file the memory import reads as memories (this app's export: its JSON, a CSV
    or Markdown), rather than another assistant's export (a zip, a folder, its JSON, a
    pasted list of memories to review): which of the two imports takes it."""
    path = Path(path)
    if path.is_symlink() or not path.is_file():
        return False
    ext = path.suffix.lower()
    if ext in (".csv", ".tsv", ".md", ".markdown"):
        return True
    if ext != ".json":
        return False
    try:
        with open(path, "rb") as fh:
            head = fh.read(65536).decode("utf-8-sig", errors="replace")
    except OSError:
        return False
    return bool(_OWN_JSON.match(head))


def detect_format(path: Path, text: str) -> str:
    ext = Path(path).suffix.lower()
    if ext == ".json":
        return "json"
    if ext in (".csv", ".tsv"):
        return "csv"
    if ext in (".md", ".markdown", ".txt", ".text"):
        return "md"
    return "json" if text.lstrip()[:1] in ("{", "[") else "md"


def parse_rows(text: str, fmt: str) -> Iterator[Row]:
    if fmt == "json":
        yield from _json_rows(text)
    elif fmt == "csv":
        yield from _csv_rows(text)
    else:
        yield from _markdown_rows(text)


def _line_of(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


_WS = re.compile(r"[ \t\n\r]*")


def _json_rows(text: str) -> Iterator[Row]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ImportRejected(
            f"The file is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}): "
            "nothing was imported.",
            [(exc.lineno, exc.msg)],
        ) from None
    except RecursionError:
        raise ImportRejected(
            "The JSON is nested too deeply: nothing was imported.", [(1, "too deep")]
        ) from None
    except ValueError:  # a number of thousands of digits (Python's int conversion limit)
        raise ImportRejected(
            "The JSON holds a number thousands of digits long: nothing was imported.",
            [(1, "number too long")],
        ) from None
    if isinstance(data, dict):
        if data.get("format") not in (None, FORMAT_NAME):
            raise ImportRejected(
                f"The JSON file is a '{data.get('format')}' file, not a desktop-mem memories export.",
                [(1, "unknown format")],
            )
        version = data.get("version", FORMAT_VERSION)
        if not isinstance(version, int) or version > FORMAT_VERSION:
            raise ImportRejected(
                f"The export has version {version!r}; this desktop-mem reads version "
                f"{FORMAT_VERSION}: upgrade desktop-mem.",
                [(1, "unsupported version")],
            )
        items = data.get("memories")
        if not isinstance(items, list):
            raise ImportRejected(
                'The JSON file has no "memories" list: nothing was imported.',
                [(1, "no memories list")],
            )
    elif isinstance(data, list):
        items = data
    else:
        raise ImportRejected(
            "The JSON file must hold a list of memories: nothing was imported.", [(1, "not a list")]
        )
    lines = _array_element_lines(text, len(items))
    for n, item in enumerate(items):
        line = lines[n] if n < len(lines) else 1
        if isinstance(item, str):
            yield Row(line, {"text": item})
        elif isinstance(item, dict):
            yield Row(line, item)
        else:
            yield Row(
                line,
                {"__error__": f"expected a memory object or a string, got {type(item).__name__}"},
            )


def _array_element_lines(text: str, count: int) -> list[int]:
    """Line numbers of the elements of the memories array (top-level list, or the
    "memories" key of the top-level object), found with raw_decode."""
    dec = json.JSONDecoder()
    pos = _WS.match(text, 0).end()  # type: ignore[union-attr]
    try:
        if text[pos] == "{":
            pos += 1
            while True:
                pos = _WS.match(text, pos).end()  # type: ignore[union-attr]
                key, pos = dec.raw_decode(text, pos)
                pos = _WS.match(text, pos).end() + 1  # type: ignore[union-attr]  # past ':'
                pos = _WS.match(text, pos).end()  # type: ignore[union-attr]
                if key == "memories":
                    break
                _, pos = dec.raw_decode(text, pos)
                pos = _WS.match(text, pos).end() + 1  # type: ignore[union-attr]  # past ','
        lines = []
        pos += 1  # past '['
        for _ in range(count):
            pos = _WS.match(text, pos).end()  # type: ignore[union-attr]
            lines.append(_line_of(text, pos))
            _, pos = dec.raw_decode(text, pos)
            pos = _WS.match(text, pos).end() + 1  # type: ignore[union-attr]
        return lines
    except (ValueError, IndexError, RecursionError):
        return []


_CSV_ALIASES = {
    "text": "text", "memory": "text", "content": "text", "statement": "text",
    "kind": "kind", "type": "kind", "category": "kind",
    "importance": "importance", "priority": "importance",
    "pinned": "pinned", "pin": "pinned",
    "created_at": "created_at", "created": "created_at", "date": "created_at",
    "valid_from": "valid_from", "valid_until": "valid_until", "expires": "valid_until",
    "context": "context", "space": "space",
}  # fmt: skip


def _csv_rows(text: str) -> Iterator[Row]:
    sample = text[:4096]
    try:
        dialect: Any = csv.Sniffer().sniff(sample, delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(io.StringIO(text, newline=""), dialect)
    try:
        header = next(reader)
    except StopIteration:
        return
    except csv.Error as exc:
        raise ImportRejected(
            f"Line 1 of the CSV file cannot be read ({exc}).", [(1, str(exc))]
        ) from None
    names = [_CSV_ALIASES.get(h.strip().lower().replace(" ", "_")) for h in header]
    if "text" not in names:
        raise ImportRejected(
            "The CSV file needs a header row with a 'text' column (also accepted: memory, "
            "content): nothing was imported.",
            [(1, "no text column")],
        )
    line = reader.line_num
    while True:
        start = line + 1
        try:
            record = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            yield Row(start, {"__error__": f"unreadable CSV ({exc})"})
            break
        line = reader.line_num
        if not any(cell.strip() for cell in record):
            continue
        if len(record) > len(header):
            yield Row(
                start, {"__error__": f"{len(record)} fields but the header has {len(header)}"}
            )
            continue
        fields = {
            name: value
            for name, value in zip(names, record, strict=False)
            if name and value.strip() != ""
        }
        yield Row(start, fields)


_BULLET = re.compile(r"^\s*(?:[-*+•]|\d{1,4}[.)])\s+(?:\[[ xX]\]\s+)?")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s*(.*?)\s*#*\s*$")
_TAG = re.compile(r"\s*\[(pinned|until [^\]]+)\]\s*$", re.IGNORECASE)
_KIND_HEADINGS = {**{k: k for k in KINDS}, **{k + "s": k for k in KINDS}, "people": "person"}


def _markdown_rows(text: str) -> Iterator[Row]:
    kind: str | None = None
    in_code = False
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if line.startswith("```"):
            in_code = not in_code
            continue
        if in_code or not line or set(line) <= set("-*_=|: "):
            continue
        heading = _HEADING.match(raw)
        if heading:
            kind = _KIND_HEADINGS.get(heading.group(1).strip().lower())
            continue
        if line.startswith(("Exported from desktop-mem", "> ", "<!--")):
            continue
        body = _BULLET.sub("", raw).strip()
        fields: dict[str, Any] = {}
        while True:
            tag = _TAG.search(body)
            if not tag:
                break
            value = tag.group(1).lower()
            if value == "pinned":
                fields["pinned"] = True
            else:
                fields["valid_until"] = tag.group(1)[6:].strip()
            body = body[: tag.start()].rstrip()
        fields["text"] = body
        if kind:
            fields["kind"] = kind
        yield Row(n, fields)


def _truthy(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "y", "x", "pinned", "是"):
        return True
    if text in ("", "0", "false", "no", "n", "否"):
        return False
    raise InvalidInput(f"'{value}' is not yes or no")


def to_new_memory(row: Row) -> NewMemory:
    f = row.fields
    if "__error__" in f:
        raise InvalidInput(f["__error__"])
    text = f.get("text")
    if not isinstance(text, str):
        raise InvalidInput("no text" if text is None else "the text must be a string")
    return NewMemory(
        text=text,
        kind=str(f.get("kind") or "fact"),
        importance=f.get("importance", 0.5) if f.get("importance") not in (None, "") else 0.5,
        pinned=_truthy(f.get("pinned", False)),
        source="import",
        created_at=_opt_str(f.get("created_at")),
        valid_from=_opt_str(f.get("valid_from")),
        valid_until=_opt_str(f.get("valid_until")),
        context=_opt_text(f.get("context")),
    )


def _opt_text(value: Any) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise InvalidInput("the context must be text")
    return value


def _opt_str(value: Any) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise InvalidInput(f"'{value}' is not a date")
    return value


def space_name(row: Row) -> str | None:
    """The space a row names (None: the shared space)."""
    value = row.fields.get("space")
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise InvalidInput("the space must be the name of a space")
    if value.strip().casefold() == "shared":
        return None
    return clean_name(value)


def validate(path: Path) -> tuple[list[NewMemory], str, list[str | None]]:
    """Read and validate the whole file; raise ImportRejected listing every bad row.
    The memories, the file's format, and the space each row names."""
    text = read_text(path)
    fmt = detect_format(path, text)
    items: list[NewMemory] = []
    spaces: list[str | None] = []
    problems: list[tuple[int, str]] = []
    for row in parse_rows(text, fmt):
        try:
            item, space = to_new_memory(row), space_name(row)
        except InvalidInput as exc:
            problems.append((row.line, str(exc)))
            continue
        items.append(item)
        spaces.append(space)
    if problems:
        shown = "; ".join(f"line {line}: {msg}" for line, msg in problems[:5])
        more = f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""
        raise ImportRejected(
            f"{len(problems)} of the rows in {Path(path).name} are not valid, so nothing was "
            f"imported: {shown}{more}. Fix them and import again.",
            problems[:MAX_REPORTED_PROBLEMS],
        )
    if not items:
        raise ImportRejected(f"{Path(path).name} holds no memories: nothing was imported.", [])
    return items, fmt, spaces


def _spaces_of(path: Path) -> dict[str, tuple[str, bool]]:
    """The spaces an export of this app describes ({name, folded: (instruction,
    apart)}); what does not fit is left out (the space is then made as by default)."""
    try:
        data = json.loads(read_text(path))
    except (ValueError, DesktopMemError):
        return {}
    listed = data.get("spaces") if isinstance(data, dict) else None
    out: dict[str, tuple[str, bool]] = {}
    for item in listed if isinstance(listed, list) else []:
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            continue
        instruction = item.get("instruction")
        text = instruction[:MAX_INSTRUCTION] if isinstance(instruction, str) else ""
        out[item["name"].strip().casefold()] = (text, item.get("apart") is True)
    return out


def import_file(
    store: MemoryStore,
    path: Path,
    progress: Callable[[int, int], None] | None = None,
    spaces: SpaceStore | None = None,
) -> ImportReport:
    """Import a memories file. A row naming a space goes to the space of that name (made
    when the profile has none), given `spaces`; without it, to the shared space."""
    items, fmt, named = validate(path)
    made_as = _spaces_of(path) if fmt == "json" and spaces is not None else {}
    report = ImportReport()
    seen: set[str] = set()
    fresh: list[NewMemory] = []
    where: dict[str, int] = {}
    for item, name in zip(items, named, strict=True):
        if name is not None and spaces is not None:
            if name not in where:
                try:
                    where[name] = spaces.find(name).id
                except NotFound:  # made as the file says it was: kept apart or not
                    instruction, apart = made_as.get(name.casefold(), ("", False))
                    where[name] = spaces.create(name, instruction, apart).id
            item = replace(item, space=where[name])
        key = f"{item.space} " + " ".join(item.text.lower().split())
        if key in seen or store.find_duplicate(item.text, only(item.space)):
            report.duplicates += 1
            continue
        seen.add(key)
        fresh.append(item)
    if fresh:
        mems, warnings = store.add_many(fresh, actor="import", progress=progress)
        report.ids = [m.id for m in mems]
        report.imported = len(mems)
        report.warnings += warnings
    return report
