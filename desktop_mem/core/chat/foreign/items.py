"""What every reader makes of an export: conversations with their messages, and
memories (a service's saved memories, a pasted list, what the person said about
themselves), read from text or from the shapes memory lists come in."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from desktop_mem.core import textproc
from desktop_mem.core.chat.foreign.fields import (
    Malformed,
    as_dict,
    as_list,
    as_text,
    iso,
    type_name,
)

MAX_MEMORY_CHARS = 500
MAX_ABOUT_FACTS = 40  # ChatGPT's "about me" holds 1,500 characters: a few sentences


@dataclass
class ForeignMessage:
    role: str  # 'user' or 'assistant'
    text: str
    created_at: str | None  # ISO 8601, UTC


@dataclass
class ForeignSpace:
    """A project of the export (a ChatGPT project, a Claude project): imported into a
    space of its own. `key`: its id in the export (the same in every export of the
    account, so importing again finds the space made the first time); `name`: as the
    export names it (None: the export does not, as ChatGPT's never does);
    `instruction`: what its owner set for its chats (Claude's prompt_template)."""

    origin: str
    key: str
    name: str | None = None
    instruction: str = ""


@dataclass
class ForeignConversation:
    origin: str  # 'chatgpt' or 'claude'
    key: str  # the export's id for it: importing twice adds it once
    title: str
    created_at: str | None
    updated_at: str | None
    messages: list[ForeignMessage] = field(default_factory=list)
    project: bool = False  # a Claude project: its text is not the user speaking
    space: str | None = None  # the key of the project it is in (ForeignSpace), if any


@dataclass
class ForeignMemory:
    origin: str
    text: str
    created_at: str | None = None
    kind: str = "fact"
    space: str | None = None  # the key of the project it was remembered in, if any


def key_of(conv: ForeignConversation) -> str:
    """A key for a conversation its export gives no id: its date and its first words."""
    first = conv.messages[0].text if conv.messages else ""
    return "h:" + hashlib.sha256(f"{conv.created_at}\n{first}".encode()).hexdigest()[:32]


# -- memories ----------------------------------------------------------------------------------


def memory_lines(text: str) -> Iterator[str]:
    """A list of memories written as text, one a line (bullets and headings left out)."""
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("**") and line.endswith("**"):
            continue  # a heading of Claude's memory summary
        line = line.lstrip("-*•·–—").strip()
        if line.startswith("#") or len(line) < 2:
            continue
        yield line[:MAX_MEMORY_CHARS]


def memories_of(data: object, origin: str) -> list[ForeignMemory]:
    """mem0 (`results` of `memory`), OpenMemory (`memories` of `content`, deleted ones
    left out), Claude's memories.json (`conversations_memory`), a plain list."""
    items: list[object]
    if isinstance(data, dict):
        field_ = "results" if "results" in data else "memories"
        items = as_list(data.get(field_), f"its {field_}")
    elif isinstance(data, list):
        items = data
    else:
        raise Malformed(f"it is {type_name(data)}, not a list of memories")
    out: list[ForeignMemory] = []
    for n, item in enumerate(items, 1):
        where = f"memory {n:,}"
        if isinstance(item, str):
            out += [ForeignMemory(origin, line) for line in memory_lines(as_text(item, where))]
            continue
        item = as_dict(item, where)
        if item.get("state") in ("deleted", "archived"):
            continue
        if "conversations_memory" in item:  # Claude's summary
            # the summary, then each project's own (by the project's uuid: its space's)
            summaries: list[tuple[str | None, str]] = [
                (None, as_text(item["conversations_memory"], f"{where}'s summary"))
            ]
            projects = as_dict(item.get("project_memories"), f"{where}'s project memories")
            summaries += [
                (str(k).strip() or None, as_text(v, f"{where}'s project memory"))
                for k, v in projects.items()
            ]
            for space, summary in summaries:
                out += [ForeignMemory(origin, line, space=space) for line in memory_lines(summary)]
            continue
        text = as_text(item.get("memory") or item.get("content") or item.get("text"), where)
        if text.strip():
            out.append(
                ForeignMemory(origin, text.strip()[:MAX_MEMORY_CHARS], iso(item.get("created_at")))
            )
    return out


# -- what the person told an assistant about themselves -----------------------------------

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
