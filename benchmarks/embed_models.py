"""Which embedding model for Chinese and English? Paraphrase retrieval, measured.

Each of the 20 memories of benchmarks/data/bilingual_memories.json exists in English
and Chinese, with a query in each language that shares (almost) no words with it.
For every direction (query language -> memory language) the memories are embedded
and each query ranks them: top-1 accuracy and mean reciprocal rank.

    python benchmarks/embed_models.py --ollama-host http://127.0.0.1:11434 --model bge-m3 --model all-minilm
    python benchmarks/embed_models.py            # all-minilm on the offline server

Through the product's own Embedder (the Ollama /api/embed path).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import embed_server
from desktop_mem.core.models.embed import Embedder

DATA = Path(__file__).with_name("data") / "bilingual_memories.json"
DIRECTIONS = [("en", "en"), ("zh", "zh"), ("zh", "en"), ("en", "zh")]


def measure(host: str, model: str) -> dict:
    items = json.loads(DATA.read_text("utf-8"))["items"]
    emb = Embedder(host, model)
    out = {"model": model}
    for q_lang, m_lang in DIRECTIONS:
        mems = emb.embed([it[m_lang] for it in items])
        queries = emb.embed([it[f"q_{q_lang}"] for it in items])
        ranks = []
        for i, q in enumerate(queries):
            order = np.argsort(-(mems @ q))
            ranks.append(int(np.where(order == i)[0][0]) + 1)
        out[f"{q_lang}->{m_lang}"] = {
            "top1": round(float(np.mean([r == 1 for r in ranks])), 3),
            "mrr": round(float(np.mean([1 / r for r in ranks])), 3),
        }
    return out


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--ollama-host")
    ap.add_argument("--model", action="append", help="repeatable (default: all-minilm)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    models = args.model or ["all-minilm"]
    if args.ollama_host:
        rows = [measure(args.ollama_host, m) for m in models]
    else:
        with embed_server() as host:
            rows = [measure(host, m) for m in models]
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"{'model':<28}" + "".join(f"{a}->{b} top1/MRR".rjust(20) for a, b in DIRECTIONS))
    for r in rows:
        print(f"{r['model']:<28}" + "".join(
            f"{r[f'{a}->{b}']['top1']:.2f}/{r[f'{a}->{b}']['mrr']:.2f}".rjust(20) for a, b in DIRECTIONS
        ))  # fmt: skip


if __name__ == "__main__":
    main()
