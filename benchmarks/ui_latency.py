"""How long the window stops answering: the longest event-loop stall while a user
scrolls the memory browser, searches it, pins, deletes, and chats, with --memories
memories (default 100,000) in the profile.

A 2 ms timer runs on the GUI thread the whole time; a stall is the gap between two of
its ticks beyond 2 ms, i.e. how long a click or a key press would have waited. The
profile is built through the product's write path (the fake model server's
embeddings); the window is the real one (offscreen). Each action waits on observed
progress (its result on screen), never on a fixed sleep.

    python benchmarks/ui_latency.py [--memories 100000] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

TOPICS = ["garden", "tea", "Hangzhou", "running", "daughter", "hospital", "Tokyo", "cat"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--memories", type=int, default=100_000)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--keep", help="build the profile in this folder, or reuse it if there")
    args = ap.parse_args()

    from PySide6.QtCore import QElapsedTimer, QTimer
    from PySide6.QtWidgets import QApplication, QMessageBox

    from desktop_mem.core.config import Config
    from desktop_mem.core.memory.store import NewMemory
    from desktop_mem.core.profile import Profile
    from desktop_mem.core.service import Service
    from desktop_mem.ui import tasks
    from desktop_mem.ui.app import app_settings
    from desktop_mem.ui.main_window import MainWindow
    from tests.fakes.ollama_server import FakeOllama

    app = QApplication.instance() or QApplication(sys.argv)
    # deletions ask first: the benchmark says yes, as the user would
    QMessageBox.question = lambda *a, **k: QMessageBox.StandardButton.Yes  # type: ignore[method-assign]
    fake = FakeOllama(embed_models={"fake-embed": 384}).start()
    result: dict[str, object] = {"memories": args.memories}
    with tempfile.TemporaryDirectory(prefix="desktop-mem-bench-ui-") as tmp:
        home = Path(args.keep or tmp)
        reuse = (home / "profiles").exists()
        config = Config.resolve(
            home=home, ollama_host=fake.url, embed_model="fake-embed", passphrase="benchmark-pass"
        )
        started = time.perf_counter()
        with Profile.open(config) as prof:
            if not reuse:
                for start in range(0, args.memories, 2000):
                    prof.memories.add_many(
                        [
                            NewMemory(
                                f"note {i}: the {TOPICS[i % len(TOPICS)]} plan number {i % 97}"
                            )
                            for i in range(start, min(start + 2000, args.memories))
                        ]
                    )
            result["memories"] = prof.memories.count()
        result["build_s"] = round(time.perf_counter() - started, 1)
        os.environ["DESKTOP_MEM_PASSPHRASE"] = "benchmark-pass"
        profile = Profile.open(config)

        clock = QElapsedTimer()
        clock.start()
        last = [clock.elapsed()]
        worst = [0]

        def tick() -> None:
            now = clock.elapsed()
            worst[0] = max(worst[0], now - last[0] - 2)
            last[0] = now

        beat = QTimer()
        beat.setInterval(2)
        beat.timeout.connect(tick)

        def pump(until: Callable[[], bool], limit: float = 120.0) -> None:
            end = time.time() + limit
            while time.time() < end:
                app.processEvents()
                if until() and tasks.busy() == 0:
                    break
                time.sleep(0.001)
            else:
                raise SystemExit("an action did not finish in time")

        window = MainWindow(Service(profile), app_settings(home))
        window.resize(1280, 800)
        window.show()
        pump(lambda: window.context.server.online and window.browser.model.rowCount() > 0)
        window.show_page("memories")
        pump(lambda: True)
        beat.start()
        stalls: dict[str, int] = {}

        def measure(name: str, act: Callable[[], None], done: Callable[[], bool]) -> None:
            pump(lambda: True)
            last[0] = clock.elapsed()
            worst[0] = 0
            act()
            pump(done)
            stalls[name] = int(worst[0])

        table = window.browser.list
        bar = table.verticalScrollBar()

        def scroll() -> None:
            for value in range(0, bar.maximum() + 1, max(1, bar.maximum() // 50)):
                bar.setValue(value)
                app.processEvents()

        measure("scroll the browser", scroll, lambda: True)
        window.browser.search.setText("the tea plan number 5")
        measure(
            "search the browser",
            lambda: window.memories.search_memories("the tea plan number 5"),
            lambda: window.browser.model.rowCount() > 0,
        )
        window.browser.search.clear()
        window.memories.refresh_memories()
        pump(lambda: window.browser.model.rowCount() > 5)
        first = window.browser.model.memory(0)
        assert first is not None

        def shown_pinned() -> bool:  # read from the screen, not the database
            row = window.browser.model.row_of(first.id)
            now = window.browser.model.memory(row)
            return now is not None and now.pinned != first.pinned

        measure(
            "pin a memory",
            lambda: window.memories.pin_memory(first.id, not first.pinned),
            shown_pinned,
        )
        target = window.browser.model.memory(5)
        assert target is not None
        measure(
            "delete a memory",
            lambda: window.memories.delete_memories([target.id], confirm=False),
            lambda: window.browser.model.row_of(target.id) < 0,
        )
        # Listing while a delete holds the database: the window reads through its own
        # read-only connection, so the list need not wait for the delete to finish.
        victim = window.browser.model.memory(6)
        assert victim is not None
        pump(lambda: True)
        waits: dict[str, int] = {}
        t0 = clock.elapsed()
        tasks.run(
            window.context.app.memories.delete,
            victim.id,
            done=lambda _n: waits.setdefault("delete", clock.elapsed() - t0),
        )
        window.memories.refresh_memories(
            then=lambda: waits.setdefault("list", clock.elapsed() - t0)
        )
        pump(lambda: len(waits) == 2)
        result["list_during_delete_ms"] = waits
        window.show_page("chat")
        measure(
            "chat: send and answer",
            lambda: window.turns.send("What is the tea plan number 5?"),
            lambda: not window.context.chat.busy,
        )
        beat.stop()
        result["longest_stall_ms"] = stalls
        result["worst_ms"] = max(stalls.values())
        window.close()
        pump(lambda: True)
        profile.close()
    fake.stop()
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"window with {args.memories:,} memories (built in {result['build_s']} s)")
        for name, ms in stalls.items():
            print(f"  {name:<28} longest stall {ms:>6} ms")
        waits = result["list_during_delete_ms"]
        print(f"  a list asked for as a delete starts: shown after {waits['list']} ms, "  # type: ignore[index]
              f"the delete done after {waits['delete']} ms")  # type: ignore[index]  # fmt: skip


if __name__ == "__main__":
    main()
