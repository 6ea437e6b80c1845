"""A new user's store: does the product find what one person told it, and only that?

The data (benchmarks/data/personal/dev.json, the set the rule was worked out on, or
--data: heldout.json beside it was written without sight of the code or the rule, to
check it) describes one bilingual user:
memories as an extractor writes them, two questions per memory phrased the way people
talk (mostly not in the memory's words, a quarter across languages), questions about
things never mentioned, small talk, padding memories about the same life that answer
none of the questions, and a few documents with questions whose answer is a passage.

For each embedding model and each store size (the first N memories; 300 adds the
padding), every question is asked of a fresh profile two ways:

- search: `profile.search.search`, what the browser, the Python API and MCP see;
- read: the chat's read path, a ChatSession turn (the message stored first, as the chat
  does) whose memories given (`used`) are read, the conversation removed after.

Reported per language direction (question -> memory): `kept`, the answers the relevance
rule keeps over the answers in the plain top 5 (the ranking without the rule: what the
model can find at all); `unrelated_empty`, the share of questions about things never
mentioned that get nothing; `smalltalk_items`, the mean items given for a greeting.
Documents the same, for the passage that contains the answer (document search and the
read path's documents block).

    python benchmarks/personal.py [--backend minilm e5] [--sizes 10 30 60 300] [--json]
    python benchmarks/personal.py --rule z=3.5 --sweep keyword_credit=2,3,4
    python benchmarks/personal.py --gates 2 2.5 3 3.5   # what a single gate could separate
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import re
import statistics
import sys
import tempfile
import time
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import embed_server, scratch_home
from desktop_mem.core import textproc
from desktop_mem.core.chat.records import IN_EVERY_PROMPT
from desktop_mem.core.chat.session import ChatSession
from desktop_mem.core.config import Config
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.models.llm import Stream, Usage
from desktop_mem.core.profile import Profile
from desktop_mem.core.search.relevance import RelevanceRule

DATA = Path(__file__).resolve().parent / "data" / "personal" / "dev.json"
MODELS = {"minilm": "all-minilm", "e5": "multilingual-e5-small"}
SIZES = (10, 30, 60, 300)
DIRECTIONS = ("en->en", "zh->zh", "en->zh", "zh->en")
PATHS = ("search", "read")
TOP = 5  # the plain ranking's answers counted: among its first 5
TARGET = {"kept": 0.85, "unrelated_empty": 0.80, "smalltalk_items": 0.2}


class QuietModel:
    """A chat model that answers every turn with one word at once: the benchmark reads
    what the prompt was given, not the answer."""

    model = "bench-quiet"
    local = True
    host = "in-process"

    def stream(self, messages: Sequence[dict[str, str]], options: Any = None) -> Stream:
        return Stream(lambda: iter([("ok", Usage())]), lambda: None, lambda exc: exc)

    def complete_json(self, messages: Any, schema: Any, options: Any = None) -> tuple[str, Usage]:
        return '{"title": "question"}', Usage()

    def context_length(self) -> int:
        return 32_768

    def num_ctx(self) -> int:
        return 8_192

    def models(self) -> list[str]:
        return [self.model]


@dataclass
class Tally:
    """Counts for one model, path and store size."""

    top: dict[str, int] = field(default_factory=lambda: dict.fromkeys(DIRECTIONS, 0))
    kept: dict[str, int] = field(default_factory=lambda: dict.fromkeys(DIRECTIONS, 0))
    asked: dict[str, int] = field(default_factory=lambda: dict.fromkeys(DIRECTIONS, 0))
    unrelated: list[int] = field(default_factory=list)  # items given, per unrelated question
    smalltalk: list[int] = field(default_factory=list)
    # the probe pairs: the same question bare and framed ("Can you ...? Maybe ..."):
    # whether each kept its answer, and the items given for framed unrelated questions
    bare_kept: int = 0
    framed_kept: int = 0
    pairs: int = 0
    framed_unrelated: list[int] = field(default_factory=list)
    bare_unrelated: list[int] = field(default_factory=list)  # the same questions bare
    # per question with an answer in the store: the items found for it (memories found
    # and past messages, not the core block), and those of them that are not its answer
    given: list[int] = field(default_factory=list)
    extra: list[int] = field(default_factory=list)
    # items found at or below chance (relevance <= 0), over every question asked; weak
    # matches given beside a strong one, per question with an answer
    below_chance: int = 0
    weak_beside_strong: list[int] = field(default_factory=list)

    def merge(self, other: Tally) -> None:
        for d in DIRECTIONS:
            self.top[d] += other.top[d]
            self.kept[d] += other.kept[d]
            self.asked[d] += other.asked[d]
        self.unrelated += other.unrelated
        self.smalltalk += other.smalltalk
        self.bare_kept += other.bare_kept
        self.framed_kept += other.framed_kept
        self.pairs += other.pairs
        self.framed_unrelated += other.framed_unrelated
        self.bare_unrelated += other.bare_unrelated
        self.given += other.given
        self.extra += other.extra
        self.below_chance += other.below_chance
        self.weak_beside_strong += other.weak_beside_strong

    def summary(self) -> dict[str, Any]:
        def share(a: int, b: int) -> float | None:
            return round(a / b, 3) if b else None

        top, kept = sum(self.top.values()), sum(self.kept.values())
        return {
            "kept": share(kept, top),
            "kept_by_direction": {d: share(self.kept[d], self.top[d]) for d in DIRECTIONS},
            "answers_in_top": top,
            "answers_kept": kept,
            "questions": sum(self.asked.values()),
            "in_top_by_direction": dict(self.top),
            "unrelated_empty": share(sum(n == 0 for n in self.unrelated), len(self.unrelated)),
            "unrelated_items": share(sum(self.unrelated), len(self.unrelated)),
            "smalltalk_items": share(sum(self.smalltalk), len(self.smalltalk)),
            "given_per_question": share(sum(self.given), len(self.given)),
            "extra_per_question": share(sum(self.extra), len(self.extra)),
            "weak_beside_strong": share(sum(self.weak_beside_strong), len(self.weak_beside_strong)),
            "below_chance": self.below_chance,
            "framed": {
                "pairs": self.pairs,
                "bare_kept": share(self.bare_kept, self.pairs),
                "framed_kept": share(self.framed_kept, self.pairs),
                # what framing keeps of what the bare question keeps
                "ratio": share(self.framed_kept, self.bare_kept),
                "unrelated_empty": share(
                    sum(n == 0 for n in self.framed_unrelated), len(self.framed_unrelated)
                ),
                "bare_unrelated_empty": share(
                    sum(n == 0 for n in self.bare_unrelated), len(self.bare_unrelated)
                ),
            },
        }


def direction(question_lang: str, item_lang: str) -> str:
    return f"{question_lang}->{item_lang}"


def _lang(text: str) -> str:
    return "zh" if textproc.script(text) == "cjk" else "en"


def open_profile(home: Path, name: str, host: str, model: str, cache: OrderedDict) -> Profile:
    config = Config.resolve(home=home, profile=name, ollama_host=host, embed_model=model)
    prof = Profile.open(config)
    # Every profile of a model shares one cache: each text is embedded once per run.
    prof.embedder._cache = cache
    prof.embedder._cache_size = 1_000_000
    prof.settings.set("auto_memory", False)  # a turn learns nothing: the store stays as built
    return prof


def use_rule(prof: Profile, rule: RelevanceRule) -> None:
    """Judge every tier of the profile by `rule`."""
    prof.rule = rule
    prof.search.rule = rule
    prof.conversations.rule = rule
    prof.documents.rule = rule


def memory_profile(
    home: Path, host: str, model: str, data: dict, size: int, cache: OrderedDict
) -> tuple[Profile, dict[str, int]]:
    """A profile holding the first `size` memories (beyond all of them, the padding
    too); the data's memory id -> the stored id."""
    prof = open_profile(home, f"memories-{size}", host, model, cache)
    chosen = data["memories"][:size]
    padding = data["padding"][: max(0, size - len(data["memories"]))]
    items = [
        NewMemory(m["text"], kind=m.get("kind", "fact"), importance=m.get("importance", 0.5),
                  source="extractor")
        for m in [*chosen, *padding]
    ]  # fmt: skip
    stored, warnings = prof.memories.add_many(items, actor="extractor")
    if warnings:
        sys.exit(f"embedding failed: {warnings[0]}")
    return prof, {m["id"]: s.id for m, s in zip(chosen, stored, strict=False)}


def document_profile(home: Path, host: str, model: str, data: dict, cache: OrderedDict) -> Profile:
    prof = open_profile(home, "documents", host, model, cache)
    with tempfile.TemporaryDirectory(prefix="desktop-mem-bench-docs-") as folder:
        for doc in data["documents"]:
            (Path(folder) / doc["name"]).write_text(doc["text"], "utf-8")
        report = prof.documents.add(Path(folder))
    if report.refused or not report.passages:
        sys.exit(f"the documents were not added: {report.refused}")
    return prof


def chat_turn(prof: Profile, text: str) -> Any:
    """One turn of the chat as the window and `desktop-mem chat` run it, in a new
    conversation that is removed afterwards (each question meets the store as built)."""
    session = ChatSession(prof, QuietModel())
    try:
        result = session.send(text)
        if result.titling is not None:
            result.titling.result()
    finally:
        session.close()
    if result.conversation_id is not None:
        prof.conversations.delete(result.conversation_id)
    return result


def _given(result: Any) -> tuple[list[int], int]:
    """The memories a turn was given, and how many items count against "nothing about
    it": those found for this message (memories and past messages), not the core
    memories every prompt holds."""
    used = [u.memory_id for u in result.used]
    found = [u for u in result.used if u.why not in IN_EVERY_PROMPT]
    return used, len(found) + len(result.recalled)


@dataclass
class Turn:
    """What one question was given on a path: every memory (`ids`, the core block's
    too), the items found for it (`found`: memories and past messages), which found
    memories came as weak matches, and how many found stand at or below chance."""

    ids: list[int]
    found: list[int]
    weak: set[int]
    messages: int
    below_chance: int

    @property
    def count(self) -> int:
        return len(self.found) + self.messages


def asked(prof: Profile, path: str, text: str) -> Turn:
    """The question asked on `path`: search (what the browser, the API and MCP see) or
    the chat's read path."""
    if path == "search":
        hits = prof.search.search(text).hits
        found = [h.memory.id for h in hits]
        below = sum(h.relevance is not None and h.relevance <= 0 for h in hits)
        return Turn(found, found, {h.memory.id for h in hits if h.weak}, 0, below)
    result = chat_turn(prof, text)
    found_used = [u for u in result.used if u.why not in IN_EVERY_PROMPT]
    found = [u.memory_id for u in found_used]
    below = 0
    if found:  # the read path's memories judged as search judges them, for their relevance
        listing = prof.search.search(text, k=50, relevant_only=False).hits
        relevance = {h.memory.id: h.relevance for h in listing}
        below = sum(relevance.get(i) is not None and relevance[i] <= 0 for i in found)
    below += sum(r.relevance is not None and r.relevance <= 0 for r in result.recalled)
    return Turn([u.memory_id for u in result.used], found,
                {u.memory_id for u in found_used if u.weak}, len(result.recalled), below)  # fmt: skip


def score_memories(prof: Profile, data: dict, ids: dict[str, int], paths: Sequence[str]) -> dict:
    lang_of = {m["id"]: m["lang"] for m in data["memories"]}
    tallies = {p: Tally() for p in paths}
    for q in data["questions"]:
        answer = ids.get(q["memory"])
        if answer is None:
            continue
        d = direction(q["lang"], lang_of[q["memory"]])
        plain = prof.search.search(q["text"], k=TOP, relevant_only=False).hits
        in_top = answer in [h.memory.id for h in plain]
        for p in paths:
            t = tallies[p]
            t.asked[d] += 1
            turn = asked(prof, p, q["text"])
            t.given.append(turn.count)
            t.extra.append(turn.count - (answer in turn.found))
            t.below_chance += turn.below_chance
            strong = any(i not in turn.weak for i in turn.found)
            t.weak_beside_strong.append(len(turn.weak) if strong else 0)
            if not in_top:
                continue
            t.top[d] += 1
            t.kept[d] += answer in turn.ids
    for kind, bucket in (("unrelated", "unrelated"), ("small_talk", "smalltalk")):
        for q in data[kind]:
            for p in paths:
                turn = asked(prof, p, q["text"])
                tallies[p].below_chance += turn.below_chance
                getattr(tallies[p], bucket).append(turn.count)
    score_framed(prof, data, ids, tallies)
    return {p: t for p, t in tallies.items()}


def given_for(prof: Profile, path: str, text: str) -> tuple[list[int], int]:
    """The memories a question is given on a path, and how many items count against
    "nothing about it" (see _given)."""
    if path == "search":
        hits = prof.search.search(text).hits
        return [h.memory.id for h in hits], len(hits)
    return _given(chat_turn(prof, text))


def score_framed(prof: Profile, data: dict, ids: dict[str, int], tallies: dict) -> None:
    """The probe pairs: each question asked bare and framed the way people write to an
    assistant (a polite request, several sentences, a trailing phrase); whether each
    keeps its answer, and what framed questions about things never mentioned are given."""
    for pair in data.get("framed", []):
        answer = ids.get(pair["memory"])
        if answer is None:
            continue
        for p, t in tallies.items():
            t.pairs += 1
            t.bare_kept += answer in given_for(prof, p, pair["bare"])[0]
            t.framed_kept += answer in given_for(prof, p, pair["framed"])[0]
    for q in data.get("framed_unrelated", []):
        for p, t in tallies.items():
            t.framed_unrelated.append(given_for(prof, p, q["framed"])[1])
            t.bare_unrelated.append(given_for(prof, p, q["bare"])[1])


def separation(prof: Profile, data: dict, ids: dict[str, int], gates: Sequence[float]) -> dict:
    """How far a single gate on the deviation above chance could separate answers from
    questions about things never mentioned, whatever the rest of the rule does: the
    answer's deviation where it is in the plain top 5, and the largest deviation in the
    plain top 5 of each unrelated question (personal and general apart); per gate, the
    share of answers at or above it and of unrelated questions with nothing at or above
    it. Pairs the model cannot read (no deviation) count as below every gate."""

    def deviations(text: str) -> dict[int, float]:
        """The plain top 5's memories, each with its deviation (-inf: unreadable)."""
        hits = prof.search.search(text, k=TOP, relevant_only=False).hits
        return {h.memory.id: -math.inf if h.relevance is None else h.relevance for h in hits}

    answers: list[float] = []
    for q in data["questions"]:
        answer = ids.get(q["memory"])
        top = deviations(q["text"])
        if answer is not None and answer in top:
            answers.append(top[answer])
    unrelated: dict[str, list[float]] = {"personal": [], "general": []}
    for q in data["unrelated"]:
        best = max(deviations(q["text"]).values(), default=-math.inf)
        unrelated[q.get("type", "personal")].append(best)

    def median(xs: list[float]) -> float | None:
        return round(statistics.median(xs), 2) if xs else None

    def share(xs: list[float], gate: float, above: bool) -> float | None:
        if not xs:
            return None
        return round(sum((x >= gate) == above for x in xs) / len(xs), 3)

    return {
        "answer_median": median(answers),
        **{f"{kind}_unrelated_median": median(xs) for kind, xs in unrelated.items()},
        "gates": {
            str(g): {
                "answers_at_or_above": share(answers, g, True),
                **{
                    f"{kind}_unrelated_below": share(xs, g, False) for kind, xs in unrelated.items()
                },
            }
            for g in gates
        },
    }


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", textproc.normalize(text)).lower()


def score_documents(prof: Profile, data: dict, paths: Sequence[str]) -> dict:
    """As for memories, the answer being the passage that contains the question's
    answer text."""
    lang_of = {d["name"]: _lang(d["text"]) for d in data["documents"]}
    tallies = {p: Tally() for p in paths}
    for q in data["document_questions"]:
        d = direction(q["lang"], lang_of[q["document"]])
        want = _squash(q["answer"])
        plain = prof.documents.search(q["text"], k=TOP, relevant_only=False)
        answers = {h.chunk_id for h in plain if want in _squash(h.text)}
        for p in paths:
            tallies[p].asked[d] += 1
            if not answers:
                continue
            tallies[p].top[d] += 1
            if p == "search":
                found = {h.chunk_id for h in prof.documents.search(q["text"], k=TOP)}
            else:
                found = {p.chunk_id for p in chat_turn(prof, q["text"]).documents}
            tallies[p].kept[d] += bool(answers & found)
    for kind, bucket in (("document_unrelated", "unrelated"), ("small_talk", "smalltalk")):
        for q in data[kind]:
            for p in paths:
                if p == "search":
                    n = len(prof.documents.search(q["text"], k=TOP))
                else:
                    n = len(chat_turn(prof, q["text"]).documents)
                getattr(tallies[p], bucket).append(n)
    return tallies


def _value(text: str) -> object:
    """A rule field's value from the command line: a bool, None, an int or a float."""
    if text.lower() == "none":
        return None
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return float(text) if "." in text or "e" in text.lower() else int(text)


def settings(fixed: list[str], sweep: list[str]) -> Iterator[tuple[dict, RelevanceRule]]:
    """The rules to measure: the default with `fixed` changes, times every combination
    of the swept values."""
    base = {k: _value(v) for k, v in (r.split("=", 1) for r in fixed)}
    axes = [(k, [_value(x) for x in v.split(",")]) for k, v in (s.split("=", 1) for s in sweep)]
    names = [k for k, _ in axes]
    for values in itertools.product(*[v for _, v in axes]):
        changes = {**base, **dict(zip(names, values, strict=True))}
        yield changes, RelevanceRule(**changes)


def run_model(args: argparse.Namespace, host: str, model: str, data: dict) -> list[dict]:
    """Every setting's rows for one embedding model."""
    cache: OrderedDict = OrderedDict()
    rows: list[dict] = []
    with scratch_home() as home:
        stores = [(size, *memory_profile(home, host, model, data, size, cache))
                  for size in args.sizes]  # fmt: skip
        docs = document_profile(home, host, model, data, cache) if args.documents else None
        if args.gates:  # the default rule's chance levels; its judgement plays no part
            for _, prof, _ in stores:
                use_rule(prof, RelevanceRule())
            rows.append({"model": model, "separation": {
                str(size): separation(prof, data, ids, args.gates) for size, prof, ids in stores
            }})  # fmt: skip
        if args.cuts:  # what the default rule keeps, cut again by each of CUTS
            for _, prof, _ in stores:
                use_rule(prof, RelevanceRule())
            lists = [x for _, prof, ids in stores for x in kept_lists(prof, data, ids)]
            rows.append({"model": model, "cuts": {name: cut_score(lists, cut)
                                                  for name, cut in CUTS.items()}})  # fmt: skip
        for changes, rule in settings(args.rule, args.sweep):
            started = time.perf_counter()
            row: dict[str, Any] = {"model": model, "rule": changes, "memories": {}}
            pooled = {p: Tally() for p in args.paths}
            for size, prof, ids in stores:
                use_rule(prof, rule)
                per_path = score_memories(prof, data, ids, args.paths)
                row["memories"][str(size)] = {p: t.summary() for p, t in per_path.items()}
                for p, t in per_path.items():
                    pooled[p].merge(t)
            row["memories"]["all"] = {p: t.summary() for p, t in pooled.items()}
            if docs is not None:
                use_rule(docs, rule)
                row["documents"] = {
                    p: t.summary() for p, t in score_documents(docs, data, args.paths).items()
                }
            row["seconds"] = round(time.perf_counter() - started, 1)
            rows.append(row)
            print(f"  {model} {changes or 'default'}: {row['seconds']} s", file=sys.stderr)
        for _, prof, _ in stores:
            prof.close()
        if docs is not None:
            docs.close()
    return rows


# A kept item: (memory id, relevance, weak), in the order search gives them.
Kept = list[tuple[int, float, bool]]


def kept_lists(prof: Profile, data: dict, ids: dict[str, int]) -> list[tuple[int, bool, Kept]]:
    """For each question with an answer in the store: the answer, whether it is in the
    plain top 5, and what search keeps (the default k of 10)."""
    out = []
    for q in data["questions"]:
        answer = ids.get(q["memory"])
        if answer is None:
            continue
        plain = prof.search.search(q["text"], k=TOP, relevant_only=False).hits
        hits = prof.search.search(q["text"]).hits
        out.append((answer, answer in [h.memory.id for h in plain],
                    [(h.memory.id, h.relevance or 0.0, h.weak) for h in hits]))  # fmt: skip
    return out


def _no_weak_beside_strong(kept: Kept) -> Kept:
    return [k for k in kept if not k[2]] if any(not k[2] for k in kept) else kept


def _share_of_best(share: float) -> Any:
    return lambda kept: [k for k in kept if k[1] >= share * max(x[1] for x in kept)]


def _within_best(margin: float) -> Any:
    return lambda kept: [k for k in kept if k[1] >= max(x[1] for x in kept) - margin]


def _weak_at_most(n: int) -> Any:
    def cut(kept: Kept) -> Kept:
        if all(k[2] for k in kept):
            return kept
        weak = [k for k in kept if k[2]][:n]
        return [k for k in kept if not k[2] or k in weak]

    return cut


# Ways to give less than the rule keeps, each applied to what it keeps (--cuts). An
# unrelated question keeps its items under each (each keeps the best), so its share
# given nothing does not move: what they trade is answers for items beside them.
CUTS: dict[str, Any] = {
    "as kept": lambda kept: kept,
    "no weak beside a strong one": _no_weak_beside_strong,
    "at most 1 weak beside a strong one": _weak_at_most(1),
    "half the best's deviations": _share_of_best(0.5),
    "a third of the best's": _share_of_best(1 / 3),
    "within 2 deviations of the best": _within_best(2.0),
    "the first 3": lambda kept: kept[:3],
    "the first 2": lambda kept: kept[:2],
    "no weak beside strong, first 3": lambda kept: _no_weak_beside_strong(kept)[:3],
}


def cut_score(lists: list[tuple[int, bool, Kept]], cut: Any) -> dict[str, float]:
    """Answers kept (of those in the plain top 5) and items beside the answer per
    question, when what the rule keeps is cut so."""
    kept = top = beside = 0
    for answer, in_top, items in lists:
        given = [k[0] for k in (cut(items) if items else items)]
        beside += len(given) - (answer in given)
        top += in_top
        kept += in_top and answer in given
    return {"kept": round(kept / max(top, 1), 3), "beside": round(beside / max(len(lists), 1), 2)}


def meets(summary: dict) -> bool:
    return (
        (summary["kept"] or 0) >= TARGET["kept"]
        and (summary["unrelated_empty"] or 0) >= TARGET["unrelated_empty"]
        and (summary["smalltalk_items"] or 0) <= TARGET["smalltalk_items"]
    )


def _cell(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}"


def print_table(result: dict) -> None:
    head = ("kept", *DIRECTIONS, "unrel.empty", "smalltalk", "framed/bare", "fr.unrel",
            "given/q", "extra/q", "weak+strong", "<=chance")  # fmt: skip
    print(f"{'model':<22}{'rule':<28}{'store':<8}{'path':<8}" + "".join(f"{h:>12}" for h in head))
    for row in result["rows"]:
        for name, c in row.get("cuts", {}).items():
            print(f"{row['model']:<22}{name:<36} kept {c['kept']:.3f}, beside the answer "
                  f"{c['beside']:.2f} a question (search, every size)")  # fmt: skip
        if "separation" in row or "cuts" in row:
            continue
        rule = ",".join(f"{k}={v}" for k, v in row["rule"].items()) or "default"
        lines = [(size, by) for size, by in row["memories"].items()]
        if "documents" in row:
            lines.append(("docs", row["documents"]))
        for size, by in lines:
            for path, s in by.items():
                cells = [s["kept"], *s["kept_by_direction"].values(), s["unrelated_empty"],
                         s["smalltalk_items"], s["framed"]["ratio"],
                         s["framed"]["unrelated_empty"], s.get("given_per_question"),
                         s.get("extra_per_question"), s.get("weak_beside_strong"),
                         s.get("below_chance")]  # fmt: skip
                mark = " *" if meets(s) else ""
                print(f"{row['model']:<22}{rule:<28}{size:<8}{path:<8}"
                      + "".join(f"{_cell(c):>12}" for c in cells) + mark)  # fmt: skip
    print(f"kept: answers the rule keeps / answers in the plain top {TOP}; * meets the targets "
          f"(kept >= {TARGET['kept']}, unrelated empty >= {TARGET['unrelated_empty']}, "
          f"small talk <= {TARGET['smalltalk_items']} items); framed/bare: answers kept "
          f"for framed questions over those kept for the same questions bare; fr.unrel: "
          f"framed unrelated questions given nothing; given/q: items found per question with an "
          f"answer in the store (memories found and past messages, not the core block), extra/q: "
          f"those of them not its answer, weak+strong: weak matches given beside a strong one, "
          f"<=chance: items found at or below chance (relevance <= 0), every question; "
          f"{result['seconds']} s")  # fmt: skip
    for row in result["rows"]:
        for size, sep in row.get("separation", {}).items():
            print(f"{row['model']}, {size} memories, a single gate: answers' median deviation "
                  f"{sep['answer_median']}, unrelated personal {sep['personal_unrelated_median']}, "
                  f"general {sep['general_unrelated_median']}")  # fmt: skip
            for gate, at in sep["gates"].items():
                print(f"  gate {gate}: answers kept {_cell(at['answers_at_or_above'])}, "
                      f"unrelated with nothing: personal {_cell(at['personal_unrelated_below'])}, "
                      f"general {_cell(at['general_unrelated_below'])}")  # fmt: skip


def run(args: argparse.Namespace, host: str | None = None) -> dict:
    data = json.loads(Path(args.data).read_text("utf-8"))
    started = time.perf_counter()
    rows: list[dict] = []
    if host is not None:
        rows += run_model(args, host, args.embed_model or "all-minilm", data)
    else:
        for backend in args.backend:
            with embed_server(backend=backend) as url:
                rows += run_model(args, url, MODELS[backend], data)
    return {
        "data": str(args.data),
        "sizes": list(args.sizes),
        "rows": rows,
        "seconds": round(time.perf_counter() - started, 1),
    }


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--data", default=str(DATA), help="the personal data set (default: dev)")
    ap.add_argument("--backend", nargs="+", choices=sorted(MODELS), default=["minilm", "e5"],
                    help="offline embedding models to run (default: both)")  # fmt: skip
    ap.add_argument("--ollama-host", help="a server with --embed-model instead of the offline ones")
    ap.add_argument("--embed-model", help="with --ollama-host")
    ap.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    ap.add_argument("--paths", nargs="+", choices=PATHS, default=list(PATHS))
    ap.add_argument("--no-documents", dest="documents", action="store_false")
    ap.add_argument("--rule", nargs="*", default=[], metavar="FIELD=VALUE",
                    help="change the relevance rule, e.g. z=3.5")  # fmt: skip
    ap.add_argument("--sweep", nargs="*", default=[], metavar="FIELD=V1,V2",
                    help="measure every combination of these rule values")  # fmt: skip
    ap.add_argument("--gates", type=float, nargs="*", default=[], metavar="Z",
                    help="also report how well a single gate at each of these deviations "
                    "would separate answers from unrelated questions")  # fmt: skip
    ap.add_argument("--cuts", action="store_true",
                    help="also report what the default rule keeps, cut again in the ways "
                    "of CUTS (answers kept, items beside them)")  # fmt: skip
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    return ap


def main(argv: list[str] | None = None) -> dict:
    args = parser().parse_args(argv)
    result = run(args, args.ollama_host)
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        print_table(result)
    return result


if __name__ == "__main__":
    main()
