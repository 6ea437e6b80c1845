"""The long-term memory store: memories, their versions, their vectors and full text.

Every change is one transaction that also writes a history row saying who changed
the memory (user, extractor, import, consolidation) and from which message. A
deletion by the user is the opposite of a supersession: the memory, its versions,
its vector and its full-text entry are purged, and `secure_delete` zeroes the freed
pages, so the text cannot be found in the file even with the key.
"""

from __future__ import annotations

import builtins
import contextlib
import logging
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from desktop_mem.core import textproc
from desktop_mem.core.db.database import id_chunks
from desktop_mem.core.db.vectors import VectorIndex
from desktop_mem.core.errors import DesktopMemError, NotFound
from desktop_mem.core.events import Events
from desktop_mem.core.memory import about, care
from desktop_mem.core.memory.arrived import ArrivedRows
from desktop_mem.core.memory.care import care_of
from desktop_mem.core.memory.indexing import MemoryIndexing, mix_context, vector_key
from desktop_mem.core.memory.records import (  # re-exported: the records live beside the store
    KINDS,
    MAX_CONTEXT,
    MAX_TEXT,
    SOURCES,
    Memory,
    NewMemory,
    Version,
    WriteResult,
    check_importance,
    check_kind,
    clean_context,
    clean_text,
    is_expired,
    now_iso,
    parse_when,
    strip_controls,
)
from desktop_mem.core.memory.spaces import EVERY, SHARED, Scope, check_space
from desktop_mem.core.models.embed import Embedder, content_hash

if TYPE_CHECKING:
    import numpy as np

    from desktop_mem.core.db.connection import Connection
    from desktop_mem.core.db.database import Database
else:
    from desktop_mem.core.lazy import numpy as np

__all__ = [
    "KINDS",
    "MAX_CONTEXT",
    "MAX_TEXT",
    "SOURCES",
    "Memory",
    "PROPOSES",
    "MemoryStore",
    "NewMemory",
    "Version",
    "WriteResult",
    "check_importance",
    "check_kind",
    "clean_context",
    "clean_text",
    "is_expired",
    "mix_context",
    "now_iso",
    "parse_when",
    "quoting",
    "strip_controls",
    "vector_key",
]

log = logging.getLogger(__name__)
PROPOSES = "wants to change #"  # the first version of an app's memory made instead of a change

# Whether a memory is given on every turn: as the user chose, else as its text says.
ALWAYS = "coalesce(care_choice, care IS NOT NULL)"
_COLUMNS = (
    "id, text, kind, importance, pinned, source, source_message_id, created_at, updated_at, "
    f"valid_from, valid_until, context, care, {ALWAYS}, origin, space_id"
)


def quoting(db: Database, message_ids: Sequence[int]) -> list[int]:
    """Memories whose context quotes these messages: learned from one of them, now or
    in an earlier version."""
    if not message_ids:
        return []
    marks = ",".join("?" * len(message_ids))
    return [
        r[0]
        for r in db.query(
            f"SELECT id FROM memories WHERE context IS NOT NULL AND (source_message_id "
            f"IN ({marks}) OR id IN (SELECT memory_id FROM memory_history WHERE message_id "
            f"IN ({marks})))",
            (*message_ids, *message_ids),
        )
    ]


class MemoryStore(ArrivedRows, MemoryIndexing):
    """CRUD on memories. `embedder` may be None (or fail): memories are then stored
    without a vector, found by keyword search, and indexed by `reembed`/`index_missing`."""

    def __init__(self, db: Database, embedder: Embedder | None = None, *, events: Events) -> None:
        self.db = db
        self.embedder = embedder
        self.events = events  # each committed change is announced
        self.index = VectorIndex(db)
        self._sync_cache()
        # a read-only or busy profile reads them again when it next opens for writing
        with contextlib.suppress(DesktopMemError):
            self.recognise_care()

    # -- writes -----------------------------------------------------------------------

    def add(self, new: NewMemory, actor: str | None = None, action: str = "created") -> WriteResult:
        """Store one memory; `action` names its first version in the history ("created",
        or PROPOSES + an id: an app's statement kept beside a memory it may not change)."""
        mems, warnings = self.add_many([new], actor or new.source, action=action)
        return WriteResult(mems[0], warnings)

    def add_many(
        self,
        items: Sequence[NewMemory],
        actor: str = "import",
        progress: Callable[[int, int], None] | None = None,
        action: str = "created",
    ) -> tuple[list[Memory], list[str]]:
        """All or nothing: every item in one transaction. The embeddings are computed
        first, outside it, so that a slow model server never holds the database (the
        window keeps reading while an import or the chat's learning embeds)."""
        warnings: list[str] = []
        stamp = now_iso()
        ids: list[int] = []
        batch = self.embedder.batch_size if self.embedder else 256
        chunks = [items[start : start + batch] for start in range(0, len(items), batch)]
        vectors: list[np.ndarray | None] = []
        done = 0
        for chunk in chunks:
            texts = [m.text for m in chunk]
            contexts = [m.context for m in chunk]
            vectors.append(None if warnings else self._embed(texts, warnings, contexts))
            done += len(chunk)
            if progress:
                progress(done, len(items))
        with self.db.transaction() as conn:
            for chunk, vecs in zip(chunks, vectors, strict=True):
                chunk_ids = [self._insert(conn, m, stamp, actor, action) for m in chunk]
                keys = [vector_key(m.text, m.context) for m in chunk]
                self._store_vectors(conn, chunk_ids, keys, vecs)
                ids += chunk_ids
        self.index.maybe_rebuild()
        self._sync_cache()
        self.events.memories("added", ids)
        return self.get_many(ids), warnings

    def _insert(
        self, conn: Connection, m: NewMemory, stamp: str, actor: str, action: str = "created"
    ) -> int:
        created = m.created_at or stamp
        care = care_of(m.text, m.always)
        cur = conn.execute(
            "INSERT INTO memories(text, kind, importance, pinned, source, source_message_id, "
            "created_at, updated_at, valid_from, valid_until, context, content_hash, care, "
            "care_choice, space_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                m.text,
                m.kind,
                m.importance,
                int(m.pinned),
                m.source,
                m.source_message_id,
                created,
                created if m.created_at else stamp,
                m.valid_from,
                m.valid_until,
                m.context,
                content_hash(textproc.normalize(m.text).lower()),
                care,
                None if m.always is None else int(m.always),
                m.space,
            ),
        )
        mid = int(cur.lastrowid)
        self._index_text(conn, mid, m.text, m.context, replace=False)
        self._history(conn, mid, action, actor, m.source_message_id)
        return mid

    def _history(
        self, conn: Connection, mid: int, action: str, actor: str, message_id: int | None
    ) -> None:
        conn.execute(
            "INSERT INTO memory_history(memory_id, version, action, actor, message_id, text, kind, "
            "importance, pinned, valid_from, valid_until, changed_at, space_id) "
            "SELECT id, coalesce((SELECT max(version) FROM memory_history WHERE memory_id = ?), 0) + 1, "
            "?, ?, ?, text, kind, importance, pinned, valid_from, valid_until, ?, space_id "
            "FROM memories WHERE id = ?",
            (mid, action, actor, message_id, now_iso(), mid),
        )

    def edit(
        self,
        memory_id: int,
        *,
        text: str | None = None,
        kind: str | None = None,
        importance: float | None = None,
        valid_from: str | None = None,
        valid_until: str | None = None,
        clear_valid_until: bool = False,
        actor: str = "user",
        message_id: int | None = None,
        action: str = "edited",
    ) -> WriteResult:
        current = self.get(memory_id)
        changes: dict[str, Any] = {}
        if text is not None and clean_text(text) != current.text:
            changes["text"] = clean_text(text)
        if kind is not None and check_kind(kind) != current.kind:
            changes["kind"] = check_kind(kind)
        if importance is not None and check_importance(importance) != current.importance:
            changes["importance"] = check_importance(importance)
        if valid_from is not None:
            changes["valid_from"] = parse_when(valid_from, "'valid from' date")
        if valid_until is not None:
            changes["valid_until"] = parse_when(valid_until, "'valid until' date")
        if clear_valid_until:
            changes["valid_until"] = None
        if not changes:
            return WriteResult(current, [])
        warnings: list[str] = []
        vecs = (
            self._embed([changes["text"]], warnings, [current.context])
            if "text" in changes
            else None
        )
        with self.db.transaction() as conn:
            self._apply(conn, memory_id, changes)
            if "text" in changes:
                self._reindex_text(conn, memory_id, changes["text"], current.context, vecs)
            self._history(conn, memory_id, action, actor, message_id)
        self.events.memories("changed", [memory_id])
        return WriteResult(self.get(memory_id), warnings)

    def _apply(self, conn: Connection, memory_id: int, changes: dict[str, Any]) -> None:
        sets = ", ".join(f"{k} = ?" for k in changes)
        values = list(changes.values())
        if "text" in changes:
            sets += ", content_hash = ?"
            values.append(content_hash(textproc.normalize(changes["text"]).lower()))
            # what the text calls for, unless the user said (what they turned on stays on)
            sets += ", care = CASE WHEN care_choice = 1 THEN coalesce(?, 'asked') ELSE ? END"
            values += [care.recognise(changes["text"])] * 2
        conn.execute(
            f"UPDATE memories SET {sets}, updated_at = ? WHERE id = ?",
            (*values, now_iso(), memory_id),
        )

    def forget_context(self, message_ids: Sequence[int]) -> int:
        """Remove the context that messages being deleted lent to memories learned from
        them: the quoted text goes from the memory, its full-text entry and its vector
        (embedded again from the text alone, or dropped until re-indexed). The memories
        themselves stay. Returns how many lost their context."""
        ids = quoting(self.db, message_ids)
        if not ids:
            return 0
        rows = [(m.id, m.text) for m in self.get_many(ids)]
        warnings: list[str] = []
        vecs = self._embed([t for _, t in rows], warnings)
        with self.db.transaction() as conn:
            for n, (mid, text) in enumerate(rows):
                conn.execute("UPDATE memories SET context = NULL WHERE id = ?", (mid,))
                self._reindex_text(conn, mid, text, None, None if vecs is None else vecs[n : n + 1])
        self.events.memories("changed", [mid for mid, _ in rows])
        return len(rows)

    def invalidate(
        self,
        memory_id: int,
        when: datetime,
        actor: str,
        action: str,
        message_id: int | None = None,
    ) -> WriteResult:
        """The memory stops being true at `when` (it stays, with its history)."""
        return self.edit(
            memory_id,
            valid_until=when.astimezone(UTC).isoformat(timespec="seconds"),
            actor=actor,
            message_id=message_id,
            action=action,
        )

    def set_pinned(self, memory_id: int, pinned: bool, actor: str = "user") -> Memory:
        current = self.get(memory_id)
        if current.pinned == pinned:
            return current
        with self.db.transaction() as conn:
            conn.execute(
                "UPDATE memories SET pinned = ?, updated_at = ? WHERE id = ?",
                (int(pinned), now_iso(), memory_id),
            )
            self._history(conn, memory_id, "pinned" if pinned else "unpinned", actor, None)
        self.events.memories("changed", [memory_id])
        return self.get(memory_id)

    def move(self, memory_ids: int | Iterable[int], space: int | None, actor: str = "user") -> int:
        """Move memories to a space (None: make them shared), each with its history: the
        move is a version of its own ("moved"). How many moved (one already there does
        not count)."""
        ids = [memory_ids] if isinstance(memory_ids, int) else list(memory_ids)
        missing = set(ids) - self._existing(ids)
        if missing:
            raise NotFound(f"There is no memory #{min(missing)}.", reason="memory_not_found")
        moved: builtins.list[int] = []
        with self.db.transaction() as conn:
            check_space(conn, space)
            for chunk, marks in id_chunks(ids):
                rows = conn.execute(
                    f"SELECT id FROM memories WHERE id IN ({marks}) AND space_id IS NOT ?",
                    (*chunk, space),
                ).fetchall()
                moved += [int(r[0]) for r in rows]
            stamp = now_iso()
            for mid in moved:
                conn.execute(
                    "UPDATE memories SET space_id = ?, updated_at = ? WHERE id = ?",
                    (space, stamp, mid),
                )
                self._history(conn, mid, "moved", actor, None)
        if moved:
            self.events.memories("changed", moved)
        return len(moved)

    def set_always(self, memory_id: int, always: bool | None, actor: str = "user") -> Memory:
        """Give the memory to the model on every turn (True), not unless it is found
        (False), or as its text says (None: about health or safety, core/memory/care/).
        A memory turned on that its text does not mark is one the user asked to be
        always remembered."""
        current = self.get(memory_id)
        recognised = care.recognise(current.text)
        kind = (recognised or "asked") if always else recognised
        with self.db.transaction() as conn:
            conn.execute(
                "UPDATE memories SET care = ?, care_choice = ?, updated_at = ? WHERE id = ?",
                (kind, None if always is None else int(always), now_iso(), memory_id),
            )
            changed = self.get(memory_id).always
            if changed != current.always:
                action = "always given" if changed else "not always given"
                self._history(conn, memory_id, action, actor, None)
        self.events.memories("changed", [memory_id])
        return self.get(memory_id)

    def always_given(
        self, limit: int | None = None, scope: Scope = SHARED
    ) -> builtins.list[Memory]:
        """The current memories given on every turn in this scope, the most pressing
        kind of care first (care.CATEGORIES), then the most recently changed."""
        order = " ".join(f"WHEN '{c}' THEN {n}" for n, c in enumerate(care.CATEGORIES))
        within, params = scope.where()
        sql = (
            f"SELECT {_COLUMNS} FROM memories WHERE {ALWAYS} AND {within} "
            f"ORDER BY CASE care {order} ELSE {len(care.CATEGORIES)} END, updated_at DESC, id DESC"
        )
        mems = [m for m in map(Memory.from_row, self.db.query(sql, params)) if not m.expired]
        return mems if limit is None else mems[:limit]

    def recognise_care(self) -> int:
        """Read every memory's text again for what it calls for, when the rules that do
        it have changed since (or the profile is older than them). What the user chose
        stays (`care_choice` decides whether a memory is given: ALWAYS); a memory they
        turned on takes the kind its text now calls for ("I'm scared of dogs", turned on
        as "asked" under rules that missed fears, is now "health"), as an edit does
        (`_apply`). Only the memories whose kind changed are written: a profile of
        100,000 memories is read again as it opens. How many memories were read."""
        if self.db.meta_get("care_rules") == str(care.RULES_VERSION):
            return 0
        rows = self.db.query("SELECT id, text, care, care_choice FROM memories")
        changed = []
        for mid, text, was, choice in rows:
            kind = care.recognise(text)
            if choice == 1:
                kind = kind or "asked"
            if kind != was:
                changed.append((kind, mid))
        with self.db.transaction() as conn:
            conn.executemany("UPDATE memories SET care = ? WHERE id = ?", changed)
            conn.execute(
                "INSERT OR REPLACE INTO meta(key, value) VALUES ('care_rules', ?)",
                (str(care.RULES_VERSION),),
            )
        return len(rows)

    def restore(self, memory_id: int, version: int, actor: str = "user") -> WriteResult:
        """Make an earlier version current again (recorded as a new version)."""
        old = next((v for v in self.history(memory_id) if v.version == version), None)
        if old is None:
            raise NotFound(
                f"Memory {memory_id} has no version {version}: see `desktop-mem memory history {memory_id}`.",
                reason="no_version",
            )
        current = self.get(memory_id)
        result = self.edit(
            memory_id,
            text=old.text,
            kind=old.kind,
            importance=old.importance,
            valid_from=old.valid_from or "",
            clear_valid_until=old.valid_until is None,
            valid_until=old.valid_until,
            actor=actor,
            action="restored",
        )
        if current.pinned != old.pinned:
            self.set_pinned(memory_id, old.pinned, actor)
        return WriteResult(self.get(memory_id), result.warnings)

    def delete(self, memory_ids: int | Iterable[int]) -> int:
        """Purge memories: rows, versions, vectors and full-text entries. Returns how many."""
        ids = [memory_ids] if isinstance(memory_ids, int) else list(memory_ids)
        existing = self._existing(ids)
        missing = [i for i in ids if i not in existing]
        if missing:
            raise NotFound(
                f"There is no memory {missing[0]}: see `desktop-mem memory list`.",
                reason="memory_gone",
            )
        with self.db.transaction() as conn:
            self._purge(conn, ids)
        self.db.checkpoint()
        self._sync_cache()
        self.events.memories("removed", ids)
        return len(ids)

    def _purge(self, conn: Connection, ids: Sequence[int]) -> None:
        self.index.remove(conn, ids)
        for mid in ids:
            conn.execute("DELETE FROM memories_fts WHERE rowid = ?", (mid,))
            conn.execute("DELETE FROM memory_history WHERE memory_id = ?", (mid,))
            conn.execute("DELETE FROM memories WHERE id = ?", (mid,))
        # FTS5's secure-delete drops the row from the doclists but can leave the term
        # itself in a leaf page; rewriting the index removes it (0.4 s at 100k memories,
        # measured), and secure_delete zeroes the pages it frees.
        conn.execute("INSERT INTO memories_fts(memories_fts) VALUES ('optimize')")

    # -- for sync: the same writes, inside a transaction another part of the core holds --

    def purge_rows(self, conn: Connection, ids: Sequence[int]) -> None:
        """Purge memories deleted elsewhere, as `delete` does here; announced after the
        caller's commit."""
        if ids:
            self._purge(conn, ids)
            self.db.after_commit(self._gone_by_sync, ids)

    def _gone_by_sync(self, ids: tuple[int, ...]) -> None:
        self._sync_cache()
        self.events.memories("removed", ids)

    def forget_all(self, vacuum: bool = True) -> int:
        """Delete every memory and the whole index, then rebuild the file (VACUUM; the
        caller does it once when it deletes more)."""
        count = self.count()
        with self.db.transaction() as conn:
            conn.execute("DELETE FROM memory_history")
            about.clear(conn)  # what the model knew about the person (first: the trigger
            # each deleted memory fires then finds nothing to do)
            conn.execute("DELETE FROM memories")
            conn.execute("INSERT INTO memories_fts(memories_fts) VALUES ('delete-all')")
            self.index.drop_all(conn)
        if vacuum:
            self.db.execute("VACUUM")
            self.db.checkpoint()
        self._sync_cache()
        self.events.memories("removed")
        return count

    # -- reads ------------------------------------------------------------------------

    def proposals_for(self, memory_id: int) -> list[Memory]:
        """What apps wanted to change this memory to: their own memories, kept beside it
        (an app never changes a memory it did not write)."""
        ids = [
            r[0]
            for r in self.db.query(
                "SELECT memory_id FROM memory_history WHERE version = 1 AND action = ? "
                "ORDER BY memory_id",
                (f"{PROPOSES}{memory_id}",),
            )
        ]
        return self.get_many(ids)

    def _existing(self, ids: Sequence[int]) -> set[int]:
        return {m.id for m in self.get_many(ids)}

    def get(self, memory_id: int) -> Memory:
        rows = self.db.query(f"SELECT {_COLUMNS} FROM memories WHERE id = ?", (memory_id,))
        if not rows:
            raise NotFound(
                f"There is no memory {memory_id}: see `desktop-mem memory list`.",
                reason="memory_gone",
            )
        return Memory.from_row(rows[0])

    def get_many(self, ids: Sequence[int]) -> list[Memory]:
        by_id: dict[int, Memory] = {}
        ids = list(ids)
        for chunk, marks in id_chunks(ids):
            for row in self.db.query(
                f"SELECT {_COLUMNS} FROM memories WHERE id IN ({marks})", chunk
            ):
                by_id[row[0]] = Memory.from_row(row)
        return [by_id[i] for i in ids if i in by_id]

    def count(self) -> int:
        return int(self.db.query("SELECT n FROM counters WHERE name = 'memories'")[0][0])

    def durable(
        self, importance: float, kinds: Sequence[str], limit: int, scope: Scope = SHARED
    ) -> builtins.list[Memory]:
        """The current memories of these kinds at least this important in this scope,
        most important (then most recently updated) first, at most `limit`."""
        marks = ",".join("?" * len(kinds))
        within, in_scope = scope.where()
        rows = self.db.query(
            f"SELECT {_COLUMNS} FROM memories WHERE importance >= ? AND kind IN ({marks}) "
            f"AND {within} ORDER BY importance DESC, updated_at DESC, id DESC LIMIT ?",
            (importance, *kinds, *in_scope, limit * 2),
        )
        return [m for m in map(Memory.from_row, rows) if not m.expired][:limit]

    def list(
        self,
        *,
        kind: str | None = None,
        pinned: bool | None = None,
        always: bool | None = None,
        text: str | None = None,
        since: str | None = None,
        until: str | None = None,
        include_expired: bool = True,
        limit: int | None = None,
        offset: int = 0,
        scope: Scope = SHARED,
    ) -> list[Memory]:
        within, in_scope = scope.where()
        where: builtins.list[str] = [] if scope.every else [within]
        params: builtins.list[object] = list(in_scope)
        if kind:
            where.append("kind = ?")
            params.append(check_kind(kind))
        if pinned is not None:
            where.append("pinned = ?")
            params.append(int(pinned))
        if always is not None:
            where.append(f"{ALWAYS} = ?")
            params.append(int(always))
        if text:
            # Substring match, case-insensitive for ASCII; instr() has no LIKE wildcards to escape.
            where.append("instr(lower(text), lower(?)) > 0")
            params.append(text)
        if since:
            where.append("created_at >= ?")
            params.append(parse_when(since, "'since' date"))
        if until:
            bound = parse_when(until, "'until' date")
            where.append("substr(created_at, 1, length(?)) <= ?")
            params += [bound, bound]
        sql = f"SELECT {_COLUMNS} FROM memories"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY pinned DESC, created_at DESC, id DESC"
        if limit is not None:
            sql += " LIMIT ? OFFSET ?"
            params += [limit, offset]
        mems = [Memory.from_row(r) for r in self.db.query(sql, params)]
        if not include_expired:
            mems = [m for m in mems if not m.expired]
        return mems

    def history(self, memory_id: int) -> builtins.list[Version]:
        self.get(memory_id)
        rows = self.db.query(
            "SELECT version, action, actor, message_id, text, kind, importance, pinned, valid_from, "
            "valid_until, changed_at, sync_device, space_id FROM memory_history "
            "WHERE memory_id = ? ORDER BY version",
            (memory_id,),
        )
        return [
            Version(
                version=r[0],
                action=r[1],
                actor=r[2],
                message_id=r[3],
                text=r[4],
                kind=r[5],
                importance=r[6],
                pinned=bool(r[7]),
                valid_from=r[8],
                valid_until=r[9],
                changed_at=r[10],
                device=r[11],
                space=r[12],
            )  # fmt: skip
            for r in rows
        ]

    def taught_by(self, message_id: int) -> builtins.list[tuple[str, int, str, int, bool]]:
        """What a user message taught, as its memories' history recorded it: (action,
        memory id, text, the version it made, whether that version is still the latest)."""
        rows = self.db.query(
            "SELECT h.action, h.memory_id, h.text, h.version, "
            "h.version = (SELECT MAX(version) FROM memory_history WHERE memory_id = h.memory_id) "
            "FROM memory_history h WHERE h.message_id = ? "
            "AND h.action IN ('created', 'updated', 'invalidated') ORDER BY h.changed_at, h.id",
            (message_id,),
        )
        return [(r[0], int(r[1]), r[2], int(r[3]), bool(r[4])) for r in rows]

    def find_duplicate(self, text: str, scope: Scope = EVERY) -> Memory | None:
        """A stored memory with the same text (ignoring case and spacing), if any, in
        the scope's spaces (every space by default)."""
        h = content_hash(textproc.normalize(text).lower())
        within, in_scope = scope.where()
        rows = self.db.query(
            f"SELECT {_COLUMNS} FROM memories WHERE content_hash = ? AND {within} "
            "ORDER BY space_id IS NOT NULL LIMIT 1",
            (h, *in_scope),
        )
        return Memory.from_row(rows[0]) if rows else None
