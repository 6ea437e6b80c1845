"""Spaces: memory kept apart by project.

A profile has the shared space (what applies everywhere: who the person is, their
health, their preferences) and any number of spaces the person makes ("Work", "Thesis",
"客户 A"). The shared space is no row: a NULL `space_id` is shared. Each space has a
name, an instruction of its own, and one choice: it sees the shared space's memories
(the default) or it is kept apart (it neither reads nor adds to the shared space).

A `Scope` says what a reader may see: one space and, unless it is kept apart, the
shared space; never another space. Every read of memories, conversations and documents
that reaches the model, a search or an app takes one. Without one, a reader sees the
shared space only: a reader that forgot to say where it is misses a space's items, it
never gets another space's.
"""

from __future__ import annotations

import builtins
import re
import uuid
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from desktop_mem.core.errors import InvalidInput, NotFound
from desktop_mem.core.events import Events, SpacesChanged
from desktop_mem.core.jsontypes import JSONObject
from desktop_mem.core.memory import care
from desktop_mem.core.memory.records import now_iso, shown_as_read

if TYPE_CHECKING:
    from desktop_mem.core.db.connection import Connection
    from desktop_mem.core.db.database import Database

MAX_NAME = 60
MAX_INSTRUCTION = 2_000
# Names a space cannot take: the shared space's own, in the languages the window speaks.
_RESERVED = {"shared", "共享", "共享空间"}
_SPACE_COLUMNS = "id, uid, name, instruction, apart, created_at, updated_at"
# the uids of the spaces imports make: derived from the project's origin and id
_IMPORTED = uuid.UUID("6f1d2c58-3a1e-5b7e-9c4d-0d3e5a7b9c11")
# marks that reorder what follows them ("\u202eseton" shows as "notes"): out of names
_BIDI = dict.fromkeys([*range(0x202A, 0x202F), *range(0x2066, 0x206A)])


@dataclass(frozen=True)
class Space:
    id: int
    uid: str
    name: str
    instruction: str
    apart: bool
    created_at: str
    updated_at: str

    def to_dict(self) -> JSONObject:
        return {
            "id": self.id,
            "name": self.name,
            "instruction": self.instruction,
            "apart": self.apart,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
        }


@dataclass(frozen=True)
class Scope:
    """What one reader sees. `space`: the space it is in (None: the shared space);
    `shared`: whether it sees the shared space too (a space kept apart does not);
    `more`: other spaces it may read (an app given several); `every`: every space (the
    memory browser's "all spaces", and the profile's own upkeep: never a prompt, never
    an app). A scope with no space and without the shared one sees nothing."""

    space: int | None = None
    shared: bool = True
    every: bool = False
    more: frozenset[int] = frozenset()

    @property
    def spaces(self) -> tuple[int, ...]:
        """The spaces it sees besides the shared one."""
        return tuple(sorted({*self.more, *([] if self.space is None else [self.space])}))

    def where(self, column: str = "space_id") -> tuple[str, tuple[int, ...]]:
        """An SQL condition on a space column, and its parameters."""
        if self.every:
            return "1", ()
        ids = self.spaces
        parts = [f"{column} IS NULL"] if self.shared else []
        if ids:
            parts.append(f"{column} IN ({','.join('?' * len(ids))})")
        return ("(" + " OR ".join(parts) + ")" if parts else "0"), ids

    def holds(self, space_id: int | None) -> bool:
        if self.every:
            return True
        if space_id is None:
            return self.shared
        return space_id in self.spaces

    @property
    def sees_shared(self) -> bool:
        return self.every or self.shared


SHARED = Scope()
EVERY = Scope(every=True)


def readable(spaces: Iterable[int | None]) -> Scope:
    """What a reader given these spaces sees (None: the shared space): an app."""
    given = set(spaces)
    return Scope(None, shared=None in given, more=frozenset(s for s in given if s is not None))


def only(space: int | None) -> Scope:
    """One space's own items (None: the shared space's), without the shared space's."""
    return SHARED if space is None else Scope(space, shared=False)


# Facts about who the person is (their name, age, home, languages, family), which
# apply everywhere like health and safety do: said of the person themselves, in English
# and Chinese, as the extractor and people write them ("Lives in Hangzhou", "The user's
# name is Wei", "我叫小林"), not of someone else ("My sister lives in Shenzhen").
_WHO = re.compile(
    r"^\s*(?:the user(?:'s)?\s+|user(?:'s)?\s+|i\s+|i'm\s+|i am\s+|my\s+)?"
    r"(?:name is|is named|am named|is called|am called|goes by|go by|pronouns are"
    r"|(?:is|am) \d{1,3}(?: years old)?\b|was born|birthday is"
    r"|lives? in|living in|(?:is|am) from|grew up in|hometown"
    r"|speaks?|native language|mother tongue"
    r"|(?:is|am) (?:married|divorced|widowed|engaged)"
    r"|ha(?:s|ve) (?:a|an|one|two|three|four|\d) (?:sons?|daughters?|kids?|children)\b)"
    r"|^\s*(?:用户)?(?:我)?(?:叫|名字是|今年\d{1,3}岁|\d{1,3}岁|出生[于在]|生日是|住在|来自|老家"
    r"|母语|会说|已婚|结婚了|离婚了|有[一两二三四\d]个(?:儿子|女儿|孩子))",
    re.IGNORECASE,
)


def about_the_person(text: str) -> bool:
    """Whether a fact says who the person is (name, age, home, languages, family)."""
    return bool(_WHO.search(text))


def learned_in(text: str, scope: Scope) -> int | None:
    """Where a fact learned in a chat of this scope goes: the chat's space, except what
    applies everywhere: the person's health and safety (an allergy told in the work chat
    matters at the family dinner too) and who they are (their name, home, family), which
    go to the shared space, unless the space is kept apart (it adds nothing to it)."""
    if scope.every or scope.space is None:
        return None
    if scope.shared and (care.recognise(text) or about_the_person(text)):
        return None
    return scope.space


def check_space(conn: Connection, space: int | None) -> None:
    """Raise NotFound unless `space` is a space of this profile (or None: shared)."""
    if (
        space is not None
        and not conn.execute(
            "SELECT EXISTS (SELECT 1 FROM spaces WHERE id = ?)", (space,)
        ).fetchone()[0]
    ):
        raise NotFound(f"There is no space #{space}.", reason="space_not_found")


def clean_name(name: str) -> str:
    text = re.sub(r"\s+", " ", shown_as_read(name)).strip()
    if not text:
        raise InvalidInput("A space needs a name.", reason="space_name_empty")
    if len(text) > MAX_NAME:
        raise InvalidInput(
            f"A space's name is at most {MAX_NAME} characters; this one has {len(text)}.",
            reason="space_name_long",
        )
    if text.casefold() in _RESERVED:
        raise InvalidInput(
            f"'{text}' is the name of the shared space: choose another name.",
            reason="space_name_reserved",
        )
    return text


def clean_instruction(text: str) -> str:
    text = shown_as_read(text).strip()
    if len(text) > MAX_INSTRUCTION:
        raise InvalidInput(
            f"A space's instruction is at most {MAX_INSTRUCTION:,} characters; this one "
            f"has {len(text):,}.",
            reason="space_instruction_long",
        )
    return text


class SpaceStore:
    """The spaces of one profile: the only writer of the `spaces` table. Moving or
    deleting what is in a space is done by the stores that own it (memories,
    conversations, documents); `remove` takes out a space that holds nothing."""

    def __init__(self, db: Database, events: Events) -> None:
        self.db = db
        self.events = events

    # -- reads --------------------------------------------------------------------------

    def list(self) -> builtins.list[Space]:
        rows = self.db.query(
            f"SELECT {_SPACE_COLUMNS} FROM spaces ORDER BY name COLLATE NOCASE, id"
        )
        return [_space(r) for r in rows]

    def any(self) -> bool:
        """Whether the profile has a space besides the shared one."""
        return bool(self.db.query("SELECT EXISTS (SELECT 1 FROM spaces)")[0][0])

    def get(self, space_id: int) -> Space:
        rows = self.db.query(f"SELECT {_SPACE_COLUMNS} FROM spaces WHERE id = ?", (space_id,))
        if not rows:
            raise NotFound(f"There is no space #{space_id}.", reason="space_not_found")
        return _space(rows[0])

    def find(self, name_or_id: str) -> Space:
        """A space by its name (any case) or its number, as a person types it."""
        text = name_or_id.strip()
        folded = re.sub(r"\s+", " ", text).casefold()
        for space in self.list():  # a name first: a space may be named "2"
            if space.name.casefold() == folded:
                return space
        if text.lstrip("#").isdigit():
            rows = self.db.query(
                f"SELECT {_SPACE_COLUMNS} FROM spaces WHERE id = ?", (int(text.lstrip("#")),)
            )
            if rows:
                return _space(rows[0])
        raise NotFound(
            f"There is no space named '{text[:MAX_NAME]}': `desktop-mem spaces` lists them.",
            reason="space_not_found",
        )

    def scope(self, space_id: int | None) -> Scope:
        """What a reader in this space sees (None: the shared space)."""
        if space_id is None:
            return SHARED
        space = self.get(space_id)
        return Scope(space.id, shared=not space.apart)

    def counts(self) -> dict[int | None, tuple[int, int]]:
        """{space id (None: shared): (memories, conversations)}."""
        out: dict[int | None, tuple[int, int]] = {}
        for sid, n in self.db.query("SELECT space_id, count(*) FROM memories GROUP BY space_id"):
            out[sid] = (int(n), 0)
        for sid, n in self.db.query(
            "SELECT space_id, count(*) FROM conversations GROUP BY space_id"
        ):
            out[sid] = (out.get(sid, (0, 0))[0], int(n))
        return out

    # -- writes -------------------------------------------------------------------------

    def create(self, name: str, instruction: str = "", apart: bool = False) -> Space:
        name, instruction = clean_name(name), clean_instruction(instruction)
        now = now_iso()
        with self.db.transaction() as conn:
            self._check_free(conn, name, None)
            cur = conn.execute(
                "INSERT INTO spaces (uid, name, instruction, apart, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (uuid.uuid4().hex, name, instruction, int(apart), now, now),
            )
            space_id = int(cur.lastrowid or 0)
        self.events.emit(SpacesChanged("added", (space_id,)))
        return self.get(space_id)

    def change(
        self,
        space_id: int,
        *,
        name: str | None = None,
        instruction: str | None = None,
        apart: bool | None = None,
    ) -> Space:
        space = self.get(space_id)
        new_name = clean_name(name) if name is not None else space.name
        new_instruction = (
            clean_instruction(instruction) if instruction is not None else space.instruction
        )
        new_apart = space.apart if apart is None else apart
        if (new_name, new_instruction, new_apart) == (space.name, space.instruction, space.apart):
            return space
        with self.db.transaction() as conn:
            self._check_free(conn, new_name, space_id)
            conn.execute(
                "UPDATE spaces SET name = ?, instruction = ?, apart = ?, updated_at = ? "
                "WHERE id = ?",
                (new_name, new_instruction, int(new_apart), now_iso(), space_id),
            )
        self.events.emit(SpacesChanged("changed", (space_id,)))
        return self.get(space_id)

    def remove(self, space_id: int) -> None:
        """Take out a space that holds nothing (its contents moved or deleted first)."""
        space = self.get(space_id)
        with self.db.transaction() as conn:
            table = _what_it_holds(conn, space_id)
            if table is not None:
                raise InvalidInput(
                    f"The space '{space.name}' still holds {table.replace('_', ' ')}: "
                    "move them to the shared space or delete them first.",
                    reason="space_not_empty",
                )
            conn.execute("DELETE FROM spaces WHERE id = ?", (space_id,))
        self.events.emit(SpacesChanged("removed", (space_id,)))

    # -- made by an import (inside its transaction) ---------------------------------------

    def for_import(
        self,
        conn: Connection,
        origin: str,
        key: str,
        name: str | None,
        instruction: str = "",
        numbered: str = "Imported project",
        others: Collection[int] = (),
    ) -> int:
        """The space a project of another assistant's export is imported into (`key`:
        its id there), made the first time and found again by that id every time after
        (the space's uid is derived from it, so the same project imported on two synced
        computers is one space, whatever it was renamed to meanwhile). A space made by
        an import sees the shared space. Its name is the project's, cleaned to be valid
        (controls, reordering marks and runs of spaces out, at most MAX_NAME
        characters); a space of that name made some other way is the one used (the
        person's own "Thesis" takes the "Thesis" project), unless it is one of `others`
        (the spaces of this import's other projects: two projects of one name are two
        spaces, "Notes" and "Notes (2)"). A project with no name, or one no space may
        have (empty, the shared space's), gets `numbered` and the first free number
        ("ChatGPT project 1"). Its instruction is the project's, cut to
        MAX_INSTRUCTION; a space found again keeps its own. Announced after the
        caller's commit."""
        uid = uuid.uuid5(_IMPORTED, f"{origin}\n{key}").hex
        row = conn.execute("SELECT id FROM spaces WHERE uid = ?", (uid,)).fetchone()
        if row is not None:
            return int(row[0])
        taken = {str(n).casefold(): int(i) for i, n in conn.execute("SELECT id, name FROM spaces")}
        text = _clean_arrived_name((name or "").translate(_BIDI)).rstrip()
        if text and text.casefold() in taken and taken[text.casefold()] not in others:
            return taken[text.casefold()]
        stem, n, tail = (text, 2, " ({})") if text else (numbered, 1, " {}")
        while not text or text.casefold() in taken:
            end = tail.format(n)
            text, n = stem[: MAX_NAME - len(end)].rstrip() + end, n + 1
        now = now_iso()
        body = shown_as_read(instruction).translate(_BIDI).strip()
        if len(body) > MAX_INSTRUCTION:
            body = body[: MAX_INSTRUCTION - 1].rstrip() + "\u2026"
        cur = conn.execute(
            "INSERT INTO spaces (uid, name, instruction, apart, created_at, updated_at) "
            "VALUES (?, ?, ?, 0, ?, ?)",
            (uid, text, body, now, now),
        )
        space_id = int(cur.lastrowid or 0)
        self.db.after_commit(self._made, [space_id])
        return space_id

    def _made(self, ids: tuple[int, ...]) -> None:
        self.events.emit(SpacesChanged("added", ids))

    # -- as another computer has them (sync, inside its pass's transaction) -------------

    def put_arrived(self, conn: Connection, uid: str, body: dict[str, object]) -> int:
        """Write a space as another computer has it (new, or its fields replaced); its
        id. A name another space here has too is kept: two computers may each have made
        a "Work" before they synced."""
        name = body.get("name")
        instruction = body.get("instruction")
        fields = (
            _clean_arrived_name(name),
            shown_as_read(instruction).strip()[:MAX_INSTRUCTION]
            if isinstance(instruction, str) else "",
            int(bool(body.get("apart"))),
            str(body.get("created_at") or now_iso()),
            str(body.get("updated_at") or now_iso()),
        )  # fmt: skip
        row = conn.execute("SELECT id FROM spaces WHERE uid = ?", (uid,)).fetchone()
        if row is None:
            cur = conn.execute(
                "INSERT INTO spaces (name, instruction, apart, created_at, updated_at, uid) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (*fields, uid),
            )
            space_id = int(cur.lastrowid or 0)
            self.db.after_commit(self._arrived, [space_id])
            return space_id
        space_id = int(row[0])
        conn.execute(
            "UPDATE spaces SET name = ?, instruction = ?, apart = ?, created_at = ?, "
            "updated_at = ? WHERE id = ?",
            (*fields, space_id),
        )
        self.db.after_commit(self._arrived, [space_id])
        return space_id

    def arrived_id(self, conn: Connection, uid: object) -> int | None:
        """The id here of the space a record names (None: the shared space). One whose
        own record has not arrived yet is made now, kept apart with no name, so what is in
        it is never given in the shared space or another meanwhile; its record fills it
        in."""
        if not isinstance(uid, str) or not uid:
            return None
        row = conn.execute("SELECT id FROM spaces WHERE uid = ?", (uid,)).fetchone()
        if row is not None:
            return int(row[0])
        return self.put_arrived(conn, uid, {"name": "", "apart": True})

    def remove_arrived(self, conn: Connection, uid: str) -> int | None:
        """A space taken out elsewhere: its row goes when nothing here is in it any more
        (what it held went with its own records: moved or deleted); one that still holds
        something written here meanwhile stays, so that nothing is mixed into another
        space. Its id when it went."""
        row = conn.execute("SELECT id FROM spaces WHERE uid = ?", (uid,)).fetchone()
        if row is None:
            return None
        space_id = int(row[0])
        if _what_it_holds(conn, space_id) is not None:
            return None
        conn.execute("DELETE FROM spaces WHERE id = ?", (space_id,))
        self.db.after_commit(self._gone, [space_id])
        return space_id

    def _arrived(self, ids: tuple[int, ...]) -> None:
        self.events.emit(SpacesChanged("changed", ids))

    def _gone(self, ids: tuple[int, ...]) -> None:
        self.events.emit(SpacesChanged("removed", ids))

    @staticmethod
    def _check_free(conn: Connection, name: str, space_id: int | None) -> None:
        for other_id, other in conn.execute("SELECT id, name FROM spaces").fetchall():
            if other_id != space_id and str(other).casefold() == name.casefold():
                raise InvalidInput(
                    f"There is already a space named '{other}': choose another name.",
                    reason="space_name_taken",
                )


def _what_it_holds(conn: Connection, space_id: int) -> str | None:
    """The first table with something in the space, or None when it holds nothing."""
    for table in ("memories", "conversations", "documents", "doc_folders", "proposals"):
        if conn.execute(
            f"SELECT EXISTS (SELECT 1 FROM {table} WHERE space_id = ?)", (space_id,)
        ).fetchone()[0]:
            return table
    return None


def is_shared_name(text: str) -> bool:
    """Whether a name is the shared space's ("shared", 共享, 共享空间, in any case): no
    space may take it, and a person or a script naming it means the shared space."""
    return text.strip().casefold() in _RESERVED


def _clean_arrived_name(name: object) -> str:
    """A name another computer sent, as this one keeps it (one that is not valid here is
    kept as no name: the window says "a space without a name")."""
    if not isinstance(name, str):
        return ""
    text = re.sub(r"\s+", " ", shown_as_read(name)).strip()[:MAX_NAME]
    return "" if text.casefold() in _RESERVED else text


def _space(row: Sequence[Any]) -> Space:
    sid, uid, name, instruction, apart, created, updated = row
    return Space(int(sid), uid, name, instruction, bool(apart), created, updated)
