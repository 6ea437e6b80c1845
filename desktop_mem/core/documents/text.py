"""Text out of the user's documents, cut into passages along the document's own
structure: Markdown and HTML by their headings, PDF by page, Word by its heading
styles, plain text by paragraphs. Each passage knows its page and heading path.

Libraries: pypdf (pure Python, BSD, maintained; reads text per page without a native
dependency) and python-docx (the standard reader of .docx: paragraphs with their
styles, so headings are headings). HTML needs only the standard library's parser.

Hostile files are refused before they cost anything: too large, not what the name
says (binary under a .md name), an encrypted PDF, a .docx whose compressed parts
would unpack to more than a sane size (a zip bomb), XML the parser will not take
(nested entities, a loop, absurd depth: python-docx parses with resolve_entities=False
and lxml never reaches the network). Each refusal is one sentence. A file is read once,
through a descriptor opened without following a symbolic link and checked to be a
regular file (never a FIFO, a device or a socket), and every reader works on those
bytes, so what is hashed is what is indexed.
"""

from __future__ import annotations

import html.parser
import io
import os
import re
import stat
import zipfile
from dataclasses import dataclass
from pathlib import Path

from desktop_mem.core.errors import InvalidInput
from desktop_mem.core.textproc import escape_controls

MAX_FILE_BYTES = 200 * 1024 * 1024  # larger files are refused before reading
MAX_TEXT_CHARS = 20_000_000  # of extracted text (a few thousand pages)
MAX_UNZIPPED = 300 * 1024 * 1024  # a .docx unpacking to more than this is refused
CHUNK_CHARS = 1_200  # a passage at most (about 300 tokens)
SUFFIXES = {".md": "markdown", ".markdown": "markdown", ".txt": "text", ".text": "text",
            ".pdf": "pdf", ".docx": "docx", ".html": "html", ".htm": "html"}  # fmt: skip


@dataclass(frozen=True)
class Section:
    """Text under one heading path (or on one page)."""

    text: str
    page: int | None = None
    heading: str = ""  # "Chapter 2 › Leave"


@dataclass(frozen=True)
class Passage:
    seq: int
    text: str
    page: int | None
    heading: str


def kind_of(path: Path) -> str | None:
    return SUFFIXES.get(path.suffix.lower())


def shown_name(path: Path) -> str:
    """A file's name as a sentence may show it: control characters and undecodable
    bytes escaped."""
    return escape_controls(path.name)


def _refuse(path: Path, why: str) -> InvalidInput:
    return InvalidInput(f"{shown_name(path)} was not added: {why}.", reason="document_refused")


def read_regular(path: Path) -> bytes:
    """The bytes of a regular file, read through one descriptor opened without following
    a final symbolic link and without blocking (a FIFO would wait for a writer for
    ever); InvalidInput for a link, a FIFO, a device, a socket or a file too large."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    flags |= getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise _refuse(path, "the file is gone (moved or deleted)") from None
    except OSError as exc:
        if path.is_symlink():
            raise _refuse(path, "it is a symbolic link, and links are not followed") from None
        raise _refuse(path, f"it could not be read ({exc.strerror or exc})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _refuse(path, "it is not a regular file (a folder, device, FIFO or socket)")
        if info.st_size > MAX_FILE_BYTES:
            raise _refuse(
                path,
                f"it is {info.st_size / 1e6:,.0f} MB, more than the {MAX_FILE_BYTES / 1e6:.0f} "
                "MB read",
            )
        os.set_blocking(fd, True)
        chunks = []
        total = 0
        while chunk := os.read(fd, 1 << 20):
            total += len(chunk)
            if total > MAX_FILE_BYTES:
                raise _refuse(path, "it grew past the size desktop-mem reads while it was read")
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise _refuse(path, f"it could not be read ({exc.strerror or exc})") from None
    finally:
        os.close(fd)


def extract(path: Path, data: bytes | None = None) -> list[Section]:
    """The document's text in sections, from `data` (its bytes, as read_regular gives
    them) or read here; InvalidInput (one sentence) for what cannot or must not be
    read."""
    kind = kind_of(path)
    if kind is None:
        raise _refuse(path, "only Markdown, text, PDF, Word (.docx) and HTML files are read")
    if data is None:
        data = read_regular(path)
    try:
        if kind == "pdf":
            sections = _pdf(path, data)
        elif kind == "docx":
            sections = _docx(path, data)
        else:
            text = _read_text(path, data)
            sections = (
                _html(text)
                if kind == "html"
                else _markdown(text)
                if kind == "markdown"
                else [Section(text)]
            )
    except FileNotFoundError:
        raise _refuse(path, "the file vanished while it was read") from None
    except OSError as exc:
        raise _refuse(path, f"it could not be read ({exc.strerror or exc})") from None
    if sum(len(s.text) for s in sections) > MAX_TEXT_CHARS:
        raise _refuse(path, "it holds more text than desktop-mem indexes in one document")
    return [s for s in sections if s.text.strip()]


def _read_text(path: Path, raw: bytes) -> str:
    if b"\x00" in raw[:65536]:
        raise _refuse(path, "it is binary data, not text")
    for encoding in ("utf-8-sig", "utf-16"):
        try:
            text = raw.decode(encoding)
        except UnicodeDecodeError:
            continue
        if encoding == "utf-16" and not raw.startswith((b"\xff\xfe", b"\xfe\xff")):
            break
        return text
    try:
        return raw.decode("gb18030")  # common for Chinese text saved on Windows
    except UnicodeDecodeError:
        raise _refuse(path, "it is not text in UTF-8, UTF-16 or GB18030") from None


_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")


def _markdown(text: str) -> list[Section]:
    sections: list[Section] = []
    path: list[str] = []
    body: list[str] = []
    fence = False

    def flush() -> None:
        if "".join(body).strip():
            sections.append(Section("\n".join(body).strip(), None, " › ".join(path)))
        body.clear()

    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fence = not fence
        m = None if fence else _HEADING.match(line)
        if m:
            flush()
            level = len(m.group(1))
            path[:] = [*path[: level - 1], m.group(2).strip()]
            continue
        body.append(line)
    flush()
    return sections


class _HtmlText(html.parser.HTMLParser):
    SKIP = {"script", "style", "noscript", "template"}
    BLOCK = {"p", "div", "li", "br", "tr", "section", "article", "pre", "blockquote"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.sections: list[Section] = []
        self.path: list[str] = []
        self.body: list[str] = []
        self.heading: list[str] | None = None
        self.level = 0
        self.skip = 0

    def flush(self) -> None:
        text = re.sub(r"[ \t]+", " ", "".join(self.body))
        text = re.sub(r"\n\s*\n+", "\n\n", text).strip()
        if text:
            self.sections.append(Section(text, None, " › ".join(self.path)))
        self.body.clear()

    def handle_starttag(self, tag: str, attrs: object) -> None:
        if tag in self.SKIP:
            self.skip += 1
        elif re.fullmatch(r"h[1-6]", tag):
            self.flush()
            self.heading, self.level = [], int(tag[1])
        elif tag in self.BLOCK:
            self.body.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP:
            self.skip = max(0, self.skip - 1)
        elif re.fullmatch(r"h[1-6]", tag) and self.heading is not None:
            title = " ".join("".join(self.heading).split())
            self.path[:] = [*self.path[: self.level - 1], title]
            self.heading = None
        elif tag in self.BLOCK:
            self.body.append("\n")

    def handle_data(self, data: str) -> None:
        if self.skip:
            return
        (self.heading if self.heading is not None else self.body).append(data)


def _html(text: str) -> list[Section]:
    parser = _HtmlText()
    parser.feed(text)
    parser.close()
    parser.flush()
    return parser.sections


def _pdf(path: Path, data: bytes) -> list[Section]:
    import pypdf
    from pypdf.errors import PdfReadError

    try:
        reader = pypdf.PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            raise _refuse(
                path, "the PDF is encrypted (open it, save an unprotected copy, add that)"
            )
        pages = [Section(page.extract_text() or "", n) for n, page in enumerate(reader.pages, 1)]
    except PdfReadError as exc:
        raise _refuse(path, f"it is not a readable PDF ({str(exc)[:80]})") from None
    except (ValueError, KeyError, TypeError, RecursionError, AssertionError) as exc:
        raise _refuse(path, f"the PDF is damaged ({type(exc).__name__})") from None
    if not any(s.text.strip() for s in pages):
        raise _refuse(path, "the PDF has no text layer (a scan: run OCR on it first)")
    return pages


def _docx(path: Path, data: bytes) -> list[Section]:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            total = sum(info.file_size for info in archive.infolist())
            if total > MAX_UNZIPPED:
                raise _refuse(
                    path, "it would unpack to far more than a document holds (a zip bomb?)"
                )
    except zipfile.BadZipFile:
        raise _refuse(path, "it is not a Word document (.docx is a zip archive)") from None
    import docx
    from docx.opc.exceptions import PackageNotFoundError
    from lxml.etree import XMLSyntaxError

    try:
        document = docx.Document(io.BytesIO(data))
    except XMLSyntaxError:
        raise _refuse(
            path, "its XML is not what a Word document holds (nested entities, or damaged)"
        ) from None
    except (PackageNotFoundError, KeyError, ValueError, zipfile.BadZipFile) as exc:
        raise _refuse(path, f"it is not a readable Word document ({type(exc).__name__})") from None
    sections: list[Section] = []
    heading_path: list[str] = []
    body: list[str] = []
    for para in document.paragraphs:
        style = (para.style.name if para.style is not None else "") or ""
        m = re.match(r"Heading (\d)", style)
        if m and para.text.strip():
            if "".join(body).strip():
                sections.append(Section("\n".join(body).strip(), None, " › ".join(heading_path)))
            body = []
            level = int(m.group(1))
            heading_path = [*heading_path[: level - 1], para.text.strip()]
        else:
            body.append(para.text)
    if "".join(body).strip():
        sections.append(Section("\n".join(body).strip(), None, " › ".join(heading_path)))
    return sections


def chunk(sections: list[Section], limit: int = CHUNK_CHARS) -> list[Passage]:
    """Passages of at most `limit` characters along paragraph boundaries, never across a
    section (a heading or a page); a paragraph longer than the limit is cut at sentence
    ends."""
    out: list[Passage] = []
    for s in sections:
        paragraphs = [p.strip() for p in re.split(r"\n\s*\n", s.text) if p.strip()]
        pieces: list[str] = []
        for p in paragraphs:
            pieces += _split_long(" ".join(p.split()) if "\n" in p else p, limit)
        current = ""
        for piece in pieces:
            if current and len(current) + 2 + len(piece) > limit:
                out.append(Passage(len(out), current, s.page, s.heading))
                current = piece
            else:
                current = f"{current}\n\n{piece}" if current else piece
        if current:
            out.append(Passage(len(out), current, s.page, s.heading))
    return out


def _split_long(text: str, limit: int) -> list[str]:
    if len(text) <= limit:
        return [text]
    sentences = re.split(r"(?<=[.!?。！？])\s*", text)
    parts: list[str] = []
    current = ""
    for sentence in sentences:
        while len(sentence) > limit:  # one enormous "sentence": cut it
            parts.append(sentence[:limit])
            sentence = sentence[limit:]
        if current and len(current) + 1 + len(sentence) > limit:
            parts.append(current)
            current = sentence
        else:
            current = f"{current} {sentence}".strip()
    if current:
        parts.append(current)
    return parts
