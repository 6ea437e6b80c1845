"""The one streaming JSON reader every export format shares: a top-level JSON array
decoded element by element (an export of thousands of conversations is never held
whole), a top-level object read whole under a cap, and the sentences that say where a
file's JSON breaks."""

from __future__ import annotations

import gc
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO

from desktop_mem.core.errors import ExportRejected, ImportRejected

CHUNK = 1 << 20  # bytes read at a time from the stream
MAX_ELEMENT = 256 * 1024 * 1024  # one conversation larger than this is not a conversation
MAX_SMALL = 64 * 1024 * 1024  # a memories file read whole


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
            self.pos = skip(self.buf, self.pos)
            if self.pos < len(self.buf) or not self.more():
                return self.buf[self.pos : self.pos + 1]

    def broken(self, what: str, at: int | None = None) -> ImportRejected:
        where = f"character {self.consumed + (self.pos if at is None else at) + 1:,}"
        return broken(self.name, where, what)

    def value(self, decoder: json.JSONDecoder) -> object:
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


def iter_array(fh: IO[str], name: str) -> Iterator[object]:
    """The elements of the top-level JSON array in `fh`, one at a time, decoding only as
    much of the stream as the next element needs. A top-level object is yielded whole
    (small files: memories). Raises ImportRejected saying where the JSON breaks."""
    decoder = json.JSONDecoder()
    s = _Stream(fh, name)
    start = s.next_char()
    if start == "{":  # a memories file: small, and never read past the cap
        text = s.buf[s.pos :] + fh.read(MAX_SMALL + 1)
        if len(text) > MAX_SMALL:
            raise unreadable(name, "it is one object far too large for a list of memories")
        yield loads(text, name)
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


def skip(buf: str, pos: int) -> int:
    """The position of the first character at or after `pos` that is not white space."""
    n = len(buf)
    while pos < n and buf[pos] in " \t\r\n":
        pos += 1
    return pos


def loads(text: str, name: str) -> object:
    """A small JSON file read whole; its faults said as one sentence that names it."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise broken(name, f"line {exc.lineno}, column {exc.colno}", exc.msg) from None
    except RecursionError:
        raise unreadable(name, "it is nested too deeply") from None


def broken(name: str, where: str, what: str) -> ExportRejected:
    return ExportRejected(
        f"{name} is not valid JSON ({where}: {what}); it may be cut short: download the "
        "export again. Nothing was imported from it.",
        name, "unreadable", f"not valid JSON ({where}: {what})",
    )  # fmt: skip


def unreadable(name: str, what: str) -> ExportRejected:
    return ExportRejected(
        f"{name} cannot be read whole ({what}): nothing was imported from it. Download the "
        "export again.",
        name, "unreadable", what,
    )  # fmt: skip
