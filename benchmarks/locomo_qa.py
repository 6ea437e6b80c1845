"""Answer quality, end to end, through the real chat path, judged by a language model.

For each LoCoMo conversation, a fresh encrypted profile lives through it as a user
would: every session is a new chat, speaker A's turns are sent as the user's
messages (the chat model answers, and learns memories from each exchange with its
own extraction), and the turns are dated with their session. Then every question
(categories 1-4) is asked in a new conversation, and a judge model compares the
answer with the gold answer, as the mem0 paper does (J: the share judged CORRECT),
per category and overall.

This needs real models; nothing here can run them, so the plumbing is tested
against the fake Ollama server (tests/test_benchmarks.py) and the numbers come from
a machine with Ollama:

    ollama pull qwen2.5:7b && ollama pull bge-m3
    python benchmarks/locomo_qa.py --data locomo10.json --ollama-host http://127.0.0.1:11434 \\
        --chat-model qwen2.5:7b --judge-model qwen2.5:7b --limit 200 --json

Published J on LoCoMo (mem0 paper, GPT-4o-mini as the model): full context 72.9, Mem0
66.9, Zep 66-75, Letta 74, OpenAI memory 52.9.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import defaultdict
from datetime import datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import scratch_home
from benchmarks.locomo import CATEGORIES
from benchmarks.prompt import sessions_of
from desktop_mem.core.chat.session import ChatSession
from desktop_mem.core.config import Config
from desktop_mem.core.models.llm import OllamaChat
from desktop_mem.core.profile import Profile

JUDGE_PROMPT = """Your task is to label an answer to a question as CORRECT or WRONG.
You are given a question, a gold (ground truth) answer, and a generated answer.
Be generous: if the generated answer touches on the same topic as the gold answer
and means the same thing, it is CORRECT. For time questions, a date, month or year
that refers to the same time as the gold answer is CORRECT even in another format.

Question: {question}
Gold answer: {gold}
Generated answer: {answer}

Answer with a JSON object {{"label": "CORRECT"}} or {{"label": "WRONG"}}."""

JUDGE_SCHEMA = {
    "type": "object",
    "properties": {"label": {"type": "string", "enum": ["CORRECT", "WRONG"]}},
    "required": ["label"],
}


def live_through(prof: Profile, sample: dict, backend: OllamaChat) -> int:
    """Send speaker A's turns, session by session, each session a new chat; wait for
    the learning of every exchange. Returns the number of messages sent."""
    speaker_a = sample["conversation"]["speaker_a"]
    sent = 0
    for date, turns in sessions_of(sample):
        session = ChatSession(prof, backend)
        when = f" (said on {date[:10]})" if date else ""
        for turn in turns:
            if turn["speaker"] != speaker_a or not turn.get("text", "").strip():
                continue
            result = session.send(turn["text"] + when)
            result.learned(600)
            sent += 1
        session.close()
    return sent


def judge(backend: OllamaChat, question: str, gold: Any, answer: str) -> bool:
    raw, _ = backend.complete_json(
        [
            {
                "role": "user",
                "content": JUDGE_PROMPT.format(question=question, gold=gold, answer=answer),
            }
        ],
        JUDGE_SCHEMA,
    )
    try:
        label = json.loads(raw).get("label", "")
    except (ValueError, AttributeError):
        label = raw  # a small judge that ignored the format: its plain word
    return str(label).strip().upper() == "CORRECT"


def run(args: argparse.Namespace) -> dict:
    data = json.loads(Path(args.data).read_text("utf-8"))
    if args.conversations:
        data = data[: args.conversations]
    started = time.perf_counter()
    chat = OllamaChat(args.ollama_host, args.chat_model)
    judge_backend = OllamaChat(args.ollama_host, args.judge_model)
    verdicts: dict[int, list[bool]] = defaultdict(list)
    asked = 0
    with scratch_home() as home:
        for sample in data:
            config = Config.resolve(
                home=home,
                profile=re.sub(r"[^A-Za-z0-9_.-]", "-", sample["sample_id"]),
                ollama_host=args.ollama_host,
                embed_model=args.embed_model,
            )
            with Profile.open(config) as prof:
                sent = live_through(prof, sample, chat)
                memories = prof.memories.count()
                for qa in sample["qa"]:
                    cat = int(qa.get("category", 0))
                    if cat not in (1, 2, 3, 4) or (args.limit and asked >= args.limit):
                        continue
                    session = ChatSession(prof, chat)
                    answer = session.send(qa["question"]).text
                    session.close()
                    verdicts[cat].append(judge(judge_backend, qa["question"], qa["answer"], answer))
                    asked += 1
                print(
                    f"  {sample['sample_id']}: {sent} messages sent, {memories} memories learned",
                    file=sys.stderr,
                )
            if args.limit and asked >= args.limit:
                break
    every = [v for vs in verdicts.values() for v in vs]
    return {
        "J": round(100 * sum(every) / len(every), 1) if every else None,
        "questions": len(every),
        "per_category": {
            CATEGORIES[c]: {"questions": len(v), "J": round(100 * sum(v) / len(v), 1)}
            for c, v in sorted(verdicts.items())
        },
        "chat_model": args.chat_model,
        "judge_model": args.judge_model,
        "embed_model": args.embed_model,
        "date": datetime.now().strftime("%Y-%m-%d"),
        "seconds": round(time.perf_counter() - started, 1),
    }


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--data", required=True, help="LoCoMo JSON (a list of samples)")
    ap.add_argument("--ollama-host", required=True, help="the Ollama server with the models")
    ap.add_argument("--chat-model", default="qwen2.5:7b")
    ap.add_argument("--judge-model", required=True)
    ap.add_argument("--embed-model", default="bge-m3")
    ap.add_argument("--conversations", type=int, help="only the first N conversations")
    ap.add_argument("--limit", type=int, help="ask at most this many questions in all")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    result = run(args)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"LoCoMo J (judged by {args.judge_model}): {result['J']} on {result['questions']}")
        for name, row in result["per_category"].items():
            print(f"  {name:<12} {row['J']:>5}  ({row['questions']} questions)")
    return result


if __name__ == "__main__":
    main()
