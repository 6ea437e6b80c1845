"""The relevance rule and the two tiers of the read path: what is unrelated stays out,
from the first memory on; what is related comes in, from memories and past messages."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from desktop_mem.core.chat.conversations import ConversationStore
from desktop_mem.core.chat.read_path import Budget, ContextBuilder, TokenCounter
from desktop_mem.core.chat.session import ChatSession
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.models.llm import OllamaChat
from desktop_mem.core.profile import Profile
from desktop_mem.core.search.chance import robust, robust_rows
from desktop_mem.core.search.hybrid import HybridSearch
from desktop_mem.core.search.relevance import RelevanceRule
from tests.fakes.ollama_server import FakeOllama

FIVE = [
    "I am allergic to peanuts",
    "My sister Lin lives in Chengdu",
    "I work night shifts as a nurse",
    "我喜欢跑步，每周跑三次",
    "My cat Mochi is eleven years old",
]
UNRELATED = ["hi", "你好", "thanks, that's all", "xylophone quantum", "good night"]


@pytest.fixture
def five(profile: Profile) -> Profile:
    for text in FIVE:
        profile.memories.add(NewMemory(text))
    return profile


@pytest.fixture
def session(profile: Profile, fake_ollama: FakeOllama) -> Iterator[ChatSession]:
    s = ChatSession(profile, OllamaChat(fake_ollama.url))
    yield s
    s.close()


def test_a_single_memory_is_found_and_unrelated_queries_find_nothing(profile: Profile) -> None:
    profile.memories.add(NewMemory("My cat Mochi is eleven years old"))
    assert [h.memory.text for h in profile.search.search("how old is my cat Mochi").hits] == [
        "My cat Mochi is eleven years old"
    ]
    for query in UNRELATED:
        assert profile.search.search(query).hits == [], query


def test_unrelated_queries_find_nothing_but_all_lists_everything(five: Profile) -> None:
    for query in UNRELATED:
        assert five.search.search(query).hits == [], query
        ranked = five.search.search(query, k=10, relevant_only=False).hits
        assert len(ranked) == len(FIVE), "--all still lists everything, ranked"
    hits = five.search.search("peanut allergy").hits
    # first, and the only one in full; the fake's random directions may put another
    # within the margin of the best, as a weaker match
    assert hits[0].memory.text == "I am allergic to peanuts"
    assert len(hits) <= 2
    assert hits[0].signals["relevance"] > 0
    assert [h.memory.text for h in five.search.search("跑步").hits] == [FIVE[3]]


def test_the_bar_grows_slowly_with_the_store_and_with_unknown_names() -> None:
    rule = RelevanceRule()
    assert rule.threshold(2) == rule.threshold(rule.base_candidates) == rule.z
    assert rule.z < rule.threshold(1_000) < rule.threshold(1_000_000) < rule.threshold(1_000) + 1.5
    # a name the profile has never seen raises the gate at once, whatever the store's size
    assert rule.bar(100, (0.5, 1), 10) == rule.threshold(100) + rule.name_penalty
    assert rule.bar(100, (0.5, 2), 10) == rule.bar(100, (0.5, 1), 10)
    # other new words count only as the profile grows, and only where the rule says so
    assert rule.bar(100, (0.5, 0), 10_000) == rule.threshold(100)
    words = RelevanceRule(unknown_penalty=4.0)
    assert words.bar(100, (0.5, 0), 10) < words.bar(100, (0.5, 0), 10_000)
    # a keyword match lowers it, never below the floor
    assert rule.passes(rule.z - 1, rule.z, 1.0) and not rule.passes(rule.z_floor - 0.1, 0.0, 1.0)


def test_a_memory_is_as_near_the_query_as_the_message_it_was_learned_from(
    profile: Profile,
) -> None:
    """A memory is a one-line summary; the question may ask in the words the user said
    it in. Without the message, the same summary is not found."""
    convs = ConversationStore(
        profile.db, profile.embedder, profile.search.reference, events=profile.events
    )
    said = convs.add_message(
        convs.create("trip").id, "user", "We hiked the Tiger Leaping Gorge trail last weekend"
    )
    convs.index_vectors()
    learned = profile.memories.add(
        NewMemory("Enjoys the outdoors", source="extractor", source_message_id=said.id)
    ).memory
    profile.memories.add(NewMemory("Likes being outdoors"))
    hits = profile.search.search("how was the Tiger Leaping Gorge hike?").hits
    assert [h.memory.id for h in hits] == [learned.id]
    signals = hits[0].signals
    assert signals["source"]["similarity"] > signals["vector"]["similarity"]
    assert profile.search.search("hi").hits == []


def test_a_tier_that_knows_the_query_opens_the_other(profile: Profile) -> None:
    """Unknown words (here counted, with `unknown_penalty`: "still") raise each tier's
    gate until some item clears it. The past message does, so the query is about
    something the user talked about, and the memory tier is judged by the ordinary
    bar."""
    rule = RelevanceRule(unknown_penalty=20.0, known_words_at=1)
    convs = ConversationStore(
        profile.db, profile.embedder, profile.search.reference, rule, events=profile.events
    )
    said = convs.add_message(convs.create("music").id, "user", "My cello teacher Okafor retired")
    convs.index_vectors()
    known = profile.memories.add(NewMemory("Has a cello teacher")).memory
    profile.memories.add(NewMemory("Plays the cello"))
    search = HybridSearch(profile.memories, rule=rule, reference=profile.search.reference)
    builder = ContextBuilder(profile.memories, search, TokenCounter(), convs)
    question = "Is Okafor my cello teacher still?"
    assert search.search(question).hits == [], "alone, the memory tier is shut by 'still'"
    plan = builder.build(question, [], Budget())
    assert [r.message_id for r in plan.recalled] == [said.id]
    assert [u.memory_id for u in plan.used][0] == known.id, "the memory the gate held back"
    nothing = builder.build("Is the xylophone quantum still?", [], Budget())
    assert nothing.used == [] and nothing.recalled == []


def test_a_named_month_counts_for_what_was_said_in_it(profile: Profile) -> None:
    """The question's date words are answered by when an item is dated, as its other
    words are by the text: they carry an item of that month over the gate."""
    query = "What did I do in October 2023?"
    below = [(RelevanceRule().threshold(1) - 1) * 0.113]
    march = [NewMemory("Took a job at the bakery", valid_from="2023-03-01")]
    assert _judged(profile, march, below, query).keep.tolist() == [False]
    october = [NewMemory("Took a job at the station", valid_from="2023-10-05")]
    verdict = _judged(profile, october, below, query)
    assert verdict.keep.tolist() == [True]
    assert list(verdict.coverage.values()) == [1.0], "the month and the year"


def test_chance_level_ignores_a_reference_sentence_on_the_same_topic() -> None:
    sims = np.random.default_rng(1).normal(0.05, 0.04, 200)
    sims[7] = 0.95  # "I'm allergic to cats" in the reference, for a question about cats
    center, spread = robust(sims)
    assert abs(center - 0.05) < 0.01 and (0.95 - center) / spread > 15
    rows = np.vstack([sims, sims + 0.5])
    centers, spreads = robust_rows(rows)
    assert centers.tolist() == pytest.approx([center, center + 0.5])
    assert spreads.tolist() == pytest.approx([spread, spread])


def test_hi_gets_empty_blocks_and_no_chips(five: Profile, session: ChatSession) -> None:
    for text in ("hi", "你好", "thanks, that's all"):
        result = session.send(text)
        assert result.used == [] and result.recalled == [], text
        # the blocks go with the message they were looked up for
        assert result.plan is not None and "(none)" in result.plan.messages[-1]["content"]
        assert "<past_messages>" not in result.plan.messages[-1]["content"]


def test_past_messages_are_the_second_tier(
    profile: Profile, fake_ollama: FakeOllama, session: ChatSession
) -> None:
    # learned nothing from this exchange: only the recall tier still knows it
    session.send("My bike is a red Brompton folding bike").learned(10)
    said = session.messages()[0].id
    later = ChatSession(profile, OllamaChat(fake_ollama.url))
    result = later.send("What colour is my Brompton folding bike?")
    assert result.recalled and result.recalled[0].message_id == said
    prompt = fake_ollama.last_prompt()
    assert "\n<past_messages>\n" in prompt
    block = prompt.split("\n<past_messages>\n", 1)[1].split("</past_messages>", 1)[0]
    assert "Brompton folding bike" in block
    assert "[" + session.messages()[0].created_at[:10] + ", you]" in block, "dated and quoted"
    # the answer's record keeps which messages it used
    answer = later.conversations.message(result.answer_id)
    assert answer.recalled[0].message_id == said and answer.recalled[0].text
    # nothing from the conversation itself: its turns are already in the window
    again = later.send("And is my Brompton folding bike red?")
    assert all(r.message_id != result.user_message_id for r in again.recalled)
    later.close()


def test_a_message_a_memory_was_learned_from_is_not_repeated(
    profile: Profile, fake_ollama: FakeOllama, session: ChatSession
) -> None:
    fake_ollama.reply_json({"memories": [{"text": "Rides a red Brompton folding bike"}]})
    session.send("My bike is a red Brompton folding bike").learned(10)
    later = ChatSession(profile, OllamaChat(fake_ollama.url))
    result = later.send("What colour is my Brompton folding bike?")
    assert result.used, "the memory speaks for the message"
    assert result.recalled == [], "neither the message nor its answer is repeated"
    later.close()


def test_a_message_is_hidden_only_by_the_memory_that_speaks_for_it(
    profile: Profile, fake_ollama: FakeOllama, session: ChatSession
) -> None:
    """A memory in the block hides the message it was learned from; one the search did
    not pick does not (the message matched on its own); one changed or expired since
    hides it for good (the memory tier left it out on purpose)."""
    fake_ollama.reply_json({"memories": [{"text": "Rides a red Brompton folding bike"}]})
    session.send("My bike is a red Brompton folding bike").learned(10)
    said = session.messages()[0].id
    memory = profile.memories.list()[0]
    later = ChatSession(profile, OllamaChat(fake_ollama.url))
    builder, budget = later.builder, Budget()
    question = "What colour is my Brompton folding bike?"

    def recalled(in_block: set[int]) -> list[int]:
        return [h.message.id for h in builder.recall(question, [], budget, None, in_block)[0]]

    assert said not in recalled({memory.id})
    assert said in recalled(set()), "a memory left out of the block does not hide it"
    profile.memories.edit(memory.id, text="Rides a blue Brompton folding bike")
    assert said not in recalled(set()), "the memory was corrected since: the message is stale"
    profile.memories.edit(memory.id, text="Rides a red Brompton folding bike")
    profile.memories.invalidate(memory.id, datetime(2020, 1, 1, tzinfo=UTC), "user", "ended")
    assert said not in recalled(set()), "an expired memory's message is not recalled either"
    later.close()


def test_incognito_and_memory_off_leave_both_tiers_out(
    profile: Profile, fake_ollama: FakeOllama, session: ChatSession
) -> None:
    profile.memories.add(NewMemory("Rides a red Brompton folding bike"))
    session.send("My Brompton folding bike is red").learned(10)
    question = "What colour is my Brompton folding bike?"
    incognito = ChatSession(profile, OllamaChat(fake_ollama.url), incognito=True)
    result = incognito.send(question)
    assert result.used == [] and result.recalled == []
    assert "<memories>" not in fake_ollama.last_prompt()
    incognito.close()
    profile.settings.set("use_memory", False)
    off = ChatSession(profile, OllamaChat(fake_ollama.url))
    result = off.send(question)
    assert result.used == [] and result.recalled == []
    assert "\n<past_messages>\n" not in fake_ollama.last_prompt()
    off.close()
    profile.settings.set("use_memory", True)
    on = ChatSession(profile, OllamaChat(fake_ollama.url))
    result = on.send(question)
    assert result.used and result.recalled
    on.close()


def test_deleting_a_conversation_removes_the_record_of_recalling_it(
    profile: Profile, fake_ollama: FakeOllama, session: ChatSession
) -> None:
    session.send("My bike is a red Brompton folding bike").learned(10)
    gone = [m.id for m in session.messages()]
    later = ChatSession(profile, OllamaChat(fake_ollama.url))
    result = later.send("What colour is my Brompton folding bike?")
    result.learned(10)
    assert result.recalled
    store = profile.conversations
    store.delete(session.conversation_id)
    assert profile.db.query("SELECT count(*) FROM message_recalls")[0][0] == 0
    assert store.message(result.answer_id).recalled == []
    assert set(store.index.vectors(gone)) == set(), "their vectors went too"
    assert store.index.count() == len(later.messages())
    later.close()


def test_a_bad_setting_value_is_refused(profile: Profile) -> None:
    from desktop_mem.core.errors import DesktopMemError, InvalidInput

    with pytest.raises(InvalidInput, match="true or false"):
        profile.settings.set("auto_memory", "maybe")
    with pytest.raises(InvalidInput, match="true or false"):
        profile.settings.set("auto_memory", "treu")
    assert profile.settings.get("auto_memory") is True
    settings = profile.settings
    for key, bad, said in [
        ("context_tokens", "12", "from 256"),
        ("context_tokens", "lots", "whole number"),
        ("context_tokens", 3.5, "whole number"),
        ("backup_keep", 400, "from 1 to 365"),
        ("mcp_unregistered_level", "write", "not a permission"),
    ]:
        with pytest.raises(DesktopMemError, match=said):
            settings.set(key, bad)
    assert settings.all() == profile.settings.all() and settings.get("context_tokens") == 8192
    settings.set("auto_memory", "Off")
    settings.set("context_tokens", " 4096 ")
    settings.set("chat_model", "")
    assert settings.get("auto_memory") is False and settings.get("context_tokens") == 4096
    assert settings.get("chat_model") is None


def test_sleep_time_pass_is_due_daily_or_after_new_memories(profile: Profile) -> None:
    from datetime import UTC, datetime, timedelta

    from desktop_mem.core.chat.sleep import SleepSchedule

    schedule = SleepSchedule(profile.db, new_memories=3)
    now = datetime.now(UTC)
    assert not schedule.due(now), "an empty store has nothing to tidy"
    profile.memories.add(NewMemory("I drink green tea"))
    assert schedule.due(now)
    schedule.record(now)
    assert not schedule.due(now), "nothing new since"
    profile.memories.add(NewMemory("I drink black tea"))
    assert not schedule.due(now + timedelta(hours=1)), "at most daily"
    assert schedule.due(now + timedelta(days=1, minutes=1))
    for text in ("I like jazz", "I like rock"):
        profile.memories.add(NewMemory(text))
    assert schedule.due(now + timedelta(hours=1)), "or after enough new memories"
    profile.settings.set("sleep_consolidation", False)
    assert not schedule.due(now + timedelta(days=3)), "the setting turns it off"


def test_sleep_pass_stops_when_asked(profile: Profile, fake_ollama: FakeOllama) -> None:
    from datetime import UTC, datetime

    from desktop_mem.core.chat.extract import Extractor

    for _ in range(2):
        profile.memories.add(NewMemory("My cat Mochi is eleven years old"))
    extractor = Extractor(profile.memories, profile.search, OllamaChat(fake_ollama.url))
    assert extractor.sleep(datetime.now(UTC), should_stop=lambda: True) == []
    merged = extractor.sleep(datetime.now(UTC), should_stop=lambda: False)
    assert [c.action for c in merged] == ["merged"]


def test_the_median_matches_numpys() -> None:
    from desktop_mem.core.search.chance import _median

    for n in (1, 2, 7, 160, 161):
        x = np.random.default_rng(n).normal(size=n)
        assert _median(x) == pytest.approx(float(np.median(x)), abs=1e-12)


def _unit(rows: np.ndarray) -> np.ndarray:
    return rows / np.linalg.norm(rows, axis=-1, keepdims=True)


def _synthetic_level(
    dim: int = 64, readable: frozenset[str] = frozenset({"other", "cjk"}), spread: float = 0.1
) -> Any:
    """A query's chance level with random reference questions: an item's similarities
    to them are about 0 +- 1/sqrt(dim)."""
    from desktop_mem.core.search.chance import ChanceLevel

    questions = _unit(np.random.default_rng(7).normal(size=(40, dim)))
    return ChanceLevel(0.0, spread, {"other": (0.0, spread), "cjk": (0.0, spread)}, readable,
                       "other", {"other": questions, "cjk": questions})  # fmt: skip


def test_an_item_is_measured_against_questions_that_are_not_about_it() -> None:
    """An item near every question (a hub) is not taken for relevant by being as near
    this query as it is to any other; a specific item as near stands out. A pair in a
    script the model cannot read says nothing."""
    level = _synthetic_level(dim=1024, spread=0.02)
    questions = level.questions["other"]
    rng = np.random.default_rng(3)
    specific = _unit(rng.normal(size=1024))
    hub = _unit(questions.mean(axis=0) * 200 + rng.normal(size=1024))
    usual = float(np.median(questions @ hub))
    assert usual > 0.1
    z = level.z(np.array([usual, usual]), np.vstack([specific, hub]), ["other", "other"])
    assert z[0] > 2.5 and abs(z[1]) < 0.5
    english_only = _synthetic_level(dim=1024, readable=frozenset({"other"}))
    z = english_only.z(np.array([0.6, 0.6]), np.vstack([specific, specific]), ["other", "cjk"])
    assert z[0] > 4 and np.isnan(z[1])


def test_unknown_words_chinese_by_character_dates_not_at_all(profile: Profile) -> None:
    from desktop_mem.core.search.words import unknown_share
    from desktop_mem.core.textproc import names, query_terms

    for text in ("我对花生过敏", "I went hiking with my brother"):
        profile.memories.add(NewMemory(text))
    db = profile.db

    def share(query: str) -> float:
        return unknown_share(db, query_terms(query))[0]

    # 我对 and 过敏 are known, so only 芒 and 果 are unknown: 2 of the 5 characters
    # that are not function words (我 is one); by bigram it would be 3 of 5, for 对芒
    # and 果过 straddle two words
    assert share("我对芒果过敏") == pytest.approx(2 / 5)
    # question words and particles say nothing about the subject, as English stop
    # words do not: "what am I allergic to" asks about something known
    assert share("我对什么过敏？") == 0.0
    assert share("what did I do with my brother?") == 0.0
    # a date is answered by when things were said, not by the texts' words
    assert share("hiking on 16 August, 2023") == 0.0
    assert share("hiking with my cousin") == pytest.approx(1 / 2)
    # names are counted apart: a question names what it asks about
    query = "hiking with Zorblat and my brother"
    assert unknown_share(db, query_terms(query), names(query)) == (pytest.approx(1 / 3), 1)


def test_a_name_the_documents_hold_is_known(profile: Profile, tmp_path: Any) -> None:
    """A name only a document passage holds is not unknown: "when does the car need
    its MOT?" asks about what the user's own files say. "OK" is no name."""
    from desktop_mem.core.search.words import unknown_share
    from desktop_mem.core.textproc import names, query_terms

    query = "When does the car need its MOT? Is that OK?"
    assert names(query) == frozenset({"mot"})
    assert unknown_share(profile.db, query_terms(query), names(query))[1] == 1
    (tmp_path / "car.md").write_text("# Yaris\n\nThe MOT is due every March.\n", "utf-8")
    profile.documents.add(tmp_path / "car.md")
    assert unknown_share(profile.db, query_terms(query), names(query))[1] == 0


def test_a_question_naming_what_no_document_holds_needs_more_evidence(
    profile: Profile, tmp_path: Any
) -> None:
    """A how-to question names its subject as the file does: asked of notes on the heat
    pump's filter, "how do I clean the dishwasher filter?" must stand further above
    chance than the same question about the heat pump, by `unsaid_penalty` times the
    share of its words no passage holds."""
    from desktop_mem.core.search.relevance import PASSAGE_TIER, Asked, Candidates, judge
    from desktop_mem.core.textproc import query_terms

    (tmp_path / "heat-pump.md").write_text(
        "# Heat pump\n\nTo clean the filter, lift the front panel and rinse it.\n", "utf-8"
    )
    profile.documents.add(tmp_path / "heat-pump.md")
    ids = [r[0] for r in profile.db.query("SELECT id FROM doc_chunks")]
    rule, level = RelevanceRule(), _synthetic_level()
    vectors = {i: _unit(np.random.default_rng(5).normal(size=64)) for i in ids}
    # a similarity that clears the ordinary gate by a deviation, as both questions do
    sims = np.full(len(ids), (rule.threshold(len(ids)) + 1) * 0.113)

    def kept(query: str) -> list[bool]:
        found = Candidates(ids, sims, np.ones(len(ids), dtype=bool), vectors)
        asked = Asked.of(query, query_terms(query), level)
        return judge(profile.db, PASSAGE_TIER, rule, asked, found, len(ids)).keep.tolist()

    assert any(kept("how do I clean the heat pump filter?"))
    assert not any(kept("how do I clean the dishwasher filter?"))


def test_the_message_being_answered_does_not_make_its_words_known(profile: Profile) -> None:
    """The chat stores the user's message before it reads: its own words are not
    evidence that the profile knows its subject, so the read path judges as search
    does."""
    from desktop_mem.core.search.words import unknown_share
    from desktop_mem.core.textproc import query_terms

    convs = profile.conversations
    asking = convs.create("now").id
    convs.add_message(asking, "user", "Is my zorblat still in the garage?")
    terms = query_terms("zorblat")
    assert unknown_share(profile.db, terms) == (0.0, 0)
    assert unknown_share(profile.db, terms, conversation=asking) == (1.0, 0)
    convs.add_message(convs.create("before").id, "user", "I keep my zorblat in the garage")
    assert unknown_share(profile.db, terms, conversation=asking) == (0.0, 0)


def _judged(profile: Profile, texts: list[Any], sims: list[float], query: str,
            rule: RelevanceRule | None = None, level: Any = None, tier: Any = None) -> Any:  # fmt: skip
    """The rule's verdict on stored `texts` (or NewMemory) whose similarities to
    `query` are `sims`, each memory's vector a random one."""
    from desktop_mem.core.search.relevance import MEMORY_TIER, Asked, Candidates, judge
    from desktop_mem.core.textproc import query_terms

    new = [t if isinstance(t, NewMemory) else NewMemory(t) for t in texts]
    ids = [profile.memories.add(m).memory.id for m in new]
    rng = np.random.default_rng(11)
    vectors = {i: _unit(rng.normal(size=64)) for i in ids}
    level = level or _synthetic_level()
    found = Candidates(ids, np.array(sims), np.ones(len(ids), dtype=bool), vectors)
    asked = Asked.of(query, query_terms(query), level)
    return judge(profile.db, tier or MEMORY_TIER, rule or RelevanceRule(), asked, found, len(ids))


def test_an_unknown_name_raises_the_gate_of_the_query_not_of_each_item(
    profile: Profile,
) -> None:
    """Once one memory clears the gate raised by a name the profile never saw, the
    others are judged by the ordinary bar: the name was a new detail of something
    known."""
    rule = RelevanceRule(best_margin=10.0)
    texts = ["I go to a running club", "My running shoes are worn out"]
    level = _synthetic_level()
    vectors_z = 1 / 0.113  # about: a similarity of 0.1 is 0.9 deviations here
    ordinary, raised = rule.threshold(2), rule.threshold(2) + rule.name_penalty
    sim = (ordinary + 0.5) / vectors_z
    verdict = _judged(profile, texts, [sim, sim], "Does Zorblat come to my running club?",
                      rule, level)  # fmt: skip
    assert verdict.keep.tolist() == [False, False] and verdict.held is not None
    assert verdict.held.tolist() == [True, True], "what the gate without the name keeps"
    verdict = _judged(profile, texts, [(raised + 1) / vectors_z, sim],
                      "Does Zorblat come to my running club?", rule, level)  # fmt: skip
    assert verdict.keep.tolist() == [True, True]
    assert list(verdict.strength.values()) == ["strong", "weak"]


def test_a_name_is_not_unknown_to_an_item_in_another_language(profile: Profile) -> None:
    """A bilingual user asks in English about what they said in Chinese: the memory
    could not have used the question's words, so a memory in the other script meets
    the ordinary bar at the gate. Past messages do not: they hold greetings too, and
    without the words a greeting in one language finds those of the other."""
    from desktop_mem.core.search.relevance import (
        MEMORY_TIER,
        MESSAGE_TIER,
        Asked,
        Candidates,
        judge,
    )
    from desktop_mem.core.textproc import query_terms

    memory = profile.memories.add(NewMemory("我在Harrow工作，做结构工程师")).memory.id
    convs = profile.conversations
    message = convs.add_message(convs.create("工作").id, "user", "我在Harrow工作，做结构工程师").id
    query = "Which firm does Gareth say I work for?"  # Gareth: a name never seen
    level = _synthetic_level()
    vec = {memory: _unit(np.arange(64.0)), message: _unit(np.arange(64.0))}
    sim = np.array([(RelevanceRule().threshold(2) + 0.5) * 0.113])

    def kept(tier: Any, item: int) -> bool:
        found = Candidates([item], sim, np.ones(1, dtype=bool), vec)
        asked = Asked.of(query, query_terms(query), level)
        return bool(judge(profile.db, tier, RelevanceRule(), asked, found, 2).keep[0])

    assert kept(MEMORY_TIER, memory)
    assert not kept(MESSAGE_TIER, message)


def test_a_model_reads_the_scripts_in_which_it_tells_the_probe_answers_apart() -> None:
    from desktop_mem.core.search import chance
    from desktop_mem.core.search.chance import Reference
    from desktop_mem.core.search.sentences import PROBES, REFERENCE_SENTENCES
    from desktop_mem.core.textproc import SCRIPTS, script

    rng = np.random.default_rng(0)
    dim = 512
    vecs = rng.normal(size=(len(REFERENCE_SENTENCES), dim))
    at = chance._PROBE_Q_AT
    for n, (question, _) in enumerate(PROBES):
        if script(question) == "other":  # reads English: each answer near its question
            vecs[at + len(PROBES) + n] = vecs[at + n] + 0.5 * rng.normal(size=dim)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    ref = Reference(None)
    ref.vectors = lambda embedder: vecs.astype(np.float32)  # type: ignore[method-assign]
    assert ref.readable(SimpleNamespace(model="m")) == frozenset({"other"})
    # one that tells them apart nowhere (a toy model) says nothing about scripts
    blind = Reference(None)
    noise = rng.normal(size=vecs.shape)
    blind.vectors = lambda embedder: noise.astype(np.float32)  # type: ignore[method-assign]
    assert blind.readable(SimpleNamespace(model="m")) == frozenset(SCRIPTS)


def test_small_talk_and_questions_about_the_world_get_nothing(profile: Profile) -> None:
    """A query nearer small talk or a question about the world (the reference's
    decoys) than to any item is not about the store; one nearer an item is. Past
    messages hold greetings, which a greeting is near: there a query far nearer the
    decoys than anything people say about their lives gets nothing either. A query of
    small talk's words alone gets nothing anywhere."""
    from desktop_mem.core.search.relevance import MESSAGE_TIER

    level = _synthetic_level()
    texts = ["My line manager is Gareth"]
    sim = [(RelevanceRule().threshold(1) + 2) * 0.113]
    level.personal = 1.0
    level.talk = 2.0  # "who are you?" for "who's my boss?": the memory is nearer
    assert _judged(profile, texts, sim, "who's my boss?", level=level).keep.tolist() == [True]
    level.talk = 9.0  # "thank you very much" for "thanks a lot"
    assert _judged(profile, texts, sim, "thanks a lot", level=level).keep.tolist() == [False]
    level.talk = 4.0
    greeting = [(RelevanceRule().threshold(1) + 6) * 0.113]  # "Hey Mel, how's work?"
    query = "hey, how's the job going?"
    assert _judged(profile, texts, greeting, query, level=level).keep.tolist() == [True]
    verdict = _judged(profile, texts, greeting, query, level=level, tier=MESSAGE_TIER)
    assert verdict.keep.tolist() == [False]
    # a query that names nothing it is about is small talk by its words, however near
    # the model puts it to an item
    said = "hey, how's it going?"
    assert _judged(profile, texts, greeting, said, level=level).keep.tolist() == [False]


def test_a_question_about_the_user_is_not_taken_for_one_about_the_world(
    profile: Profile,
) -> None:
    """A question that speaks of its writer can come nearer a question about the world
    than to the memory answering it; among memories it is still about the store, while
    the same question without "I" or "my", and any question among document passages,
    is one about the world. Small talk stays a decoy either way."""
    from desktop_mem.core.search.relevance import PASSAGE_TIER

    level = _synthetic_level()
    texts = ["I'm allergic to penicillin"]
    sim = [(RelevanceRule().threshold(1) + 1) * 0.113]
    level.personal = 1.0
    level.talk, level.task = 0.5, 6.0  # "which antibiotics are used for pneumonia?"
    asks = "is there an antibiotic I should warn doctors about?"
    assert _judged(profile, texts, sim, asks, level=level).keep.tolist() == [True]
    world = "is there an antibiotic doctors should be warned about?"
    assert _judged(profile, texts, sim, world, level=level).keep.tolist() == [False]
    assert _judged(profile, texts, sim, asks, level=level, tier=PASSAGE_TIER).keep.tolist() == [
        False
    ]
    level.talk = 6.0
    assert _judged(profile, texts, sim, "thanks, I'm good", level=level).keep.tolist() == [False]


def test_each_memory_given_says_why_and_how_sure(profile: Profile, fake_ollama: FakeOllama) -> None:
    """A pinned memory is given as core, one about health on every turn as such; a
    found one that clears the gate by itself as a match, one let in within the margin
    as a weaker match: in the turn's record, in the answer's stored record, and on the
    search hits."""
    core = profile.memories.add(NewMemory("Prefers short answers", pinned=True)).memory
    allergy = profile.memories.add(NewMemory("Allergic to peanuts", pinned=True)).memory
    strong = profile.memories.add(NewMemory("My cat Mochi is eleven years old")).memory
    weak = profile.memories.add(NewMemory("Mochi sleeps on the sofa all day")).memory
    profile.search.rule = RelevanceRule(z=6.0, item_margin=9.0, best_margin=9.0)
    question = "how old is my cat Mochi?"
    hits = {h.memory.id: h for h in profile.search.search(question).hits}
    assert not hits[strong.id].weak and hits[weak.id].weak
    assert hits[strong.id].relevance > 6.0 > hits[weak.id].relevance
    session = ChatSession(profile, OllamaChat(fake_ollama.url))
    result = session.send(question)
    session.close()
    given = {u.memory_id: (u.why, u.weak) for u in result.used}
    assert given == {
        allergy.id: ("always", False),
        core.id: ("core", False),
        strong.id: ("found", False),
        weak.id: ("found", True),
    }
    stored = profile.conversations.message(result.answer_id).used
    assert {u.memory_id: (u.why, u.weak) for u in stored} == given


def test_the_core_block_holds_the_most_important_durable_memories_for_every_message(
    profile: Profile, fake_ollama: FakeOllama
) -> None:
    """Where the user lives or who their partner is never depends on a search: the
    most important facts, people and standing preferences are in every prompt, as
    core, within the core block's budget; an event, or a fact of ordinary importance,
    only when found."""
    home = profile.memories.add(NewMemory("I live in Chorlton", importance=0.9)).memory
    partner = profile.memories.add(NewMemory("My partner is Sam", importance=0.95)).memory
    profile.memories.add(NewMemory("Broke my wrist in 2022", kind="event", importance=0.9))
    profile.memories.add(NewMemory("Likes the colour green", importance=0.5))
    session = ChatSession(profile, OllamaChat(fake_ollama.url))
    result = session.send("which part of the city is my home?")
    core = [u.memory_id for u in result.used if u.why == "core"]
    assert core == [partner.id, home.id]
    assert "I live in Chorlton" in fake_ollama.last_prompt()
    tight = ContextBuilder(profile.memories, profile.search, TokenCounter())
    plan = tight.build("hi", [], Budget(core_tokens=12))
    assert [u.memory_id for u in plan.used] == [partner.id], "the most important first"
    session.close()


def test_an_item_that_clears_the_gate_by_itself_is_kept_beside_a_stronger_one(
    profile: Profile,
) -> None:
    """The margin to the best item limits only what comes in below the gate: "forget my
    sister Ana" must offer both memories about her, not only the nearer one."""
    profile.memories.add(NewMemory("I have a sister called Ana", pinned=True))
    profile.memories.add(NewMemory("My sister Ana lives in Porto"))
    profile.memories.add(NewMemory("Allergic to peanuts"))
    hits = profile.search.search("my sister Ana", k=10).hits
    assert [h.memory.text for h in hits] == [
        "My sister Ana lives in Porto", "I have a sister called Ana"
    ]  # fmt: skip
    assert all(h.signals["match"] == "strong" for h in hits)


def test_the_words_that_keep_an_item_beside_a_stronger_one_are_its_own(profile: Profile) -> None:
    """An item that clears the gate and holds half the query's words is kept however
    far the best stands above it, but only for words of its own: a learned memory keeps
    the answer it followed as its context, which finds it, and does not drag it along."""
    from desktop_mem.core.search.relevance import MEMORY_TIER, Asked, Candidates, judge
    from desktop_mem.core.textproc import query_terms

    answer = "Ana's flat in Porto has a lovely balcony"
    best = profile.memories.add(NewMemory("My sister Ana moved to Porto last spring")).memory.id
    borrowed = profile.memories.add(NewMemory("Wants a balcony", context=answer)).memory.id
    own = profile.memories.add(NewMemory(answer)).memory.id
    ids = [best, borrowed, own]
    vectors = {i: _unit(np.random.default_rng(i).normal(size=64)) for i in ids}
    query = "when did Ana move to Porto"
    found = Candidates(ids, np.array([0.9, 0.3, 0.3]), np.ones(3, bool), vectors, ids)
    verdict = judge(profile.db, MEMORY_TIER, RelevanceRule(),
                    Asked.of(query, query_terms(query), _synthetic_level()), found, 3)  # fmt: skip
    assert verdict.coverage[borrowed] == verdict.coverage[own] > 0.5  # found by the words
    assert list(verdict.keep) == [True, False, True]


def test_an_item_holding_every_word_of_the_query_is_kept_whatever_its_cosine(
    profile: Profile,
) -> None:
    """The fake embedder's directions are random: only the words can find these. A
    query's every word in an item is kept, as a weaker match unless it clears the gate;
    not when the words are stop words or small talk only, nor when only some are there."""
    from desktop_mem.core.search.relevance import MEMORY_TIER, Asked, Candidates, judge
    from desktop_mem.core.textproc import query_terms

    texts = ["We fly to Kyoto in April", "The XR-200 router needs a reset", "OK, thanks, Mel",
             "Nate: Wow, what's it about?"]  # fmt: skip
    said_before = "Joanna: I finished my first screenplay"  # the turn it answers
    ids = [
        profile.memories.add(
            NewMemory(t, context=said_before if t.startswith("Nate") else None)
        ).memory.id
        for t in texts
    ]
    rng = np.random.default_rng(5)
    vectors = {i: _unit(rng.normal(size=64)) for i in ids}
    far = np.full(len(ids), -0.3)  # well below chance for every item

    def kept(query: str) -> list[str]:
        terms = query_terms(query)
        keyword = [i for i, t in zip(ids, texts, strict=True)
                   if any(w in query_terms(f"{t} {said_before}") for w in terms)]  # fmt: skip
        found = Candidates(ids, far, np.ones(len(ids), bool), vectors, keyword)
        verdict = judge(profile.db, MEMORY_TIER, RelevanceRule(),
                        Asked.of(query, terms, _synthetic_level()), found, len(ids))  # fmt: skip
        assert set(verdict.strength.values()) <= {"weak"}
        return [t for t, k in zip(texts, verdict.keep, strict=True) if k]

    assert kept("kyoto") == [texts[0]]
    assert kept("XR-200 reset") == [texts[1]]
    assert kept("kyoto router") == [], "half the words is evidence, not proof"
    assert kept("ok, thanks!") == [], "small talk's words say nothing of what it is about"
    assert kept("april") == [], "a time word alone is a date, judged by when"
    # the words in the turn it answers alone, far below chance: not kept by them
    assert kept("Joanna's first screenplay") == []


def test_a_search_for_one_exact_word_finds_the_memory_and_the_message(profile: Profile) -> None:
    profile.memories.add(NewMemory("We fly to Kyoto to see the temples in April"))
    store = profile.conversations
    said = store.add_message(store.create("Trip").id, "user", "Is Kyoto cold in April?").id
    assert store.index_vectors() == 1  # judged by its vector, as once indexed
    assert [h.memory.text for h in profile.search.search("kyoto").hits] == [
        "We fly to Kyoto to see the temples in April"
    ]
    hits, _ = store.search("kyoto")
    assert [h.message.id for h in hits] == [said]


def test_words_that_say_nothing_of_what_a_query_is_about_are_no_evidence(
    profile: Profile,
) -> None:
    """ "what can you do?" is made of stop words, which most things anyone says hold:
    matching them lifts no item over the gate, as a content word would."""
    from desktop_mem.core.search.relevance import MEMORY_TIER, Asked, Candidates, judge
    from desktop_mem.core.textproc import query_terms

    texts = ["What can you do about a leaking roof", "What can you do with old kayak paddles"]
    ids = [profile.memories.add(NewMemory(t)).memory.id for t in texts]
    rng = np.random.default_rng(9)
    vectors = {i: _unit(rng.normal(size=64)) for i in ids}
    level = _synthetic_level()
    rule = RelevanceRule()
    # 1 deviation below the gate by meaning: a full keyword match would lift it over
    sim = np.full(len(ids), (rule.threshold(len(ids)) - 1) * 0.1 / 0.9)

    def kept(query: str) -> list[bool]:
        terms = query_terms(query)
        found = Candidates(ids, sim, np.ones(len(ids), bool), vectors, ids)
        verdict = judge(profile.db, MEMORY_TIER, rule, Asked.of(query, terms, level), found, 2)
        return verdict.keep.tolist()

    assert kept("what can you do?") == [False, False]
    assert kept("kayak paddles")[1], "content words lift it (and the other comes within the margin)"


def test_a_question_of_stop_words_alone_gets_nothing_a_dated_one_does(profile: Profile) -> None:
    """A question such as "what can you do?" names nothing it is about: a model can put it near anything
    said with "can" or "do" (multilingual-e5 gave it 20 items in long stores), so it
    gets nothing; "what did I do in October 2023?" names the month it asks about."""
    near = [(RelevanceRule().threshold(1) + 8) * 0.113]
    texts = ["I can do a handstand for a minute"]
    assert _judged(profile, texts, near, "what can you do?").keep.tolist() == [False]
    dated = [NewMemory("Took a job at the station", valid_from="2023-10-05")]
    assert _judged(profile, dated, near, "What did I do in October 2023?").keep.tolist() == [True]
