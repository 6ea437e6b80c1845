"""search_tier: the search pipeline (core/search/pipeline.py) as earlier messages and
document passages run it (full text and vectors find candidates, the relevance rule
keeps what is about the query, fusion orders them), run here on the profile's real
conversation and document stores."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_mem.core import textproc
from desktop_mem.core.chat.conversations import ConversationStore
from desktop_mem.core.profile import Profile
from desktop_mem.core.search.pipeline import Pipeline, Weights, search_tier
from desktop_mem.core.search.relevance import MESSAGE_TIER, PASSAGE_TIER
from tests.fakes.ollama_server import FakeOllama

TEXTS = [
    "My sister Anna lives in Lisbon and works as a nurse.",
    "I bought a new bicycle for the commute.",
    "We watched a film about penguins last night.",
    "The dentist appointment is on Friday morning.",
    "I planted tomatoes and basil in the garden.",
]


def _messages(store: ConversationStore, texts: list[str] = TEXTS) -> list[int]:
    conv = store.create("notes")
    ids = store.add_messages(conv.id, [("user", t, None) for t in texts])
    assert store.index_vectors() == len(texts)
    return ids


def _search(store: ConversationStore, query: str, k: int = 3, relevant_only: bool = True, **kw):
    terms = textproc.query_terms(query)
    return search_tier(store, MESSAGE_TIER, query, terms, k, relevant_only, **kw)


def test_a_message_about_the_query_is_kept_with_its_relevance(profile: Profile) -> None:
    ids = _messages(profile.conversations)
    ranked = _search(profile.conversations, "I planted tomatoes and basil in the garden")
    assert [i for i, _, _ in ranked.hits] == [ids[4]]
    (_, score, relevance) = ranked.hits[0]
    assert score == pytest.approx(1.0) and relevance is not None and relevance > 4
    assert ids[4] in ranked.keyword and ids[4] in ranked.semantic


def test_an_unrelated_query_keeps_nothing_though_neighbours_exist(profile: Profile) -> None:
    _messages(profile.conversations)
    ranked = _search(profile.conversations, "xylophone quantum chromodynamics")
    assert ranked.semantic  # the nearest messages were found by meaning...
    assert ranked.hits == []  # ...and none of them is about the query


def test_without_the_relevance_rule_the_k_best_come_back_best_first(profile: Profile) -> None:
    ids = _messages(profile.conversations)
    ranked = _search(profile.conversations, "tomatoes garden", k=3, relevant_only=False)
    assert len(ranked.hits) == 3 and ranked.hits[0][0] == ids[4]
    scores = [s for _, s, _ in ranked.hits]
    assert scores == sorted(scores, reverse=True)
    assert all(relevance is None for _, _, relevance in ranked.hits)  # nothing was judged


def test_a_left_out_message_never_comes_back_even_as_the_best_match(profile: Profile) -> None:
    ids = _messages(profile.conversations)
    asked: list[list[int]] = []

    def leave_out(candidates: list[int]) -> set[int]:
        asked.append(candidates)
        return {ids[4]}

    ranked = _search(profile.conversations, "tomatoes garden", relevant_only=False,
                     leave_out=leave_out)  # fmt: skip
    assert ids[4] in asked[0]  # it was a candidate...
    assert ids[4] not in [i for i, _, _ in ranked.hits]  # ...and was dropped before ranking
    assert ids[4] not in ranked.keyword and ids[4] not in ranked.semantic


def test_with_the_model_server_down_keyword_matches_come_back_with_a_warning(
    profile: Profile, fake_ollama: FakeOllama
) -> None:
    ids = _messages(profile.conversations)
    fake_ollama.fail_next(500, paths=("/api/embed",))
    ranked = _search(profile.conversations, "the bicycle commute", relevant_only=False)
    assert ranked.semantic == {} and ranked.keyword
    assert ranked.hits[0][0] == ids[1]
    assert ranked.warnings and "keyword matches only" in ranked.warnings[0]


def test_an_empty_store_finds_nothing_and_asks_the_model_nothing(
    profile: Profile, fake_ollama: FakeOllama
) -> None:
    before = len(fake_ollama.embed_inputs())
    ranked = _search(profile.conversations, "tomatoes garden", relevant_only=False)
    assert ranked.hits == [] and ranked.warnings == []
    assert len(fake_ollama.embed_inputs()) == before  # no vectors: no query embedding


def test_document_passages_go_through_the_same_search(profile: Profile, tmp_path: Path) -> None:
    note = tmp_path / "garden.md"
    note.write_text(
        "# Garden\n\nI planted tomatoes and basil in the garden.\n\n"
        "# Bikes\n\nThe bicycle needs new brakes before winter.\n",
        "utf-8",
    )
    profile.documents.add(note)
    query = "tomatoes and basil in the garden"
    ranked = search_tier(profile.documents, PASSAGE_TIER, query,
                         textproc.query_terms(query), 3, True)  # fmt: skip
    found = profile.documents.passages([i for i, _, _ in ranked.hits])
    assert [p.text for p in found.values()] == ["I planted tomatoes and basil in the garden."]


def test_asking_parts_are_a_step_of_every_tier_not_only_of_memories(
    profile: Profile, fake_ollama: FakeOllama
) -> None:
    """The pipeline's steps serve every tier: asking parts, which memory search uses,
    run on earlier messages the same way (embedded with the query, each judged)."""
    ids = _messages(profile.conversations)
    store = profile.conversations
    pipeline = Pipeline(store, MESSAGE_TIER, Weights(), store.rule, store.reference)
    query, part = "I'm at the shops. Did I plant tomatoes?", "Did I plant tomatoes?"
    warnings: list[str] = []
    found = pipeline.find(query, textproc.query_terms(query), 3, True, None, warnings,
                          parts=[(part, textproc.query_terms(part))])  # fmt: skip
    asked = [body.get("input") for _, path, body in fake_ollama.requests if path == "/api/embed"]
    assert [query, part] in asked  # embedded in one request
    assert found is not None and len(found.judged) == 2 and warnings == []
    kept = [i for n, i in enumerate(found.ids) if found.keep[n]]
    assert kept == [ids[4]]
    assert found.signals[ids[4]]["match"] in ("strong", "weak")
