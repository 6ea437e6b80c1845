"""How synced records merge: the rules, as functions of what arrived and what is known
here (no database: core/sync/applying.py reads and writes the rows and asks these).

The records that travel, each named by a stable id (core/db/migrations.py, 19):

- a memory's current fields (its *head*) and the versions of its history;
- a memory's context (what was being said when it was learned), apart from the rest,
  so that deleting the message it quotes can remove it everywhere without a trace in
  any version;
- a conversation; a message with what its answer was given (memories and earlier
  messages, by stable id);
- the settings that are the person's (SYNCED_SETTINGS), not a computer's.

Every change made here gets a stamp (a logical clock, then this computer's id) when it
is sent; the clock moves past every stamp that arrives, so a later change always has a
greater stamp whatever the wall clocks say (core/sync/capture.py). Records merge the
same on every computer, whatever order their changes arrive in:

- *newest wins*: a record's newest stamp wins (its fields, its head);
- *concurrent edits are kept*: a memory's history is every version any computer made,
  in stamp order, so a memory edited on two computers at once keeps both texts: the
  later one current, the other in its history (and the memory is marked as edited on
  both sides);
- *delete wins*: a deletion wins over everything, older or newer: a deleted record's id
  is kept (its *tombstone*, no text) and nothing sent for it afterwards is applied.
  What a deletion dropped that its computer had not seen (an edit made elsewhere after
  the version it deleted) is kept for the user to look at (core/sync/lost.py);
- *a version is taken once*: one already here (the same stamp, or the same clock and
  content under another computer's id: two computers that shared one identity sent it
  under both, core/sync/twins.py) is not added again;
- *duplicates*: a memory added on two computers with the same text ends up once: the
  one with the lower uid stays on every computer (uids are the same everywhere, row
  ids are not), the other is deleted like any memory.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from desktop_mem.core.db.migrations import SYNCED_SETTINGS
from desktop_mem.core.sync.wire import (
    CONTEXT,
    DELETABLE,
    MEMORY,
    MESSAGE,
    SETTING,
    Body,
    Record,
    Stamp,
    Version,
    stamp_of,
)


@dataclass(frozen=True)
class Known:
    """A record as this computer knows it: its newest stamp and body (None: deleted)."""

    stamp: Stamp
    body: Body | None

    @property
    def deleted(self) -> bool:
        return self.body is None


@dataclass(frozen=True)
class Deletion:
    """A deletion known here: its stamp, and that of what it deleted (None when it was
    made by a version that did not say)."""

    stamp: Stamp
    deleted: Stamp | None


class Outcome(Enum):
    """What a record that arrived does here."""

    NOTHING = "nothing"  # older than what is known, or not for this computer
    OVERRIDDEN = "overridden"  # a change to something deleted: the deletion wins
    ORPHANED = "orphaned"  # a message in a conversation deleted (or not named): the same
    DELETE = "delete"  # a deletion: the record goes, its tombstone stays
    WRITE = "write"  # newer than what is known: it stands
    MEMORY = "memory"  # a memory's head: its versions merge, the head if it wins


def wins(incoming: Stamp, known: Stamp | None) -> bool:
    """Newest wins: whether a change with stamp `incoming` replaces the one known here."""
    return known is None or incoming > known


def outcome(record: Record, known: Known | None, above_gone: bool = False) -> Outcome:
    """What `record` does to `known` (None: nothing of it is known here). `above_gone`:
    what it belongs to is deleted (a context's memory), deleted or not named (a message's
    conversation)."""
    if known is not None and known.deleted and record.kind != CONTEXT:
        return Outcome.NOTHING if record.deletion else Outcome.OVERRIDDEN
    if record.deletion:
        return Outcome.DELETE if record.kind in DELETABLE else Outcome.NOTHING
    if record.kind == MEMORY:
        return Outcome.MEMORY
    if record.kind == MESSAGE and above_gone:
        return Outcome.ORPHANED
    if not wins(record.stamp, known.stamp if known else None):
        return Outcome.NOTHING
    if record.kind == CONTEXT and above_gone:
        return Outcome.NOTHING
    if record.kind == SETTING and record.uid not in SYNCED_SETTINGS:
        return Outcome.NOTHING
    return Outcome.WRITE


def removes_own(known: Known | None, device: str) -> bool:
    """Whether a deletion removes a record this computer (`device`) wrote last."""
    return known is not None and known.stamp[1] == device


# -- memories edited on two computers at once ------------------------------------------


def edited_apart(incoming: Stamp, head: Body, known: Known | None) -> bool:
    """Whether a memory's head that arrived and the one known here have different texts,
    neither made on top of the other. (They are concurrent unless the version that
    arrived is already here: `seen_here`.)"""
    if known is None or known.body is None:
        return False
    mine = known.body
    if incoming == known.stamp or head.get("text") == mine.get("text"):
        return False
    if stamp_of(head.get("prev")) == known.stamp:
        return False  # made on top of this computer's version
    return stamp_of(mine.get("prev")) != incoming  # or this computer's made on top of it


def seen_here(incoming: Stamp, text: str, here: Iterable[tuple[str, str | None]]) -> bool:
    """Whether the version a head that arrived was made with is here: `here` is the
    (device, text) of this memory's versions with the same clock; it is the same version
    under its own id, or under the id of a computer it was a copy of, when the two sent
    it under both (the same clock and text)."""
    return any(device == incoming[1] or known == text for device, known in here)


def concurrent(
    incoming: Stamp, head: Body, known: Known | None, here: Iterable[tuple[str, str | None]]
) -> bool:
    """Concurrent edits: a memory's text changed here and elsewhere without either seeing
    the other's change. (Both texts stay, in its history.)"""
    return edited_apart(incoming, head, known) and not seen_here(
        incoming, str(head.get("text") or ""), here
    )


def conflict_with(incoming: Stamp, known: Known, device: str) -> str:
    """The other computer in a concurrent edit, as this computer (`device`) sees it."""
    return incoming[1] if incoming[1] != device else known.stamp[1]


# -- a memory's history ----------------------------------------------------------------


def version_key(v: Version) -> tuple[object, ...]:
    """A version's clock and content: two versions with the same key are one."""
    return (int(v.clock), str(v.action), str(v.actor), str(v.text), str(v.kind),
            round(float(v.importance), 6), int(bool(v.pinned)), v.valid_from, v.valid_until,
            str(v.changed_at))  # fmt: skip


def new_versions(here: Iterable[Version], arriving: Iterable[Version]) -> tuple[list[Version], int]:
    """A version is taken once: of `arriving`, those to add to a memory's history that
    holds `here`, in their order; and the newest clock among those not here by their
    stamp (the clock moves past it, 0 for none). One here under another stamp with the
    same clock and content is the same version (two computers that shared one identity
    sent it under both ids)."""
    here = list(here)
    have = {v.stamp for v in here}
    same = {version_key(v) for v in here}
    added: list[Version] = []
    newest = 0
    for v in arriving:
        if v.stamp in have:
            continue
        newest = max(newest, v.clock)
        if version_key(v) in same:
            continue
        added.append(v)
        have.add(v.stamp)
        same.add(version_key(v))
    return added, newest


# -- what a deletion drops that its computer had not seen ------------------------------


def unseen(edit: Stamp, deleted: Stamp | None) -> bool:
    """Whether an edit is newer than the version a deletion deleted: its computer had not
    seen it, and the deletion wins over it all the same (it is kept for the user). A
    deletion that does not say what it deleted (None: an older version) is taken as
    having seen everything."""
    return deleted is not None and edit > deleted


def own_edit_lost(known: Known | None, deleted: Stamp | None, device: str) -> bool:
    """A deletion arrived: whether this computer's (`device`) own edit, the head known
    here, is lost to it unseen."""
    if known is None or known.body is None or known.stamp[1] != device:
        return False
    return unseen(known.stamp, deleted)


def lost_here(incoming: Stamp, deletion: Deletion | None, device: str) -> bool:
    """A change arrived for a record this computer (`device`) deleted: whether it was
    made after what that deletion deleted (an edit of a memory, or a message written in a
    conversation, that this computer had not seen)."""
    if deletion is None or deletion.stamp[1] != device:
        return False
    return unseen(incoming, deletion.deleted)


# -- memories added twice --------------------------------------------------------------


def duplicate_dropped(one: tuple[int, str], other: tuple[int, str]) -> int:
    """Of two memories with the same content, each (row id, uid), the row id of the one
    deleted: the lower uid stays. Every computer picks the same one, since a uid is the
    same on every computer (row ids are not: each is given in arrival order here, and
    keeping the lower id could keep one on one computer and the other elsewhere, both
    deleted once their deletions arrive)."""
    return one[0] if one[1] > other[1] else other[0]


__all__ = [
    "Deletion",
    "Known",
    "Outcome",
    "concurrent",
    "conflict_with",
    "duplicate_dropped",
    "edited_apart",
    "lost_here",
    "new_versions",
    "outcome",
    "own_edit_lost",
    "removes_own",
    "seen_here",
    "unseen",
    "version_key",
    "wins",
]


# -- spaces -----------------------------------------------------------------------------

SPACE_FIELDS = ("name", "instruction", "apart")


def _field_stamp(body: Body, stamp: Stamp, name: str) -> Stamp:
    """When a space's field last changed, as its record says ("at"); a record without
    it (or with one that does not fit) changed every field at its own stamp."""
    at = body.get("at")
    value = at.get(name) if isinstance(at, dict) else None
    found = stamp_of(value)
    return found if found is not None and found <= stamp else stamp


def merge_space(mine: Body, mine_at: Stamp, theirs: Body, theirs_at: Stamp) -> Body:
    """Two records of one space: each field as the one that changed it last says (its
    name, its instruction, whether it is kept apart), whichever record is newer as a
    whole; two computers changing different fields at once both stand."""
    out: Body = dict(mine if mine_at >= theirs_at else theirs)
    at: dict[str, list[object]] = {}
    for name in SPACE_FIELDS:
        a, b = _field_stamp(mine, mine_at, name), _field_stamp(theirs, theirs_at, name)
        source = mine if a >= b else theirs
        out[name] = source.get(name)
        at[name] = list(max(a, b))
    out["at"] = at
    return out
