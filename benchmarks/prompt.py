"""What the memory layer costs and saves per chat turn.

tokens: the LoCoMo conversations replayed as chats. Speaker A is the user, speaker B
the assistant; each session is a new chat. After a session, its turns are stored as
memories (dated, with the turn before as context: an upper bound on what extraction
would keep). For every user turn the product's read path builds the prompt (system
prompt, memory block, the session's recent turns, the message) and it is compared
with sending the whole history of every earlier session. Tokens are the product's
own estimate (one per CJK character, four characters per token otherwise) for both.

overhead: what the read path adds before the model's first token with 10,000
memories: storing the user's message, loading the conversation, hybrid search and
prompt assembly. The query embedding is the embedding model's work and is excluded
(served precomputed), as is the chat model.

    python benchmarks/prompt.py --data ../shared/bench/locomo/locomo_dev.json
    python benchmarks/prompt.py --overhead-only --json
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import embed_server, percentile, scratch_home
from benchmarks.locomo import session_date, turn_text
from desktop_mem.core.chat.read_path import SYSTEM_PROMPT, Budget, ContextBuilder, TokenCounter
from desktop_mem.core.config import Config
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.profile import Profile


def sessions_of(sample: dict) -> list[tuple[str | None, list[dict]]]:
    conv = sample["conversation"]
    out, n = [], 1
    while f"session_{n}" in conv:
        out.append((session_date(conv.get(f"session_{n}_date_time", "")), conv[f"session_{n}"]))
        n += 1
    return out


def replay(sample: dict, home: Path, host: str, model: str, budget: Budget) -> list[dict]:
    """Per session: mean prompt tokens with memory and with the full history."""
    config = Config.resolve(
        home=home,
        profile=re.sub(r"[^A-Za-z0-9_.-]", "-", sample["sample_id"]),
        ollama_host=host,
        embed_model=model,
    )
    counter = TokenCounter()
    speaker_a = sample["conversation"]["speaker_a"]
    system = {"role": "system", "content": SYSTEM_PROMPT.format(today="Monday, 1 January 2024")}
    rows = []
    with Profile.open(config) as prof:
        builder = ContextBuilder(prof.memories, prof.search, counter)
        everything: list[dict[str, str]] = []
        for index, (date, turns) in enumerate(sessions_of(sample), 1):
            session: list[dict[str, str]] = []
            mem_tokens, full_tokens, block_tokens, block_count = [], [], [], []
            for turn in turns:
                role = "user" if turn["speaker"] == speaker_a else "assistant"
                msg = {"role": role, "content": turn_text(turn)}
                if role == "user":
                    plan = builder.build(msg["content"], session, budget)
                    mem_tokens.append(plan.prompt_tokens)
                    block_tokens.append(plan.memory_tokens)
                    block_count.append(len(plan.used))
                    full_tokens.append(counter.messages([system, *everything, msg]))
                session.append(msg)
                everything.append(msg)
            if mem_tokens:
                rows.append(
                    {
                        "session": index,
                        "turns": len(mem_tokens),
                        "memory_prompt": float(np.mean(mem_tokens)),
                        "full_history": float(np.mean(full_tokens)),
                        "memory_block": float(np.mean(block_tokens)),
                        "memories": float(np.mean(block_count)),
                    }
                )
            previous = None
            items = []
            for turn in turns:
                text = turn_text(turn)
                items.append(NewMemory(text, created_at=date, valid_from=date, context=previous))
                previous = text
            prof.memories.add_many(items)
    return rows


def tokens(args: argparse.Namespace, host: str) -> dict:
    data = json.loads(Path(args.data).read_text("utf-8"))[: args.conversations or None]
    budget = Budget(context=args.context)
    per_conv = []
    with scratch_home() as home:
        for sample in data:
            rows = replay(sample, home, host, args.embed_model, budget)
            per_conv.append(rows)
            last = rows[-1]
            print(
                f"  {sample['sample_id']}: {len(rows)} sessions, last session "
                f"{last['memory_prompt']:.0f} vs {last['full_history']:.0f} tokens",
                file=sys.stderr,
            )
    last = [rows[-1] for rows in per_conv]
    every = [r for rows in per_conv for r in rows]
    return {
        "conversations": len(per_conv),
        "context": budget.context,
        "last_session": {
            "memory_prompt": round(float(np.mean([r["memory_prompt"] for r in last]))),
            "full_history": round(float(np.mean([r["full_history"] for r in last]))),
            "ratio": round(
                float(np.mean([r["memory_prompt"] / r["full_history"] for r in last])), 4
            ),
            "memory_block": round(float(np.mean([r["memory_block"] for r in last]))),
            "memories": round(float(np.mean([r["memories"] for r in last])), 1),
        },
        "all_sessions": {
            "memory_prompt": round(float(np.mean([r["memory_prompt"] for r in every]))),
            "full_history": round(float(np.mean([r["full_history"] for r in every]))),
            "memory_block": round(float(np.mean([r["memory_block"] for r in every]))),
        },
        "by_session": [
            {
                "session": s,
                "memory_prompt": round(
                    float(
                        np.mean(
                            [rows[s - 1]["memory_prompt"] for rows in per_conv if len(rows) >= s]
                        )
                    )
                ),
                "full_history": round(
                    float(
                        np.mean(
                            [rows[s - 1]["full_history"] for rows in per_conv if len(rows) >= s]
                        )
                    )
                ),
            }
            for s in range(1, max(len(r) for r in per_conv) + 1)
        ],
    }


def overhead(n: int, queries: int) -> dict:
    """p50/p95 of the read path before the first token, with n memories."""
    from benchmarks.scale import MODEL, Corpus, PrecomputedEmbedder, build

    with scratch_home() as home:
        build(home, n, 1024, queries)
        qvecs = np.load(home / "qvecs.npy")
        qtexts = json.loads((home / "qtexts.json").read_text())
        config = Config.resolve(home=home, profile="scale", embed_model=MODEL)
        with Profile.open(config) as prof:
            embedder = PrecomputedEmbedder(1024)
            prof.memories.embedder = embedder
            prof.memories.index.warm()
            convs = prof.conversations
            builder = ContextBuilder(prof.memories, prof.search, TokenCounter())
            cid = convs.create().id
            corpus = Corpus(n, 1024)
            for i in range(10):  # a conversation already under way
                convs.add_message(cid, "user", " ".join(corpus.vocab[i : i + 30]))
                convs.add_message(cid, "assistant", " ".join(corpus.vocab[i + 30 : i + 90]))
            timings, blocks = [], []
            for q, text in zip(qvecs, qtexts, strict=True):
                embedder.query = q
                t0 = time.perf_counter()
                convs.add_message(cid, "user", text)
                history = [{"role": m.role, "content": m.content} for m in convs.messages(cid)][:-1]
                plan = builder.build(text, history, Budget())
                timings.append((time.perf_counter() - t0) * 1000)
                blocks.append(len(plan.used))
    return {
        "memories": n,
        "queries": queries,
        "p50_ms": round(percentile(timings, 50), 1),
        "p95_ms": round(percentile(timings, 95), 1),
        "memories_in_block": round(float(np.mean(blocks)), 1),
    }


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--data",
        default=str(Path(__file__).resolve().parents[2] / "shared/bench/locomo/locomo_dev.json"),
    )
    ap.add_argument("--conversations", type=int, help="only the first N")
    ap.add_argument("--ollama-host", help="default: start the offline MiniLM server")
    ap.add_argument("--embed-model", default="all-minilm")
    ap.add_argument("--context", type=int, default=8192, help="the model's context (default 8192)")
    ap.add_argument("--overhead-memories", type=int, default=10_000)
    ap.add_argument("--overhead-only", action="store_true")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    out: dict = {}
    if not args.overhead_only:
        if args.ollama_host:
            out["tokens"] = tokens(args, args.ollama_host)
        else:
            with embed_server() as url:
                out["tokens"] = tokens(args, url)
    out["overhead"] = overhead(args.overhead_memories, 200)
    if args.json:
        print(json.dumps(out, indent=2))
        return
    if "tokens" in out:
        t = out["tokens"]
        print(
            f"LoCoMo, {t['conversations']} conversations, context {t['context']}: prompt tokens per user turn"
        )
        print(f"{'session':>8} {'with memory':>12} {'full history':>13} {'ratio':>7}")
        for r in t["by_session"]:
            print(f"{r['session']:>8} {r['memory_prompt']:>12,} {r['full_history']:>13,} "
                  f"{r['memory_prompt'] / r['full_history']:>7.1%}")  # fmt: skip
        ls = t["last_session"]
        print(f"last session: {ls['memory_prompt']:,} vs {ls['full_history']:,} tokens "
              f"({ls['ratio']:.1%}); memory block {ls['memory_block']} tokens, "
              f"{ls['memories']} memories")  # fmt: skip
    o = out["overhead"]
    print(f"read-path overhead with {o['memories']:,} memories: p50 {o['p50_ms']} ms, "
          f"p95 {o['p95_ms']} ms ({o['memories_in_block']} memories in the block)")  # fmt: skip


if __name__ == "__main__":
    main()
