"""Hostile and malformed exports through `desktop-mem import`: each is one sentence on
stderr that names the file and what is wrong, the documented exit code of a refused
file (1, `import_rejected`: docs/commands.md), and nothing imported, not even the
conversations before the bad one. Before issue 53 these looped for ever with growing
memory, or ended in AttributeError, TypeError, RecursionError, UnicodeEncodeError or
RuntimeError."""

from __future__ import annotations

import copy
import json
import os
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from desktop_mem.core.errors import EXIT_ERROR, EXIT_USAGE
from tests import exports, report
from tests.conftest import Run

DEEP = 100_000


def _chatgpt(*convs: dict[str, Any]) -> list[dict[str, Any]]:
    good = [exports.chatgpt_conversation(n) for n in range(3)]
    return [*good, *convs]


def _bad_node(change: Callable[[dict[str, Any]], None]) -> list[dict[str, Any]]:
    conv = exports.chatgpt_conversation(7)
    change(conv)
    return _chatgpt(conv)


def _cycle(ids: Callable[[str], Any]) -> list[dict[str, Any]]:
    def change(conv: dict[str, Any]) -> None:
        mapping = conv["mapping"]
        for key, node in mapping.items():
            node.pop("id")
            if ids(key) is not None:
                node["id"] = ids(key)
        mapping["root7"]["parent"] = "b7"  # the root's parent is the newest message

    return _bad_node(change)


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(conv: dict[str, Any]) -> None:
        node = conv
        *head, last = path.split(".")
        for part in head:
            node = node[part]
        node[last] = value

    return change


def _claude(change: Callable[[dict[str, Any]], None]) -> list[dict[str, Any]]:
    convs = [exports.claude_conversation(n) for n in range(3)]
    bad = exports.claude_conversation(7)
    change(bad)
    return [*convs, bad]


def _claude_loop(conv: dict[str, Any]) -> None:
    conv["chat_messages"][0]["parent_message_uuid"] = "c7-a2"


def _json(name: str, data: Any) -> Callable[[Path], Path]:
    def write(folder: Path) -> Path:
        path = folder / name
        path.write_text(json.dumps(data, ensure_ascii=False))
        return path

    return write


def _raw(name: str, text: str | bytes) -> Callable[[Path], Path]:
    def write(folder: Path) -> Path:
        path = folder / name
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text)
        return path

    return write


def _zip(members: dict[str, str | bytes], encrypted: str = "") -> Callable[[Path], Path]:
    def write(folder: Path) -> Path:
        path = folder / "export.zip"
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
            for name, data in members.items():
                z.writestr(name, data)
        if encrypted:  # the flag set in the entry's local and central headers
            data = bytearray(path.read_bytes())
            for magic, at in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
                start = 0
                while (start := data.find(magic, start)) >= 0:
                    data[start + at] |= 0x1
                    start += 4
            path.write_bytes(bytes(data))
        return path

    return write


def _damaged_zip(folder: Path) -> Path:
    path = folder / "export.zip"
    convs = json.dumps(_chatgpt()) * 1
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("conversations.json", convs)
    data = bytearray(path.read_bytes())
    start = data.index(b"conversations.json") + len("conversations.json") + 40
    for i in range(start, start + 200):
        data[i] ^= 0x5A
    path.write_bytes(bytes(data))
    return path


def _not_utf8_later(folder: Path) -> Path:
    path = folder / "conversations.json"
    text = json.dumps(_chatgpt(exports.chatgpt_conversation(9)))
    cut = text.index("Question 9")
    path.write_bytes(text[:cut].encode() + b"\xff\xfe" + text[cut:].encode())
    return path


GOOD = json.dumps(_chatgpt())
DEEP_OBJECT = '{"a":' * DEEP + "1" + "}" * DEEP
CASES: dict[str, tuple[Callable[[Path], Path], str]] = {
    # the issue's own
    "cycle, nodes without an id": (
        _json("conversations.json", _cycle(lambda key: None)), "form a loop"),
    "cycle, numbers as ids": (
        _json("conversations.json", _cycle(lambda key: 1)), "form a loop"),
    "content as a string": (
        _json("conversations.json", _bad_node(_set("mapping.u7a.message.content", "hi"))),
        "content is text, not an object"),
    "author as a string": (
        _json("conversations.json", _bad_node(_set("mapping.b7.message.author", "user"))),
        "author is text, not an object"),
    "metadata as a string": (
        _json("conversations.json", _bad_node(_set("mapping.b7.message.metadata", "x"))),
        "metadata is text, not an object"),
    "conversation id as a list": (
        _json("conversations.json", _bad_node(_set("conversation_id", ["a"]))),
        "id is a list, not an id"),
    "claude uuid as a list": (
        _json("conversations.json", _claude(_set("uuid", ["a", "b"]))),
        "uuid is a list, not an id"),
    "claude message uuid as a list": (
        _json("conversations.json", _claude(lambda c: c["chat_messages"][1].update(uuid=[1]))),
        "uuid is a list, not an id"),
    "an object nested 100,000 deep": (
        _raw("conversations.json", DEEP_OBJECT), "nested too deeply"),
    "memories.json nested 100,000 deep in a zip": (
        _zip({"conversations.json": GOOD, "memories.json": DEEP_OBJECT}), "nested too deeply"),
    "a lone surrogate": (
        _raw("conversations.json", GOOD.replace("Answer 1:", "Answer \\ud800 1:")),
        "broken character"),
    "a zip entry with the encrypted flag": (
        _zip({"conversations.json": GOOD}, encrypted="conversations.json"), "password"),
    "memories.json results a number": (
        _raw("memories.json", '{"results": 5}'), "results is a number, not a list"),
    "memories.json results a number, in a zip": (
        _zip({"conversations.json": GOOD, "memories.json": '{"results": 5}'}),
        "results is a number, not a list"),
    # the families they stand for
    "a missing parent": (
        _json("conversations.json", _bad_node(_set("mapping.u7a.parent", "gone"))),
        "parent 'gone' is missing"),
    "current node nowhere": (
        _json("conversations.json", _bad_node(_set("current_node", "gone"))),
        "current node 'gone' is not among its messages"),
    "duplicate conversation ids": (
        _json("conversations.json", _chatgpt(exports.chatgpt_conversation(1))),
        "has the id of an earlier one"),
    "duplicate claude message uuids": (
        _json("conversations.json",
              _claude(lambda c: c["chat_messages"][2].update(uuid="c7-u1"))),
        "two messages have the uuid"),
    "a claude loop": (_json("conversations.json", _claude(_claude_loop)), "form a loop"),
    "parts as a string": (
        _json("conversations.json", _bad_node(_set("mapping.b7.message.content.parts", "x"))),
        "parts is text, not a list"),
    "a part that is a number": (
        _json("conversations.json", _bad_node(_set("mapping.b7.message.content.parts", [5]))),
        "a part that is a number"),
    "attachments as a number": (
        _json("conversations.json",
              _bad_node(_set("mapping.b7.message.metadata.attachments", 3))),
        "attachments is a number, not a list"),
    "a node that is a list": (
        _json("conversations.json", _bad_node(_set("mapping.b7", []))),
        "is a list, not an object"),
    "mapping as a list": (
        _json("conversations.json", _bad_node(_set("mapping", []))),
        "mapping is a list, not an object"),
    "claude content as a string": (
        _json("conversations.json",
              _claude(lambda c: c["chat_messages"][0].update(content="hello"))),
        "content is text, not a list"),
    "claude messages as an object": (
        _json("conversations.json", _claude(_set("chat_messages", {"a": 1}))),
        "messages is an object, not a list"),
    "a title as an object": (
        _json("conversations.json", _bad_node(_set("title", {"a": 1}))),
        "title is an object, not text"),
    "an array nested 100,000 deep": (
        _raw("conversations.json", GOOD[:-1] + ", " + "[" * DEEP + "]" * DEEP + "]"),
        "nested too deeply"),
    "not UTF-8 after the first block": (_not_utf8_later, "not UTF-8 text"),
    "a damaged zip": (_damaged_zip, "damaged"),
    "cut short": (_raw("conversations.json", GOOD[: len(GOOD) // 2]), "not valid JSON"),
    "projects' documents as a number": (
        _zip({"conversations.json": json.dumps(_claude(lambda c: None)),
              "projects.json": json.dumps([{"uuid": "p", "name": "P", "docs": 4,
                                            "prompt_template": ""}])}),
        "documents is a number, not a list"),
    "memories as a string": (_raw("memories.json", '{"memories": "x"}'), "memories is text"),
    "a memory that is a number": (_raw("memories.json", '{"memories": [{"content": "a b"}, 5]}'),
                                  "memory 2 is a number, not an object"),
    # found looking at the window's screens: these were read as pasted lists of memories
    "the export's web page": (
        _raw("chat.html", "<!DOCTYPE html>\n<html><head><title>ChatGPT Data Export</title>"),
        "is a web page, not an export this app reads: choose the zip it came in"),
    "a PDF whose start is text": (_raw("notes.pdf", "%PDF-1.4\nhello\n"), "is a PDF document"),
}  # fmt: skip


@pytest.mark.parametrize("case", list(CASES))
def test_a_hostile_export_is_one_sentence_and_nothing_is_imported(
    run: Run, tmp_path: Path, case: str
) -> None:
    write, what = CASES[case]
    folder = tmp_path / "in"
    folder.mkdir()
    path = write(folder)
    report.add("inputs")
    assert json.loads(run("conversations", "list", "--json")[1]) == []  # the profile made
    for extra in (["--dry-run"], []):
        code, out, err = run("import", str(path), *extra)
        assert (code, out) == (EXIT_USAGE, ""), err
        assert err.startswith("desktop-mem: ") and err.endswith(".\n") and err.count("\n") == 1
        assert what in err and path.name in err, err
        assert "Traceback" not in err
    assert json.loads(run("conversations", "list", "--json")[1]) == []
    assert json.loads(run("review", "list", "--json")[1])["waiting"] == []


def test_nothing_before_the_bad_conversation_is_imported_without_a_survey(
    run: Run, tmp_path: Path
) -> None:
    """Importing without looking first (the Python API) reads the file whole first."""
    from desktop_mem.core.config import Config
    from desktop_mem.core.errors import ImportRejected
    from desktop_mem.core.service import Service

    path = CASES["a missing parent"][0](tmp_path)
    base = run.base
    config = Config.resolve(home=Path(base[1]), ollama_host=base[3], embed_model="fake-embed")
    with Service.open(config, run.vault, create=True) as app:
        with pytest.raises(ImportRejected, match="parent 'gone' is missing"):
            app.imports.run(path)
        assert app.conversations.list() == [] and app.imports.proposals() == []


def test_a_folder_with_a_fifo_for_a_conversations_file_does_not_hang(
    run: Run, tmp_path: Path
) -> None:
    folder = exports.chatgpt_split_folder(tmp_path / "export", count=3)
    (folder / "conversations-000.json").unlink()
    os.mkfifo(folder / "conversations-000.json")
    run("conversations", "list")  # the profile made
    code, out, err = run("import", str(folder), "--dry-run")
    assert code == 0 and "1 new conversation" in out, err


def test_a_valid_export_still_imports_after_all_of_them(run: Run, tmp_path: Path) -> None:
    path = _json("conversations.json", copy.deepcopy(_chatgpt()))(tmp_path)
    code, out, err = run("import", str(path))
    assert code == 0 and "Imported 3 conversations (12 messages)" in out, err


def test_a_huge_top_level_object_is_not_read_past_the_cap(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A memories file is one object read whole: a large one was read whole too, past
    any size (found attacking this branch's work)."""
    from desktop_mem.core.chat.foreign import stream

    monkeypatch.setattr(stream, "MAX_SMALL", 1 << 20)
    path = tmp_path / "memories.json"
    path.write_text('{"results": [{"memory": "' + "x" * (2 << 20) + '"}]}')
    run("conversations", "list")
    code, out, err = run("import", str(path))
    assert code == EXIT_USAGE and out == ""
    assert err == (
        "desktop-mem: memories.json cannot be read whole (it is one object far too large "
        "for a list of memories): nothing was imported from it. Download the export again.\n"
    )


def test_an_about_me_of_a_thousand_sentences_proposes_a_few(tmp_path: Path) -> None:
    from desktop_mem.core.chat.foreign import open_export
    from desktop_mem.core.chat.foreign.items import MAX_ABOUT_FACTS

    about = " ".join(f"I own bicycle number {n}." for n in range(1000))
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps([exports.chatgpt_conversation(1, about)]))
    export = open_export(path)
    list(export.conversations())
    assert len(export.about) == MAX_ABOUT_FACTS
    assert export.about[0].text == "I own bicycle number 0."


def test_a_long_first_conversation_is_known_by_its_keys_not_its_words(tmp_path: Path) -> None:
    """The kind of an export whose first conversation is larger than one read is told
    by its first key: a message that speaks of "mapping" does not make Claude's export
    ChatGPT's."""
    from desktop_mem.core.chat.foreign import open_export

    conv = exports.claude_conversation(1)
    conv["chat_messages"][0]["content"][0]["text"] = '{"mapping": {}} ' + "x" * (2 << 20)
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps([conv]))
    export = open_export(path)
    assert export.kind == "claude"
    assert [len(c.messages) for c in export.conversations()] == [4]


def test_a_file_changed_between_the_survey_and_the_import_is_read_whole_again(
    run: Run, tmp_path: Path
) -> None:
    """The import skips reading the files again only when they are the ones surveyed: one
    damaged meanwhile is refused whole, the files before it included."""
    from desktop_mem.core.config import Config
    from desktop_mem.core.errors import ExportRejected
    from desktop_mem.core.service import Service

    folder = exports.chatgpt_split_folder(tmp_path / "export", count=3)
    base = run.base
    config = Config.resolve(home=Path(base[1]), ollama_host=base[3], embed_model="fake-embed")
    with Service.open(config, run.vault, create=True) as app:
        survey = app.imports.survey(folder)
        assert survey.conversations == 3
        (folder / "conversations-001.json").write_text('[{"mapping": {"a": ')
        with pytest.raises(ExportRejected, match="conversations-001.json in export"):
            app.imports.run(folder, surveyed=survey)
        assert app.conversations.list() == []


def test_a_zip_given_to_the_memory_import_is_named_as_one(run: Run, tmp_path: Path) -> None:
    """It said the zip "is not UTF-8 text… save it as UTF-8", which is wrong advice."""
    path = exports.chatgpt_split_zip(tmp_path / "chatgpt-export.zip", count=2)
    run("conversations", "list")
    code, out, err = run("memory", "import", str(path))
    assert code == EXIT_ERROR and out == "" and "UTF-8" not in err
    assert "is a zip archive, not a memories file" in err
