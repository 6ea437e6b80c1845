"""Words of time and the dates a query names ("on 16 August", "2023年5月"): a
question's date is answered by when things were said, not by the words they hold."""

from __future__ import annotations

import re
from datetime import date, timedelta

_MONTHS = {
    name: n
    for n, names in enumerate(
        [("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"),
         ("may",), ("june", "jun"), ("july", "jul"), ("august", "aug"),
         ("september", "sep", "sept"), ("october", "oct"), ("november", "nov"),
         ("december", "dec")],
        1,
    )
    for name in names
}  # fmt: skip
# Time words: a query's date ("on 16 August", "last Tuesday") is answered by when things
# were said, not by words the texts contain. ("mar" alone is the verb far more often.)
_TIME_WORDS = frozenset(
    [
        *(name for name in _MONTHS if name != "mar"),
        *("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"),
    ]
)
_NUMBER = re.compile(r"\d+(?:st|nd|rd|th|s)?")


def is_time_word(term: str) -> bool:
    """A number ("2023", "16th", "90s") or a month or weekday name."""
    return term in _TIME_WORDS or bool(_NUMBER.fullmatch(term))


_MONTH = r"(?P<month>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<day>[0-3]?\d)(?:st|nd|rd|th)?"
_YEAR = r"(?P<year>(?:19|20)\d\d)"
_PERIODS = [
    re.compile(p, re.IGNORECASE)
    for p in (
        r"\b" + _YEAR + r"-(?P<mon>[01]\d)-(?P<day>[0-3]\d)\b",
        r"\b" + _DAY + r"\s+(?:of\s+)?" + _MONTH + r",?\s+" + _YEAR + r"\b",
        r"\b" + _MONTH + r"\s+" + _DAY + r",?\s+" + _YEAR + r"\b",
        r"\b" + _MONTH + r",?\s+(?:of\s+)?" + _YEAR + r"\b",
        _YEAR + r"\s*年\s*(?P<mon>1[0-2]|0?[1-9])\s*月(?:\s*(?P<day>[0-3]?\d)\s*[日号])?",
        r"\b(?:in|during|of)\s+" + _YEAR + r"\b",
        _YEAR + r"\s*年",
    )
]


def named_period(text: str) -> tuple[str, str] | None:
    """The day, month or year the text names ("on 3 June, 2023", "in October 2023",
    "2023年5月", "in 2023"), as ISO dates [start, end); None when it names none or an
    impossible date. A month without a year ("in June") is left alone: which June?"""
    for pattern in _PERIODS:
        found = pattern.search(text)
        if not found:
            continue
        parts = found.groupdict()
        year = int(parts["year"])
        month = parts.get("mon") or parts.get("month")
        day = parts.get("day")
        try:
            if month is None:
                return f"{year:04d}-01-01", f"{year + 1:04d}-01-01"
            m = int(month) if month.isdigit() else _MONTHS[month.lower()]
            if day is None:
                start = date(year, m, 1)
                end = date(year + m // 12, m % 12 + 1, 1)
            else:
                start = date(year, m, int(day))
                end = start + timedelta(days=1)
        except ValueError:
            return None
        return start.isoformat(), end.isoformat()
    return None
