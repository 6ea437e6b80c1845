"""The Python API, called the way a script calls it (the README's example)."""

from __future__ import annotations

from pathlib import Path

import pytest

import desktop_mem
from desktop_mem.core.errors import NotFound
from desktop_mem.core.keys.vault import Vault
from tests.fakes.ollama_server import FakeOllama


def test_a_script_adds_searches_chats_and_deletes(
    home: Path, fake_ollama: FakeOllama, vault: Vault
) -> None:
    fake_ollama.reply("Green tea, then: try the Longjing.")
    with desktop_mem.open(
        profile="default", home=str(home), ollama_host=fake_ollama.url,
        embed_model="fake-embed", vault=vault,
    ) as mem:  # fmt: skip
        tea = mem.add("Prefers green tea over coffee", kind="preference")
        mem.add("Allergic to peanuts", pinned=True)
        assert tea["id"] and tea["kind"] == "preference"
        hits = mem.search("does the user prefer green tea or coffee")
        assert [h["text"] for h in hits] == ["Prefers green tea over coffee"]
        assert hits[0]["score"] > 0 and hits[0]["signals"]
        assert mem.search("xylophone quantum") == []  # nothing relevant: nothing returned
        assert len(mem.search("xylophone quantum", everything=True)) == 2
        again = mem.add("Prefers green tea over coffee", consolidate=True)
        assert again["changes"][0]["action"] == "skipped"  # no duplicate
        turn = mem.chat("What should I drink with green tea or coffee?", learn=False)
        assert turn["answer"] == "Green tea, then: try the Longjing."
        assert tea["id"] in [u["id"] for u in turn["used"]]
        updated = mem.update(tea["id"], "Prefers jasmine green tea over coffee")
        assert [v["text"] for v in mem.history(tea["id"])][0] == "Prefers green tea over coffee"
        assert updated["text"].startswith("Prefers jasmine")
        assert mem.delete(tea["id"]) == 1
        with pytest.raises(NotFound):
            mem.get(tea["id"])
        assert [m["text"] for m in mem.memories()] == ["Allergic to peanuts"]


def test_the_command_line_and_the_window_get_records_from_the_same_calls(
    home: Path, fake_ollama: FakeOllama, vault: Vault
) -> None:
    """plain=False (what the command line and the window use) gives the core's records
    with their warnings; a script gets the same operation as dicts, warnings included."""
    from desktop_mem.api import MemoryLayer
    from desktop_mem.core.memory.records import Memory, WriteResult
    from desktop_mem.core.search.hybrid import SearchResult

    with desktop_mem.open(
        home=str(home), ollama_host=fake_ollama.url, embed_model="fake-embed", vault=vault
    ) as mem:  # fmt: skip
        records = MemoryLayer(mem.service, plain=False)
        written = records.add("Plays the cello on Sundays", valid_from="2024-01-01")
        assert isinstance(written, WriteResult) and written.memory.valid_from == "2024-01-01"
        found = records.search("does the user play the cello")
        assert isinstance(found, SearchResult) and found.hits[0].memory.id == written.memory.id
        assert all(isinstance(m, Memory) for m in records.memories(text="cello"))
        records.update(written.memory.id, "Plays the cello on Saturdays")
        assert records.restore(written.memory.id, 1).memory.text == "Plays the cello on Sundays"
        fake_ollama.fail_next(status=500, times=3)
        plain = mem.add("Keeps bees in the garden")
        assert plain["warnings"] and "Saved anyway" in plain["warnings"][0]
        assert records.get(plain["id"]).text == "Keeps bees in the garden"


def test_stop_ends_a_chat_turn_waiting_for_the_model_at_once(
    home: Path, fake_ollama: FakeOllama, vault: Vault
) -> None:
    import threading

    from tests.fakes.ollama_server import HOLD_LIMIT, hang

    held = hang(fake_ollama)  # the server has the request and does not answer yet
    with desktop_mem.open(
        profile="default", home=str(home), ollama_host=fake_ollama.url,
        embed_model="fake-embed", vault=vault,
    ) as mem:  # fmt: skip
        out: dict[str, object] = {}
        turn = threading.Thread(target=lambda: out.update(mem.chat("hello?", learn=False)))
        turn.start()
        assert held.arrived.wait(HOLD_LIMIT)
        mem.stop()
        turn.join(HOLD_LIMIT)
        assert not held.answered.is_set(), "chat() returned only when the server answered"
        assert out["status"] == "stopped" and out["answer"] == ""
        held.release.set()
