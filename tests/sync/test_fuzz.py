"""The fuzz: random operations on two and three computers, random sync timings, through
a simulated engine that delays, reorders, cuts short, duplicates, makes conflict
copies, delivers under temporary names, copies a half-written file back over its
writer's own copy (and everywhere), deletes files, puts older versions back, breaks a
copy on the way and believes it whole, and keeps one version without a word when two
computers write one name. The operations include chat turns through the real chat,
"forget …" carried out, and computers whose wall clock is an hour ahead or behind, and
now and then a computer killed with SIGKILL (kill -9) in the middle of its work by a
real separate process: a `sync now` while it writes its change file, while it applies
what it received or while it mends a file of its own that the engine damaged, or a
`memory import` while it writes; the computer then starts again and the fuzz goes on.
Now and then one computer takes another out of the sync ("this laptop was stolen"): the
one taken out goes on being used, learns it was removed at one of its next passes, and
joins again later with a pairing code, keeping what it holds. And now and then a
computer's data folder is copied to another machine (a cloned disk): two computers
under one identity, both used from then on.
Every computer converges to the same memories, texts, histories and conversations;
nothing acknowledged is lost except what a delete overrode; nothing is applied twice; no
deleted text is left on any computer or in the folder after compaction; no temporary
file is left in the folder; no canary in the folder.

DESKTOP_MEM_FUZZ_OPS sets the number of operations (the suite's default is smaller than
the 10,000 of `make sync-fuzz`), DESKTOP_MEM_FUZZ_SEED the random sequence,
DESKTOP_MEM_FUZZ_DAMAGE how often the engine damages, deletes or rolls back a file (1:
the default mix, 0: never), DESKTOP_MEM_FUZZ_CLONE the share of operations that copy a
computer (at most two copies a run), DESKTOP_MEM_FUZZ_PATIENCE how long (seconds) a
reader waits for a file that does not open before it says it is stuck."""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from desktop_mem.core.chat import forget
from desktop_mem.core.config import Config
from desktop_mem.core.errors import SyncError
from desktop_mem.core.keys.vault import KeyringAccess, Vault
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.service import Service
from desktop_mem.core.sync import files, frame, pairing, reading
from desktop_mem.core.sync.state import Pass
from desktop_mem.core.sync.syncer import Syncer
from tests.fakes.keyrings import MemoryKeyring
from tests.fakes.ollama_server import FakeOllama
from tests.sync.engine import SimEngine

OPS = int(os.environ.get("DESKTOP_MEM_FUZZ_OPS", "1500"))
# of the operations, the share where a computer is killed in the middle of its work
KILL = float(os.environ.get("DESKTOP_MEM_FUZZ_KILL", "0.004"))
# the random sequence (DESKTOP_MEM_FUZZ_SEED tries another)
SEED = int(os.environ.get("DESKTOP_MEM_FUZZ_SEED", "4200"))
# of the operations, the share where a computer takes another out of the sync
REMOVE = float(os.environ.get("DESKTOP_MEM_FUZZ_REMOVE", "0.002"))
# the engine's damage, deletions and rollbacks (a share of its steps each, times this)
DAMAGE = float(os.environ.get("DESKTOP_MEM_FUZZ_DAMAGE", "1"))
# of the operations, the share where a computer's data folder is copied (a cloned disk)
CLONE = float(os.environ.get("DESKTOP_MEM_FUZZ_CLONE", "0.0007"))
CLONES = 2  # at most, a run
MIN_ROUNDS = 6  # of passes with everything delivered, at the end, before states compare
# how long a file that does not open is waited for before a reader says it is stuck:
# short here (the fuzz runs for minutes), so that answer is exercised too
PATIENCE_S = float(os.environ.get("DESKTOP_MEM_FUZZ_PATIENCE", "2"))
CANARY = "canary"
PASSPHRASE = "fuzz test passphrase"  # so a separate process can open a computer's profile
ROOT = Path(__file__).resolve().parents[2]


class Box:
    """One computer: its profile, its own copy of the synced folder, its syncer."""

    def __init__(
        self,
        root: Path,
        name: str,
        fake: FakeOllama,
        keyring: MemoryKeyring,
        passphrase: str | None = None,
    ) -> None:
        self.name = name
        self.folder = root / f"{name}-Sync"
        self.folder.mkdir(exist_ok=True)
        self.home = root / name
        self.fake = fake
        self.keyring = keyring
        self.config = Config.resolve(
            home=self.home, ollama_host=fake.url, embed_model="fake-embed", passphrase=passphrase
        )
        self.vault = Vault(KeyringAccess(keyring, timeout=2.0))
        self.service = Service.open(self.config, self.vault)
        self.code = self.service.profile.db.new_recovery_code  # None with a passphrase
        self.syncer = Syncer(self.service.profile)
        self.wal = Path(str(self.db.path) + "-wal")

    def reopen(self) -> None:
        """The computer started again after its service was closed (or killed)."""
        self.service = Service.open(self.config, self.vault)
        self.syncer = Syncer(self.service.profile)

    def cli(self, *args: str) -> list[str]:
        return [sys.executable, "-m", "desktop_mem", "--home", str(self.home), "--ollama-host",
                self.fake.url, "--embed-model", "fake-embed", *args]  # fmt: skip

    def wal_size(self) -> int:
        try:
            return self.wal.stat().st_size
        except OSError:
            return 0

    def temporary(self) -> list[Path]:
        """Temporary files this computer's writes left in its copy of the folder."""
        return [p for p in self.folder.rglob(".~dm-*")]

    @property
    def db(self) -> Any:
        return self.service.profile.db

    def state(self) -> dict[str, Any]:
        """What a user sees, by stable id: memories (text, kind, pin, end date, every
        version's text), conversations (title, messages)."""
        mems = {}
        for uid, mid, text, kind, pinned, until in self.db.query(
            "SELECT uid, id, text, kind, pinned, valid_until FROM memories"
        ):
            history = sorted(
                r[0]
                for r in self.db.query(
                    "SELECT text FROM memory_history WHERE memory_id = ?", (mid,)
                )
            )
            mems[uid] = (text, kind, bool(pinned), until, tuple(history))
        convs = {}
        for uid, cid, title in self.db.query("SELECT uid, id, title FROM conversations"):
            msgs = self.db.query(
                "SELECT uid, role, content, forgotten FROM messages WHERE conversation_id = ? "
                "ORDER BY uid",
                (cid,),
            )
            convs[uid] = (title, tuple(tuple(m) for m in msgs))
        return {"memories": mems, "conversations": convs}


@contextlib.contextmanager
def _clock(offset: int) -> Iterator[None]:
    """The dates this computer writes, `offset` seconds off (its wall clock wrong)."""
    if not offset:
        yield
        return
    from desktop_mem.core.chat import conversations
    from desktop_mem.core.memory import records, store

    wrong = lambda: (datetime.now(UTC) + timedelta(seconds=offset)).isoformat(  # noqa: E731
        timespec="seconds"
    )
    saved = [(m, m.now_iso) for m in (records, store, conversations)]
    for module, _ in saved:
        module.now_iso = wrong  # type: ignore[attr-defined]
    try:
        yield
    finally:
        for module, fn in saved:
            module.now_iso = fn  # type: ignore[attr-defined]


def _join(box: Box, code: str) -> None:
    layout = files.Layout.of(box.folder, files.find_profiles(box.folder)[0])
    box.syncer.join(box.folder, pairing.join_with_recovery_code(layout, code), box.name)


def _pair(box: Box, first: Box, engine: SimEngine) -> None:
    """Join with a pairing code (a profile protected by a passphrase has no recovery
    code)."""
    code = first.syncer.offer_pairing()
    engine.settle()
    layout = files.Layout.of(box.folder, files.find_profiles(box.folder)[0])
    box.syncer.join(box.folder, pairing.join_with_pairing_code(layout, code), box.name)
    engine.settle()  # its request reaches the first computer, which lets it in
    first.syncer.run()
    engine.settle()


def _everything_in(folder: Path, box: Box) -> str:
    layout = files.Layout.of(folder, files.find_profiles(folder)[0])
    chain = box.syncer.chain()
    out = []
    for device in layout.devices():
        for path in sorted(layout.device(device).iterdir()):
            if files.CHANGES.fullmatch(path.name):
                kind = "changes"
            elif files.SNAPSHOT.fullmatch(path.name):
                kind = "snapshot"
            else:
                continue
            raw = frame.read_raw(path, layout.sync_id, kind)
            out += [
                f"{device}/{path.name}: {json.dumps(r, ensure_ascii=False)}"
                for r in raw.records(chain.key(raw.header["key"]))
            ]
    return "\n".join(out)


class Fuzz:
    def __init__(self, boxes: list[Box], engine: SimEngine, rng: random.Random) -> None:
        self.boxes = boxes
        self.engine = engine
        self.rng = rng
        self.n = 0
        self.created: set[str] = set()  # memory uids made
        self.deleted: set[str] = set()  # memory uids deleted somewhere
        self.deleted_texts: set[str] = set()
        self.conv_created: set[str] = set()
        self.conv_deleted: set[str] = set()
        self.skew: dict[str, int] = {}  # each computer's wall clock, seconds off
        self.forgets = 0
        self.turns = 0
        self.kills: Counter[str] = Counter()
        # computers out of the sync until they join again: taken out by another, or left
        # out of a new key made by one that had not heard of them yet
        self.out: list[Box] = []
        self.removals: Counter[str] = Counter()
        self.clones: list[str] = []
        self.settled_at = 0  # no removal before this operation (a copy was just made)

    def text(self) -> str:
        self.n += 1
        words = [
            "tea",
            "bikes",
            "Lisbon",
            "花生",
            "跑步",
            "cello",
            "garden",
            "猫",
            "train",
            "books",
        ]
        return f"fact {self.n} about {self.rng.choice(words)} {self.rng.randrange(10**6)}"

    def op(self) -> None:
        box = self.rng.choice(self.boxes)
        # its wall clock: right, an hour ahead or an hour behind (the logical clock
        # orders the changes; the dates a person reads are the computer's own)
        skew = self.skew.setdefault(box.name, self.rng.choice([0, 0, 3600, -3600]))
        if self.rng.random() < 0.01:  # a clock set right, or wrong, now and then
            self.skew[box.name] = self.rng.choice([0, 3600, -3600])
        with _clock(skew):
            self._op(box)

    def _op(self, box: Box) -> None:
        svc = box.service
        roll = self.rng.random()
        mems = box.db.query("SELECT id, uid, text FROM memories")
        if roll < KILL:
            self.crash(box)
        elif roll < KILL + REMOVE:
            self.remove(box)
        elif roll < KILL + REMOVE + CLONE:
            self.clone(box)
        elif roll < 0.04:
            self.chat_turn(box)
        elif roll < 0.07 and mems:
            self.forget(box, mems)
        elif roll < 0.30 or not mems:
            m = svc.memories.add(
                NewMemory(self.text(), kind=self.rng.choice(["fact", "preference"]))
            ).memory
            self.created.add(box.db.query("SELECT uid FROM memories WHERE id = ?", (m.id,))[0][0])
        elif roll < 0.55:
            mid, _, text = self.rng.choice(mems)
            svc.memories.edit(mid, text=f"{text.split(' (v')[0]} (v{self.rng.randrange(1000)})")
        elif roll < 0.63:
            mid, _, _ = self.rng.choice(mems)
            svc.memories.pin(mid, self.rng.random() < 0.5)
        elif roll < 0.68:
            mid, _, _ = self.rng.choice(mems)
            svc.memories.edit(mid, valid_until=f"2027-0{self.rng.randrange(1, 9)}-01")
        elif roll < 0.78:
            mid, uid, _ = self.rng.choice(mems)
            texts = {
                r[0]
                for r in box.db.query("SELECT text FROM memory_history WHERE memory_id = ?", (mid,))
            }
            svc.memories.delete([mid])
            self.deleted.add(uid)
            self.deleted_texts |= texts
        elif roll < 0.93:
            convs = box.db.query("SELECT id FROM conversations")
            store = box.service.profile.conversations
            if not convs or self.rng.random() < 0.3:
                cid = store.create(title=f"chat {self.n}").id
                self.conv_created.add(
                    box.db.query("SELECT uid FROM conversations WHERE id = ?", (cid,))[0][0]
                )
            else:
                cid = self.rng.choice(convs)[0]
            store.add_message(cid, "user", f"{CANARY} said {self.text()}")
            store.add_message(cid, "assistant", f"{CANARY} answered {self.n}")
        else:
            convs = box.db.query("SELECT id, uid FROM conversations")
            if convs:
                cid, uid = self.rng.choice(convs)
                box.service.conversations.delete(cid)
                self.conv_deleted.add(uid)

    def chat_turn(self, box: Box) -> None:
        """A real turn: the message stored, the fake model's answer, what it learned."""
        convs = box.db.query("SELECT id FROM conversations")
        cid = self.rng.choice(convs)[0] if convs and self.rng.random() < 0.6 else None
        session = box.service.chat(cid)
        try:
            session.send(f"{CANARY} told {self.text()}").learned(30)
            self.turns += 1
            if cid is None and session.conversation_id is not None:
                uid = box.db.query(
                    "SELECT uid FROM conversations WHERE id = ?", (session.conversation_id,)
                )
                self.conv_created |= {r[0] for r in uid}
        finally:
            session.close()

    def forget(self, box: Box, mems: list[Any]) -> None:
        """A "forget …" carried out: some memories deleted, some earlier messages deleted
        and others kept but left out of every prompt."""
        chosen = self.rng.sample(mems, k=min(len(mems), self.rng.randrange(1, 3)))
        for mid, uid, _ in chosen:
            self.deleted.add(uid)
            self.deleted_texts |= {
                r[0]
                for r in box.db.query("SELECT text FROM memory_history WHERE memory_id = ?", (mid,))
            }
        msgs = [r[0] for r in box.db.query("SELECT id FROM messages WHERE forgotten = 0")]
        picked = self.rng.sample(msgs, k=min(len(msgs), 4))
        half = len(picked) // 2
        before = {r[0] for r in box.db.query("SELECT uid FROM conversations")}
        forget.carry_out(
            box.service.profile, [m[0] for m in chosen], picked[:half], picked[half:], [], "", None
        )
        # a conversation the forget left empty goes with it
        self.conv_deleted |= before - {r[0] for r in box.db.query("SELECT uid FROM conversations")}
        self.forgets += 1

    def remove(self, box: Box) -> None:
        """`box` takes another computer out of the sync. One known to be out takes
        nobody out, and one computer always stays in; the others may not have seen the
        last removal yet (new keys made apart are merged at the next passes)."""
        me = box.syncer.device  # (a copy under the same identity is not another computer)
        targets = [b for b in self.boxes if b.syncer.device != me and b not in self.out]
        if box in self.out or not targets or self._copies_unsettled():
            return
        target = self.rng.choice(targets)
        device = target.syncer.device
        if len(self.out) + sum(b.syncer.device == device for b in self.boxes) >= len(self.boxes):
            return
        try:
            box.syncer.remove(device)
        except SyncError as exc:
            if exc.reason in ("sync_removed", "sync_left_out"):  # it learns it is out
                self.out.append(box)
                self.removals["remover out"] += 1
                return
            # it joined again since this one last read the folder
            assert exc.reason == "not_found", exc
            self.removals["not known yet"] += 1
            return
        self.out.append(target)  # (a copy of it under the same identity learns at a pass)
        self.removals["removed"] += 1

    def _copies_unsettled(self) -> bool:
        """Two computers still share an identity, or one was copied a short while ago:
        no removal then. (A removal made apart from the one that takes a shared id out
        when both copies went on as new computers, each unaware of a computer the other
        let in through that id, can leave every computer out, with no one left to show a
        pairing code: a rule of membership that a person meets only with a copy, a
        removal and a join all at once; the recovery code still joins.)"""
        ids = [b.syncer.device for b in self.boxes if b not in self.out]
        return len(ids) != len(set(ids)) or self.n < self.settled_at

    def clone(self, box: Box) -> None:
        """`box`'s whole data folder and its copy of the sync folder copied to another
        machine (a cloned disk, where the paths are the same: here the copy is told its
        folder). Both go on being used. Only a computer that shares its identity with no
        other is copied (three copies of one are said in docs/sync.md: the third joins
        again)."""
        if len(self.clones) >= CLONES or box in self.out:
            return
        if sum(b.syncer.device == box.syncer.device for b in self.boxes) > 1:
            return
        name = f"pc{len(self.boxes)}"
        box.service.close()
        shutil.copytree(box.home, box.home.parent / name)
        shutil.copytree(box.folder, box.folder.parent / f"{name}-Sync")
        box.reopen()
        copy = Box(box.home.parent, name, box.fake, box.keyring, PASSPHRASE)
        with copy.db.transaction() as conn:
            copy.syncer.state.set(conn, {"folder": str(copy.folder)})
        self.engine.add_folder(copy.folder)
        self.boxes.append(copy)
        self.skew[name] = self.skew.get(box.name, 0)
        self.clones.append(f"{box.name}->{name}")
        self.settled_at = self.n + 300

    def run(self, box: Box, compact: bool | None = None, rejoin: float = 0.5) -> Pass | None:
        """A pass on `box`: what it did, or None when it was out. One taken out of the
        sync learns so here; it joins again now (with chance `rejoin`) or at a later
        pass, and is used meanwhile."""
        try:
            return box.syncer.run(compact=compact)
        except SyncError as exc:
            # out; or waiting to be let in with a code that was used by another, expired,
            # or shown by a computer removed before it let this one in
            out = ("sync_removed", "sync_left_out", "sync_code_used", "sync_code_expired")
            assert exc.reason in out, exc
            if box in self.out:
                self.removals["learned at a pass"] += 1
            else:  # let in by one removed by a computer that had not heard of it, or a
                # copy of one removed, or its code failed
                assert exc.reason != "sync_removed" or self.clones, exc
                self.out.append(box)
                self.removals["left out"] += 1
            if self.rng.random() < rejoin:
                self.rejoin(box)
            return None

    def rejoin(self, box: Box) -> None:
        helpers = [b for b in self.boxes if b not in self.out]
        self.rng.shuffle(helpers)
        layout = files.Layout.of(box.folder, files.find_profiles(box.folder)[0])
        for helper in helpers:  # one that is still in the sync shows a pairing code
            try:
                code = helper.syncer.offer_pairing()
                self.engine.settle()
                chain = pairing.join_with_pairing_code(layout, code)
                break
            except SyncError as exc:  # it learns here that it is out too
                if exc.reason == "sync_no_key":
                    continue  # not given the newest key yet: another computer shows one
                if exc.reason not in ("sync_removed", "sync_left_out"):
                    # the code's records show it was left out (by a removal it has not
                    # seen yet): a person shows a code on another computer
                    assert "no longer in this sync" in str(exc), exc
                self.out.append(helper)
                self.removals["helper out too"] += 1
        else:
            raise AssertionError(
                f"no computer is left in the sync to show a pairing code ({self.removals}, "
                f"copies {self.clones})"
            )
        box.syncer.rejoin(box.folder, chain)
        self.out.remove(box)
        self.removals["joined again"] += 1

    def _before_crash(self, box: Box, kind: str) -> tuple[str, list[str]]:
        """What the killed process will be in the middle of: the kind, and the texts it
        takes in (or imports)."""
        batch: list[str] = []
        if kind == "repair":  # its own newest file damaged: `sync now` writes it again
            own = box.syncer.layout().device(box.syncer.device)
            mine = sorted(own.glob("[cs]-*.dm[cs]")) if own.is_dir() else []
            if not mine:
                kind = "import"
            else:
                data = mine[-1].read_bytes()
                mine[-1].write_bytes(data[: self.rng.randrange(1, max(2, len(data)))])
        if kind == "write":  # local changes for `sync now` to write out
            news = [NewMemory(self.text()) for _ in range(self.rng.randrange(50, 150))]
            mems, _ = box.service.memories.add_many(news)
            self.created |= self._uids(box, [m.id for m in mems])
        elif kind == "apply":  # nothing of its own to send, a peer's changes delivered
            peer = self.rng.choice([b for b in self.boxes if b is not box])
            news = [NewMemory(self.text()) for _ in range(self.rng.randrange(50, 150))]
            mems, _ = peer.service.memories.add_many(news)
            self.created |= self._uids(peer, [m.id for m in mems])
            batch = [m.text for m in mems]
            self.run(peer, rejoin=1.0)
            self.engine.settle()
        elif kind == "import":
            batch = [self.text() for _ in range(self.rng.randrange(50, 150))]
        return kind, batch

    def crash(self, box: Box) -> None:
        """kill -9 of this computer by a real separate process in the middle of its work,
        then the computer starts again. The kill waits on observed progress (the
        temporary change file appearing, the database's WAL growing), never on time; a
        process that finishes first is counted as such."""
        kind = self.rng.choice(["write", "apply", "import", "repair"])
        if self.out and (box in self.out or kind == "apply"):
            kind = "import"  # a pass on (or from) the computer taken out would be refused
        if kind != "import":  # one left out of a new key is told so first, and rejoins
            self.run(box, rejoin=1.0)
        kind, batch = self._before_crash(box, kind)
        box.service.close()
        base = box.wal_size()
        grown = base + self.rng.randrange(8, 160) * 1024
        if kind == "import":
            source = box.home / "import.json"
            source.write_text(json.dumps([{"text": t} for t in batch]))
            cmd = box.cli("memory", "import", str(source))
        else:
            cmd = box.cli("sync", "now")

        left = set(box.temporary())  # what an earlier kill left (cleared on the next pass)

        def writing() -> bool:
            return bool(set(box.temporary()) - left)

        def applying() -> bool:
            return box.wal_size() >= grown

        ready = writing if kind in ("write", "repair") else applying
        env = dict(os.environ, DESKTOP_MEM_PASSPHRASE=PASSPHRASE, PYTHONPATH=str(ROOT))
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        while proc.poll() is None:
            if ready():
                proc.send_signal(signal.SIGKILL)
                break
            # the commit writes its pages in a few milliseconds: look without a pause
            time.sleep(0 if base < box.wal_size() else 0.002)
        _, err = proc.communicate(timeout=600)
        if proc.returncode == -signal.SIGKILL:
            self.kills[f"mid-{kind}"] += 1
        else:
            assert proc.returncode == 0, err.decode()
            self.kills["finished first"] += 1
        box.reopen()
        texts = {r[0]: r[1] for r in box.db.query("SELECT text, id FROM memories")}
        there = [t for t in batch if t in texts]
        if kind == "apply" and proc.returncode == -signal.SIGKILL:
            # the peer's batch taken in before the kill, or its step rolled back
            self.kills["apply kept" if there else "apply rolled back"] += 1
        if kind == "import":  # all of the batch, or none of it
            assert len(there) in (0, len(batch)), (len(there), len(batch))
            if there:  # it was written: acknowledged
                self.created |= self._uids(box, [texts[t] for t in there])
                self.kills["import kept"] += 1
            elif proc.returncode == -signal.SIGKILL:
                self.kills["import rolled back"] += 1

    @staticmethod
    def _uids(box: Box, ids: list[int]) -> set[str]:
        out: set[str] = set()
        for n in range(0, len(ids), 500):
            part = ids[n : n + 500]
            marks = ",".join("?" * len(part))
            out |= {
                r[0] for r in box.db.query(f"SELECT uid FROM memories WHERE id IN ({marks})", part)
            }
        return out

    def sync_some(self) -> None:
        for box in self.boxes:
            if self.rng.random() < 0.5:
                self.run(box, compact=self.rng.choice([None, None, True, False]))
        self.engine.step(deliveries=self.rng.randrange(1, 12))

    def converge(self) -> list[Any]:
        """Passes with everything delivered until every computer holds the same and
        none is waiting for a file: at least MIN_ROUNDS, then on while a pass says it
        waits. A file spoiled on the way (believed whole by the engine) is waited for
        PATIENCE_S of the wall clock before its writer is asked for a fresh copy, so how
        many rounds that takes depends on the machine's speed: the rounds go on while
        some computer says it is waiting, not for a number guessed beforehand."""
        rounds = still = 0
        while True:
            self.engine.settle()
            waiting = False
            for box in self.boxes:
                done = self.run(box, compact=True, rejoin=1.0)
                waiting |= done is None or bool(done.waiting)
                if box in self.out and not box.syncer.removed_here:
                    # its pass went through with everything delivered: it is in (a code
                    # that had expired let it in after all)
                    self.out.remove(box)
                    self.removals["in after all"] += 1
            rounds += 1
            states = [box.state() for box in self.boxes]
            same = all(state == states[0] for state in states)
            still = 0 if waiting else still + 1
            # done once it is the same everywhere with nobody waiting; not converging
            # when MIN_ROUNDS rounds in a row wait for nothing and it is not the same
            if rounds >= MIN_ROUNDS and (still >= MIN_ROUNDS or (same and not waiting)):
                break
            assert rounds < 100, "a computer says it is waiting, round after round"
        self.engine.settle()
        for box in self.boxes:
            box.syncer.run()
        assert not self.out, "every computer taken out joined again"
        print(f"converged in {rounds} rounds", file=sys.stderr)
        return [box.state() for box in self.boxes]


def _explain(boxes: list[Box], states: list[Any]) -> None:
    """What differs between the computers' states, item by item (printed for a failure)."""
    for part in ("memories", "conversations"):
        uids = set().union(*(st[part] for st in states))
        for uid in sorted(uids):
            seen = [st[part].get(uid) for st in states]
            if all(v == seen[0] for v in seen):
                continue
            print(f"DIFF {part} {uid}", file=sys.stderr)
            for box, v in zip(boxes, seen, strict=True):
                if v is None:
                    print(f"  {box.name} ({box.syncer.device}): missing", file=sys.stderr)
                elif part == "conversations":
                    print(f"  {box.name} ({box.syncer.device}): {v[0]!r} "
                          f"{len(v[1])} messages {[m[0][:6] for m in v[1]]}", file=sys.stderr)  # fmt: skip
                else:
                    print(f"  {box.name} ({box.syncer.device}): {v[:4]} "
                          f"{len(v[4])} versions", file=sys.stderr)  # fmt: skip


@pytest.mark.timeout(1800)
@pytest.mark.parametrize("computers", [2, 3])
def test_computers_converge_and_lose_nothing(
    computers: int,
    tmp_path: Path,
    isolated: MemoryKeyring,
    fake_ollama: FakeOllama,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = random.Random(SEED + computers)
    monkeypatch.setattr(reading, "PATIENCE_S", PATIENCE_S)
    # opened with a passphrase, so a separate process can open them (the kills)
    boxes = [Box(tmp_path, f"pc{n}", fake_ollama, isolated, PASSPHRASE) for n in range(computers)]
    engine = SimEngine(
        [b.folder for b in boxes], rng, damage=0.05 * DAMAGE, delete=0.025 * DAMAGE,
        rollback=0.025 * DAMAGE, spoiled=0.02 * DAMAGE,
    )  # fmt: skip
    try:
        boxes[0].syncer.set_up(boxes[0].folder, "pc0")
        boxes[0].syncer.run()
        engine.settle()
        for box in boxes[1:]:
            _pair(box, boxes[0], engine)
            box.syncer.run()
        fuzz = Fuzz(boxes, engine, rng)
        for _i in range(OPS):
            fuzz.op()
            if rng.random() < 0.08:
                fuzz.sync_some()
        states = fuzz.converge()
        for state in states[1:]:
            if state != states[0]:
                _explain(boxes, states)
            assert state == states[0]
        mems = states[0]["memories"]
        # nothing applied twice: no text made once is on two memories
        twice = [t for t, n in Counter(m[0] for m in mems.values()).items() if n > 1]
        assert not twice, twice[:3]
        for box in boxes:  # no temporary file left by a write killed half-way
            assert not box.temporary(), box.temporary()[:3]
        # nothing acknowledged lost: every memory made and never deleted is there
        assert fuzz.created - fuzz.deleted <= set(mems), len(
            (fuzz.created - fuzz.deleted) - set(mems)
        )
        assert not (set(mems) & fuzz.deleted)
        convs = states[0]["conversations"]
        assert fuzz.conv_created - fuzz.conv_deleted <= set(convs)
        assert not (set(convs) & fuzz.conv_deleted)
        # no deleted text on any computer, nor in the folder once compacted
        alive = {t for m in mems.values() for t in m[4]} | {m[0] for m in mems.values()}
        gone = fuzz.deleted_texts - alive
        for box in boxes:
            stored = {r[0] for r in box.db.query("SELECT text FROM memory_history")}
            stored |= {r[0] for r in box.db.query("SELECT text FROM memories")}
            assert not (gone & stored)
            folder_text = _everything_in(box.folder, box)
            left = [t for t in gone if t in folder_text]
            assert not left, (box.name, [x for x in folder_text.splitlines() if left[0] in x][:3])
            raw = b"".join(p.read_bytes() for p in box.folder.rglob("*") if p.is_file())
            assert CANARY.encode() not in raw and b"fact " not in raw
        numbers = Counter(n for n, _w, _p in boxes[0].syncer.layout().key_files())
        fuzz.removals["generations made apart"] = sum(1 for c in numbers.values() if c > 1)
        print(f"{computers} computers, {OPS} operations: {len(mems)} memories, {len(convs)} "
              f"conversations, {fuzz.turns} chat turns, {fuzz.forgets} forgets, clocks off {fuzz.skew}, "
              f"engine {engine.stats}, kills {dict(fuzz.kills)}, removals {dict(fuzz.removals)}, "
              f"copies {fuzz.clones} (ids at the end: {len({b.syncer.device for b in boxes})} "
              f"for {len(boxes)} computers)")  # fmt: skip
    finally:
        for box in boxes:
            box.service.close()
