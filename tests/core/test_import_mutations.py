"""Property-based (hypothesis): valid exports of every shape (tests/exports.py), mutated
at random (a value anywhere replaced by one of another type, a key dropped, a parent
pointed elsewhere so branches loop, an element repeated, the text cut, a byte that is
not UTF-8, a broken character, nesting past what the parser follows), then looked at
and imported. Whatever the mutation: no traceback (only the one-sentence errors), no
hang (the import runs under a bound on the Python calls it may make, not on time),
and nothing half-imported (a refused file leaves the profile as it was; an accepted
one adds exactly what its survey counted)."""

from __future__ import annotations

import json
import sys
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from desktop_mem.core.chat.importing import Importer
from desktop_mem.core.errors import DesktopMemError
from desktop_mem.core.profile import Profile
from tests import exports, report

STEPS = 2_000_000  # Python calls one import of these small files may make


class Unbounded(Exception):
    """The import went on past its bound: a loop."""


def bounded(fn: Callable[[], Any], limit: int = STEPS) -> Any:
    """`fn()`, stopped with Unbounded once it has made `limit` Python calls."""
    steps = 0

    def tracer(frame: FrameType, why: str, arg: Any) -> None:
        nonlocal steps
        steps += 1
        if steps > limit:
            raise Unbounded(f"more than {limit:,} calls")

    old = sys.gettrace()
    sys.settrace(tracer)
    try:
        return fn()
    finally:
        sys.settrace(old)


def calls_of(fn: Callable[[], Any]) -> tuple[Any, int]:
    """`fn()` and the number of Python calls it made."""
    steps = 0

    def tracer(frame: FrameType, why: str, arg: Any) -> None:
        nonlocal steps
        steps += 1

    old = sys.gettrace()
    sys.settrace(tracer)
    try:
        return fn(), steps
    finally:
        sys.settrace(old)


SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=False),
    st.text(max_size=8), st.sampled_from(["user", "assistant", "human", "text", "root", ""]),
)  # fmt: skip
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)


def _paths(value: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield at
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*at, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*at, i))


def _parent_of(data: Any, path: tuple[Any, ...]) -> Any:
    for part in path[:-1]:
        data = data[part]
    return data


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, dict[str, bytes]]:
    """(file name, {member: bytes}): one file, or the members of a zip."""
    shape = draw(st.sampled_from(["chatgpt", "claude", "split", "claude_zip", "memories"]))
    if shape == "chatgpt":
        files: dict[str, Any] = {
            "conversations.json": [
                exports.chatgpt_conversation(n, exports.ABOUT if n == 0 else "") for n in range(3)
            ]
        }
    elif shape == "claude":
        files = {"conversations.json": [exports.claude_conversation(n) for n in range(3)]}
    elif shape == "split":
        files = dict(exports.chatgpt_split(4))
    elif shape == "claude_zip":
        files = {
            "conversations.json": [exports.claude_conversation(n) for n in range(2)],
            "memories.json": [{"conversations_memory": exports.CLAUDE_MEMORY}],
        }
    else:
        files = {"memories.json": {"results": [{"memory": "Likes tea", "created_at": 1}]}}
    for _ in range(draw(st.integers(1, 4))):
        member = draw(st.sampled_from(sorted(files)))
        data = files[member]
        paths = [p for p in _paths(data) if p]
        if not paths:
            continue
        path = draw(st.sampled_from(paths))
        parent = _parent_of(data, path)
        how = draw(st.sampled_from(["value", "value", "drop", "repoint", "repeat"]))
        if how == "value":
            parent[path[-1]] = draw(VALUES)
        elif how == "drop":
            parent.pop(path[-1])
        elif how == "repoint":  # a parent pointed at any node, its own child included
            keys = [p[-1] for p in paths if isinstance(p[-1], str)]
            # (a file of lists alone names no node: a value instead)
            parent[path[-1]] = draw(st.sampled_from(keys) if keys else VALUES)
        elif isinstance(parent, list):
            parent.insert(int(path[-1]), parent[path[-1]])
    raw = {m: json.dumps(d).encode() for m, d in files.items()}
    damage = draw(st.sampled_from(["none"] * 6 + ["cut", "byte", "surrogate", "deep"]))
    member = draw(st.sampled_from(sorted(raw)))
    text = raw[member]
    at = draw(st.integers(0, max(len(text) - 1, 0)))
    if damage == "cut":
        text = text[:at]
    elif damage == "byte":
        text = text[:at] + b"\xff" + text[at:]
    elif damage == "surrogate":
        text = text.replace(b'"Answer', b'"\\udc00Answer', 1)
    elif damage == "deep":
        text = text.replace(b"[", b"[" + b"[" * 50_000 + b"]" * 50_000 + b",", 1)
    raw[member] = text
    event(f"{shape} {damage}")
    if len(raw) == 1 and shape != "split":
        return next(iter(raw)), raw
    return "export.zip", raw


def _write(folder: Path, name: str, members: dict[str, bytes]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    if name.endswith(".zip"):
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
            for member, data in members.items():
                z.writestr(member, data)
    else:
        path.write_bytes(members[name])
    return path


def _held(profile: Profile) -> tuple[int, int, int]:
    db = profile.db
    return (
        db.query("SELECT count(*) FROM conversations")[0][0],
        db.query("SELECT count(*) FROM messages")[0][0],
        db.query("SELECT count(*) FROM proposals")[0][0],
    )


@pytest.fixture
def importer(profile: Profile) -> Importer:
    return Importer(profile.db, profile.conversations, profile.proposals)


@settings(
    max_examples=150,
    deadline=None,
    derandomize=True,  # the same examples on every run: a failure in CI replays here
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                           HealthCheck.data_too_large],
)  # fmt: skip
@given(case=mutated(), n=st.integers(0, 10**9))
def test_a_mutated_export_is_imported_whole_or_refused_in_a_sentence(
    importer: Importer, profile: Profile, tmp_path: Path, case: tuple[str, dict[str, bytes]],
    n: int,
) -> None:  # fmt: skip
    name, members = case
    path = _write(tmp_path / str(n), name, members)
    report.add("inputs")
    before = _held(profile)
    try:
        survey = bounded(lambda: importer.survey(path))
        done = bounded(lambda: importer.run(path))
    except DesktopMemError as exc:
        message = str(exc)
        assert message.endswith(".") and "\n" not in message, message
        assert _held(profile) == before, "a refused file left something behind"
        event("refused")
        return
    after = _held(profile)
    assert after[0] - before[0] == len(done.conversation_ids)
    assert after[1] - before[1] == len(done.message_ids)
    # all the survey counted (two copies of one conversation without an id: stored once)
    assert done.conversations + done.already - survey.already == survey.conversations
    event("imported")
