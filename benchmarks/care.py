"""Health and safety facts: are they recognised, and are they given when they matter?

The data (benchmarks/data/care/dev.json, the set the rules were worked out on, or
--data: heldout.json beside it was written before the rules of issue 52 changed and not
tuned on) holds:

- phrasings: sentences as a memory holds them, in English, Chinese and both, each with
  the kind of care core/memory/care.py should give it (`care`, null for a near miss that
  must not be marked: someone else's allergy, a fear overcome, a joke, a pet, a story,
  for today only, a what-if, the user's job, a denial), its topic (`category`) and, for
  a near miss, why it is one (`why`);
- people: three stores (English, Chinese, both), each memory with the questions
  (probes) whose good answer needs it without naming it ("help me clean the gutters
  this weekend" needs "I'm terrified of heights").

Two parts:

- recognition (no model): recall (the phrasings to be marked that are), false marks
  (the near misses that are), and the kind given (right kind among those marked), per
  language and per topic; and the time `recognise` takes per sentence, on the data and
  on 100,000 ordinary memories (the personal benchmark's, as an import would bring them);
- probes, through the chat's read path (a ChatSession turn, as the window runs it) with
  each offline embedding model: the share of probes whose memory the model is given,
  and how (always given, or found by search).

With --reread N, also the time a profile of N memories takes to be read again when the
rules change (MemoryStore.recognise_care, as the profile opens).

    python benchmarks/care.py [--data FILE] [--backend minilm e5] [--no-probes] [--json]
    python benchmarks/care.py --misses      # list what is missed and marked wrongly
    python benchmarks/care.py --no-probes --reread 100000
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import OrderedDict, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from desktop_mem.core.memory import care

DATA = Path(__file__).resolve().parent / "data" / "care" / "dev.json"
PADDING = Path(__file__).resolve().parent / "data" / "personal"


def _share(a: int, b: int) -> float | None:
    return round(a / b, 3) if b else None


def recognition(phrasings: list[dict]) -> dict[str, Any]:
    """Recall and false marks, overall, per language, per topic and per reason."""
    marked = {id(p): care.recognise(p["text"]) for p in phrasings}
    wanted = [p for p in phrasings if p["care"]]
    misses = [p for p in phrasings if not p["care"]]

    def tally(items: list[dict]) -> dict[str, Any]:
        hit = [p for p in items if marked[id(p)]]
        return {"n": len(items), "marked": len(hit), "share": _share(len(hit), len(items))}

    def by(items: list[dict], key: str) -> dict[str, Any]:
        groups: dict[str, list[dict]] = defaultdict(list)
        for p in items:
            groups[p.get(key, "-")].append(p)
        return {k: tally(v) for k, v in sorted(groups.items())}

    right = [p for p in wanted if marked[id(p)] == p["care"]]
    return {
        "recall": tally(wanted),
        "false_marks": tally(misses),
        "right_kind": _share(len(right), sum(1 for p in wanted if marked[id(p)])),
        "recall_by_language": by(wanted, "lang"),
        "false_by_language": by(misses, "lang"),
        "recall_by_category": by(wanted, "category"),
        "false_by_category": by(misses, "category"),
        "false_by_why": by(misses, "why"),
        "missed": [p["text"] for p in wanted if not marked[id(p)]],
        "marked_wrongly": [f"{p['text']} ({marked[id(p)]})" for p in misses if marked[id(p)]],
        "wrong_kind": [
            f"{p['text']} ({marked[id(p)]}, not {p['care']})"
            for p in wanted
            if marked[id(p)] and marked[id(p)] != p["care"]
        ],
    }


def _everyday() -> list[str]:
    """The personal benchmark's memories and padding: two families' everyday facts, about
    3% of them care facts."""
    texts = []
    for name in ("dev.json", "heldout.json"):
        data = json.loads((PADDING / name).read_text("utf-8"))
        texts += [m["text"] for m in data["memories"] + data["padding"]]
    return texts


def speed(phrasings: list[dict], n: int = 100_000) -> dict[str, Any]:
    """Microseconds per sentence: on the data's phrasings, and on `n` ordinary memories
    (the personal benchmark's memories and padding, repeated with a number so that no
    sentence repeats: what an import of a lifetime's facts asks of it)."""
    texts = [p["text"] for p in phrasings]
    started = time.perf_counter()
    for _ in range(5):
        for t in texts:
            care.recognise(t)
    per_phrasing = (time.perf_counter() - started) / (5 * len(texts)) * 1e6
    ordinary = _everyday()
    sentences = [f"{ordinary[i % len(ordinary)]} ({i})" for i in range(n)]
    started = time.perf_counter()
    marked = sum(1 for t in sentences if care.recognise(t))
    seconds = time.perf_counter() - started
    return {
        "phrasing_us": round(per_phrasing, 1),
        "ordinary_n": n,
        "ordinary_seconds": round(seconds, 2),
        "ordinary_us": round(seconds / n * 1e6, 1),
        "ordinary_marked_share": _share(marked, n),
    }


def reread(n: int) -> dict[str, Any]:
    """A profile of `n` everyday memories, stored under rules of version 1 and opened
    under these: the seconds MemoryStore.recognise_care takes, and how many it marks.
    The memories are stored without vectors (the text is what is read)."""
    from benchmarks._common import BENCH_PASSPHRASE, scratch_home
    from desktop_mem.core.config import Config
    from desktop_mem.core.memory.store import NewMemory
    from desktop_mem.core.profile import Profile

    ordinary = _everyday()
    with scratch_home() as home:
        config = Config.resolve(home=home, profile="reread", passphrase=BENCH_PASSPHRASE)
        with Profile.open(config) as prof:
            prof.memories.embedder = None
            for start in range(0, n, 10_000):
                batch = [NewMemory(f"{ordinary[i % len(ordinary)]} ({i})")
                         for i in range(start, min(n, start + 10_000))]  # fmt: skip
                prof.memories.add_many(batch)
            with prof.db.transaction() as conn:
                # as older rules left them: none of today's kinds, version 1
                conn.execute("UPDATE memories SET care = NULL")
                conn.execute("UPDATE meta SET value = '1' WHERE key = 'care_rules'")
            started = time.perf_counter()
            read = prof.memories.recognise_care()
            seconds = time.perf_counter() - started
            marked = prof.db.query("SELECT count(*) FROM memories WHERE care IS NOT NULL")[0][0]
    return {"memories": read, "seconds": round(seconds, 2), "marked": marked}


# -- probes through the read path ---------------------------------------------------------


def probes(data: dict, host: str, model: str) -> dict[str, Any]:
    """With one embedding model, for each person's store and each probe: was the memory
    it needs given to the model, and why (always given, or found)."""
    from benchmarks._common import scratch_home
    from benchmarks.personal import chat_turn, open_profile
    from desktop_mem.core.memory.store import NewMemory

    given: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    how: dict[str, int] = defaultdict(int)
    failed: list[str] = []
    marked = 0
    with scratch_home() as home:
        cache: OrderedDict = OrderedDict()
        for n, person in enumerate(data["people"]):
            prof = open_profile(home, f"person-{n}", host, model, cache)
            try:
                items = [NewMemory(m["text"], source="extractor") for m in person["memories"]]
                stored, warnings = prof.memories.add_many(items, actor="extractor")
                if warnings:
                    sys.exit(f"embedding failed: {warnings[0]}")
                ids = {m["id"]: s.id for m, s in zip(person["memories"], stored, strict=True)}
                marked += sum(1 for s in stored if s.always)
                for q in person["probes"]:
                    used = {u.memory_id: u.why for u in chat_turn(prof, q["text"]).used}
                    why = used.get(ids[q["memory"]])
                    for key in ("all", person["lang"], q["category"]):
                        given[key][0] += why is not None
                        given[key][1] += 1
                    how[why or "not given"] += 1
                    if why is None:
                        failed.append(f"{q['text']} -> {q['memory']}")
            finally:
                prof.close()
    return {
        "model": model,
        "given": {k: _share(a, b) for k, (a, b) in given.items()},
        "counts": {k: f"{a}/{b}" for k, (a, b) in given.items()},
        "how": dict(how),
        "memories_always_given": marked,
        "not_given": failed,
    }


def probes_with_models(args: argparse.Namespace, data: dict) -> list[dict[str, Any]]:
    """The probes with each offline embedding model, or with --ollama-host's."""
    if args.ollama_host:
        return [probes(data, args.ollama_host, args.embed_model or "all-minilm")]
    from benchmarks._common import embed_server
    from benchmarks.personal import MODELS

    rows = []
    for backend in args.backend:
        with embed_server(backend=backend) as url:
            rows.append(probes(data, url, MODELS[backend]))
    return rows


def print_report(result: dict) -> None:
    r = result["recognition"]
    print(f"data: {result['data']}")
    print(f"recall {r['recall']['marked']}/{r['recall']['n']} = {r['recall']['share']}, "
          f"false marks {r['false_marks']['marked']}/{r['false_marks']['n']} = "
          f"{r['false_marks']['share']}, right kind {r['right_kind']}")  # fmt: skip
    for title, key in (("recall, by language", "recall_by_language"),
                       ("false marks, by language", "false_by_language"),
                       ("recall, by topic", "recall_by_category"),
                       ("false marks, by topic", "false_by_category"),
                       ("false marks, by why", "false_by_why")):  # fmt: skip
        cells = ", ".join(f"{k} {v['marked']}/{v['n']}" for k, v in r[key].items())
        print(f"  {title}: {cells}")
    if result.get("misses"):
        for title, key in (("missed", "missed"), ("marked wrongly", "marked_wrongly"),
                           ("wrong kind", "wrong_kind")):  # fmt: skip
            print(f"{title} ({len(r[key])}):")
            for t in r[key]:
                print(f"  {t}")
    if "speed" in result:
        s = result["speed"]
        print(f"speed: {s['phrasing_us']} µs a phrasing; {s['ordinary_n']:,} ordinary memories "
              f"in {s['ordinary_seconds']} s ({s['ordinary_us']} µs each, "
              f"{s['ordinary_marked_share']} marked)")  # fmt: skip
    if "reread" in result:
        r = result["reread"]
        print(f"read again under new rules: {r['memories']:,} memories in {r['seconds']} s, "
              f"{r['marked']:,} marked")  # fmt: skip
    for row in result.get("probes", []):
        cells = ", ".join(f"{k} {v}" for k, v in row["counts"].items())
        print(f"probes given, {row['model']}: {cells}; how: {row['how']}; "
              f"memories always given: {row['memories_always_given']}")  # fmt: skip
        for t in row["not_given"]:
            print(f"  not given: {t}")


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--data", default=str(DATA), help="the care data set (default: dev)")
    ap.add_argument("--backend", nargs="+", choices=["minilm", "e5"], default=["minilm", "e5"])
    ap.add_argument("--ollama-host", help="a server with --embed-model instead of the offline ones")
    ap.add_argument("--embed-model", help="with --ollama-host")
    ap.add_argument("--no-probes", dest="probes", action="store_false")
    ap.add_argument("--no-speed", dest="speed", action="store_false")
    ap.add_argument("--misses", action="store_true", help="list the misses and wrong marks")
    ap.add_argument("--reread", type=int, default=0, metavar="N",
                    help="time reading a profile of N memories again under new rules")  # fmt: skip
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)
    data = json.loads(Path(args.data).read_text("utf-8"))
    started = time.perf_counter()
    result: dict[str, Any] = {
        "data": args.data,
        "rules_version": care.RULES_VERSION,
        "recognition": recognition(data["phrasings"]),
        "misses": args.misses,
    }
    if args.speed:
        result["speed"] = speed(data["phrasings"])
    if args.reread:
        result["reread"] = reread(args.reread)
    if args.probes:
        result["probes"] = probes_with_models(args, data)
    result["seconds"] = round(time.perf_counter() - started, 1)
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        print_report(result)
    return result


if __name__ == "__main__":
    main()
