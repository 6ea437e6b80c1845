"""Other assistants' exports, read: ChatGPT's and Claude's data exports (the zip or its
conversations.json), their memories, mem0 / OpenMemory's JSON, and a pasted list of
memories. The file is recognised by what it holds, not by its name.

ChatGPT keeps each conversation as a tree (`mapping`): a regenerated answer or an
edited question is a sibling of the one it replaced, not a later message. The
conversation the user last saw is the path from the root to `current_node`, so that
path, walked back from `current_node`, is what is imported; the other branches are
not. Claude's newer exports give each message its `parent_message_uuid`: the kept
branch ends at the newest message. Tool calls and their output (browsing, code) are
not messages of the conversation; an attachment is named in the message that carried
it.

A Claude project (projects.json) is what its owner set up once and then relied on: its
instructions ("prompt_template") are proposed for review like a saved memory, and the
project itself, its description and instructions and the text of its documents, joins
the recall tier as one conversation named after it (searchable, found by the chat when
it is relevant; never read for facts: a document is not the user speaking). Claude's
own starter project is left out.

Conversations are read one at a time from a stream (a top-level JSON array decoded
element by element), so an export of thousands of conversations is never held whole.
"""

from __future__ import annotations

import io
import json
import os
import re
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from desktop_mem.core import textproc
from desktop_mem.core.chat.records import ORIGINS
from desktop_mem.core.errors import ImportRejected, InvalidInput

__all__ = [
    "ForeignConversation", "ForeignMemory", "ForeignMessage", "Export", "open_export",
    "iter_array",
]  # fmt: skip

CHUNK = 1 << 20  # bytes read at a time from the stream
MAX_ELEMENT = 256 * 1024 * 1024  # one conversation larger than this is not a conversation
MAX_UNPACKED = 8 * 1024**3  # the most a zip may unpack to
MAX_RATIO = 200  # a member that unpacks to more than this many times its size: a bomb
MAX_PASTED = 4 * 1024 * 1024  # a pasted list of memories is small
MAX_MEMORY_CHARS = 500

LABELS = ORIGINS


@dataclass
class ForeignMessage:
    role: str  # 'user' or 'assistant'
    text: str
    created_at: str | None  # ISO 8601, UTC


@dataclass
class ForeignConversation:
    origin: str  # 'chatgpt' or 'claude'
    key: str  # the export's id for it: importing twice adds it once
    title: str
    created_at: str | None
    updated_at: str | None
    messages: list[ForeignMessage] = field(default_factory=list)
    project: bool = False  # a Claude project: its text is not the user speaking


@dataclass
class ForeignMemory:
    origin: str
    text: str
    created_at: str | None = None
    kind: str = "fact"


# -- reading a stream of JSON ----------------------------------------------------------


class _Stream:
    """A window on a text stream: `buf` from `pos` is what is still to be decoded;
    `consumed` counts the characters dropped before `buf`, for saying where JSON breaks."""

    def __init__(self, fh: IO[str], name: str) -> None:
        self.fh, self.name = fh, name
        self.buf, self.pos, self.consumed, self.eof = fh.read(CHUNK), 0, 0, False

    def more(self, size: int = CHUNK) -> bool:
        """Append more of the stream after what is still to be decoded; False at its end."""
        data = self.fh.read(size)
        if not data:
            self.eof = True
            return False
        self.consumed += self.pos
        self.buf, self.pos = self.buf[self.pos :] + data, 0
        return True

    def next_char(self) -> str:
        """The next character that is not white space ('' at the end), read as needed."""
        while True:
            self.pos = _skip(self.buf, self.pos)
            if self.pos < len(self.buf) or not self.more():
                return self.buf[self.pos : self.pos + 1]

    def broken(self, what: str, at: int | None = None) -> ImportRejected:
        where = f"character {self.consumed + (self.pos if at is None else at) + 1:,}"
        return _broken(self.name, where, what)

    def value(self, decoder: json.JSONDecoder) -> Any:
        while True:
            try:
                value, end = decoder.raw_decode(self.buf, self.pos)
            except json.JSONDecodeError as exc:
                too_big = len(self.buf) - self.pos > MAX_ELEMENT
                # doubling what is read: linear overall for a large element
                if too_big or not self.more(max(CHUNK, len(self.buf) - self.pos)):
                    raise self.broken(exc.msg, exc.pos) from None
                continue
            except RecursionError:
                raise self.broken("nested too deeply") from None
            if end >= len(self.buf) and not self.eof and self.more():
                continue  # a number may go on in the next chunk
            self.pos = end
            if self.pos > CHUNK:
                self.consumed += self.pos
                self.buf, self.pos = self.buf[self.pos :], 0
            return value


def iter_array(fh: IO[str], name: str) -> Iterator[Any]:
    """The elements of the top-level JSON array in `fh`, one at a time, decoding only as
    much of the stream as the next element needs. A top-level object is yielded whole
    (small files: memories). Raises ImportRejected saying where the JSON breaks."""
    decoder = json.JSONDecoder()
    s = _Stream(fh, name)
    start = s.next_char()
    if start == "{":
        try:
            yield json.loads(s.buf[s.pos :] + fh.read())
        except json.JSONDecodeError as exc:
            raise _broken(name, f"line {exc.lineno}, column {exc.colno}", exc.msg) from None
        return
    if start != "[":
        raise s.broken("it does not start with [ or {")
    s.pos += 1
    first = True
    while True:
        c = s.next_char()
        if c == "]":
            return
        if not first:
            if c != ",":
                raise s.broken("expected , or ]" if c else "the file ends before the list does")
            s.pos += 1
            c = s.next_char()
        if not c:
            raise s.broken("the file ends before the list does")
        first = False
        yield s.value(decoder)


def _skip(buf: str, pos: int) -> int:
    n = len(buf)
    while pos < n and buf[pos] in " \t\r\n":
        pos += 1
    return pos


def _broken(name: str, where: str, what: str) -> ImportRejected:
    return ImportRejected(
        f"{name} is not valid JSON ({where}: {what}); it may be cut short: download the "
        "export again. Nothing more was read from it.",
        [(0, f"{where}: {what}")],
    )


# -- dates -------------------------------------------------------------------------------


def _iso(value: Any) -> str | None:
    """An export's time (epoch seconds, or ISO text) as ISO 8601 in UTC; None if none."""
    if value is None or value == "":
        return None
    try:
        if isinstance(value, int | float) and not isinstance(value, bool):
            when = datetime.fromtimestamp(float(value), UTC)
        elif isinstance(value, str):
            when = datetime.fromisoformat(value.replace("Z", "+00:00"))
            if when.tzinfo is None:
                when = when.replace(tzinfo=UTC)
        else:
            return None
    except (ValueError, OverflowError, OSError):
        return None
    return when.astimezone(UTC).isoformat(timespec="seconds")


# -- ChatGPT -------------------------------------------------------------------------------


def _chatgpt_text(message: dict[str, Any]) -> str:
    content = message.get("content") or {}
    kind = content.get("content_type")
    if kind not in ("text", "multimodal_text"):
        return ""  # code sent to a tool, tool output, custom instructions, thoughts
    parts = []
    for part in content.get("parts") or []:
        if isinstance(part, str):
            parts.append(part)
    text = "\n".join(p for p in parts if p.strip())
    names = [
        str(a["name"])
        for a in (message.get("metadata") or {}).get("attachments") or []
        if isinstance(a, dict) and isinstance(a.get("name"), str)
    ]
    if names:
        text = (text + "\n" if text else "") + "[attached: " + ", ".join(names) + "]"
    return text.strip()


def chatgpt_branch(mapping: dict[str, Any], current: Any) -> list[dict[str, Any]]:
    """The messages on the path from the root to `current`, oldest first."""
    path: list[dict[str, Any]] = []
    seen: set[str] = set()
    node = mapping.get(current) if isinstance(current, str) else None
    while isinstance(node, dict) and node.get("id") not in seen:
        seen.add(str(node.get("id")))
        if isinstance(node.get("message"), dict):
            path.append(node["message"])
        parent = node.get("parent")
        node = mapping.get(parent) if isinstance(parent, str) else None
    path.reverse()
    return path


def chatgpt_instructions(message: dict[str, Any]) -> str | None:
    """The custom instructions a hidden message carries (`user_editable_context`)."""
    content = message.get("content") or {}
    if content.get("content_type") != "user_editable_context":
        return None
    data = (message.get("metadata") or {}).get("user_context_message_data") or {}
    about = data.get("about_user_message") or _fenced(content.get("user_profile"))
    how = data.get("about_model_message") or _fenced(content.get("user_instructions"))
    parts = [p.strip() for p in (about, how) if isinstance(p, str) and p.strip()]
    return "\n\n".join(parts) or None


def _fenced(text: Any) -> str | None:
    if not isinstance(text, str):
        return None
    if "```" in text:
        inner = text.split("```")
        return inner[1] if len(inner) > 2 else inner[-1]
    return text


def read_chatgpt(item: Any, out: Export) -> ForeignConversation | None:
    if not isinstance(item, dict) or not isinstance(item.get("mapping"), dict):
        out.skipped += 1
        return None
    conv = ForeignConversation(
        "chatgpt",
        str(item.get("conversation_id") or item.get("id") or ""),
        textproc.normalize(str(item.get("title") or "")),
        _iso(item.get("create_time")),
        _iso(item.get("update_time")),
    )
    for message in chatgpt_branch(item["mapping"], item.get("current_node")):
        role = (message.get("author") or {}).get("role")
        found = chatgpt_instructions(message)
        if found:
            out.instructions = found  # the newest conversation's are the ones in force
            continue
        if role not in ("user", "assistant") or message.get("recipient") not in (None, "all"):
            continue
        text = _chatgpt_text(message)
        if text:
            created = _iso(message.get("create_time")) or conv.created_at
            conv.messages.append(ForeignMessage(role, text, created))
    if not conv.key:
        conv.key = _key_of(conv)
    return conv


# -- Claude --------------------------------------------------------------------------------


def _claude_text(message: dict[str, Any]) -> str:
    blocks = message.get("content")
    if isinstance(blocks, list) and blocks:
        text = "\n\n".join(
            b["text"].strip()
            for b in blocks
            if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str)
            and b["text"].strip()
        )  # fmt: skip
    else:
        text = str(message.get("text") or "").strip()
    names = [
        str(a["file_name"])
        for a in [*(message.get("attachments") or []), *(message.get("files") or [])]
        if isinstance(a, dict) and isinstance(a.get("file_name"), str)
    ]
    names = list(dict.fromkeys(names))
    if names:
        text = (text + "\n" if text else "") + "[attached: " + ", ".join(names) + "]"
    return text


def claude_branch(messages: list[Any]) -> list[dict[str, Any]]:
    """The kept branch: with parents given, the path to the newest message; else all."""
    msgs = [m for m in messages if isinstance(m, dict)]
    by_id = {m.get("uuid"): m for m in msgs}
    if not msgs or not any(m.get("parent_message_uuid") in by_id for m in msgs):
        return msgs
    last = max(msgs, key=lambda m: (str(m.get("created_at") or ""), msgs.index(m)))
    path, seen = [], set()
    node: dict[str, Any] | None = last
    while node is not None and id(node) not in seen:
        seen.add(id(node))
        path.append(node)
        node = by_id.get(node.get("parent_message_uuid"))
    path.reverse()
    return path


def read_claude(item: Any, out: Export) -> ForeignConversation | None:
    if not isinstance(item, dict) or not isinstance(item.get("chat_messages"), list):
        out.skipped += 1
        return None
    conv = ForeignConversation(
        "claude",
        str(item.get("uuid") or ""),
        textproc.normalize(str(item.get("name") or "")),
        _iso(item.get("created_at")),
        _iso(item.get("updated_at")),
    )
    for message in claude_branch(item["chat_messages"]):
        role = {"human": "user", "assistant": "assistant"}.get(str(message.get("sender")))
        text = _claude_text(message)
        if role and text:
            conv.messages.append(
                ForeignMessage(role, text, _iso(message.get("created_at")) or conv.created_at)
            )
    if not conv.key:
        conv.key = _key_of(conv)
    return conv


# -- Claude's projects ----------------------------------------------------------------------

MAX_INSTRUCTIONS = 2_000  # characters of a project's instructions proposed as a memory


def _project(item: Any) -> dict[str, Any] | None:
    """A project worth bringing: a dict that is not Claude's starter project."""
    if not isinstance(item, dict) or item.get("is_starter_project"):
        return None
    return item


def _project_name(item: dict[str, Any]) -> str:
    return textproc.normalize(str(item.get("name") or "")).strip() or "Untitled project"


def _project_instructions(item: dict[str, Any]) -> str:
    text = item.get("prompt_template")
    return textproc.normalize(text).strip() if isinstance(text, str) else ""


_KANA_HANGUL = re.compile("[\u3040-\u30ff\u31f0-\u31ff\uac00-\ud7af\uff66-\uff9f]")


def _chinese(text: str) -> bool:
    """Mostly Han characters, and no kana or Hangul (Japanese or Korean)."""
    return textproc.script(text) == "cjk" and not _KANA_HANGUL.search(text)


def project_memory(item: Any) -> ForeignMemory | None:
    """A project's instructions, proposed as a memory that names the project."""
    project = _project(item)
    text = _project_instructions(project) if project else ""
    if not project or not text:
        return None
    name = _project_name(project)
    # said in the instructions' own language: a Chinese note reads as one sentence
    lead = (
        f"在我的 Claude 项目\u201c{name}\u201d中："
        if _chinese(text)
        else f"In my Claude project \u201c{name}\u201d: "
    )
    return ForeignMemory(
        "claude",
        lead + textproc.shorten(text, MAX_INSTRUCTIONS),
        _iso(project.get("updated_at") or project.get("created_at")),
        kind="note",
    )


def read_project(item: Any, out: Export) -> ForeignConversation | None:
    """A project as a conversation of the recall tier: its description and
    instructions, then each document (its name, then its text)."""
    if not isinstance(item, dict) or not ("prompt_template" in item or "docs" in item):
        out.skipped += 1
        return None
    project = _project(item)
    if project is None:
        return None  # Claude's own starter project: nothing of the user's
    name = _project_name(project)
    created = _iso(project.get("created_at"))
    conv = ForeignConversation(
        "claude", f"project:{project.get('uuid') or name}", name, created,
        _iso(project.get("updated_at")) or created, project=True,
    )  # fmt: skip
    head = [f"Claude project \u201c{name}\u201d"]
    description = textproc.normalize(str(project.get("description") or "")).strip()
    if description:
        head.append(description)
    instructions = _project_instructions(project)
    if instructions:
        head.append(f"Instructions: {instructions}")
    if description or instructions:
        conv.messages.append(ForeignMessage("user", "\n\n".join(head), created))
    for doc in project.get("docs") or []:
        if not isinstance(doc, dict):
            continue
        text = doc.get("content")
        if not isinstance(text, str) or not text.strip():
            continue
        title = textproc.normalize(str(doc.get("filename") or "")).strip() or "document"
        conv.messages.append(
            ForeignMessage(
                "user",
                f"{title} (in the project \u201c{name}\u201d)\n\n{textproc.normalize(text).strip()}",
                _iso(doc.get("created_at")) or created,
            )
        )
    return conv


# -- desktop-mem's own conversation export (a profile's conversations, read back) ------------

OWN_FORMAT = "desktop-mem/conversation"


def read_own(item: Any, out: Export) -> ForeignConversation | None:
    if not isinstance(item, dict) or item.get("format") != OWN_FORMAT:
        out.skipped += 1
        return None
    head = item.get("conversation") or {}
    conv = ForeignConversation(
        "desktop-mem",
        "",
        textproc.normalize(str(head.get("title") or "")),
        _iso(head.get("created_at")),
        _iso(head.get("updated_at")),
    )
    for m in item.get("messages") or []:
        if not isinstance(m, dict) or m.get("role") not in ("user", "assistant"):
            continue
        text = m.get("content")
        if isinstance(text, str) and text.strip():
            created = _iso(m.get("created_at")) or conv.created_at
            conv.messages.append(ForeignMessage(m["role"], text, created))
    conv.key = _key_of(conv)
    return conv


def _key_of(conv: ForeignConversation) -> str:
    import hashlib

    first = conv.messages[0].text if conv.messages else ""
    return "h:" + hashlib.sha256(f"{conv.created_at}\n{first}".encode()).hexdigest()[:32]


# -- memories ----------------------------------------------------------------------------------


def _memory_lines(text: str) -> Iterator[str]:
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("**") and line.endswith("**"):
            continue  # a heading of Claude's memory summary
        line = line.lstrip("-*•·–—").strip()
        if line.startswith("#") or len(line) < 2:
            continue
        yield line[:MAX_MEMORY_CHARS]


def memories_of(data: Any, origin: str) -> list[ForeignMemory]:
    """mem0 (`results` of `memory`), OpenMemory (`memories` of `content`, deleted ones
    left out), Claude's memories.json (`conversations_memory`), a plain list."""
    items: list[Any]
    if isinstance(data, dict):
        items = data.get("results") or data.get("memories") or []
    elif isinstance(data, list):
        items = data
    else:
        items = []
    out: list[ForeignMemory] = []
    for item in items:
        if isinstance(item, str):
            out += [ForeignMemory(origin, line) for line in _memory_lines(item)]
            continue
        if not isinstance(item, dict) or item.get("state") in ("deleted", "archived"):
            continue
        if isinstance(item.get("conversations_memory"), str):  # Claude's summary
            out += [
                ForeignMemory(origin, line) for line in _memory_lines(item["conversations_memory"])
            ]
            for summary in (item.get("project_memories") or {}).values():
                if isinstance(summary, str):
                    out += [ForeignMemory(origin, line) for line in _memory_lines(summary)]
            continue
        text = item.get("memory") or item.get("content") or item.get("text")
        if isinstance(text, str) and text.strip():
            out.append(
                ForeignMemory(origin, text.strip()[:MAX_MEMORY_CHARS], _iso(item.get("created_at")))
            )
    return out


# -- the file ----------------------------------------------------------------------------------


@dataclass
class Export:
    """What a file holds. `kind`: 'chatgpt', 'claude', 'mem0', 'openmemory' or 'pasted'.
    Reading the conversations (a stream) counts what was skipped as unrecognisable."""

    path: Path
    kind: str
    conversations_member: str | None = None  # in the zip, or '' for the file itself
    projects_member: str | None = None  # Claude's projects.json: in the zip, or ''
    memories: list[ForeignMemory] = field(default_factory=list)
    instructions: str | None = None
    projects: int = 0
    project_instructions: int = 0  # of the memories, the projects' instructions
    skipped: int = 0  # elements not recognisable as a conversation (a newer format?)
    unknown_files: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        return LABELS[self.kind]

    def conversations(self) -> Iterator[ForeignConversation]:
        """The conversations, then Claude's projects as conversations; one at a time."""
        self.skipped = 0
        if self.conversations_member is not None:
            read = {"chatgpt": read_chatgpt, "claude": read_claude}.get(self.kind, read_own)
            with self._open(self.conversations_member) as fh:
                for item in iter_array(fh, self._name(self.conversations_member)):
                    conv = read(item, self)
                    if conv is not None:
                        yield conv
        if self.projects_member is not None:
            with self._open(self.projects_member) as fh:
                for item in iter_array(fh, self._name(self.projects_member)):
                    conv = read_project(item, self)
                    if conv is not None:
                        yield conv

    def read_projects(self, member: str) -> None:
        """Count the projects and take their instructions (to propose), reading the
        file as a stream: documents can be large."""
        self.projects_member = member
        with self._open(member) as fh:
            for item in iter_array(fh, self._name(member)):
                if _project(item) is not None:
                    self.projects += 1
                    memory = project_memory(item)
                    if memory is not None:
                        self.memories.append(memory)
                        self.project_instructions += 1

    def _name(self, member: str) -> str:
        return f"{member} in {self.path.name}" if member else self.path.name

    @contextmanager
    def _open(self, member: str) -> Iterator[IO[str]]:
        if not member:
            with open(self.path, encoding="utf-8-sig", errors="strict") as fh:
                yield fh
            return
        with zipfile.ZipFile(self.path) as z, z.open(member) as raw:
            yield io.TextIOWrapper(raw, encoding="utf-8-sig")


def _first_element_kind(fh: IO[str], name: str) -> str | None:
    """Which export a JSON file's first conversation says it is, or None."""
    for item in iter_array(fh, name):
        if isinstance(item, dict):
            if item.get("format") == OWN_FORMAT:
                return "desktop-mem"
            if "mapping" in item:
                return "chatgpt"
            if "chat_messages" in item:
                return "claude"
            if "results" in item or "memories" in item:
                return "memories"
            if "conversations_memory" in item:
                return "claude_memories"
            if "prompt_template" in item or "docs" in item:
                return "projects"
        return None
    return "empty"


def _safe_members(path: Path, z: zipfile.ZipFile) -> list[str]:
    total = 0
    names = []
    for info in z.infolist():
        name = info.filename
        parts = name.replace("\\", "/").split("/")
        if name.startswith(("/", "\\")) or ".." in parts or (len(name) > 1 and name[1] == ":"):
            raise ImportRejected(
                f"{path.name} holds a file that points outside it ({name}): it was not read. "
                "Download the export again from the service.",
                [(0, "path outside the zip")],
            )
        total += info.file_size
        ratio = info.file_size / max(info.compress_size, 1)
        if total > MAX_UNPACKED or (info.file_size > CHUNK * 16 and ratio > MAX_RATIO):
            raise ImportRejected(
                f"{path.name} would unpack to far more than it holds (a zip bomb?): it was not "
                "read. Download the export again from the service.",
                [(0, "zip bomb")],
            )
        names.append(name)
    return names


def open_export(path: Path) -> Export:
    """Recognise the file by what it holds; raises ImportRejected (one sentence) for a
    file that is none of the exports read here, InvalidInput when it cannot be read."""
    path = Path(path)
    if not path.is_file():
        raise InvalidInput(
            f"There is no file {path}: check the name."
            if not path.exists()
            else f"{path} is not a file."
        )
    try:
        if zipfile.is_zipfile(path):
            return _open_zip(path)
        return _open_file(path)
    except UnicodeDecodeError:
        raise _not_an_export(path) from None
    except (OSError, zipfile.BadZipFile) as exc:
        raise InvalidInput(f"Could not read {path} ({exc}).") from None


def _open_zip(path: Path) -> Export:
    with zipfile.ZipFile(path) as z:
        names = _safe_members(path, z)
        base = {n.rsplit("/", 1)[-1]: n for n in names}
        member = base.get("conversations.json")
        memories_member = base.get("memories.json")
        kind = None
        if member is not None:
            with z.open(member) as raw:
                found = _first_element_kind(io.TextIOWrapper(raw, encoding="utf-8-sig"), member)
            kind = {"chatgpt": "chatgpt", "claude": "claude"}.get(found or "")
            if kind is None and found == "empty":
                kind = "claude" if "projects.json" in base or "users.json" in base else "chatgpt"
        if kind is None:
            raise _not_an_export(path)
        export = Export(path, kind, member)
        if memories_member is not None:
            with z.open(memories_member) as raw:
                data = json.load(io.TextIOWrapper(raw, encoding="utf-8-sig"))
            export.memories = memories_of(data, kind)
    if "projects.json" in base:  # read once the zip is closed: read_projects opens it
        export.read_projects(base["projects.json"])
    known = {"conversations.json", "memories.json", "projects.json", "users.json",
             "user.json", "chat.html", "message_feedback.json", "model_comparisons.json",
             "shared_conversations.json"}  # fmt: skip
    export.unknown_files = [n for b, n in base.items() if b.endswith(".json") and b not in known]
    return export


def _open_file(path: Path) -> Export:
    with open(path, encoding="utf-8-sig") as fh:
        head = fh.read(4096)
    start = head.lstrip()[:1]
    if start in ("[", "{"):
        with open(path, encoding="utf-8-sig") as fh:
            found = _first_element_kind(fh, path.name)
        if found in ("chatgpt", "claude", "desktop-mem"):
            return Export(path, found, "")
        if found in ("memories", "claude_memories"):
            return _memories_file(path)
        if found == "projects":
            export = Export(path, "claude", None)
            export.read_projects("")
            return export
        raise _not_an_export(path)
    first_line = head.lstrip().split("\n", 1)[0].lower()
    if "\x00" in head or os.path.getsize(path) > MAX_PASTED or first_line.startswith("text,"):
        raise _not_an_export(path)  # binary, huge, or a table (CSV: memory import reads it)
    text = path.read_text(encoding="utf-8-sig")
    memories = [ForeignMemory("pasted", line) for line in _memory_lines(text)]
    if not memories:
        raise ImportRejected(f"{path.name} holds no memories: nothing was imported.", [])
    return Export(path, "pasted", None, memories=memories)


def _memories_file(path: Path) -> Export:
    with open(path, encoding="utf-8-sig") as fh:
        data = json.load(fh)
    first = data[0] if isinstance(data, list) and data else data
    if isinstance(first, dict) and "conversations_memory" in first:
        kind = "claude"
    elif isinstance(data, dict) and str(data.get("format", "")).startswith("desktop-mem/"):
        kind = "desktop-mem"  # this app's own memories export, proposed like any other
    elif isinstance(data, dict) and "results" in data:
        kind = "mem0"
    else:
        kind = "openmemory"
    export = Export(path, kind, None)
    export.memories = memories_of(data, kind)
    return export


def _not_an_export(path: Path) -> ImportRejected:
    return ImportRejected(
        f"{path.name} is not an export this app reads (ChatGPT's or Claude's data export, "
        "mem0 or OpenMemory JSON, or a list of memories one per line): nothing was imported.",
        [(0, "unrecognised format")],
    )
