"""The benchmarks' plumbing, on a tiny LoCoMo-shaped file against the fake server: the
numbers they print for real come from the same code paths."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pytest

from tests.fakes.ollama_server import FakeOllama

SAMPLE = {
    "sample_id": "tiny-1",
    "conversation": {
        "speaker_a": "Ann",
        "speaker_b": "Bob",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            {"speaker": "Ann", "dia_id": "D1:1", "text": "I adopted a beagle puppy named Biscuit"},
            {"speaker": "Bob", "dia_id": "D1:2", "text": "Biscuit sounds adorable"},
            {"speaker": "Ann", "dia_id": "D1:3", "text": "I work as a nurse at night"},
        ],
        "session_2_date_time": "10:00 am on 9 June, 2023",
        "session_2": [
            {"speaker": "Ann", "dia_id": "D2:1", "text": "Biscuit chewed my violin case"},
            {"speaker": "Bob", "dia_id": "D2:2", "text": "Oh no, the violin case"},
        ],
    },
    "observation": {
        "session_1_observation": {
            "Ann": [["Ann adopted a beagle puppy named Biscuit.", "D1:1"]],
        },
        "session_2_observation": {"Ann": [["Biscuit chewed Ann's violin case.", "D2:1"]]},
    },
    "qa": [
        {"question": "What is my beagle puppy named?", "answer": "Biscuit",
         "evidence": ["D1:1"], "category": 4},
        {"question": "What did Biscuit chew?", "answer": "violin case",
         "evidence": ["D2:1"], "category": 1},
        {"question": "Is this adversarial?", "answer": "", "evidence": [], "category": 5},
    ],
}  # fmt: skip

OTHER = {
    "sample_id": "tiny-2",
    "conversation": {
        "speaker_a": "Cho",
        "speaker_b": "Dan",
        "session_1_date_time": "9:00 am on 1 July, 2023",
        "session_1": [
            {"speaker": "Cho", "dia_id": "D1:1", "text": "Quarterly tax filing for my bakery"},
            {"speaker": "Dan", "dia_id": "D1:2", "text": "Sourdough margins are thin"},
        ],
    },
    "observation": {"session_1_observation": {"Cho": [["Cho owns a bakery.", "D1:1"]]}},
    "qa": [
        {"question": "Which bakery tax filing is due quarterly?", "answer": "Cho's",
         "evidence": ["D1:1"], "category": 4},
    ],
}  # fmt: skip


@pytest.fixture
def data_file(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps([SAMPLE, OTHER]), "utf-8")
    return path


def test_context_benchmark_reports_coverage_and_noise(
    data_file: Path, fake_ollama: FakeOllama
) -> None:
    from benchmarks import context

    args = argparse.Namespace(
        data=str(data_file), embed_model="fake-embed", conversations=None, foreign=0,
        loo=True, z_grid=[2.0, 6.0], name_grid=[6.0], credit_grid=[3.0],
        budget=["recall_tokens=250", "max_recalled=6"], rule=[],
    )  # fmt: skip
    result = context.run(args, fake_ollama.url)
    assert result["questions"] == 3  # categories 1-4 with evidence, both conversations
    assert (result["budget"]["recall_tokens"], result["budget"]["max_recalled"]) == (250, 6)
    by_category = result["coverage_by_category"]
    assert by_category and set(by_category) <= {"multi-hop", "temporal", "open-domain",
                                                "single-hop"}  # fmt: skip
    assert result["foreign_questions"] == 3
    for key in ("coverage", "memory_coverage", "foreign_empty", "smalltalk_injected"):
        assert 0.0 <= result[key] <= (1.0 if key != "smalltalk_injected" else 10.0)
    # the beagle question shares its words with the memory learned from D1:1
    assert result["per_conversation"]["tiny-1"]["coverage"] > 0
    assert set(result["leave_one_out"]["chosen"]) == {"tiny-1", "tiny-2"}
    # the store really held the sessions as dated conversations
    assert result["memory_tokens_mean"] > 0
    # what was found beside the evidence is counted, and nothing at or below chance
    assert 0 <= result["extra_mean"] <= result["found_mean"]
    assert result["below_chance"] == 0


def test_locomo_qa_runs_the_chat_path_and_judges(data_file: Path, fake_ollama: FakeOllama) -> None:
    from benchmarks import locomo_qa

    def answer(body: dict[str, Any]) -> str:
        prompt = " ".join(m["content"] for m in body["messages"])
        return "Biscuit" if "Biscuit" in prompt and "named?" in prompt else "I don't know."

    def structured(body: dict[str, Any]) -> Any:
        props = body["format"].get("properties", {})
        if "label" in props:  # the judge
            text = body["messages"][0]["content"]
            gold = text.split("Gold answer: ")[1].split("\n")[0]
            said = text.split("Generated answer: ")[1].split("\n")[0]
            return {"label": "CORRECT" if gold and gold in said else "WRONG"}
        user = body["messages"][-1]["content"]
        if "beagle" in user:
            return {"memories": [{"text": "Has a beagle puppy named Biscuit", "kind": "fact"}]}
        return {"memories": []}

    fake_ollama.responder = answer
    fake_ollama.json_responder = structured
    result = locomo_qa.main(
        [
            "--data", str(data_file), "--ollama-host", fake_ollama.url,
            "--chat-model", "qwen2.5:7b", "--judge-model", "qwen2.5:7b",
            "--embed-model", "fake-embed", "--conversations", "1",
        ]
    )  # fmt: skip
    assert result["questions"] == 2
    assert result["per_category"]["single-hop"]["J"] == 100.0  # Biscuit, from memory
    assert result["per_category"]["multi-hop"]["J"] == 0.0
    assert result["J"] == 50.0
    # the user's turns went through the chat as messages, with their session date, after
    # what was found for them
    sent = [b["messages"][-1]["content"] for b in fake_ollama.chat_requests(structured=False)]
    words = [s.rsplit("</memories>\n\n", 1)[-1] for s in sent]
    assert any(w.startswith("I adopted a beagle puppy") and "2023-05-08" in w for w in words)


def test_mcp_latency_benchmark_times_both_passes() -> None:
    """The MCP benchmark starts the real server through the SDK's stdio client and
    reports the round trip with and without the embedding call."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    proc = subprocess.run(
        [sys.executable, str(root / "benchmarks" / "mcp_latency.py"),
         "--memories", "30", "--calls", "5", "--json"],
        capture_output=True, text=True, timeout=600, cwd=root,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = json.loads(proc.stdout)
    assert out["memories"] == 30 and out["calls"] == 5
    assert 0 < out["embedding_excluded_p50_ms"] <= out["embedding_excluded_max_ms"]
    assert 0 < out["p50_ms"] <= out["max_ms"] and out["embed_p50_ms"] > 0


def test_ui_latency_benchmark_measures_every_action() -> None:
    """The window stall benchmark drives the real window (offscreen) through each
    action and reports a stall for each."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    proc = subprocess.run(
        [sys.executable, str(root / "benchmarks" / "ui_latency.py"),
         "--memories", "60", "--json"],
        capture_output=True, text=True, timeout=600, cwd=root,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = json.loads(proc.stdout[proc.stdout.index("{") :])
    assert out["memories"] == 60
    assert set(out["longest_stall_ms"]) == {
        "scroll the browser", "search the browser", "pin a memory", "delete a memory",
        "chat: send and answer",
    }  # fmt: skip
    assert all(ms >= 0 for ms in out["longest_stall_ms"].values())
    assert set(out["list_during_delete_ms"]) == {"list", "delete"}  # both finished


def test_multilingual_benchmark_reports_every_direction(fake_ollama: FakeOllama) -> None:
    from benchmarks.multilingual import MEMORIES, run

    result = run(fake_ollama.url, "fake-embed")
    assert set(result["by_kind"]) == {"en->en", "en->zh", "zh->en", "zh->zh"}
    assert result["memories"] == len(MEMORIES)
    # the fake model matches shared words only: same-language questions find some of
    # their memories, none crosses languages, unrelated questions get nothing unless
    # they share a word ("my favourite football team" and "my favourite film"), and
    # greetings few (a one-word greeting is one random direction to it, as near a
    # memory as a greeting by chance); with the gate at 2 deviations, more of the
    # unrelated questions, all about "my" or "I", come near a memory of the fake's
    assert result["by_kind"]["en->en"]["found"] > 0 and result["by_kind"]["zh->zh"]["found"] > 0
    # the fake cannot cross languages: what crosses is a chance neighbour let in within
    # the margin of the best item, rarely
    assert (
        result["by_kind"]["en->zh"]["found"] <= 0.1 and result["by_kind"]["zh->en"]["found"] <= 0.1
    )
    assert result["unrelated_empty"] >= 0.4 and result["smalltalk_injected"] <= 2


def test_turn_cost_benchmark_reports_reloads_and_fresh_tokens() -> None:
    """A few turns through the product against the simulated scheduler: no reload, and
    after the first turns only a share of each prompt evaluated afresh."""
    from benchmarks import turn_cost

    args = argparse.Namespace(turns=5, earlier_blocks=None, learning=None, locomo=None)
    result = turn_cost.run(args, None)
    one = result["slots"]["1"]
    assert result["store"] == "new user" and result["reference_prepared_ms"] is not None
    assert one["reloads"] == 0 and len(one["fresh_per_turn"]) == 5
    # what is found for each message is new by nature; the fake embedder, which relates
    # any shared word, finds a lot of it (a cache that failed would evaluate it all afresh)
    assert one["fresh_share_median"] < 0.7 and result["slots"]["4"]["reloads"] == 0
    own = turn_cost.run(
        argparse.Namespace(turns=4, earlier_blocks=None, learning="own", locomo=None), None
    )
    assert own["slots"]["1"]["fresh_share_median"] > 0.9, "its own prompt evicts the chat"


PERSONAL = {
    "memories": [
        {"id": "m1", "text": "I adopted a beagle called Biscuit", "lang": "en"},
        {"id": "m2", "text": "我对花生过敏", "lang": "zh"},
        {"id": "m3", "text": "I play the cello in an orchestra", "lang": "en"},
    ],
    "questions": [
        {"memory": "m1", "text": "what is my beagle called?", "lang": "en"},
        {"memory": "m2", "text": "我对什么过敏？", "lang": "zh"},
        {"memory": "m3", "text": "which orchestra has my cello?", "lang": "en"},
        {"memory": "m3", "text": "我拉什么乐器？", "lang": "zh"},
    ],
    "unrelated": [{"text": "how tall is the Eiffel tower?", "lang": "en"}],
    "small_talk": [{"text": "hello", "lang": "en"}, {"text": "谢谢", "lang": "zh"}],
    "padding": [{"text": "The bakery on the corner sells rye bread", "lang": "en"}],
    "documents": [
        {"name": "boiler.md", "text": "# Boiler\n\n## Reset\n\nHold the boiler reset button "
         "for five seconds.\n\n## Pressure\n\nThe gauge should read 1.3 bar."},
    ],
    "document_questions": [
        {"document": "boiler.md", "answer": "Hold the boiler reset button",
         "text": "how do I reset the boiler?", "lang": "en"},
    ],
    "document_unrelated": [{"text": "when does the library open?", "lang": "en"}],
}  # fmt: skip


def test_personal_benchmark_reports_both_paths_by_direction(
    tmp_path: Path, fake_ollama: FakeOllama
) -> None:
    from benchmarks import personal

    data = tmp_path / "personal.json"
    data.write_text(json.dumps(PERSONAL, ensure_ascii=False), "utf-8")
    result = personal.main(
        ["--data", str(data), "--ollama-host", fake_ollama.url, "--embed-model", "fake-embed",
         "--sizes", "2", "4", "--sweep", "z=3.0,4.0", "--json"]
    )  # fmt: skip
    assert [row["rule"] for row in result["rows"]] == [{"z": 3.0}, {"z": 4.0}]
    row = result["rows"][0]
    assert set(row["memories"]) == {"2", "4", "all"}
    small, full = row["memories"]["2"]["search"], row["memories"]["4"]["search"]
    # the store of 2 holds m1 and m2 only: the cello questions are not asked of it
    assert small["questions"] == 2 and full["questions"] == 4
    assert set(full["kept_by_direction"]) == {"en->en", "zh->zh", "en->zh", "zh->en"}
    # the fake model relates shared words: the beagle and the allergy are found and kept
    assert full["in_top_by_direction"]["en->en"] >= 1 and full["kept"] > 0
    for path in ("search", "read"):
        s = row["memories"]["all"][path]
        assert s["unrelated_empty"] == 1.0 and s["smalltalk_items"] == 0
        assert 0 <= s["extra_per_question"] <= s["given_per_question"]
        assert s["below_chance"] == 0
    docs = row["documents"]["search"]
    assert docs["answers_in_top"] == 1 and docs["kept"] == 1.0
    assert row["documents"]["read"]["kept"] == 1.0


def test_personal_benchmark_says_what_a_single_gate_could_separate(
    tmp_path: Path, fake_ollama: FakeOllama, capsys: pytest.CaptureFixture[str]
) -> None:
    from benchmarks import personal

    data = tmp_path / "personal.json"
    mixed = {**PERSONAL, "unrelated": [
        {"text": "how tall is the Eiffel tower?", "lang": "en", "type": "general"},
        {"text": "what is my cat called?", "lang": "en", "type": "personal"},
    ]}  # fmt: skip
    data.write_text(json.dumps(mixed, ensure_ascii=False), "utf-8")
    result = personal.main(
        ["--data", str(data), "--ollama-host", fake_ollama.url, "--embed-model", "fake-embed",
         "--sizes", "4", "--paths", "search", "--no-documents", "--gates", "0", "1000"]
    )  # fmt: skip
    sep = result["rows"][0]["separation"]["4"]
    # "what is my beagle called?" finds its answer: a gate at 0 keeps it, none at 1000
    assert sep["answer_median"] is not None and sep["answer_median"] > 0
    assert sep["gates"]["0.0"]["answers_at_or_above"] > 0
    assert sep["gates"]["1000.0"]["answers_at_or_above"] == 0
    assert sep["gates"]["1000.0"]["personal_unrelated_below"] == 1.0
    assert sep["gates"]["1000.0"]["general_unrelated_below"] == 1.0
    # "what is my cat called?" shares words with the beagle: near it, above a gate at 0
    assert sep["gates"]["0.0"]["personal_unrelated_below"] == 0.0
    assert "a single gate" in capsys.readouterr().out
    assert result["rows"][1]["rule"] == {}  # the rule's own rows follow as before


def test_personal_benchmark_cuts_what_the_rule_keeps(
    tmp_path: Path, fake_ollama: FakeOllama, capsys: pytest.CaptureFixture[str]
) -> None:
    from benchmarks import personal

    data = tmp_path / "personal.json"
    data.write_text(json.dumps(PERSONAL, ensure_ascii=False), "utf-8")
    result = personal.main(
        ["--data", str(data), "--ollama-host", fake_ollama.url, "--embed-model", "fake-embed",
         "--sizes", "4", "--paths", "search", "--no-documents", "--cuts"]
    )  # fmt: skip
    cuts = result["rows"][0]["cuts"]
    assert set(cuts) == set(personal.CUTS)
    # a cut only takes away: never more answers, never more beside them than as kept
    for c in cuts.values():
        assert c["kept"] <= cuts["as kept"]["kept"] and c["beside"] <= cuts["as kept"]["beside"]
    assert cuts["the first 2"]["beside"] <= 1.0
    assert "beside the answer" in capsys.readouterr().out
    # the cuts themselves, on lists of (id, relevance, weak)
    kept = [(1, 6.0, False), (2, 2.5, False), (3, 1.5, True), (4, 3.5, False)]
    assert [k[0] for k in personal.CUTS["no weak beside a strong one"](kept)] == [1, 2, 4]
    assert [k[0] for k in personal.CUTS["half the best's deviations"](kept)] == [1, 4]
    assert personal.cut_score([(3, True, kept), (9, False, [])], personal.CUTS["the first 2"]) == {
        "kept": 0.0,
        "beside": 1.0,
    }


CARE = {
    "phrasings": [
        {"text": "I'm terrified of heights", "lang": "en", "category": "fear", "care": "health",
         "about": "self"},
        {"text": "我怕狗", "lang": "zh", "category": "fear", "care": "health", "about": "self"},
        {"text": "My friend is allergic to peanuts", "lang": "en", "category": "allergy",
         "care": None, "about": "other", "why": "other-person"},
        {"text": "I'm allergic to Mondays", "lang": "en", "category": "allergy", "care": None,
         "about": "self", "why": "joke"},
    ],
    "people": [{
        "name": "Sam", "lang": "en", "about": "a test",
        "memories": [
            {"id": "s1", "text": "I'm terrified of heights", "lang": "en"},
            {"id": "s2", "text": "I live in Sheffield", "lang": "en"},
            {"id": "s3", "text": "I play the cello", "lang": "en"},
        ],
        "probes": [
            {"memory": "s1", "text": "help me clean the gutters this weekend", "lang": "en",
             "category": "fear"},
            {"memory": "s3", "text": "which instrument do I play, the cello?", "lang": "en",
             "category": "topic"},
        ],
    }],
}  # fmt: skip


def test_care_benchmark_reports_recognition_and_what_is_given(
    tmp_path: Path, fake_ollama: FakeOllama
) -> None:
    from benchmarks import care

    data = tmp_path / "care.json"
    data.write_text(json.dumps(CARE, ensure_ascii=False), "utf-8")
    result = care.main(
        ["--data", str(data), "--ollama-host", fake_ollama.url, "--embed-model", "fake-embed",
         "--no-speed", "--reread", "50", "--json"]
    )  # fmt: skip
    rec = result["recognition"]
    assert rec["recall"] == {"n": 2, "marked": 2, "share": 1.0}
    assert rec["false_marks"]["marked"] == 0
    assert set(rec["recall_by_language"]) == {"en", "zh"}
    assert rec["false_by_why"]["joke"] == {"n": 1, "marked": 0, "share": 0.0}
    (row,) = result["probes"]
    # the fear is given for the gutters, never named; the cello is found by its words
    assert row["counts"]["fear"] == "1/1" and row["how"]["always"] == 1
    assert row["memories_always_given"] == 1 and row["not_given"] == []
    assert result["reread"]["memories"] == 50


INDIRECT = {
    "people": [
        {
            "name": "E",
            "lang": "en",
            "memories": [
                {"id": "e1", "text": "I teach chemistry at a secondary school", "importance": 0.9},
                {"id": "e2", "text": "Bought a new kettle last week", "importance": 0.2},
            ],
            "questions": [{"text": "Plan tomorrow's lesson on the periodic table", "memory": "e1"}],
        }
    ]
}


def test_indirect_benchmark_reports_kept_with_and_without_the_profile(
    tmp_path: Path, fake_ollama: FakeOllama
) -> None:
    """The profile, written through the product by the fake, holds the fact the lesson
    plan needs without naming it; with the profile off, only what is found counts."""
    from benchmarks import indirect

    data = tmp_path / "indirect.json"
    data.write_text(json.dumps(INDIRECT), "utf-8")
    (row,) = indirect.main(["--data", str(data), "--ollama-host", fake_ollama.url,
                            "--embed-model", "fake-embed", "--json"])  # fmt: skip
    assert row["counts"]["profile"]["all"] == "1/1" and row["target_met"]
    assert row["counts"]["from the profile"]["all"] == "1/1"
    (size,) = row["profile"]
    assert size["lines"] == 2 and 0 < size["tokens"] <= 250


def test_imports_benchmark_checks_the_kept_branches() -> None:
    """The import benchmark builds an export with abandoned branches, imports it twice
    and the samples once, and fails if an abandoned message or a missing one slipped by."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    proc = subprocess.run(
        [sys.executable, "-m", "benchmarks.imports", "--conversations", "20", "--turns", "4"],
        capture_output=True, text=True, timeout=600, cwd=root,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "export: 20 conversations, 160 kept messages" in proc.stdout
    assert "abandoned-branch messages imported: 0" in proc.stdout
    assert "sample chatgpt_conversations.json: 14 of 14 kept messages imported" in proc.stdout


SPACES = {
    "profiles": [
        {
            "id": "p1",
            "spaces": [{"name": "Work"}, {"name": "Family"}, {"name": "Client", "apart": True}],
            "memories": [
                {"id": "m1", "text": "My manager Priya wants the deck by Friday", "space": "Work"},
                {"id": "m2", "text": "My sister Priya marries in Hangzhou", "space": "Family"},
                {"id": "m3", "text": "The client launch is on Friday", "space": "Client"},
                {"id": "m4", "text": "I am allergic to peanuts", "space": None},
            ],
            "questions": [
                {"id": "q1", "space": "Work", "text": "what does Priya want by Friday?",
                 "expects": ["m1"], "type": "answer"},
                {"id": "q2", "space": "Family", "text": "where does Priya marry?",
                 "expects": ["m2"], "type": "answer"},
                {"id": "q3", "space": "Family", "text": "a dinner without peanuts",
                 "expects": ["m4"], "type": "shared"},
                {"id": "q4", "space": "Client", "text": "am I allergic to peanuts?",
                 "expects": [], "type": "unrelated", "note": "apart"},
                {"id": "q5", "space": "Work", "text": "how tall is the Eiffel tower",
                 "expects": [], "type": "unrelated"},
            ],
        }
    ]
}  # fmt: skip


def test_spaces_benchmark_counts_what_crosses_between_spaces(
    tmp_path: Path, fake_ollama: FakeOllama
) -> None:
    from benchmarks import spaces

    data = tmp_path / "spaces.json"
    data.write_text(json.dumps(SPACES, ensure_ascii=False), "utf-8")
    result = spaces.main(
        ["--data", str(data), "--ollama-host", fake_ollama.url, "--embed-model", "fake-embed",
         "--json"]
    )  # fmt: skip
    assert [r["path"] for r in result["rows"]] == ["read", "search"]
    for row in result["rows"]:
        assert row["crossed"] == 0, row["examples"]
        assert row["asked"] == {"shared": 1, "shared_flat": 1, "kept": 2, "kept_flat": 2,
                                "empty": 1, "empty_flat": 1}  # fmt: skip
        assert row["kept"] == 1.0 and row["kept_flat"] >= 0.5
    assert result["rows"][0]["shared"] == 1.0  # the allergy reaches the family chat
