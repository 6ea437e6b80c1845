"""search_memories through a real MCP client: the round trip an app pays.

A profile of --memories memories (default 10,000) with its key in a keyring the
processes share; `desktop-mem mcp` started by the official SDK's stdio client, as
Claude Desktop or Cursor would; 20 warm-up calls, then --calls searches (default 300)
with distinct queries, then the same queries again. The first pass pays for the
embedding call (to the test suite's fake model server, about 3 ms); in the second the
server's own query-embedding cache answers it, so that pass is desktop-mem's own
time with the embedding model excluded: the protocol, the permission check, the
search, the access log write.

    python benchmarks/mcp_latency.py [--memories 10000] [--calls 300] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp_types import Implementation

from benchmarks._common import ROOT
from desktop_mem.core.config import Config
from desktop_mem.core.keys.vault import KeyringAccess, Vault
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.profile import Profile
from tests.fakes.keyrings import FileKeyring
from tests.fakes.ollama_server import FakeOllama

TOPICS = ["garden", "tea", "Hangzhou", "running", "daughter", "hospital", "Tokyo", "cat"]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--memories", type=int, default=10_000)
    ap.add_argument("--calls", type=int, default=300)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    fake = FakeOllama(embed_models={"fake-embed": 384}).start()
    with tempfile.TemporaryDirectory(prefix="desktop-mem-bench-mcp-") as tmp:
        home = Path(tmp) / "home"
        os.environ["DESKTOP_MEM_TEST_KEYRING_FILE"] = str(Path(tmp) / "keyring.json")
        vault = Vault(KeyringAccess(FileKeyring()))
        config = Config.resolve(home=home, ollama_host=fake.url, embed_model="fake-embed")
        with Profile.open(config, vault) as prof:
            for start in range(0, args.memories, 1000):
                prof.memories.add_many(
                    [
                        NewMemory(f"note {i}: the {TOPICS[i % len(TOPICS)]} plan number {i % 97}")
                        for i in range(start, min(start + 1000, args.memories))
                    ]
                )
        server = StdioServerParameters(
            command=sys.executable,
            args=[
                "-m",
                "desktop_mem",
                "--home",
                str(home),
                "--ollama-host",
                fake.url,
                "--embed-model",
                "fake-embed",
                "mcp",
            ],  # fmt: skip
            env={
                **os.environ,
                "PYTHONPATH": str(ROOT),
                "PYTHON_KEYRING_BACKEND": "tests.fakes.keyrings.FileKeyring",
            },  # fmt: skip
        )

        def query_of(n: int) -> str:
            return f"the {TOPICS[n % len(TOPICS)]} plan number {n % 97}, note {n}"

        async def go() -> tuple[list[float], list[float]]:
            passes: tuple[list[float], list[float]] = ([], [])
            async with (
                stdio_client(server) as (read, write),
                ClientSession(
                    read, write, client_info=Implementation(name="Benchmark", version="1")
                ) as session,
            ):
                await session.initialize()
                for n in range(20):
                    await session.call_tool("search_memories", {"query": f"warm-up {n}"})
                for times in passes:
                    for n in range(args.calls):
                        t0 = time.perf_counter()
                        result = await session.call_tool("search_memories", {"query": query_of(n)})
                        times.append((time.perf_counter() - t0) * 1000)
                        assert not result.is_error, result
            return passes

        times, cached = anyio.run(go)
        # the embedding call alone (the same queries, the same server): its share
        from desktop_mem.core.models.embed import Embedder

        embedder = Embedder(fake.url, "fake-embed")
        embed_times = []
        for n in range(20 + args.calls):
            query = query_of(n) + f" #{n}"  # uncached
            t0 = time.perf_counter()
            embedder.embed_one(query)
            if n >= 20:
                embed_times.append((time.perf_counter() - t0) * 1000)
    fake.stop()
    embed_times.sort()
    times.sort()
    cached.sort()
    out = {
        "memories": args.memories,
        "calls": args.calls,
        "p50_ms": round(statistics.median(times), 1),
        "p95_ms": round(times[int(0.95 * (len(times) - 1))], 1),
        "max_ms": round(times[-1], 1),
        "embedding_excluded_p50_ms": round(statistics.median(cached), 1),
        "embedding_excluded_p95_ms": round(cached[int(0.95 * (len(cached) - 1))], 1),
        "embedding_excluded_max_ms": round(cached[-1], 1),
        "embed_p50_ms": round(statistics.median(embed_times), 1),
        "embed_p95_ms": round(embed_times[int(0.95 * (len(embed_times) - 1))], 1),
    }
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print(
            f"search_memories over MCP stdio, {args.memories:,} memories, {args.calls} calls: "
            f"p50 {out['p50_ms']} ms, p95 {out['p95_ms']} ms, max {out['max_ms']} ms; "
            f"embedding model excluded (cached): p50 {out['embedding_excluded_p50_ms']} ms, "
            f"p95 {out['embedding_excluded_p95_ms']} ms, max {out['embedding_excluded_max_ms']} ms; "
            f"the embedding call alone: p50 {out['embed_p50_ms']} ms, p95 {out['embed_p95_ms']} ms"
        )


if __name__ == "__main__":
    main()
