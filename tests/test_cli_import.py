"""`desktop-mem import` and `desktop-mem review`, end to end through main()."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import Run
from tests.fakes.ollama_server import FakeOllama

DATA = Path(__file__).resolve().parent / "data" / "imports"


def test_import_says_what_it_found_then_imports_once(run: Run) -> None:
    code, out, _ = run("import", str(DATA / "chatgpt_export.zip"), "--dry-run")
    assert code == 0
    assert out == (
        "Found in ChatGPT's export: 3 new conversations (14 messages) from 2024-03-02 to "
        "2024-09-20; 2 empty conversations; 1 fact you told it about yourself (proposed for "
        "review); custom instructions. Nothing was written (--dry-run).\n"
    )
    assert json.loads(run("conversations", "list", "--json")[1]) == []
    code, out, _ = run("import", str(DATA / "chatgpt_export.zip"), "--use-instructions")
    assert code == 0
    assert "Imported 3 conversations (14 messages)" in out
    assert "7 messages of yours wait to be read" in out
    listed = json.loads(run("conversations", "list", "--json")[1])
    assert {c["origin"] for c in listed} == {"chatgpt"}
    settings = run("settings", "list")[1]
    assert "Answer briefly, in British English." in settings and "nurse" not in settings
    assert "1 memory proposed" in out  # what the person told ChatGPT about themselves
    waiting = json.loads(run("review", "list", "--json")[1])["waiting"]
    assert [w["text"] for w in waiting] == ["I'm a nurse in Leeds who bakes at weekends."]
    code, out, _ = run("import", str(DATA / "chatgpt_conversations.json"), "--json")
    report = json.loads(out)
    assert report["found"]["already"] == 3 and report["imported"]["conversations"] == 0


def test_review_reads_accepts_and_rejects(run: Run, fake_ollama: FakeOllama) -> None:
    run("import", str(DATA / "claude_conversations.json"))
    fake_ollama.reply_json({"memories": [{"text": "Commutes 12 km to the hospital by bike"}]})
    fake_ollama.reply_json({"memories": [{"text": "Has a budget of 2,000 pounds for a bike"}]})
    code, out, _ = run("review", "read")
    assert code == 0 and out == "Read 4 messages: 2 facts proposed.\n"
    waiting = json.loads(run("review", "list", "--json")[1])["waiting"]
    assert [w["source"] for w in waiting] == ["from Claude, 2024-04-10"] * 2
    code, out, _ = run("review")
    assert "Commutes 12 km to the hospital by bike  [from Claude, 2024-04-10]" in out
    assert run("review", "accept")[0] == 2  # neither ids nor --all
    assert run("review", "accept", str(waiting[0]["id"]))[1] == "Accepted: 1 new memory.\n"
    assert run("review", "reject", "--all")[1] == "Rejected 1 fact.\n"
    memories = json.loads(run("memory", "list", "--json")[1])
    assert [m["text"] for m in memories] == ["Commutes 12 km to the hospital by bike"]


def test_a_file_of_another_kind_is_one_sentence_and_exit_2(run: Run, tmp_path: Path) -> None:
    other = tmp_path / "list.json"
    other.write_text('[{"name": "a"}]')
    code, out, err = run("import", str(other))
    assert code == 2 and out == ""
    assert err.count(".") >= 1 and "not an export this app reads" in err


def test_export_all_is_read_back_by_import(run: Run, tmp_path: Path) -> None:
    run("import", str(DATA / "claude_conversations.json"), "--no-facts")
    out = tmp_path / "mine.json"
    code, said, _ = run("conversations", "export-all", str(out))
    assert code == 0 and said.startswith("Exported 3 conversations")
    code, said, _ = run("import", str(out), "--dry-run")  # into the profile it came from
    assert said.startswith("Found in desktop-mem's export: 0 new conversations (0 messages); 3 ")


def test_facts_since_and_a_bad_date(run: Run) -> None:
    code, out, _ = run(
        "import", str(DATA / "claude_conversations.json"), "--facts-since", "2024-06-01"
    )
    assert code == 0 and "2 messages of yours wait to be read" in out
    code, _, err = run("import", str(DATA / "chatgpt_conversations.json"), "--since", "last spring")
    assert code == 1 and "'last spring' is not a date: give it as YYYY-MM-DD." in err


def test_review_says_which_fact_replaces_which(
    run: Run, fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    from tests.core.test_importing import _mover, _moves_export

    run("memory", "add", "Lives in Paris")
    fake_ollama.json_responder = _mover
    run("import", str(_moves_export(tmp_path / "conversations.json")))
    assert run("review", "read")[1] == "Read 2 messages: 2 facts proposed.\n"
    out = run("review")[1]
    today = json.loads(run("memory", "list", "--json")[1])[0]["created_at"][:10]
    # Paris, said today, is newer than both: each of them would be kept as past
    assert f"replaced by: Lives in Paris ({today}), kept as past" in out
    assert "replaces: Lives in Berlin (2023-02-01)" in out
    lines = out.splitlines()
    berlin = lines.index(next(ln for ln in lines if "Lives in Berlin  [" in ln))
    assert lines[berlin + 1].strip() == "replaced by: Lives in Lisbon (2024-06-10), kept as past"
    assert run("review", "accept", "--all")[0] == 0
    ends = {m["text"]: m["valid_until"] for m in json.loads(run("memory", "list", "--json")[1])}
    assert ends["Lives in Paris"] is None and ends["Lives in Lisbon"].startswith(today)
    assert ends["Lives in Berlin"].startswith("2024-06-10")


def test_review_says_which_space_each_fact_goes_to(run: Run) -> None:
    code, out, _ = run("import", str(DATA / "claude_export.zip"), "--dry-run")
    assert "1 project imported into a space each" in out
    run("import", str(DATA / "claude_export.zip"), "--no-facts")
    listed = json.loads(run("spaces", "list", "--json")[1])
    assert [s["name"] for s in (listed["spaces"] if isinstance(listed, dict) else listed)][-1:] == [
        "Allotment"
    ]
    code, out, _ = run("review")
    assert code == 0
    lines = out.splitlines()
    grows = next(i for i, line in enumerate(lines) if "grows potatoes" in line)
    assert lines[grows + 1].strip() == "goes to: the space Allotment"
    nurse = next(i for i, line in enumerate(lines) if "nurse in Leeds" in line)
    assert lines[nurse + 1].strip() == "goes to: the shared space"
    waiting = json.loads(run("review", "list", "--json")[1])["waiting"]
    assert {w["text"]: w["space_name"] for w in waiting}[
        "The user grows potatoes and beans on an allotment."
    ] == "Allotment"
    assert run("review", "accept", "--all")[0] == 0
    allotment = json.loads(run("memory", "list", "--space", "Allotment", "--json")[1])
    assert "The user grows potatoes and beans on an allotment." in [m["text"] for m in allotment]
