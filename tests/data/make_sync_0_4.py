"""Makes tests/data/sync-0.4.tar.gz with desktop-mem 0.4 itself, for tests/sync/test_from_0_4.py.

The laptop sets a sync up, the desktop joins with the recovery code, the tablet and the
phone with pairing codes (0.4 wrote no join record: it trusted a computer by its
status), the desktop removes the phone; then the three profiles that stay, the folder
and the test keyring's secrets go into the archive. Run it on a checkout of 0.4 (commit
d88d7ae), with this project's test environment:

    git worktree add /tmp/old04 d88d7ae
    cd /tmp/old04 && python tests/data/make_sync_0_4.py /tmp/old04 OUT.tar.gz

(the script is copied there first: it is not part of 0.4).
"""

from __future__ import annotations

import json
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any


def main(old: str, out: Path) -> None:
    sys.path.insert(0, old)  # 0.4's desktop_mem and tests.fakes, not this tree's
    import keyring

    import desktop_mem
    from desktop_mem.core.config import Config
    from desktop_mem.core.keys.vault import KeyringAccess, Vault
    from desktop_mem.core.memory.store import NewMemory
    from desktop_mem.core.service import Service
    from desktop_mem.core.sync import files
    from desktop_mem.core.sync.keys import KeyChain  # type: ignore[attr-defined]
    from desktop_mem.core.sync.syncer import Syncer
    from tests.fakes.keyrings import MemoryKeyring
    from tests.fakes.ollama_server import FakeOllama

    assert desktop_mem.__file__.startswith(old), desktop_mem.__file__
    root = Path(tempfile.mkdtemp())
    ring = MemoryKeyring()
    keyring.set_keyring(ring)
    fake = FakeOllama().start()
    folder = root / "Sync"
    folder.mkdir()

    def computer(name: str) -> tuple[Any, Any, str]:
        config = Config.resolve(home=root / name, ollama_host=fake.url, embed_model="fake-embed")
        svc = Service.open(config, Vault(KeyringAccess(ring, timeout=2.0)))
        return svc, Syncer(svc.profile), svc.profile.db.new_recovery_code

    laptop, ls, code = computer("laptop")
    laptop.memories.add(NewMemory("I keep bees in Hangzhou", kind="fact"))
    ls.set_up(folder, "laptop")
    ls.run()
    layout = files.Layout.of(folder, files.find_profiles(folder)[0])
    desktop, ds, _ = computer("desktop")
    ds.join(folder, KeyChain.join_with_recovery_code(layout, code), "desktop")
    ds.run()
    tablet, ts, _ = computer("tablet")
    ts.join(folder, KeyChain.join_with_pairing_code(layout, ls.offer_pairing()), "tablet")
    ts.run()
    phone, ps, _ = computer("phone")
    ps.join(folder, KeyChain.join_with_pairing_code(layout, ls.offer_pairing()), "phone")
    ps.run()
    tablet.memories.add(NewMemory("我下个月要考驾照", kind="plan"))
    for s in (ts, ls, ds, ps, ls, ds, ts):
        s.run()
    ds.remove(ps.device)
    desktop.memories.add(NewMemory("Written on the desktop after the phone was removed"))
    for s in (ds, ls, ts, ds):
        s.run()
    made = {
        "recovery_code": code,
        "keyring": [[s, u, p] for (s, u), p in ring.secrets.items()],
        "devices": {
            n: s.device for n, s in (("laptop", ls), ("desktop", ds), ("tablet", ts), ("phone", ps))
        },  # fmt: skip
        "made_by": "desktop-mem 0.4 (commit d88d7ae)",
    }
    for svc in (laptop, desktop, tablet, phone):
        svc.close()
    fake.stop()
    (root / "made.json").write_text(json.dumps(made, indent=1))
    with tarfile.open(out, "w:gz") as tar:
        for name in ("laptop", "desktop", "tablet", "Sync", "made.json"):  # not the phone's
            tar.add(root / name, arcname=name)


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]))
