"""Which memories are about the user's health and safety, and so always given.

Similarity is not relevance: for "plan a dinner with my husband tonight" the peanut
allergy is the most relevant fact the profile holds, and not at all similar; for "help me
clean the gutters" it is the fear of heights. A memory about health or safety (an allergy
or intolerance, a medication, a condition or a limit of the body, a fear or phobia, a
recovery from addiction, a pregnancy, a diet, a disability or accessibility need) or one
the user asked to be always remembered is therefore given to the model on every turn, in
the core block, whatever the message says (core/chat/read_path.py).

`recognise()` reads one sentence, in English, Chinese (simplified or traditional) or
both, as the memory is stored, whatever wrote it (the chat's learning, `memory add`, the
window, an import, an app over MCP (whose memory is given always only once the user says
so: issue 45), the Python API): no model is asked, so the answer is the same everywhere
and at once, and it stays fast enough for an import of a lifetime's facts. It looks for
what a sentence says of health or safety ("allergic", "过敏", "on blood thinners", "can't
swim", "terrified of heights", "我恐高", "sober"), not for a topic ("I love dogs" is no
fear), and then asks whose fact it is and whether it holds now. It is not one when it is:
denied ("I'm not allergic to anything", "我不恐高"); past or overcome ("I used to be
scared of flying, not any more", "我以前吃素"); someone else's ("my friend is allergic to
peanuts", "我同事怀孕了"; the user's family is the user's own care: a child's allergy,
a partner's diet), a pet's or a story's ("my dog is scared of thunder", "in the film the
hero is afraid of heights"); the user's work ("I'm a nurse who treats allergies"); a
what-if ("if I were pregnant"); for today only ("I can't swim today, the pool is
closed"); a joke ("I'm allergic to Mondays", "我对加班过敏"); or about a death or a star
sign. The user can turn it off per memory, or on for one it missed
(core/memory/store.py: `set_always`).

Fears and the body's limits are "health", not a kind of their own: a phobia is a
condition of its own (and a panic or a faint is the body's), a limit ("can't swim",
"can't lift heavy things") is what a condition leaves, and the model is given the
sentence itself, which says all a label could; a fifth kind would only split one list
the user reads as one ("always given: health").

CATEGORIES names what kind of care a memory calls for; the window and the command
line say it ("always given: health"). The figures (recall and false marks per language
and kind, on a development set and a held-out one, and the time per sentence):
docs/benchmarks.md, `benchmarks/care.py`.

The package: reading.py reads a sentence as written (spelling, characters), english.py
and chinese.py hold each language's rules (what a sentence says of health or safety),
holds.py whether what a rule found is the user's fact now; this module finds the rules
a sentence could match and asks them.
"""

from __future__ import annotations

import re

from desktop_mem.core.memory.care.chinese import ZH_RULES
from desktop_mem.core.memory.care.english import EN_RULES
from desktop_mem.core.memory.care.holds import holds
from desktop_mem.core.memory.care.reading import plain_text
from desktop_mem.core.memory.care.rule import Rule

# The kinds of care, most pressing first: the core block gives them in this order.
CATEGORIES = ("health", "diet", "access", "asked")
# Raised whenever the rules change: memories stored by older rules are read again.
RULES_VERSION = 2


def _index() -> tuple[dict[str, list[tuple[int, int]]], list[tuple[int, int, str]]]:
    """Each stem or Chinese character -> the (rule, group) it opens, a stem's own and
    those of the shorter stems it starts with; and the items found as pieces of the
    text instead ("*phob", "猪肉")."""
    stems: dict[str, list[tuple[int, int]]] = {}
    pieces: list[tuple[int, int, str]] = []
    for r, rule in enumerate(_RULES):
        for g, group in enumerate(rule.needs):
            for item in group:
                if item[0] == "*" or (not item.isascii() and not rule.zh):
                    pieces.append((r, g, item.lstrip("*")))
                else:
                    stems.setdefault(item, []).append((r, g))
    opens = {
        stem: [hit for n in range(1, len(stem) + 1) for hit in stems.get(stem[:n], ())]
        for stem in stems
    }
    return opens, pieces


def _trie(words: list[str]) -> str:
    """A regex that finds the longest of `words` a text holds at a place, as a trie: an
    alternation of 600 stems tried at every word is slow, a trie is not."""
    root: dict[str, dict] = {}
    for word in words:
        node = root
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def branch(node: dict[str, dict]) -> str:
        alts = [re.escape(c) + branch(child) for c, child in sorted(node.items()) if c]
        if not alts:
            return ""
        body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
        return f"(?:{body})?" if "" in node else body

    return branch(root)


def _candidates(lower: str) -> list[Rule]:
    """The rules whose every match the sentence could hold (see Rule.needs), in order."""
    opened: dict[int, int] = {}  # rule -> the groups found, as bits
    for stem in set(_STEM_FINDER.findall(lower)):
        for r, g in _STEMS[stem]:
            opened[r] = opened.get(r, 0) | 1 << g
    for r, g, piece in _PIECES:
        if piece in lower:
            opened[r] = opened.get(r, 0) | 1 << g
    return [_RULES[r] for r in sorted(opened) if opened[r] == _ALL_GROUPS[r]]


def names_care(text: str) -> bool:
    """Whether a text holds a word such facts are read by (an allergen, a drug, a
    condition, a fear: "peanuts", "allergy", "insulin"), though it says no fact itself:
    a "forget peanuts" is about the peanut allergy, a "forget Lisbon" is not."""
    lower = plain_text(text).lower()
    return any(stem in _STEMS for stem in _STEM_FINDER.findall(lower)) or any(
        piece in lower for _r, _g, piece in _PIECES
    )


def recognise(text: str) -> str | None:
    """The kind of care a memory's text calls for (one of CATEGORIES), or None."""
    if not text:
        return None
    plain = plain_text(text)
    candidates = _candidates(plain.lower())
    if not candidates:
        return None
    found: set[str] = set()
    for rule in candidates:
        if rule.category in found:
            continue
        for match in rule.pattern.finditer(plain):
            if holds(rule, plain, match.start(), match.end()):
                found.add(rule.category)
                break
    return next((c for c in CATEGORIES if c in found), None)


_RULES = (*EN_RULES, *ZH_RULES)
_STEMS, _PIECES = _index()
_ALL_GROUPS = [(1 << len(rule.needs)) - 1 for rule in _RULES]
# a stem of one or two letters ("mg", "AA") only as a word of its own
_STEM_FINDER = re.compile(
    r"(?<![a-z])(?:"
    + "|".join(sorted(s for s in _STEMS if s.isascii() and len(s) < 3))
    + r")(?![a-z])|(?<![a-z])"
    + _trie([s for s in _STEMS if s.isascii() and len(s) >= 3])
    + "|["
    + "".join(sorted(s for s in _STEMS if not s.isascii()))
    + "]"
)


def care_of(text: str, always: bool | None) -> str | None:
    """What a new memory's text calls for; one the writer asked to be always given that
    its text does not mark was asked to be always remembered."""
    recognised = recognise(text)
    return (recognised or "asked") if always else recognised
