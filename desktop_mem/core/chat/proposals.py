"""Facts found in imported history, waiting for the user's review: the proposals store,
the one writer of the proposals table, which announces each change (ProposalsChanged)
after its commit.

The importer (core/chat/importing.py) finds the facts, in an imported memories file or
by reading the imported messages with the chat's own extraction, and adds them here;
the user accepts, edits or rejects them. Until then no proposal is in any prompt: the
read path reads memories, and a proposal is not one. A decided proposal keeps only its
hash, so the same fact is not proposed again.

A fact found is weighed against the memories and the other facts waiting for review:
one that says something else about the same thing ("lives in Lisbon" against "lives in
Berlin") is kept with that conflict, and accepting it lets the date decide, not the
order of the clicks: the newer statement becomes current and the older one ends where
the newer one begins (it stays in the memory's history); an older fact accepted after a
newer one is stored as already ended.

What was found in a message goes with it: the conversations call `forget` inside the
transaction that purges messages, and "Forget everything" calls `clear`.
"""

from __future__ import annotations

import builtins
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from desktop_mem.core import textproc
from desktop_mem.core.chat.records import origin_label
from desktop_mem.core.db.database import id_chunks
from desktop_mem.core.errors import InvalidInput, ModelServerError, NotFound
from desktop_mem.core.events import Events, ProposalsChanged
from desktop_mem.core.jsontypes import JSONObject
from desktop_mem.core.memory.records import KINDS, NewMemory, now_iso
from desktop_mem.core.memory.spaces import EVERY, SHARED, Scope
from desktop_mem.core.models.embed import content_hash

if TYPE_CHECKING:
    import numpy as np

    from desktop_mem.core.db.connection import Connection
    from desktop_mem.core.db.database import Database
    from desktop_mem.core.memory.store import MemoryStore
else:
    from desktop_mem.core.lazy import numpy as np


def _hash(text: str) -> str:
    return content_hash(textproc.normalize(text).lower())


@dataclass
class Proposal:
    id: int
    origin: str
    text: str
    kind: str
    importance: float
    valid_from: str | None
    valid_until: str | None
    said_at: str | None
    message_id: int | None
    duplicate_of: int | None
    state: str
    conflicts_memory: int | None = None
    conflicts_proposal: int | None = None
    created_at: str = ""
    # the space accepting it adds the memory to (None: the shared space): the space of
    # the history it was found in, except what applies everywhere (core/memory/spaces.py)
    space: int | None = None
    # what accepting it changes, by date ({"text", "date"}): the older statement it
    # replaces, or the newer one that replaces it (it is then stored as ended)
    replaces: dict[str, str] | None = None
    replaced_by: dict[str, str] | None = None

    @property
    def source(self) -> str:
        return origin_label(self.origin, self.said_at)

    @property
    def date(self) -> str:
        """When it was true from: said then, or (a saved memory without a date) as of
        its import."""
        return self.valid_from or self.said_at or self.created_at

    @property
    def when(self) -> datetime:
        """`date` as a moment (UTC when it names no zone)."""
        when = datetime.fromisoformat(self.date)
        return when if when.tzinfo else when.replace(tzinfo=UTC)

    def to_dict(self) -> JSONObject:
        d = asdict(self)
        d["source"] = self.source
        return d


_PROPOSAL = (
    "id, origin, text, kind, importance, valid_from, valid_until, said_at, message_id, "
    "duplicate_of, state, conflicts_memory, conflicts_proposal, created_at, space_id"
)


def _memory_date(memory: Any) -> str:
    return str(memory.valid_from or memory.created_at)


def _ends_before(memory: Any, when: str) -> bool:
    return bool(memory.valid_until) and str(memory.valid_until) <= when


class ProposalStore:
    def __init__(self, db: Database, memories: MemoryStore, events: Events) -> None:
        self.db = db
        self.memories = memories
        self.events = events
        self._vectors: dict[int, np.ndarray] = {}  # waiting proposals', for `alike`

    def _changed(self, _ids: tuple[int, ...]) -> None:
        self.events.emit(ProposalsChanged())

    # -- found -------------------------------------------------------------------------------

    def add(
        self,
        origin: str,
        text: str,
        kind: str = "fact",
        importance: float = 0.5,
        valid_from: str | None = None,
        valid_until: str | None = None,
        said_at: str | None = None,
        message_id: int | None = None,
        duplicate_of: int | None = None,
        conflicts: tuple[int | None, int | None] = (None, None),
        weigh: bool = False,
        space: int | None = None,
    ) -> int:
        """Propose a fact (once: one proposed before, decided or not, is not again); a
        memory with the same text where accepting it would add it (`space`, None: the
        shared space; and the shared space's, when that space sees it) makes it a
        duplicate of that one. `conflicts`: the memory and the proposal it says
        something else than; `weigh`: to be weighed against the rest by the next pass (a
        memories file's). Returns how many were added (0 or 1); announced after the
        commit."""
        text = textproc.normalize(text).strip()
        if len(text) < 2:
            return 0
        h = _hash(text)
        if self.db.query("SELECT 1 FROM proposals WHERE content_hash = ?", (h,)):
            return 0
        same = self.memories.find_duplicate(text, self.scope(space))
        dup = same.id if same else duplicate_of
        with self.db.transaction() as conn:
            conn.execute(
                "INSERT INTO proposals(origin, text, content_hash, kind, importance, "
                "valid_from, valid_until, said_at, message_id, duplicate_of, created_at, "
                "conflicts_memory, conflicts_proposal, weigh, space_id) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (origin, text, h, kind if kind in KINDS else "fact", importance, valid_from,
                 valid_until, said_at, message_id, dup, now_iso(),
                 *((None, None) if dup else conflicts), int(weigh and not dup), space),
            )  # fmt: skip
            self.db.after_commit(self._changed)
        return 1

    def scope(self, space: int | None) -> Scope:
        """What a memory added to `space` is weighed against: that space's and, unless
        it is kept apart, the shared space's (a space gone meanwhile: the shared)."""
        if space is None:
            return SHARED
        rows = self.db.query("SELECT apart FROM spaces WHERE id = ?", (space,))
        return Scope(space, shared=not rows[0][0]) if rows else SHARED

    def to_weigh(self) -> int:
        """Saved memories from a memories file not yet weighed against the rest."""
        return int(
            self.db.query("SELECT count(*) FROM proposals WHERE weigh = 1 AND state = 'waiting'")[
                0
            ][0]
        )

    def next_to_weigh(self) -> Proposal | None:
        """The oldest proposal waiting to be weighed, if any."""
        rows = self.db.query(
            f"SELECT {_PROPOSAL} FROM proposals WHERE weigh = 1 AND state = 'waiting' "
            "ORDER BY id LIMIT 1"
        )
        return Proposal(*rows[0]) if rows else None

    def weighed(
        self, proposal_id: int, how: str, memory_id: int | None, other_id: int | None
    ) -> None:
        """What weighing a proposal found, as Importer._relate says it ("new", "same" or
        "conflict", the memory and the proposal it is about); announced unless new."""
        with self.db.transaction() as conn:
            conn.execute(
                "UPDATE proposals SET weigh = 0, duplicate_of = ?, conflicts_memory = ?, "
                "conflicts_proposal = ? WHERE id = ?",
                (memory_id if how == "same" else None,
                 memory_id if how == "conflict" else None,
                 other_id if how == "conflict" else None, proposal_id),
            )  # fmt: skip
            if how != "new":
                self.db.after_commit(self._changed)

    def alike(
        self, text: str, floor: float, besides: int | None = None, scope: Scope = EVERY
    ) -> builtins.list[tuple[Proposal, float]]:
        """The waiting proposals nearest in meaning to `text` (cosine >= floor), best
        first, of those that would go to the scope's spaces; none when there is no
        embedding model or its server is away."""
        embedder = self.memories.embedder
        waiting = [p for p in self.list() if p.id != besides and scope.holds(p.space)]
        if embedder is None or not waiting:
            return []
        live = {p.id for p in waiting}
        self._vectors = {i: v for i, v in self._vectors.items() if i in live}
        missing = [p for p in waiting if p.id not in self._vectors]
        try:
            query = np.asarray(embedder.embed([text]), dtype=np.float32)[0]
            if missing:
                vecs = np.asarray(embedder.embed([p.text for p in missing]), dtype=np.float32)
                for p, v in zip(missing, vecs, strict=True):
                    self._vectors[p.id] = v / (np.linalg.norm(v) or 1.0)
        except ModelServerError:
            return []
        query = query / (np.linalg.norm(query) or 1.0)
        sims = np.vstack([self._vectors[p.id] for p in waiting]) @ query
        order = np.argsort(-sims)[:5]
        return [(waiting[i], float(sims[i])) for i in order if sims[i] >= floor]

    # -- review ------------------------------------------------------------------------------

    def review(self, state: str = "waiting") -> builtins.list[Proposal]:
        """The proposals in `state`; the waiting ones with what accepting them would
        replace, or be replaced by, by date."""
        out = self.list(state)
        if state == "waiting":
            for p in out:
                for text, date in self._counterparts(p):
                    shown = {"text": text, "date": date[:10]}
                    if date <= p.date:
                        p.replaces = p.replaces or shown
                    else:
                        p.replaced_by = p.replaced_by or shown
        return out

    def list(self, state: str = "waiting") -> builtins.list[Proposal]:
        """The proposals in `state`, as stored."""
        return [
            Proposal(*r)
            for r in self.db.query(
                f"SELECT {_PROPOSAL} FROM proposals WHERE state = ? ORDER BY kind, id", (state,)
            )
        ]

    def _counterparts(self, p: Proposal) -> builtins.list[tuple[str, str]]:
        """The statements `p` conflicts with (text, date): a memory, a proposal still
        waiting or the memory an accepted one became; either side may name the other."""
        out: list[tuple[str, str]] = []
        for mid in self._conflicting_memories(p):
            m = self._memory(mid)
            if m is not None:
                out.append((m.text, _memory_date(m)))
        rows = self.db.query(
            f"SELECT {_PROPOSAL} FROM proposals WHERE state = 'waiting' AND "
            "(id = ? OR conflicts_proposal = ?) AND id != ?",
            (p.conflicts_proposal or 0, p.id, p.id),
        )
        out += [(q.text, q.date) for q in (Proposal(*r) for r in rows)]
        return out

    def _conflicting_memories(self, p: Proposal) -> builtins.list[int]:
        """The memories `p` conflicts with: the one it was weighed against, and those
        accepted proposals it conflicts with (either way) became."""
        ids = [p.conflicts_memory] if p.conflicts_memory else []
        ids += [
            int(r[0])
            for r in self.db.query(
                "SELECT memory_id FROM proposals WHERE state = 'accepted' AND memory_id "
                "IS NOT NULL AND (id = ? OR conflicts_proposal = ?) AND id != ?",
                (p.conflicts_proposal or 0, p.id, p.id),
            )
        ]
        return builtins.list(dict.fromkeys(ids))

    def _memory(self, memory_id: int) -> Any:
        try:
            return self.memories.get(memory_id)
        except NotFound:
            return None

    def get(self, proposal_id: int) -> Proposal:
        rows = self.db.query(f"SELECT {_PROPOSAL} FROM proposals WHERE id = ?", (proposal_id,))
        if not rows:
            raise NotFound(f"There is no proposed memory {proposal_id}.")
        return Proposal(*rows[0])

    def accept(
        self, ids: Iterable[int] | None = None, text: str | None = None
    ) -> builtins.list[int]:
        """Make proposals memories (None: every one waiting). `text`: the user's edit of
        a single proposal. A duplicate of a memory already held is not added again: it
        is marked accepted. Returns the new memories' ids."""
        chosen = self._waiting(ids)
        if text is not None:
            if len(chosen) != 1:
                raise InvalidInput("Edit one proposed memory at a time.")
            text = textproc.normalize(text).strip()
            if len(text) < 2:
                raise InvalidInput("A memory cannot be empty: type a few words.")
        fresh: list[tuple[Proposal, NewMemory]] = []
        kept: set[str] = set()
        for p in chosen:
            body = text if text is not None else p.text
            key = f"{p.space}:{_hash(body)}"
            if key in kept or self.memories.find_duplicate(body, self.scope(p.space)):
                continue
            kept.add(key)
            fresh.append(
                (p, NewMemory(body, kind=p.kind, importance=p.importance, source="import",
                              source_message_id=p.message_id, created_at=p.said_at,
                              valid_from=p.valid_from, valid_until=p.valid_until,
                              space=p.space))
            )  # fmt: skip
        mems, _ = (
            self.memories.add_many([n for _, n in fresh], actor="import") if fresh else ([], [])
        )
        made = {p.id: m.id for (p, _), m in zip(fresh, mems, strict=True)}
        with self.db.transaction() as conn:
            for p in chosen:  # decided: only its hash stays, so it is not proposed again
                conn.execute(
                    "UPDATE proposals SET state = 'accepted', memory_id = ?, text = '' "
                    "WHERE id = ?",
                    (made.get(p.id), p.id),
                )
        # the date decides, not the order of the clicks: oldest first, each newer
        # statement ends the older one it conflicts with where it begins
        for p in sorted((p for p in chosen if p.id in made), key=lambda p: (p.date, p.id)):
            self._supersede(p, made[p.id])
        self.events.emit(ProposalsChanged())
        return builtins.list(made.values())

    def _supersede(self, p: Proposal, memory_id: int) -> None:
        from desktop_mem.core.chat.extract import may_change

        mine = self.memories.get(memory_id)
        for other_id in self._conflicting_memories(p):
            other = self._memory(other_id)
            if other is None or other_id == memory_id:
                continue
            theirs = _memory_date(other)
            if theirs <= p.date:  # p is newer: the other ends where p begins
                if not _ends_before(other, p.date) and may_change("import", other):
                    self.memories.invalidate(
                        other_id, p.when, "import", "replaced by a newer imported fact",
                    )  # fmt: skip
            elif not _ends_before(mine, theirs):  # p is older: it ended when that began
                self.memories.edit(
                    memory_id, valid_until=theirs, actor="import",
                    action="replaced by a newer statement",
                )  # fmt: skip
                mine = self.memories.get(memory_id)

    def reject(self, ids: Iterable[int] | None = None) -> int:
        """Reject proposals (None: every one waiting); they are not proposed again."""
        chosen = self._waiting(ids)
        with self.db.transaction() as conn:
            for chunk, marks in id_chunks([p.id for p in chosen]):
                conn.execute(
                    f"UPDATE proposals SET state = 'rejected', text = '' WHERE id IN ({marks})",
                    chunk,
                )
        self.events.emit(ProposalsChanged())
        return len(chosen)

    def restore(self, proposals: Iterable[Proposal]) -> int:
        """Undo a rejection: the proposals, as they were shown before it (a rejected one
        keeps only its hash), wait for review again."""
        done = 0
        with self.db.transaction() as conn:
            for p in proposals:
                done += conn.execute(
                    "UPDATE proposals SET state = 'waiting', text = ? WHERE id = ? AND "
                    "state = 'rejected'",
                    (p.text, p.id),
                ).rowcount
        self.events.emit(ProposalsChanged())
        return done

    def _waiting(self, ids: Iterable[int] | None) -> builtins.list[Proposal]:
        if ids is None:
            return self.list("waiting")
        out = []
        for i in ids:
            p = self.get(int(i))
            if p.state == "waiting":
                out.append(p)
        return out

    def counts(self) -> dict[str, int]:
        out = {"waiting": 0, "accepted": 0, "rejected": 0}
        for state, n in self.db.query("SELECT state, count(*) FROM proposals GROUP BY state"):
            out[state] = n
        return out

    # -- gone with what they were found in ------------------------------------------------

    def forget(self, conn: Connection, message_ids: Sequence[int] | None) -> None:
        """Inside the transaction that purges these messages (None: every message): the
        facts found in them and still waiting go with them; with every message, every
        fact found in one, decided or not. Announced after the commit."""
        gone = 0
        if message_ids is None:
            gone = conn.execute("DELETE FROM proposals WHERE message_id IS NOT NULL").rowcount
        else:
            for chunk, marks in id_chunks(message_ids):
                gone += conn.execute(
                    f"DELETE FROM proposals WHERE state = 'waiting' AND message_id IN ({marks})",
                    chunk,
                ).rowcount
        if gone:
            self.db.after_commit(self._changed)

    def move_space(self, space: int, to: int | None) -> int:
        """Every fact found in a space's history now goes to `to` when accepted (None:
        the shared space). How many."""
        with self.db.transaction() as conn:
            moved = conn.execute(
                "UPDATE proposals SET space_id = ? WHERE space_id = ?", (to, space)
            ).rowcount
        if moved:
            self._changed(())
        return int(moved)

    def drop_space(self, space: int) -> int:
        """The facts found in a space's history that wait for review go with it; those
        decided keep their record only (their space forgotten)."""
        with self.db.transaction() as conn:
            gone = conn.execute(
                "DELETE FROM proposals WHERE space_id = ? AND state = 'waiting'", (space,)
            ).rowcount
            conn.execute("UPDATE proposals SET space_id = NULL WHERE space_id = ?", (space,))
        if gone:
            self._changed(())
        return int(gone)

    def clear(self, conn: Connection) -> None:
        """Every proposal gone ("Forget everything"), inside the caller's transaction."""
        if conn.execute("DELETE FROM proposals").rowcount:
            self.db.after_commit(self._changed)


__all__ = ["Proposal", "ProposalStore"]
