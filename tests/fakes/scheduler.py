"""Ollama's scheduler as the fake server simulates it: what each request costs the model.

The rules (documented by Ollama's maintainers and measured by its users):
- a model is loaded with one context length; a request asking for another `num_ctx`
  (leaving it out asks for the server's default) reloads it, which costs seconds;
- each loaded model has N slots (OLLAMA_NUM_PARALLEL, 1 by default), each keeping the
  KV cache of the prompt it last evaluated and the answer it generated. A request
  evaluates afresh only what follows the longest prefix its rendered prompt shares with
  a slot's cache. It takes that slot when the slot's whole cache is such a prefix;
  otherwise the least recently used slot is evicted for it and given a copy of the
  shared prefix, so the slot it diverged from keeps its cache (Ollama's runner with its
  multi-user cache; with one slot it is the same slot either way);
- a model unused for its keep-alive (5 minutes by default) is unloaded.

Prompts are rendered with a ChatML template (qwen2.5's) and counted with a tokenizer
when one is given (`tokenizer.json`, e.g. all-MiniLM's), else with an estimate: one
token per CJK character, about one per four letters of a word, one per punctuation mark.
Message parts are tokenized separately, as a template's special tokens separate them,
so a prefix of messages is a prefix of tokens.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DEFAULT_CONTEXT = 4096  # what Ollama gives a model when a request names none
KEEP_ALIVE_S = 300.0
_PIECE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]|\w{1,4}|[^\w\s]")


class Tokenizer:
    """Counts tokens: with a tokenizers.Tokenizer file when given, else estimated."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.name = "estimate (1 per CJK character, 1 per 4 letters, 1 per mark)"
        self._tok: Any = None
        self._cache: dict[str, tuple[Any, ...]] = {}
        if path is not None:
            from tokenizers import Tokenizer as HFTokenizer

            self._tok = HFTokenizer.from_file(str(path))
            self._tok.no_truncation()
            self._tok.no_padding()
            self.name = f"tokenizer {Path(path).parent.name}/{Path(path).name}"

    def tokens(self, text: str) -> tuple[Any, ...]:
        hit = self._cache.get(text)
        if hit is not None:
            return hit
        if self._tok is not None:
            out: tuple[Any, ...] = tuple(self._tok.encode(text, add_special_tokens=False).ids)
        else:
            out = tuple(_PIECE.findall(text))
        if len(self._cache) > 20_000:
            self._cache.clear()
        self._cache[text] = out
        return out

    def count(self, text: str) -> int:
        return len(self.tokens(text))


def render(tokenizer: Tokenizer, messages: Sequence[dict[str, Any]]) -> list[Any]:
    """The prompt's tokens as a ChatML template renders it, ending with the header of
    the answer to generate."""
    out: list[Any] = []
    for m in messages:
        out += tokenizer.tokens(f"<|im_start|>{m.get('role', 'user')}\n")
        out += tokenizer.tokens(str(m.get("content") or ""))
        out += tokenizer.tokens("<|im_end|>\n")
    out += tokenizer.tokens("<|im_start|>assistant\n")
    return out


def common_prefix(a: Sequence[Any], b: Sequence[Any]) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


@dataclass
class Slot:
    tokens: list[Any] = field(default_factory=list)
    used: float = 0.0  # when it last served a request (for least-recently-used eviction)
    seq: int = 0  # the request counter then: a tie-breaker when the clock does not move


@dataclass
class Runner:
    """A loaded model."""

    model: str
    num_ctx: int
    slots: list[Slot]
    expires: float


@dataclass
class Evaluation:
    """One request to a model, as the scheduler served it."""

    model: str
    kind: str  # chat, json (structured output), title, embed
    num_ctx: int
    loaded: bool  # the model had to be loaded (first use, or after unloading)
    reloaded: bool  # it was loaded with another context length: a reload
    prompt_tokens: int
    cached: int  # of those, reused from the slot's cache
    slot: int
    tag: str = ""  # what the client said it was (the benchmark labels its requests)

    @property
    def fresh(self) -> int:
        return self.prompt_tokens - self.cached


class Scheduler:
    def __init__(
        self,
        slots: int = 1,
        tokenizer: Tokenizer | None = None,
        default_context: int = DEFAULT_CONTEXT,
        trained_context: int = 32768,
        keep_alive: float = KEEP_ALIVE_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.n_slots = slots
        self.tokenizer = tokenizer or Tokenizer()
        self.default_context = default_context
        self.trained_context = trained_context
        self.keep_alive = keep_alive
        self.clock = clock
        self.runners: dict[str, Runner] = {}
        self.evaluations: list[Evaluation] = []
        self._seq = 0
        self._lock = threading.Lock()

    def _runner(
        self, model: str, options: dict[str, Any], keep_alive: Any
    ) -> tuple[Runner, bool, bool]:
        asked = int(options.get("num_ctx") or self.default_context)
        num_ctx = min(asked, self.trained_context)
        now = self.clock()
        runner = self.runners.get(model)
        if runner is not None and runner.expires <= now:
            del self.runners[model]  # unloaded by its keep-alive
            runner = None
        loaded = reloaded = False
        if runner is None or runner.num_ctx != num_ctx:
            reloaded = runner is not None
            loaded = True
            runner = Runner(model, num_ctx, [Slot() for _ in range(self.n_slots)], now)
            self.runners[model] = runner
        runner.expires = now + _seconds(keep_alive, self.keep_alive)
        return runner, loaded, reloaded

    def load(self, model: str, num_ctx: int, keep_alive: float | None = None) -> None:
        """Another app loads the model (with its own context length)."""
        with self._lock:
            self._runner(model, {"num_ctx": num_ctx}, keep_alive)

    def chat(
        self,
        model: str,
        messages: Sequence[dict[str, Any]],
        options: dict[str, Any] | None,
        answer: str,
        kind: str = "chat",
        keep_alive: Any = None,
        tag: str = "",
    ) -> Evaluation:
        """Serve one chat request: which slot, how much of its prompt was cached."""
        with self._lock:
            runner, loaded, reloaded = self._runner(model, options or {}, keep_alive)
            prompt = render(self.tokenizer, messages)
            shared = [common_prefix(slot.tokens, prompt) for slot in runner.slots]
            longest = max(range(len(shared)), key=lambda i: shared[i])
            best_len = shared[longest]
            if best_len == len(runner.slots[longest].tokens):
                best = longest  # its whole cache is the prompt's start: it goes on from there
            else:  # the least recently used slot, given a copy of the shared prefix
                best = min(
                    range(len(runner.slots)),
                    key=lambda i: (runner.slots[i].used, runner.slots[i].seq),
                )
            chosen = runner.slots[best]
            # the last prompt token is always evaluated (it yields the first answer token)
            cached = min(best_len, max(0, len(prompt) - 1))
            self._seq += 1
            chosen.tokens = prompt + list(self.tokenizer.tokens(answer))
            chosen.used, chosen.seq = self.clock(), self._seq
            ev = Evaluation(
                model, kind, runner.num_ctx, loaded, reloaded, len(prompt), cached, best, tag
            )
            self.evaluations.append(ev)
            return ev

    def embed(
        self, model: str, options: dict[str, Any] | None, keep_alive: Any = None
    ) -> Evaluation:
        """An embedding request: only whether it loads its model counts here."""
        with self._lock:
            runner, loaded, reloaded = self._runner(model, options or {}, keep_alive)
            ev = Evaluation(model, "embed", runner.num_ctx, loaded, reloaded, 0, 0, 0)
            self.evaluations.append(ev)
            return ev

    def ps(self) -> list[dict[str, Any]]:
        """What /api/ps reports: the loaded models, their context length and expiry."""
        import datetime as dt

        now = self.clock()
        wall = dt.datetime.now(dt.UTC)
        with self._lock:
            live = [r for r in self.runners.values() if r.expires > now]
        return [
            {
                "name": r.model,
                "model": r.model,
                "size": 1000,
                "digest": "0" * 64,
                "details": {"format": "gguf", "family": "fake", "parameter_size": "1B"},
                "expires_at": (wall + dt.timedelta(seconds=r.expires - now)).isoformat(),
                "size_vram": 0,
                "context_length": r.num_ctx,
            }
            for r in live
        ]

    def reloads(self) -> int:
        return sum(e.reloaded for e in self.evaluations)


def _seconds(keep_alive: Any, default: float) -> float:
    """A keep_alive value as Ollama reads it: seconds, or a duration like "10m"."""
    if keep_alive is None:
        return default
    if isinstance(keep_alive, int | float):
        return float(keep_alive) if keep_alive >= 0 else float("inf")
    found = re.fullmatch(r"(-?\d+(?:\.\d+)?)(ms|s|m|h)?", str(keep_alive).strip())
    if not found:
        return default
    value = float(found.group(1))
    if value < 0:
        return float("inf")
    return value * {"ms": 0.001, "s": 1, "m": 60, "h": 3600, None: 1}[found.group(2)]


def replay(
    requests: Sequence[tuple[str, str, Any]], scheduler: Scheduler, answers: dict[int, str]
) -> list[Evaluation]:
    """Serve a recorded request log again through another scheduler (say, with more
    slots): `answers` maps a request's index to the answer it got."""
    out = []
    for i, (_, path, body) in enumerate(requests):
        if path == "/api/chat" and isinstance(body, dict):
            kind = _kind(body)
            out.append(
                scheduler.chat(
                    body.get("model", ""), body.get("messages", []), body.get("options"),
                    answers.get(i, ""), kind, body.get("keep_alive"),
                )
            )  # fmt: skip
        elif path == "/api/embed" and isinstance(body, dict):
            out.append(
                scheduler.embed(body.get("model", ""), body.get("options"), body.get("keep_alive"))
            )
    return out


def _kind(body: dict[str, Any]) -> str:
    schema = body.get("format")
    if isinstance(schema, dict) and "title" in schema.get("properties", {}):
        return "title"
    return "json" if schema else "chat"
