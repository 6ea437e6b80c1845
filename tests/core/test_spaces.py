"""Spaces: memory kept apart by project. A reader in a space sees that space's
memories and, unless it is kept apart, the shared ones: never another space's."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from desktop_mem.core.chat import forget
from desktop_mem.core.config import Config
from desktop_mem.core.errors import InvalidInput, NotFound
from desktop_mem.core.events import SpacesChanged
from desktop_mem.core.keys.vault import Vault
from desktop_mem.core.memory.export import write_export
from desktop_mem.core.memory.memories_file import import_file
from desktop_mem.core.memory.spaces import EVERY, SHARED, Scope, only
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.profile import Profile
from desktop_mem.core.search.pipeline import Pipeline, Weights
from desktop_mem.core.search.relevance import MESSAGE_TIER, PASSAGE_TIER, Tier

# The same names, places and dates in work and family life: what a look-alike search
# would mix up if the spaces did not keep them apart.
WORK = [
    "My manager Priya wants the quarterly report by Friday",
    "The Hangzhou office moves to the new building in March",
    "Our client Acme pays invoices within 30 days",
]
FAMILY = [
    "My sister Priya is getting married in Hangzhou in March",
    "Mum's birthday is on Friday; she likes orchids",
]
SHARED_FACTS = ["I am allergic to peanuts", "I prefer tea to coffee"]


@pytest.fixture
def spaced(profile: Profile) -> tuple[Profile, int, int]:
    work = profile.spaces.create("Work", "Answer formally.").id
    family = profile.spaces.create("Family").id
    profile.memories.add_many([NewMemory(t, space=work) for t in WORK], actor="user")
    profile.memories.add_many([NewMemory(t, space=family) for t in FAMILY], actor="user")
    profile.memories.add_many([NewMemory(t) for t in SHARED_FACTS], actor="user")
    return profile, work, family


def found(profile: Profile, query: str, scope: Scope) -> set[str]:
    result = profile.search.search(query, k=20, scope=scope, relevant_only=False)
    return {h.memory.text for h in result.hits}


@pytest.mark.parametrize(
    "query", ["Priya", "what is happening in Hangzhou in March?", "Friday", "peanuts", "tea"]
)
def test_a_search_in_a_space_never_returns_another_spaces_memory(
    spaced: tuple[Profile, int, int], query: str
) -> None:
    profile, work, family = spaced
    in_work = found(profile, query, profile.spaces.scope(work))
    in_family = found(profile, query, profile.spaces.scope(family))
    assert not in_work & set(FAMILY)
    assert not in_family & set(WORK)
    assert not found(profile, query, SHARED) & (set(WORK) | set(FAMILY))


def test_shared_memories_reach_every_space_that_sees_them(
    spaced: tuple[Profile, int, int],
) -> None:
    profile, work, _family = spaced
    assert "I am allergic to peanuts" in found(profile, "peanuts", profile.spaces.scope(work))
    assert "My manager Priya wants the quarterly report by Friday" in found(
        profile, "Priya", profile.spaces.scope(work)
    )


def test_a_space_kept_apart_neither_reads_the_shared_space(
    spaced: tuple[Profile, int, int],
) -> None:
    profile, work, _family = spaced
    profile.spaces.change(work, apart=True)
    scope = profile.spaces.scope(work)
    assert not found(profile, "peanuts", scope) & set(SHARED_FACTS)
    assert not {m.text for m in profile.memories.list(scope=scope)} - set(WORK)
    profile.memories.set_always(profile.memories.find_duplicate(SHARED_FACTS[0]).id, True)
    assert not profile.memories.always_given(scope=scope)
    assert profile.memories.always_given(scope=SHARED)


def test_listing_is_scoped_and_every_space_is_asked_for_by_name(
    spaced: tuple[Profile, int, int],
) -> None:
    profile, work, family = spaced
    assert {m.text for m in profile.memories.list()} == set(SHARED_FACTS)
    assert {m.text for m in profile.memories.list(scope=profile.spaces.scope(family))} == set(
        FAMILY
    ) | set(SHARED_FACTS)
    assert len(profile.memories.list(scope=EVERY)) == len(WORK + FAMILY + SHARED_FACTS)
    assert {m.space for m in profile.memories.list(scope=Scope(work, shared=False))} == {work}


def test_a_memory_moves_with_its_history_and_the_move_is_a_version(
    spaced: tuple[Profile, int, int],
) -> None:
    profile, work, family = spaced
    memory = next(m for m in profile.memories.list(scope=EVERY) if m.text == FAMILY[0])
    seen: list[SpacesChanged | object] = []
    profile.events.subscribe(seen.append)
    assert profile.memories.move(memory.id, work) == 1
    assert profile.memories.move(memory.id, work) == 0  # already there
    assert profile.memories.get(memory.id).space == work
    history = profile.memories.history(memory.id)
    assert [v.action for v in history] == ["created", "moved"]
    assert [v.space for v in history] == [family, work]
    assert "Priya" in " ".join(found(profile, "sister married", profile.spaces.scope(work)))
    assert profile.memories.move([memory.id], None) == 1
    assert profile.memories.get(memory.id).space is None
    with pytest.raises(NotFound):
        profile.memories.move(memory.id, 9999)
    with pytest.raises(NotFound):
        profile.memories.move(123456, work)
    assert seen


def test_space_names_are_checked_and_a_space_with_contents_is_not_taken_out(
    spaced: tuple[Profile, int, int],
) -> None:
    profile, work, _family = spaced
    with pytest.raises(InvalidInput) as told:
        profile.spaces.create("  work ")
    assert told.value.reason == "space_name_taken"
    for name, reason in (("", "space_name_empty"), ("Shared", "space_name_reserved"),
                         ("共享", "space_name_reserved"), ("x" * 61, "space_name_long")):  # fmt: skip
        with pytest.raises(InvalidInput) as told:
            profile.spaces.create(name)
        assert told.value.reason == reason
    assert profile.spaces.create("客户 A").name == "客户 A"
    assert profile.spaces.find("客户 a").name == "客户 A"
    with pytest.raises(InvalidInput) as told:
        profile.spaces.remove(work)
    assert told.value.reason == "space_not_empty"
    profile.memories.move([m.id for m in profile.memories.list(scope=Scope(work, False))], None)
    profile.spaces.remove(work)
    with pytest.raises(NotFound):
        profile.spaces.get(work)


def test_an_export_names_each_memorys_space_and_importing_puts_it_back(
    spaced: tuple[Profile, int, int], tmp_path: Path, config: Config, vault: Vault
) -> None:
    profile, _work, _family = spaced
    out = tmp_path / "mem.json"
    write_export(profile.memories, out, "json")
    data = json.loads(out.read_text())
    assert data["count"] == len(WORK + FAMILY + SHARED_FACTS)  # every space's
    assert {m.get("space") for m in data["memories"]} == {"Work", "Family", None}
    config.profile = "other"
    with Profile.open(config, vault) as other:
        other.spaces.create("family")  # the same space, named in another case
        report = import_file(other.memories, out, spaces=other.spaces)
        assert report.imported == len(WORK + FAMILY + SHARED_FACTS)
        names = {s.id: s.name for s in other.spaces.list()}
        assert sorted(names.values()) == ["Work", "family"]
        where = {m.text: names.get(m.space) for m in other.memories.list(scope=EVERY)}
        assert {t for t, n in where.items() if n == "Work"} == set(WORK)
        assert {t for t, n in where.items() if n == "family"} == set(FAMILY)
        assert {t for t, n in where.items() if n is None} == set(SHARED_FACTS)
        assert import_file(other.memories, out, spaces=other.spaces).duplicates == len(where)


def test_forgetting_reaches_every_space(spaced: tuple[Profile, int, int]) -> None:
    profile, _work, _family = spaced
    found = forget.find(profile, "Priya")
    texts = {m.text for m in found.memories}
    assert "My manager Priya wants the quarterly report by Friday" in texts
    assert "My sister Priya is getting married in Hangzhou in March" in texts


def test_a_chats_forget_offers_its_own_spaces_first_then_the_others(
    spaced: tuple[Profile, int, int],
) -> None:
    profile, work, family = spaced
    in_family = [
        m.text for m in forget.find(profile, "Priya", scope=profile.spaces.scope(family)).memories
    ]
    in_work = [
        m.text for m in forget.find(profile, "Priya", scope=profile.spaces.scope(work)).memories
    ]
    assert in_family[0] == "My sister Priya is getting married in Hangzhou in March"
    assert in_work[0] == "My manager Priya wants the quarterly report by Friday"
    assert set(in_family) == set(in_work)  # every space's, in another order


def _nearest(pipeline: Pipeline, vector: object, scope: Scope) -> set[int]:
    """What a search by meaning alone finds in a scope (the vector scan, no words)."""
    return {i for i, _ in pipeline.nearest(vector, 20, scope)}  # type: ignore[arg-type]


def _tier(store: object, tier: Tier) -> Pipeline:
    return Pipeline(store, tier, Weights(), store.rule, store.reference)  # type: ignore[arg-type, attr-defined]


def test_a_move_reaches_the_codes_the_search_scans(
    spaced: tuple[Profile, int, int], config: Config, vault: Vault, tmp_path: Path
) -> None:
    """The vector codes held in memory carry each item's space, so that a search within
    a space is filtered inside the scan. A memory, a chat or a document moved to
    another space is found by meaning in its new space and no longer in the one it
    left: by this process, and by another that had the codes loaded before the move."""
    profile, work, family = spaced
    conversation = profile.conversations.create("Planning", space=work)
    said = profile.conversations.add_message(conversation.id, "user", WORK[0])
    profile.conversations.index_missing()
    notes = tmp_path / "notes.txt"
    notes.write_text("The Hangzhou office moves to the new building in March.\n")
    profile.documents.add(notes, space=work)
    memory = next(m for m in profile.memories.list(scope=EVERY) if m.text == WORK[0])
    other = Profile.open(config, vault)
    try:
        tiers: dict[str, Callable[[Profile], tuple[Pipeline, int]]] = {
            "memory": lambda p: (p.search, memory.id),
            "message": lambda p: (_tier(p.conversations, MESSAGE_TIER), said.id),
            "passage": lambda p: (
                _tier(p.documents, PASSAGE_TIER),
                p.db.query("SELECT id FROM doc_chunks")[0][0],
            ),
        }

        def where(p: Profile) -> dict[str, tuple[bool, bool]]:
            out = {}
            for name, of in tiers.items():
                pipeline, item = of(p)
                vector = pipeline.texts.index.vectors([item])[item]
                out[name] = (
                    item in _nearest(pipeline, vector, p.spaces.scope(work)),
                    item in _nearest(pipeline, vector, p.spaces.scope(family)),
                )
            return out

        everything_in_work = {name: (True, False) for name in tiers}
        assert where(profile) == where(other) == everything_in_work  # codes loaded
        profile.memories.move(memory.id, family)
        profile.conversations.move(conversation.id, family)
        profile.documents.move(profile.documents.list(scope=EVERY)[0].id, family)
        everything_in_family = {name: (False, True) for name in tiers}
        assert where(profile) == everything_in_family
        assert where(other) == everything_in_family
    finally:
        other.close()


def test_codes_loaded_before_the_first_space_learn_what_goes_into_it(
    profile: Profile, config: Config, vault: Vault, tmp_path: Path
) -> None:
    """While no space is made every code is the shared space's, and the codes are read
    without asking (a lookup per code made the first search several times as slow).
    Once the first space is made and items are written into it or moved into it, a
    search within it finds them and a search of the shared space does not: by this
    process, by another that had loaded the codes before the space was made, and by
    one opened afterwards (whose first search reads every code's space)."""
    profile.memories.add_many([NewMemory(t) for t in WORK[:2] + SHARED_FACTS], actor="user")
    conversation = profile.conversations.create("Planning")
    said = profile.conversations.add_message(conversation.id, "user", WORK[0])
    profile.conversations.index_missing()
    notes = tmp_path / "notes.txt"
    notes.write_text("The Hangzhou office moves to the new building in March.\n")
    profile.documents.add(notes)
    moved = next(m.id for m in profile.memories.list() if m.text == WORK[0])
    chunks = "SELECT id FROM doc_chunks ORDER BY id"
    items: dict[str, int] = {"moved memory": moved, "moved message": said.id}
    items["moved passage"] = profile.db.query(chunks)[0][0]
    tiers: dict[str, Callable[[Profile], Pipeline]] = {
        "memory": lambda p: p.search,
        "message": lambda p: _tier(p.conversations, MESSAGE_TIER),
        "passage": lambda p: _tier(p.documents, PASSAGE_TIER),
    }

    def where(p: Profile, space: int | None) -> dict[str, tuple[bool, bool]]:
        """Each item: (found in the space alone, found in the shared space)."""
        out = {}
        for name, item in items.items():
            pipeline = tiers[name.split()[1]](p)
            vector = pipeline.texts.index.vectors([item])[item]
            out[name] = (
                space is not None and item in _nearest(pipeline, vector, only(space)),
                item in _nearest(pipeline, vector, SHARED),
            )
        return out

    other = Profile.open(config, vault)
    try:
        assert where(profile, None) == where(other, None) == dict.fromkeys(items, (False, True))
        work = profile.spaces.create("Work").id
        profile.memories.move(moved, work)
        profile.conversations.move(conversation.id, work)
        profile.documents.move(profile.documents.list()[0].id, work)
        everything_in_work = dict.fromkeys(items, (True, False))
        assert where(profile, work) == where(other, work) == everything_in_work
        # written into the space with the codes loaded: this process adds them itself
        items["written memory"] = profile.memories.add(NewMemory(WORK[2], space=work)).memory.id
        items["written message"] = profile.conversations.add_message(
            conversation.id, "user", FAMILY[1]
        ).id
        profile.conversations.index_missing()
        plans = tmp_path / "plans.txt"
        plans.write_text("Acme pays its invoices within thirty days of delivery.\n")
        profile.documents.add(plans, space=work)
        items["written passage"] = profile.db.query(chunks)[-1][0]
        everything_in_work = dict.fromkeys(items, (True, False))
        assert where(profile, work) == everything_in_work
        assert where(other, work) == everything_in_work
        with Profile.open(config, vault) as third:
            assert where(third, work) == everything_in_work
    finally:
        other.close()


def test_a_scope_that_sees_nothing_finds_nothing_even_before_any_space_is_made(
    profile: Profile,
) -> None:
    """An app given no space at all (the shared one taken from it) reads nothing, also
    while the profile has no space yet, when every item is shared: the shortcut "no
    space made, so nothing to filter" holds only for a reader of the shared space."""
    profile.memories.add(NewMemory("I am allergic to peanuts"))
    conversation = profile.conversations.create("Lunch")
    said = profile.conversations.add_message(conversation.id, "user", "No peanuts for me")
    profile.conversations.index_missing()
    nothing = Scope(None, shared=False)
    messages = _tier(profile.conversations, MESSAGE_TIER)
    vector = messages.texts.index.vectors([said.id])[said.id]
    assert said.id in _nearest(messages, vector, SHARED)
    assert not _nearest(messages, vector, nothing)
    assert not found(profile, "peanuts", nothing)
