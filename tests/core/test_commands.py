"""The memory commands a user types at the start of a chat message, in English and
Chinese, and the messages that only look like them."""

from __future__ import annotations

import pytest

from desktop_mem.core.chat.commands import Command, parse_command


@pytest.mark.parametrize(
    ("message", "kind", "text"),
    [
        ("remember that I am allergic to peanuts", "remember", "I am allergic to peanuts"),
        ("Please remember: my locker is number 42.", "remember", "my locker is number 42"),
        ("REMEMBER THAT my bike is blue!", "remember", "my bike is blue"),
        (
            "note, the wifi password is on the fridge",
            "remember",
            "the wifi password is on the fridge",
        ),
        ("memorize my sister's birthday is 3 May", "remember", "my sister's birthday is 3 May"),
        ("记住我对花生过敏。", "remember", "我对花生过敏"),
        ("请记住一下：我下个月考驾照", "remember", "我下个月考驾照"),
        ("记得，我住在杭州", "remember", "我住在杭州"),
        ("forget that I live in Lisbon", "forget", "I live in Lisbon"),
        ("forget about my old phone number", "forget", "my old phone number"),
        ("please forget the fact that I smoke", "forget", "I smoke"),
        ("忘记我的旧地址", "forget", "我的旧地址"),
        ("删除关于我前任的事", "forget", "我前任的事"),
    ],
)
def test_a_command_at_the_start_of_a_message_says_what_to_remember_or_forget(
    message: str, kind: str, text: str
) -> None:
    assert parse_command(message) == Command(kind, text)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "message",
    [
        "Do you remember that song from the film?",  # not at the start
        "remembering names is hard for me",
        "I forgot my keys again",
        "forgetful people need lists",
        "remember that a",  # nothing to remember
        "记住",
        "我记住了",
        "",
    ],
)
def test_a_message_that_only_mentions_remembering_is_not_a_command(message: str) -> None:
    assert parse_command(message) is None


def test_a_command_spanning_lines_keeps_all_of_them() -> None:
    assert parse_command("remember that\nmy PIN hint is the cat") == Command(
        "remember", "my PIN hint is the cat"
    )
    assert parse_command("remember: shopping\n- milk\n- eggs") == Command(
        "remember", "shopping\n- milk\n- eggs"
    )
