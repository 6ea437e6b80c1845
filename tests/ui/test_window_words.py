"""No window text names a command or an environment variable (issue 30): the window
speaks to someone who never opened a terminal. Checked over every string the window
translates (English sources and their Chinese), and over every error the core can
raise, as the window words it in either language."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from desktop_mem.cli import build_parser
from desktop_mem.core import errors
from tests.ui.test_models_and_translations import _zh_module

ROOT = Path(__file__).resolve().parents[2]


def _commands() -> set[str]:
    parser = build_parser()
    action = next(a for a in parser._actions if a.dest == "command")
    return set(action.choices or {})  # type: ignore[arg-type]


COMMAND = re.compile(
    r"`"  # a command as the docs quote it
    rf"|\b(?i:desktop-mem) (?:{'|'.join(sorted(_commands()))})\b"  # one of ours
    r"|\b(?i:ollama) (?:serve|pull|run|list|rm|show)\b"  # or Ollama's
    r"|(?:^|\s)--[a-z]"  # a flag
    r"|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b"  # an environment variable (in capitals)
    r"|(?i:environment variable|terminal|command line)|环境变量|终端|命令行",
)


def names_a_command(text: str) -> bool:
    return COMMAND.search(text) is not None


def test_the_check_itself_catches_commands() -> None:
    for bad in ("run `desktop-mem memory reembed --missing`", "start it: ollama serve",
                "set DESKTOP_MEM_HOME", "check --profile", "在终端里运行"):  # fmt: skip
        assert names_a_command(bad), bad
    for good in ("desktop-mem talks to a language model through Ollama",
                 "Another desktop-mem is writing to this profile", "Back up every day"):  # fmt: skip
        assert not names_a_command(good), good


def test_no_interface_string_names_a_command(tmp_path: Path) -> None:
    zh = _zh_module()
    fresh = tmp_path / "fresh.ts"
    ui = sorted(str(p) for p in (ROOT / "desktop_mem/ui").glob("*.py"))
    lupdate = Path(sys.executable).parent / "pyside6-lupdate"
    subprocess.run([str(lupdate), *ui, "-ts", str(fresh)], check=True, capture_output=True)
    sources = {s for s, _ in zh.sources(fresh)}
    assert len(sources) > 150
    said = [s for s in sources if names_a_command(s)]
    translated = [
        t for s in sources for t in ([zh.ZH.get(s)] if isinstance(zh.ZH.get(s), str) else
                                     zh.ZH.get(s) or [])
        if names_a_command(t)
    ]  # fmt: skip
    assert said == [] and translated == []


def _raised() -> list[tuple[str, str, str]]:
    """(where, reason, sentence) of every error the core raises with a sentence; the
    sentence's variable parts are "X"."""
    classes = {
        n: c
        for n, c in vars(errors).items()
        if isinstance(c, type) and issubclass(c, errors.DesktopMemError)
    }

    def text(node: Any) -> str | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.JoinedStr):
            return "".join(v.value if isinstance(v, ast.Constant) else "X" for v in node.values)
        if isinstance(node, ast.BinOp):
            return (text(node.left) or "") + (text(node.right) or "")
        return None

    found = []
    for path in sorted((ROOT / "desktop_mem/core").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            if node.func.id not in classes or not node.args:
                continue
            sentence = text(node.args[0])
            if sentence is None:
                continue
            reason = classes[node.func.id].reason
            for kw in node.keywords:
                if kw.arg == "reason" and isinstance(kw.value, ast.Constant):
                    reason = kw.value.value
            found.append((f"{path.relative_to(ROOT)}:{node.lineno}", reason, sentence))
    return found


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_no_error_the_window_shows_names_a_command(qapp: Any, language: str) -> None:
    from desktop_mem.ui.app import install_language
    from desktop_mem.ui.errors import describe
    from desktop_mem.ui.tasks import describe_exception

    raised = _raised()
    assert len(raised) > 100, "the scan finds the core's errors"
    install_language(qapp, language)
    try:
        shown = [(where, describe(reason, sentence, model="bge-m3", lines=2))
                 for where, reason, sentence in raised]  # fmt: skip
        generic = describe_exception(RuntimeError("boom"), "Something went wrong")
    finally:
        install_language(qapp, "en")
    bad = [f"{where}: {text}" for where, text in shown if names_a_command(text)]
    assert bad == [], "\n".join(bad)
    assert not names_a_command(generic)


def test_the_window_shows_no_core_warning_as_it_is() -> None:
    """Core warnings are written for the command line ("… run `desktop-mem …`"): the
    window says what it knows in its own words instead (the status bar's "not indexed
    yet" with its Index now link)."""
    for path in sorted((ROOT / "desktop_mem/ui").glob("*.py")):
        code = path.read_text("utf-8")
        assert not re.search(r"warnings\[\d\]|\.warnings\)", code), path.name
