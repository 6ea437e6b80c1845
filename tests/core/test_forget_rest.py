"""The rest of a memory a "forget …" names only in part (issue 53): proposed, kept as a
new memory with the forgotten words gone from its history, and never without a health or
safety fact the forget did not name; said back in the language of the command."""

from __future__ import annotations

import pytest

from desktop_mem.core.chat import replies
from desktop_mem.core.chat.forget import Forgotten, carry_out, rest_of
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.profile import Profile


@pytest.mark.parametrize(
    ("memory", "what", "rest"),
    [
        ("Lives in Lisbon and has a peanut allergy", "that I live in Lisbon",
         "Has a peanut allergy"),
        ("The user lives in Lisbon and is allergic to peanuts.", "Lisbon",
         "The user is allergic to peanuts."),
        ("Lives in Lisbon, works at a bakery and likes jazz", "Lisbon",
         "Works at a bakery, likes jazz"),
        ("住在里斯本，对花生过敏", "我住在里斯本", "对花生过敏"),
        ("Lives in Lisbon", "I live in Lisbon", None),  # all of it: nothing to keep
        ("Likes jazz", "Lisbon", None),  # found by meaning: none of its words
        # a health fact that cannot be parted: proposed whole, to be edited down
        ("Lisbon resident with a severe peanut allergy", "Lisbon",
         "Lisbon resident with a severe peanut allergy"),
        # the forget names the health fact itself: it goes
        ("The user is allergic to peanuts", "peanuts", None),
        ("Allergic to peanuts and lives in Lisbon", "my peanut allergy", "Lives in Lisbon"),
    ],
)  # fmt: skip
def test_rest_of(memory: str, what: str, rest: str | None) -> None:
    assert rest_of(memory, what) == rest


def test_the_rest_is_a_new_memory_and_the_old_words_are_gone(profile: Profile) -> None:
    old = profile.memories.add(NewMemory("Lives in Lisbon and has a peanut allergy")).memory
    done = carry_out(
        profile, [old.id], [], [], [], "Lisbon", None, {old.id: "Has a peanut allergy"}
    )
    assert (done.memories, done.rests) == (1, 1)
    [kept] = profile.memories.list()
    assert kept.text == "Has a peanut allergy" and kept.always, "given in every chat"
    assert all("Lisbon" not in v.text for v in profile.memories.history(kept.id))
    # a rest left whole (not edited down) keeps the memory as it was
    whole = profile.memories.add(NewMemory("Lisbon resident, allergic to shellfish")).memory
    done = carry_out(profile, [whole.id], [], [], [], "Lisbon", None, {whole.id: whole.text})
    assert done.memories == 0 and profile.memories.get(whole.id).text == whole.text


def test_the_reply_is_in_the_language_of_the_command() -> None:
    done = Forgotten(1, 0, rests=1)
    assert (
        replies.forgot(done, "Lisbon")
        == "Deleted 1 memory and 0 messages. Kept the rest of 1 memory."
    )
    assert (
        replies.forgot(done, "我住在里斯本")
        == "已删除 1 条记忆和 0 条消息。已保留 1 条记忆的其余部分。"
    )
    assert replies.forgot(Forgotten(0, 0), "里斯本") == "没有删除任何内容。"
