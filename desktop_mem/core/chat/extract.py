"""The write path: learning durable facts about the user from the conversation.

After each completed exchange, in the background:
1. extraction: the chat model, constrained by a JSON schema (Ollama structured
   outputs) and validated with pydantic, lists what the *user* said about themselves
   that is worth keeping, with relative dates made absolute from the conversation's
   date and time-bound statements given a `valid_until`;
2. an attribution guard drops candidates whose words come from the assistant's
   answer, or from anything else the model was shown (the user's instructions, the
   retrieved blocks), and not from the user's message;
3. consolidation against the store: an identical or near-identical memory is a NOOP
   before any model call; a candidate with no similar memory is an ADD; otherwise the
   model decides ADD / UPDATE / NOOP / INVALIDATE, seeing short integer ids, never
   database ids. Every change is one transaction with a history row (actor, message),
   and can be undone.

Malformed model output gets one retry with the validation error (a repair request);
then InvalidModelAnswer says so, as a model-server error would. Every model call of an
exchange comes before its first change, so a failure leaves nothing half-learned: the
caller (core/chat/learning.py) keeps the exchange to learn from later. Nothing here
can lose a chat message or crash the chat.

Right after a turn the calls go at the end of the chat's own messages (`prefix`: the
prompt and the answer as the model saw them), which the model server has cached.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

from desktop_mem.core import textproc
from desktop_mem.core.chat.backends import BackendSlot, slot_of
from desktop_mem.core.chat.commands import Command, parse_command
from desktop_mem.core.chat.prompts import (
    DECIDE_PROMPT,
    EXTRACT_AFTER_CHAT,
    EXTRACT_PROMPT,
    Candidate,
    Decision,
    Extraction,
    after_chat,
    parse_model_json,
    quoted,
)
from desktop_mem.core.chat.records import Change
from desktop_mem.core.errors import DesktopMemError, InvalidModelAnswer
from desktop_mem.core.memory.records import is_app_source
from desktop_mem.core.memory.spaces import EVERY, SHARED, Scope, learned_in, only
from desktop_mem.core.memory.store import PROPOSES, MemoryStore, NewMemory, parse_when
from desktop_mem.core.models.llm import ChatBackend
from desktop_mem.core.search.hybrid import HybridSearch

__all__ = [
    "Change",
    "Command",
    "Extractor",
    "dumps",
    "may_change",
    "parse_command",
    "said_by_assistant",
]

if TYPE_CHECKING:
    import numpy as np
else:
    from desktop_mem.core.lazy import numpy as np

log = logging.getLogger("desktop_mem.extract")

DUPLICATE_SIMILARITY = 0.92  # this close to a stored memory: the same statement
RELATED_SIMILARITY = 0.55  # below this for every stored memory: simply new
NEIGHBOURS = 5
CONFLICT_SIMILARITY = 0.7  # a pair this close may contradict: the sleep pass asks the model
MAX_JUDGEMENTS = 40  # model calls per sleep pass at most


def given_always(memory: Any) -> str | None:
    """Why a memory is given on every turn (its kind of care), or None."""
    return (memory.care or "asked") if memory.always else None


Prefix = Sequence[dict[str, str]]  # the chat's messages and answer, to ask after


# The model's decision (its JSON words) as the change it becomes: one vocabulary for a
# change to the memories from the decision to its record (the history's "created" is
# the stored word for an added memory, shown as "added").
CHANGE_OF = {"ADD": "added", "NOOP": "skipped", "UPDATE": "updated", "INVALIDATE": "invalidated"}


@dataclass
class Step:
    """What consolidation decided for one candidate, before anything is written, in the
    words of the change it becomes (Change.action): added, skipped, updated, invalidated."""

    candidate: Candidate
    action: str
    target: Any = None  # the stored memory it concerns
    text: str | None = None  # update: the statement as it should now read


def may_change(actor: str, target: Any) -> bool:
    """Whether a write by `actor` may change or expire the stored memory `target`. An app
    only its own, unpinned memories; desktop-mem's own learning any it could before."""
    if not is_app_source(actor):
        return True
    return not target.pinned and target.source == actor


def may_displace(winner: Any, loser: Any) -> bool:
    """Whether the sleep pass may expire `loser` for `winner` (a newer statement, or the
    copy that stays): never for an app's memory, unless the same app wrote both."""
    return not is_app_source(winner.source) or winner.source == loser.source


def _content_words(text: str) -> set[str]:
    return set(textproc.query_terms(text))


def said_by_assistant(candidate: str, user: str, assistant: str) -> bool:
    """The candidate's words are the assistant's (or another text's the model was
    shown), not the user's."""
    words = _content_words(candidate)
    if not words:
        return False
    from_user = len(words & _content_words(user)) / len(words)
    from_assistant = len(words & _content_words(assistant)) / len(words)
    return from_assistant >= 0.5 and from_user < 0.2


def _shown(prefix: Prefix, user: str) -> str:
    """Everything in the chat's messages but the user's newest words: what a candidate
    must not be made of."""
    parts = [m["content"] for m in prefix[:-2]]  # the system message and the history
    if len(prefix) >= 2:
        newest = prefix[-2]["content"]  # the blocks, then the user's words
        parts.append(newest[: len(newest) - len(user)] if newest.endswith(user) else newest)
        parts.append(prefix[-1]["content"])  # the answer
    return "\n".join(parts)


class Extractor:
    def __init__(
        self, store: MemoryStore, search: HybridSearch, backend: ChatBackend | BackendSlot
    ) -> None:
        self.store = store
        self.search = search
        self.backends = slot_of(backend)  # read at each request: see BackendSlot

    @property
    def backend(self) -> ChatBackend:
        return self.backends.current

    # -- model calls with one retry ------------------------------------------------------

    def _ask(self, prompt: str, model: type[BaseModel], prefix: Prefix | None = None) -> BaseModel:
        """One structured answer, with one repair request if it is not valid; raises
        InvalidModelAnswer after that (and ModelServerError when the server fails)."""
        if prefix:
            messages = [*prefix, {"role": "user", "content": prompt}]
        else:
            messages = [{"role": "user", "content": prompt}]
        schema = model.model_json_schema()
        for attempt in (1, 2):
            text, _ = self.backend.complete_json(messages, schema)
            try:
                return parse_model_json(model, text)
            except (ValidationError, ValueError) as exc:
                problem = str(exc).splitlines()[0][:300]
                # the log gets the error types only: never text from the conversation
                kinds = (
                    ",".join(sorted({e["type"] for e in exc.errors()}))
                    if isinstance(exc, ValidationError)
                    else type(exc).__name__
                )
                log.warning("model answer failed validation (attempt %d): %s", attempt, kinds)
                if isinstance(exc, ValidationError):
                    problem = "; ".join(
                        f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()[:5]
                    )
                messages += [
                    {"role": "assistant", "content": text[:2000]},
                    {
                        "role": "user",
                        "content": "That answer is not valid JSON for the schema "
                        f"({problem}). Answer again with JSON only.",
                    },
                ]
        raise InvalidModelAnswer(
            f"The model {self.backend.model} answered twice with something that is not the "
            "JSON asked for: try again, or choose a model that follows instructions better."
        )

    def extract(
        self,
        user: str,
        assistant: str,
        when: datetime,
        prefix: Prefix | None = None,
        newest: bool = True,
    ) -> list[Candidate]:
        """What the user said about themselves in this exchange. With `prefix` (the
        chat's messages and answer) the request is asked after them, naming the newest
        message (`newest`: this exchange is their last) or quoting an older exchange;
        else it quotes the exchange. Raises ModelServerError (InvalidModelAnswer too)."""
        today = when.date()
        dates = {
            "today": today.isoformat(),
            "weekday": when.strftime("%A"),
            "tomorrow": date.fromordinal(today.toordinal() + 1).isoformat(),
        }
        if prefix and newest:
            prompt = EXTRACT_AFTER_CHAT.format(**dates, user=quoted(user[:6000]))
        else:
            prompt = EXTRACT_PROMPT.format(
                **dates, user=quoted(user[:6000]), assistant=quoted(assistant[:3000])
            )
            prompt = after_chat(prompt) if prefix else prompt
        result = self._ask(prompt, Extraction, prefix)
        assert isinstance(result, Extraction)
        elsewhere = _shown(prefix, user) if prefix and newest else assistant
        kept = []
        for c in result.memories:
            if said_by_assistant(c.text, user, elsewhere):
                log.info("dropped a candidate taken from what the model was shown")
                continue
            kept.append(c)
        return kept

    # -- consolidation -------------------------------------------------------------------

    def consolidate(
        self,
        candidates: Sequence[Candidate],
        message_id: int | None,
        context: str | None,
        when: datetime,
        actor: str = "extractor",
        prefix: Prefix | None = None,
        scope: Scope = SHARED,
    ) -> list[Change]:
        """Decide for every candidate (the model calls), then write the changes: a
        failing call raises before anything is stored. `scope`: the spaces the chat
        sees (core/memory/spaces.py): a candidate is weighed against their memories
        only, and goes to the chat's space (`learned_in`)."""
        steps = [self.decide(c, when, prefix, scope=scope) for c in candidates]
        changes: list[Change] = []
        for step in steps:
            try:
                changes += self._apply(step, message_id, context, when, actor, scope)
            except DesktopMemError as exc:  # a bad date, a too-long text: skip this one
                log.warning("candidate skipped: %s", type(exc).__name__)
        return changes

    def _neighbours(self, text: str, scope: Scope = SHARED) -> list[tuple[Any, float]]:
        # the nearest, related or not: consolidation decides what they have to do with it
        hits = self.search.search(
            text, k=NEIGHBOURS, include_expired=False, relevant_only=False, scope=scope
        ).hits
        out = []
        for h in hits:
            sim = (h.signals.get("vector") or {}).get("similarity")
            out.append((h.memory, float(sim) if sim is not None else 0.0))
        return out

    def decide(
        self,
        c: Candidate,
        when: datetime,
        prefix: Prefix | None = None,
        others: Sequence[tuple[Any, float]] = (),
        scope: Scope = SHARED,
    ) -> Step:
        """What to do with a candidate, asking the model only for a close call; no
        change is made. `others`: statements not in the store to weigh beside its
        memories (anything with a `text`, with its cosine similarity), as the import's
        facts waiting for review; the Step's target may then be one of them. Raises
        ModelServerError (InvalidModelAnswer included)."""
        same = self.store.find_duplicate(c.text, scope)
        if same is not None:
            return Step(c, "skipped", same)
        neighbours = self._neighbours(c.text, scope)
        if others:
            neighbours = sorted([*neighbours, *others], key=lambda t: -t[1])[:NEIGHBOURS]
        best = max((s for _, s in neighbours), default=0.0)
        if neighbours and best >= DUPLICATE_SIMILARITY:
            return Step(c, "skipped", max(neighbours, key=lambda t: t[1])[0])
        if not neighbours or best < RELATED_SIMILARITY:
            return Step(c, "added")
        stored = "\n".join(f"[{i}] {quoted(m.text)}" for i, (m, _) in enumerate(neighbours, 1))
        prompt = DECIDE_PROMPT.format(
            today=when.date().isoformat(), stored=stored, new=quoted(c.text)
        )
        decision = self._ask(after_chat(prompt) if prefix else prompt, Decision, prefix)
        assert isinstance(decision, Decision)
        if decision.action == "ADD":
            return Step(c, "added")
        if decision.id is None or not 1 <= decision.id <= len(neighbours):
            log.warning("consolidation answer named no stored memory: adding instead")
            return Step(c, "added")
        target = neighbours[decision.id - 1][0]
        action = CHANGE_OF[decision.action]
        return Step(c, action, target, decision.text)

    def _apply(
        self,
        step: Step,
        message_id: int | None,
        context: str | None,
        when: datetime,
        actor: str,
        scope: Scope = SHARED,
    ) -> list[Change]:
        c, target = step.candidate, step.target
        space = learned_in(c.text, scope)
        home = None if scope.every else scope.space  # the chat's own space
        if step.action in ("updated", "invalidated") and not may_change(actor, target):
            # An app's write never changes or expires a memory it did not write, nor a
            # pinned one: its words would go into the user's memory (and every prompt,
            # for a pinned one) under the user's name. It adds its own, beside it.
            same = self.store.find_duplicate(c.text, scope)
            if same is not None:
                return [Change("skipped", same.id, same.text)]
            return [self._add(c, message_id, context, actor, proposes=target.id, space=space)]
        if step.action == "added":
            # a candidate the same as one just written for this exchange is not stored twice
            same = self.store.find_duplicate(c.text, scope)
            if same is not None:
                return [Change("skipped", same.id, same.text)]
            return [self._add(c, message_id, context, actor, space=space, learned_from=home)]
        if step.action == "skipped":
            return [Change("skipped", target.id, target.text)]
        if step.action == "updated" and space != target.space:
            # A chat in a space updates only a memory of the space its words go to: the
            # work chat's words never rewrite a shared memory (nor a shared fact a space's
            # memory). What it learned is added where it belongs, beside the other.
            same = self.store.find_duplicate(c.text, only(space))
            if same is not None:
                return [Change("skipped", same.id, same.text)]
            return [self._add(c, message_id, context, actor, space=space, learned_from=home)]
        if step.action == "updated":
            text = (step.text or c.text).strip() or c.text
            result = self.store.edit(
                target.id,
                text=text,
                kind=c.kind,
                importance=max(c.importance, target.importance),
                valid_until=c.valid_until,
                actor=actor,
                message_id=message_id,
                action="updated",
            )
            return [
                Change("updated", target.id, result.memory.text, target.text,
                       self._version(target.id), given_always(result.memory))
            ]  # fmt: skip
        # invalidate: the old statement stops being true today; the new one is stored
        self.store.invalidate(target.id, when, actor, "invalidated", message_id)
        return [
            Change("invalidated", target.id, target.text, None, self._version(target.id)),
            self._add(c, message_id, context, actor, space=space, learned_from=home),
        ]

    def _add(
        self,
        c: Candidate,
        message_id: int | None,
        context: str | None,
        actor: str,
        proposes: int | None = None,
        space: int | None = None,
        learned_from: int | None = None,
    ) -> Change:
        result = self.store.add(
            NewMemory(
                c.text,
                kind=c.kind,
                importance=c.importance,
                source=actor
                if actor in ("extractor", "consolidation") or is_app_source(actor)
                else "extractor",
                source_message_id=message_id,
                valid_from=parse_when(c.valid_from) if c.valid_from else None,
                valid_until=parse_when(c.valid_until) if c.valid_until else None,
                context=context,
                space=space,
            ),
            actor=actor,
            action=f"{PROPOSES}{proposes}" if proposes is not None else "created",
        )
        return Change(
            "added", result.memory.id, result.memory.text, version=1,
            always=given_always(result.memory), proposes=proposes,
            shared_from=learned_from if space is None else None,
        )  # fmt: skip

    def _version(self, memory_id: int) -> int:
        return self.store.history(memory_id)[-1].version

    # -- the whole-store pass ("sleep") --------------------------------------------------

    def sleep(
        self,
        when: datetime,
        limit: int = 200,
        should_stop: Callable[[], bool] | None = None,
    ) -> list[Change]:
        """Merge duplicates and resolve conflicts across the store. Duplicates (cosine
        >= DUPLICATE_SIMILARITY or the same text) are decided without the model: the
        newer copy is invalidated, pinned memories are never touched. Related pairs go
        to the model like a new candidate would. `should_stop` is asked before each
        memory: the pass then ends at once with what it has done (each change is its
        own transaction). Only memories of one space are weighed together: a space's
        memory is never merged into another's, nor into a shared one."""
        mems = [m for m in self.store.list(include_expired=False, scope=EVERY) if not m.pinned]
        mems = mems[:limit]
        vecs = self.store.index.vectors([m.id for m in mems])
        have = [m for m in mems if m.id in vecs]
        changes: list[Change] = []
        gone: set[int] = set()
        asked = 0
        if len(have) >= 2:
            mat = np.vstack([vecs[m.id] for m in have])
            sims = mat @ mat.T
            for i, a in enumerate(have):
                if should_stop is not None and should_stop():
                    break
                if a.id in gone:
                    continue
                for j in range(i + 1, len(have)):
                    b = have[j]
                    if b.id in gone or b.space != a.space:
                        continue
                    same = textproc.normalize(a.text).lower() == textproc.normalize(b.text).lower()
                    if same or sims[i, j] >= DUPLICATE_SIMILARITY:
                        kept, merged = sorted((a, b), key=lambda m: (m.created_at, m.id))
                        if not may_displace(kept, merged):  # an app's copy of yours goes
                            kept, merged = merged, kept
                        if not may_displace(kept, merged):
                            continue
                        self.store.invalidate(
                            merged.id, when, "consolidation", f"merged into #{kept.id}"
                        )
                        gone.add(merged.id)
                        changes.append(
                            Change(
                                "merged", merged.id, merged.text, kept.text,
                                self._version(merged.id),
                            )
                        )  # fmt: skip
                    elif sims[i, j] >= CONFLICT_SIMILARITY and asked < MAX_JUDGEMENTS:
                        asked += 1
                        judged = self._conflict(a, b, when)
                        changes += judged
                        gone.update(c.memory_id for c in judged)
                    if a.id in gone:
                        break
        return changes

    def _conflict(self, a: Any, b: Any, when: datetime) -> list[Change]:
        older, newer = sorted((a, b), key=lambda m: (m.created_at, m.id))
        try:
            answer = self._ask(
                DECIDE_PROMPT.format(
                    today=when.date().isoformat(),
                    stored=f"[1] {quoted(older.text)}",
                    new=quoted(newer.text),
                ),
                Decision,
            )
        except InvalidModelAnswer:  # the pair stays as it is, for the next pass
            log.warning("sleep pass: no valid decision on a pair")
            return []
        if not isinstance(answer, Decision) or answer.action != "INVALIDATE" or answer.id != 1:
            return []
        if not may_displace(newer, older):  # an app's statement never expires yours
            return []
        self.store.invalidate(older.id, when, "consolidation", f"contradicted by #{newer.id}")
        return [Change("invalidated", older.id, older.text, None, self._version(older.id))]

    # -- undo ------------------------------------------------------------------------------

    def undo(self, change: Change) -> None:
        """Take back a change: delete what was added, restore what was changed."""
        if change.action == "added":
            self.store.delete(change.memory_id)
        elif change.action in ("updated", "invalidated", "merged") and change.version:
            self.store.restore(change.memory_id, change.version - 1, actor="user")


def dumps(changes: Sequence[Change]) -> str:
    return json.dumps([c.to_dict() for c in changes], ensure_ascii=False)
