"""The memory commands a user types at the start of a chat message, in English and
Chinese, and the messages that only look like them."""

from __future__ import annotations

import pytest

from desktop_mem.core.chat.commands import Command, about_user, parse_command, to_you


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


@pytest.mark.parametrize(
    ("said", "stored", "answered"),
    [
        ("my favourite colour is green", "The user's favourite colour is green",
         "your favourite colour is green"),
        ("I like jazz", "The user likes jazz", "you like jazz"),
        ("I am allergic to peanuts", "The user is allergic to peanuts",
         "you are allergic to peanuts"),
        ("I'm left-handed", "The user is left-handed", "you're left-handed"),
        ("I always watch the news at nine", "The user always watches the news at nine",
         "you always watch the news at nine"),
        ("I study French and I don't eat pork", "The user studies French and the user "
         "doesn't eat pork", "you study French and you don't eat pork"),
        ("my sister and I live in Porto", "The user's sister and the user live in Porto",
         "your sister and you live in Porto"),
        ("I was born in 1990", "The user was born in 1990", "you were born in 1990"),
        ("I went to Kyoto in April", "The user went to Kyoto in April",
         "you went to Kyoto in April"),
        ("my boss calls me Jo", "The user's boss calls the user Jo", "your boss calls you Jo"),
        ("the wifi password is on the fridge", "The wifi password is on the fridge",
         "the wifi password is on the fridge"),
        ("我最喜欢的颜色是绿色", "用户最喜欢的颜色是绿色", "你最喜欢的颜色是绿色"),
        ("我对花生过敏", "用户对花生过敏", "你对花生过敏"),
    ],
)  # fmt: skip
def test_what_is_remembered_is_about_the_user_and_said_back_to_them(
    said: str, stored: str, answered: str
) -> None:
    """Found in the third walk (issue 44): "Remember that my favourite colour is green"
    was stored in the first person, and answered "I'll remember: my favourite colour is
    green"."""
    assert about_user(said) == stored
    assert to_you(said) == answered
