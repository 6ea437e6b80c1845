"""Text as it is shown: on one line and cut, Markdown read as plain text, control
characters made visible, and the one normalisation every text goes through."""

from __future__ import annotations

import re
import unicodedata


def escape_controls(text: str) -> str:
    """Text safe to show on a terminal or in a list: control characters (escape
    sequences, newlines, BEL, bidirectional overrides) and undecodable bytes (surrogate
    escapes from a file name that is not UTF-8) written as visible escapes."""
    out = []
    for ch in text:
        code = ord(ch)
        if 0xDC80 <= code <= 0xDCFF:  # a byte os.fsdecode could not decode
            out.append(f"\\x{code - 0xDC00:02x}")
        elif unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp") and ch != "\u200d":
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        else:
            out.append(ch)
    return "".join(out)


def shorten(text: str, limit: int, one_line: bool = True) -> str:
    """The text cut to at most `limit` characters with an ellipsis; on one line (runs of
    white space as one space) unless told otherwise."""
    flat = " ".join(text.split()) if one_line else text
    if len(flat) <= limit:
        return flat
    return flat[: max(1, limit - 1)].rstrip() + "…"


_MD_RULES: list[tuple[re.Pattern[str], str]] = []


def plain_text(markdown: str) -> str:
    """What a Markdown answer reads as, for a one-line preview: no code fences, heading
    or quote marks, list bullets, emphasis or link syntax (a link keeps its words)."""
    if not _MD_RULES:
        _MD_RULES.extend(
            (re.compile(p, re.MULTILINE), r)
            for p, r in (
                (r"^\s*(```|~~~).*$", ""),  # code fences
                (r"^\s{0,3}#{1,6}\s+", ""),  # headings
                (r"^\s{0,3}>\s?", ""),  # quotes
                (r"^\s*(?:[-*+]|\d+[.)])\s+", ""),  # list items
                (r"!?\[([^\]]*)\]\([^)]*\)", r"\1"),  # links and images: their words
                (r"(\*\*|__)(.+?)\1", r"\2"),  # strong
                (r"(?<![\w*])([*_])(?!\s)(.+?)(?<!\s)\1(?![\w*])", r"\2"),  # emphasis
                (r"`([^`]*)`", r"\1"),  # inline code
                (r"^\s*([-*_]\s*){3,}$", ""),  # rules
            )
        )
    text = markdown
    for pattern, repl in _MD_RULES:
        text = pattern.sub(repl, text)
    return " ".join(text.split())


def normalize(text: str) -> str:
    """NFKC (full-width letters and digits to ASCII), collapsed white space."""
    return " ".join(unicodedata.normalize("NFKC", text).split())
