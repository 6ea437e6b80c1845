"""What a part of an export must be, checked as it is read: an object, a list, text, an
id, a date. A part that is something else is Malformed, said in words that name it
("conversation 3 (“Tea”)'s title is a list, not text")."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from desktop_mem.core import textproc


class Malformed(Exception):
    """What is wrong with one part of an export, in words ("conversation 3 (“Tea”):
    its messages form a loop"); the file's reader turns it into one sentence that names
    the file."""


_SURROGATE = re.compile("[\ud800-\udfff]")
_SCALARS = (str, int, float, bool)


def as_dict(value: object, what: str) -> dict[str, object]:
    """`value` as an object (None: an empty one); anything else is malformed."""
    if type(value) is dict:
        return value
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise Malformed(f"{what} is {type_name(value)}, not an object")
    return value


def as_list(value: object, what: str) -> list[object]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise Malformed(f"{what} is {type_name(value)}, not a list")
    return value


def as_text(value: object, what: str) -> str:
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
    raise Malformed(f"{what} is {type_name(value)}, not text")


def as_key(value: object, what: str) -> str | None:
    """An id: text or a number; None when there is none."""
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise Malformed(f"{what} is {type_name(value)}, not an id")
    return as_text(value, what)


def type_name(value: object) -> str:
    return {
        str: "text", int: "a number", float: "a number", bool: "true or false",
        list: "a list", dict: "an object",
    }.get(type(value), "empty")  # fmt: skip


def named(n: int, title: str) -> str:
    """How the n-th conversation is named in a sentence: its number and its title."""
    title = title.strip()
    return f"conversation {n:,}" + (
        f" (\u201c{textproc.shorten(title, 40)}\u201d)" if title else ""
    )


# -- dates -------------------------------------------------------------------------------


_ISO_UTC = re.compile(
    r"\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d"
    r"(?:\.\d{1,6})?(?:Z|\+00:00)"
)


def iso(value: object) -> str | None:
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
