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

import pytest

from tests.fakes.ollama_server import FakeOllama

pytestmark = pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed")


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
