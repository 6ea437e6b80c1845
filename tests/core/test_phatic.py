"""Greetings, thanks, agreement and goodbyes ask nothing of memory: told by their form,
in English and Chinese, and given nothing by the read path, whatever the store holds."""

from __future__ import annotations

import pytest

from desktop_mem.core.chat.read_path import Budget, ContextBuilder, TokenCounter
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.profile import Profile
from desktop_mem.core.search.phatic import phatic
from desktop_mem.core.search.relevance import is_small_talk

PHATIC = [
    "hi", "Hello again!", "hey, how's it going?", "good morning :)", "how are you today?",
    "thanks!", "Thank you so much, that really helped", "thx mate", "I appreciate it",
    "cheers", "ok cool", "got it, thanks", "no worries", "that makes sense", "sure thing",
    "wow", "lol", "haha nice", "take care", "see ya", "catch you later",
    "have a good night", "bye for now", "that's super helpful, thank you",
    "sorry for the late reply!", "brb", "👍", "Perfect, that's exactly it 👌",
    "你好呀", "谢谢啦～", "不好意思，刚刚在忙", "好的，没问题", "哈哈哈", "辛苦了", "嗯嗯", "明天见", "收到！", "拜拜",
]  # fmt: skip
ASKS_OR_TELLS = [
    "thanks! what's my sister called?",
    "take care of the dentist reminder",
    "I'm not feeling great today",
    "good night, remind me what I take before bed",
    "cool, book the usual place",
    "how is my mom?",
    "wow, is satay OK for me?",
    "again?",
    "tomorrow?",
    "ok 2",
    "no peanuts please",
    "谢谢！我的药叫什么来着？",
    "早上好，我今天有什么安排？",
    "我对花生过敏",
    "不好",
    "好吃吗",
    "",
    "?",
    "sorry, what's my blood type?",
    "back pain again",
    "I can't take care of the dog this weekend",
]


@pytest.mark.parametrize("message", PHATIC)
def test_greetings_thanks_and_goodbyes_are_told_by_their_form(message: str) -> None:
    assert phatic(message)
    assert is_small_talk(message)


@pytest.mark.parametrize("message", ASKS_OR_TELLS)
def test_a_message_with_anything_else_is_not(message: str) -> None:
    assert not phatic(message)


def test_a_farewell_is_given_nothing_whatever_the_store_holds(profile: Profile) -> None:
    """ "take care" shares every word with a memory and a past message, and an
    embedding model puts it near them: it is a farewell all the same."""
    kids = profile.memories.add(NewMemory("Melanie takes care of her two kids")).memory
    chat = profile.conversations.create("earlier")
    profile.conversations.add_message(chat.id, "user", "Wow, take care of yourself!")
    builder = ContextBuilder(
        profile.memories, profile.search, TokenCounter(), conversations=profile.conversations
    )
    for message in ("take care", "wow", "thanks, take care!", "谢谢，保重"):
        plan = builder.build(message, [], Budget())
        assert plan.used == [] and plan.recalled == [], message
    asked = builder.build("who takes care of the kids?", [], Budget())
    assert [u.memory_id for u in asked.used] == [kids.id]


def test_the_sets_written_apart_from_the_code() -> None:
    """Four sets written by people who had not seen the code: nothing that asks or
    tells something is taken for a greeting; nearly every greeting is told."""
    import json
    from pathlib import Path

    data = json.loads((Path(__file__).parents[2] / "benchmarks/data/phatic.json").read_text())
    told = [m for s in "ABCD" for m in data[s]["phatic"]]
    others = [m for s in "CD" for m in data[s]["not_phatic"]]
    assert len(told) == 200 and len(others) == 140
    assert [m for m in others if phatic(m)] == []
    assert sum(map(phatic, told)) >= 0.95 * len(told)
