"""Property-based tests (hypothesis; issue 5, item 6): any memory text and any search
query, including FTS5 syntax, control characters, right-to-left text, emoji and mixed
scripts, either works or fails with one clear sentence, never half-way."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from desktop_mem.core.config import Config
from desktop_mem.core.db.vectors import MIN_CANDIDATES, SCAN_CANDIDATES
from desktop_mem.core.errors import DesktopMemError
from desktop_mem.core.keys.vault import Vault
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.profile import Profile
from tests import report

FTS_SYNTAX = st.sampled_from(
    ['"', "*", "NEAR", "NEAR(", "-", "AND", "OR", "NOT", "(", ")", ":", "^", "'"]
)
PIECES = st.one_of(
    st.text(max_size=20),
    FTS_SYNTAX,
    st.sampled_from(
        ["中文", "日本語", "עברית", "العربية", "😀🧠", "\u202e", "\x00", "\t\n", "Hangzhou"]
    ),
    st.just("长" * (1 << 20)),  # 1 MB and more of text
)
TEXTS = st.lists(PIECES, max_size=8).map(" ".join)
SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@pytest.fixture
def seeded(config: Config, vault: Vault) -> Iterator[Profile]:
    """Enough memories to cross every size threshold of the vector index: the exact
    rescoring pool (MIN_CANDIDATES) and the binary-code scan (SCAN_CANDIDATES), so
    generated queries go through the Hamming scan too, not only a brute-force pass."""
    with Profile.open(config, vault) as prof:
        named = ("I live in Hangzhou", "我喜欢喝茶", "NEAR the river", "-5 degrees")
        filler = [f"note {i} about topic {i % 37} and place {i % 11}" for i in range(1_100)]
        prof.memories.add_many([NewMemory(t) for t in (*named, *filler)])
        assert prof.memories.index.count() > SCAN_CANDIDATES > MIN_CANDIDATES
        yield prof


@SETTINGS
@given(query=TEXTS)
def test_any_query_searches_or_says_why(seeded: Profile, query: str) -> None:
    report.add("inputs")
    try:
        result = seeded.search.search(query, k=5)
    except DesktopMemError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    assert len(result.hits) <= 5
    assert all(h.memory.id for h in result.hits)


@SETTINGS
@given(text=TEXTS)
def test_any_memory_text_is_stored_whole_or_refused(seeded: Profile, text: str) -> None:
    report.add("inputs")
    before = seeded.memories.count()
    try:
        stored = seeded.memories.add(NewMemory(text)).memory
    except DesktopMemError as exc:
        assert str(exc) and seeded.memories.count() == before, "nothing stored half-way"
        return
    assert seeded.memories.count() == before + 1
    again = seeded.memories.get(stored.id)
    assert again.text == stored.text and again.text.strip()
    assert seeded.memories.history(stored.id)[0].text == stored.text
