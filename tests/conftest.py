"""Test setup: no display, no real Ollama, no keyring daemon, no network.

Every test gets its own data folder (DESKTOP_MEM_HOME), an in-memory keyring, and
may ask for the fake Ollama server.
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # Qt aborts the process without a display

import io
from collections.abc import Iterator
from pathlib import Path

import keyring
import pytest

from desktop_mem.cli import main
from desktop_mem.core import logs
from desktop_mem.core.config import Config
from desktop_mem.core.keys.vault import KeyringAccess, Vault
from desktop_mem.core.profile import Profile
from tests.fakes.keyrings import MemoryKeyring
from tests.fakes.ollama_server import FakeOllama

EMBED_MODEL = "fake-embed"


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[MemoryKeyring]:
    home = tmp_path / "home"
    monkeypatch.setenv("DESKTOP_MEM_HOME", str(home))
    for var in (
        "DESKTOP_MEM_PASSPHRASE",
        "DESKTOP_MEM_NEW_PASSPHRASE",
        "DESKTOP_MEM_PROFILE",
        "DESKTOP_MEM_EMBED_MODEL",
        "OLLAMA_HOST",
    ):
        monkeypatch.delenv(var, raising=False)
    # Nothing may leave the machine: any Ollama address a test forgets to set is dead.
    monkeypatch.setenv("OLLAMA_HOST", "http://127.0.0.1:9")
    backend = MemoryKeyring()
    previous = keyring.get_keyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)
    # A CLI run in-process points the log at this test's folder and stops our records
    # from reaching the root logger (and so pytest's caplog) for every later test.
    logs.unconfigure()


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "home"


@pytest.fixture
def fake_ollama() -> Iterator[FakeOllama]:
    fake = FakeOllama().start()
    yield fake
    fake.stop()


@pytest.fixture
def config(home: Path, fake_ollama: FakeOllama) -> Config:
    return Config.resolve(home=home, ollama_host=fake_ollama.url, embed_model=EMBED_MODEL)


@pytest.fixture
def vault(isolated: MemoryKeyring) -> Vault:
    return Vault(KeyringAccess(isolated, timeout=2.0))


@pytest.fixture
def profile(config: Config, vault: Vault) -> Iterator[Profile]:
    prof = Profile.open(config, vault)
    yield prof
    prof.close()


class Run:
    def __init__(self, home: Path, fake: FakeOllama, vault: Vault) -> None:
        self.base = ["--home", str(home), "--ollama-host", fake.url, "--embed-model", "fake-embed"]
        self.vault = vault

    def __call__(self, *args: str, base: list[str] | None = None) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        code = main(
            [*(self.base if base is None else base), *args], out=out, err=err, vault=self.vault
        )
        return code, out.getvalue(), err.getvalue()


@pytest.fixture
def run(home: Path, fake_ollama: FakeOllama, vault: Vault) -> Run:
    return Run(home, fake_ollama, vault)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Print the reliability report (issue 5): what the suite did to try to break things."""
    from tests import report

    if any(report.COUNTS.values()):
        terminalreporter.write_sep("=", "reliability report")
        for line in report.table():
            terminalreporter.write_line(line)
