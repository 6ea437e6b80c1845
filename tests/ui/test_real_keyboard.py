"""Tab on a real X server, with a window manager (openbox), as a desktop user presses it
(issue 44): from the message box Tab goes on round to the rail, whose Memories button
Space presses, and the keyboard is then in the memory search."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fakes.ollama_server import FakeOllama
from tests.ui.test_real_window import PASSPHRASE, _keys, _type, _until, _windows
from tests.ui.test_real_window import display as display  # the fixture: Xvfb

pytestmark = [
    pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed"),
    pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed"),
    pytest.mark.skipif(shutil.which("openbox") is None, reason="openbox is not installed"),
]


def test_tab_reaches_the_rail_in_a_real_window(
    display: str, home: Path, fake_ollama: FakeOllama
) -> None:
    from desktop_mem.core.config import Config
    from desktop_mem.core.memory.store import NewMemory
    from desktop_mem.core.profile import Profile

    config = Config.resolve(home=home, ollama_host=fake_ollama.url, embed_model="fake-embed",
                            passphrase=PASSPHRASE)  # fmt: skip
    with Profile.open(config) as profile:  # a memory, so a search asks for embeddings
        profile.memories.add(NewMemory("Lives in Hangzhou with a cat named Mochi"))
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "WAYLAND_DISPLAY")}
    env.update(DISPLAY=display, DESKTOP_MEM_PASSPHRASE=PASSPHRASE, QT_QPA_PLATFORM="xcb")
    manager = subprocess.Popen(
        ["openbox"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    cmd = [sys.executable, "-m", "desktop_mem", "--home", str(home), "--ollama-host", fake_ollama.url,
           "--embed-model", "fake-embed"]  # fmt: skip
    app = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        _until(lambda: "/api/tags" in fake_ollama.paths(), "the window asked for models", app)
        _until(lambda: bool(_windows(display, "^desktop-mem$")), "the window is shown", app)
        _type(display, "x")  # the message box has the keys from the start
        # the message box, Send, then round to the rail: Chat, Memories
        _keys(display, "BackSpace", "Tab", "Tab", "Tab", "space")
        _type(display, "quokka")  # into the memory search, which Memories gave the keys
        _until(
            lambda: any("quokka" in text for text in fake_ollama.embed_inputs()),
            "the memory search was reached by Tab and Space",
            app,
        )
    finally:
        app.terminate()
        _, err = app.communicate(timeout=30)
        manager.terminate()
        manager.wait(10)
    assert b"Traceback" not in err, err.decode()[-2000:]
