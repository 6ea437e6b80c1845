"""Claude's data export: the zip (or its conversations.json), its memories
(memories.json) and its projects (projects.json, or one file a project in a folder
projects/ as newer exports have them).

Claude's newer exports give each message its `parent_message_uuid`: the kept branch
ends at the newest message. Thinking, tool calls and their results are not the
conversation; an attachment is named in the message that carried it.

A Claude project (projects.json) is what its owner set up once and then relied on: it
is imported into a space of its name (core/memory/spaces.py), its instructions
("prompt_template") the space's instruction, and the project itself, its description
and instructions and the text of its documents, joins that space's recall tier as one
conversation named after it (searchable, found by a chat in the space when it is
relevant; never read for facts: a document is not the user speaking). What Claude
remembered of a project (memories.json's project_memories) is proposed for its space.
Claude's own starter project is left out.

Claude's exports have not said which project a conversation was in (its conversations
carry no project's uuid: https://github.com/anthropics/claude-code/issues/40411), so
its conversations are imported into the shared space; one that does say, by a
`project_uuid` or a `project` object ({uuid, name}) as Claude's own listing of
conversations does, goes to its project's space.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from desktop_mem.core import textproc
from desktop_mem.core.chat.foreign.detect import memories_file
from desktop_mem.core.chat.foreign.export import Export, Reader
from desktop_mem.core.chat.foreign.fields import (
    Malformed,
    as_dict,
    as_key,
    as_list,
    as_text,
    iso,
    named,
    type_name,
)
from desktop_mem.core.chat.foreign.items import (
    ForeignConversation,
    ForeignMessage,
    key_of,
)
from desktop_mem.core.chat.foreign.stream import iter_array


# what was said: text; thinking, tool calls and their results are not the conversation
def _claude_text(message: dict[str, object], where: str) -> str:
    blocks = message.get("content")
    texts: list[str] = []
    if isinstance(blocks, list) and blocks:
        for b in blocks:
            block = as_dict(b, f"{where}'s content")
            if block.get("type") == "text":
                texts.append(as_text(block.get("text"), f"{where}'s text").strip())
        text = "\n\n".join(t for t in texts if t)
    else:
        if blocks is not None and not isinstance(blocks, list):
            raise Malformed(f"{where}'s content is {type_name(blocks)}, not a list")
        text = as_text(message.get("text"), f"{where}'s text").strip()
    attached, files = message.get("attachments"), message.get("files")
    if not attached and not files:
        return text
    names = [
        as_text(a["file_name"], f"{where}'s attachment")
        for a in [
            *as_list(attached, f"{where}'s attachments"),
            *as_list(files, f"{where}'s files"),
        ]
        if isinstance(a, dict) and isinstance(a.get("file_name"), str)
    ]
    names = list(dict.fromkeys(names))
    if names:
        text = (text + "\n" if text else "") + "[attached: " + ", ".join(names) + "]"
    return text


def claude_branch(messages: list[object], name: str = "") -> list[dict[str, object]]:
    """The kept branch: with parents given, the path to the newest message; else all.
    Linear; a message met twice on the way (a loop) is malformed."""
    where = f"{name}: a message"
    msgs = [as_dict(m, where) for m in messages]
    by_id: dict[str, dict[str, object]] = {}
    parents: list[str | None] = []
    for m in msgs:
        uuid = as_key(m.get("uuid"), f"{where}'s uuid")
        if uuid is not None:
            if uuid in by_id:
                raise Malformed(f"{name}: two messages have the uuid {uuid!r}")
            by_id[uuid] = m
        parents.append(as_key(m.get("parent_message_uuid"), f"{where}'s parent"))
    if not msgs or not any(p in by_id for p in parents if p is not None):
        return msgs
    index = {id(m): i for i, m in enumerate(msgs)}
    latest = max(range(len(msgs)), key=lambda i: (as_text(msgs[i].get("created_at"), "a date"), i))
    path: list[dict[str, object]] = []
    seen: set[int] = set()
    node: dict[str, object] | None = msgs[latest]
    while node is not None:
        if id(node) in seen:
            raise Malformed(f"{name}: its messages form a loop")
        seen.add(id(node))
        path.append(node)
        parent = parents[index[id(node)]]
        node = by_id.get(parent) if parent is not None else None
    path.reverse()
    return path


def _conversation_project(item: dict[str, object], out: Export, name: str) -> str | None:
    """The project a conversation says it is in (its key), if it says."""
    project = item.get("project")
    given = as_dict(project, f"{name}'s project") if isinstance(project, dict) else {}
    key = as_key(item.get("project_uuid"), f"{name}'s project") or as_key(
        given.get("uuid"), f"{name}'s project"
    )
    if key is None:
        return None
    title = textproc.normalize(as_text(given.get("name"), f"{name}'s project's name")).strip()
    return out.in_project("claude", key, title or None)


def read_claude(item: object, out: Export, n: int = 0) -> ForeignConversation | None:
    if not isinstance(item, dict) or "chat_messages" not in item:
        out.skipped += 1
        return None
    title = as_text(item.get("name"), f"conversation {n:,}'s name")
    name = named(n, title)
    conv = ForeignConversation(
        "claude", as_key(item.get("uuid"), f"{name}'s uuid") or "", textproc.normalize(title),
        iso(item.get("created_at")), iso(item.get("updated_at")),
        space=_conversation_project(item, out, name),
    )  # fmt: skip
    for message in claude_branch(as_list(item["chat_messages"], f"{name}'s messages"), name):
        role = {"human": "user", "assistant": "assistant"}.get(
            as_text(message.get("sender"), f"{name}: a message's sender")
        )
        text = _claude_text(message, f"{name}: a message")
        if role and text:
            conv.messages.append(
                ForeignMessage(role, text, iso(message.get("created_at")) or conv.created_at)
            )
    if not conv.key:
        conv.key = key_of(conv)
    return conv


# -- Claude's projects ----------------------------------------------------------------------


def _project(item: object) -> dict[str, object] | None:
    """A project worth bringing: a dict that is not Claude's starter project."""
    if not isinstance(item, dict) or item.get("is_starter_project"):
        return None
    return item


def _project_name(item: dict[str, object]) -> str:
    return textproc.normalize(str(item.get("name") or "")).strip() or "Untitled project"


def _project_instructions(item: dict[str, object]) -> str:
    text = item.get("prompt_template")
    return textproc.normalize(text).strip() if isinstance(text, str) else ""


def _project_key(item: dict[str, object]) -> str:
    """Its uuid (the same in every export of the account), else its name."""
    return as_key(item.get("uuid"), "a project's uuid") or f"name:{_project_name(item)}"


def read_project(item: object, out: Export) -> ForeignConversation | None:
    """A project as a conversation of the recall tier: its description and
    instructions, then each document (its name, then its text)."""
    if not isinstance(item, dict) or not ("prompt_template" in item or "docs" in item):
        out.skipped += 1
        return None
    project = _project(item)
    if project is None:
        return None  # Claude's own starter project: nothing of the user's
    name = _project_name(project)
    created = iso(project.get("created_at"))
    key = _project_key(project)
    conv = ForeignConversation(
        "claude", f"project:{project.get('uuid') or name}", name, created,
        iso(project.get("updated_at")) or created, project=True,
        space=out.in_project("claude", key, name),
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
    for doc in as_list(project.get("docs"), f"the project \u201c{name}\u201d's documents"):
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
                iso(doc.get("created_at")) or created,
            )
        )
    return conv


def take_projects(export: Export, member: str) -> None:
    """Count the projects and know each (its name and instructions, for its space),
    reading the file as a stream: documents can be large. Its projects are read as
    conversations after the export's conversations."""
    export.also.append((member, read_project))
    export.taken.add(member)
    with export.reading(member) as (fh, name):
        for item in iter_array(fh, name):
            project = _project(item)
            if project is not None:
                export.projects += 1
                key = export.in_project("claude", _project_key(project), _project_name(project))
                export.spaces[key].name = _project_name(project)
                export.spaces[key].instruction = _project_instructions(project)


_PROJECT_FILE = re.compile(r"(?:^|/)projects/[^/]+\.json$", re.IGNORECASE)


# -- the reader --------------------------------------------------------------------------------


class Claude(Reader):
    name = "claude"
    marks = ("chat_messages",)
    file_marks = ("conversations_memory", "prompt_template", "docs")
    archive = True
    telltales = frozenset({"projects.json", "users.json"})
    known_files = frozenset({"memories.json", "projects.json", "users.json"})

    def conversation(self, item: object, out: Export, n: int) -> ForeignConversation | None:
        return read_claude(item, out, n)

    def open_file(self, path: Path, mark: str) -> Export:
        if mark == "conversations_memory":
            return memories_file(path, self)
        export = Export(path, self)  # projects.json on its own
        take_projects(export, "")
        return export

    def takes_memories(self, data: object) -> bool:
        first = data[0] if isinstance(data, list) and data else data
        return isinstance(first, dict) and "conversations_memory" in first

    def read_beside(self, export: Export, files: dict[str, str]) -> None:
        if "memories.json" in files:
            export.read_memories(files["memories.json"])
        if "projects.json" in files:
            take_projects(export, files["projects.json"])
        for member in export.members:  # newer exports: projects/<uuid>.json, one each
            if _PROJECT_FILE.search(member.replace("\\", "/")):
                take_projects(export, member)


def register_readers(register: Callable[[Reader], None]) -> None:
    register(Claude())
