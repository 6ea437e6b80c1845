"""The sync folder is hostile input: whoever can write it (the engine, every device and
account that shares it, a thief with a removed laptop) needs no key to plant a link, a
FIFO, a sparse file or JSON nested 100,000 deep. Nothing there is followed, nothing
outside the folder is read, written or deleted because of what it holds, no file can
make a pass hang or read without bound, and a refused file is said once, then left
alone (counted) until it changes, while the honest computers go on syncing."""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import shutil
import socket
import struct
import threading
import time
import tracemalloc
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

from desktop_mem.core.errors import SyncError
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.sync import crypto, files, frame, fsafe
from desktop_mem.core.sync.quarantine import MAX_ENTRIES, Quarantine
from desktop_mem.core.sync.syncer import Syncer
from tests import report
from tests.sync.conftest import Computer, Computers

THESIS = b"Chapter 1. Four years of work, and no other copy.\n"
PRIVATE = b"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n"


@pytest.fixture(params=["descriptors", "lstat"])
def walk(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Both ways of walking the folder: by descriptor (Linux, macOS) and, where the system
    has no calls relative to one (Windows), by lstat of every part before each act."""
    if request.param == "lstat":
        monkeypatch.setattr(fsafe, "DIR_FD", False)
    return str(request.param)


def _outside(tmp_path: Path) -> Path:
    """The user's files, outside the sync folder."""
    home = tmp_path / "home"
    (home / "thesis").mkdir(parents=True)
    (home / "thesis" / "thesis.txt").write_bytes(THESIS)
    (home / ".ssh").mkdir()
    (home / ".ssh" / "id_ed25519").write_bytes(PRIVATE)
    return home


def _tree(root: Path) -> dict[str, str]:
    """Every entry under `root`, never followed: a file by its bytes, a link by where it
    points, anything else by its kind."""
    out: dict[str, str] = {}
    for dirpath, dirs, names in os.walk(root):
        for name in dirs + names:
            path = Path(dirpath) / name
            st = path.lstat()
            if path.is_symlink():
                out[str(path.relative_to(root))] = "-> " + os.readlink(path)
            elif path.is_file():
                out[str(path.relative_to(root))] = hashlib.sha256(path.read_bytes()).hexdigest()
            else:
                out[str(path.relative_to(root))] = f"mode {st.st_mode:o}"
    return out


def _layout(computers: Computers) -> files.Layout:
    return files.Layout.of(computers.folder, files.find_profiles(computers.folder)[0])


def _pair(computers: Computers) -> tuple[Computer, Computer]:
    laptop = computers.first("laptop")
    laptop.service.memories.add(NewMemory("I keep bees", kind="fact"))
    laptop.sync()
    desktop = computers.join("desktop", laptop.code)
    desktop.sync()
    laptop.sync()
    return laptop, desktop


def _next_change(computers: Computers, c: Computer) -> Path:
    """The name of the next change file `c` will write."""
    return _layout(computers).device(c.syncer.device) / files.changes_name(
        c.syncer.state.int("written") + 1
    )


def _arrives(sender: Computer, receiver: Computer, text: str) -> tuple[Any, Any]:
    """A memory added on one computer arrives on the other: one pass each."""
    sender.service.memories.add(NewMemory(text, kind="fact"))
    sent = sender.sync()
    received = receiver.sync()
    assert text in receiver.texts()
    return sent, received


def _said(result: Any, *words: str) -> list[str]:
    return [r for r in result.refused if all(w in r for w in words)]


def _bounded(fn: Callable[[], Any], fifos: Iterable[Path] = (), seconds: float = 60.0) -> Any:
    """Run a pass in a thread and wait a bounded time: a pass that hangs on a FIFO fails
    the test instead of the suite (the FIFOs are then opened for writing and closed, so
    the stuck reader gets an end of file and the profile can close)."""
    out: dict[str, Any] = {}

    def work() -> None:
        try:
            out["result"] = fn()
        except BaseException as exc:  # noqa: BLE001 - handed to the test's thread
            out["error"] = exc

    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        for fifo in fifos:
            with contextlib.suppress(OSError):
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        thread.join(seconds)
        pytest.fail(f"the pass did not return within {seconds:.0f} s (it waited on a FIFO)")
    if "error" in out:
        raise out["error"]
    return out["result"]


def _sync_file(kind: str, sync_id: str, header: bytes | None = None, body: bytes = b"") -> bytes:
    """A file with desktop-mem's frame, written by someone who holds no key."""
    if header is None:
        header = f'{{"kind":"{kind}","sync":"{sync_id}"}}'.encode()
    return frame.MAGIC + bytes([frame.FORMAT]) + struct.pack(">I", len(header)) + header + body


# -- links ------------------------------------------------------------------------------


def test_a_link_as_a_removed_computers_folder_deletes_nothing_outside(
    computers: Computers, tmp_path: Path, walk: str
) -> None:
    """The attack: a removed computer's id is readable in the key files; a link under
    that name made every computer delete what it pointed to, at every pass."""
    laptop, desktop = _pair(computers)
    old = computers.join("old-laptop", laptop.code)
    old.sync()
    laptop.sync()
    laptop.service.sync.remove("old-laptop")
    desktop.sync()
    home = _outside(tmp_path)
    before = _tree(home)
    link = _layout(computers).device(old.syncer.device)
    assert not link.exists()  # its folder left with it
    link.symlink_to(home / "thesis", target_is_directory=True)

    sent, received = _arrives(laptop, desktop, "I moved to Hangzhou")
    assert (home / "thesis" / "thesis.txt").read_bytes() == THESIS
    assert _tree(home) == before
    for result in (sent, received):
        assert _said(result, "symbolic link"), result.refused
    assert link.is_symlink() or not link.exists()  # the link itself: gone or ignored

    # said once, then counted, on each computer
    again = _arrives(desktop, laptop, "I learn the erhu")
    for result in again:
        assert not _said(result, "symbolic link") and result.ignored >= 1
    assert laptop.service.sync.info()["ignored"] >= 1
    assert _tree(home) == before
    report.add("sync_attacks")


def test_a_link_as_this_computers_own_folder_is_replaced_by_a_real_folder(
    computers: Computers, tmp_path: Path, walk: str
) -> None:
    laptop, desktop = _pair(computers)
    home = _outside(tmp_path)
    before = _tree(home)
    own = _layout(computers).device(laptop.syncer.device)
    shutil.rmtree(own)
    own.symlink_to(home / "thesis", target_is_directory=True)

    sent, _received = _arrives(laptop, desktop, "I moved to Hangzhou")
    assert _tree(home) == before
    assert own.is_dir() and not own.is_symlink()
    # what it wrote went into its own folder (a snapshot: its earlier files went with the
    # link, and a computer answers its own files gone with a fresh snapshot)
    assert list(own.glob("c-*.dmc")) or list(own.glob("s-*.dms"))
    assert _said(sent, "own folder", "symbolic link"), sent.refused
    sent, _received = _arrives(laptop, desktop, "I learn the erhu")
    assert not _said(sent, "own folder")  # said once
    report.add("sync_attacks")


def test_a_link_as_the_sync_folder_or_its_keys_folder_is_refused(
    computers: Computers, tmp_path: Path
) -> None:
    laptop, desktop = _pair(computers)
    home = _outside(tmp_path)
    layout = _layout(computers)
    for moved in (layout.root, layout.keys):
        elsewhere = home / f"moved-{moved.name}"
        moved.rename(elsewhere)
        moved.symlink_to(elsewhere, target_is_directory=True)
        before = _tree(home)
        laptop.service.memories.add(NewMemory(f"a memory while {moved.name} is a link"))
        for c in (laptop, desktop):
            with pytest.raises(SyncError) as caught:
                try:
                    c.sync()
                finally:
                    assert _tree(home) == before  # nothing written (or removed) through it
            sentence = str(caught.value)
            assert "symbolic link" in sentence and "put the real folder" in sentence
            assert caught.value.reason == "sync_folder_link"
        assert _tree(home) == before  # nothing written (or removed) through it
        # the real folder put back: the honest computers go on
        moved.unlink()
        elsewhere.rename(moved)
        laptop.sync()
        desktop.sync()
        assert f"a memory while {moved.name} is a link" in desktop.texts()
    report.add("sync_attacks", 2)


def test_a_change_file_that_links_outside_is_never_read(
    computers: Computers, tmp_path: Path, walk: str
) -> None:
    """Here the link points to a real change file of the laptop's, moved outside: a
    pass that followed links would apply it."""
    laptop, desktop = _pair(computers)
    home = _outside(tmp_path)
    laptop.service.memories.add(NewMemory("I sing in a choir", kind="fact"))
    laptop.sync()
    newest = sorted(_layout(computers).device(laptop.syncer.device).glob("c-*.dmc"))[-1]
    outside = home / "c.dmc"
    newest.rename(outside)
    newest.symlink_to(outside)
    before = _tree(home)

    received, _sent = _arrives(desktop, laptop, "I moved to Hangzhou")  # the other way
    assert "I sing in a choir" not in desktop.texts()  # what the link points to: not read
    assert _tree(home) == before
    assert _said(received, newest.name, "symbolic link"), received.refused
    assert desktop.sync().refused == []  # said once
    # the laptop's snapshot carries it past the link
    laptop.sync(compact=True)
    desktop.sync()
    assert "I sing in a choir" in desktop.texts()
    assert _tree(home) == before
    report.add("sync_attacks")


# -- FIFOs, devices, sockets ------------------------------------------------------------


def test_a_fifo_as_the_next_change_file_does_not_hang_a_pass(
    computers: Computers, tmp_path: Path, walk: str
) -> None:
    laptop, desktop = _pair(computers)
    home = _outside(tmp_path)
    before = _tree(home)
    fifo = _next_change(computers, laptop)
    os.mkfifo(fifo)

    desktop.service.memories.add(NewMemory("I moved to Hangzhou", kind="fact"))
    result = _bounded(desktop.sync, [fifo])
    assert _said(result, fifo.name, "not a regular file"), result.refused
    _bounded(laptop.sync, [fifo])  # it sees the FIFO in its own folder, and takes in
    assert "I moved to Hangzhou" in laptop.texts()
    assert _bounded(desktop.sync, [fifo]).refused == []  # said once
    # the laptop's next change file takes the FIFO's name, and is read
    laptop.service.memories.add(NewMemory("I learn the erhu", kind="fact"))
    _bounded(laptop.sync, [fifo])
    _bounded(desktop.sync, [fifo])
    assert "I learn the erhu" in desktop.texts()
    assert _tree(home) == before
    report.add("sync_attacks")


def test_a_fifo_as_a_status_or_a_key_file_does_not_hang_a_pass(
    computers: Computers, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    laptop, desktop = _pair(computers)
    home = _outside(tmp_path)
    before = _tree(home)
    layout = _layout(computers)
    desktop.service.memories.add(NewMemory("I moved to Hangzhou", kind="fact"))
    desktop.sync()  # its status is written now; then replaced by a FIFO
    status = layout.device(desktop.syncer.device) / files.STATUS
    status.unlink()
    os.mkfifo(status)
    key_fifo = layout.keys / files.key_name(2, crypto.new_id())
    os.mkfifo(key_fifo)
    # a socket too, under a key file's name (bound by a short relative name)
    monkeypatch.chdir(layout.keys)
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(files.key_name(3, crypto.new_id()))
    fifos = [status, key_fifo]

    result = _bounded(laptop.sync, fifos)
    assert "I moved to Hangzhou" in laptop.texts()  # in the same pass
    assert _said(result, files.STATUS, "not a regular file"), result.refused
    assert len(_said(result, "keys/", "not a regular file")) == 2, result.refused
    again = _bounded(laptop.sync, fifos)
    assert again.refused == [] and again.ignored == 3
    sock.close()
    assert _tree(home) == before
    report.add("sync_attacks", 3)


def test_a_link_to_dev_zero_as_the_next_change_file_is_not_read(
    computers: Computers, tmp_path: Path
) -> None:
    laptop, desktop = _pair(computers)
    home = _outside(tmp_path)
    before = _tree(home)
    zero = _next_change(computers, laptop)
    zero.symlink_to("/dev/zero")
    desktop.service.memories.add(NewMemory("I moved to Hangzhou", kind="fact"))
    result = _bounded(desktop.sync, seconds=60)
    assert _said(result, zero.name, "symbolic link"), result.refused
    _bounded(laptop.sync)
    assert "I moved to Hangzhou" in laptop.texts()
    assert _tree(home) == before
    report.add("sync_attacks")


# -- sizes ------------------------------------------------------------------------------


def test_a_sparse_file_of_1_5_gb_is_refused_by_its_size_and_not_read_again(
    computers: Computers, tmp_path: Path
) -> None:
    laptop, desktop = _pair(computers)
    home = _outside(tmp_path)
    before = _tree(home)
    sparse = _next_change(computers, laptop)
    with open(sparse, "wb") as f:
        f.truncate(1500 * 1024 * 1024)  # `truncate -s 1500M`: nothing on disk

    desktop.service.memories.add(NewMemory("I moved to Hangzhou", kind="fact"))
    tracemalloc.start()
    try:
        result = _bounded(desktop.sync)
        _size, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 64 * 1024 * 1024, peak  # not one gigabyte read
    assert _said(result, sparse.name, "1.5 GiB", "more than the 1 GiB"), result.refused
    # a second pass, and another process (another syncer over the profile), leave it
    again = desktop.sync()
    assert again.refused == [] and again.ignored == 1
    fresh = Syncer(desktop.profile).run()
    assert fresh.refused == [] and fresh.ignored == 1
    assert desktop.service.sync.info()["ignored"] == 1
    # the laptop, under whose name it is and which did not write it, removes it (it is
    # numbered beyond the laptop's files), and writes its own next file in its place
    laptop.service.memories.add(NewMemory("I learn the erhu", kind="fact"))
    laptop.sync()
    assert "I moved to Hangzhou" in laptop.texts()  # the desktop's file, read past it
    assert desktop.sync().ignored == 0
    assert "I learn the erhu" in desktop.texts()
    assert _tree(home) == before
    report.add("sync_attacks")


def test_a_file_that_grows_while_it_is_read_is_not_read_past_its_cap(tmp_path: Path) -> None:
    """Between fstat and the read, a file can grow (a writer appending, a file being
    delivered): the read stops one byte past the cap and refuses it."""
    folder = tmp_path / "x"
    folder.mkdir()
    (folder / "f").write_bytes(b"x" * 10)
    with fsafe.Dir.open(folder) as d, d.reader("f", cap=100) as reader:
        with open(folder / "f", "ab") as grow:
            grow.write(b"y" * 1000)
        with pytest.raises(fsafe.Unsafe) as caught:
            reader.rest()
        assert reader.done == 101  # one byte past the cap, not the 1,010 there
    assert "grew past 100 bytes" in str(caught.value)


def test_a_change_file_growing_during_passes_is_refused_and_the_others_sync(
    computers: Computers, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A writer appends to the laptop's next change file while the desktop syncs: each
    pass reads it no further than its cap (here made small, so it outgrows it soon)."""
    laptop, desktop = _pair(computers)
    home = _outside(tmp_path)
    before = _tree(home)
    monkeypatch.setitem(files.CAPS, "changes", 64 * 1024)
    growing = _next_change(computers, laptop)
    layout = _layout(computers)
    n = laptop.syncer.state.int("written") + 1
    key = desktop.syncer.chain().write_key
    header = (
        f'{{"device":"{laptop.syncer.device}","key":"{crypto.key_id(key)}","kind":"changes",'
        f'"seq":{n},"sync":"{layout.sync_id}"}}'
    )
    growing.write_bytes(_sync_file("changes", layout.sync_id, header.encode(), bytes(60_000)))
    stop = threading.Event()

    def grow() -> None:
        with open(growing, "ab") as out:
            while not stop.is_set():
                out.write(b"\0" * 4096)
                out.flush()
                time.sleep(0.002)

    writer = threading.Thread(target=grow, daemon=True)
    writer.start()
    refusals: list[str] = []
    try:
        for _ in range(200):  # until a pass finds it past the cap
            refusals += _said(_bounded(desktop.sync), growing.name)
            if any("64 KiB" in r for r in refusals):
                break
    finally:
        stop.set()
        writer.join()
    assert any("grew past 64 KiB" in r or "more than the 64 KiB" in r for r in refusals), refusals
    _arrives(desktop, laptop, "I moved to Hangzhou")
    assert _tree(home) == before


# -- depth ------------------------------------------------------------------------------


def test_a_key_file_nested_100000_deep_is_refused_once(
    computers: Computers, tmp_path: Path
) -> None:
    laptop, desktop = _pair(computers)
    home = _outside(tmp_path)
    before = _tree(home)
    layout = _layout(computers)
    deep = b"[" * 100_000 + b"]" * 100_000
    stranger = crypto.new_id()
    # nested in the header (past the header's cap), and in the body (parsed before the
    # signature is checked, and within the file's cap)
    in_header = layout.keys / files.key_name(2, stranger)
    in_header.write_bytes(_sync_file("keys", layout.sync_id, header=deep) + bytes(64))
    header = f'{{"generation":3,"kind":"keys","sync":"{layout.sync_id}","writer":"{stranger}"}}'
    in_body = layout.keys / files.key_name(3, stranger)
    in_body.write_bytes(_sync_file("keys", layout.sync_id, header.encode(), deep + bytes(64)))

    sent, received = _arrives(laptop, desktop, "I moved to Hangzhou")
    for result in (sent, received):
        assert _said(result, in_header.name, "header is damaged"), result.refused
        assert _said(result, in_body.name, "nested deeper than 64 levels"), result.refused
    again = desktop.sync()
    assert again.refused == [] and again.ignored == 2
    assert _tree(home) == before
    report.add("sync_attacks", 2)


def test_a_status_nested_deep_is_refused_once(computers: Computers, tmp_path: Path) -> None:
    laptop, desktop = _pair(computers)
    home = _outside(tmp_path)
    before = _tree(home)
    layout = _layout(computers)
    # planted in place of the desktop's status (a computer no one let in is not read at
    # all): the laptop reads it first at every pass
    for depth, why in ((100_000, "header is damaged"), (30_000, "nested deeper than 64")):
        text = f"a memory past a status {depth} deep"
        desktop.service.memories.add(NewMemory(text, kind="fact"))
        desktop.sync()
        planted = layout.device(desktop.syncer.device) / files.STATUS
        deep = b"[" * depth + b"]" * depth
        planted.write_bytes(_sync_file("status", layout.sync_id, header=deep) + bytes(64))
        received = laptop.sync()
        assert text in laptop.texts()
        assert _said(received, files.STATUS, why), received.refused
        again = laptop.sync()
        assert not _said(again, files.STATUS) and again.ignored >= 1
    assert _tree(home) == before
    report.add("sync_attacks", 2)


def test_a_planted_pairing_offer_is_said_once_and_joining_still_works(
    computers: Computers, tmp_path: Path
) -> None:
    """Offers are read by the pass's clean-up and by joining, which say nothing of one
    that does not open: one refused for what it is is said by the pass itself."""
    laptop, desktop = _pair(computers)
    layout = _layout(computers)
    deep = layout.root / f"pair-{crypto.new_id()}.dmp"
    deep.write_bytes(_sync_file("pair", layout.sync_id, b"[" * 30_000 + b"]" * 30_000) + bytes(64))
    sparse = layout.root / f"pair-{crypto.new_id()}.dmp"
    with open(sparse, "wb") as f:
        f.truncate(1 << 30)
    code = laptop.service.sync.offer_pairing()  # reads the offers there: not a word
    result = laptop.sync()
    assert _said(result, deep.name, "nested deeper than 64"), result.refused
    assert _said(result, sparse.name, "1 GiB, more than the 4 MiB"), result.refused
    assert laptop.sync().refused == []
    tablet = computers.new("tablet")
    tablet.service.sync.join(computers.folder, code, "tablet")
    assert "I keep bees" in tablet.texts()


def test_json_depth_is_measured_outside_strings() -> None:
    assert not frame.too_deep(b'{"a": "' + b"[" * 1000 + b'"}')
    assert not frame.too_deep(b'["\\"[[[[", ' + b"[" * 60 + b"]" * 60 + b"]")
    assert frame.too_deep(b"[" * 65 + b"]" * 65)
    assert frame.too_deep(b'{"a":' * 65 + b"1" + b"}" * 65)
    with pytest.raises(files.Refused):
        frame.loads(b"[" * 100_000 + b"]" * 100_000)
    # a string never closed is one string to the end, whatever follows
    assert not frame.too_deep(b'"' + b"[" * 100)
    assert not frame.too_deep(b'"\\' + b"[" * 100 + b"\\")
    # escaped quotes with no closing one: each quote began a scan to the end (40,000 of
    # them took 29 s; a 1 MiB key file, hours). Guarded like a hang.
    planted = b'"' + b'\\"' * 500_000 + b"[" * 65
    assert _bounded(lambda: frame.too_deep(planted), seconds=30) is False


# -- moving -----------------------------------------------------------------------------


def test_moving_copies_no_link_and_reads_nothing_outside(
    computers: Computers, tmp_path: Path, walk: str
) -> None:
    laptop, desktop = _pair(computers)
    home = _outside(tmp_path)
    before = _tree(home)
    layout = _layout(computers)
    own = layout.device(laptop.syncer.device)
    # a private key outside, linked in under a change file's name; a folder outside,
    # linked in under a computer's id
    (own / files.changes_name(99)).symlink_to(home / ".ssh" / "id_ed25519")
    (layout.root / crypto.new_id()).symlink_to(home / "thesis", target_is_directory=True)

    elsewhere = tmp_path / "Syncthing"
    elsewhere.mkdir()
    assert _bounded(lambda: laptop.syncer.move(elsewhere)) == "copied"
    copied = _tree(elsewhere)
    data = b"".join(p.read_bytes() for p in elsewhere.rglob("*") if p.is_file())
    assert PRIVATE not in data and THESIS not in data  # nothing outside came in
    assert _tree(home) == before
    assert not any(v.startswith("-> ") or v.startswith("mode 1") for v in copied.values())
    assert any(k.endswith(".dmk") for k in copied) and any(k.endswith(".dmc") for k in copied)
    assert _tree(home) == before
    # the honest computers go on through the new folder
    assert desktop.syncer.move(elsewhere) == "used"
    _arrives(laptop, desktop, "I sync through Syncthing now")
    assert _tree(home) == before
    report.add("sync_attacks", 3)


def test_a_fifo_does_not_stop_a_move(computers: Computers, tmp_path: Path, walk: str) -> None:
    """A FIFO (or a socket) in the folder made the copy fail: whoever could write the
    folder could keep every computer from moving."""
    laptop, desktop = _pair(computers)
    layout = _layout(computers)
    stranger = layout.device(crypto.new_id())
    stranger.mkdir()
    os.mkfifo(stranger / files.STATUS)
    os.mkfifo(layout.device(laptop.syncer.device) / files.changes_name(99))
    elsewhere = tmp_path / "Syncthing"
    elsewhere.mkdir()
    assert _bounded(lambda: laptop.syncer.move(elsewhere)) == "copied"
    assert not any(v.startswith("mode 1") for v in _tree(elsewhere).values())
    assert desktop.syncer.move(elsewhere) == "used"
    _arrives(desktop, laptop, "I sync through Syncthing now")
    report.add("sync_attacks")


def test_a_link_where_the_folder_would_move_to_is_refused(
    computers: Computers, tmp_path: Path
) -> None:
    laptop, _desktop = _pair(computers)
    home = _outside(tmp_path)
    before = _tree(home)
    layout = _layout(computers)
    elsewhere = tmp_path / "Syncthing"
    elsewhere.mkdir()
    (elsewhere / layout.root.name).symlink_to(home / "thesis", target_is_directory=True)
    with pytest.raises(SyncError) as caught:
        laptop.syncer.move(elsewhere)
    assert "symbolic link" in str(caught.value)
    assert laptop.service.sync.info()["folder"] == str(computers.folder.resolve())
    assert _tree(home) == before


# -- the primitives ---------------------------------------------------------------------


def test_removing_a_tree_unlinks_links_and_never_follows_them(tmp_path: Path, walk: str) -> None:
    home = _outside(tmp_path)
    before = _tree(home)
    tree = tmp_path / "desktop-mem-x" / "gone"
    (tree / "inner").mkdir(parents=True)
    (tree / "inner" / "f").write_bytes(b"f")
    (tree / "to-folder").symlink_to(home / "thesis", target_is_directory=True)
    (tree / "inner" / "to-file").symlink_to(home / ".ssh" / "id_ed25519")
    os.mkfifo(tree / "fifo")
    with fsafe.Dir.open(tmp_path, ("desktop-mem-x",)) as d:
        d.remove_tree("gone")
    assert not tree.exists() and _tree(home) == before


def test_a_link_on_the_way_is_never_walked_through(tmp_path: Path, walk: str) -> None:
    home = _outside(tmp_path)
    (tmp_path / "chosen").mkdir()
    (tmp_path / "chosen" / "desktop-mem-x").symlink_to(home, target_is_directory=True)
    for parts, name in (((".ssh",), "id_ed25519"), ((), "thesis")):
        with (
            pytest.raises(fsafe.Unsafe),
            fsafe.Dir.open(tmp_path / "chosen", ("desktop-mem-x", *parts)) as d,
        ):
            d.reader(name, 1 << 20).rest()
    with pytest.raises(OSError) as caught:
        fsafe.Dir.open(tmp_path / "chosen", ("missing",))
    assert caught.value.errno == errno.ENOENT


def test_the_quarantine_is_kept_small_and_says_each_file_once() -> None:
    q = Quarantine()
    q.add("keys/a.dmk", (1, 2, 3, 4, 5), "it is a symbolic link", said=False)
    q.add("x/c-0000000002.dmc", (1, 3, 3, 4, 5), "it is cut short", final=False)
    kept = Quarantine.loads(q.dumps())  # another process: not said yet, so said there
    assert kept.unsaid() == [("keys/a.dmk", "it is a symbolic link")]
    assert kept.unsaid() == [] and kept.ignored == 0
    again = Quarantine.loads(kept.dumps())
    assert again.look("keys/a.dmk", (1, 2, 3, 4, 5)) is not None and again.ignored == 1
    assert again.look("x/c-0000000002.dmc", (1, 3, 3, 4, 5)) is not None and again.ignored == 1
    assert again.look("keys/a.dmk", (1, 2, 3, 4, 6)) is None  # it changed: read again
    assert again.look("keys/a.dmk", (1, 2, 3, 4, 5)) is None  # and forgotten
    for n in range(MAX_ENTRIES + 50):
        again.add(f"keys/{n}", (n, 0, 0, 0, 0), "x" * 10_000)
    assert len(again.dumps()) < MAX_ENTRIES * 400
    assert Quarantine.loads(again.dumps()).look("keys/0", (0, 0, 0, 0, 0)) is None  # oldest out
    assert Quarantine.loads("not json").dumps() == "[]"
