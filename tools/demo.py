"""Try the window without Ollama: `make demo`.

Starts the fake Ollama server of the test suite in its demo mode (it answers by
saying which memories the app gave it, and learns every statement you make about
yourself: "I …", "My …", "我…"), seeds a demo profile with a few memories and one
conversation, and opens the window on it. The profile lives in a temporary data
folder, protected by a passphrase (never your keyring), and is deleted on exit.

    python tools/demo.py [--keep DIR]   # --keep: use (and keep) this data folder
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DEMO_PASSPHRASE = "demo passphrase"
SEED = [
    ("我女儿叫小雨，今年五岁", "person", True),
    ("Allergic to peanuts", "fact", True),
    ("我喜欢跑步，每周跑三次", "preference", False),
    ("Works as a nurse at a hospital in Hangzhou", "fact", False),
    ("Prefers green tea over coffee", "preference", False),
]


def seed(home: Path, url: str) -> None:
    from desktop_mem.core.config import Config
    from desktop_mem.core.memory.store import NewMemory
    from desktop_mem.core.profile import Profile

    config = Config.resolve(
        home=home, ollama_host=url, embed_model="fake-embed", passphrase=DEMO_PASSPHRASE
    )
    with Profile.open(config) as prof:
        if prof.memories.count():
            return
        prof.memories.add_many([NewMemory(t, kind=k, pinned=p) for t, k, p in SEED], actor="user")
        convs = prof.conversations
        conv = convs.create("Weekend plans")
        convs.add_message(
            conv.id, "user", "We are going hiking in the Longjing tea hills on Saturday."
        )
        convs.add_message(conv.id, "assistant", "Have a good hike! Take water and a snack.")
        convs.index_vectors()


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--keep", help="a data folder to use and keep (default: a temporary one)")
    args = ap.parse_args()

    from tests.fakes.ollama_server import FakeOllama, demo_answer, demo_learn, demo_title

    fake = FakeOllama(
        chat_models=["qwen2.5:7b"],
        responder=demo_answer,
        json_responder=demo_learn,
        title_responder=demo_title,
    ).start()
    with tempfile.TemporaryDirectory(prefix="desktop-mem-demo-") as tmp:
        home = Path(args.keep).expanduser() if args.keep else Path(tmp)
        seed(home, fake.url)
        os.environ["DESKTOP_MEM_PASSPHRASE"] = DEMO_PASSPHRASE
        from desktop_mem.ui.app import main as window

        code = window(
            ["desktop-mem", "--home", str(home), "--ollama-host", fake.url,
             "--embed-model", "fake-embed"]
        )  # fmt: skip
    fake.stop()
    return int(code)


if __name__ == "__main__":
    raise SystemExit(main())
