"""Several computers on one machine: each a profile in its own data folder, all syncing
through one folder (what an engine such as Syncthing or Dropbox would carry)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop_mem.core.config import Config
from desktop_mem.core.keys.vault import KeyringAccess, Vault
from desktop_mem.core.service import Service
from desktop_mem.core.sync import pairing
from desktop_mem.core.sync.syncer import Syncer
from tests.fakes.keyrings import MemoryKeyring
from tests.fakes.ollama_server import FakeOllama


class Computer:
    """One computer's profile, its service and its syncer."""

    def __init__(
        self,
        root: Path,
        name: str,
        fake: FakeOllama,
        keyring: MemoryKeyring,
        passphrase: str | None = None,
    ) -> None:
        self.name = name
        self.home = root / name
        self.config = Config.resolve(
            home=self.home, ollama_host=fake.url, embed_model="fake-embed", passphrase=passphrase
        )
        self.vault = Vault(KeyringAccess(keyring, timeout=2.0))
        self.service = Service.open(self.config, self.vault)
        self.code = self.service.profile.db.new_recovery_code
        self.syncer = Syncer(self.service.profile)

    @property
    def profile(self):
        return self.service.profile

    def texts(self) -> list[str]:
        return sorted(m.text for m in self.service.memories.list(limit=100000))

    def sync(self, compact: bool | None = None):
        return self.syncer.run(compact=compact)

    def close(self) -> None:
        self.service.close()


class Computers:
    def __init__(self, root: Path, fake: FakeOllama, keyring: MemoryKeyring) -> None:
        self.root = root
        self.fake = fake
        self.keyring = keyring
        self.folder = root / "Sync"
        self.folder.mkdir()
        self.all: list[Computer] = []

    def new(self, name: str, passphrase: str | None = None) -> Computer:
        c = Computer(self.root, name, self.fake, self.keyring, passphrase)
        self.all.append(c)
        return c

    def first(self, name: str = "laptop") -> Computer:
        c = self.new(name)
        c.syncer.set_up(self.folder, name)
        return c

    def join(self, name: str, code: str) -> Computer:
        c = self.new(name)
        layout = _only_layout(self.folder)
        chain = pairing.join_with_recovery_code(layout, code)
        c.syncer.join(self.folder, chain, name)
        return c

    def pair(self, inviter: Computer, joiner: Computer | str) -> Computer:
        """Join with a one-time pairing code shown on `inviter` (a new computer by that
        name, or one taken out of the sync joining again): it asks, the inviter's next
        pass lets it in, its own next pass finds it is in."""
        code = inviter.syncer.offer_pairing()
        chain = pairing.join_with_pairing_code(_only_layout(self.folder), code)
        if isinstance(joiner, str):
            joiner = self.new(joiner)
            joiner.syncer.join(self.folder, chain, joiner.name)
        else:
            joiner.syncer.rejoin(self.folder, chain)
        assert joiner.sync().waiting_for == inviter.syncer.device
        inviter.sync()
        assert joiner.sync().let_in
        return joiner

    def close(self) -> None:
        for c in self.all:
            c.close()


def _only_layout(folder: Path):
    from desktop_mem.core.sync import files

    ids = files.find_profiles(folder)
    assert len(ids) == 1, ids
    return files.Layout.of(folder, ids[0])


@pytest.fixture
def computers(
    tmp_path: Path, isolated: MemoryKeyring, fake_ollama: FakeOllama
) -> Iterator[Computers]:
    cs = Computers(tmp_path, fake_ollama, isolated)
    yield cs
    cs.close()
