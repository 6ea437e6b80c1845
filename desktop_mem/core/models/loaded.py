"""What the model server says about a loaded model that would make every turn slow.

Ollama's /api/ps lists the loaded models with their context length and when each will
be unloaded. Two things there cost the user seconds on every turn:
- the chat model loaded with another context length than desktop-mem asks for: each
  request reloads it (another app using the same model with another length, say);
- a short keep-alive: the model is unloaded between turns, and each turn loads it again.
  Only a look right after an answer can tell (the time left then is the keep-alive), so
  the chat looks after each answer and keeps what it saw in the profile (`OBSERVED`),
  where `desktop-mem doctor` reads it.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any

import httpx

from desktop_mem.core.errors import DesktopMemError
from desktop_mem.core.jsontypes import JSONObject
from desktop_mem.core.protocols import Meta

OBSERVED = "server.observed"  # meta: what /api/ps showed right after the last answer
SHORT_KEEP_ALIVE_S = 120.0  # less than this after an answer: unloaded between most turns
FOREVER_S = 10 * 365 * 86400.0  # keep_alive < 0: never unloaded


@dataclass
class Loaded:
    """One model as /api/ps reports it."""

    model: str
    context_length: int | None
    expires_in: float | None  # seconds until it is unloaded (None: not said)


@dataclass
class SlowTurns:
    """Why every turn would be slow: `reason` is "context" (loaded with another length),
    "keep_alive" (unloaded soon after each answer) or "unloaded" (gone right after it)."""

    reason: str
    model: str
    asked: int  # the context length desktop-mem asks for
    loaded: int | None = None  # the one it is loaded with
    keep_alive: float | None = None  # seconds it stays loaded after an answer

    def what(self) -> str:
        if self.reason == "context":
            return (
                f"Ollama has {self.model} loaded with a {self.loaded:,}-token context, but "
                f"desktop-mem asks for {self.asked:,}, so each request reloads it"
            )
        kept = "at once" if self.reason == "unloaded" else f"{self.keep_alive:.0f} s"
        return (
            f"Ollama unloads {self.model} {kept} after each answer, so every turn waits "
            "for it to load again"
        )

    def fix(self) -> str:
        if self.reason == "context":
            return (
                "give every app that uses this model the same context length, or set "
                f"desktop-mem's with `desktop-mem settings set context_tokens {self.loaded}`"
            )
        return "start Ollama with a longer keep-alive (OLLAMA_KEEP_ALIVE=30m)"

    def sentence(self) -> str:
        """For the command line (the window words it by `reason`, in its language)."""
        return f"{self.what()}: {self.fix()}."

    def to_dict(self) -> JSONObject:
        return asdict(self)


def loaded_models(host: str, timeout: float = 5.0) -> list[Loaded]:
    """The models the server has loaded (raises httpx.HTTPError or ValueError)."""
    with httpx.Client(base_url=host, timeout=timeout, trust_env=False) as client:
        res = client.get("/api/ps")
        res.raise_for_status()
        listed = res.json().get("models") or []
    now = datetime.now(UTC)
    out = []
    for m in listed:
        expires = m.get("expires_at")
        left: float | None = None
        if expires:
            try:
                left = (
                    datetime.fromisoformat(str(expires).replace("Z", "+00:00")) - now
                ).total_seconds()
            except ValueError:
                left = None
        ctx = m.get("context_length")
        out.append(
            Loaded(str(m.get("model") or m.get("name") or ""), int(ctx) if ctx else None, left)
        )
    return out


def find(models: list[Loaded], model: str) -> Loaded | None:
    names = {model, f"{model}:latest", model.removesuffix(":latest")}
    return next((m for m in models if m.model in names), None)


def judge(found: Loaded | None, model: str, asked: int, after_answer: bool) -> SlowTurns | None:
    """What would make every turn slow, from one look at /api/ps (`after_answer`: the
    look came right after the model answered, so the time left is its keep-alive)."""
    if found is None:
        return SlowTurns("unloaded", model, asked) if after_answer else None
    if found.context_length and found.context_length != asked:
        return SlowTurns("context", model, asked, found.context_length)
    if after_answer and found.expires_in is not None and found.expires_in < SHORT_KEEP_ALIVE_S:
        return SlowTurns("keep_alive", model, asked, keep_alive=max(0.0, found.expires_in))
    return None


def observe(db: Meta | None, host: str, model: str, asked: int) -> SlowTurns | None:
    """Look right after an answer and keep what was seen (model, context, keep-alive:
    no text) for `doctor`. Never raises: a server that does not say is no problem."""
    try:
        found = find(loaded_models(host), model)
    except (httpx.HTTPError, ValueError, TypeError):
        return None
    problem = judge(found, model, asked, after_answer=True)
    seen = {
        "at": datetime.now(UTC).isoformat(timespec="seconds"),
        "model": model,
        "asked": asked,
        "context_length": found.context_length if found else None,
        "keep_alive": None
        if found is None or found.expires_in is None
        else round(found.expires_in),
        "problem": problem.reason if problem else None,
    }
    if db is not None:  # kept when it says something, or clears what it said
        with contextlib.suppress(DesktopMemError):  # a read-only or busy profile
            before = last_observed(db)
            if problem is not None or (before and before.get("problem")):
                db.meta_set(OBSERVED, json.dumps(seen))
    return problem


def last_observed(db: Meta) -> dict[str, Any] | None:
    raw = db.meta_get(OBSERVED)
    try:
        return json.loads(raw) if raw else None
    except ValueError:
        return None
