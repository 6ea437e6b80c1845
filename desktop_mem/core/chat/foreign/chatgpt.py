"""ChatGPT's data export: the zip (or its conversations.json, or the numbered
conversations-000.json… a large export is split into), a conversation a tree.

ChatGPT keeps each conversation as a tree (`mapping`): a regenerated answer or an
edited question is a sibling of the one it replaced, not a later message. The
conversation the user last saw is the path from the root to `current_node`, so that
path, walked back from `current_node`, is what is imported; the other branches are
not. Tool calls and their output (browsing, code), a model's hidden reasoning and the
context the service adds are not messages of the conversation; an attachment is named
in the message that carried it. The custom instructions a conversation carries are
offered: "how to respond" as instructions, "about me" as facts for review.

A conversation of a ChatGPT project says so by the project's id, "g-p-" and hex, in
its `conversation_template_id` (and, in some exports, its `gizmo_id`, with `gizmo_type`
"snorlax"); a custom GPT's id is "g-" without the "p-" and is no project. No file of
the export names a project (as of the exports inspected in 2026: the names are only in
ChatGPT's own web API), so each project is imported into a space named "ChatGPT
project 1", "ChatGPT project 2"…, found again by its id when the next export is
imported, and renamed by the person as they like.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from desktop_mem.core import textproc
from desktop_mem.core.chat.foreign.export import Reader
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
from desktop_mem.core.chat.foreign.items import ForeignConversation, ForeignMessage, key_of

if TYPE_CHECKING:
    from desktop_mem.core.chat.foreign.export import Export


# what a person wrote or an assistant answered; the rest is a tool's input or output,
# a model's hidden reasoning, context the service added, or a picture
_CHATGPT_TEXT = ("text", "multimodal_text")


def _chatgpt_text(message: dict[str, object], content: dict[str, object], metadata: dict[str, object],
                  where: str) -> str:  # fmt: skip
    parts = []
    given = content.get("parts")
    for part in given if type(given) is list else as_list(given, f"{where}'s parts"):
        if type(part) is str:
            parts.append(part if part.isascii() else as_text(part, f"{where}'s text"))
        elif not isinstance(part, dict | type(None)):  # a picture or a file is an object
            raise Malformed(f"{where} has a part that is {type_name(part)}")
    text = "\n".join(p for p in parts if p.strip())
    attachments = metadata.get("attachments")
    if attachments:
        names = [
            as_text(a["name"], f"{where}'s attachment")
            for a in as_list(attachments, f"{where}'s attachments")
            if isinstance(a, dict) and isinstance(a.get("name"), str)
        ]
        if names:
            text = (text + "\n" if text else "") + "[attached: " + ", ".join(names) + "]"
    return text.strip()


def chatgpt_branch(
    mapping: dict[str, object], current: object, name: str = ""
) -> list[dict[str, object]]:
    """The messages on the path from the root to `current`, oldest first. Linear, and
    bounded by the mapping's size: a node met twice (a loop, whatever its id says) or a
    parent that is not in the mapping is malformed."""
    path: list[dict[str, object]] = []
    seen: set[int] = set()  # by identity: an id may be missing, a number or repeated
    key = as_key(current, f"{name}'s current node")
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
            node = as_dict(node, f"{name}'s message {key!r}")
        message = node.get("message")
        if message is not None:
            path.append(
                message if type(message) is dict else as_dict(message, f"{name}'s message {key!r}")
            )
        parent = node.get("parent")
        if type(parent) is not str:
            parent = as_key(parent, f"{name}'s message {key!r}'s parent")
        if parent is None:
            break
        if parent not in mapping:
            raise Malformed(f"{name}: message {key!r}'s parent {parent!r} is missing")
        key, node = parent, mapping[parent]
    path.reverse()
    return path


def chatgpt_instructions(
    content: dict[str, object], metadata: dict[str, object], where: str = "a message"
) -> tuple[str, str]:
    """The custom instructions a hidden message carries (`user_editable_context`): what
    the person said about themselves ("about me") and how they want answers ('' where
    not given)."""
    data = as_dict(metadata.get("user_context_message_data"), f"{where}'s custom instructions")
    about = as_text(data.get("about_user_message"), f"{where}'s about you") or _fenced(
        as_text(content.get("user_profile"), f"{where}'s profile")
    )
    how = as_text(data.get("about_model_message"), f"{where}'s instructions") or _fenced(
        as_text(content.get("user_instructions"), f"{where}'s instructions")
    )
    return about.strip(), how.strip()


def _fenced(text: str) -> str:
    if "```" in text:
        inner = text.split("```")
        return inner[1] if len(inner) > 2 else inner[-1]
    return text


PROJECT_PREFIX = "g-p-"


def _project_of(item: dict[str, object], name: str) -> str | None:
    """The id of the project a conversation is in, if it is in one."""
    for field in ("conversation_template_id", "gizmo_id"):
        value = item.get(field)
        key = as_key(value, f"{name}'s {field}") if isinstance(value, str) else None
        if key and key.startswith(PROJECT_PREFIX) and len(key) > len(PROJECT_PREFIX):
            return key
    return None


def read_chatgpt(item: object, out: Export, n: int = 0) -> ForeignConversation | None:
    if not isinstance(item, dict) or "mapping" not in item:
        out.skipped += 1
        return None
    title = as_text(item.get("title"), f"conversation {n:,}'s title")
    name = named(n, title)
    mapping = as_dict(item["mapping"], f"{name}'s mapping")
    key = as_key(item.get("conversation_id"), f"{name}'s id") or as_key(
        item.get("id"), f"{name}'s id"
    )
    conv = ForeignConversation(
        "chatgpt", key or "", textproc.normalize(title),
        iso(item.get("create_time")), iso(item.get("update_time")),
    )  # fmt: skip
    project = _project_of(item, name)
    if project is not None:
        conv.space = out.in_project("chatgpt", project)
    where = f"{name}: a message"
    for message in chatgpt_branch(mapping, item.get("current_node"), name):
        content, metadata, author = (
            message.get("content"), message.get("metadata"), message.get("author")
        )  # fmt: skip
        if type(content) is not dict:
            content = as_dict(content, f"{where}'s content")
        if type(metadata) is not dict:
            metadata = as_dict(metadata, f"{where}'s metadata")
        if type(author) is not dict:
            author = as_dict(author, f"{where}'s author")
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
            created = iso(message.get("create_time")) or conv.created_at
            conv.messages.append(ForeignMessage(role, text, created))
    if not conv.key:
        conv.key = key_of(conv)
    return conv


class ChatGPT(Reader):
    name = "chatgpt"
    marks = ("mapping",)
    archive = True
    known_files = frozenset({
        "user.json", "chat.html", "message_feedback.json", "model_comparisons.json",
        "shared_conversations.json", "user_settings.json", "group_chats.json", "shopping.json",
    })  # fmt: skip

    def conversation(self, item: object, out: Export, n: int) -> ForeignConversation | None:
        return read_chatgpt(item, out, n)


def register_readers(register: Callable[[Reader], None]) -> None:
    register(ChatGPT())
