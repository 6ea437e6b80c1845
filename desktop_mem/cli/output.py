"""What every command prints with: JSON, warnings, one-line text, progress, reports."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from desktop_mem.core.chat.records import Change
    from desktop_mem.core.doctor import Check
    from desktop_mem.core.memory.records import Memory
    from desktop_mem.core.service import Service

PENDING_ERASE = (
    "Another desktop-mem window or command is reading this profile: the old copy stays in "
    "the file until it lets go, and is overwritten then (at the latest when it closes)."
)


def print_json(data: object, out: TextIO) -> None:
    json.dump(data, out, ensure_ascii=False, indent=2)
    out.write("\n")


def warn(warnings: Sequence[str], err: TextIO) -> None:
    for w in warnings:
        err.write(f"warning: {w}\n")


def width() -> int:
    return shutil.get_terminal_size((100, 20)).columns


def one_line(text: str, limit: int = 80) -> str:
    """The text on one line, cut with an ellipsis at `limit` characters."""
    from desktop_mem.core.textproc import shorten

    return shorten(text, limit)


def safe(text: str) -> str:
    """A name from outside (a file, an app) with its control characters escaped, so it
    cannot move the cursor, ring the bell or start a new line on the terminal."""
    from desktop_mem.core.textproc import escape_controls

    return escape_controls(text)


def shell_word(text: str) -> str:
    """A word of a command printed for the user to run: quoted for a POSIX shell, and,
    when it holds what `safe` would escape, written as $'...' with those characters as
    escapes, so that it is safe on the terminal and runs as printed (bash, zsh)."""
    import shlex

    if safe(text) == text:
        return shlex.quote(text)
    out = []
    for ch in text:
        if ch in "\\'":
            out.append("\\" + ch)
        elif safe(ch) != ch:
            code = ord(ch)
            if 0xDC80 <= code <= 0xDCFF:  # a byte of a name that is not UTF-8
                out.append(f"\\x{code - 0xDC00:02x}")
            elif code < 0x80:
                out.append(f"\\x{code:02x}")
            else:
                out.append(f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
        else:
            out.append(ch)
    return "$'" + "".join(out) + "'"


def option(name: str, value: str) -> str:
    """`--name VALUE` for a printed command; `--name=VALUE` where the value starts with a
    dash (a separate word would be read as another option)."""
    word = shell_word(value)
    return f"{name}={word}" if value.startswith("-") else f"{name} {word}"


# A search hit's relevance mark: a weaker match, or one the rule would not keep (--all).
MATCH_MARKS = {"strong": " ", "weak": "?", "none": "-"}


def memory_line(
    m: Memory,
    columns: int,
    score: float | None = None,
    relevance: float | None = None,
    match: str | None = None,
) -> str:
    """One memory on one line; a search hit with its score, and its relevance in
    deviations marked "?" when a weaker match and "-" when the rule would not keep it."""
    mark = "*" if m.pinned else ("!" if m.always else " ")
    state = (" (expired)" if m.expired else "") + always_note(m)
    head = f"{m.id:>6} {mark} {m.kind:<10} {m.created_at[:10]} "
    if score is not None:
        head += f"{score:.4f} "
    if relevance is not None:
        head += f"{relevance:5.1f}{MATCH_MARKS.get(match or '', ' ')} "
    return head + one_line(m.text, max(20, columns - len(head) - len(state))) + state


# Why a memory is given on every turn, as the command line says it.
CARE_WORDS = {
    "health": "health",
    "diet": "diet",
    "access": "accessibility",
    "asked": "asked to remember",
}


def always_note(m: Memory) -> str:
    """ " (always given: health)" for a memory given on every turn, else ""."""
    if not getattr(m, "always", False):
        return ""
    return f" (always given: {CARE_WORDS.get(m.care or 'asked', m.care)})"


def progress(err: TextIO, what: str) -> Callable[[int, int], None] | None:
    if not err.isatty():
        return None

    def show(done: int, total: int) -> None:
        err.write(f"\r{what} {done}/{total}")
        if done >= total:
            err.write("\n")
        err.flush()

    return show


def pending_erase(app: Service, out: TextIO) -> None:
    """After a deletion: say so if another reader keeps the old pages for now."""
    if app.erase_pending():
        out.write(PENDING_ERASE + "\n")


def report(checks: Sequence[Check], as_json: bool, out: TextIO) -> None:
    if as_json:
        print_json([c.to_dict() for c in checks], out)
        return
    for c in checks:
        out.write(f"{'ok ' if c.ok else 'FIX'} {c.name:<16} {c.detail}\n")
        if c.fix:
            out.write(f"    {'':<16} -> {c.fix}\n")


def changes(items: Sequence[Change], err: TextIO) -> None:
    for c in items:
        if c.action == "skipped":
            continue
        was = f" (was: {c.before})" if c.before else ""
        given = f" (always given: {CARE_WORDS.get(c.always, c.always)})" if c.always else ""
        err.write(f"memory {c.action} #{c.memory_id}: {c.text}{was}{given}\n")
