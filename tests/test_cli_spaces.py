"""`spaces …` and `--space` through the real command line: a search in a space never
returns another space's memory, and a space kept apart does not see the shared one."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.conftest import Run

DATA = Path(__file__).resolve().parent / "data" / "imports"


def ids(out: str) -> list[str]:
    return [m["text"] for m in json.loads(out)]


def test_spaces_keep_look_alike_facts_apart_on_the_command_line(run: Run) -> None:
    assert run("spaces", "add", "Work", "--instruction", "Be brief.")[0] == 0
    assert run("spaces", "add", "家庭")[0] == 0
    run("memory", "add", "My manager Priya wants the report by Friday", "--space", "work")
    run("memory", "add", "My sister Priya gets married in March", "--space", "家庭")
    run("memory", "add", "I am allergic to peanuts")
    code, out, _ = run("memory", "search", "Priya", "--all", "--space", "Work", "--json")
    assert code == 0
    texts = ids(out)
    assert "My manager Priya wants the report by Friday" in texts
    assert "My sister Priya gets married in March" not in texts
    code, out, _ = run("memory", "list", "--space", "家庭", "--json")
    assert set(ids(out)) == {"My sister Priya gets married in March", "I am allergic to peanuts"}
    code, out, _ = run("memory", "list", "--json")  # the person's own view: every space
    assert len(ids(out)) == 3
    assert run("spaces", "edit", "家庭", "--apart")[0] == 0
    code, out, _ = run("memory", "list", "--space", "家庭", "--json")
    assert ids(out) == ["My sister Priya gets married in March"]
    code, out, _ = run("memory", "list", "--space", "shared", "--json")
    assert ids(out) == ["I am allergic to peanuts"]
    for name in ("共享", "共享空间", " Shared "):  # the shared space's name, as the window shows it
        code, out, _ = run("memory", "list", "--space", name, "--json")
        assert (code, ids(out)) == (0, ["I am allergic to peanuts"]), name
    code, out, _ = run("spaces", "list")
    assert "kept apart" in out and "Work" in out


def test_moving_and_removing_spaces_say_what_they_did(run: Run) -> None:
    run("spaces", "add", "Thesis")
    code, out, _ = run("memory", "add", "Chapter 3 is due in May", "--space", "Thesis", "--json")
    memory = json.loads(out)["id"]
    code, out, _ = run("memory", "move", str(memory), "--to", "shared")
    assert (code, out) == (0, "Moved 1 memory to the shared space.\n")
    run("memory", "move", str(memory), "--to", "thesis")
    code, _out, err = run("spaces", "remove", "Thesis", "--delete")
    assert code == 2 and "--yes" in err
    code, out, _ = run("spaces", "remove", "Thesis", "--move")
    assert code == 0 and "1 memories" in out and "moved to the shared space" in out
    code, out, _ = run("memory", "list", "--space", "shared", "--json")
    assert ids(out) == ["Chapter 3 is due in May"]
    code, _out, err = run("memory", "list", "--space", "Thesis")
    assert code == 1 and "There is no space named 'Thesis'" in err
    code, _out, err = run("spaces", "add", "shared")
    assert code == 1 and "name of the shared space" in err


def test_create_rename_docs_and_json_on_the_command_line(run: Run, tmp_path: Path) -> None:
    assert run("spaces", "create", "Thesis", "--json")[0] == 0
    code, out, _ = run("spaces", "rename", "thesis", "论文", "--json")
    assert code == 0 and json.loads(out)["name"] == "论文"
    doc = tmp_path / "notes.md"
    doc.write_text("# Chapter 3\n\nThe sensor calibration runs on Tuesdays.\n", "utf-8")
    assert run("docs", "add", str(doc), "--space", "论文")[0] == 0
    code, out, _ = run("docs", "list", "--space", "shared", "--json")
    assert json.loads(out) == []  # the shared space's chats are not given it
    code, out, _ = run("docs", "list", "--space", "论文", "--json")
    assert [d["title"] for d in json.loads(out)] == ["notes.md"]
    code, out, _ = run(
        "docs", "search", "sensor calibration", "--all", "--space", "shared", "--json"
    )
    assert json.loads(out) == []
    code, out, _ = run("docs", "search", "sensor calibration", "--all", "--json")
    assert json.loads(out)  # the person's own search: every space
    code, out, _ = run("spaces", "remove", "论文", "--move", "--json")
    assert code == 0 and json.loads(out)["documents"] == 1


def test_conversations_search_covers_every_space_unless_one_is_named(run: Run) -> None:
    run("spaces", "add", "Work")
    assert run("chat", "The quarterly roadmap review is on Thursday", "--space", "Work",
               "--no-wait")[0] == 0  # fmt: skip
    code, out, _ = run("conversations", "search", "roadmap review", "--json")
    assert code == 0 and "roadmap" in out
    code, out, _ = run("conversations", "search", "roadmap review", "--space", "shared", "--json")
    assert code == 0 and "roadmap" not in out


def test_an_import_lands_in_the_space_it_is_given(run: Run, tmp_path: Path) -> None:
    export = tmp_path / "conversations.json"
    export.write_text((DATA / "chatgpt_conversations.json").read_text(), encoding="utf-8")
    assert run("spaces", "add", "Work")[0] == 0
    code, out, err = run("import", str(export), "--space", "Nowhere")
    assert code == 1, err  # one sentence, nothing written
    assert err.strip().splitlines() == [
        "desktop-mem: There is no space named 'Nowhere': `desktop-mem spaces` lists them."
    ]
    code, out, _ = run("conversations", "list", "--json")
    assert json.loads(out) == []
    code, out, err = run("import", str(export), "--space", "work", "--no-facts")
    assert code == 0, err
    assert "into Work," in out
    code, out, _ = run("conversations", "list", "--space", "Work", "--json")
    assert len(json.loads(out)) == 3
    code, out, _ = run("conversations", "list", "--space", "shared", "--json")
    assert json.loads(out) == []


def test_adding_again_to_another_space_says_where_it_stays_and_docs_move_moves_it(
    run: Run, tmp_path: Path
) -> None:
    """A file or folder added before stays in its space when added again for another,
    and says so with the command that moves it; `docs move` does, ids and folders."""
    assert run("spaces", "create", "Work")[0] == 0
    assert run("spaces", "create", "Home life")[0] == 0
    doc = tmp_path / "plan.md"
    doc.write_text("# Plan\n\nThe garden shed gets a new roof in May.\n", "utf-8")
    folder = tmp_path / "recipes"
    folder.mkdir()
    (folder / "soup.md").write_text("# Soup\n\nLentils, cumin and lemon.\n", "utf-8")
    assert run("docs", "add", str(doc), str(folder), "--space", "Work")[0] == 0

    code, out, err = run("docs", "add", str(doc), "--space", "Home life", "--json")
    assert code == 0
    (stays,) = json.loads(out)["elsewhere"]
    assert stays["path"] == str(doc) and stays["space_name"] == "Work"
    code, _, err = run("docs", "add", str(doc), "--space", "Home life")
    assert code == 0
    assert "plan.md was added before, to the space 'Work': it stays there (`docs move " in err
    assert "--to 'Home life'` moves it)." in err
    code, _, err = run("docs", "add", str(folder))  # the shared space asked
    assert "was added before, to the space 'Work': it stays there with its files" in err
    assert "--to shared` moves it" in err
    code, _, err = run("docs", "add", str(folder / "soup.md"), "--space", "Home life")
    assert "is in the watched folder" in err and "which is in the space 'Work'" in err
    code, _, err = run("docs", "add", str(doc), "--space", "Work")  # where it is: no word
    assert code == 0 and "stays there" not in err
    listed = {d["title"]: d["space"] for d in json.loads(run("docs", "list", "--json")[1])}
    assert len(set(listed.values())) == 1  # nothing moved

    doc_id = stays["document"]
    code, out, _ = run("docs", "move", str(doc_id), str(doc_id), "--to", "Home life")
    assert code == 0 and out == "Moved 1 document to 'Home life'.\n"
    code, out, _ = run(
        "docs", "move", "--folder", str(folder), "--folder", str(folder), "--to", "shared"
    )
    assert code == 0 and "(1 of them with 1 watched folder) to the shared space" in out
    code, _, err = run("docs", "add", str(doc), "--space", "Home life")
    assert "stays there" not in err  # it is in the space asked now
    soup = next(d for d in json.loads(run("docs", "list", "--json")[1]) if d["folder"])
    code, _, err = run("docs", "move", str(soup["id"]), "--to", "Work")
    assert code == 2 and "move the folder (`docs move --folder" in err
    code, _, err = run("docs", "move", "--folder", str(tmp_path / "nowhere"), "--to", "Work")
    assert code != 0 and "is not a watched folder" in err
    code, _, err = run("docs", "move", "--to", "Work")
    assert code == 2 and "Name the documents" in err
    listed = {d["title"]: d["space"] for d in json.loads(run("docs", "list", "--json")[1])}
    assert listed["soup.md"] is None  # a refused move moved nothing


def _md(path: Path) -> Path:
    path.write_text("# T\n\nSome words about the garden shed.\n", "utf-8")
    return path


def _spaces_of(run: Run) -> dict[str, int | None]:
    return {d["path"]: d["space"] for d in json.loads(run("docs", "list", "--json")[1])}


@pytest.mark.parametrize("first", ["outer", "inner", "file"])
def test_a_folder_holding_what_another_space_has_says_it_stays(
    run: Run, tmp_path: Path, first: str
) -> None:
    """A folder added for one space whose files are another's (the folder it is in is
    watched there, a folder in it is, or a file of it was added there on its own) says
    so; a folder inside a watched one is read as part of it, not watched again."""
    assert run("spaces", "create", "Work")[0] == 0
    assert run("spaces", "create", "Home")[0] == 0
    inner = tmp_path / "outer" / "inner"
    inner.mkdir(parents=True)
    a = _md(inner / "a.md")
    named = {"outer": tmp_path / "outer", "inner": inner, "file": a}[first]
    assert run("docs", "add", str(named), "--space", "Work")[0] == 0
    again = inner if first == "outer" else tmp_path / "outer"
    code, out, _ = run("docs", "add", str(again), "--space", "Home", "--json")
    assert code == 0
    (stays,) = json.loads(out)["elsewhere"]
    assert stays["space_name"] == "Work"
    assert stays["path"] == (str(a) if first == "file" else str(named))
    assert _spaces_of(run)[str(a)] == 1  # it stayed in Work, and it was said
    if first == "outer":
        folders = [f["path"] for f in json.loads(run("docs", "folders", "--json")[1])]
        assert folders == [str(named)], "a folder in a watched one is not watched twice"


def test_one_file_named_twice_through_a_link_is_said_to_stay_once(run: Run, tmp_path: Path) -> None:
    assert run("spaces", "create", "Work")[0] == 0
    a = _md(tmp_path / "a.md")
    (tmp_path / "link.md").symlink_to(a)
    assert run("docs", "add", str(a), "--space", "Work")[0] == 0
    code, out, _ = run("docs", "add", str(a), str(tmp_path / "link.md"), "--json")
    assert code == 0 and len(json.loads(out)["elsewhere"]) == 1


@pytest.mark.parametrize(
    ("folder_name", "space_name"),
    [("two\nlines", "Work"), ("plain", "-draft"), ("t\x1b[2Jab", "Wo\trk")],
)
def test_the_docs_move_printed_runs_as_printed(
    run: Run, tmp_path: Path, folder_name: str, space_name: str
) -> None:
    """The command said beside "it stays there" is safe on the terminal and moves it
    when run as printed, whatever the folder's and the space's names hold."""
    assert run("spaces", "create", "--", space_name)[0] == 0
    folder = tmp_path / folder_name
    folder.mkdir()
    a = _md(folder / "a.md")
    single = _md(tmp_path / "single.md")
    assert run("docs", "add", str(folder), str(single))[0] == 0  # the shared space
    _, _, err = run("docs", "add", str(folder), str(single), f"--space={space_name}")
    assert "\x1b" not in err and err.count("\n") == 2, err
    for printed in [line.split("`")[1] for line in err.splitlines()]:
        words = subprocess.run(  # as a shell reads it
            ["bash", "-c", f"printf '%s\\0' {printed}"], capture_output=True, check=True
        ).stdout.decode()
        code, _, said = run(*words.split("\0")[:-1])
        assert code == 0, (printed, said)
    assert set(_spaces_of(run).values()) == {1}
    assert str(a) in _spaces_of(run)
