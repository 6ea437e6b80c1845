"""The "about you" profile: a few lines about the person, each citing the memories it
came from, given in every prompt (core/chat/about.py writes it, the read path gives it).

A line is the model's (replaced by the next rewrite) or the user's (written or edited
by them: kept exactly as written, never rewritten). Every line cites at least one
memory, and deleting a memory deletes every line that cites it in the same transaction
(a trigger on `memories`, migration 23), whatever deleted it: the browser, "forget …",
the command line, an app over MCP, a deletion sync applied, an undo. A line the user
removed is kept only as the set of memories it cited (no text), so that a rewrite
cannot bring it back. Nothing here holds text outside the encrypted profile.
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from desktop_mem.core.errors import InvalidInput, NotFound
from desktop_mem.core.events import AboutChanged, Events
from desktop_mem.core.jsontypes import JSONObject
from desktop_mem.core.memory.records import is_expired, now_iso, strip_controls

if TYPE_CHECKING:
    from desktop_mem.core.db.connection import Connection
    from desktop_mem.core.db.database import Database

MAX_LINE = 300  # characters of one line (the user's; the model's are held shorter)
WRITTEN_AT = "about.written_at"  # meta: when the model last wrote the profile (ISO, UTC)
WRITTEN_FROM = "about.written_from"  # meta: the memories' state it was written from


@dataclass
class AboutLine:
    id: int
    text: str
    by: str  # 'model' or 'user'
    cites: list[int] = field(default_factory=list)
    position: int = 0

    @property
    def edited(self) -> bool:
        """Written or edited by the user: kept as written, never rewritten."""
        return self.by == "user"

    def to_dict(self) -> JSONObject:
        return {"id": self.id, "text": self.text, "by": self.by, "cites": list(self.cites)}


def clean_line(text: str) -> str:
    """One line of plain text: controls and line breaks out, spaces collapsed."""
    return " ".join(strip_controls(str(text)).split())


def clear(conn: Connection) -> None:
    """Everything about the person, inside the caller's transaction (forget everything)."""
    conn.execute("DELETE FROM about_lines")
    conn.execute("DELETE FROM about_removed")
    conn.execute("DELETE FROM meta WHERE key IN (?, ?)", (WRITTEN_AT, WRITTEN_FROM))


class AboutStore:
    """The profile's lines, their citations and what the user removed."""

    def __init__(self, db: Database, events: Events) -> None:
        self.db = db
        self.events = events

    # -- reads --------------------------------------------------------------------------

    def lines(self, current_only: bool = False) -> builtins.list[AboutLine]:
        """Every line in order. `current_only`: what a prompt gets: a model's line is left
        out while a memory it cites has expired (a rewrite will drop it); the user's
        lines are theirs."""
        rows = self.db.query(
            "SELECT id, text, by, position FROM about_lines ORDER BY by = 'model', position, id"
        )
        cites: dict[int, list[int]] = {}
        expired: set[int] = set()
        for line_id, memory_id, valid_until in self.db.query(
            "SELECT c.line_id, c.memory_id, m.valid_until FROM about_cites c "
            "LEFT JOIN memories m ON m.id = c.memory_id ORDER BY c.line_id, c.memory_id"
        ):
            cites.setdefault(line_id, []).append(memory_id)
            if is_expired(valid_until):
                expired.add(line_id)
        out = [AboutLine(i, t, b, cites.get(i, []), p) for i, t, b, p in rows]
        if current_only:
            out = [ln for ln in out if ln.cites and (ln.edited or ln.id not in expired)]
        return out

    def get(self, line_id: int) -> AboutLine:
        for line in self.lines():
            if line.id == line_id:
                return line
        raise NotFound(
            f"There is no line {line_id} in what the model knows about you.", reason="about_gone"
        )

    def removed_sets(self) -> builtins.list[frozenset[int]]:
        """The memories each removed line cited."""
        sets: dict[int, set[int]] = {}
        for removal, memory_id in self.db.query("SELECT removal, memory_id FROM about_removed"):
            sets.setdefault(removal, set()).add(memory_id)
        return [frozenset(s) for s in sets.values() if s]

    def count(self) -> int:
        return int(self.db.query("SELECT count(*) FROM about_lines")[0][0])

    # -- writes -------------------------------------------------------------------------

    def replace_model_lines(self, lines: Sequence[tuple[str, Sequence[int]]]) -> int:
        """The rewrite: the model's lines become these (the user's stay). Checked inside
        the transaction: a line citing a memory deleted meanwhile is dropped, so a
        rewrite racing a deletion never brings it back, and so is one citing nothing
        but what a line the user removed or wrote cites. A line the same as one there
        keeps its id (answers that were given it still show it). Returns how many."""
        now = now_iso()
        written = 0
        with self.db.transaction() as conn:
            # what the user removed or wrote meanwhile counts too: checked here, where no
            # removal can come between the check and the write
            covered: dict[int, set[int]] = {}
            for key, memory_id in conn.execute(
                "SELECT -removal, memory_id FROM about_removed UNION ALL "
                "SELECT c.line_id, c.memory_id FROM about_cites c "
                "JOIN about_lines l ON l.id = c.line_id WHERE l.by = 'user'"
            ).fetchall():
                covered.setdefault(key, set()).add(memory_id)
            old = {
                text: line_id
                for line_id, text in conn.execute(
                    "SELECT id, text FROM about_lines WHERE by = 'model'"
                ).fetchall()
            }
            keep: set[int] = set()
            for position, (text, cites) in enumerate(lines):
                ids = sorted(set(cites))
                marks = ",".join("?" * len(ids))
                there = conn.execute(
                    f"SELECT count(*) FROM memories WHERE id IN ({marks})", ids
                ).fetchone()[0]
                if not ids or there != len(ids):
                    continue  # a cited memory was deleted meanwhile
                if any(set(ids) <= c for c in covered.values()):
                    continue  # what a line the user removed or wrote says
                line_id = old.get(text)
                if line_id is not None and line_id not in keep:
                    conn.execute(
                        "UPDATE about_lines SET position = ?, updated_at = ? WHERE id = ?",
                        (position, now, line_id),
                    )
                    conn.execute("DELETE FROM about_cites WHERE line_id = ?", (line_id,))
                else:
                    line_id = int(
                        conn.execute(
                            "INSERT INTO about_lines(text, by, position, created_at, updated_at) "
                            "VALUES (?, 'model', ?, ?, ?)",
                            (text, position, now, now),
                        ).lastrowid
                    )
                keep.add(line_id)
                conn.executemany(
                    "INSERT OR IGNORE INTO about_cites(line_id, memory_id) VALUES (?, ?)",
                    [(line_id, m) for m in ids],
                )
                written += 1
            for line_id in set(old.values()) - keep:
                conn.execute("DELETE FROM about_lines WHERE id = ?", (line_id,))
        self.db.checkpoint()
        self.events.emit(AboutChanged("changed"))
        return written

    def edit(self, line_id: int, text: str) -> AboutLine:
        """The user's words for a line: kept exactly as written (one line), marked as
        theirs, never rewritten. It keeps the line's citations, so forgetting a memory
        it came from still removes it."""
        clean = clean_line(text)
        if not clean:
            raise InvalidInput("A line cannot be empty: remove it instead.", reason="about_empty")
        if len(clean) > MAX_LINE:
            raise InvalidInput(
                f"A line holds at most {MAX_LINE} characters: shorten it.", reason="about_long"
            )
        self.get(line_id)
        with self.db.transaction() as conn:
            conn.execute(
                "UPDATE about_lines SET text = ?, by = 'user', updated_at = ? WHERE id = ?",
                (clean, now_iso(), line_id),
            )
        self.db.checkpoint()  # the old words leave the file's pages now
        self.events.emit(AboutChanged("changed", (line_id,)))
        return self.get(line_id)

    def remove(self, line_id: int) -> None:
        """The user removes a line: gone at once, and no rewrite brings back a line from
        only the memories it cited."""
        line = self.get(line_id)
        with self.db.transaction() as conn:
            removal = conn.execute(
                "SELECT coalesce(max(removal), 0) + 1 FROM about_removed"
            ).fetchone()[0]
            conn.executemany(
                "INSERT OR IGNORE INTO about_removed(removal, memory_id) "
                "SELECT ?, id FROM memories WHERE id = ?",
                [(removal, m) for m in line.cites],
            )
            conn.execute("DELETE FROM about_lines WHERE id = ?", (line_id,))
        self.db.checkpoint()
        self.events.emit(AboutChanged("removed", (line_id,)))

    def written(self, state: str) -> None:
        """The model wrote the profile from the memories in this state."""
        self.db.meta_set(WRITTEN_AT, now_iso())
        self.db.meta_set(WRITTEN_FROM, state)

    def state(self) -> str:
        """The memories' state the profile depends on: it changes when one is added,
        changed or deleted (then a rewrite is due)."""
        n, top, changed = self.db.query(
            "SELECT count(*), coalesce(max(id), 0), coalesce(max(updated_at), '') FROM memories"
        )[0]
        return f"{n}:{top}:{changed}"

    def due(self) -> bool:
        """A rewrite is due: the memories changed since the model last wrote it."""
        if self.db.query("SELECT count(*) FROM memories")[0][0] == 0:
            return False
        return self.db.meta_get(WRITTEN_FROM) != self.state()
