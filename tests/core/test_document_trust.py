"""What a file can do: a watched folder is a place others may drop things into (a synced
folder, a shared drive). Links are never followed, FIFOs, sockets and devices never
read, every file is its own unit (a bad name, a broken format or hostile XML is one
sentence and the rest goes in), a removed document stays removed, folders can be
listed and unwatched, names are printed with control characters escaped, and a
library's stray warning goes to the log, not the terminal."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from desktop_mem.core.documents.store import DocumentStore
from desktop_mem.core.profile import Profile
from tests import report
from tests.conftest import Run
from tests.core.test_documents import _pdf

SECRET = "root:x:0:0:the secret outside the folder"
W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
HOSTILE_XML = {
    "loop.docx": f'<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "&b;"><!ENTITY b "&a;">]>'
    f"<w:document {W}><w:body><w:p><w:r><w:t>&a;</w:t></w:r></w:p></w:body></w:document>",
    "laughs.docx": '<?xml version="1.0"?><!DOCTYPE l [<!ENTITY l "lol">'
    + "".join(
        f'<!ENTITY l{i} "{("&l" + (str(i - 1) if i > 1 else "") + ";") * 10}">'
        for i in range(1, 9)
    )
    + f"]><w:document {W}><w:body><w:p><w:r><w:t>&l8;</w:t></w:r></w:p></w:body></w:document>",
    "deep.docx": f"<w:document {W}><w:body>" + "<w:p>" * 5000 + "</w:p>" * 5000 + "</w:body></w:document>",
    "external.docx": f'<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
    f"<w:document {W}><w:body><w:p><w:r><w:t>&x;</w:t></w:r></w:p></w:body></w:document>",
}  # fmt: skip


def _docx_with(path: Path, document_xml: str) -> None:
    import docx

    base = path.with_suffix(".base")
    d = docx.Document()
    d.add_paragraph("placeholder")
    d.save(str(base))
    with zipfile.ZipFile(base) as src, zipfile.ZipFile(path, "w") as out:
        for info in src.infolist():
            data = src.read(info.filename)
            out.writestr(
                info.filename, document_xml if info.filename == "word/document.xml" else data
            )
    base.unlink()


def hostile_folder(tmp_path: Path) -> tuple[Path, list[str]]:
    """A folder holding one good document and every kind of hostile entry; the names of
    those that must be refused."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text(SECRET, "utf-8")
    folder = tmp_path / "watched"
    folder.mkdir()
    (folder / "good.md").write_text("# Bees\n\nThe bees live on the roof garden.\n", "utf-8")
    refused = []
    os.symlink(outside / "secret.txt", folder / "shadow.txt")
    os.symlink("/etc/passwd", folder / "passwd.md")
    os.symlink(outside, folder / "linked-folder")
    (folder / "inner").mkdir()
    os.symlink("../good.md", folder / "inner" / "inside-link.md")  # even inside: not followed
    refused += ["shadow.txt", "passwd.md", "inside-link.md"]
    os.mkfifo(folder / "pipe.txt")  # reading it would wait for a writer for ever
    refused.append("pipe.txt")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(str(folder / "sock.md"))
    sock.close()
    refused.append("sock.md")
    with open(os.fsencode(folder) + b"/bad-\xff-name.md", "wb") as fh:  # not UTF-8
        fh.write(b"# Not UTF-8 name\n\nThe bees again.\n")
    refused.append("bad-\\xff-name.md")
    for name, xml in HOSTILE_XML.items():
        _docx_with(folder / name, xml)
    # an external entity is never resolved, so that file holds no text at all
    refused += ["loop.docx", "laughs.docx", "deep.docx", "external.docx"]
    (folder / "evil\x1b[2J\x07\nname.md").write_text("# Evil\n\nBees, escaped.\n", "utf-8")
    return folder, refused


def test_a_hostile_folder_indexes_the_good_files_and_names_the_rest(
    profile: Profile, tmp_path: Path
) -> None:
    folder, refused = hostile_folder(tmp_path)
    store = DocumentStore(profile.db, profile.embedder)
    result = store.add(folder)
    added = sorted(Path(p).name for p in result.added)
    assert added == ["evil\x1b[2J\x07\nname.md", "good.md"]
    text = " | ".join(result.refused)
    for name in refused:
        assert name in text, name
    assert len(result.refused) == len(refused)
    assert "symbolic link" in text and "not a regular file" in text and "UTF-8" in text
    assert "\x1b" not in text and "\x07" not in text  # names escaped in the sentences
    for line in result.refused:
        assert line.endswith(".") and "\n" not in line and "Traceback" not in line
    passages = " ".join(r[0] for r in profile.db.query("SELECT text FROM doc_chunks"))
    assert "secret outside" not in passages and "root:x:0:0" not in passages
    found = " ".join(h.text for h in store.search("root x secret outside the folder"))
    assert "secret outside" not in found and "root:x" not in found
    again = store.sync()  # every later pass works too
    assert again.added == [] and len(again.refused) == len(refused)
    report.add("doc_attacks", len(refused) + 1)


def test_the_command_line_escapes_names_and_lists_and_unwatches_folders(
    run: Run, tmp_path: Path
) -> None:
    folder, refused = hostile_folder(tmp_path)
    assert run("memory", "list")[0] == 0  # the profile (and its recovery notice) first
    code, out, err = run("docs", "add", str(folder))
    assert code == 0 and "2 added" in out and f"{len(refused)} not added" in out
    assert "\x1b" not in err + out and "\x07" not in err + out and "Traceback" not in err
    assert err.count("\n") == len(refused)  # one line each
    code, out, _ = run("docs", "list")
    assert code == 0 and "evil\\x1b[2J\\x07\\x0aname.md" in out and "\x1b" not in out
    code, out, _ = run("docs", "reindex")
    assert code == 0 and "0 added" in out
    code, out, _ = run("docs", "folders", "--json")
    listed = json.loads(out)
    assert [(f["path"], f["documents"]) for f in listed] == [(str(folder.resolve()), 2)]
    code, out, _ = run("docs", "unwatch", str(folder))
    assert code == 0 and "2 document(s)" in out
    assert json.loads(run("docs", "folders", "--json")[1]) == []
    assert json.loads(run("docs", "list", "--json")[1]) == []
    assert run("docs", "unwatch", str(folder))[0] != 0  # not watched any more: one sentence
    report.add("doc_attacks", 2)


def test_a_document_removed_from_a_watched_folder_stays_removed_until_added_again(
    run: Run, profile: Profile, tmp_path: Path
) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    for name in ("keep.md", "drop.md"):
        (folder / name).write_text(f"# {name}\n\nSomething about {name} and bees.\n", "utf-8")
    store = DocumentStore(profile.db, profile.embedder)
    store.add(folder)
    dropped = next(d for d in store.list() if d.title == "drop.md")
    store.remove(dropped.id)
    assert sorted(d.title for d in store.list()) == ["keep.md"]
    for _ in range(2):
        result = store.sync()
        assert result.added == [] and [Path(p).name for p in result.left_out] == ["drop.md"]
        assert sorted(d.title for d in store.list()) == ["keep.md"]
    assert store.folders()[0].left_out == 1
    store.add(folder)  # the folder again: still left out
    assert sorted(d.title for d in store.list()) == ["keep.md"]
    store.add(folder / "drop.md")  # the file itself: back, and watched again
    assert sorted(d.title for d in store.list()) == ["drop.md", "keep.md"]
    (folder / "drop.md").write_text("# drop.md\n\nChanged: the bees swarmed.\n", "utf-8")
    assert [Path(p).name for p in store.sync().updated] == ["drop.md"]
    # unwatching and keeping: the documents stay as files no longer re-read
    assert store.unwatch(folder, keep_documents=True) == 2
    (folder / "new.md").write_text("# New\n\nA new file nobody watches.\n", "utf-8")
    store.sync()
    assert sorted(d.title for d in store.list()) == ["drop.md", "keep.md"]
    report.add("doc_attacks", 2)


def test_a_librarys_stray_warning_goes_to_the_log_not_the_terminal(
    tmp_path: Path, fake_ollama: Any
) -> None:
    """pypdf writes "EOF marker not found" through the logging module; with no handler
    of its own Python printed it on stderr. It must reach the log file instead."""
    broken = _pdf(tmp_path / "cut.pdf", ["The bees swarm in May."])
    broken.write_bytes(broken.read_bytes().replace(b"%%EOF", b""))
    home = tmp_path / "home"
    proc = subprocess.run(
        [sys.executable, "-m", "desktop_mem", "--home", str(home), "--ollama-host", fake_ollama.url,
         "--embed-model", "fake-embed", "docs", "add", str(broken)],
        capture_output=True, text=True, timeout=120,
        env={**os.environ, "DESKTOP_MEM_PASSPHRASE": "a passphrase for this test",
             "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
    )  # fmt: skip
    assert "EOF marker" not in proc.stderr, proc.stderr
    assert "EOF marker" in (home / "logs" / "desktop-mem.log").read_text("utf-8")
    assert "bees" not in (home / "logs" / "desktop-mem.log").read_text("utf-8")
    report.add("doc_attacks")


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root")
def test_a_device_in_a_folder_is_never_read(profile: Profile, tmp_path: Path) -> None:
    folder = tmp_path / "dev"
    folder.mkdir()
    try:
        os.mknod(folder / "zero.txt", 0o600 | 0o020000, os.makedev(1, 5))  # /dev/zero
    except PermissionError:
        pytest.skip("no device nodes here")
    result = DocumentStore(profile.db, profile.embedder).add(folder)
    assert result.added == [] and "not a regular file" in result.refused[0]
    report.add("doc_attacks")
