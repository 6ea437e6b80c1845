"""Score fusion: each candidate's similarity and BM25, scaled over the candidates,
weighted and summed, by score rather than by rank. Checked on the scores themselves and
on what memory search makes of them."""

from __future__ import annotations

import numpy as np
import pytest

from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.profile import Profile
from desktop_mem.core.search.fusion import fuse, minmax

ALL = np.array([True, True, True])


def test_the_size_of_a_lead_counts_not_only_its_order() -> None:
    # a leads b by far on meaning, b leads a by a hair on keywords: a wins by score (rank
    # fusion, one first place each, would call it a tie)
    sims = np.array([0.90, 0.30, 0.29])
    bm25 = np.array([9.9, 10.0, 0.0])
    scores = fuse(sims, ALL, bm25, 0.6, 0.4, 0.25, embedded=True)
    assert scores[0] > scores[1] > scores[2]


def test_a_candidate_found_by_both_rankers_beats_one_found_by_either_alone() -> None:
    sims = np.array([0.8, 0.8, 0.2])
    bm25 = np.array([5.0, 0.0, 5.0])
    scores = fuse(sims, ALL, bm25, 0.6, 0.4, 0.25, embedded=True)
    assert scores[0] > max(scores[1], scores[2])
    assert scores[0] == pytest.approx(1.0)  # the best on both counts is the top of the scale


def test_close_similarities_are_not_stretched_into_a_big_difference() -> None:
    # three near-equal cosines: scaled by at least the minimum spread, their differences
    # stay small, so the keyword evidence decides
    sims = np.array([0.50, 0.51, 0.52])
    bm25 = np.array([8.0, 0.0, 0.0])
    assert minmax(sims, ALL, 0.25)[2] == pytest.approx(0.08)
    scores = fuse(sims, ALL, bm25, 0.6, 0.4, 0.25, embedded=True)
    assert int(np.argmax(scores)) == 0
    # without the floor the same hair's breadth would be the whole scale
    assert minmax(sims, ALL, 0.0)[2] == pytest.approx(1.0)


def test_a_candidate_without_a_vector_scores_on_its_keywords_only() -> None:
    sims = np.array([0.9, 0.0, 0.4])
    has_vec = np.array([True, False, True])
    bm25 = np.array([0.0, 4.0, 0.0])
    dense = minmax(sims, has_vec, 0.25)
    assert dense[1] == 0.0 and dense[0] == pytest.approx(1.0)
    scores = fuse(sims, has_vec, bm25, 0.6, 0.4, 0.25, embedded=True)
    assert scores[1] == pytest.approx(0.4)


def test_a_query_that_could_not_be_embedded_is_ranked_by_keywords_on_the_full_scale() -> None:
    sims = np.zeros(3)
    none = np.array([False, False, False])
    bm25 = np.array([2.0, 8.0, 4.0])
    scores = fuse(sims, none, bm25, 0.6, 0.4, 0.25, embedded=False)
    assert scores.tolist() == pytest.approx([0.25, 1.0, 0.5])  # not capped at 0.4


def test_no_keyword_match_leaves_meaning_to_decide() -> None:
    sims = np.array([0.2, 0.7, 0.5])
    scores = fuse(sims, ALL, np.zeros(3), 0.6, 0.4, 0.25, embedded=True)
    assert list(np.argsort(-scores)) == [1, 2, 0]


def test_memory_search_reports_a_fused_score_for_each_hit(profile: Profile) -> None:
    profile.memories.add(NewMemory("I grow tomatoes and basil on the balcony"))
    profile.memories.add(NewMemory("My bicycle is blue"))
    hits = profile.search.search("tomatoes basil balcony", relevant_only=False).hits
    assert hits[0].memory.text.startswith("I grow tomatoes")
    assert 0.0 <= hits[-1].score <= hits[0].score
