"""Retrieval quality on LoCoMo, through the product's own store and search.

Every turn of a conversation is imported as a memory (speaker and text, dated with
its session, with the turn before it as its context, as the chat records the
exchange a memory came from; --no-context leaves that out) into a fresh encrypted
profile of its own; every question is searched in its own conversation's profile.
Reported per category and overall for categories 1-4: recall@5 and recall@10 of the
evidence turns in the ranking (every hit, relevant or not), and `recall@10_relevant`,
what the relevance rule keeps of those ten. Category 5 (adversarial) has no answer in
the conversation and is reported apart. Of what the rule keeps, per question: how many
items (`given_per_question`), how many of them are not evidence (`extra_per_question`),
how many stand at or below chance (`below_chance`, a count); and `unrelated_empty`, the
share of questions from the other conversations in the file (--foreign per store) that
get nothing.

    python benchmarks/locomo.py --data ../shared/bench/locomo/locomo_dev.json
    python benchmarks/locomo.py --data FILE --ollama-host http://127.0.0.1:11434 --embed-model all-minilm --json

Without --ollama-host, ../shared/bench/embed_server.py is started (all-MiniLM-L6-v2, or
multilingual-e5-small with --backend e5).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import embed_server, scratch_home
from desktop_mem.core.config import Config
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.profile import Profile
from desktop_mem.core.search.hybrid import HybridSearch, SearchWeights

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
_DIA = re.compile(r"^D\d+:\d+$")


def session_date(text: str) -> str | None:
    """'1:56 pm on 8 May, 2023' -> '2023-05-08T13:56:00Z'."""
    for fmt in ("%I:%M %p on %d %B, %Y", "%I:%M %p on %d %b, %Y"):
        try:
            return datetime.strptime(text.strip(), fmt).strftime("%Y-%m-%dT%H:%M:%SZ")
        except ValueError:
            continue
    return None


def turn_text(turn: dict) -> str:
    text = f"{turn['speaker']}: {turn.get('text', '')}".strip()
    if turn.get("blip_caption"):
        text += f" [shares a photo: {turn['blip_caption']}]"
    return text


def turns_of(sample: dict) -> list[tuple[str, str, str | None]]:
    """[(dia_id, memory text, session date)] in conversation order."""
    conv = sample["conversation"]
    out = []
    n = 1
    while f"session_{n}" in conv:
        date = session_date(conv.get(f"session_{n}_date_time", ""))
        for turn in conv[f"session_{n}"]:
            out.append((turn["dia_id"], turn_text(turn), date))
        n += 1
    return out


@dataclass
class Tally:
    hits: dict[int, list[float]] = field(default_factory=lambda: defaultdict(list))

    def add(self, k: int, value: float) -> None:
        self.hits[k].append(value)

    def mean(self, k: int) -> float:
        values = self.hits[k]
        return sum(values) / len(values) if values else float("nan")

    def count(self) -> int:
        return len(self.hits[5])


def evidence_ids(raw: list, known: set[str]) -> tuple[list[str], int]:
    """Split malformed entries like 'D8:6; D9:17', drop ids that do not exist."""
    ids, skipped = [], 0
    for item in raw:
        for part in re.split(r"[;,]\s*|\s+", str(item).strip()):
            if not part:
                continue
            if _DIA.match(part) and part in known:
                ids.append(part)
            else:
                skipped += 1
    return ids, skipped


def run(args: argparse.Namespace, host: str) -> dict:
    data = json.loads(Path(args.data).read_text("utf-8"))
    if args.conversations:
        data = data[: args.conversations]
    per_cat: dict[int, Tally] = defaultdict(Tally)
    skipped_ids = 0
    unanswerable = 0
    started = time.perf_counter()
    weights = SearchWeights(**json.loads(args.weights)) if args.weights else None
    search_ms: list[float] = []
    given: list[int] = []
    extra: list[int] = []
    below_chance = 0
    unrelated: list[bool] = []
    with scratch_home() as home:
        for sample in data:
            config = Config.resolve(
                home=home,
                profile=re.sub(r"[^A-Za-z0-9_.-]", "-", sample["sample_id"]),
                ollama_host=host,
                embed_model=args.embed_model,
            )
            with Profile.open(config) as prof:
                turns = turns_of(sample)
                items = [
                    NewMemory(
                        text,
                        source="import",
                        created_at=date,
                        valid_from=date,
                        context=turns[n - 1][1] if n and not args.no_context else None,
                    )
                    for n, (_, text, date) in enumerate(turns)
                ]
                mems, warnings = prof.memories.add_many(items, actor="import")
                if warnings:
                    sys.exit(f"embedding failed: {warnings[0]}")
                by_memory = {m.id: dia for m, (dia, _, _) in zip(mems, turns, strict=True)}
                known = {dia for dia, _, _ in turns}
                search = HybridSearch(prof.memories, weights) if weights else prof.search
                for qa in sample["qa"]:
                    cat = int(qa.get("category", 0))
                    evidence, skipped = evidence_ids(qa.get("evidence", []), known)
                    skipped_ids += skipped
                    if not evidence:
                        unanswerable += 1
                        continue
                    t0 = time.perf_counter()
                    hits = search.search(qa["question"], k=10, relevant_only=False).hits
                    search_ms.append((time.perf_counter() - t0) * 1000)
                    found = [by_memory.get(h.memory.id) for h in hits]
                    for k in (5, 10):
                        top = set(found[:k])
                        per_cat[cat].add(k, sum(1 for e in evidence if e in top) / len(evidence))
                    # what the relevance rule lets through of the same ten (k=0 here)
                    kept = search.search(qa["question"], k=10).hits
                    top = {by_memory.get(h.memory.id) for h in kept}
                    per_cat[cat].add(0, sum(1 for e in evidence if e in top) / len(evidence))
                    if cat in (1, 2, 3, 4):
                        given.append(len(kept))
                        extra.append(sum(by_memory.get(h.memory.id) not in evidence for h in kept))
                    below_chance += sum(h.relevance is not None and h.relevance <= 0 for h in kept)
                for question in foreign_questions(data, sample, args.foreign):
                    kept = search.search(question, k=10).hits
                    unrelated.append(not kept)
                    below_chance += sum(h.relevance is not None and h.relevance <= 0 for h in kept)
                print(
                    f"  {sample['sample_id']}: {len(turns)} turns, {len(sample['qa'])} questions",
                    file=sys.stderr,
                )
    answerable = Tally()
    for cat in (1, 2, 3, 4):
        for k in (0, 5, 10):
            answerable.hits[k] += per_cat[cat].hits[k]
    search_ms.sort()
    return {
        "recall@5": round(answerable.mean(5), 4),
        "recall@10": round(answerable.mean(10), 4),
        "recall@10_relevant": round(answerable.mean(0), 4),
        "given_per_question": round(sum(given) / len(given), 2) if given else None,
        "extra_per_question": round(sum(extra) / len(extra), 2) if extra else None,
        "below_chance": below_chance,
        "unrelated_empty": round(sum(unrelated) / len(unrelated), 3) if unrelated else None,
        "questions": answerable.count(),
        "per_category": {
            CATEGORIES.get(c, str(c)): {
                "category": c,
                "questions": per_cat[c].count(),
                "recall@5": round(per_cat[c].mean(5), 4),
                "recall@10": round(per_cat[c].mean(10), 4),
            }
            for c in sorted(per_cat)
        },
        "conversations": len(data),
        "embed_model": args.embed_model,
        "context": not args.no_context,
        "skipped_evidence_ids": skipped_ids,
        "questions_without_evidence": unanswerable,
        "search_ms_p50": round(search_ms[len(search_ms) // 2], 2) if search_ms else None,
        "seconds": round(time.perf_counter() - started, 1),
    }


def foreign_questions(data: list[dict], me: dict, per_store: int) -> list[str]:
    """Questions (categories 1-4) of the other conversations: nothing in this one is
    about them. The same ones on every run."""
    import random

    pool = [qa["question"] for s in data if s is not me for qa in s["qa"]
            if int(qa.get("category", 0)) in (1, 2, 3, 4)]  # fmt: skip
    random.Random(me["sample_id"]).shuffle(pool)
    return pool[:per_store]


def print_table(result: dict) -> None:
    ctx = "with" if result["context"] else "without"
    print(
        f"LoCoMo retrieval, {result['conversations']} conversations, embedding model "
        f"{result['embed_model']}, {ctx} context"
    )
    print(f"{'category':<14}{'questions':>10}{'recall@5':>10}{'recall@10':>11}")
    for name, row in result["per_category"].items():
        print(f"{name:<14}{row['questions']:>10}{row['recall@5']:>10.3f}{row['recall@10']:>11.3f}")
    print(
        f"{'1-4 overall':<14}{result['questions']:>10}{result['recall@5']:>10.3f}{result['recall@10']:>11.3f}"
    )
    print(
        f"kept by the rule: recall@10 {result['recall@10_relevant']}, given per question "
        f"{result['given_per_question']}, of which not evidence {result['extra_per_question']}, "
        f"at or below chance {result['below_chance']} items; questions of other conversations "
        f"given nothing {result['unrelated_empty']}"
    )
    print(
        f"skipped {result['skipped_evidence_ids']} malformed or unknown evidence ids; "
        f"search p50 {result['search_ms_p50']} ms; {result['seconds']} s in all"
    )


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--data", required=True, help="LoCoMo JSON (a list of samples)")
    ap.add_argument(
        "--ollama-host",
        help="server with the embedding model (default: start the offline MiniLM server)",
    )
    ap.add_argument("--embed-model", default="all-minilm")
    ap.add_argument("--backend", choices=["minilm", "e5"], default="minilm",
                    help="the offline embedding model to start without --ollama-host")  # fmt: skip
    ap.add_argument("--conversations", type=int, help="only the first N conversations")
    ap.add_argument("--foreign", type=int, default=100,
                    help="questions of the other conversations asked of each one")  # fmt: skip
    ap.add_argument(
        "--no-context", action="store_true", help="import turns without the turn before them"
    )
    ap.add_argument("--weights", help="JSON of SearchWeights fields to override (for tuning)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args()
    if args.ollama_host:
        result = run(args, args.ollama_host)
    else:
        if args.backend == "e5":
            args.embed_model = "multilingual-e5-small"
        with embed_server(backend=args.backend) as host:
            result = run(args, host)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print_table(result)


if __name__ == "__main__":
    main()
