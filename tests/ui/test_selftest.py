"""`desktop-mem self-test`, the check the packaged binary runs in its smoke test."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.conftest import Run


def test_self_test_passes_and_leaves_nothing_behind(
    qapp: Any, run: Run, home: Path, tmp_path: Path, monkeypatch: Any
) -> None:
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    code, out, err = run("self-test", "--json")
    assert code == 0, out + err
    checks = {c["name"]: c for c in json.loads(out)}
    for name in ("database", "sqlite-vec", "embedding", "qt", "icon", "translation", "window"):
        assert checks[name]["ok"], checks[name]
    assert all(c["ok"] for c in checks.values())
    assert "新对话" in checks["translation"]["detail"]
    assert not list(tmp_path.glob("desktop-mem-self-test-*")), "the temporary profile is gone"
    assert not (home / "profiles").exists(), "the user's data folder is not touched"


def test_self_test_fails_clearly_without_the_model_server(qapp: Any, run: Run) -> None:
    base = ["--home", run.base[1], "--ollama-host", "http://127.0.0.1:9", "--embed-model", "x"]
    code, out, _ = run("self-test", "--no-window", base=base)
    assert code == 1
    assert "FIX embedding" in out and "start Ollama" in out
    assert "ok  database" in out and "ok  sqlite-vec" in out
