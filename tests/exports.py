"""Exports in the shapes the services write today, built for the tests (every person and
text invented): ChatGPT's single-file and split (conversations-NNN.json) exports with
the content types a recent conversation holds (a hidden system message, custom
instructions, pictures, reasoning, tool calls and their results, the memory context
the service adds, a regenerated answer), and Claude's with thinking, tool use and its
memory export. The shapes follow the public descriptions of the formats that
open-source export viewers read."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

DAY = 86_400
START = 1_735_732_800  # 2025-01-01T12:00:00Z


def _node(
    nid: str,
    parent: str | None,
    role: str | None,
    content: dict[str, Any] | None,
    when: float | None = None,
    recipient: str = "all",
    metadata: dict[str, Any] | None = None,
    name: str | None = None,
) -> dict[str, Any]:
    message = None
    if role is not None:
        message = {
            "id": nid,
            "author": {"role": role, "name": name, "metadata": {}},
            "create_time": when,
            "update_time": None,
            "content": content,
            "status": "finished_successfully",
            "end_turn": True if role == "assistant" else None,
            "weight": 1.0,
            "metadata": metadata or {},
            "recipient": recipient,
            "channel": "final" if role == "assistant" else None,
        }
    return {"id": nid, "message": message, "parent": parent, "children": []}


def _text(*parts: Any) -> dict[str, Any]:
    return {"content_type": "text", "parts": list(parts)}


def chatgpt_conversation(n: int, about: str = "", how: str = "") -> dict[str, Any]:
    """A conversation as ChatGPT exports it now. The kept branch's messages are the
    user's two questions and the assistant's two final answers (`kept(n)`); everything
    else is the service's context, a tool, hidden reasoning or an abandoned answer."""
    t = START + n * DAY
    user1, answer1, user2, answer2 = kept(n)
    nodes = [
        _node(f"root{n}", None, None, None),
        _node(f"sys{n}", f"root{n}", "system", _text(""), None,
              metadata={"is_visually_hidden_from_conversation": True}),
        _node(f"ctx{n}", f"sys{n}", "user", {
            "content_type": "user_editable_context",
            "user_profile": f"The user provided the following information about themselves."
                            f"\nUser profile:\n```{about}```" if about else "",
            "user_instructions": f"The user provided the additional info about how they "
                                 f"would like you to respond:\n```{how}```" if how else "",
        }, None, metadata={
            "is_visually_hidden_from_conversation": True,
            "user_context_message_data": {"about_user_message": about,
                                          "about_model_message": how},
        }),
        _node(f"mem{n}", f"ctx{n}", "assistant", {
            "content_type": "model_editable_context",
            "model_set_context": "1. [2024-12-01]. Likes cycling.", "repository": None,
            "repo_summary": None,
        }, None, metadata={"is_visually_hidden_from_conversation": True}),
        _node(f"u{n}a", f"mem{n}", "user", {
            "content_type": "multimodal_text",
            "parts": [{"content_type": "image_asset_pointer",
                       "asset_pointer": f"file-service://file-img{n}", "size_bytes": 1000,
                       "width": 10, "height": 10, "fovea": None, "metadata": None}, user1],
        }, t, metadata={"attachments": [{"id": f"file-img{n}", "name": f"photo-{n}.jpg",
                                          "mime_type": "image/jpeg"}]}),
        _node(f"th{n}", f"u{n}a", "assistant", {
            "content_type": "thoughts",
            "thoughts": [{"summary": "Planning", "content": f"SECRET-REASONING-{n}"}],
            "source_analysis_msg_id": f"x{n}",
        }, t + 1, recipient="all"),
        _node(f"rr{n}", f"th{n}", "assistant", {
            "content_type": "reasoning_recap", "content": "Thought for 4 seconds",
        }, t + 2),
        _node(f"call{n}", f"rr{n}", "assistant", {
            "content_type": "code", "language": "unknown",
            "text": f'{{"search_query": [{{"q": "TOOL-CALL-{n}"}}]}}',
        }, t + 3, recipient="web.run"),
        _node(f"res{n}", f"call{n}", "tool", {
            "content_type": "tether_quote", "url": "https://example.org",
            "domain": "example.org", "text": f"TOOL-RESULT-{n}", "title": "Example",
        }, t + 4, name="web.run"),
        _node(f"a{n}old", f"res{n}", "assistant", _text(f"ABANDONED-ANSWER-{n}"), t + 5),
        _node(f"a{n}", f"res{n}", "assistant", _text(answer1), t + 6,
              metadata={"citations": [], "content_references": []}),
        _node(f"u{n}b", f"a{n}", "user", _text(user2), t + 60),
        _node(f"py{n}", f"u{n}b", "assistant", {
            "content_type": "code", "language": "python", "text": f"print('PY-{n}')",
        }, t + 61, recipient="python"),
        _node(f"out{n}", f"py{n}", "tool", {"content_type": "execution_output",
                                            "text": f"PY-OUT-{n}"}, t + 62, name="python"),
        _node(f"img{n}", f"out{n}", "tool", {
            "content_type": "multimodal_text",
            "parts": [{"content_type": "image_asset_pointer",
                       "asset_pointer": f"sediment://file_gen{n}", "size_bytes": 10,
                       "width": 1, "height": 1, "fovea": None,
                       "metadata": {"dalle": {"prompt": f"DALLE-PROMPT-{n}"}}}],
        }, t + 63, name="dalle.text2im"),
        _node(f"b{n}", f"img{n}", "assistant", _text(answer2), t + 64),
    ]  # fmt: skip
    mapping = {node["id"]: node for node in nodes}
    for node in nodes:
        if node["parent"]:
            mapping[node["parent"]]["children"].append(node["id"])
    return {
        "title": f"Conversation {n}",
        "create_time": t,
        "update_time": t + 64,
        "mapping": mapping,
        "moderation_results": [],
        "current_node": f"b{n}",
        "plugin_ids": None,
        "conversation_id": f"00000000-0000-4000-8000-{n:012d}",
        "conversation_template_id": None,
        "gizmo_id": None,
        "is_archived": False,
        "safe_urls": [],
        "default_model_slug": "gpt-5",
        "id": f"00000000-0000-4000-8000-{n:012d}",
    }


def kept(n: int) -> tuple[str, str, str, str]:
    """The messages of conversation n's kept branch, in order."""
    return (
        f"Question {n}: my allotment plot number is {n}.",
        f"Answer {n}: noted, plot {n}.",
        f"Follow-up {n}: what should I sow in March?",
        f"Reply {n}: broad beans and onion sets.",
    )


HIDDEN = ("SECRET-REASONING", "TOOL-CALL", "TOOL-RESULT", "ABANDONED-ANSWER", "PY-", "DALLE",
          "Likes cycling", "Thought for")  # fmt: skip

ABOUT = "I'm a nurse in Leeds. I keep an allotment."
HOW = "Answer briefly, in British English."


def chatgpt_split(count: int = 5, per_file: int = 2) -> dict[str, list[dict[str, Any]]]:
    """ChatGPT's split export: conversations-000.json… each a list, newest first."""
    convs = [
        chatgpt_conversation(n, ABOUT if n == count - 1 else "", HOW if n == count - 1 else "")
        for n in range(count)
    ][::-1]
    return {
        f"conversations-{i // per_file:03d}.json": convs[i : i + per_file]
        for i in range(0, count, per_file)
    }


def chatgpt_split_zip(path: Path, count: int = 5, prefix: str = "") -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, convs in chatgpt_split(count).items():
            z.writestr(prefix + name, json.dumps(convs))
            z.writestr(f"__MACOSX/{prefix}._{name}", b"\x00\x05\x16\x07junk")
        z.writestr(prefix + "user.json", json.dumps({"id": "user-x", "email": "a@example.org"}))
        z.writestr(prefix + "chat.html", "<html>not read</html>")
        z.writestr(prefix + "file-img0.jpg", b"\xff\xd8\xff")
    return path


def chatgpt_split_folder(folder: Path, count: int = 5) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, convs in chatgpt_split(count).items():
        (folder / name).write_text(json.dumps(convs))
    (folder / "user.json").write_text("{}")
    return folder


def claude_conversation(n: int) -> dict[str, Any]:
    """A Claude conversation as exported now: content blocks with thinking, a tool call
    and its result, an attachment, and a retried answer on another branch."""
    day = f"2025-02-{n % 27 + 1:02d}"
    root = "00000000-0000-4000-8000-000000000000"

    def msg(uid: str, parent: str, sender: str, minute: int, blocks: list[Any]) -> Any:
        text = " ".join(b.get("text", "") for b in blocks if b.get("type") == "text")
        return {
            "uuid": uid, "text": text, "content": blocks, "sender": sender,
            "created_at": f"{day}T10:{minute:02d}:00.000000Z",
            "updated_at": f"{day}T10:{minute:02d}:00.000000Z",
            "attachments": [], "files": [], "parent_message_uuid": parent,
        }  # fmt: skip

    u1, a1, u2, a2 = kept(n)
    first = msg(f"c{n}-u1", root, "human", 0, [{"type": "text", "text": u1}])
    first["attachments"] = [{"file_name": f"notes-{n}.txt", "file_size": 10,
                             "file_type": "txt", "extracted_content": "plot notes"}]  # fmt: skip
    return {
        "uuid": f"c1a0de00-0000-4000-8000-{n:012d}",
        "name": f"Claude conversation {n}",
        "created_at": f"{day}T10:00:00.000000Z",
        "updated_at": f"{day}T10:09:00.000000Z",
        "account": {"uuid": "acc0"},
        "chat_messages": [
            first,
            msg(f"c{n}-a1", f"c{n}-u1", "assistant", 1, [
                {"type": "thinking", "thinking": f"SECRET-REASONING-{n}", "summaries": []},
                {"type": "tool_use", "name": "web_search", "input": {"query": f"TOOL-CALL-{n}"}},
                {"type": "tool_result", "name": "web_search",
                 "content": [{"type": "text", "text": f"TOOL-RESULT-{n}"}], "is_error": False},
                {"type": "text", "text": a1},
            ]),
            msg(f"c{n}-u2", f"c{n}-a1", "human", 2, [{"type": "text", "text": u2}]),
            msg(f"c{n}-a2old", f"c{n}-u2", "assistant", 3,
                [{"type": "text", "text": f"ABANDONED-ANSWER-{n}"}]),
            msg(f"c{n}-a2", f"c{n}-u2", "assistant", 4, [{"type": "text", "text": a2}]),
        ],
    }  # fmt: skip


CLAUDE_MEMORY = (
    "**Work and life**\n\nThe user is a nurse in Leeds.\n\n**Interests**\n\n"
    "The user keeps an allotment."
)


def claude_zip(path: Path, count: int = 3) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("conversations.json", json.dumps([claude_conversation(n) for n in range(count)]))
        z.writestr("users.json", json.dumps([{"uuid": "acc0", "full_name": "A. Person"}]))
        z.writestr("projects.json", "[]")
        z.writestr(
            "memories.json",
            json.dumps([{"conversations_memory": CLAUDE_MEMORY, "project_memories": {},
                         "account_uuid": "acc0"}]),
        )  # fmt: skip
    return path


def long_chatgpt(messages: int) -> dict[str, Any]:
    """One ChatGPT conversation of `messages` messages in a single chain."""
    mapping: dict[str, Any] = {"root": _node("root", None, None, None)}
    parent = "root"
    for i in range(messages):
        nid = f"m{i}"
        role = "user" if i % 2 == 0 else "assistant"
        mapping[nid] = _node(nid, parent, role, _text(f"message {i}"), START + i)
        mapping[parent]["children"].append(nid)
        parent = nid
    return {"title": "Long", "create_time": START, "update_time": START + messages,
            "mapping": mapping, "current_node": parent, "conversation_id": "long"}  # fmt: skip


def long_claude(messages: int) -> dict[str, Any]:
    """One Claude conversation of `messages` messages in a single chain."""
    out = []
    parent = "00000000-0000-4000-8000-000000000000"
    for i in range(messages):
        uid = f"m{i}"
        out.append({
            "uuid": uid, "text": f"message {i}", "content": [{"type": "text", "text": f"message {i}"}],
            "sender": "human" if i % 2 == 0 else "assistant",
            "created_at": f"2025-01-01T00:00:00.{i:06d}Z", "parent_message_uuid": parent,
        })  # fmt: skip
        parent = uid
    return {"uuid": "long", "name": "Long", "created_at": "2025-01-01T00:00:00Z",
            "chat_messages": out}  # fmt: skip
