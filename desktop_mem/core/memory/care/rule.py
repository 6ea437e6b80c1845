"""A rule of core/memory/care: what kind of care a phrasing says, the words it needs
and what may undo it."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True, eq=False)
class Rule:
    category: str
    pattern: re.Pattern[str]
    # What every match holds, so that a sentence without it is not searched (most
    # memories hold none: the rules' alternations are slow to try at every position).
    # English: groups of word stems (a word counts when it starts with one, the stems
    # cut to 8 letters), every group needed; "*x" is a piece of a word ("*phob"), a
    # non-Latin item a piece of the text. Chinese: characters, any one needed. The
    # suite checks that every phrasing of benchmarks/data/care gets the same answer with
    # all rules tried.
    needs: tuple[frozenset[str], ...]
    zh: bool = False
    # a past told of is the fact itself: "I used to drink" says the user is in recovery
    past: bool = False
    # may hold for now only: "I can't swim today", "今天不能喝酒"
    passing: bool = False
    # an allergy that may be a joke: "allergic to Mondays", "对加班过敏"
    allergy: bool = False
    # asked to be remembered: only a denial undoes it
    asked: bool = False
