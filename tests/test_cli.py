"""The command line: outputs, --json, and the documented exit codes."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import keyring.backends.fail
import pytest

from desktop_mem.core.keys.vault import KeyringAccess, Vault
from tests.conftest import Run
from tests.fakes.ollama_server import FakeOllama


def test_add_list_search_edit_history_delete(run: Run) -> None:
    assert run("memory", "add", "I live in Hangzhou", "--kind", "fact")[0] == 0
    assert run("memory", "add", "我喜欢喝茶", "--kind", "preference", "--pin")[0] == 0
    code, out, _ = run("memory", "list", "--json")
    items = json.loads(out)
    assert code == 0 and [m["text"] for m in items] == ["我喜欢喝茶", "I live in Hangzhou"]
    assert {"id", "text", "kind", "pinned", "created_at", "updated_at"} <= items[0].keys()

    code, out, _ = run("memory", "search", "喝茶", "-k", "1", "--json")
    hits = json.loads(out)
    assert code == 0 and hits[0]["text"] == "我喜欢喝茶" and hits[0]["score"] > 0

    code, out, _ = run("memory", "search", "Hangzhou")
    assert code == 0 and "I live in Hangzhou" in out.splitlines()[0]

    assert run("memory", "edit", "1", "I live in Shanghai")[0] == 0
    code, out, _ = run("memory", "history", "1", "--json")
    assert [v["text"] for v in json.loads(out)] == ["I live in Hangzhou", "I live in Shanghai"]
    code, out, _ = run("memory", "history", "1")
    assert "v2" in out and "edited by user" in out

    assert run("memory", "unpin", "2")[0] == 0
    assert run("memory", "pin", "2")[0] == 0
    assert run("memory", "restore", "1", "1")[0] == 0
    assert json.loads(run("memory", "list", "--json")[1])[1]["text"] == "I live in Hangzhou"

    code, out, _ = run("memory", "delete", "1")
    assert code == 0 and "Deleted 1 memory" in out
    assert len(json.loads(run("memory", "list", "--json")[1])) == 1


def test_export_import_forget_all_reembed(run: Run, tmp_path: Path) -> None:
    run("memory", "add", "one")
    run("memory", "add", "two")
    target = tmp_path / "out.json"
    code, out, _ = run("memory", "export", str(target))
    assert code == 0 and "not encrypted" in out and target.exists()
    code, _, err = run("memory", "forget-all")
    assert code == 2 and "--yes" in err
    assert run("memory", "forget-all", "--yes")[0] == 0
    code, out, _ = run("memory", "import", str(target), "--json")
    assert code == 0 and json.loads(out)["imported"] == 2
    code, out, _ = run("memory", "reembed")
    assert code == 0 and "Indexed 2" in out
    md = tmp_path / "out.md"
    assert run("memory", "export", str(md))[0] == 0 and md.read_text("utf-8").startswith(
        "# Memories"
    )


def test_import_with_bad_rows_exits_1_and_lists_lines(run: Run, tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("text,kind\nok,fact\n,fact\n", "utf-8")
    code, out, err = run("memory", "import", str(bad), "--json")
    assert code == 1 and "line 3" in err
    assert json.loads(out)["problems"][0]["line"] == 3
    assert json.loads(run("memory", "list", "--json")[1]) == []


def test_usage_errors_exit_2(run: Run) -> None:
    assert run("memory")[0] == 2
    assert run("memory", "frobnicate")[0] == 2
    assert run("memory", "delete", "abc")[0] == 2
    assert run("memory", "edit", "1")[0] == 2
    assert run("--profile", "../etc", "memory", "list")[0] == 2
    assert run("memory", "search", "x", "-k", "0")[0] == 2


def test_not_found_exits_1(run: Run) -> None:
    code, _, err = run("memory", "delete", "42")
    assert code == 1 and "\ndesktop-mem: There is no memory 42" in err
    assert "Traceback" not in err


def test_locked_exits_3(
    home: Path, fake_ollama: FakeOllama, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = Run(home, fake_ollama, Vault(KeyringAccess(keyring.backends.fail.Keyring(), timeout=1)))
    code, _, err = run("memory", "list")
    assert code == 3 and "DESKTOP_MEM_PASSPHRASE" in err
    monkeypatch.setenv("DESKTOP_MEM_PASSPHRASE", "the right one")
    assert run("memory", "add", "secret plan")[0] == 0
    monkeypatch.setenv("DESKTOP_MEM_PASSPHRASE", "the wrong one")
    code, _, err = run("memory", "list")
    assert code == 3 and "passphrase is wrong" in err and err.count("\n") == 1


def test_model_server_problems_exit_4(run: Run, home: Path, vault: Vault) -> None:
    run("memory", "add", "hello there")
    code, _, err = run(
        "memory",
        "reembed",
        base=["--home", str(home), "--ollama-host", "127.0.0.1:9", "--embed-model", "fake-embed"],
    )
    assert code == 4 and "not reachable" in err
    code, _, err = run(
        "memory", "reembed", "--missing", base=[*run.base[:4], "--embed-model", "missing-model"]
    )
    assert code == 1 and "--embed-model missing-model memory reembed" in err  # another model
    code, _, err = run("memory", "reembed", base=[*run.base[:4], "--embed-model", "missing-model"])
    assert code == 4 and "ollama pull missing-model" in err


def test_the_command_a_model_mismatch_names_is_one_that_runs(
    run: Run, fake_ollama: FakeOllama
) -> None:
    assert run("memory", "add", "I have a cat")[0] == 0
    fake_ollama.embed_models["other-embed"] = 32
    other = [*run.base[:4], "--embed-model", "other-embed"]
    code, _, err = run("memory", "search", "cat", base=other)
    assert code == 1
    named = re.search(r"`desktop-mem ([^`]+)`", err)
    assert named, err
    code, _, err = run(*shlex.split(named.group(1)), base=run.base[:4])
    assert code == 0, err
    code, out, _ = run("memory", "search", "cat", base=other)
    assert code == 0 and "I have a cat" in out


def test_add_while_ollama_down_saves_and_warns(run: Run, home: Path) -> None:
    code, out, err = run(
        "memory",
        "add",
        "offline note",
        base=["--home", str(home), "--ollama-host", "127.0.0.1:9", "--embed-model", "fake-embed"],
    )
    assert code == 0 and "Remembered" in out and "warning:" in err and "reembed --missing" in err


def test_doctor(run: Run) -> None:
    run("memory", "add", "x")
    code, out, _ = run("doctor", "--json")
    checks = {c["name"]: c for c in json.loads(out)}
    assert checks["ollama"]["ok"] and checks["database"]["ok"] and checks["sqlite-vec"]["ok"]
    assert checks["keyring"]["ok"] and checks["embedding model"]["ok"]
    assert code == 0
    code, out, _ = run("doctor", base=[*run.base[:2], "--ollama-host", "127.0.0.1:9"])
    assert code == 1 and "ollama serve" in out


def test_help_and_version_from_a_real_process() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "desktop_mem", "--help"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0 and "Exit codes" in proc.stdout
    proc = subprocess.run(
        [sys.executable, "-m", "desktop_mem", "memory", "nope"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2


def test_commands_import_only_what_they_use(tmp_path: Path) -> None:
    """--version imports none of the heavy packages; a profile protected by a passphrase
    is listed without the keyring package (about 0.1 s of imports) or numpy."""
    env = {**os.environ, "DESKTOP_MEM_HOME": str(tmp_path), "DESKTOP_MEM_PASSPHRASE": "x" * 10}
    probe = (
        "import sys; from desktop_mem.cli import main; code = main(sys.argv[1:]); "
        "heavy = ('keyring', 'numpy', 'PySide6', 'ollama', 'httpx', 'pydantic'); "
        # numpy stands in lazily (core/lazy.py): in sys.modules only once really imported
        "real = [m for m in heavy if type(sys.modules.get(m)).__name__ == 'module']; "
        "print(code, *sorted(real), file=sys.stderr)"
    )

    def loaded(*argv: str) -> list[str]:
        proc = subprocess.run([sys.executable, "-c", probe, *argv], env=env,
                              capture_output=True, text=True, timeout=120)  # fmt: skip
        code, *modules = proc.stderr.strip().splitlines()[-1].split()
        assert code == "0", proc.stderr
        return modules

    assert loaded("--version") == []
    subprocess.run([sys.executable, "-m", "desktop_mem", "--ollama-host", "127.0.0.1:9",
                    "memory", "add", "a note"], env=env, check=True, capture_output=True,
                   timeout=120)  # fmt: skip
    assert loaded("--ollama-host", "127.0.0.1:9", "memory", "list") == []


def test_a_reader_that_goes_away_stops_the_output_quietly(tmp_path: Path) -> None:
    """`desktop-mem memory list | head -1`: the pipe closes before the list is written;
    no error sentence, no "Exception ignored" from the interpreter, exit 141 (as git)."""
    env = {**os.environ, "DESKTOP_MEM_HOME": str(tmp_path), "DESKTOP_MEM_PASSPHRASE": "x" * 10}
    cli = [sys.executable, "-m", "desktop_mem", "--ollama-host", "127.0.0.1:9"]
    for n in range(3):
        subprocess.run([*cli, "memory", "add", f"note {n}"], env=env,
                       check=True, capture_output=True, timeout=120)  # fmt: skip
    proc = subprocess.Popen(
        [*cli, "memory", "list"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader is gone before a line is written
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141
    assert err == ""


def test_an_error_before_logging_starts_is_one_line(tmp_path: Path) -> None:
    env = {**os.environ, "DESKTOP_MEM_HOME": str(tmp_path), "DESKTOP_MEM_PASSPHRASE": "x" * 10}
    proc = subprocess.run(
        [sys.executable, "-m", "desktop_mem", "--profile", "bad name", "memory", "list"],
        capture_output=True, text=True, timeout=60, env=env,
    )  # fmt: skip
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == [
        "desktop-mem: 'bad name' is not a valid profile name: use letters, digits, '-', '_' "
        "or '.' (at most 64)."
    ]


def test_each_command_builds_only_its_own_group_and_the_table_is_complete() -> None:
    """A command line builds only its group's parsers; the table that says which module
    registers a command must name every command the full parser has."""
    import argparse

    from desktop_mem.cli import GROUPS, build_parser, command_word

    def commands(parser: argparse.ArgumentParser) -> set[str]:
        action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        return set(action.choices)

    everything = commands(build_parser())
    assert everything == set(GROUPS)
    for name in everything:
        argv = ["--home", "memory", name, "--help"][:3]  # a global option's value is skipped
        assert command_word(argv) == name
        own = commands(build_parser(argv))
        assert name in own and own == {c for c, g in GROUPS.items() if g == GROUPS[name]}
