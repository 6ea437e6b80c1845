"""What the chat answers to a command itself ("remember …", "forget …", and what a
forget did), in the language the command was typed in: the one place these texts are
written. (The window says them in its own words; these are what the conversation keeps
and the command line prints.)"""

from __future__ import annotations

from typing import TYPE_CHECKING

from desktop_mem.core import textproc

if TYPE_CHECKING:
    from desktop_mem.core.chat.forget import Forgotten, Found


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def chinese(text: str) -> bool:
    """Whether to answer a command in Chinese: it was typed in Chinese."""
    return textproc.has_cjk(text)


def incognito(zh: bool) -> str:
    return (
        "无痕模式：这次对话不会记住或删除任何记忆。"
        if zh
        else "Incognito: nothing is remembered or forgotten in this conversation."
    )


def remembered(what: str, zh: bool) -> str:
    return f"好的，我记住了：{what}" if zh else f"Noted. I'll remember: {what}"


def forget_offer(what: str, found: Found, zh: bool) -> str:
    """The answer to "forget …": how much was found, and how much more there is."""
    n, m = len(found.memories), len(found.messages)
    more_n, more_m = found.more_memories, found.more_messages
    if n == 0 and m == 0:
        return f"我没有找到关于「{what}」的记忆。" if zh else f"I have no memory about “{what}”."
    if zh:
        text = f"关于「{what}」，我找到 {n} 条记忆和 {m} 条以前的消息：请选择要删除的。"
        if more_n or more_m:
            text += f"还有 {more_n} 条记忆和 {more_m} 条消息：删除这些之后，再说一次“忘记{what}”。"
        return text
    text = (
        f"About “{what}” I found {_count(n, 'memory', 'memories')} and "
        f"{_count(m, 'earlier message', 'earlier messages')}: choose what to delete."
    )
    if more_n or more_m:
        text += (
            f" {_count(more_n, 'more memory', 'more memories')} and "
            f"{_count(more_m, 'more message', 'more messages')} mention it: after these, say "
            f"“forget {what}” again."
        )
    return text


def forgot(done: Forgotten, what: str) -> str:
    """What a forget did, said in the conversation (in Chinese when `what` is)."""
    n, m, k = done.memories, done.messages, done.kept
    if chinese(what):
        return _forgot_zh(done, what)
    if not (n or m or k):
        return "Nothing was deleted."
    text = f"Deleted {_count(n, 'memory', 'memories')} and {_count(m, 'message', 'messages')}."
    if k:
        them = "it" if k == 1 else "them"
        text += (
            f" {_count(k, 'earlier message stays', 'earlier messages stay')} to read, "
            f"but the assistant no longer sees {them}."
        )
    if done.rests:
        text += f" Kept the rest of {_count(done.rests, 'memory', 'memories')}."
    if done.memories_left or done.messages_left:
        text += (
            f" Still mentioning it: {_count(done.memories_left, 'memory', 'memories')} and "
            f"{_count(done.messages_left, 'earlier message', 'earlier messages')} (say “forget "
            f"{what}” again to see them)."
        )
    return text


def _forgot_zh(done: Forgotten, what: str) -> str:
    n, m, k = done.memories, done.messages, done.kept
    if not (n or m or k):
        return "没有删除任何内容。"
    text = f"已删除 {n} 条记忆和 {m} 条消息。"
    if k:
        text += f"{k} 条以前的消息保留供阅读，但助手不再看到它们。"
    if done.rests:
        text += f"已保留 {done.rests} 条记忆的其余部分。"
    if done.memories_left or done.messages_left:
        text += (
            f"仍有 {done.memories_left} 条记忆和 {done.messages_left} 条以前的消息提到它"
            f"（再说一次“忘记{what}”即可看到）。"
        )
    return text
