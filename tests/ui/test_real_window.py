"""The real thing: `desktop-mem` started as a process on a real X server (Xvfb), with
the xcb platform plugin a desktop uses. .ci/run installs Xvfb and the xcb libraries;
elsewhere the test is skipped with the reason."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.fakes.ollama_server import FakeOllama

pytestmark = pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed")
PASSPHRASE = "a passphrase for this test"


@pytest.fixture
def display(tmp_path: Path) -> str:
    for number in range(91, 120):
        if (
            not Path(f"/tmp/.X11-unix/X{number}").exists()
            and not Path(f"/tmp/.X{number}-lock").exists()
        ):
            break
    proc = subprocess.Popen(
        ["Xvfb", f":{number}", "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.time() + 10
    while not Path(f"/tmp/.X11-unix/X{number}").exists():
        if time.time() > deadline or proc.poll() is not None:
            proc.kill()
            pytest.skip("Xvfb did not start")
        time.sleep(0.05)
    yield f":{number}"
    proc.terminate()
    proc.wait(10)


def test_the_window_runs_on_x11_once_per_profile(
    display: str, home: Path, fake_ollama: FakeOllama
) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "WAYLAND_DISPLAY")}
    env.update(
        DISPLAY=display, DESKTOP_MEM_PASSPHRASE="a passphrase for this test", QT_QPA_PLATFORM="xcb"
    )
    cmd = [sys.executable, "-m", "desktop_mem", "--home", str(home), "--ollama-host", fake_ollama.url,
           "--embed-model", "fake-embed"]  # fmt: skip
    first = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.time() + 30
        while "/api/tags" not in fake_ollama.paths():  # the window asked Ollama for its models
            assert first.poll() is None, first.communicate()[1].decode()[-2000:]
            assert time.time() < deadline, "the window never started"
            time.sleep(0.1)
        assert (home / "profiles" / "default" / "memory.db").exists()
        second = subprocess.run(cmd, env=env, capture_output=True, timeout=30)
        assert second.returncode == 0, second.stderr.decode()[-2000:]
        assert first.poll() is None, "the first window is still running"
    finally:
        first.terminate()
        _, err = first.communicate(timeout=30)
    assert b"Traceback" not in err, err.decode()[-2000:]


def _windows(display: str, name: str) -> list[str]:
    found = subprocess.run(
        ["xdotool", "search", "--onlyvisible", "--name", name],
        env={**os.environ, "DISPLAY": display}, capture_output=True, text=True,
    )  # fmt: skip
    return found.stdout.split()


def _keys(display: str, *keys: str) -> None:
    subprocess.run(["xdotool", "key", *keys], env={**os.environ, "DISPLAY": display}, check=True)


def _type(display: str, text: str) -> None:
    env = {**os.environ, "DISPLAY": display}
    subprocess.run(["xdotool", "type", "--delay", "20", text], env=env, check=True)


def _until(done: Any, what: str, proc: subprocess.Popen[bytes], seconds: float = 20) -> None:
    deadline = time.time() + seconds
    while not done():
        assert proc.poll() is None, proc.communicate()[1].decode()[-2000:]
        assert time.time() < deadline, f"never: {what}"
        time.sleep(0.1)


@pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed")
def test_shortcuts_work_from_the_start_and_after_any_dialog_closes(
    display: str, home: Path, fake_ollama: FakeOllama
) -> None:
    """On an X server with no window manager to hand the focus back, keys reached the
    message box while the window's shortcuts did not fire (so "New chat" was ignored and
    the next question went into the old conversation) until a click."""
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "WAYLAND_DISPLAY")}
    env.update(DISPLAY=display, DESKTOP_MEM_PASSPHRASE=PASSPHRASE, QT_QPA_PLATFORM="xcb")
    cmd = [sys.executable, "-m", "desktop_mem", "--home", str(home), "--ollama-host", fake_ollama.url,
           "--embed-model", "fake-embed"]  # fmt: skip
    app = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def asked(n: int) -> bool:
        return len(fake_ollama.chat_requests(structured=False)) >= n

    try:
        _until(lambda: "/api/tags" in fake_ollama.paths(), "the window asked for models", app)
        _until(lambda: bool(_windows(display, "^desktop-mem$")), "the window is shown", app)
        _type(display, "Where do I live?")  # no click first: the window has the keys
        _keys(display, "Return")
        _until(lambda: asked(1), "the first question was sent", app)
        _keys(display, "F1")  # a dialog, closed with Esc
        _until(lambda: bool(_windows(display, "Keyboard shortcuts")), "F1 opened its help", app)
        _keys(display, "Escape")
        _until(lambda: not _windows(display, "Keyboard shortcuts"), "Esc closed it", app)
        _keys(display, "ctrl+comma")  # at once, without a click
        _until(lambda: bool(_windows(display, "^Settings$")), "Ctrl+, opened Settings", app)
        _keys(display, "Escape")
        _until(lambda: not _windows(display, "^Settings$"), "Esc closed Settings", app)
        _keys(display, "ctrl+n")  # the keys arrive in order: a new chat, then the question
        _type(display, "Where do I live now?")
        _keys(display, "Return")
        _until(lambda: asked(2), "the second question was sent", app)
    finally:
        app.terminate()
        _, err = app.communicate(timeout=30)
    assert b"Traceback" not in err, err.decode()[-2000:]
    from desktop_mem.core.config import Config
    from desktop_mem.core.profile import Profile

    config = Config.resolve(home=home, ollama_host=fake_ollama.url, embed_model="fake-embed",
                            passphrase=PASSPHRASE)  # fmt: skip
    with Profile.open(config, create=False) as profile:
        firsts = sorted(
            profile.conversations.messages(c.id)[0].content for c in profile.conversations.list()
        )
    assert firsts == ["Where do I live now?", "Where do I live?"], "Ctrl+N began a new one"
