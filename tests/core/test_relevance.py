"""The relevance rule and the two tiers of the read path: what is unrelated stays out,
from the first memory on; what is related comes in, from memories and past messages."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from types import SimpleNamespace

import numpy as np
import pytest

from desktop_mem.core.chat.context import Budget, ContextBuilder, TokenCounter
from desktop_mem.core.chat.conversations import ConversationStore
from desktop_mem.core.chat.session import ChatSession
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.models.llm import OllamaChat
from desktop_mem.core.profile import Profile
from desktop_mem.core.search.hybrid import HybridSearch
from desktop_mem.core.search.relevance import RelevanceRule, chance_level
from desktop_mem.core.settings import Settings
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
    assert [h.memory.text for h in hits] == ["I am allergic to peanuts"]
    assert hits[0].signals["relevance"] > 0
    assert [h.memory.text for h in five.search.search("跑步").hits] == [FIVE[3]]


def test_the_bar_grows_slowly_with_the_store_and_with_unknown_words() -> None:
    rule = RelevanceRule()
    assert rule.threshold(10) == rule.threshold(1_000) == rule.z
    assert rule.z < rule.threshold(100_000) < rule.z + 1.5
    # words the profile has never seen raise the bar once it has seen enough text
    assert rule.bar(100, 0.5, 10) < rule.bar(100, 0.5, 10_000)
    assert rule.bar(100, 0.0, 10_000) == rule.threshold(100)
    # a keyword match lowers it, never below the floor
    assert rule.passes(3.5, rule.z, 1.0) and not rule.passes(1.9, 0.0, 1.0)


def test_a_memory_is_as_near_the_query_as_the_message_it_was_learned_from(
    profile: Profile,
) -> None:
    """A memory is a one-line summary; the question may ask in the words the user said
    it in. Without the message, the same summary is not found."""
    convs = ConversationStore(profile.db, profile.embedder, profile.search.reference)
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
    """A word the profile has never seen ("still") raises each tier's bar until some
    item clears it. The past message does, so the query is about something the user
    talked about, and the memory tier is judged by the ordinary bar."""
    rule = RelevanceRule(known_words_at=1)  # the unknown-word penalty at full weight now
    convs = ConversationStore(profile.db, profile.embedder, profile.search.reference, rule)
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
    assert [u.memory_id for u in plan.used] == [known.id]
    nothing = builder.build("Is the xylophone quantum still?", [], Budget())
    assert nothing.used == [] and nothing.recalled == []


def test_a_named_month_counts_for_what_was_said_in_it(profile: Profile) -> None:
    """The question's date words are answered by when an item is dated, as its other
    words are by the text: they lower the bar of an item of that month only."""
    profile.memories.add(
        NewMemory("Took a job at the bakery on Elm Street", valid_from="2023-03-01")
    )
    october = profile.memories.add(
        NewMemory("Took a job at the bakery near the station", valid_from="2023-10-05")
    ).memory
    profile.memories.add(NewMemory("Plays the cello", valid_from="2023-10-06"))
    hits = profile.search.search("Which job at the bakery did I take in October 2023?").hits
    assert [h.memory.id for h in hits] == [october.id]
    assert hits[0].signals["terms"] == 0.8, "job, bakery and the month's two words"
    assert profile.search.search("Which job at the bakery did I take in May 2021?").hits == [], (
        "neither is from then: without the date, neither shares enough"
    )


def test_chance_level_ignores_a_reference_sentence_on_the_same_topic() -> None:
    sims = np.random.default_rng(1).normal(0.05, 0.04, 200)
    sims[7] = 0.95  # "I'm allergic to cats" in the reference, for a question about cats
    level = chance_level(sims)
    assert abs(level.center - 0.05) < 0.01 and level.z(0.95) > 15


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
        return [m.id for m, _ in builder.recall(question, [], budget, None, in_block)[0]]

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
    Settings(profile.db).set("use_memory", False)
    off = ChatSession(profile, OllamaChat(fake_ollama.url))
    result = off.send(question)
    assert result.used == [] and result.recalled == []
    assert "\n<past_messages>\n" not in fake_ollama.last_prompt()
    off.close()
    Settings(profile.db).set("use_memory", True)
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
    store = ConversationStore(profile.db, profile.embedder)
    store.delete(session.conversation_id)
    assert profile.db.query("SELECT count(*) FROM message_recalls")[0][0] == 0
    assert store.message(result.answer_id).recalled == []
    assert set(store.index.vectors(gone)) == set(), "their vectors went too"
    assert store.index.count() == len(later.messages())
    later.close()


def test_a_bad_setting_value_is_refused(profile: Profile) -> None:
    from desktop_mem.core.errors import DesktopMemError, InvalidInput

    with pytest.raises(InvalidInput, match="true or false"):
        Settings(profile.db).set("auto_memory", "maybe")
    with pytest.raises(InvalidInput, match="true or false"):
        Settings(profile.db).set("auto_memory", "treu")
    assert Settings(profile.db).get("auto_memory") is True
    settings = Settings(profile.db)
    for key, bad, said in [
        ("context_tokens", "12", "from 256"),
        ("context_tokens", "lots", "whole number"),
        ("context_tokens", 3.5, "whole number"),
        ("backup_keep", 400, "from 1 to 365"),
        ("mcp_unregistered_level", "write", "not a permission"),
    ]:
        with pytest.raises(DesktopMemError, match=said):
            settings.set(key, bad)
    assert settings.all() == Settings(profile.db).all() and settings.get("context_tokens") == 8192
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
    Settings(profile.db).set("sleep_consolidation", False)
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
    from desktop_mem.core.search.relevance import _median

    for n in (1, 2, 7, 160, 161):
        x = np.random.default_rng(n).normal(size=n)
        assert _median(x) == pytest.approx(float(np.median(x)), abs=1e-12)


def _topic_sims(english: float, chinese: float, seed: int = 3) -> np.ndarray:
    """A query's similarities to the everyday reference topics, by the topics' script."""
    from desktop_mem.core.search.reference import TOPICS
    from desktop_mem.core.textproc import script

    rng = np.random.default_rng(seed)
    centre = np.array([chinese if script(t) == "cjk" else english for t in TOPICS])
    return centre + rng.normal(0, 0.01, len(TOPICS))


def test_an_item_is_compared_with_unrelated_text_in_its_own_script() -> None:
    """A multilingual model finds any two Chinese texts closer than a Chinese and an
    English one: a Chinese memory is judged against the Chinese reference sentences, an
    English one against the English ones, and the gap between the languages is not
    taken for spread."""
    from desktop_mem.core.search.reference import REFERENCE_SENTENCES, TOPICS
    from desktop_mem.core.search.relevance import Reference

    sims = np.zeros(len(REFERENCE_SENTENCES))
    sims[: len(TOPICS)] = _topic_sims(english=0.70, chinese=0.84)
    level = Reference._level(sims, "cjk")
    assert level.center == pytest.approx(0.84, abs=0.005)
    assert level.z(0.90, "cjk") == pytest.approx(6, abs=1.5)  # relevant
    assert level.z(0.76, "other") == pytest.approx(6, abs=1.5)  # relevant, in English
    assert level.z(0.86, "cjk") < 3  # just another Chinese sentence
    # one level for both languages: another Chinese sentence would look relevant
    assert chance_level(sims[: len(TOPICS)]).z(0.86) > 3.5
    # a model that cannot read Chinese sees Chinese sentences as all alike: their narrow
    # spread does not make a Chinese text look relevant to an English question
    english = Reference._level(sims, "other")
    english.by_script["cjk"] = (0.84, 0.001)
    english.readable = frozenset({"other"})
    assert english.z(0.86, "cjk") < 3


def test_unknown_words_chinese_by_character_dates_not_at_all(profile: Profile) -> None:
    from desktop_mem.core.search.relevance import unknown_share
    from desktop_mem.core.textproc import query_terms

    for text in ("我对花生过敏", "I went hiking with my brother"):
        profile.memories.add(NewMemory(text))
    db = profile.db
    # 我对 and 过敏 are known, so only 芒 and 果 are unknown: 2 of the 5 characters
    # that are not function words (我 is one); by bigram it would be 3 of 5, for 对芒
    # and 果过 straddle two words
    assert unknown_share(db, query_terms("我对芒果过敏")) == pytest.approx(2 / 5)
    # question words and particles say nothing about the subject, as English stop
    # words do not: "what am I allergic to" asks about something known
    assert unknown_share(db, query_terms("我对什么过敏？")) == 0.0
    assert unknown_share(db, query_terms("what did I do with my brother?")) == 0.0
    # a date is answered by when things were said, not by the texts' words
    assert unknown_share(db, query_terms("hiking on 16 August, 2023")) == 0.0
    assert unknown_share(db, query_terms("hiking with my cousin")) == pytest.approx(1 / 2)


def test_unknown_words_raise_the_bar_of_the_query_not_of_each_item(profile: Profile) -> None:
    """Once one memory clears the bar raised by the query's unknown words, the others
    are judged by the ordinary bar: the unknown word was a paraphrase."""
    from desktop_mem.core.search.relevance import ChanceLevel, judge
    from desktop_mem.core.textproc import query_terms

    ids = [profile.memories.add(NewMemory(t)).memory.id for t in ("running club", "running shoes")]
    terms = query_terms("running zorblat")  # one word of two never seen
    rule = RelevanceRule(known_words_at=1)  # the penalty in full from the first text
    level = ChanceLevel(0.0, 0.1)
    has_vec = np.ones(2, dtype=bool)

    def kept(best: float) -> list[bool]:
        sims = np.array([best, 0.55])  # 5.5 deviations: over the ordinary bar (z)
        return judge(profile.db, "memories_fts", rule, level, terms, ids, sims, has_vec,
                     set(), len(ids)).keep.tolist()  # fmt: skip

    raised = rule.z + rule.unknown_penalty / 2
    assert rule.z < 5.5 < raised < 10
    assert kept(1.00) == [True, True]  # 10 deviations: clears the raised bar
    assert kept((raised - 0.5) / 10) == [False, False]


def test_words_of_one_language_are_not_unknown_to_an_item_in_another(profile: Profile) -> None:
    """A bilingual user asks in English about what they said in Chinese: the question's
    words are all new to the profile, but the memory could not have used them. It
    meets the ordinary bar, where the model reads both scripts; where it cannot read
    Chinese, it cannot match across them, and the raised bar stays. So it does for
    past messages, which hold greetings too: "早上好" would find "Good morning!"."""
    from desktop_mem.core.chat.conversations import ConversationStore
    from desktop_mem.core.search.relevance import ChanceLevel, judge
    from desktop_mem.core.textproc import query_terms

    memory = profile.memories.add(NewMemory("我对花生严重过敏。")).memory.id
    convs = ConversationStore(profile.db, profile.embedder)
    message = convs.add_message(convs.create("午饭").id, "user", "我对花生严重过敏。").id
    terms = query_terms("which food am I allergic to")  # none of these words is known
    rule = RelevanceRule(known_words_at=1)
    sims = np.array([0.55])  # 5.5 deviations: over the ordinary bar, under the raised one
    assert rule.z < 5.5 < rule.z + rule.unknown_penalty * 0.5

    def kept(readable: set[str], tier: str = "memories_fts") -> bool:
        level = ChanceLevel(0.0, 0.1, by_script={"cjk": (0.0, 0.1)}, readable=frozenset(readable))
        item = memory if tier == "memories_fts" else message
        verdict = judge(profile.db, tier, rule, level, terms, [item], sims,
                        np.ones(1, dtype=bool), set(), 2)  # fmt: skip
        return bool(verdict.keep[0])

    assert kept({"other", "cjk"})
    assert not kept({"other"})
    assert not kept({"other", "cjk"}, "messages_fts")


def test_a_model_reads_the_scripts_in_which_it_tells_the_probe_answers_apart() -> None:
    from desktop_mem.core.search.reference import PROBES, REFERENCE_SENTENCES, SMALL_TALK, TOPICS
    from desktop_mem.core.search.relevance import Reference
    from desktop_mem.core.textproc import script

    rng = np.random.default_rng(0)
    dim = 512
    vecs = rng.normal(size=(len(REFERENCE_SENTENCES), dim))
    start = len(TOPICS) + len(SMALL_TALK)
    for n, (question, _) in enumerate(PROBES):
        if script(question) == "other":  # reads English: each answer near its question
            vecs[start + len(PROBES) + n] = vecs[start + n] + 0.5 * rng.normal(size=dim)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    ref = Reference(None)
    ref.vectors = lambda embedder: vecs.astype(np.float32)  # type: ignore[method-assign]
    assert ref.readable(SimpleNamespace(model="m")) == frozenset({"other"})


def test_small_talk_is_as_near_a_greeting_as_a_relevant_item_must_be() -> None:
    """The bar for "this is small talk" is the rule's own: a model whose matches stand
    fewer deviations above chance (multilingual-e5 sees "what can you do?" 4.9 above
    chance from "who are you?") still recognises a greeting."""
    from desktop_mem.core.search.relevance import ChanceLevel

    terms = ["can", "do"]
    level = ChanceLevel(0.0, 0.1, talk=4.5, topic=2.0)
    assert level.is_small_talk(terms, bar=4.0)
    assert not level.is_small_talk(terms, bar=5.0)  # a stricter rule: not near enough
    level.topic = 3.0  # about as near an everyday topic: it may have something to say
    assert not level.is_small_talk(terms, bar=4.0)
    long = ChanceLevel(0.0, 0.1, talk=9.0, topic=0.0)
    assert not long.is_small_talk(["thanks", "for", "help", "tax", "forms"], bar=4.0)
