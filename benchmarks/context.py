"""What the model is given: the chat's real read path, measured on LoCoMo.

For each conversation, a fresh encrypted profile gets:
- its sessions as conversations (speaker A is the user, speaker B the assistant, each
  message dated with its session), stored and embedded through the product's
  ConversationStore, as the chat stores them;
- its observation sentences (LoCoMo's per-session facts about each speaker, each
  citing the turns it came from) as memories linked to the message they were
  learned from, dated and with the turn before as context, as the chat's extractor
  stores them: a stand-in for a good extractor, since no capable model runs here.

Then every question (categories 1-4) goes through ContextBuilder.build, the code the
chat uses to build the prompt, as the first message of a new conversation. Reported:

- coverage: share of a question's evidence turns present in the prompt, through a
  memory derived from them or the message itself (recall tier);
- memory_coverage: the same through memories alone;
- foreign_empty: share of questions taken from the *other* conversations in the file
  (nothing in this store is about them) whose prompt gets no memory and no message
  (and foreign_items_mean: how many items they get on average);
- smalltalk_injected: mean items injected for greetings and small talk (English and
  Chinese);
- memory_tokens_mean: tokens of the memory and recall blocks, mean over questions;
- found_mean: items found per question (memories found and past messages, not the core
  memories every prompt holds), extra_mean: those of them that are none of the
  question's evidence, below_chance: found memories at or below chance (relevance <= 0),
  a count over every question asked.

--loo: the relevance rule's three parameters are chosen on four conversations (the
best coverage whose foreign_empty >= 0.80 and smalltalk_injected <= 0.2) and scored
on the fifth, in turn: the figure a new user's data would get if the defaults had
been fitted here.

    python benchmarks/context.py --data ../shared/bench/locomo/locomo_dev.json --json
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import random
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import embed_server, scratch_home
from benchmarks.locomo import evidence_ids, session_date, turn_text
from desktop_mem.core.chat.conversations import ConversationStore
from desktop_mem.core.chat.read_path import Budget, ContextBuilder, TokenCounter
from desktop_mem.core.chat.records import IN_EVERY_PROMPT
from desktop_mem.core.config import Config
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.profile import Profile
from desktop_mem.core.search.hybrid import HybridSearch
from desktop_mem.core.search.relevance import RelevanceRule

# Written apart from the product's own small-talk reference sentences (none of these
# is one of them), so the figure is not the classifier recognising its own examples.
SMALLTALK = (
    "hiya!",
    "morning :)",
    "hey, how's it going?",
    "cheers, that's everything",
    "thx a lot",
    "okay then",
    "lol",
    "nighty night",
    "what can you do?",
    "see ya",
    "嗨",
    "早上好呀",
    "多谢啦",
    "行",
    "嘿嘿",
    "晚安啦，明天聊",
    "你能做什么？",
    "拜拜",
)
TARGET_FOREIGN = 0.80
TARGET_SMALLTALK = 0.2


@dataclass
class Store:
    """One conversation's profile and what the benchmark knows about it."""

    sample_id: str
    profile: Profile
    message_dia: dict[int, str]
    memory_dia: dict[int, set[str]]
    questions: list[tuple[str, list[str], int]]  # (question, evidence dia ids, category)


CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}


@dataclass
class Score:
    coverage: list[float] = field(default_factory=list)
    memory_coverage: list[float] = field(default_factory=list)
    tokens: list[int] = field(default_factory=list)
    items: list[int] = field(default_factory=list)
    foreign_empty: list[bool] = field(default_factory=list)
    foreign_items: list[int] = field(default_factory=list)
    smalltalk: list[int] = field(default_factory=list)
    categories: list[int] = field(default_factory=list)  # each question's, as coverage
    found: list[int] = field(default_factory=list)  # items found per question
    extra: list[int] = field(default_factory=list)  # of them, none of its evidence
    below_chance: list[int] = field(default_factory=list)  # per question asked

    def summary(self) -> dict:
        def mean(xs: list) -> float:
            return round(sum(xs) / len(xs), 4) if xs else float("nan")

        by_category = {
            name: mean([c for c, k in zip(self.coverage, self.categories, strict=True) if k == n])
            for n, name in CATEGORIES.items()
            if n in self.categories
        }

        return {
            "coverage": mean(self.coverage),
            "memory_coverage": mean(self.memory_coverage),
            "foreign_empty": mean([float(x) for x in self.foreign_empty]),
            "foreign_items_mean": round(mean(self.foreign_items), 2),
            "smalltalk_injected": mean(self.smalltalk),
            "memory_tokens_mean": round(mean(self.tokens), 1),
            "items_mean": round(mean(self.items), 2),
            "found_mean": round(mean(self.found), 2),
            "extra_mean": round(mean(self.extra), 2),
            "below_chance": sum(self.below_chance),
            "questions": len(self.coverage),
            "foreign_questions": len(self.foreign_empty),
            "coverage_by_category": by_category,
        }

    def merge(self, other: Score) -> None:
        for name in self.__dataclass_fields__:
            getattr(self, name).extend(getattr(other, name))


def build_store(sample: dict, home: Path, host: str, model: str) -> Store:
    config = Config.resolve(
        home=home,
        profile=re.sub(r"[^A-Za-z0-9_.-]", "-", sample["sample_id"]),
        ollama_host=host,
        embed_model=model,
    )
    prof = Profile.open(config)
    prof.embedder._cache_size = 200_000  # questions are asked again for every setting
    convs = prof.conversations
    conv = sample["conversation"]
    speaker_a = conv["speaker_a"]
    dia_message: dict[str, int] = {}
    message_text: dict[int, str] = {}
    previous: dict[int, int | None] = {}
    n = 1
    while f"session_{n}" in conv:
        date = session_date(conv.get(f"session_{n}_date_time", ""))
        cid = convs.create(title=f"Session {n}").id
        last = None
        for turn in conv[f"session_{n}"]:
            role = "user" if turn["speaker"] == speaker_a else "assistant"
            msg = convs.add_message(cid, role, turn_text(turn), created_at=date)
            dia_message[turn["dia_id"]] = msg.id
            message_text[msg.id] = msg.content
            previous[msg.id] = last
            last = msg.id
        n += 1
    convs.index_vectors()
    known = set(dia_message)
    items, cited = [], []
    for key, by_speaker in sorted(
        sample.get("observation", {}).items(), key=lambda kv: int(re.findall(r"\d+", kv[0])[0])
    ):
        date = session_date(conv.get(key.replace("_observation", "_date_time"), ""))
        for facts in by_speaker.values():
            for text, raw in facts:
                ids, _ = evidence_ids(raw if isinstance(raw, list) else [raw], known)
                if not ids:
                    continue
                source = dia_message[ids[0]]
                before = previous.get(source)
                items.append(
                    NewMemory(
                        text,
                        source="extractor",
                        source_message_id=source,
                        created_at=date,
                        valid_from=date,
                        context=message_text[before] if before else None,
                    )
                )
                cited.append(set(ids))
    mems, warnings = prof.memories.add_many(items, actor="extractor")
    if warnings:
        sys.exit(f"embedding failed: {warnings[0]}")
    questions = []
    for qa in sample["qa"]:
        if int(qa.get("category", 0)) not in (1, 2, 3, 4):
            continue
        evidence, _ = evidence_ids(qa.get("evidence", []), known)
        if evidence:
            questions.append((qa["question"], evidence, int(qa["category"])))
    return Store(
        sample["sample_id"],
        prof,
        {mid: dia for dia, mid in dia_message.items()},
        {m.id: ids for m, ids in zip(mems, cited, strict=True)},
        questions,
    )


def builder_for(store: Store, rule: RelevanceRule) -> ContextBuilder:
    prof = store.profile
    search = HybridSearch(prof.memories, rule=rule, reference=prof.search.reference)
    convs = ConversationStore(
        prof.db, prof.embedder, prof.search.reference, rule, events=prof.events
    )
    return ContextBuilder(prof.memories, search, TokenCounter(), convs)


def found(plan: Any) -> int:
    """Items given for this message: memories and past messages, not the core memories
    every prompt holds (they count for coverage, not against "nothing about it")."""
    return sum(u.why not in IN_EVERY_PROMPT for u in plan.used) + len(plan.recalled)


def score_store(
    store: Store, foreign: list[tuple[str, list[str], int]], rule: RelevanceRule, budget: Budget
) -> Score:
    builder = builder_for(store, rule)
    score = Score()
    for question, evidence, category in store.questions:
        plan = builder.build(question, [], budget)
        by_memory: set[str] = set()
        for mid in (u.memory_id for u in plan.used):
            by_memory |= store.memory_dia.get(mid, set())
        by_message = {store.message_dia.get(r.message_id) for r in plan.recalled}
        want = set(evidence)
        score.coverage.append(len(want & (by_memory | by_message)) / len(want))
        score.memory_coverage.append(len(want & by_memory) / len(want))
        score.tokens.append(plan.memory_tokens)
        score.items.append(len(plan.used) + len(plan.recalled))
        score.categories.append(category)
        score.found.append(found(plan))
        extra = [u for u in plan.used if u.why not in IN_EVERY_PROMPT
                 and not store.memory_dia.get(u.memory_id, set()) & want]  # fmt: skip
        extra_msgs = [r for r in plan.recalled if store.message_dia.get(r.message_id) not in want]
        score.extra.append(len(extra) + len(extra_msgs))
        score.below_chance.append(below_chance(builder, question, plan))
    for question, *_ in foreign:
        plan = builder.build(question, [], budget)
        score.foreign_empty.append(not found(plan))
        score.foreign_items.append(found(plan))
        score.below_chance.append(below_chance(builder, question, plan))
    for text in SMALLTALK:
        plan = builder.build(text, [], budget)
        score.smalltalk.append(found(plan))
    return score


def below_chance(builder: ContextBuilder, question: str, plan: Any) -> int:
    """The memories found for a question that stand at or below chance, judged as search
    judges them."""
    ids = {u.memory_id for u in plan.used if u.why not in IN_EVERY_PROMPT}
    if not ids:
        return 0
    listing = builder.search.search(question, k=50, relevant_only=False).hits
    return sum(h.memory.id in ids and h.relevance is not None and h.relevance <= 0
               for h in listing)  # fmt: skip


def foreign_questions(stores: list[Store], me: Store, per_store: int) -> list:
    pool = [q for s in stores if s is not me for q in s.questions]
    random.Random(me.sample_id).shuffle(pool)
    return pool[:per_store] if per_store else pool


def acceptable(summary: dict) -> bool:
    return (
        summary["foreign_empty"] >= TARGET_FOREIGN
        and summary["smalltalk_injected"] <= TARGET_SMALLTALK
    )


def choose(summaries: dict[tuple, dict]) -> tuple:
    """The setting with the best coverage among those meeting the noise targets (or,
    if none does, the least noisy)."""
    ok = [k for k, s in summaries.items() if acceptable(s)]
    if ok:
        return max(ok, key=lambda k: (summaries[k]["coverage"], summaries[k]["foreign_empty"]))
    return max(summaries, key=lambda k: summaries[k]["foreign_empty"])


def _field(value: str) -> object:
    """A Budget or RelevanceRule field's value from the command line: a bool, an int or a float."""
    if value.lower() in ("true", "false"):
        return value.lower() == "true"
    return float(value) if "." in value else int(value)


def run(args: argparse.Namespace, host: str) -> dict:
    data = json.loads(Path(args.data).read_text("utf-8"))
    if args.conversations:
        data = data[: args.conversations]
    started = time.perf_counter()
    budget = Budget(**{k: _field(v) for k, v in (b.split("=", 1) for b in args.budget)})
    default = RelevanceRule(**{k: _field(v) for k, v in (r.split("=", 1) for r in args.rule)})
    with scratch_home() as home:
        stores = []
        for sample in data:
            stores.append(build_store(sample, home, host, args.embed_model))
            print(
                f"  {sample['sample_id']}: {len(stores[-1].message_dia)} messages, "
                f"{len(stores[-1].memory_dia)} memories, {len(stores[-1].questions)} questions",
                file=sys.stderr,
            )
        foreign = {s.sample_id: foreign_questions(stores, s, args.foreign) for s in stores}

        def evaluate(rule: RelevanceRule) -> dict[str, Score]:
            return {s.sample_id: score_store(s, foreign[s.sample_id], rule, budget) for s in stores}

        per_store = evaluate(default)
        total = Score()
        for sc in per_store.values():
            total.merge(sc)
        result = total.summary()
        result["per_conversation"] = {k: v.summary() for k, v in per_store.items()}
        if args.loo and len(stores) > 1:
            grid = list(itertools.product(args.z_grid, args.name_grid, args.credit_grid))
            scored: dict[tuple, dict[str, Score]] = {}
            for z, names, credit in grid:
                rule = dataclasses.replace(default, z=z, name_penalty=names, keyword_credit=credit)
                scored[(z, names, credit)] = evaluate(rule)
                print(f"  grid z={z} names={names} credit={credit}", file=sys.stderr)
            held_out = Score()
            picks = {}
            for s in stores:
                summaries = {}
                for key, per in scored.items():
                    train = Score()
                    for sid, sc in per.items():
                        if sid != s.sample_id:
                            train.merge(sc)
                    summaries[key] = train.summary()
                pick = choose(summaries)
                picks[s.sample_id] = dict(
                    zip(("z", "name_penalty", "keyword_credit"), pick, strict=True)
                )
                held_out.merge(scored[pick][s.sample_id])
            result["leave_one_out"] = held_out.summary()
            result["leave_one_out"]["chosen"] = picks
        for s in stores:
            s.profile.close()
    result.update(
        {
            "embed_model": args.embed_model,
            "rule": dataclasses.asdict(default),
            "budget": dataclasses.asdict(budget),
            "conversations": len(data),
            "seconds": round(time.perf_counter() - started, 1),
        }
    )
    return result


def print_table(result: dict) -> None:
    print(f"Read path on LoCoMo, {result['conversations']} conversations, {result['embed_model']}")
    cols = ("coverage", "memory_coverage", "foreign_empty", "smalltalk_injected", "found_mean",
            "extra_mean", "below_chance")  # fmt: skip
    print(f"{'':<14}" + "".join(f"{c:>20}" for c in (*cols, "memory_tokens_mean")))
    rows = [("all", result)] + list(result["per_conversation"].items())
    if "leave_one_out" in result:
        rows.append(("leave-one-out", result["leave_one_out"]))
    for name, row in rows:
        print(f"{name:<14}" + "".join(f"{row[c]:>20}" for c in (*cols, "memory_tokens_mean")))
    print("coverage by category: " + ", ".join(
        f"{name} {value}" for name, value in result["coverage_by_category"].items()))  # fmt: skip
    print(f"{result['questions']} questions; {result['seconds']} s")


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--data", required=True, help="LoCoMo JSON (a list of samples)")
    ap.add_argument(
        "--ollama-host", help="server with the embedding model (default: offline MiniLM)"
    )
    ap.add_argument("--embed-model", default="all-minilm")
    ap.add_argument("--backend", choices=["minilm", "e5"], default="minilm",
                    help="the offline embedding model to start without --ollama-host")  # fmt: skip
    ap.add_argument("--conversations", type=int, help="only the first N conversations")
    ap.add_argument(
        "--foreign",
        type=int,
        default=300,
        help="questions from other conversations per store (0: all)",
    )
    ap.add_argument(
        "--loo", action="store_true", help="leave-one-out check of the rule's parameters"
    )
    ap.add_argument("--z-grid", type=float, nargs="+", default=[1.5, 2.0, 2.5])
    ap.add_argument("--name-grid", type=float, nargs="+", default=[3.0, 6.0, 9.0])
    ap.add_argument("--credit-grid", type=float, nargs="+", default=[2.0, 3.0])
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--rule", nargs="*", default=[], metavar="FIELD=VALUE",
                    help="change the relevance rule, e.g. z=4.5 (--loo varies z, "
                    "name_penalty and keyword_credit around it)")  # fmt: skip
    ap.add_argument("--budget", nargs="*", default=[], metavar="FIELD=VALUE",
                    help="change the prompt budget, e.g. recall_tokens=550 recall_exchange=false")  # fmt: skip
    args = ap.parse_args()
    if args.ollama_host:
        result = run(args, args.ollama_host)
    else:
        if args.backend == "e5":
            args.embed_model = "multilingual-e5-small"
        with embed_server(backend=args.backend) as host:
            result = run(args, host)
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        print_table(result)


if __name__ == "__main__":
    main()
