"""The merge rules (core/sync/merge.py) and the wire format (core/sync/wire.py), called
directly: no database, no folder. Each table is one rule, a case a line."""

from __future__ import annotations

import json
from typing import Any

import pytest

from desktop_mem.core.sync import merge, wire
from desktop_mem.core.sync.merge import Deletion, Known, Outcome
from desktop_mem.core.sync.wire import Record, Version

A, B, ME = "a" * 32, "b" * 32, "c" * 32  # two other computers, and this one


def _record(kind: str, stamp: wire.Stamp, body: dict[str, Any] | None, uid: str = "u") -> Record:
    return Record(kind, uid, stamp, body)


# -- newest wins -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("incoming", "known", "wins"),
    [
        ((5, A), None, True),  # nothing known here
        ((5, A), (4, B), True),  # a later clock
        ((4, B), (5, A), False),  # an earlier clock, whoever wrote it
        ((5, B), (5, A), True),  # the same clock: the greater computer id
        ((5, A), (5, B), False),
        ((5, A), (5, A), False),  # the same change again
        ((10, A), (9, B), True),  # clocks compare as numbers, not text
    ],
)
def test_newest_wins(incoming: wire.Stamp, known: wire.Stamp | None, wins: bool) -> None:
    assert merge.wins(incoming, known) is wins


# -- what a record does ------------------------------------------------------------------

_DELETED = Known((3, A), None)
_OLD = Known((3, A), {"title": "old"})
_NEW = Known((9, A), {"title": "new"})


@pytest.mark.parametrize(
    ("kind", "body", "known", "above_gone", "expected"),
    [
        # delete wins over everything: nothing sent for a deleted record is applied
        (wire.CONVERSATION, {"title": "x"}, _DELETED, False, Outcome.OVERRIDDEN),
        (wire.MEMORY, {"text": "x"}, _DELETED, False, Outcome.OVERRIDDEN),
        (wire.MESSAGE, {"content": "x"}, _DELETED, False, Outcome.OVERRIDDEN),
        (wire.SETTING, {"value": "x"}, _DELETED, False, Outcome.OVERRIDDEN),
        (wire.MEMORY, None, _DELETED, False, Outcome.NOTHING),  # deleted twice
        # a deletion wins whatever its stamp, older or newer than what is known
        (wire.MEMORY, None, _NEW, False, Outcome.DELETE),
        (wire.CONVERSATION, None, _OLD, False, Outcome.DELETE),
        (wire.MESSAGE, None, None, False, Outcome.DELETE),
        # a context or a setting is never deleted: a deletion of one is not a record
        (wire.CONTEXT, None, None, False, Outcome.NOTHING),
        (wire.SETTING, None, _OLD, False, Outcome.NOTHING),
        # newest wins
        (wire.CONVERSATION, {"title": "x"}, None, False, Outcome.WRITE),
        (wire.CONVERSATION, {"title": "x"}, _OLD, False, Outcome.WRITE),
        (wire.CONVERSATION, {"title": "x"}, _NEW, False, Outcome.NOTHING),
        (wire.MESSAGE, {"content": "x"}, _NEW, False, Outcome.NOTHING),
        (wire.SETTING, {"value": "x"}, _OLD, False, Outcome.WRITE),
        # a memory's head always merges (its versions), whatever its stamp
        (wire.MEMORY, {"text": "x"}, _NEW, False, Outcome.MEMORY),
        (wire.MEMORY, {"text": "x"}, None, False, Outcome.MEMORY),
        # what it belongs to is deleted
        (wire.MESSAGE, {"content": "x"}, None, True, Outcome.ORPHANED),
        (wire.MESSAGE, {"content": "x"}, _NEW, True, Outcome.ORPHANED),
        (wire.CONTEXT, {"context": "x"}, None, True, Outcome.NOTHING),
        (wire.CONTEXT, {"context": "x"}, None, False, Outcome.WRITE),
        # a context is replaced, never deleted: its record is not a tombstone
        (wire.CONTEXT, {"context": "x"}, Known((3, A), None), False, Outcome.WRITE),
    ],
)
def test_what_a_record_does(
    kind: str,
    body: dict[str, Any] | None,
    known: Known | None,
    above_gone: bool,
    expected: Outcome,
) -> None:
    uid = "instructions" if kind == wire.SETTING else "u"
    assert merge.outcome(_record(kind, (5, B), body, uid), known, above_gone) is expected


@pytest.mark.parametrize(
    ("uid", "expected"),
    [("instructions", Outcome.WRITE), ("ollama_host", Outcome.NOTHING), ("", Outcome.NOTHING)],
)
def test_only_the_persons_settings_are_taken(uid: str, expected: Outcome) -> None:
    """A setting that is a computer's own (where its model server is) is not synced."""
    assert merge.outcome(_record(wire.SETTING, (5, B), {"value": "x"}, uid), None) is expected


@pytest.mark.parametrize(
    ("known", "removes_own"),
    [(None, False), (Known((3, ME), {"t": 1}), True), (Known((3, A), {"t": 1}), False)],
)
def test_a_deletion_of_what_this_computer_wrote_is_counted(
    known: Known | None, removes_own: bool
) -> None:
    assert merge.removes_own(known, ME) is removes_own


# -- concurrent edits are kept ------------------------------------------------------------


@pytest.mark.parametrize(
    ("incoming", "head", "known", "here", "concurrent"),
    [
        # edited on both computers, neither seeing the other: both texts stay
        (
            (8, B),
            {"text": "Beijing", "prev": [4, A]},
            Known((8, ME), {"text": "Shanghai", "prev": [4, A]}),
            [],
            True,
        ),  # fmt: skip
        # the same text: nothing to tell apart
        ((8, B), {"text": "Paris"}, Known((8, ME), {"text": "Paris"}), [], False),
        # the same change
        ((8, B), {"text": "Rome"}, Known((8, B), {"text": "Paris"}), [], False),
        # made on top of this computer's version
        ((9, B), {"text": "Rome", "prev": [8, ME]}, Known((8, ME), {"text": "Paris"}), [], False),
        # this computer's version made on top of it
        ((8, B), {"text": "Rome"}, Known((9, ME), {"text": "Paris", "prev": [8, B]}), [], False),
        # its version is here already (by its stamp)
        ((8, B), {"text": "Rome"}, Known((9, ME), {"text": "Paris"}), [(B, "Rome")], False),
        # ... or under the id of a computer it was a copy of (the same clock and text)
        ((8, B), {"text": "Rome"}, Known((9, ME), {"text": "Paris"}), [(A, "Rome")], False),
        # another version with that clock, by another computer: not it
        ((8, B), {"text": "Rome"}, Known((9, ME), {"text": "Paris"}), [(A, "Oslo")], True),
        # nothing known, or known deleted: nothing to conflict with
        ((8, B), {"text": "Rome"}, None, [], False),
        ((8, B), {"text": "Rome"}, Known((9, ME), None), [], False),
        # a "prev" that is not a stamp is no stamp (the files are hostile)
        ((8, B), {"text": "Rome", "prev": 7}, Known((9, ME), {"text": "Paris"}), [], True),
    ],
)
def test_concurrent_edits(
    incoming: wire.Stamp,
    head: dict[str, Any],
    known: Known | None,
    here: list[tuple[str, str]],
    concurrent: bool,
) -> None:
    assert merge.concurrent(incoming, head, known, here) is concurrent


@pytest.mark.parametrize(
    ("incoming", "known", "other"),
    [((8, B), Known((9, ME), {}), B), ((8, ME), Known((9, A), {}), A)],
)
def test_a_conflict_names_the_other_computer(
    incoming: wire.Stamp, known: Known, other: str
) -> None:
    assert merge.conflict_with(incoming, known, ME) == other


# -- a version is taken once --------------------------------------------------------------


def _v(clock: int, device: str, text: str = "t", importance: float = 0.5) -> Version:
    return Version("edited", "user", None, text, "fact", importance, False, None, None,
                   "2026-01-01T00:00:00Z", clock, device)  # fmt: skip


@pytest.mark.parametrize(
    ("here", "arriving", "added", "newest"),
    [
        ([], [_v(1, A), _v(2, A)], [_v(1, A), _v(2, A)], 2),
        # one here by its stamp: not added, and the clock is past it already
        ([_v(1, A)], [_v(1, A, "other text")], [], 0),
        # the same clock and content under another id (twins sent it under both): once
        ([_v(3, A)], [_v(3, B)], [], 3),
        # the same clock, other content: a version of its own
        ([_v(3, A)], [_v(3, B, "else")], [_v(3, B, "else")], 3),
        # content compared to six places (a float's last digits are noise)
        ([_v(3, A, importance=0.7)], [_v(3, B, importance=0.7000000001)], [], 3),
        ([_v(3, A, importance=0.7)], [_v(3, B, importance=0.71)], [_v(3, B, importance=0.71)], 3),
        # twice in one batch: once
        ([], [_v(4, A), _v(4, A)], [_v(4, A)], 4),
        ([], [_v(4, A), _v(4, B)], [_v(4, A)], 4),
    ],
)
def test_a_version_is_taken_once(
    here: list[Version], arriving: list[Version], added: list[Version], newest: int
) -> None:
    assert merge.new_versions(here, arriving) == (added, newest)


# -- what a deletion drops unseen ---------------------------------------------------------


@pytest.mark.parametrize(
    ("edit", "deleted", "unseen"),
    [
        ((9, A), (8, B), True),  # made after the version deleted
        ((8, B), (8, B), False),  # the version deleted itself
        ((7, A), (8, B), False),  # seen by the deleter
        ((9, A), None, False),  # a deletion that does not say saw everything
    ],
)
def test_an_edit_newer_than_what_was_deleted_was_not_seen(
    edit: wire.Stamp, deleted: wire.Stamp | None, unseen: bool
) -> None:
    assert merge.unseen(edit, deleted) is unseen


@pytest.mark.parametrize(
    ("known", "deleted", "lost"),
    [
        (Known((9, ME), {"text": "x"}), (8, ME), True),  # this computer's edit, unseen
        (Known((8, ME), {"text": "x"}), (8, ME), False),  # the version deleted
        (Known((9, A), {"text": "x"}), (8, ME), False),  # another computer's edit
        (Known((9, ME), None), (8, ME), False),  # already deleted here
        (None, (8, ME), False),
        (Known((9, ME), {"text": "x"}), None, False),  # an older deleter
    ],
)
def test_this_computers_edit_lost_to_a_deletion(
    known: Known | None, deleted: wire.Stamp | None, lost: bool
) -> None:
    assert merge.own_edit_lost(known, deleted, ME) is lost


@pytest.mark.parametrize(
    ("incoming", "deletion", "lost"),
    [
        ((9, A), Deletion((10, ME), (8, ME)), True),  # deleted here, the edit unseen
        ((8, A), Deletion((10, ME), (8, ME)), False),  # seen when deleted
        ((9, A), Deletion((10, B), (8, B)), False),  # deleted by another computer
        ((9, A), Deletion((10, ME), None), False),  # deleted by an older version
        ((9, A), None, False),
    ],
)
def test_a_change_lost_to_a_deletion_made_here(
    incoming: wire.Stamp, deletion: Deletion | None, lost: bool
) -> None:
    assert merge.lost_here(incoming, deletion, ME) is lost


# -- duplicates ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("one", "other", "dropped"),
    [
        ((1, "aaa"), (2, "bbb"), 2),
        ((2, "aaa"), (1, "bbb"), 1),  # the lower uid stays, whatever the row ids
        ((7, "f00"), (3, "0ff"), 7),
    ],
)
def test_of_two_memories_alike_the_lower_uid_stays(
    one: tuple[int, str], other: tuple[int, str], dropped: int
) -> None:
    assert merge.duplicate_dropped(one, other) == dropped
    assert merge.duplicate_dropped(other, one) == dropped  # whichever is asked first


def test_every_computer_keeps_the_same_duplicate() -> None:
    """Two computers hold the same two memories under other row ids (each gives them in
    arrival order): both keep the same one, so neither deletes the one the other keeps."""
    laptop = {"aaa": 1, "bbb": 2}
    desktop = {"bbb": 1, "aaa": 2}
    kept = []
    for ids in (laptop, desktop):
        dropped = merge.duplicate_dropped((ids["aaa"], "aaa"), (ids["bbb"], "bbb"))
        kept.append(next(uid for uid, rowid in ids.items() if rowid != dropped))
    assert kept == ["aaa", "aaa"]


# -- the wire ----------------------------------------------------------------------------

_HEAD = {"text": "I live in Hangzhou", "kind": "fact", "prev": None}
_VERSION = {
    "action": "created", "actor": "user", "message": None, "text": "I live in Hangzhou",
    "kind": "fact", "importance": 0.5, "pinned": False, "valid_from": None,
    "valid_until": None, "changed_at": "2026-01-01T00:00:00Z", "c": 4, "d": A,
}  # fmt: skip


@pytest.mark.parametrize(
    "line",
    [
        {"k": "memory", "u": "m1", "c": 4, "d": A, "b": _HEAD, "h": [_VERSION]},
        {"k": "memory", "u": "m1", "c": 4, "d": A, "b": _HEAD, "h": []},
        {"k": "memory", "u": "m1", "c": 9, "d": A, "b": None, "p": [4, A]},
        {"k": "memory", "u": "m1", "c": 9, "d": A, "b": None},
        {"k": "conversation", "u": "c1", "c": 2, "d": B, "b": {"title": "t"}},
        {"k": "conversation", "u": "c1", "c": 7, "d": B, "b": None, "p": [6, B]},
        {"k": "message", "u": "x", "c": 3, "d": B, "b": {"conversation": "c1", "used": []}},
        {"k": "memctx", "u": "m1", "c": 5, "d": A, "b": {"context": None}},
        {"k": "setting", "u": "instructions", "c": 1, "d": A, "b": {"value": "be brief"}},
    ],
)
def test_a_record_goes_back_on_the_wire_as_it_came(line: dict[str, Any]) -> None:
    """The same keys in the same order: the bytes older versions write and read."""
    record = wire.from_wire(line)
    assert record is not None
    assert json.dumps(record.to_wire()) == json.dumps(line)


@pytest.mark.parametrize(
    "line",
    [
        None,
        [],
        "memory",
        {},
        {"k": "person", "u": "x", "c": 1, "d": A, "b": {}},  # no such kind
        {"k": "memory", "u": 7, "c": 1, "d": A, "b": {}},  # an id that is not text
        {"k": "memory", "c": 1, "d": A, "b": {}},
        {"k": "memory", "u": "x", "c": "1", "d": A, "b": {}},  # a clock that is not a number
        {"k": "memory", "u": "x", "c": 1.5, "d": A, "b": {}},
        {"k": "memory", "u": "x", "c": 1, "d": None, "b": {}},  # no writer
        {"k": "memory", "u": "x", "c": 1, "d": A, "b": "text"},  # a body that is not one
        {"k": "memory", "u": "x", "c": 1, "d": A, "b": []},
    ],
)
def test_what_is_not_a_record_is_refused(line: object) -> None:
    assert wire.from_wire(line) is None


@pytest.mark.parametrize(
    ("line", "versions", "prev"),
    [
        # versions that are not ones are left out, the rest kept
        ({"h": [_VERSION, "x", {"c": "4"}, {"text": "no clock"}, 5]}, 1, None),
        ({"h": {"c": 4}}, 0, None),  # a history that is not a list
        ({"h": 12}, 0, None),
        # a deletion's "p": a stamp, or not said
        ({"b": None, "p": [4, A]}, 0, (4, A)),
        ({"b": None, "p": json.dumps([4, A])}, 0, (4, A)),  # as the database holds it
        ({"b": None, "p": [4]}, 0, None),
        ({"b": None, "p": ["4", A]}, 0, None),
        ({"b": None, "p": {"c": 4}}, 0, None),
        ({"b": None, "h": [_VERSION]}, 0, None),  # a deletion holds no versions
        ({"p": [4, A]}, 1, None),  # nor is a head a deletion
    ],
)
def test_the_parts_of_a_record_that_do_not_read_are_left_out(
    line: dict[str, Any], versions: int, prev: wire.Stamp | None
) -> None:
    full = {"k": "memory", "u": "m1", "c": 4, "d": A, "b": _HEAD, "h": [_VERSION], **line}
    record = wire.from_wire(full)
    assert record is not None
    assert (len(record.versions), record.prev) == (versions, prev)


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({}, ("edited", "user", None, "", "fact", 0.5, False, None, "")),
        (
            {
                "action": "created",
                "actor": "app",
                "message": "m",
                "text": "t",
                "kind": "goal",
                "importance": 0.25,
                "pinned": 1,
                "valid_until": "2027",
                "changed_at": "now",
            },
            ("created", "app", "m", "t", "goal", 0.25, True, "2027", "now"),
        ),  # fmt: skip
        # what does not fit is its default (the files are hostile)
        (
            {"message": 5, "importance": "much", "valid_until": [1]},
            ("edited", "user", None, "", "fact", 0.5, False, None, ""),
        ),  # fmt: skip
    ],
)
def test_a_version_reads_with_defaults(fields: dict[str, Any], expected: tuple[Any, ...]) -> None:
    v = Version.from_wire({"c": 3, "d": A, **fields})
    assert v is not None
    assert (v.action, v.actor, v.message, v.text, v.kind, v.importance, v.pinned,
            v.valid_until, v.changed_at) == expected  # fmt: skip
    assert v.stamp == (3, A)
