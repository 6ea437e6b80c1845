"""The demo: the fake Ollama server runs by hand on a chosen port, answers like a (very
simple) model and learns what the user says about themselves, so anyone can try the
app without Ollama (`make demo`)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

from tests.conftest import Run

ROOT = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_demo_server_runs_on_a_port_and_learns(run: Run, home: Path) -> None:
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.fakes.ollama_server", "--port", str(port), "--demo"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stdout.readline()  # waits for the server to say it listens
        assert line.strip() == f"listening on http://127.0.0.1:{port}", proc.stderr.read()
        base = ["--home", str(home), "--ollama-host", f"http://127.0.0.1:{port}",
                "--embed-model", "fake-embed"]  # fmt: skip
        code, out, err = run("chat", "I live in Lisbon with my cat Mochi.", base=base)
        assert code == 0, err
        assert "Demo model" in out
        texts = [m["text"] for m in json.loads(run("memory", "list", "--json", base=base)[1])]
        assert texts == ["I live in Lisbon with my cat Mochi"]
        code, out, _ = run("chat", "Where do I live, and with which cat?", base=base)
        assert "I live in Lisbon with my cat Mochi" in out  # the memory it was given
    finally:
        proc.terminate()
        proc.wait(10)


def test_the_demo_server_pulls_an_embedding_model_that_embeds() -> None:
    """As Ollama: a pulled bge-m3 is an embedding model (it embeds, /api/show says so),
    not a chat model that fails to embed without a word."""
    from desktop_mem.core.models.embed import Embedder
    from desktop_mem.core.models.llm import OllamaChat

    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.fakes.ollama_server", "--port", str(port), "--demo"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        url = proc.stdout.readline().split()[-1]  # "listening on URL"
        assert "bge-m3" not in [m.name for m in OllamaChat(url).inventory()]
        assert OllamaChat(url, "bge-m3").pull()
        found = {m.name: m.embedding for m in OllamaChat(url).inventory()}
        assert found["bge-m3"] is True and found["qwen2.5:7b"] is False
        assert Embedder(url, "bge-m3").embed_one("我住在杭州").shape == (1024,)
    finally:
        proc.terminate()
        proc.wait(10)


def test_the_screenshots_tool_renders_every_main_state(tmp_path: Path) -> None:
    """`make screenshots` drives the real window through the demo; it once broke unseen
    when the window's context changed."""
    out = tmp_path / "shots"
    proc = subprocess.run(
        [sys.executable, "tools/screenshots.py", "--out", str(out)],
        cwd=ROOT,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    shots = sorted(p.name for p in out.glob("*.png"))
    assert len(shots) >= 14 and "03-memory-browser.png" in shots, shots
    assert all((out / name).stat().st_size > 10_000 for name in shots)
