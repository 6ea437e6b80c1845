"""Text preparation for full-text search in English, Chinese and Japanese.

FTS5's unicode61 tokenizer keeps a run of CJK characters as one token, so "我下个月
要考试" would only match itself. The trigram tokenizer segments it, but cannot match
the two-character words that most Chinese queries are made of, and does not stem
English. So the index gets CJK runs rewritten as overlapping bigrams (the classic
CJK analyzer of Lucene and Elasticsearch), and English goes through porter
stemming: both languages, and mixed text, work in one index.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import date, timedelta

# Han (with extensions A and the compatibility block), kana, Hangul, and
# half-width katakana: scripts written without spaces between words.
_CJK = "\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f"
_CJK_RUN = re.compile(f"[{_CJK}]+")
_CJK_CHAR = re.compile(f"[{_CJK}]")


def cjk_count(text: str) -> int:
    """How many CJK characters (Chinese, Japanese kana, Korean, their compatibility and
    half-width forms) the text has."""
    return len(_CJK_CHAR.findall(text))


# Split at apostrophes as FTS5's unicode61 tokenizer does: "Caroline's" is "caroline"
# and "s" (a stop word), so a possessive name counts as the name.
_WORD = re.compile(rf"[^\W_{_CJK}]+")

STOPWORDS = frozenset(
    [
        "a",
        "about",
        "after",
        "again",
        "all",
        "also",
        "am",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "been",
        "before",
        "being",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "done",
        "during",
        "each",
        "for",
        "from",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "him",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "just",
        "me",
        "might",
        "more",
        "most",
        "my",
        "no",
        "nor",
        "not",
        "of",
        "on",
        "once",
        "only",
        "or",
        "other",
        "our",
        "ours",
        "out",
        "over",
        "own",
        "same",
        "she",
        "should",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "to",
        "too",
        "under",
        "until",
        "up",
        "very",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "yours",
        "s",
        "t",
        "d",
        "ll",
        "m",
        "re",
        "ve",
    ]
)


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


def _bigrams(run: str) -> list[str]:
    if len(run) == 1:
        return [run]
    return [run[i : i + 2] for i in range(len(run) - 1)]


def fts_document(text: str) -> str:
    """What goes into the full-text index for `text`."""
    text = normalize(text)
    return _CJK_RUN.sub(lambda m: " " + " ".join(_bigrams(m.group())) + " ", text)


def query_terms(query: str) -> list[str]:
    """The search terms of a query: words (minus stop words) and CJK bigrams."""
    text = normalize(query).lower()
    words: list[str] = []
    cjk: list[str] = []
    pos = 0
    for m in _CJK_RUN.finditer(text):
        words += _WORD.findall(text[pos : m.start()])
        cjk += _bigrams(m.group())
        pos = m.end()
    words += _WORD.findall(text[pos:])
    content = [w for w in words if w not in STOPWORDS]
    terms = (content or words) + cjk
    return list(dict.fromkeys(terms))  # first occurrence of each, in order


def fts_match(terms: list[str]) -> str | None:
    """An FTS5 MATCH expression that ORs the terms, each quoted so that user input
    can never be read as FTS5 syntax (quotes, *, NEAR, -, AND/OR/NOT)."""
    parts = []
    for term in terms:
        quoted = '"' + term.replace('"', '""') + '"'
        # A lone CJK character is indexed only inside bigrams: match it as a prefix.
        if len(term) == 1 and _CJK_RUN.fullmatch(term):
            quoted += "*"
        parts.append(quoted)
    return " OR ".join(parts) if parts else None


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


# Chinese function words: pronouns, question words, particles and the copula, as the
# English stop words are. A question is made of them ("我的狗叫什么名字？") whatever it
# asks about, so they say nothing about whether the profile knows its subject. Only
# characters that are function words wherever they stand: 过, 在 or 有 also make
# content words (过敏, 现在, 有名). Longest first, as they are matched.
CJK_FUNCTION_WORDS = (
    "为什么", "是不是", "有没有",
    "什么", "怎么", "怎样", "如何", "哪里", "哪儿", "哪个", "哪些", "多少",
    "我们", "你们", "他们", "她们", "它们", "自己",
    "我", "你", "您", "他", "她", "它", "的", "是", "吗", "呢", "吧", "啊", "呀", "哪", "谁",
)  # fmt: skip


def cjk_function_positions(run: str) -> set[int]:
    """The positions in a CJK run that its function words take (CJK_FUNCTION_WORDS),
    matched left to right, longest first."""
    out: set[int] = set()
    i = 0
    while i < len(run):
        word = next((w for w in CJK_FUNCTION_WORDS if run.startswith(w, i)), None)
        if word is None:
            i += 1
            continue
        out.update(range(i, i + len(word)))
        i += len(word)
    return out


def cjk_runs(terms: list[str]) -> list[list[str]]:
    """The query's CJK bigrams regrouped into the runs they came from (consecutive
    bigrams overlap by one character)."""
    runs: list[list[str]] = []
    for t in terms:
        if not _CJK_RUN.fullmatch(t):
            continue
        if runs and len(t) == 2 and len(runs[-1][-1]) == 2 and runs[-1][-1][1] == t[0]:
            runs[-1].append(t)
        else:
            runs.append([t])
    return runs


def remove_words(text: str, words: list[str]) -> str:
    """`text` without the given (lower-case) words and their possessive 's."""
    if not words:
        return normalize(text)
    alternatives = "|".join(re.escape(w) for w in sorted(set(words), key=len, reverse=True))
    pattern = re.compile(rf"(?<![^\W_])(?:{alternatives})(?:['’]s)?(?![^\W_])", re.IGNORECASE)
    return " ".join(pattern.sub("", normalize(text)).split())


# The user speaking of themselves: I, me, my, we, our (and contractions), 我 / 我们.
_FIRST_PERSON = re.compile(
    r"(?<![\w'])(?:i|i'm|i've|i'd|i'll|me|my|mine|myself|we|we're|we've|us|our|ours)(?![\w'])|我",
    re.IGNORECASE,
)


def speaks_of_self(text: str) -> bool:
    """Whether the text speaks of its writer: "what's my blood type?", "do I have any
    siblings?", "我喜欢喝什么？" (but not "what's the capital of Canada?")."""
    text = normalize(text).replace("\u2019", "'")
    return any(m.group() != "US" for m in _FIRST_PERSON.finditer(text))  # the country


_SENTENCE_START = re.compile(r"(?:^|[.!?。！？]\s*|[\"“(]\s*)$")


def names(text: str) -> frozenset[str]:
    """The query terms the text writes as names: words with a capital letter that do
    not start a sentence (and are not "I" or "OK"), lower-cased as query terms are. A question
    asks about a person, a place or a brand by name, never in other words, so a name
    the profile has never seen says it is about something never mentioned."""
    text = normalize(text)
    found: set[str] = set()
    for m in _WORD.finditer(text):
        word = m.group()
        if (
            not word[0].isupper()
            or word in ("I", "I'm", "OK", "Ok")
            or _SENTENCE_START.search(text[: m.start()])
        ):
            continue
        found.add(word.lower())
    return frozenset(w for w in found if w not in STOPWORDS and not is_time_word(w))
