"""What a file can do: a watched folder is a place others may drop things into (a synced
folder, a shared drive). Links are never followed, FIFOs, sockets and devices never
read, every file is its own unit (a bad name, a broken format or hostile XML is one
sentence and the rest goes in), a removed document stays removed, folders can be
listed and unwatched, names are printed with control characters escaped, and a
library's stray warning goes to the log, not the terminal."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

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
    # a link to a folder is said too (issue 45: it was skipped without a word)
    refused += ["shadow.txt", "passwd.md", "inside-link.md", "linked-folder"]
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
    store = profile.documents
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
    store = profile.documents
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
    result = profile.documents.add(folder)
    assert result.added == [] and "not a regular file" in result.refused[0]
    report.add("doc_attacks")


# -- issue 45: what a folder can still do ---------------------------------------------------


def _outside_and_watched(tmp_path: Path) -> tuple[Path, Path]:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "notes.md").write_text(f"# Notes\n\n{SECRET}\n", "utf-8")
    folder = tmp_path / "watched"
    (folder / "sub").mkdir(parents=True)
    (folder / "a.md").write_text("# Bees\n\nThe bees live on the roof garden.\n", "utf-8")
    (folder / "sub" / "notes.md").write_text("# Notes\n\nThe hive is painted blue.\n", "utf-8")
    return outside, folder


def _indexed(profile: Profile) -> str:
    return " ".join(r[0] for r in profile.db.query("SELECT text FROM doc_chunks"))


def test_a_folder_swapped_for_a_link_while_it_is_read_leads_nowhere(
    profile: Profile, tmp_path: Path
) -> None:
    """The scan lists sub/notes.md; before it is read, `sub` becomes a link to a folder
    outside. O_NOFOLLOW guarded only the last part of the path, so the file outside was
    indexed. The swap is made at the add's own progress report after the first file."""
    outside, folder = _outside_and_watched(tmp_path)
    store = profile.documents

    def swap(done: int, total: int) -> None:
        if done == 1:
            os.rename(folder / "sub", tmp_path / "sub-moved")
            os.symlink(outside, folder / "sub")

    result = store.add(folder, progress=swap)
    assert [Path(p).name for p in result.added] == ["a.md"]
    assert "root:x:0:0" not in _indexed(profile)
    assert any("symbolic link" in r and "notes.md" in r for r in result.refused), result.refused
    report.add("doc_attacks")


def test_a_watched_folder_replaced_by_a_link_is_not_followed_by_reindex(
    profile: Profile, tmp_path: Path
) -> None:
    outside, folder = _outside_and_watched(tmp_path)
    store = profile.documents
    assert len(store.add(folder).added) == 2
    os.rename(folder, tmp_path / "watched-moved")
    os.symlink(outside, folder)
    result = store.sync()
    assert result.added == [] and result.removed == []
    assert "root:x:0:0" not in _indexed(profile)
    assert len(result.unavailable) == 1 and "symbolic link" in result.unavailable[0]
    assert sorted(d.title for d in store.list()) == ["a.md", "notes.md"]  # kept
    report.add("doc_attacks")


def test_a_hard_link_to_a_file_outside_is_not_indexed(profile: Profile, tmp_path: Path) -> None:
    outside, folder = _outside_and_watched(tmp_path)
    os.link(outside / "notes.md", folder / "linked.md")
    store = profile.documents
    result = store.add(folder)
    assert sorted(Path(p).name for p in result.added) == ["a.md", "notes.md"]
    assert any("linked.md" in r and "hard link" in r for r in result.refused)
    assert "root:x:0:0" not in _indexed(profile)
    # named by itself, a file with two names is the user's choice
    assert [Path(p).name for p in store.add(folder / "linked.md").added] == ["linked.md"]
    report.add("doc_attacks")


def test_an_unmounted_folder_keeps_its_documents_and_says_so(
    run: Run, profile: Profile, tmp_path: Path
) -> None:
    """Before, a watched folder on a drive that was not connected lost every document at
    the next re-reading, without a word."""
    _, folder = _outside_and_watched(tmp_path)
    (tmp_path / "single").mkdir()
    lone = tmp_path / "single" / "lone.md"
    lone.write_text("# Lone\n\nA file added by itself, about the bees.\n", "utf-8")
    store = profile.documents
    store.add(folder)
    store.add(lone)
    profile.close()
    os.rename(folder, tmp_path / "unplugged")
    os.rename(tmp_path / "single", tmp_path / "unplugged-single")
    code, out, err = run("docs", "reindex")
    assert code == 0 and "0 removed" in out, out
    assert err.count("is unavailable") == 2 and "documents are kept" in err, err
    listed = json.loads(run("docs", "list", "--json")[1])
    assert sorted(d["title"] for d in listed) == ["a.md", "lone.md", "notes.md"]
    os.rename(tmp_path / "unplugged", folder)  # plugged in again: as before
    os.rename(tmp_path / "unplugged-single", tmp_path / "single")
    code, out, err = run("docs", "reindex")
    assert code == 0 and "unavailable" not in err and "0 removed" in out
    report.add("doc_attacks", 2)


# -- Word files that cost more than they hold -------------------------------------------------


def _docx_paragraphs(path: Path, paragraphs: int, text: str = "a") -> Path:
    """A Word file holding `paragraphs` paragraphs of `text`, written as a stream."""
    body = f"<w:p><w:r><w:t>{text}</w:t></w:r></w:p>".encode()
    base = path.with_suffix(".base")
    import docx

    docx.Document().save(str(base))
    with zipfile.ZipFile(base) as src, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for info in src.infolist():
            if info.filename != "word/document.xml":
                out.writestr(info.filename, src.read(info.filename))
        with out.open("word/document.xml", "w", force_zip64=True) as part:
            part.write(f'<?xml version="1.0"?><w:document {W}><w:body>'.encode())
            for start in range(0, paragraphs, 10_000):
                part.write(body * min(10_000, paragraphs - start))
            part.write(b"</w:body></w:document>")
    base.unlink()
    return path


def test_a_long_word_file_is_read_and_a_costly_one_refused_in_one_sentence(
    profile: Profile, tmp_path: Path
) -> None:
    """20,000 paragraphs took 28 s through python-docx's per-paragraph style lookup; a
    65 KB file declaring 10 MB of tiny paragraphs was still indexing after 500 s; one
    of 760 KB declaring 250 MB reached 4.6 GB of memory. Now Word files are read as a
    stream, and the paragraphs, the unpacked XML and the time are bounded."""
    folder = tmp_path / "word"
    folder.mkdir()
    _docx_paragraphs(folder / "long.docx", 20_000, "Bees make honey in the summer.")
    small = _docx_paragraphs(folder / "many.docx", 300_000)
    assert small.stat().st_size < 100_000
    big = _docx_paragraphs(folder / "huge.docx", 1, "b" * (70 * 1024 * 1024))
    assert big.stat().st_size < 1_000_000
    result = profile.documents.add(folder)
    assert [Path(p).name for p in result.added] == ["long.docx"]
    refused = " | ".join(result.refused)
    assert "more than 100,000 paragraphs" in refused and "more than 64 MB" in refused, refused
    assert all(r.count(".") >= 1 and "\n" not in r for r in result.refused)
    stored = profile.db.query("SELECT count(*), sum(length(text)) FROM doc_chunks")[0]
    assert stored[1] >= 20_000 * len("Bees make honey in the summer.")
    report.add("doc_attacks", 3)


@pytest.mark.skipif(
    os.geteuid() != 0 or not shutil.which("setpriv"),
    reason="needs root to drop its own right to read anything (setpriv)",
)
def test_an_unreadable_folder_keeps_its_documents_and_says_so(
    tmp_path: Path, fake_ollama: Any
) -> None:
    """The other half of the unmounted drive: a watched folder that cannot be read (its
    mode changed, a network share that refuses) lost its documents at the next reindex."""
    _, folder = _outside_and_watched(tmp_path)
    env = {**os.environ, "DESKTOP_MEM_PASSPHRASE": "a passphrase for this test",
           "PYTHONPATH": str(Path(__file__).resolve().parents[2])}  # fmt: skip
    base = [sys.executable, "-m", "desktop_mem", "--home", str(tmp_path / "home"),
            "--ollama-host", fake_ollama.url, "--embed-model", "fake-embed"]  # fmt: skip
    added = subprocess.run([*base, "docs", "add", str(folder)], env=env, capture_output=True)
    assert added.returncode == 0, added.stderr
    os.chmod(folder, 0)
    try:
        as_user = ["setpriv", "--inh-caps=-all", "--bounding-set=-all", *base]
        done = subprocess.run([*as_user, "docs", "reindex"], env=env, capture_output=True,
                              text=True)  # fmt: skip
    finally:
        os.chmod(folder, 0o755)
    assert done.returncode == 0 and "0 removed" in done.stdout, done
    assert "is unavailable" in done.stderr and "cannot be read" in done.stderr, done.stderr
    listed = subprocess.run([*base, "docs", "list", "--json"], env=env, capture_output=True)
    assert sorted(d["title"] for d in json.loads(listed.stdout)) == ["a.md", "notes.md"]
    report.add("doc_attacks")
