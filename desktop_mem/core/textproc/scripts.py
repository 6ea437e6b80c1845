"""Which script a text is written in, and its CJK characters (Han, kana, Hangul):
what decides how it is indexed and which reference sentences it is measured with."""

from __future__ import annotations

import re

# Han (with extensions A and the compatibility block), kana, Hangul, and
# half-width katakana: scripts written without spaces between words.
_CJK = "\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f"
_CJK_RUN = re.compile(f"[{_CJK}]+")
_CJK_CHAR = re.compile(f"[{_CJK}]")


def cjk_count(text: str) -> int:
    """How many CJK characters (Chinese, Japanese kana, Korean, their compatibility and
    half-width forms) the text has."""
    return len(_CJK_CHAR.findall(text))


def has_cjk(text: str) -> bool:
    return bool(_CJK_RUN.search(text))


SCRIPTS = ("other", "cjk")
_LETTER = re.compile(r"[^\W\d_]")


def script(text: str) -> str:
    """ "cjk" when CJK characters make up at least a third of the text's letters (its
    first 300 characters), else "other": which reference sentences an item is compared
    with, since a multilingual embedding model puts any two texts of one language
    closer than two of different languages, whatever they say."""
    head = text[:300]
    cjk = cjk_count(head)
    return "cjk" if cjk and 3 * cjk >= len(_LETTER.findall(head)) else "other"
