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

import gc
import io
import json
import os
import re
import stat
import zipfile
import zlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any, cast

from desktop_mem.core import textproc
from desktop_mem.core.chat.records import ORIGINS
from desktop_mem.core.errors import ExportRejected, ImportRejected, InvalidInput

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
MAX_ABOUT_FACTS = 40  # ChatGPT's "about me" holds 1,500 characters: a few sentences

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
                with paused_gc():
                    value, end = decoder.raw_decode(self.buf, self.pos)
            except json.JSONDecodeError as exc:
                too_big = len(self.buf) - self.pos > MAX_ELEMENT
                # what is read grows eightfold: a large element is decoded about once
                # more in all, not once per doubling
                if too_big or not self.more(max(CHUNK, 7 * (len(self.buf) - self.pos))):
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


@contextmanager
def paused_gc() -> Iterator[None]:
    """The cyclic garbage collector paused while a conversation's objects are made: it
    would otherwise walk them again and again as they are created (a conversation of
    100,000 messages decoded three times slower). Reference counting still frees."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def iter_array(fh: IO[str], name: str) -> Iterator[Any]:
    """The elements of the top-level JSON array in `fh`, one at a time, decoding only as
    much of the stream as the next element needs. A top-level object is yielded whole
    (small files: memories). Raises ImportRejected saying where the JSON breaks."""
    decoder = json.JSONDecoder()
    s = _Stream(fh, name)
    start = s.next_char()
    if start == "{":  # a memories file: small, and never read past the cap
        text = s.buf[s.pos :] + fh.read(MAX_SMALL + 1)
        if len(text) > MAX_SMALL:
            raise _unreadable(name, "it is one object far too large for a list of memories")
        yield _loads(text, name)
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


def _broken(name: str, where: str, what: str) -> ExportRejected:
    return ExportRejected(
        f"{name} is not valid JSON ({where}: {what}); it may be cut short: download the "
        "export again. Nothing was imported from it.",
        name, "unreadable", f"not valid JSON ({where}: {what})",
    )  # fmt: skip


# -- dates -------------------------------------------------------------------------------


_ISO_UTC = re.compile(
    r"\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d"
    r"(?:\.\d{1,6})?(?:Z|\+00:00)"
)


def _iso(value: Any) -> str | None:
    """An export's time (epoch seconds, or ISO text) as ISO 8601 in UTC; None if none."""
    if value is None or value == "":
        return None
    if type(value) is str and _ISO_UTC.fullmatch(value):  # the usual case, 100,000 times
        return value[:19] + "+00:00"
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


# -- what a file must be, checked as it is read ---------------------------------------------


class Malformed(Exception):
    """What is wrong with one part of an export, in words ("conversation 3 (“Tea”):
    its messages form a loop"); the file's reader turns it into one sentence that names
    the file."""


_SURROGATE = re.compile("[\ud800-\udfff]")
_SCALARS = (str, int, float, bool)


def _dict(value: Any, what: str) -> dict[str, Any]:
    """`value` as an object (None: an empty one); anything else is malformed."""
    if type(value) is dict:
        return value
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise Malformed(f"{what} is {_type_name(value)}, not an object")
    return value


def _list(value: Any, what: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise Malformed(f"{what} is {_type_name(value)}, not a list")
    return value


def _text(value: Any, what: str) -> str:
    """A text field: a string, a number said as one, or nothing ('')."""
    if type(value) is str and value.isascii():
        return value
    if value is None:
        return ""
    if isinstance(value, str):
        if _SURROGATE.search(value):
            raise Malformed(f"{what} holds a broken character (half of a surrogate pair)")
        return value
    if isinstance(value, _SCALARS):
        return str(value)
    raise Malformed(f"{what} is {_type_name(value)}, not text")


def _key(value: Any, what: str) -> str | None:
    """An id: text or a number; None when there is none."""
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise Malformed(f"{what} is {_type_name(value)}, not an id")
    return _text(value, what)


def _type_name(value: Any) -> str:
    return {
        str: "text", int: "a number", float: "a number", bool: "true or false",
        list: "a list", dict: "an object",
    }.get(type(value), "empty")  # fmt: skip


def _named(n: int, title: str) -> str:
    title = title.strip()
    return f"conversation {n:,}" + (
        f" (\u201c{textproc.shorten(title, 40)}\u201d)" if title else ""
    )


# -- ChatGPT -------------------------------------------------------------------------------

# what a person wrote or an assistant answered; the rest is a tool's input or output,
# a model's hidden reasoning, context the service added, or a picture
_CHATGPT_TEXT = ("text", "multimodal_text")


def _chatgpt_text(message: dict[str, Any], content: dict[str, Any], metadata: dict[str, Any],
                  where: str) -> str:  # fmt: skip
    parts = []
    given = content.get("parts")
    for part in given if type(given) is list else _list(given, f"{where}'s parts"):
        if type(part) is str:
            parts.append(part if part.isascii() else _text(part, f"{where}'s text"))
        elif not isinstance(part, dict | type(None)):  # a picture or a file is an object
            raise Malformed(f"{where} has a part that is {_type_name(part)}")
    text = "\n".join(p for p in parts if p.strip())
    attachments = metadata.get("attachments")
    if attachments:
        names = [
            _text(a["name"], f"{where}'s attachment")
            for a in _list(attachments, f"{where}'s attachments")
            if isinstance(a, dict) and isinstance(a.get("name"), str)
        ]
        if names:
            text = (text + "\n" if text else "") + "[attached: " + ", ".join(names) + "]"
    return text.strip()


def chatgpt_branch(mapping: dict[str, Any], current: Any, name: str = "") -> list[dict[str, Any]]:
    """The messages on the path from the root to `current`, oldest first. Linear, and
    bounded by the mapping's size: a node met twice (a loop, whatever its id says) or a
    parent that is not in the mapping is malformed."""
    path: list[dict[str, Any]] = []
    seen: set[int] = set()  # by identity: an id may be missing, a number or repeated
    key = _key(current, f"{name}'s current node")
    if key is None:
        return path
    node = mapping.get(key)
    if node is None:
        raise Malformed(f"{name}'s current node {key!r} is not among its messages")
    while node is not None:
        if id(node) in seen:
            raise Malformed(f"{name}: its messages form a loop")
        seen.add(id(node))
        if type(node) is not dict:
            node = _dict(node, f"{name}'s message {key!r}")
        message = node.get("message")
        if message is not None:
            path.append(
                message if type(message) is dict else _dict(message, f"{name}'s message {key!r}")
            )
        parent = node.get("parent")
        if type(parent) is not str:
            parent = _key(parent, f"{name}'s message {key!r}'s parent")
        if parent is None:
            break
        if parent not in mapping:
            raise Malformed(f"{name}: message {key!r}'s parent {parent!r} is missing")
        key, node = parent, mapping[parent]
    path.reverse()
    return path


def chatgpt_instructions(
    content: dict[str, Any], metadata: dict[str, Any], where: str = "a message"
) -> tuple[str, str]:
    """The custom instructions a hidden message carries (`user_editable_context`): what
    the person said about themselves ("about me") and how they want answers ('' where
    not given)."""
    data = _dict(metadata.get("user_context_message_data"), f"{where}'s custom instructions")
    about = _text(data.get("about_user_message"), f"{where}'s about you") or _fenced(
        _text(content.get("user_profile"), f"{where}'s profile")
    )
    how = _text(data.get("about_model_message"), f"{where}'s instructions") or _fenced(
        _text(content.get("user_instructions"), f"{where}'s instructions")
    )
    return about.strip(), how.strip()


def _fenced(text: str) -> str:
    if "```" in text:
        inner = text.split("```")
        return inner[1] if len(inner) > 2 else inner[-1]
    return text


def read_chatgpt(item: Any, out: Export, n: int = 0) -> ForeignConversation | None:
    if not isinstance(item, dict) or "mapping" not in item:
        out.skipped += 1
        return None
    title = _text(item.get("title"), f"conversation {n:,}'s title")
    name = _named(n, title)
    mapping = _dict(item["mapping"], f"{name}'s mapping")
    key = _key(item.get("conversation_id"), f"{name}'s id") or _key(item.get("id"), f"{name}'s id")
    conv = ForeignConversation(
        "chatgpt", key or "", textproc.normalize(title),
        _iso(item.get("create_time")), _iso(item.get("update_time")),
    )  # fmt: skip
    where = f"{name}: a message"
    for message in chatgpt_branch(mapping, item.get("current_node"), name):
        content, metadata, author = (
            message.get("content"), message.get("metadata"), message.get("author")
        )  # fmt: skip
        if type(content) is not dict:
            content = _dict(content, f"{where}'s content")
        if type(metadata) is not dict:
            metadata = _dict(metadata, f"{where}'s metadata")
        if type(author) is not dict:
            author = _dict(author, f"{where}'s author")
        role = author.get("role")
        kind = content.get("content_type")
        if kind == "user_editable_context":
            about, how = chatgpt_instructions(content, metadata, where)
            out.custom(conv.updated_at or conv.created_at or "", about, how)
            continue
        if (
            kind not in _CHATGPT_TEXT  # a tool's input or output, thoughts, context
            or role not in ("user", "assistant")
            or message.get("recipient") not in (None, "all")
            or metadata.get("is_visually_hidden_from_conversation")  # the service's own
        ):
            continue
        text = _chatgpt_text(message, content, metadata, where)
        if text:
            created = _iso(message.get("create_time")) or conv.created_at
            conv.messages.append(ForeignMessage(role, text, created))
    if not conv.key:
        conv.key = _key_of(conv)
    return conv


# -- Claude --------------------------------------------------------------------------------


# what was said: text; thinking, tool calls and their results are not the conversation
def _claude_text(message: dict[str, Any], where: str) -> str:
    blocks = message.get("content")
    texts: list[str] = []
    if isinstance(blocks, list) and blocks:
        for b in blocks:
            block = _dict(b, f"{where}'s content")
            if block.get("type") == "text":
                texts.append(_text(block.get("text"), f"{where}'s text").strip())
        text = "\n\n".join(t for t in texts if t)
    else:
        if blocks is not None and not isinstance(blocks, list):
            raise Malformed(f"{where}'s content is {_type_name(blocks)}, not a list")
        text = _text(message.get("text"), f"{where}'s text").strip()
    attached, files = message.get("attachments"), message.get("files")
    if not attached and not files:
        return text
    names = [
        _text(a["file_name"], f"{where}'s attachment")
        for a in [
            *_list(attached, f"{where}'s attachments"),
            *_list(files, f"{where}'s files"),
        ]
        if isinstance(a, dict) and isinstance(a.get("file_name"), str)
    ]
    names = list(dict.fromkeys(names))
    if names:
        text = (text + "\n" if text else "") + "[attached: " + ", ".join(names) + "]"
    return text


def claude_branch(messages: list[Any], name: str = "") -> list[dict[str, Any]]:
    """The kept branch: with parents given, the path to the newest message; else all.
    Linear; a message met twice on the way (a loop) is malformed."""
    where = f"{name}: a message"
    msgs = [_dict(m, where) for m in messages]
    by_id: dict[str, dict[str, Any]] = {}
    parents: list[str | None] = []
    for m in msgs:
        uuid = _key(m.get("uuid"), f"{where}'s uuid")
        if uuid is not None:
            if uuid in by_id:
                raise Malformed(f"{name}: two messages have the uuid {uuid!r}")
            by_id[uuid] = m
        parents.append(_key(m.get("parent_message_uuid"), f"{where}'s parent"))
    if not msgs or not any(p in by_id for p in parents if p is not None):
        return msgs
    index = {id(m): i for i, m in enumerate(msgs)}
    latest = max(range(len(msgs)), key=lambda i: (_text(msgs[i].get("created_at"), "a date"), i))
    path: list[dict[str, Any]] = []
    seen: set[int] = set()
    node: dict[str, Any] | None = msgs[latest]
    while node is not None:
        if id(node) in seen:
            raise Malformed(f"{name}: its messages form a loop")
        seen.add(id(node))
        path.append(node)
        parent = parents[index[id(node)]]
        node = by_id.get(parent) if parent is not None else None
    path.reverse()
    return path


def read_claude(item: Any, out: Export, n: int = 0) -> ForeignConversation | None:
    if not isinstance(item, dict) or "chat_messages" not in item:
        out.skipped += 1
        return None
    title = _text(item.get("name"), f"conversation {n:,}'s name")
    name = _named(n, title)
    conv = ForeignConversation(
        "claude", _key(item.get("uuid"), f"{name}'s uuid") or "", textproc.normalize(title),
        _iso(item.get("created_at")), _iso(item.get("updated_at")),
    )  # fmt: skip
    for message in claude_branch(_list(item["chat_messages"], f"{name}'s messages"), name):
        role = {"human": "user", "assistant": "assistant"}.get(
            _text(message.get("sender"), f"{name}: a message's sender")
        )
        text = _claude_text(message, f"{name}: a message")
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
    for doc in _list(project.get("docs"), f"the project \u201c{name}\u201d's documents"):
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


def read_own(item: Any, out: Export, n: int = 0) -> ForeignConversation | None:
    if not isinstance(item, dict) or item.get("format") != OWN_FORMAT:
        out.skipped += 1
        return None
    head = _dict(item.get("conversation"), f"conversation {n:,}'s heading")
    title = _text(head.get("title"), f"conversation {n:,}'s title")
    name = _named(n, title)
    conv = ForeignConversation(
        "desktop-mem",
        "",
        textproc.normalize(title),
        _iso(head.get("created_at")),
        _iso(head.get("updated_at")),
    )
    for m in _list(item.get("messages"), f"{name}'s messages"):
        if not isinstance(m, dict) or m.get("role") not in ("user", "assistant"):
            continue
        text = _text(m.get("content"), f"{name}: a message")
        if text.strip():
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
        field_ = "results" if "results" in data else "memories"
        items = _list(data.get(field_), f"its {field_}")
    elif isinstance(data, list):
        items = data
    else:
        raise Malformed(f"it is {_type_name(data)}, not a list of memories")
    out: list[ForeignMemory] = []
    for n, item in enumerate(items, 1):
        where = f"memory {n:,}"
        if isinstance(item, str):
            out += [ForeignMemory(origin, line) for line in _memory_lines(_text(item, where))]
            continue
        item = _dict(item, where)
        if item.get("state") in ("deleted", "archived"):
            continue
        if "conversations_memory" in item:  # Claude's summary
            summaries = [_text(item["conversations_memory"], f"{where}'s summary")]
            projects = _dict(item.get("project_memories"), f"{where}'s project memories")
            summaries += [_text(v, f"{where}'s project memory") for v in projects.values()]
            for summary in summaries:
                out += [ForeignMemory(origin, line) for line in _memory_lines(summary)]
            continue
        text = _text(item.get("memory") or item.get("content") or item.get("text"), where)
        if text.strip():
            out.append(
                ForeignMemory(origin, text.strip()[:MAX_MEMORY_CHARS], _iso(item.get("created_at")))
            )
    return out


# -- what the person told ChatGPT about themselves ----------------------------------------

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"\u201c\u2018(])|(?<=[\u3002\uff01\uff1f])")


def about_facts(text: str, origin: str, when: str | None) -> list[ForeignMemory]:
    """Custom instructions' "about me", one fact a sentence ("I'm a nurse in Leeds. I
    bake at weekends." is two), to be reviewed like any other fact found."""
    out: list[ForeignMemory] = []
    for line in textproc.normalize(text).splitlines():
        line = line.strip().lstrip("-*•·–—").strip()
        for sentence in _SENTENCE_END.split(line):
            sentence = sentence.strip()
            if len(sentence) >= 2 and len(out) < MAX_ABOUT_FACTS:
                out.append(ForeignMemory(origin, sentence[:MAX_MEMORY_CHARS], when))
    return out


# -- the file ----------------------------------------------------------------------------------

# ChatGPT splits a large export into conversations-000.json, conversations-001.json, …
_CONVERSATIONS = re.compile(r"conversations(?:-(\d{1,6}))?\.json", re.IGNORECASE)
MAX_SMALL = 64 * 1024 * 1024  # a memories file read whole


def _conversation_files(names: Iterable[str]) -> list[str]:
    """The conversation files among `names` (paths in a zip or a folder), in order:
    conversations.json, then the numbered ones by number. A Mac's resource forks
    (__MACOSX/, ._name) are not files of the export."""
    found = []
    for name in names:
        base = name.replace("\\", "/").rsplit("/", 1)[-1]
        if base.startswith("._") or name.startswith("__MACOSX/"):
            continue
        match = _CONVERSATIONS.fullmatch(base)
        if match:
            found.append((int(match.group(1) or -1), name))
    return [name for _, name in sorted(found)]


@dataclass
class Export:
    """What a file (a zip, a folder) holds. `kind`: 'chatgpt', 'claude', 'mem0',
    'openmemory', 'pasted' or 'desktop-mem'. Reading the conversations (a stream) counts
    what was skipped as unrecognisable, and finds the custom instructions; a part that is
    malformed stops the reading with ImportRejected."""

    path: Path
    kind: str
    conversation_files: list[str] = field(default_factory=list)  # '' is the file itself
    projects_member: str | None = None  # Claude's projects.json: in the zip, or ''
    memories: list[ForeignMemory] = field(default_factory=list)
    instructions: str | None = None  # custom instructions' "how to respond"
    about: list[ForeignMemory] = field(default_factory=list)  # their "about me", as facts
    projects: int = 0
    project_instructions: int = 0  # of the memories, the projects' instructions
    skipped: int = 0  # elements not recognisable as a conversation (a newer format?)
    unknown_files: list[str] = field(default_factory=list)
    folder: bool = False  # conversation_files are paths in the folder `path`
    _custom_when: str | None = None

    @property
    def label(self) -> str:
        return LABELS[self.kind]

    def custom(self, when: str, about: str, how: str) -> None:
        """Custom instructions found in a conversation: the newest are those in force."""
        if self._custom_when is not None and when < self._custom_when:
            return
        self._custom_when = when
        self.instructions = how or None
        self.about = about_facts(about, self.kind, when or None) if about else []

    def conversations(self) -> Iterator[ForeignConversation]:
        """The conversations, then Claude's projects as conversations; one at a time."""
        self.skipped = 0
        read = {"chatgpt": read_chatgpt, "claude": read_claude}.get(self.kind, read_own)
        ids: set[str] = set()
        n = 0
        for member in self.conversation_files:
            with self._reading(member) as (fh, name):
                for item in iter_array(fh, name):
                    n += 1
                    with paused_gc():
                        conv = read(item, self, n)
                    if conv is None:
                        continue
                    if not conv.key.startswith("h:"):
                        if conv.key in ids:
                            raise Malformed(f"{_named(n, conv.title)} has the id of an earlier one")
                        ids.add(conv.key)
                    yield conv
        if self.projects_member is not None:
            with self._reading(self.projects_member) as (fh, name):
                for item in iter_array(fh, name):
                    conv = read_project(item, self)
                    if conv is not None:
                        yield conv

    def read_projects(self, member: str) -> None:
        """Count the projects and take their instructions (to propose), reading the
        file as a stream: documents can be large."""
        self.projects_member = member
        with self._reading(member) as (fh, name):
            for item in iter_array(fh, name):
                if _project(item) is not None:
                    self.projects += 1
                    memory = project_memory(item)
                    if memory is not None:
                        self.memories.append(memory)
                        self.project_instructions += 1

    def read_memories(self, member: str) -> None:
        """A memories file (memories.json in a zip or a folder): small, read whole."""
        with self._reading(member) as (fh, name):
            text = fh.read(MAX_SMALL + 1)
            if len(text) > MAX_SMALL:
                raise Malformed("it is too large for a list of memories")
            self.memories = memories_of(_loads(text, name), self.kind) + self.memories

    def fingerprint(self) -> str:
        """Changes when a file read changes: an import checked whole is not checked
        again (Importer.run) unless it did."""
        files = [self.path / m for m in self.conversation_files] if self.folder else [self.path]
        try:
            stats = [os.stat(f) for f in files]
        except OSError:  # gone meanwhile: reading it again says so
            return ""
        return ";".join(
            f"{f}:{st.st_size}:{st.st_mtime_ns}" for f, st in zip(files, stats, strict=True)
        )

    def _name(self, member: str) -> str:
        if self.folder:
            return f"{member} in {self.path.name}"
        return f"{member} in {self.path.name}" if member else self.path.name

    @contextmanager
    def _reading(self, member: str) -> Iterator[tuple[IO[str], str]]:
        """A file of the export opened as text, and its name for sentences; whatever
        goes wrong while it is read is said as one sentence that names it."""
        name = self._name(member)
        with _said_as_sentence(name), self._open(member) as fh:
            yield fh, name

    @contextmanager
    def _open(self, member: str) -> Iterator[IO[str]]:
        if self.folder:
            with _open_regular(self.path / member) as fh:
                yield fh
            return
        if not member:
            with open(self.path, encoding="utf-8-sig", errors="strict") as fh:
                yield fh
            return
        with zipfile.ZipFile(self.path) as z, z.open(member) as raw:
            yield io.TextIOWrapper(raw, encoding="utf-8-sig")


@contextmanager
def _said_as_sentence(name: str) -> Iterator[None]:
    try:
        yield
    except Malformed as exc:
        raise _unreadable(name, str(exc)) from None
    except UnicodeDecodeError:
        raise _unreadable(name, "it is not UTF-8 text") from None
    except RecursionError:
        raise _unreadable(name, "it is nested too deeply") from None
    except (zipfile.BadZipFile, zlib.error, EOFError):
        raise _unreadable(name, "it is damaged (its compressed data does not check out)") from None
    except (RuntimeError, NotImplementedError):
        raise _unreadable(
            name, "it is locked or compressed in a way this app cannot open"
        ) from None
    except OSError as exc:
        raise InvalidInput(f"Could not read {name} ({exc.strerror or exc}).") from None


def _unreadable(name: str, what: str) -> ExportRejected:
    return ExportRejected(
        f"{name} cannot be read whole ({what}): nothing was imported from it. Download the "
        "export again.",
        name, "unreadable", what,
    )  # fmt: skip


def _loads(text: str, name: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise _broken(name, f"line {exc.lineno}, column {exc.colno}", exc.msg) from None
    except RecursionError:
        raise _unreadable(name, "it is nested too deeply") from None


@contextmanager
def _open_regular(path: Path) -> Iterator[IO[str]]:
    """A file of an unpacked export: not through a link, never a FIFO or a device."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_BINARY", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise Malformed("it is not a regular file")
        os.set_blocking(fd, True)
        fh = os.fdopen(fd, encoding="utf-8-sig", errors="strict")
    except BaseException:
        os.close(fd)
        raise
    with fh:
        yield fh


_MARKS = {
    "mapping": "chatgpt", "chat_messages": "claude", "results": "memories",
    "memories": "memories", "conversations_memory": "claude_memories",
    "prompt_template": "projects", "docs": "projects",
}  # fmt: skip
_MARK = re.compile(r'"(' + "|".join(_MARKS) + r')"\s*:')


def _kind_of_element(item: Any) -> str | None:
    if not isinstance(item, dict):
        return None
    if item.get("format") == OWN_FORMAT:
        return "desktop-mem"
    return next((kind for key, kind in _MARKS.items() if key in item), None)


def _first_element_kind(fh: IO[str], name: str) -> str | None:
    """Which export a JSON file's first conversation says it is, or None. A first
    conversation larger than what is read at a time (100,000 messages) is known by its
    first key that says, rather than decoded whole once more."""
    head = fh.read(CHUNK)
    more = len(head) == CHUNK
    start = _skip(head, 0)
    if more and head[start : start + 1] == "[":
        try:
            item, _ = json.JSONDecoder().raw_decode(head, _skip(head, start + 1))
            return _kind_of_element(item)
        except (json.JSONDecodeError, RecursionError):
            found = _MARK.search(head)
            if found and OWN_FORMAT not in head[: found.start()]:
                return _MARKS[found.group(1)]
    rest = io.StringIO(head) if not more else cast(IO[str], _Rest(head, fh))
    for item in iter_array(rest, name):
        return _kind_of_element(item)
    return "empty"


class _Rest(io.TextIOBase):
    """What was read of a stream, then the rest of it."""

    def __init__(self, head: str, fh: IO[str]) -> None:
        self.head, self.fh = head, fh

    def read(self, size: int | None = -1) -> str:
        if self.head:
            out, self.head = self.head, ""
            return out
        return self.fh.read(-1 if size is None else size)


def _safe_members(path: Path, z: zipfile.ZipFile) -> list[str]:
    total = 0
    names = []
    for info in z.infolist():
        name = info.filename
        parts = name.replace("\\", "/").split("/")
        if name.startswith(("/", "\\")) or ".." in parts or (len(name) > 1 and name[1] == ":"):
            raise ExportRejected(
                f"{path.name} holds a file that points outside it ({name}): it was not read. "
                "Download the export again from the service.",
                path.name, "unsafe_zip", "path outside the zip",
            )  # fmt: skip
        if info.flag_bits & 0x1 and name.lower().endswith(".json"):
            raise ExportRejected(
                f"{path.name} holds files locked with a password ({name}), which this app "
                "cannot open: nothing was imported. Download the export again from the service.",
                path.name, "password", name,
            )  # fmt: skip
        total += info.file_size
        ratio = info.file_size / max(info.compress_size, 1)
        if total > MAX_UNPACKED or (info.file_size > CHUNK * 16 and ratio > MAX_RATIO):
            raise ExportRejected(
                f"{path.name} would unpack to far more than it holds (a zip bomb?): it was not "
                "read. Download the export again from the service.",
                path.name, "unsafe_zip", "zip bomb",
            )  # fmt: skip
        names.append(name)
    return names


def open_export(path: Path) -> Export:
    """Recognise the file (a zip, a folder) by what it holds; raises ImportRejected (one
    sentence) for a file that is none of the exports read here or cannot be read,
    InvalidInput when it is not there. One of ChatGPT's numbered conversation files
    (conversations-001.json) stands for its folder: every one of them is read."""
    path = Path(path)
    if path.is_dir():
        return _open_folder(path)
    if not path.is_file():
        raise InvalidInput(
            f"There is no file {path}: check the name."
            if not path.exists()
            else f"{path} is not a file."
        )
    numbered = _CONVERSATIONS.fullmatch(path.name)
    if numbered and (numbered.group(1) is not None or _beside_its_export(path)):
        return _open_folder(path.parent)
    with _said_as_sentence(path.name):
        try:
            if zipfile.is_zipfile(path):
                return _open_zip(path)
            return _open_file(path)
        except UnicodeDecodeError:
            with open(path, "rb") as fh:
                json_like = fh.read(64).lstrip(b"\xef\xbb\xbf \t\r\n")[:1] in (b"[", b"{")
            if json_like:  # a JSON file with a byte that is not UTF-8 somewhere in it
                raise _unreadable(path.name, "it is not UTF-8 text") from None
            raise _not_an_export(path) from None


def _kind_of(export: Export, seen: set[str]) -> str | None:
    """The kind of an export with conversation files: the first one that says."""
    for member in export.conversation_files:
        with export._reading(member) as (fh, name):
            found = _first_element_kind(fh, name)
        if found in ("chatgpt", "claude"):
            return found
        if found != "empty":
            return None
    if export.conversation_files:
        return "claude" if {"projects.json", "users.json"} & seen else "chatgpt"
    return None


_KNOWN = {"memories.json", "projects.json", "users.json", "user.json", "chat.html",
          "message_feedback.json", "model_comparisons.json", "shared_conversations.json",
          "user_settings.json", "group_chats.json", "shopping.json"}  # fmt: skip


def _open_zip(path: Path) -> Export:
    with zipfile.ZipFile(path) as z:
        names = _safe_members(path, z)
    return _assemble(path, names, folder=False)


def _assemble(path: Path, names: list[str], folder: bool) -> Export:
    base = {n.replace("\\", "/").rsplit("/", 1)[-1]: n for n in names if "__MACOSX/" not in n}
    export = Export(path, "chatgpt", _conversation_files(names), folder=folder)
    kind = _kind_of(export, set(base))
    if kind is None:
        raise _not_an_export(path)
    export.kind = kind
    if "memories.json" in base:
        export.read_memories(base["memories.json"])
    if "projects.json" in base:
        export.read_projects(base["projects.json"])
    export.unknown_files = [
        n for b, n in base.items()
        if b.endswith(".json") and b not in _KNOWN and not _CONVERSATIONS.fullmatch(b)
    ]  # fmt: skip
    return export


def _beside_its_export(path: Path) -> bool:
    """conversations.json chosen in the folder an export was unpacked into: the rest of
    the export (its memories, its projects, more conversation files) is read with it."""
    try:
        names = {n.lower() for n in _regular_files(path.parent)}
    except OSError:
        return False
    return bool(names & {"memories.json", "projects.json", "users.json", "user.json"}) or any(
        _CONVERSATIONS.fullmatch(n) and n != "conversations.json" for n in names
    )


def _open_folder(path: Path) -> Export:
    """An unpacked export: its files (never through a link), or those of its one
    folder when the export was unpacked into a folder of its own."""
    with _said_as_sentence(path.name):
        names = _regular_files(path)
        if not _conversation_files(names):
            inner = [e for e in os.scandir(path) if e.is_dir(follow_symlinks=False)]
            if len(inner) == 1:
                names = [f"{inner[0].name}/{n}" for n in _regular_files(Path(inner[0].path))]
        if not _conversation_files(names):
            raise ExportRejected(
                f"{path.name} holds no conversations.json (nor conversations-000.json…): "
                "choose the folder you unpacked the export into, or the export's zip.",
                path.name, "no_conversations",
            )  # fmt: skip
        return _assemble(path, names, folder=True)


def _regular_files(folder: Path) -> list[str]:
    return sorted(e.name for e in os.scandir(folder) if e.is_file(follow_symlinks=False))


def _open_file(path: Path) -> Export:
    with open(path, encoding="utf-8-sig") as fh:
        head = fh.read(4096)
    start = head.lstrip()[:1]
    if start in ("[", "{"):
        with open(path, encoding="utf-8-sig") as fh:
            found = _first_element_kind(fh, path.name)
        if found in ("chatgpt", "claude", "desktop-mem"):
            return Export(path, found, [""])
        if found in ("memories", "claude_memories"):
            return _memories_file(path)
        if found == "projects":
            export = Export(path, "claude")
            export.read_projects("")
            return export
        raise _not_an_export(path)
    first_line = head.lstrip().split("\n", 1)[0].lower()
    if (
        "\x00" in head
        or os.path.getsize(path) > MAX_PASTED
        or first_line.startswith("text,")  # a table of memories: the memory import's
        or what_it_is(path) in _NOT_PASTED  # a PDF or a web page that is text at its start
    ):
        raise _not_an_export(path)
    text = path.read_text(encoding="utf-8-sig")
    memories = [ForeignMemory("pasted", line) for line in _memory_lines(_text(text, "its text"))]
    if not memories:
        raise ExportRejected(
            f"{path.name} holds no memories: nothing was imported.", path.name, "no_memories"
        )
    return Export(path, "pasted", memories=memories)


def _memories_file(path: Path) -> Export:
    if os.path.getsize(path) > MAX_SMALL:
        raise Malformed("it is too large for a list of memories")
    data = _loads(path.read_text(encoding="utf-8-sig"), path.name)
    first = data[0] if isinstance(data, list) and data else data
    if isinstance(first, dict) and "conversations_memory" in first:
        kind = "claude"
    elif isinstance(data, dict) and str(data.get("format", "")).startswith("desktop-mem/"):
        kind = "desktop-mem"  # this app's own memories export, proposed like any other
    elif isinstance(data, dict) and "results" in data:
        kind = "mem0"
    else:
        kind = "openmemory"
    export = Export(path, kind)
    export.memories = memories_of(data, kind)
    return export


_WHAT = {
    "pdf": "a PDF document", "picture": "a picture", "word": "a Word document",
    "spreadsheet": "a spreadsheet", "web_page": "a web page",
    "zip": "a zip without a conversations.json in it", "empty": "empty",
    "binary": "not a text file", "table": "a table (CSV)",
    "memories_table": "a table of memories", "other_json": "JSON of another kind",
    "other": "a file of another kind",
}  # fmt: skip


_NOT_PASTED = {"pdf", "picture", "word", "spreadsheet", "web_page", "zip", "binary"}


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


def _not_an_export(path: Path) -> ExportRejected:
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
