"""Property-based tests (hypothesis; issue 5, item 6) for import files: JSON, Markdown and
CSV built from random parts, then saved in a random encoding, cut short, given NUL bytes,
huge lines or deep nesting. Every file is either imported whole (every memory it holds
is then found) or refused with one clear sentence and nothing stored."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from desktop_mem.core.config import Config
from desktop_mem.core.errors import DesktopMemError, ImportRejected
from desktop_mem.core.keys.vault import Vault
from desktop_mem.core.memory.memories_file import import_file
from desktop_mem.core.memory.store import KINDS, NewMemory
from desktop_mem.core.profile import Profile
from tests import report

WORDS = st.sampled_from(
    ["tea", "Hangzhou", "我喜欢喝茶", "日本語", "עברית", "😀", "NEAR", '"', "*", "-", ",",
     "\t", "\u202e", "\r\n", "#", "- [ ]", "|", "\\", "'", "```"]
)  # fmt: skip
WORDY = st.lists(st.one_of(WORDS, st.text(max_size=12)), min_size=1, max_size=8).map(" ".join)
TEXT = st.one_of(  # mostly ordinary rows, so whole files do get imported
    *[WORDY] * 12,
    st.just(""),
    st.just("x" * 300_000),  # a huge line
    st.just("\x00 hidden"),
)
MEMORY = st.fixed_dictionaries(
    {"text": TEXT},
    optional={
        "kind": st.one_of(st.sampled_from(KINDS), st.sampled_from(KINDS), st.text(max_size=6), st.integers()),
        "pinned": st.one_of(st.booleans(), st.sampled_from(["yes", "no", "maybe", 2])),
        "importance": st.one_of(st.floats(0, 1), st.floats(allow_nan=True), st.text(max_size=4)),
        "valid_until": st.one_of(st.none(), st.sampled_from(["2027-01-01", "tomorrow", "2027-02-30"])),
    },
)  # fmt: skip
JSONISH = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), TEXT),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=5), inner, max_size=4)),
    max_leaves=20,
)  # fmt: skip


def _json_doc(memories: list[Any], wrapped: bool, extra: Any) -> str:
    body: Any = (
        {"format": "desktop-mem/memories", "version": 1, "memories": memories}
        if wrapped
        else memories
    )
    if extra is not None:
        body = [*memories, extra] if not wrapped else {**body, "extra": extra}
    return json.dumps(body, ensure_ascii=False)


def _markdown(memories: list[dict[str, Any]]) -> str:
    lines = ["# Memories", ""]
    for m in memories:
        lines.append(f"- {m['text']}")
    return "\n".join(lines)


def _csv(memories: list[dict[str, Any]]) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf)
    writer.writerow(["text", "kind", "pinned"])
    for m in memories:
        writer.writerow([m["text"], m.get("kind", "fact"), m.get("pinned", "")])
    return buf.getvalue()


@st.composite
def import_files(draw: st.DrawFn) -> tuple[str, bytes]:
    memories = draw(st.lists(MEMORY, max_size=6))
    fmt = draw(st.sampled_from(["json", "md", "csv"]))
    if fmt == "json":
        text = _json_doc(memories, draw(st.booleans()), draw(st.one_of(st.none(), JSONISH)))
        depth = draw(st.sampled_from([0, 0, 0, 50, 5000, 200_000]))
        if depth:  # deep nesting, down to what the JSON parser cannot follow
            text = "[" * depth + text + "]" * depth
    else:
        text = _markdown(memories) if fmt == "md" else _csv(memories)
    encoding = draw(st.sampled_from(["utf-8", "utf-8", "utf-8-sig", "utf-16", "gbk", "latin-1"]))
    raw = text.encode(encoding, errors="replace")
    damage = draw(st.sampled_from(["none", "none", "truncate", "nul", "garbage"]))
    if damage == "truncate" and raw:
        raw = raw[: draw(st.integers(0, len(raw) - 1))]
    elif damage == "nul":
        at = draw(st.integers(0, len(raw)))
        raw = raw[:at] + b"\x00" + raw[at:]
    elif damage == "garbage":
        raw += draw(st.binary(min_size=1, max_size=40))
    return fmt, raw


SETTINGS = settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                            HealthCheck.too_slow, HealthCheck.data_too_large]
)  # fmt: skip


@pytest.fixture
def store(config: Config, vault: Vault) -> Iterator[Profile]:
    with Profile.open(config, vault) as prof:
        prof.memories.add_many([NewMemory("I already know about tea")])
        yield prof


@SETTINGS
@given(case=import_files())
def test_any_import_file_is_imported_whole_or_refused_with_a_sentence(
    store: Profile, tmp_path: Path, case: tuple[str, bytes]
) -> None:
    fmt, raw = case
    report.add("inputs")
    path = tmp_path / f"import.{fmt}"
    path.write_bytes(raw)
    before = {m.id: m.text for m in store.memories.list()}
    try:
        result = import_file(store.memories, path)
    except DesktopMemError as exc:
        message = str(exc)
        event(f"refused: {type(exc).__name__}")
        assert message.rstrip().endswith(".") and "Traceback" not in message, message
        if isinstance(exc, ImportRejected):
            assert all(isinstance(line, int) for line, _ in exc.problems)
        after = {m.id: m.text for m in store.memories.list()}
        assert after == before, "a refused import stored nothing"
        return
    event("imported" if result.imported else "imported nothing new")
    after = store.memories.list()
    assert len(after) == len(before) + result.imported
    new = [m for m in after if m.id not in before]
    assert sorted(m.id for m in new) == sorted(result.ids)
    for m in new:
        assert m.text.strip() and "\x00" not in m.text
    assert store.memories.index.count() == store.memories.count(), "every import is indexed"
