"""An exact keyword match counts, whatever the embedding model (issue 52, item 5): a rare
word of the question that a memory holds keeps that memory, even where the model cannot
read the language, and a word many memories hold keeps none of them."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from desktop_mem.core.config import Config
from desktop_mem.core.keys.vault import Vault
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.profile import Profile
from desktop_mem.core.search.chance import ChanceLevel
from desktop_mem.core.search.relevance import (
    MEMORY_TIER,
    STRONG,
    Asked,
    Candidates,
    Judgement,
    RelevanceRule,
    judge,
    rare_candidates,
)
from desktop_mem.core.textproc import query_terms
from tests.fakes.ollama_server import FakeOllama

SPREAD = 0.1  # the synthetic chance level's spread: a deviation is about this much cosine
LATIN = frozenset({"other"})  # what all-MiniLM reads


def _unit(rows: np.ndarray) -> np.ndarray:
    return rows / np.linalg.norm(rows, axis=-1, keepdims=True)


def _level(readable: frozenset[str], script: str) -> ChanceLevel:
    """A query's chance level against random reference questions: an item's similarity
    to them is about 0 +- 1/8, and the query's to unrelated text spreads by SPREAD."""
    questions = _unit(np.random.default_rng(7).normal(size=(40, 64)))
    return ChanceLevel(0.0, SPREAD, {"other": (0.0, SPREAD), "cjk": (0.0, SPREAD)}, readable,
                       script, {"other": questions, "cjk": questions})  # fmt: skip


def _verdict(
    profile: Profile, texts: list[str], query: str, rule: RelevanceRule | None = None
) -> tuple[Judgement, list[int]]:
    """The rule's verdict on stored `texts`, each a little below chance for `query` where
    the model reads the pair, judged as all-MiniLM is: Latin script only (the full-text
    search finds those holding a word of the query)."""
    ids = [profile.memories.add(NewMemory(t)).memory.id for t in texts]
    rng = np.random.default_rng(11)
    vectors = {i: _unit(rng.normal(size=64)) for i in ids}
    level = _level(LATIN, "cjk" if any("\u4e00" <= c <= "\u9fff" for c in query) else "other")
    sims = np.full(len(ids), -0.05)
    terms = query_terms(query)
    keyword = [i for i, t in zip(ids, texts, strict=True) if set(terms) & set(query_terms(t))]
    found = Candidates(ids, sims, np.ones(len(ids), dtype=bool), vectors, keyword)
    asked = Asked.of(query, terms, level)
    return judge(profile.db, MEMORY_TIER, rule or RelevanceRule(), asked, found, len(ids)), ids


OTHERS = ["我喜欢吃川菜", "我每周三打羽毛球", "我妹妹在成都上大学", "我的车是白色的",
          "I go climbing on Fridays", "My sister lives in Porto", "I work night shifts"]  # fmt: skip


def test_the_words_that_may_be_rare() -> None:
    """Stop words, small talk's and time words never count, nor a CJK bigram that touches
    a function word, nor a lone character."""
    assert rare_candidates(query_terms("when is my JLPT exam in July?")) == ["jlpt", "exam"]
    assert rare_candidates(query_terms("驾照考试什么时候")) == ["驾照", "照考", "考试", "时候"]
    parents = rare_candidates(query_terms("我爸妈那边几点了"))
    assert "爸妈" in parents and "我爸" not in parents
    assert rare_candidates(query_terms("thanks, hi!")) == []


def test_a_rare_chinese_word_keeps_the_memory_the_model_cannot_read(profile: Profile) -> None:
    """The issue's example: all-MiniLM cannot read Chinese, so the pair is judged by its
    words, and "驾照考试什么时候" holds too few of "我下个月要考驾照"'s bigrams for half
    the query's words. The one it holds, "驾照", no other memory says: it keeps the
    memory, as a match above the bar, and nothing else."""
    texts = ["我下个月要考驾照", *OTHERS]
    for query in ("驾照考试什么时候", "驾照什么时候考？", "驾照"):
        verdict, ids = _verdict(profile, texts, query)
        assert verdict.keep.tolist() == [True] + [False] * len(OTHERS), query
        assert verdict.strength[ids[0]] == STRONG
        profile.memories.delete(ids)


def test_without_rare_words_the_memory_was_not_found(profile: Profile) -> None:
    """The rule before: the words alone had to be half the query's."""
    verdict, _ = _verdict(profile, ["我下个月要考驾照", *OTHERS], "驾照考试什么时候",
                          RelevanceRule(rare_items=0))  # fmt: skip
    assert not verdict.keep.any()


def test_a_word_many_memories_hold_is_not_rare(profile: Profile) -> None:
    """ "喜欢" is said by many of the user's memories: it says nothing of which one is
    meant, and keeps none of them."""
    texts = ["我喜欢吃川菜", "我喜欢看科幻小说", "我喜欢骑自行车", "我每周三打羽毛球",
             "我妹妹在成都上大学", "我的车是白色的", "我养了一只橘猫", "我在银行上班",
             "我早上跑步", "我不吃香菜", "我住在三楼", "我爸妈在绵阳"]  # fmt: skip
    verdict, _ = _verdict(profile, texts, "我喜欢什么样的周末？")
    assert not verdict.keep.any()


def test_a_name_never_seen_holds_a_rare_word_back(profile: Profile) -> None:
    """A question about someone the profile never heard of is not about the memory that
    shares its other word."""
    verdict, _ = _verdict(profile, ["我下个月要考驾照", *OTHERS], "我和Priya的驾照考试")
    assert not verdict.keep.any()


def test_memory_search_finds_the_rare_word_end_to_end(
    home: Path, vault: Vault, fake_ollama: FakeOllama
) -> None:
    """Through the fake model server, as `memory search` runs it, with a model that
    cannot read Chinese (each run of it a direction of its own, as all-MiniLM nearly has
    it): the issue's two searches find "我下个月要考驾照", and a question that shares
    no rare word with any memory gets nothing."""
    fake_ollama.embed_models["fake-latin"] = 256
    fake_ollama.cjk_blind.add("fake-latin")
    config = Config.resolve(home=home, ollama_host=fake_ollama.url, embed_model="fake-latin")
    with Profile.open(config, vault) as prof:
        # The fake's bag of words tells paraphrased probes apart in no script, so the
        # reference would say nothing of scripts: say what it measures for all-MiniLM.
        prof.search.reference._readable["fake-latin"] = LATIN
        for text in ["我下个月要考驾照", "我家有一只柯基，叫豆豆", "我爸妈住在台北", "我喜欢吃川菜",
                     "I passed JLPT N3 last year", "I teach chemistry at a secondary school",
                     "My boys love football and Lego", "I drive a Skoda estate"]:  # fmt: skip
            prof.memories.add(NewMemory(text))
        for query, memory in (("驾照", "我下个月要考驾照"), ("驾照考试什么时候", "我下个月要考驾照"),
                              ("柯基吃什么狗粮？", "我家有一只柯基，叫豆豆")):  # fmt: skip
            assert [h.memory.text for h in prof.search.search(query).hits] == [memory], query
        assert prof.search.search("去哪里买菜比较便宜？").hits == []
