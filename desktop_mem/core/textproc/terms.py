"""A query's search terms and a text's full-text document: words without stop words,
CJK runs as overlapping bigrams (the classic CJK analyzer of Lucene and
Elasticsearch), the FTS5 expression; and what a query says of people (the writer
themselves, names)."""

from __future__ import annotations

import re

from desktop_mem.core.textproc.dates import is_time_word
from desktop_mem.core.textproc.display import normalize
from desktop_mem.core.textproc.scripts import _CJK, _CJK_RUN

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


_SUFFIXES = ("ies", "ied", "ing", "edly", "ed", "es", "s", "ly")


def _stem(word: str) -> str:
    """Near enough to the porter stemmer the full-text index uses to say which words of a
    text the query's words matched: "bees" and "bee", "lives" and "living" and "live",
    "studies" and "study"."""
    w = word.lower()
    for suffix in _SUFFIXES:
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            w = w[: -len(suffix)] + ("y" if suffix in ("ies", "ied") else "")
            break
    if w.endswith("i") and len(w) > 3:
        w = w[:-1] + "y"
    return w[:-1] if w.endswith("e") and len(w) > 3 else w


def matched_spans(text: str, query: str) -> list[tuple[int, int]]:
    """Where in `text` the query's search terms are (start, end), merged and in order,
    to highlight what a search matched: a word whose stem is a query word's (English
    and other spaced scripts), and each occurrence of a query's Chinese or Japanese
    bigram or lone character (they have no spaces: the search matches these)."""
    terms = query_terms(query)
    words = {_stem(t) for t in terms if not _CJK_RUN.fullmatch(t)}
    cjk = [t for t in terms if _CJK_RUN.fullmatch(t)]
    spans: list[tuple[int, int]] = []
    if words:
        spans += [(m.start(), m.end()) for m in _WORD.finditer(text) if _stem(m.group()) in words]
    folded = text.lower()
    for term in cjk:
        at = folded.find(term)
        while at >= 0:
            spans.append((at, at + len(term)))
            at = folded.find(term, at + 1)
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged
