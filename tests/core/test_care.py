"""Health and safety facts: recognised whatever wrote them, given on every turn that is
not small talk, shown and changeable by the user; and a message judged by what it asks,
not by the frame it is asked in."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from desktop_mem.api import MemoryLayer
from desktop_mem.core.chat.read_path import Budget, ContextBuilder, TokenCounter
from desktop_mem.core.chat.session import ChatSession
from desktop_mem.core.memory import care
from desktop_mem.core.memory.care import reading
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.models.llm import OllamaChat
from desktop_mem.core.profile import Profile
from desktop_mem.core.search import asking
from desktop_mem.core.service import Service
from tests.fakes.ollama_server import FakeOllama

# Written sentences of each kind, in both languages, several that only imply it.
CARE = [
    ("I am allergic to peanuts", "health"),
    ("The user is allergic to peanuts", "health"),
    ("I can't have gluten", "health"),
    ("Lactose intolerant, so I use oat milk", "health"),
    ("My son carries an EpiPen for his nut allergy", "health"),
    ("I'm on blood thinners", "health"),
    ("I take 75mcg levothyroxine every morning", "health"),
    ("Uses a Symbicort inhaler twice a day", "health"),
    ("I have type 2 diabetes", "health"),
    ("I'm pre-diabetic and should cut down on sugar", "health"),
    ("Suffers from migraines when she skips meals", "health"),
    ("I'm 20 weeks pregnant", "health"),
    ("Shellfish makes me sick", "health"),
    ("我对青霉素过敏", "health"),
    ("我有乳糖不耐受", "health"),
    ("我在吃降压药", "health"),
    ("每天早上吃一片优甲乐", "health"),
    ("医生说我是糖尿病前期，要少吃甜食", "health"),
    ("我有哮喘", "health"),
    ("我怀孕五个月了", "health"),
    ("我不能吃海鲜", "health"),
    ("I'm vegetarian", "diet"),
    ("My husband is vegan", "diet"),
    ("We only eat halal meat", "diet"),
    ("Keeps kosher at home", "diet"),
    ("I'm on a low-salt diet for my blood pressure", "diet"),
    ("I don't drink alcohol", "diet"),
    ("I don't eat pork", "diet"),
    ("我吃素", "diet"),
    ("我吃鱼和海鲜，但不吃其他任何肉", "diet"),
    ("我不喝酒，连啤酒都不喝", "diet"),
    ("家里做饭要少盐", "diet"),
    ("My mother uses a wheelchair", "access"),
    ("I'm hard of hearing in my left ear", "access"),
    ("I'm colour-blind: red and green look the same to me", "access"),
    ("I have dyslexia, so short sentences help", "access"),
    ("我左耳听力不太好，说话最好站我右边", "access"),
    ("我爸爸坐轮椅", "access"),
    ("Always remember that I'm left-handed", "asked"),
    ("请永远记住：周三下午我要接孩子", "asked"),
    # fears, recovery and the body's limits (issue 52)
    ("I'm terrified of heights, even a tall ladder makes me panic", "health"),
    ("I'm scared of dogs", "health"),
    ("I'm afraid of flying", "health"),
    ("I faint at the sight of blood", "health"),
    ("I'm in recovery and don't drink anymore", "health"),
    ("I can't lift heavy things", "health"),
    ("I can't swim", "health"),
    ("我有幽闭恐惧症", "health"),
    ("我怕狗", "health"),
    ("我恐高", "health"),
    ("我晕车", "health"),
    ("我對青黴素過敏", "health"),
    ("i'm alergic to shelfish", "health"),
]
NOT_CARE = [
    "my sister is a nurse",
    "peanut butter is my favourite",
    "I love Thai peanut sauce",
    "I work at a pharmacy in town",
    "我姐姐是护士",
    "我最喜欢花生酱",
    "我在药店上班",
    "I'm not allergic to anything",
    "我对什么都不过敏",
    "I used to be vegetarian",
    "我以前吃素",
    "My grandmother died of cancer in 2010",
    "My star sign is Cancer",
    "I prefer green tea over coffee",
    "I don't drink coffee",
    "I went on a blind date last week",
    "The report's due date is Friday",
    "I bought a 500ml water bottle",
    "I live in Hangzhou",
    "Can't stand coriander",
    # near misses of issue 52: someone else's, overcome, a joke, a pet, a story, for
    # today only, a what-if, the user's job
    "My friend is allergic to peanuts",
    "I used to be scared of flying, not any more",
    "I'm allergic to Mondays",
    "我对加班过敏",
    "My dog is scared of thunder",
    "The novel's plot: a pilot who is afraid of flying",
    "I can't swim today, the pool is closed",
    "If I were pregnant I'd want to know",
    "I'm a nurse who treats allergies",
    "I'm afraid I can't come to the party",
    "恐怕明天要下雨",
    "I do meditation every morning",
    # what conversations say (LoCoMo): a memory of one's own, advice, a dish, a question
    "I'll never forget the day my son was born",
    "Don't forget to take breaks when you're tired",
    "I made a dairy-free chocolate cake for the party",
    "What are you allergic to?",
]


@pytest.mark.parametrize(("text", "kind"), CARE)
def test_health_and_safety_facts_are_recognised(text: str, kind: str) -> None:
    assert care.recognise(text) == kind


@pytest.mark.parametrize("text", NOT_CARE)
def test_sentences_that_are_not_about_care_are_not_taken_for_it(text: str) -> None:
    assert care.recognise(text) is None


CARE_DATA = Path(__file__).parents[2] / "benchmarks" / "data" / "care"


def _marked(name: str) -> list[tuple[dict, str | None]]:
    data = json.loads((CARE_DATA / name).read_text("utf-8"))
    return [(p, care.recognise(p["text"])) for p in data["phrasings"]]


def _share(pairs: list[tuple[dict, str | None]]) -> float:
    return sum(1 for _, kind in pairs if kind) / len(pairs)


@pytest.mark.parametrize(
    ("name", "recall", "false_marks"), [("dev.json", 0.99, 0.01), ("heldout.json", 0.97, 0.02)]
)
def test_the_recognition_sets_hold(name: str, recall: float, false_marks: float) -> None:
    """benchmarks/data/care: hundreds of ways people say a health or safety fact, in
    English, Chinese and both, and near misses that must not be marked (someone else's,
    overcome, a joke, a pet, a story, for today only, a what-if, the user's job). The
    bounds are those measured, less a little: a rule that regresses fails here.
    heldout.json was written before the rules and not tuned on (docs/benchmarks.md)."""
    marked = _marked(name)
    wanted = [(p, k) for p, k in marked if p["care"]]
    near = [(p, k) for p, k in marked if not p["care"]]
    assert _share(wanted) >= recall, [p["text"] for p, k in wanted if not k]
    assert _share(near) <= false_marks, [p["text"] for p, k in near if k]
    for key in ("lang", "category"):
        for value in {p[key] for p, _ in wanted}:
            group = [(p, k) for p, k in wanted if p[key] == value]
            assert _share(group) >= recall - 0.06, (value, [p["text"] for p, k in group if not k])
    right = [p for p, k in wanted if k == p["care"]]
    assert len(right) >= 0.95 * sum(1 for _, k in wanted if k)


def test_a_rule_is_tried_only_where_it_could_match(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each rule names what any match of it holds, so that a memory without it is not
    searched (an import of a lifetime's facts reads every one): the answer is the same
    as with every rule tried, and most everyday memories try none."""
    texts = [p["text"] for name in ("dev.json", "heldout.json") for p, _ in _marked(name)]
    for name in ("dev.json", "heldout.json"):
        data = json.loads((CARE_DATA / name).read_text("utf-8"))
        texts += [m["text"] for person in data["people"] for m in person["memories"]]
    everyday = []
    for name in ("dev.json", "heldout.json"):
        data = json.loads((CARE_DATA.parent / "personal" / name).read_text("utf-8"))
        everyday += [m["text"] for m in data["memories"] + data["padding"]]
    rules_tried = [len(care._candidates(reading.plain_text(t).lower())) for t in everyday]
    assert sum(rules_tried) / len(everyday) < 1.0, "rules tried per everyday memory"
    gated = [care.recognise(t) for t in texts + everyday]
    monkeypatch.setattr(care, "_candidates", lambda lower: list(care._RULES))
    assert [care.recognise(t) for t in texts + everyday] == gated


def test_a_misspelt_care_word_is_read_and_a_real_word_is_not_changed() -> None:
    for typo, word in (("alergic", "allergic"), ("pregant", "pregnant"), ("hights", "heights"),
                       ("afriad", "afraid"), ("diabeties", "diabetes"), ("astma", "asthma"),
                       ("vegeterian", "vegetarian"), ("sertaline", "sertraline")):  # fmt: skip
        assert reading.plain_text(f"I'm {typo}") == f"I'm {word}"
    for real in ("meditation", "mediation", "weights", "addition", "painting", "terrifies",
                 "allergen", "recovery", "seizure", "height"):  # fmt: skip
        assert reading.plain_text(real) == real


def test_recognised_whatever_wrote_the_memory(profile: Profile) -> None:
    """The chat's learning, `memory add`, the window, an import, an app: the same kind
    of care. An app's memory is given always only once the user says so (issue 45: its
    words would sit in the system message of every chat)."""
    for source in ("user", "extractor", "import", "consolidation", "app:Claude"):
        m = profile.memories.add(NewMemory(f"Allergic to shellfish ({source})", source=source))
        mine = not source.startswith("app:")
        assert (m.memory.care, m.memory.always) == ("health", mine), source
        if not mine:
            assert profile.memories.set_always(m.memory.id, True).always  # the user's say
    layer = MemoryLayer(Service(profile))
    added = layer.add("我对芒果过敏")
    assert added["care"] == "health" and added["always"] is True


def test_the_user_decides_and_the_choice_survives_an_edit(profile: Profile) -> None:
    mem = profile.memories
    allergy = mem.add(NewMemory("I am allergic to peanuts")).memory
    tea = mem.add(NewMemory("I prefer green tea")).memory
    assert [m.id for m in mem.always_given()] == [allergy.id]
    off = mem.set_always(allergy.id, False)
    assert (off.care, off.always) == ("health", False)
    assert mem.always_given() == []
    mem.edit(allergy.id, text="I am allergic to peanuts and cashews")
    assert mem.get(allergy.id).always is False, "the user's no stays through an edit"
    on = mem.set_always(tea.id, True)
    assert (on.care, on.always) == ("asked", True)
    mem.edit(tea.id, text="I prefer jasmine tea")
    assert mem.get(tea.id).always is True, "the user's yes stays too"
    auto = mem.set_always(allergy.id, None)
    assert auto.always is True
    assert [v.action for v in mem.history(allergy.id)] == [
        "created", "not always given", "edited", "always given",
    ]  # fmt: skip
    assert {m.id for m in mem.list(always=True)} == {allergy.id, tea.id}
    assert [m.id for m in mem.list(always=False)] == []


def test_an_edit_reads_the_text_again(profile: Profile) -> None:
    mem = profile.memories
    m = mem.add(NewMemory("I like cooking")).memory
    assert not m.always
    assert mem.edit(m.id, text="I like cooking, but I'm coeliac").memory.always
    assert not mem.edit(m.id, text="I like cooking").memory.always


def test_memories_stored_before_the_rules_are_read_on_open(
    profile: Profile, config: object, vault: object
) -> None:
    """A profile from before (or rules changed since): its memories are read again
    when it opens; what the user chose stays."""
    mem = profile.memories
    allergy = mem.add(NewMemory("I am allergic to peanuts")).memory
    chosen = mem.add(NewMemory("I take insulin")).memory
    mem.set_always(chosen.id, False)
    with profile.db.transaction() as conn:
        conn.execute("UPDATE memories SET care = NULL")
        conn.execute("DELETE FROM meta WHERE key = 'care_rules'")
    profile.close()
    again = Profile.open(config, vault)  # type: ignore[arg-type]
    try:
        assert again.memories.get(allergy.id).always is True
        assert again.memories.get(chosen.id).always is False
    finally:
        again.close()


def test_new_rules_read_every_memory_again_and_the_users_choice_still_wins(
    profile: Profile, config: object, vault: object
) -> None:
    """A profile whose memories older rules read (RULES_VERSION 1 missed fears and
    limits, and marked a friend's allergy): opened with these, each is read again; what
    the user turned off stays off, what they turned on stays on with the kind its text
    now calls for."""
    mem = profile.memories
    fear = mem.add(NewMemory("I'm terrified of heights")).memory
    dogs = mem.add(NewMemory("I'm scared of dogs")).memory
    swim = mem.add(NewMemory("I can't swim")).memory
    friend = mem.add(NewMemory("My friend is allergic to peanuts")).memory
    mem.set_always(dogs.id, False)
    mem.set_always(swim.id, True)
    with profile.db.transaction() as conn:
        conn.execute("UPDATE memories SET care = NULL WHERE id IN (?, ?)", (fear.id, dogs.id))
        conn.execute("UPDATE memories SET care = 'asked' WHERE id = ?", (swim.id,))
        conn.execute("UPDATE memories SET care = 'health' WHERE id = ?", (friend.id,))
        conn.execute("UPDATE meta SET value = '1' WHERE key = 'care_rules'")
    profile.close()
    again = Profile.open(config, vault)  # type: ignore[arg-type]
    try:
        read = {m.id: (m.care, m.always) for m in again.memories.get_many(
            [fear.id, dogs.id, swim.id, friend.id])}  # fmt: skip
        assert read == {
            fear.id: ("health", True),
            dogs.id: ("health", False),
            swim.id: ("health", True),
            friend.id: (None, False),
        }
        assert again.db.meta_get("care_rules") == str(care.RULES_VERSION)
    finally:
        again.close()


def test_forgetting_removes_them_like_any_other(profile: Profile) -> None:
    mem = profile.memories
    one = mem.add(NewMemory("I am allergic to peanuts")).memory
    mem.add(NewMemory("I'm vegetarian"))
    mem.delete(one.id)
    assert [m.text for m in mem.always_given()] == ["I'm vegetarian"]
    profile.forget_everything()
    assert mem.always_given() == []


# -- the read path ---------------------------------------------------------------------


@pytest.fixture
def allergic(profile: Profile) -> Profile:
    profile.memories.add(NewMemory("The user is allergic to peanuts"))
    profile.memories.add(NewMemory("I live in Hangzhou"))
    profile.memories.add(NewMemory("My husband is called Tom"))
    return profile


def _given(session: ChatSession, text: str) -> dict[str, str]:
    result = session.send(text)
    return {u.text or "": u.why for u in result.used}


def test_the_allergy_is_given_whatever_the_message_asks(
    allergic: Profile, fake_ollama: FakeOllama
) -> None:
    """Similarity is not relevance: "plan a dinner" needs the allergy most."""
    session = ChatSession(allergic, OllamaChat(fake_ollama.url))
    try:
        for text in (
            "Can you suggest a snack? Maybe something with peanut butter?",
            "Plan a dinner with my husband tonight",
            "Is satay sauce OK for me?",
            "我能吃花生酱吗？",
            "What's the capital of Canada?",
        ):
            assert _given(session, text).get("The user is allergic to peanuts") == "always", text
            system = fake_ollama.chat_requests(structured=False)[-1]["messages"][0]["content"]
            assert "(health) The user is allergic to peanuts" in system
    finally:
        session.close()


def test_small_talk_that_opens_a_chat_is_given_none_and_the_prompt_stays_stable_after(
    allergic: Profile, fake_ollama: FakeOllama
) -> None:
    """ "hi" gets nothing; once a turn was given the allergy, every later turn's system
    message holds it too (the model server's cache of the prompt survives)."""
    session = ChatSession(allergic, OllamaChat(fake_ollama.url))
    try:
        assert _given(session, "hi") == {}
        assert _given(session, "what should I cook tonight?")
        first = fake_ollama.chat_requests(structured=False)[-1]["messages"][0]["content"]
        assert "allergic to peanuts" in first
        assert _given(session, "thanks!") == {"The user is allergic to peanuts": "always"}
        later = fake_ollama.chat_requests(structured=False)[-1]["messages"][0]["content"]
        assert later == first
    finally:
        session.close()


def test_turned_off_it_is_given_only_when_found(allergic: Profile, fake_ollama: FakeOllama) -> None:
    allergy = allergic.memories.list(always=True)[0]
    allergic.memories.set_always(allergy.id, False)
    session = ChatSession(allergic, OllamaChat(fake_ollama.url))
    try:
        assert "The user is allergic to peanuts" not in _given(session, "Plan a trip to Paris")
    finally:
        session.close()


def test_always_given_come_first_within_their_own_budget(profile: Profile) -> None:
    mem = profile.memories
    pinned = mem.add(NewMemory("Prefers short answers", pinned=True)).memory
    diet = mem.add(NewMemory("I'm vegetarian")).memory
    allergy = mem.add(NewMemory("I am allergic to peanuts")).memory
    builder = ContextBuilder(mem, profile.search, TokenCounter())
    plan = builder.build("what should I eat?", [], Budget())
    assert [(u.memory_id, u.why) for u in plan.used[:3]] == [
        (allergy.id, "always"), (diet.id, "always"), (pinned.id, "core"),
    ]  # fmt: skip
    tight = builder.build("what should I eat?", [], Budget(care_tokens=14))
    assert [u.memory_id for u in tight.used if u.why == "always"] == [allergy.id]
    # their room is their own: the pinned memory keeps its place in the core block
    assert pinned.id in [u.memory_id for u in tight.used if u.why == "core"]


def test_always_remember_in_the_chat(profile: Profile, fake_ollama: FakeOllama) -> None:
    session = ChatSession(profile, OllamaChat(fake_ollama.url))
    try:
        result = session.send("Always remember that I'm left-handed")
        assert [(c.action, c.always) for c in result.changes] == [("added", "asked")]
        result = session.send("remember that I like jazz")
        assert [c.always for c in result.changes] == [None]
    finally:
        session.close()


# -- framed messages --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "parts"),
    [
        ("Can you suggest a snack? Maybe something with peanut butter?",
         ["Suggest a snack?", "Something with peanut butter?"]),
        ("what do I drink in the morning?", ["What do I drink?"]),
        ("Quick question before I go: what's my daily medication again? Thanks!",
         ["What's my daily medication?"]),
        ("Would you mind telling me which daycare my youngest is at? I need it for a form.",
         ["Which daycare my youngest is at?"]),
        ("快递要填地址，我现在住在哪儿来着？", ["我现在住在哪儿？", "我住在哪儿？"]),
        ("你能不能提醒我一下，我在哪里上班来着？", ["我在哪里上班？"]),
        ("周末想做甜点，帮我推荐一个冰淇淋甜点吧", ["推荐一个冰淇淋甜点"]),
        ("what do I drink?", []),
        # a title, a date, an aside and a season are part of the question, not its frame
        ("Would Caroline likely have Dr. Seuss books on her bookshelf?", []),
        ("What is the topic of discussion between John and Tim on 11 December, 2023?", []),
        ("What activity did John's colleague, Rob, invite him to?", []),
        ("What activity did John and Max enjoy together last summer?", []),
        ("What motivates Joanna to keep writing even on tough days?", []),
        ("I'm looking at the menu. Can I have dairy, or should I skip the cheese board?",
         ["Can I have dairy?", "Should I skip the cheese board?"]),
        ("hi", []),
        ("I'm at the shops.", []),
    ],
)  # fmt: skip
def test_a_message_is_read_for_what_it_asks(message: str, parts: list[str]) -> None:
    assert asking.parts(message) == parts


def test_the_scene_a_message_sets_is_not_what_it_asks() -> None:
    assert asking.sets_a_scene("I'm at the pharmacy right now. What's my daily medication?")
    assert not asking.sets_a_scene("Can you suggest a snack? Maybe something with peanuts?")


def test_a_framed_question_keeps_what_the_bare_one_keeps(profile: Profile) -> None:
    mem = profile.memories
    mem.add(NewMemory("I prefer green tea over coffee"))
    mem.add(NewMemory("My sister Lin lives in Chengdu"))
    mem.add(NewMemory("I go climbing every Thursday"))
    bare = {h.memory.text for h in profile.search.search("what tea do I prefer?").hits}
    assert "I prefer green tea over coffee" in bare
    for framed in (
        "Could you remind me what tea I prefer? I'm at the shops.",
        "Quick question: what tea do I prefer in the morning?",
    ):
        found = {h.memory.text for h in profile.search.search(framed).hits}
        assert bare <= found, framed
