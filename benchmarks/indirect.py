"""Indirect questions: kept with the "about you" profile (issue 52, items 2 and 4).

Ordinary questions whose good answer needs a fact about the person they do not name
("plan tomorrow's lesson on the periodic table" beside "I teach chemistry"). For each
person's store (benchmarks/data/indirect: English, Chinese, both mixed) and each
question, one chat turn goes through the product's read path (ChatSession, as the
window and `desktop-mem chat` run it), and the benchmark asks: was the memory the answer
needs given to the model, either cited by a line of the profile in the system message
or among the memories given (health and safety, core, found)? Measured with the profile
and with it off, with both offline embedding models.

The profile is written by the product (core/chat/about.py: the memories shown to the
model most important first, its answer checked line by line, the budget of 250 tokens
counted per script) with the model's answer from the fake Ollama server over HTTP
(tests/fakes/ollama_server.py `fake_profile`): a deterministic stand-in for qwen2.5:7b
that writes one line per memory in the order it is shown, citing that memory. What
this measures is therefore whether the facts a question needs reach the prompt when a
profile holds the person's most important memories within the budget, one a line; a
real model that merges facts into fewer lines would hold more of them, one that leaves
some out fewer. It does not measure the answers.

--padding N adds the personal benchmark's first N everyday memories to each store (a
restaurant liked, a neighbour's name, a one-off plan, mostly of low importance): the
profile must then be chosen from many more memories, and so must what is found.

    python benchmarks/indirect.py [--backend minilm e5] [--padding 120] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import OrderedDict, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DATA = ROOT / "benchmarks" / "data" / "indirect" / "dev.json"
TARGET = 0.85


def _share(a: int, b: int) -> float | None:
    return round(a / b, 3) if b else None


def person_store(prof: Any, person: dict, padding: list[dict]) -> dict[str, int]:
    """The person's memories, as learning stores them, then `padding` (everyday ones);
    the data's id -> the stored id."""
    from desktop_mem.core.memory.store import NewMemory

    items = [NewMemory(m["text"], source="extractor", importance=m["importance"])
             for m in person["memories"] + padding]  # fmt: skip
    stored, warnings = prof.memories.add_many(items, actor="extractor")
    if warnings:
        sys.exit(f"embedding failed: {warnings[0]}")
    return {m["id"]: s.id for m, s in zip(person["memories"], stored, strict=False)}


def measure(data: dict, host: str, model: str, padding: int = 0) -> dict[str, Any]:
    """With one embedding model: per question, whether the memory it needs was given."""
    from benchmarks._common import scratch_home
    from benchmarks.personal import chat_turn, open_profile
    from desktop_mem.core.chat.about import AboutWriter, line_cost
    from desktop_mem.core.models.llm import OllamaChat
    from tests.fakes.ollama_server import FakeOllama

    kept: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    given_found: dict[str, list[int]] = defaultdict(list)
    sizes, missed, found_only = [], [], []
    fake = FakeOllama().start()
    try:
        with scratch_home() as home:
            cache: OrderedDict = OrderedDict()
            for n, person in enumerate(data["people"]):
                prof = open_profile(home, f"person-{n}", host, model, cache)
                try:
                    ids = person_store(prof, person, everyday(padding))
                    done = AboutWriter(
                        prof.about, prof.memories, OllamaChat(fake.url, "qwen2.5:7b")
                    ).rewrite()
                    sizes.append({"person": person["name"], "lines": len(done.lines),
                                  "tokens": sum(line_cost(t) for t, _ in done.lines),
                                  "memories": len(person["memories"]) + padding})  # fmt: skip
                    for mode in ("profile", "no profile"):
                        prof.settings.set("about_you", mode == "profile")
                        for q in person["questions"]:
                            result = chat_turn(prof, q["text"])
                            need = ids[q["memory"]]
                            cited = {m for ln in result.about for m in ln.cites}
                            used = {u.memory_id for u in result.used}
                            ok = need in cited or need in used
                            for key in ("all", person["lang"]):
                                kept[mode][key][0] += ok
                                kept[mode][key][1] += 1
                            if mode == "profile":
                                kept["from the profile"]["all"][0] += need in cited
                                kept["from the profile"]["all"][1] += 1
                                given_found[person["lang"]].append(
                                    len([u for u in result.used if u.why == "found"])
                                )
                                if not ok:
                                    missed.append(f"{q['text']} -> {q['memory']}")
                                elif need not in cited:
                                    found_only.append(f"{q['text']} -> {q['memory']}")
                finally:
                    prof.close()
    finally:
        fake.stop()
    return {
        "model": model,
        "padding": padding,
        "kept": {mode: {k: _share(a, b) for k, (a, b) in by.items()} for mode, by in kept.items()},
        "counts": {
            mode: {k: f"{a}/{b}" for k, (a, b) in by.items()} for mode, by in kept.items()
        },  # fmt: skip
        "found_given_mean": {k: round(statistics.mean(v), 2) for k, v in given_found.items()},
        "profile": sizes,
        "missed": missed,
        "found_not_in_profile": found_only,
        "target_met": (_share(*kept["profile"]["all"]) or 0) >= TARGET,
    }


def everyday(n: int) -> list[dict]:
    """The personal benchmark's everyday memories (a restaurant liked, a neighbour's
    name, a one-off plan), with the importance it gives them, as padding."""
    path = ROOT / "benchmarks" / "data" / "personal" / "dev.json"
    rows = json.loads(path.read_text(encoding="utf-8"))["padding"][:n]
    return [{"text": r["text"], "importance": r.get("importance", 0.5)} for r in rows]


def print_report(rows: list[dict[str, Any]]) -> None:
    for r in rows:
        print(f"{r['model']}, {r['padding']} everyday memories added to each store:")
        for mode, counts in r["counts"].items():
            cells = ", ".join(f"{k} {v} = {r['kept'][mode][k]}" for k, v in counts.items())
            print(f"  kept, {mode}: {cells}")
        print(f"  found memories given per question (with the profile): {r['found_given_mean']}")
        for s in r["profile"]:
            print(f"  profile of {s['person']}: {s['lines']} lines from {s['memories']} "
                  f"memories, {s['tokens']} tokens")  # fmt: skip
        for t in r["missed"]:
            print(f"  missed: {t}")


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--data", default=str(DATA))
    ap.add_argument("--backend", nargs="+", choices=["minilm", "e5"], default=["minilm", "e5"])
    ap.add_argument("--ollama-host", help="a server with --embed-model instead of the offline ones")
    ap.add_argument("--embed-model", help="with --ollama-host")
    ap.add_argument("--padding", type=int, default=0,
                    help="add this many everyday memories to each store (at most 240)")  # fmt: skip
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    data = json.loads(Path(args.data).read_text(encoding="utf-8"))
    if args.ollama_host:
        rows = [measure(data, args.ollama_host, args.embed_model or "all-minilm", args.padding)]
    else:
        from benchmarks._common import embed_server
        from benchmarks.personal import MODELS

        rows = []
        for backend in args.backend:
            with embed_server(backend=backend) as url:
                rows.append(measure(data, url, MODELS[backend], args.padding))
    if args.json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
    else:
        print_report(rows)
    return rows


if __name__ == "__main__":
    main()
