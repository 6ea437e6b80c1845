"""`desktop-mem chat "forget …"` (issue 53): --yes confirms it with --json too, and the
JSON says what went; a memory that says more than what is forgotten keeps the rest (with
--yes by default, and said), and never loses a health or safety fact on the way."""

from __future__ import annotations

import json

from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.profile import Profile
from tests.conftest import Run
from tests.fakes.ollama_server import FakeOllama


def _texts(run: Run) -> list[str]:
    return [m["text"] for m in json.loads(run("memory", "list", "--json")[1])]


def test_forget_with_yes_and_json_deletes_and_says_what(run: Run, fake_ollama: FakeOllama) -> None:
    run("chat", "remember that I play the cello")
    code, out, _ = run("chat", "forget the cello", "--yes", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["forgotten"]["deleted"] is True
    assert data["forgotten"]["memories_deleted"] == 1
    assert len(data["forgotten"]["memories"]) == 1
    assert _texts(run) == [], "deleted, as without --json"


def test_forget_with_json_alone_deletes_nothing_and_says_so(
    run: Run, fake_ollama: FakeOllama
) -> None:
    run("chat", "remember that I play the cello")
    code, out, _ = run("chat", "forget the cello", "--json")
    data = json.loads(out)
    assert code == 0 and data["forgotten"]["deleted"] is False
    assert len(data["forget_candidates"]) == 1
    assert len(_texts(run)) == 1


def test_partial_forget_keeps_the_rest_and_the_allergy(
    run: Run, fake_ollama: FakeOllama, profile: Profile
) -> None:
    profile.memories.add(NewMemory("Lives in Lisbon and has a peanut allergy"))
    profile.close()
    code, out, err = run("chat", "forget that I live in Lisbon", "--yes")
    assert code == 0, err
    assert "the rest of it: Has a peanut allergy" in err
    assert "Kept the rest of memory #1 as a new memory: Has a peanut allergy" in err
    assert _texts(run) == ["Has a peanut allergy"]


def test_partial_forget_in_json_says_the_rest_kept(
    run: Run, fake_ollama: FakeOllama, profile: Profile
) -> None:
    profile.memories.add(NewMemory("The user lives in Lisbon, works at a bakery"))
    profile.close()
    code, out, _ = run("chat", "forget Lisbon", "--yes", "--json")
    data = json.loads(out)
    assert data["forget_rests"] == {"1": "The user works at a bakery"}
    assert data["forgotten"]["rests"] == {"1": "The user works at a bakery"}
    assert _texts(run) == ["The user works at a bakery"]


def test_a_health_fact_that_cannot_be_parted_is_kept_and_said(
    run: Run, fake_ollama: FakeOllama, profile: Profile
) -> None:
    profile.memories.add(NewMemory("Lisbon resident with a severe peanut allergy"))
    profile.close()
    code, _, err = run("chat", "forget Lisbon", "--yes")
    assert code == 0
    assert "Kept memory #1: it is about your health or safety" in err
    assert _texts(run) == ["Lisbon resident with a severe peanut allergy"]
