"""What sync costs: `make bench-sync` (about 4 minutes with the defaults).

- latency: once the engine has delivered a change file, how long the other computer's
  pass takes to make the change usable (a memory added, edited, deleted; a chat turn);
  and the sending computer's pass;
- joining: a second computer joining a profile of N memories and M messages (the
  snapshot read and applied, in steps), its time and the process's peak memory; then
  the vectors this computer makes for what arrived (the window does it in the
  background), with the fake server's embedder;
- the folder's size against the profile's data (the text of memories with their
  versions, and of messages), after the changes and after compaction;
- idle: a pass when nothing changed (what the window does every 10 seconds), its time,
  and so the share of one core it uses;
- a hostile folder: a pass over the folder with files anyone who can write it may plant
  beside the honest ones (a sparse 1.5 GB key file and pairing offer, FIFOs, links to
  /dev/zero and to a folder outside, a key file and a status nested 100,000 deep) against
  the same folder without them: the first pass (each is looked at and refused) and the
  later ones (each is left alone), then the first pass again with the sparse files 100
  times larger, to show that a refused file's size costs nothing (`--hostile` runs only
  this, on a small profile of its own, in about a minute);
- a pairing code's work factor: what one guess at a code costs (scrypt, n = 2^17), in time
  and memory, and so what guessing a code offline costs (`--pairing` runs only this);
- watching the folder as the window does: from the moment the engine renames a change
  file into place to the moment the memory it brings is listed on the other computer
  (the folder's own notices, then a pass), and the share of a core the window's sync
  uses while nothing happens, watching and passing every 10 seconds (`--watch` runs only
  this, in about a minute).

The computers are profiles on this machine, each with its own copy of the folder; the
"engine" copies files between them (a real one adds its own delay on top).

    python benchmarks/sync.py [--memories 10000] [--messages 100000] [--json] [--hostile]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks._common import scratch_home  # noqa: E402


def _copy_tree(src: Path, dst: Path) -> None:
    """The engine: dst becomes a copy of src (files added, changed and removed)."""
    for path in src.rglob("*"):
        rel = path.relative_to(src)
        target = dst / rel
        if path.is_dir():
            target.mkdir(parents=True, exist_ok=True)
        elif (
            not target.exists()
            or target.stat().st_size != path.stat().st_size
            or (target.read_bytes() != path.read_bytes())
        ):
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
    for path in sorted(dst.rglob("*"), reverse=True):
        if not (src / path.relative_to(dst)).exists():
            if path.is_dir():
                path.rmdir()
            else:
                path.unlink()


def _merge(a: Path, b: Path) -> None:
    """Both folders get each other's files (each computer writes only its own)."""
    for src, dst in ((a, b), (b, a)):
        for path in src.rglob("*"):
            if path.is_file():
                target = dst / path.relative_to(src)
                if not target.exists() or target.read_bytes() != path.read_bytes():
                    target.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(path, target)


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--memories", type=int, default=10_000)
    ap.add_argument("--messages", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--json", action="store_true")
    ap.add_argument(
        "--hostile", action="store_true", help="only the hostile folder, on a small profile"
    )
    ap.add_argument("--pairing", action="store_true", help="only a pairing code's work factor")
    ap.add_argument("--watch", action="store_true", help="only watching the folder")
    ap.add_argument(
        "--pass-only",
        action="store_true",
        help="only the profile's passes (set up, join, a change, idle): for comparing sizes",
    )
    args = ap.parse_args()
    if args.watch:
        return _print(watched(args.rounds), args.json)
    if args.hostile:
        return _print(hostile(args.rounds), args.json)
    if args.pairing:
        return _print(pairing_guess(), args.json)

    from desktop_mem.core.config import Config
    from desktop_mem.core.memory.store import NewMemory
    from desktop_mem.core.service import Service
    from desktop_mem.core.sync import files
    from tests.fakes.ollama_server import FakeOllama

    out: dict[str, object] = {"memories": args.memories, "messages": args.messages}
    fake = FakeOllama().start()
    try:
        with scratch_home() as home:
            fa, fb = home / "laptop-Sync", home / "desktop-Sync"
            fa.mkdir()
            fb.mkdir()

            def open_(name: str) -> Service:
                cfg = Config.resolve(
                    home=home / name, ollama_host=fake.url, embed_model="fake-embed"
                )
                return Service.open(cfg)

            laptop = open_("laptop")
            lp = laptop.profile
            t = time.perf_counter()
            words = "a day at work, the garden, what I cooked, a friend's news, 周末去爬山"
            lp.memories.add_many(
                [NewMemory(f"memory {n}: {words} ({n % 97})") for n in range(args.memories)],
                actor="import",
            )
            per = 100
            for c in range(args.messages // per):
                conv = lp.conversations.create(f"chat {c}")
                lp.conversations.add_messages(
                    conv.id,
                    [("user" if i % 2 == 0 else "assistant",
                      f"message {c}-{i}: {words} and some more words of a chat turn", None)
                     for i in range(per)],
                )  # fmt: skip
            out["seed_s"] = round(time.perf_counter() - t, 1)
            data_bytes = sum(
                len(r[0].encode()) for r in lp.db.query("SELECT text FROM memory_history")
            ) + sum(len(r[0].encode()) for r in lp.db.query("SELECT content FROM messages"))
            out["profile_text_bytes"] = data_bytes
            out["profile_file_bytes"] = lp.db.path.stat().st_size

            t = time.perf_counter()
            laptop.sync.set_up(fa, "laptop")
            out["set_up_s"] = round(time.perf_counter() - t, 1)
            layout = files.Layout.of(fa, files.find_profiles(fa)[0])
            out["folder_bytes_after_set_up"] = layout.size()
            pairing = laptop.sync.offer_pairing()  # a passphrase profile has no recovery code
            _copy_tree(fa, fb)

            # joining: a new process would be fairer for memory; ru_maxrss is this one's
            # peak, so the seed's peak is measured first
            before_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            desktop = open_("desktop")
            steps: list[int] = []
            t = time.perf_counter()
            desktop.sync.join(
                fb, pairing, "desktop", index=False, progress=lambda d, _t, _p: steps.append(d)
            )
            out["join_s"] = round(time.perf_counter() - t, 1)
            out["join_progress_reports"] = len(steps)
            out["peak_rss_mb_before_join"] = round(before_rss / 1024)
            out["peak_rss_mb_after_join"] = round(
                resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            )
            counts = desktop.counts()
            out["joined_counts"] = counts
            # then, in the window in the background, vectors by this computer's own model
            # (here the fake server's embedder)
            t = time.perf_counter()
            desktop.sync.index_arrived()
            out["vectors_after_join_s"] = round(time.perf_counter() - t, 1)
            _merge(fa, fb)
            laptop.sync.now()
            _merge(fa, fb)

            # latency of one change, once delivered
            def timed(fn) -> float:
                t0 = time.perf_counter()
                fn()
                return (time.perf_counter() - t0) * 1000

            def statements(svc: Service, fn) -> int:
                """How many statements the database ran for fn (counted, not timed)."""
                ran: list[str] = []
                conn = svc.profile.db.conn
                conn.set_trace_callback(ran.append)
                try:
                    fn()
                finally:
                    conn.set_trace_callback(None)
                return sum(1 for s in ran if not s.startswith(("BEGIN", "COMMIT")))

            send, receive, receive_statements = [], [], []
            ids = [m.id for m in laptop.memories.list(limit=args.rounds * 3)]
            for r in range(args.rounds):
                op = r % 3
                if op == 0:
                    laptop.memories.add(NewMemory(f"a new memory {r}"))
                elif op == 1:
                    laptop.memories.edit(ids[r], text=f"an edited memory {r}")
                else:
                    laptop.memories.delete([ids[r]])
                send.append(timed(laptop.sync.now))
                _merge(fa, fb)
                receive.append(timed(desktop.sync.now))
                _merge(fa, fb)
                laptop.memories.add(NewMemory(f"one more memory {r}"))
                laptop.sync.now()
                _merge(fa, fb)
                receive_statements.append(statements(desktop, desktop.sync.now))
                _merge(fa, fb)
            out["send_ms_median"] = round(statistics.median(send), 1)
            out["receive_ms_median"] = round(statistics.median(receive), 1)
            out["receive_ms_max"] = round(max(receive), 1)
            out["receive_statements_median"] = statistics.median(receive_statements)

            # idle
            laptop.sync.now()
            idle = [timed(laptop.sync.now) for _ in range(args.rounds)]
            out["idle_pass_ms_median"] = round(statistics.median(idle), 1)
            out["idle_pass_statements"] = statements(laptop, laptop.sync.now)
            out["idle_core_share_at_10s"] = round(statistics.median(idle) / 10_000, 5)

            # the folder against the profile, after the changes and compacted
            out["folder_bytes"] = layout.size()
            laptop.sync.now(compact=True)
            desktop.sync.now(compact=True)
            _merge(fa, fb)
            laptop.sync.now(compact=True)
            out["folder_bytes_compacted"] = layout.size()
            out["folder_over_text"] = round(int(out["folder_bytes_compacted"]) / data_bytes, 2)  # type: ignore[call-overload]
            desktop.close()
            laptop.close()
    finally:
        fake.stop()
    if not args.pass_only:
        out.update(hostile(args.rounds))
        out.update(pairing_guess())
        out.update(watched(args.rounds))
    return _print(out, args.json)


def _deliver(src: Path, dst: Path) -> float:
    """The engine: every file of `src` new or changed in `dst` is written there under a
    temporary name and renamed into place, the way Syncthing does; returns when the last
    rename was done (perf_counter)."""
    last = time.perf_counter()
    for path in sorted(src.rglob("*"), key=lambda p: p.name.startswith("c-")):
        if not path.is_file():
            continue
        target = dst / path.relative_to(src)
        data = path.read_bytes()
        if target.exists() and target.read_bytes() == data:
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.parent / f".syncthing.{target.name}.tmp"
        tmp.write_bytes(data)
        os.replace(tmp, target)
        last = time.perf_counter()
    return last


def watched(rounds: int, idle_s: float = 30.0) -> dict[str, object]:
    """The window's way to learn that a file arrived (ui/sync_watch.py), on a Qt event
    loop with no window: the delay from the engine's rename to the memory listed, and
    the share of a core used meanwhile when nothing arrives."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QCoreApplication, QTimer

    from desktop_mem.core.config import Config
    from desktop_mem.core.memory.store import NewMemory
    from desktop_mem.core.service import Service
    from desktop_mem.core.sync import files
    from desktop_mem.ui.sync_watch import FolderWatch
    from tests.fakes.ollama_server import FakeOllama

    app = QCoreApplication.instance() or QCoreApplication([])
    out: dict[str, object] = {}
    fake = FakeOllama().start()
    try:
        with scratch_home() as home:
            fa, fb = home / "laptop-Sync", home / "desktop-Sync"
            fa.mkdir()
            fb.mkdir()

            def open_(name: str) -> Service:
                cfg = Config.resolve(
                    home=home / name, ollama_host=fake.url, embed_model="fake-embed"
                )
                return Service.open(cfg)

            laptop, desktop = open_("laptop"), open_("desktop")
            laptop.sync.set_up(fa, "laptop")
            code = laptop.sync.offer_pairing()
            _deliver(fa, fb)
            desktop.sync.join(fb, code, "desktop", index=False)
            _deliver(fb, fa)
            laptop.sync.now()  # lets it in
            _deliver(fa, fb)
            desktop.sync.now(index=False)
            root = files.Layout.of(fb, files.find_profiles(fb)[0]).root
            watch = FolderWatch()
            watch.watch(root, desktop.sync.this_computer())
            waits: list[float] = []
            for r in range(rounds):
                text = f"watched {r}: 我们周末去爬山"
                laptop.memories.add(NewMemory(text))
                laptop.sync.now()
                state: dict[str, float] = {}

                def arrived(text: str = text, state: dict[str, float] = state) -> None:
                    desktop.sync.now(index=False)
                    if any(m.text == text for m in desktop.memories.list(limit=5)):
                        state["listed"] = time.perf_counter()
                        app.quit()

                watch.arrived.connect(arrived)
                QTimer.singleShot(
                    0, lambda state=state: state.setdefault("renamed", _deliver(fa, fb))
                )
                QTimer.singleShot(10_000, app.quit)  # a bound, not a schedule: reported
                app.exec()
                watch.arrived.disconnect(arrived)
                if "listed" in state:
                    waits.append(state["listed"] - state["renamed"])
                _deliver(fb, fa)  # the desktop's status back to the laptop
            out["watch_rounds"] = rounds
            out["watch_listed_after_rename_ms_median"] = round(statistics.median(waits) * 1000)
            out["watch_listed_after_rename_ms_max"] = round(max(waits) * 1000)
            out["watch_missed"] = rounds - len(waits)
            # nothing arrives: a pass every 10 seconds (the window's), with the folder
            # watched and without, one after the other
            ticker = QTimer()
            ticker.setInterval(10_000)
            ticker.timeout.connect(lambda: desktop.sync.now(index=False))
            for label in ("watched", "not_watched"):
                if label == "not_watched":
                    watch.stop()
                ticker.start()
                before = resource.getrusage(resource.RUSAGE_SELF)
                t0 = time.perf_counter()
                QTimer.singleShot(int(idle_s * 1000), app.quit)
                app.exec()
                after = resource.getrusage(resource.RUSAGE_SELF)
                ticker.stop()
                cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
                out[f"idle_core_share_{label}"] = round(cpu / (time.perf_counter() - t0), 4)
            desktop.close()
            laptop.close()
    finally:
        fake.stop()
    return out


def pairing_guess(guesses: int = 8) -> dict[str, object]:
    """One guess at a pairing code is one scrypt of the code with the offer's salt: its
    median time on this machine and the memory it takes, then the time, on one core,
    to try every code (60 bits) and half of them (the expected cost)."""
    import tracemalloc

    from desktop_mem.core.sync import crypto

    salt = os.urandom(16)
    times = []
    peak_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    tracemalloc.start()
    for _ in range(guesses):
        code = crypto.new_pairing_code()
        t0 = time.perf_counter()
        crypto.pairing_key(code, salt)
        times.append(time.perf_counter() - t0)
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak_before
    one = statistics.median(times)
    year = 365.25 * 86400
    space = len(crypto.PAIR_ALPHABET) ** crypto.PAIR_CHARS
    return {
        "pairing_guess_s": round(one, 3),
        "pairing_guess_rss_growth_mib": round(rss / 1024, 1),
        "pairing_codes": f"2^{space.bit_length() - 1}",
        "pairing_half_the_codes_core_years": f"{space / 2 * one / year:.2e}",
        "pairing_codes_tried_in_the_hour_on_1000_cores": round(3600 / one * 1000),
    }


def _print(out: dict[str, object], as_json: bool) -> int:
    if as_json:
        print(json.dumps(out, indent=2))
    else:
        for key, value in out.items():
            print(f"{key:32} {value}")
    return 0


def _plant(root: Path, outside: Path, sparse_bytes: int, tag: str) -> None:
    """What anyone who can write the folder may put there, with no key."""
    from desktop_mem.core.sync import crypto, files, frame

    sync_id = root.name.removeprefix(files.PREFIX)
    keys = root / "keys"
    stranger = root / crypto.new_id()
    stranger.mkdir()
    deep = b"[" * 100_000 + b"]" * 100_000

    def framed(kind: str, header: bytes, body: bytes = b"") -> bytes:
        size = len(header).to_bytes(4, "big")
        return frame.MAGIC + bytes([frame.FORMAT]) + size + header + body + bytes(64)

    writer = crypto.new_id()
    head = f'{{"generation":9,"kind":"keys","sync":"{sync_id}","writer":"{writer}"}}'.encode()
    (keys / files.key_name(9, writer)).write_bytes(framed("keys", head, deep))
    (stranger / files.STATUS).write_bytes(framed("status", deep))
    for path in (keys / files.key_name(8, crypto.new_id()), root / f"pair-{crypto.new_id()}.dmp"):
        with open(path, "wb") as f:
            f.truncate(sparse_bytes)  # `truncate -s`: nothing on disk
    fifos = [keys / files.key_name(7, crypto.new_id()), root / crypto.new_id() / files.STATUS]
    fifos[1].parent.mkdir()
    for fifo in fifos:
        os.mkfifo(fifo)
    (keys / files.key_name(6, crypto.new_id())).symlink_to("/dev/zero")
    (root / crypto.new_id()).symlink_to(outside, target_is_directory=True)
    (root / f"{tag}-not-ours").write_bytes(b"an engine's file")


def hostile(rounds: int) -> dict[str, object]:
    """A pass over a folder with hostile files beside the honest ones, against the same
    folder without them (two computers of 300 memories syncing through one folder)."""
    import shutil as _shutil

    from desktop_mem.core.config import Config
    from desktop_mem.core.memory.store import NewMemory
    from desktop_mem.core.service import Service
    from desktop_mem.core.sync import files
    from desktop_mem.core.sync.syncer import Syncer
    from tests.fakes.ollama_server import FakeOllama

    out: dict[str, object] = {}
    fake = FakeOllama().start()
    try:
        with scratch_home() as home:
            folder = home / "Sync"
            folder.mkdir()
            outside = home / "outside"
            outside.mkdir()
            (outside / "thesis.txt").write_bytes(b"no other copy")

            def open_(name: str) -> Service:
                cfg = Config.resolve(
                    home=home / name, ollama_host=fake.url, embed_model="fake-embed"
                )
                return Service.open(cfg)

            laptop, desktop = open_("laptop"), open_("desktop")
            laptop.profile.memories.add_many(
                [NewMemory(f"memory {n}: a day at work, 周末去爬山") for n in range(300)],
                actor="import",
            )
            laptop.sync.set_up(folder, "laptop")
            desktop.sync.join(folder, laptop.sync.offer_pairing(), "desktop", index=False)
            laptop.sync.now()
            root = files.Layout.of(folder, files.find_profiles(folder)[0]).root

            def change_then_pass(r: int) -> float:
                """A memory added on the laptop, its pass, then the desktop's (timed)."""
                laptop.memories.add(NewMemory(f"a new memory {r}"))
                laptop.sync.now(index=False)
                t0 = time.perf_counter()
                result = desktop.sync.now(index=False)
                ms = (time.perf_counter() - t0) * 1000
                assert result.applied.records, "the change did not arrive"
                return ms

            for n, (label, size) in enumerate((("1.5GB", 1500 << 20), ("150GB", 150_000 << 20))):
                # the same folder without them first, at the same size of profile
                base = 1000 * (n + 1)
                clean = [change_then_pass(base + r) for r in range(rounds)]
                honest = {*root.iterdir(), *(root / "keys").iterdir()}
                _plant(root, outside, size, label)
                rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
                first = change_then_pass(base + 100)
                said = desktop.sync.syncer.last_pass
                later = [change_then_pass(base + 101 + r) for r in range(rounds)]
                # another process: the quarantine is read from the profile
                t0 = time.perf_counter()
                fresh = Syncer(desktop.profile).run()
                fresh_ms = (time.perf_counter() - t0) * 1000
                out[f"hostile_{label}_clean_pass_ms_median"] = round(statistics.median(clean), 1)
                out[f"hostile_{label}_first_pass_ms"] = round(first, 1)
                out[f"hostile_{label}_later_pass_ms_median"] = round(statistics.median(later), 1)
                out[f"hostile_{label}_new_process_idle_pass_ms"] = round(fresh_ms, 1)
                out[f"hostile_{label}_refused_then_ignored"] = (
                    f"{len(said.refused) if said else 0} / {fresh.ignored}"
                )
                out[f"hostile_{label}_peak_rss_growth_mb"] = round(
                    (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss) / 1024
                )
                assert (outside / "thesis.txt").read_bytes() == b"no other copy"
                # the planted files out again (the honest ones stay)
                for path in {*root.iterdir(), *(root / "keys").iterdir()} - honest:
                    if path.is_dir() and not path.is_symlink():
                        _shutil.rmtree(path)
                    else:
                        path.unlink()
            desktop.close()
            laptop.close()
    finally:
        fake.stop()
    return out


if __name__ == "__main__":
    raise SystemExit(main())
