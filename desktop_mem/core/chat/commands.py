"""Explicit memory commands typed in the chat: "remember that …", "记住…",
"forget …", "忘记…" at the start of a message."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

_REMEMBER = re.compile(
    r"^\s*(?:please\s+|pls\s+)?(?P<always>always\s+|never\s+forget\s+)?"
    r"(?:(?:remember|note|memori[sz]e)(?:\s+that)?|(?<=forget\s)(?:that)?)[\s:,，]+(?P<what>.+)$"
    r"|^\s*(?:请)?(?P<zh_always>永远|一定要|务必|始终|一直)?"
    r"(?:记住|記住|记得|記得|记一下)(?:[:：,，\s]|一下)*(?P<zh>.+)$",
    re.I | re.S,
)
_FORGET = re.compile(
    r"^\s*(?:please\s+)?forget(?:\s+(?:that|about|the\s+fact\s+that))?[\s:,，]+(?P<what>.+)$"
    r"|^\s*(?:请)?(?:忘记|忘掉|忘了|忘記|删除关于|刪除關於)(?:[:：,，\s]|一下)*(?P<zh>.+)$",
    re.I | re.S,
)


@dataclass
class Command:
    kind: Literal["remember", "forget"]
    text: str
    always: bool = False  # "always remember …", "永远记住…": given on every turn


def parse_command(message: str) -> Command | None:
    """'remember that ...', '记住…', 'forget ...', '忘记…' at the start of a message;
    'always remember ...', 'never forget ...', '永远记住…' ask for a memory given on every
    turn."""
    for kind, pattern in (("remember", _REMEMBER), ("forget", _FORGET)):
        m = pattern.match(message)
        if m:
            what = (m.group("what") or m.group("zh") or "").strip().rstrip(".。!！")
            always = kind == "remember" and bool(m.group("always") or m.group("zh_always"))
            if len(what) >= 2:
                return Command(kind, what, always)  # type: ignore[arg-type]
    return None


# -- what "remember …" stores and answers -----------------------------------------------
#
# A memory is a statement about the user, as learning writes them ("The user's favourite
# colour is green", "用户最喜欢的颜色是绿色"), not the user's own first person; the
# answer speaks to the user ("your favourite colour is green"). A rule does it: the
# first person is a closed set of words, and an English verb after "I" takes its third
# person by a few spelling rules. "We", "our" and "us" are left as they are: who else is
# meant is not said.

_FIRST = re.compile(
    r"(?<![\w'’])(?:(?P<i>I)(?:['’](?P<i_tail>m|ve|d|ll))?|(?P<word>my|me|mine|myself))"
    r"(?![\w'’])",
    re.I,
)
# after "I": where the verb is, past these
_ADVERBS = frozenset((
 "always", "never", "usually", "often", "also", "really", "sometimes", "just", "still",
 "only", "rarely", "mostly", "generally", "normally", "actually", "definitely", "probably",
 "seldom", "even", "already",
))  # fmt: skip
# modals and past forms take no -s
_UNCHANGED = frozenset((
 "can", "could", "will", "would", "shall", "should", "may", "might", "must", "ought",
 "can't", "cannot", "couldn't", "won't", "wouldn't", "shouldn't", "mustn't", "was",
 "wasn't", "had", "hadn't", "did", "didn't", "used", "went", "saw", "got", "made", "took",
 "came", "gave", "knew", "thought", "told", "became", "left", "felt", "bought", "brought",
 "began", "kept", "held", "wrote", "stood", "heard", "met", "ran", "paid", "sat", "spoke",
 "led", "grew", "lost", "fell", "sent", "built", "understood", "drew", "broke", "spent",
 "rose", "drove", "won", "ate", "drank", "sang", "swam", "flew", "forgot", "chose",
 "taught", "caught", "fought", "slept", "woke", "wore", "hid", "rode", "sold", "found",
 "said", "meant", "moved", "lived",
))  # fmt: skip
_IRREGULAR = {"am": "is", "have": "has", "do": "does", "go": "goes", "are": "is",
              "don't": "doesn't", "don’t": "doesn’t", "haven't": "hasn't",
              "haven’t": "hasn’t"}  # fmt: skip
_VERB = re.compile(r"[A-Za-z'’]+")


def _third_person(verb: str) -> str:
    """An English verb as it follows "the user": like → likes, watch → watches,
    study → studies, have → has; a modal or a past form stays."""
    low = verb.lower()
    if low in _IRREGULAR:
        out = _IRREGULAR[low]
    elif low in _UNCHANGED or low.endswith("ed") or not low.isalpha():
        return verb
    elif low.endswith(("s", "sh", "ch", "x", "z", "o")):
        out = low + "es"
    elif low.endswith("y") and len(low) > 1 and low[-2] not in "aeiou":
        out = low[:-1] + "ies"
    else:
        out = low + "s"
    return out.upper() if verb.isupper() and len(verb) > 1 else out


def _conjugate_after(text: str, start: int) -> str:
    """The verb after `start` (past an adverb or two) in the third person."""
    pos = start
    for _ in range(3):
        m = _VERB.search(text, pos)
        if m is None or text[pos : m.start()].strip():
            return text
        word = m.group()
        if word.lower() in _ADVERBS:
            pos = m.end()
            continue
        return text[: m.start()] + _third_person(word) + text[m.end() :]
    return text


def about_user(text: str) -> str:
    """The user's words as a statement about them: "my favourite colour is green" →
    "The user's favourite colour is green", "I like jazz" → "The user likes jazz",
    "我最喜欢的颜色是绿色" → "用户最喜欢的颜色是绿色"."""
    if _CJK_FIRST.search(text):
        text = _CJK_FIRST.sub("用户", text)
    out: list[str] = []
    pos = 0
    conjugate: list[int] = []  # where a verb follows a subject "I"
    for m in _FIRST.finditer(text):
        out.append(text[pos : m.start()])
        before = "".join(out).rstrip().lower()
        if m.group("i"):
            tail = (m.group("i_tail") or "").lower()
            subject = "the user"
            if tail in ("m",):
                said = subject + " is"
            elif tail == "ve":
                said = subject + " has"
            elif tail == "d":
                said = subject + " would"
            elif tail == "ll":
                said = subject + " will"
            else:
                said = subject
                # "my sister and I live": the verb is plural already ("I study French
                # and I cook" is two clauses: the first has its own subject)
                if not _compound(before):
                    conjugate.append(len("".join(out)) + len(said))
        else:
            word = m.group("word").lower()
            said = {"my": "the user's", "me": "the user", "mine": "the user's",
                    "myself": "themselves"}[word]  # fmt: skip
        out.append(said)
        pos = m.end()
    out.append(text[pos:])
    result = "".join(out)
    for at in reversed(conjugate):
        result = _conjugate_after(result, at)
    return result[:1].upper() + result[1:] if result[:1].islower() else result


_CJK_FIRST = re.compile(r"我(?!们|們)")


def _compound(before: str) -> bool:
    """Whether an "I" after `before` (lower case) ends a subject of several people: "my
    sister and I", "tom or I", not "I study French and I"."""
    m = re.search(r"(.*)\s(?:and|or|nor)$", before, re.S)
    if m is None:
        return False
    clause = re.split(r"[.!?;:,\n]", m.group(1))[-1]
    return len(clause.split()) <= 4 and re.search(r"\bthe user\b(?!['’]s)", clause) is None


_SECOND = {"i": "you", "i'm": "you're", "i've": "you've", "i'd": "you'd", "i'll": "you'll",
           "my": "your", "me": "you", "mine": "yours", "myself": "yourself"}  # fmt: skip


def to_you(text: str) -> str:
    """The user's words said back to them: "my favourite colour is green" → "your
    favourite colour is green", "我住在杭州" → "你住在杭州"."""
    text = re.sub(r"我们|我們", "你们", text)
    text = text.replace("我", "你")

    def swap(m: re.Match[str]) -> str:
        said = _SECOND[m.group().lower().replace("’", "'")]
        return said.replace("'", "’") if "’" in m.group() else said

    text = _FIRST.sub(swap, text)
    # "I am", "I was" said back: "you are", "you were"
    return _YOU_BE.sub(lambda m: m.group(1) + _BE[m.group(2).lower()], text)


_BE = {"am": "are", "was": "were", "wasn't": "weren't", "wasn’t": "weren’t"}
_YOU_BE = re.compile(r"(\byou\s+(?:\w+\s+)?)(am|was|wasn['’]t)\b", re.I)
