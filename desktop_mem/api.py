"""The Python API: the memory layer for scripts.

    import desktop_mem

    with desktop_mem.open(profile="default") as mem:
        mem.add("Prefers green tea over coffee", kind="preference")
        for hit in mem.search("what does the user drink?"):
            print(hit["text"], hit["score"])
        print(mem.chat("What should I order at the café?")["answer"])

The same encrypted profile, key and rules as the window, the command line and the MCP
server: the key comes from the system keyring (or a `passphrase=` argument), search
returns only what is relevant (``everything=True`` ranks them all), deletion is for
good, every change is a version in the memory's history. Results are plain dicts, so
they print and serialise as they are. Errors are `desktop_mem.core.errors`
exceptions, each one sentence.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from desktop_mem.core.config import Config
from desktop_mem.core.keys.vault import Vault
from desktop_mem.core.memory.records import NewMemory, WriteResult
from desktop_mem.core.service import Service

if TYPE_CHECKING:
    from desktop_mem.core.memory.spaces import Scope


class MemoryLayer:
    """An open profile's memory for scripts: a thin adapter on the application service
    (core/service), which the window, the command line and the MCP server use too, so
    each operation has one implementation everywhere. Results are plain dicts
    (``plain=False`` gives the core's records: Memory, Version, WriteResult,
    SearchResult). Use it as a context manager, or call close()."""

    def __init__(self, service: Service, plain: bool = True) -> None:
        self.service = service
        self.plain = plain
        self._chatting: Any = None  # the session of the chat() turn in progress

    def _out(self, record: Any) -> Any:
        return record.to_dict() if self.plain else record

    def _written(self, result: WriteResult) -> Any:
        if not self.plain:
            return result
        out = result.memory.to_dict()
        if result.warnings:
            out["warnings"] = list(result.warnings)
        return out

    # -- memories -------------------------------------------------------------------

    def add(
        self,
        text: str,
        kind: str = "fact",
        pinned: bool = False,
        importance: float = 0.5,
        valid_until: str | None = None,
        consolidate: bool = False,
        source: str = "user",
        valid_from: str | None = None,
        always: bool | None = None,
        space: str | int | None = None,
    ) -> Any:
        """Store a memory as given, or with ``consolidate=True`` through the same
        consolidation as the chat (a duplicate is not stored twice, a change updates the
        stored memory and keeps its history; the model server decides close calls).
        Returns the memory (with "warnings" when, say, it was saved without a vector),
        or with consolidation {"changes": [...]}; a model server that fails, or answers
        with invalid JSON twice, raises ModelServerError and nothing is stored.

        A memory about the user's health or safety (an allergy, a medication, a diet...)
        is given to the model on every turn (its "always" is true, "care" says why);
        ``always`` True or False decides that instead.

        ``space``: the space it goes to (its name or number; None or "shared": the
        shared space). Consolidated, it is weighed against that space's memories only."""
        memories = self.service.memories
        target = self.service.spaces.named(space)
        if not consolidate:
            new = NewMemory(
                text, kind=kind, importance=importance, pinned=pinned,
                valid_from=valid_from, valid_until=valid_until, source=source, always=always,
                space=target,
            )  # fmt: skip
            return self._written(memories.add(new, actor=source))
        changes = memories.add_consolidated(
            text, kind, importance, valid_until, source, scope=self.service.spaces.only(target)
        )
        return {"changes": [c.to_dict() for c in changes]} if self.plain else changes

    def search(
        self,
        query: str,
        k: int = 10,
        everything: bool = False,
        include_expired: bool = True,
        kinds: set[str] | None = None,
        space: str | int | None = None,
        scope: Scope | None = None,
    ) -> Any:
        """The memories relevant to the query, best first (``everything``: the k nearest,
        relevant or not), each with its score and the signals that found it. ``space``:
        search what a chat in that space sees (its name or number; "shared": the shared
        space's); every space when it is not given."""
        result = self.service.memories.search(
            query, k, include_expired=include_expired, kinds=kinds,
            relevant_only=not everything, scope=self._scope(space, scope),
        )  # fmt: skip
        return [h.to_dict() for h in result.hits] if self.plain else result

    def memories(
        self,
        kind: str | None = None,
        pinned: bool | None = None,
        limit: int | None = None,
        text: str | None = None,
        since: str | None = None,
        until: str | None = None,
        include_expired: bool = True,
        offset: int = 0,
        always: bool | None = None,
        space: str | int | None = None,
        scope: Scope | None = None,
    ) -> list[Any]:
        """Every memory, newest first, pinned on top; optionally one kind, pinned only,
        given on every turn only (`always`), containing a text, or created in a date
        range (`limit` and `offset` page it). ``space``: only what a chat in that space
        sees (as for `search`); every space when it is not given."""
        mems = self.service.memories.list(
            kind=kind, pinned=pinned, always=always, text=text, since=since, until=until,
            include_expired=include_expired, limit=limit, offset=offset,
            scope=self._scope(space, scope),
        )  # fmt: skip
        return [self._out(m) for m in mems]

    def _scope(self, space: str | int | None, scope: Scope | None) -> Scope:
        """What a call sees: the scope given (an app's), or the named space's view, or
        every space (a script of the person's own)."""
        if scope is not None:
            return scope
        if space is None:
            return self.service.spaces.every()
        return self.service.spaces.scope(self.service.spaces.named(space))

    def get(self, memory_id: int) -> Any:
        return self._out(self.service.memories.get(memory_id))

    def update(self, memory_id: int, text: str | None = None, **fields: Any) -> Any:
        """Change a memory (text, kind, importance, valid_from, valid_until); the old
        version stays in its history."""
        return self._written(self.service.memories.edit(memory_id, text=text, **fields))

    def pin(self, memory_id: int, pinned: bool = True) -> Any:
        return self._out(self.service.memories.pin(memory_id, pinned))

    def set_always(self, memory_id: int, always: bool | None) -> Any:
        """Give the memory to the model on every turn (True), only when it is found
        (False), or as its text says (None: what is about health or safety is)."""
        return self._out(self.service.memories.set_always(memory_id, always))

    def delete(self, *memory_ids: int) -> int:
        """Delete memories for good (text, history, vectors, full-text entries)."""
        return self.service.memories.delete(list(memory_ids))

    def history(self, memory_id: int) -> list[Any]:
        return [self._out(v) for v in self.service.memories.history(memory_id)]

    def restore(self, memory_id: int, version: int) -> Any:
        """Make an earlier version current again (as a new version)."""
        return self._written(self.service.memories.restore(memory_id, version))

    # -- the chat ---------------------------------------------------------------------

    def chat(
        self,
        message: str,
        conversation_id: int | None = None,
        model: str | None = None,
        learn: bool = True,
        incognito: bool = False,
    ) -> dict[str, Any]:
        """One chat turn with the local model, given the relevant memories and earlier
        messages; with ``learn`` (the default) it waits for what the exchange taught.
        Returns the answer, the conversation, the memories and messages it was given,
        the changes it made, and warnings (learning that failed says so there: the
        message is learned from later). ``model`` answers with that chat model, from
        this turn on."""
        if model is not None:
            self.service.use_chat_model(model)
        session = self.service.chat(conversation_id, incognito=incognito)
        self._chatting = session
        try:
            result = session.send(message)
            self._chatting = None
            outcome = result.outcome(300.0) if learn and result.learning is not None else None
        finally:
            self._chatting = None
            session.close()
        learned = outcome.changes if outcome else []
        if result.status == "error" and result.error:
            from desktop_mem.core.errors import ModelServerError

            raise ModelServerError(result.error, reason=result.error_reason or None)
        return {
            "answer": result.text,
            "conversation_id": result.conversation_id,
            "message_id": result.answer_id,
            "status": result.status,
            **result.given(),
            "changes": [c.to_dict() for c in [*result.changes, *learned] if c.action != "skipped"],
            # what the answer or learning warns of (learning that failed, say)
            "warnings": [
                *result.warnings,
                *([outcome.failure] if outcome and outcome.failure else []),
            ],
        }

    def stop(self) -> None:
        """End the chat() turn in progress, from another thread, at once (connecting,
        waiting for the model, or streaming): chat() returns with status "stopped" and
        the part of the answer that arrived. Nothing happens when no turn is running."""
        session = self._chatting
        if session is not None:
            session.stop()

    # -- lifetime -----------------------------------------------------------------------

    def close(self) -> None:
        self.service.close()

    def __enter__(self) -> MemoryLayer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open(
    profile: str | None = None,
    home: str | None = None,
    ollama_host: str | None = None,
    embed_model: str | None = None,
    passphrase: str | None = None,
    create: bool = True,
    vault: Vault | None = None,
) -> MemoryLayer:
    """Open (or create) a profile's memory. Arguments left out come from the environment
    and the defaults, as for the command line."""
    config = Config.resolve(
        home=home,
        profile=profile,
        ollama_host=ollama_host,
        embed_model=embed_model,
        passphrase=passphrase,
    )
    return MemoryLayer(Service.open(config, vault, create=create))
