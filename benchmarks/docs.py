"""The knowledge tier on LoCoMo: documents imported through `docs add`, searched as the
chat searches them.

Each conversation's per-session summaries become one Markdown document (a heading per
session, with its date). Every question of categories 1-4 is searched in the
documents: recall@5 is the share of questions whose evidence sessions are among the
sessions of the top 5 passages (a question counts if any of its evidence sessions is
found; `recall@5_all` needs every one). `foreign_empty` asks each conversation's
questions against a profile holding only the *other* conversations' documents: the
share that finds nothing (the relevance rule at work). Throughput: pages (documents'
sections) indexed per minute, embedding included, and search latency over --passages
synthetic passages.

    python benchmarks/docs.py --data ../shared/bench/locomo/locomo_dev.json [--json]
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import embed_server, scratch_home
from desktop_mem.core.config import Config
from desktop_mem.core.documents.store import DocumentStore
from desktop_mem.core.profile import Profile

CATEGORIES = (1, 2, 3, 4)


def write_docs(samples: list[dict[str, Any]], folder: Path) -> dict[str, int]:
    """One Markdown file per conversation; the number of sections of each."""
    sections = {}
    for s in samples:
        conv, summaries = s["conversation"], s["session_summary"]
        names = f"{conv.get('speaker_a', 'A')} and {conv.get('speaker_b', 'B')}"
        lines = [f"# Conversations of {names}", ""]
        n = 0
        for key in sorted(summaries, key=lambda k: int(re.findall(r"\d+", k)[0])):
            number = int(re.findall(r"\d+", key)[0])
            date = conv.get(f"session_{number}_date_time", "")
            lines += [f"## Session {number} ({date})", "", summaries[key], ""]
            n += 1
        (folder / f"{s['sample_id']}.md").write_text("\n".join(lines), encoding="utf-8")
        sections[s["sample_id"]] = n
    return sections


def session_of(heading: str) -> int | None:
    m = re.search(r"Session (\d+)", heading)
    return int(m.group(1)) if m else None


def evidence_sessions(qa: dict[str, Any]) -> set[int]:
    out = set()
    for ev in qa.get("evidence", []):
        m = re.match(r"D(\d+):", str(ev))
        if m:
            out.add(int(m.group(1)))
    return out


def run(args: argparse.Namespace, host: str) -> dict[str, Any]:
    samples = json.loads(Path(args.data).read_text("utf-8"))
    if args.conversations:
        samples = samples[: args.conversations]
    found = found_all = asked = 0
    by_cat: dict[int, list[int]] = {c: [0, 0] for c in CATEGORIES}
    foreign_asked = foreign_empty = 0
    pages = 0
    index_seconds = 0.0
    with scratch_home() as home, tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        sections = write_docs(samples, folder)
        config = Config.resolve(home=home, ollama_host=host, embed_model=args.embed_model)
        with Profile.open(config) as prof:
            store = DocumentStore(
                prof.db, prof.embedder, prof.search.reference, prof.search.rule, events=prof.events
            )
            t0 = time.perf_counter()
            report = store.add(folder)
            index_seconds = time.perf_counter() - t0
            pages = sum(sections.values())
            assert not report.refused, report.refused
            by_doc = {d.title: d.id for d in store.list()}
            for s in samples:
                title = f"{s['sample_id']}.md"
                for qa in s["qa"]:
                    if qa.get("category") not in CATEGORIES:
                        continue
                    wanted = evidence_sessions(qa)
                    if not wanted:
                        continue
                    hits = [h for h in store.search(qa["question"], k=5) if h.title == title]
                    got = {session_of(h.heading) for h in hits}
                    asked += 1
                    ok = bool(wanted & got)
                    found += ok
                    found_all += wanted <= got
                    by_cat[qa["category"]][0] += ok
                    by_cat[qa["category"]][1] += 1
            # foreign questions: each conversation's questions without its own document
            for s in samples:
                own = by_doc[f"{s['sample_id']}.md"]
                store.remove(own)
                for qa in s["qa"][: args.foreign_per]:
                    if qa.get("category") in CATEGORIES:
                        foreign_asked += 1
                        foreign_empty += not store.search(qa["question"], k=5)
                store.add(folder / f"{s['sample_id']}.md")
    latency = search_latency(args, host) if args.passages else {}
    return {
        "conversations": len(samples),
        "questions": asked,
        "recall@5": round(found / max(1, asked), 3),
        "recall@5_all": round(found_all / max(1, asked), 3),
        "recall@5_by_category": {c: round(v[0] / max(1, v[1]), 3) for c, v in by_cat.items()},
        "foreign_questions": foreign_asked,
        "foreign_empty": round(foreign_empty / max(1, foreign_asked), 3),
        "pages": pages,
        "pages_per_minute": round(pages / max(1e-9, index_seconds) * 60, 1),
        "embed_model": args.embed_model,
        **latency,
    }


def search_latency(args: argparse.Namespace, host: str) -> dict[str, Any]:
    """Search p50/p95 over --passages passages (synthetic notes, one Markdown file per
    100), embedding of the query included."""
    topics = ["garden", "tenancy", "leave", "recipes", "travel", "insurance", "school", "car"]
    with scratch_home() as home, tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for f in range(args.passages // 100):
            body = [f"# Notes {f}", ""]
            for i in range(100):
                n = f * 100 + i
                body += [f"## Item {n}", "", f"Note {n} about the {topics[n % 8]} plan, "
                         f"step {n % 97}: keep the receipt number {n * 7919 % 100000}.", ""]  # fmt: skip
            (folder / f"notes-{f:04d}.md").write_text("\n".join(body), encoding="utf-8")
        config = Config.resolve(home=home, ollama_host=host, embed_model=args.embed_model)
        with Profile.open(config) as prof:
            store = DocumentStore(
                prof.db, prof.embedder, prof.search.reference, prof.search.rule, events=prof.events
            )
            t0 = time.perf_counter()
            store.add(folder)
            seconds = time.perf_counter() - t0
            chunks = prof.db.query("SELECT count(*) FROM doc_chunks")[0][0]
            times = []
            for n in range(220):
                q = f"what is the receipt number of step {n % 97} of the {topics[n % 8]} plan"
                t = time.perf_counter()
                store.search(q, k=5)
                if n >= 20:
                    times.append((time.perf_counter() - t) * 1000)
    times.sort()
    return {
        "latency_passages": chunks,
        "latency_index_seconds": round(seconds, 1),
        "search_p50_ms": round(statistics.median(times), 1),
        "search_p95_ms": round(times[int(0.95 * (len(times) - 1))], 1),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True, help="LoCoMo JSON (a list of samples)")
    ap.add_argument(
        "--ollama-host", help="server with the embedding model (default: offline MiniLM)"
    )
    ap.add_argument("--embed-model", default="all-minilm")
    ap.add_argument("--conversations", type=int, help="only the first N conversations")
    ap.add_argument(
        "--foreign-per", type=int, default=40, help="foreign questions per conversation"
    )
    ap.add_argument("--passages", type=int, default=10_000, help="for the latency run (0: skip)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.ollama_host:
        result = run(args, args.ollama_host)
    else:
        with embed_server() as host:
            result = run(args, host)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for k, v in result.items():
            print(f"{k:<24} {v}")


if __name__ == "__main__":
    main()
