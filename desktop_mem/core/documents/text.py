"""Text out of the user's documents, cut into passages along the document's own
structure: Markdown and HTML by their headings, PDF by page, Word by its heading
styles, plain text by paragraphs. Each passage knows its page and heading path.

Libraries: pypdf (pure Python, BSD, maintained; reads text per page without a native
dependency) and lxml for .docx, parsed as a stream with bounds on the work (python-docx,
which read it before, looked up every paragraph's style in turn and built the whole tree:
minutes and gigabytes for small hostile files). HTML needs only the standard library's
parser.

Hostile files are refused before they cost anything: too large, not what the name
says (binary under a .md name), an encrypted PDF, a .docx whose compressed parts
would unpack to more than a sane size (a zip bomb), XML the parser will not take
(a DTD, nested entities, a loop, absurd depth: entities are never resolved and lxml never
reaches the network), a Word file past its bounds (unpacked XML, paragraphs, time).
Each refusal is one sentence. A file is read once, safely (core/documents/files.py),
and every reader works on those bytes, so what is hashed is what is indexed.
"""

from __future__ import annotations

import html.parser
import io
import re
import time
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from desktop_mem.core.documents.files import kind_of, read_regular, refuse

MAX_TEXT_CHARS = 20_000_000  # of extracted text (a few thousand pages)
MAX_UNZIPPED = 300 * 1024 * 1024  # a .docx unpacking to more than this is refused
# What one Word file may cost, read as a stream (_docx): its main XML unpacked, its
# paragraphs, and the time (a long book is about 10 MB and 20,000 paragraphs, read in
# about a second); relationships and styles are small parts
DOCX_XML_BYTES = 64 * 1024 * 1024
DOCX_PARAGRAPHS = 100_000
DOCX_SECONDS = 60.0
DOCX_SMALL_PART = 8 * 1024 * 1024
PDF_PAGES = 10_000  # a PDF's pages read at most (and within DOCX_SECONDS)
CHUNK_CHARS = 1_200  # a passage at most (about 300 tokens)


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


def extract(path: Path, data: bytes | None = None) -> list[Section]:
    """The document's text in sections, from `data` (its bytes, as read_regular gives
    them) or read here; InvalidInput (one sentence) for what cannot or must not be
    read."""
    kind = kind_of(path)
    if kind is None:
        raise refuse(path, "only Markdown, text, PDF, Word (.docx) and HTML files are read")
    if data is None:
        data = read_regular(path)
    try:
        if kind == "pdf":
            sections = _pdf(path, data)
        elif kind == "docx":
            sections = _docx(path, data)
        else:
            if len(data) > 4 * MAX_TEXT_CHARS:  # refused before it is decoded (4 bytes a char)
                raise refuse(path, "it holds more text than desktop-mem indexes in one document")
            text = _read_text(path, data)
            sections = (
                _html(text)
                if kind == "html"
                else _markdown(text)
                if kind == "markdown"
                else [Section(text)]
            )
    except FileNotFoundError:
        raise refuse(path, "the file vanished while it was read") from None
    except OSError as exc:
        raise refuse(path, f"it could not be read ({exc.strerror or exc})") from None
    if sum(len(s.text) for s in sections) > MAX_TEXT_CHARS:
        raise refuse(path, "it holds more text than desktop-mem indexes in one document")
    return [s for s in sections if s.text.strip()]


def _read_text(path: Path, raw: bytes) -> str:
    if b"\x00" in raw[:65536]:
        raise refuse(path, "it is binary data, not text")
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
        raise refuse(path, "it is not text in UTF-8, UTF-16 or GB18030") from None


_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")


def _markdown(text: str) -> list[Section]:
    sections: list[Section] = []
    titles: list[str] = []  # every heading, in order (_only_headings)
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
            titles.append(m.group(2).strip())
            continue
        body.append(line)
    flush()
    return sections or _only_headings(titles)


def _only_headings(titles: list[str]) -> list[Section]:
    """A document of headings alone ("# Buy milk and eggs on Friday"): a heading is text,
    so its headings are its passage."""
    titles = [t for t in titles if t.strip()]
    return [Section("\n\n".join(titles))] if titles else []


class _HtmlText(html.parser.HTMLParser):
    SKIP = {"script", "style", "noscript", "template"}
    BLOCK = {"p", "div", "li", "br", "tr", "section", "article", "pre", "blockquote"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.sections: list[Section] = []
        self.path: list[str] = []
        self.body: list[str] = []
        self.heading: list[str] | None = None
        self.titles: list[str] = []  # every heading, in order (_only_headings)
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
            self.titles.append(title)
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
    return parser.sections or _only_headings(parser.titles)


class _NeverRaised(Exception):
    """Stands for an error a library's older version does not have."""


def _pdf(path: Path, data: bytes) -> list[Section]:
    import pypdf
    from pypdf import errors
    from pypdf.errors import PdfReadError

    # pypdf's own bounds on what a stream unpacks to (not in the oldest pypdf allowed)
    limit_reached: type[Exception] = getattr(errors, "LimitReachedError", _NeverRaised)

    try:
        reader = pypdf.PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            raise refuse(path, "the PDF is encrypted (open it, save an unprotected copy, add that)")
        deadline = time.monotonic() + DOCX_SECONDS
        pages = []
        for n, page in enumerate(reader.pages, 1):
            if n > PDF_PAGES or time.monotonic() > deadline:
                raise refuse(
                    path,
                    f"it has more than {PDF_PAGES:,} pages or took more than "
                    f"{DOCX_SECONDS:.0f} seconds to read, past what desktop-mem reads in one PDF",
                )
            pages.append(Section(page.extract_text() or "", n))
    except limit_reached:
        raise refuse(
            path, "a page unpacks to more than pypdf reads (a decompression bomb?)"
        ) from None
    except PdfReadError as exc:
        raise refuse(path, f"it is not a readable PDF ({str(exc)[:80]})") from None
    except (ValueError, KeyError, TypeError, RecursionError, AssertionError) as exc:
        raise refuse(path, f"the PDF is damaged ({type(exc).__name__})") from None
    if not any(s.text.strip() for s in pages):
        raise refuse(path, "the PDF has no text layer (a scan: run OCR on it first)")
    return pages


_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_RELS = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_RUN_TEXT = {_W + "tab": "\t", _W + "ptab": "\t", _W + "br": "\n", _W + "cr": "\n",
             _W + "noBreakHyphen": "-"}  # fmt: skip


class _DocxTooMuch(Exception):
    """A Word document past a bound of the work it may cost (why: one clause)."""


class _Capped(io.RawIOBase):
    """A part of the .docx as it unpacks, refused past `limit` bytes or the deadline."""

    def __init__(self, member: Any, limit: int, deadline: float) -> None:
        self.member, self.limit, self.deadline, self.seen = member, limit, deadline, 0

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        data = self.member.read(min(size, 1 << 20) if size and size > 0 else 1 << 20)
        self.seen += len(data)
        if self.seen > self.limit:
            raise _DocxTooMuch(f"its text unpacks to more than {self.limit // 2**20} MB")
        if time.monotonic() > self.deadline:
            raise _DocxTooMuch(f"reading it took more than {DOCX_SECONDS:.0f} seconds")
        return bytes(data)


def _xml_events(source: Any) -> Any:
    """lxml's streaming parser as hostile XML needs it: no entities resolved, no DTD
    loaded, nothing fetched from the network, libxml2's depth and size limits kept."""
    from lxml import etree

    return etree.iterparse(
        source, events=("start", "end"), resolve_entities=False, load_dtd=False,
        no_network=True, huge_tree=False,
    )  # fmt: skip


def _small_part(archive: zipfile.ZipFile, name: str, deadline: float) -> list[Any]:
    """Every element of a small part (relationships, styles), parsed as a stream; [] when
    the part is missing."""
    try:
        member = archive.open(name)
    except KeyError:
        return []
    found: list[Any] = []
    with member:
        events = _xml_events(_Capped(member, DOCX_SMALL_PART, deadline))
        for event, element in events:
            if event == "start" and not found and _declares_dtd(element):
                raise _DocxTooMuch("its XML declares a DTD, which a Word document never does")
            if event == "end":
                found.append(element)
    return found


def _declares_dtd(element: Any) -> bool:
    return bool(element.getroottree().docinfo.doctype)


def _target(archive: zipfile.ZipFile, rels: str, kind: str, base: str, deadline: float) -> str:
    """The part a relationship of `kind` names (officeDocument, styles), from the part
    `rels`, or '' when it has none."""
    for element in _small_part(archive, rels, deadline):
        if element.tag == _RELS + "Relationship" and str(element.get("Type", "")).endswith(
            "/" + kind
        ):
            target = str(element.get("Target", ""))
            return target.lstrip("/") if target.startswith("/") else base + target
    return ""


def _heading_levels(archive: zipfile.ZipFile, styles: str, deadline: float) -> dict[str, int]:
    """Paragraph style id -> heading level ("heading 2", Word's name for it, is 2)."""
    levels: dict[str, int] = {}
    for element in _small_part(archive, styles, deadline) if styles else []:
        if element.tag != _W + "style":
            continue
        name = element.find(_W + "name")
        label = str(name.get(_W + "val", "")) if name is not None else ""
        m = re.fullmatch(r"heading (\d)", label.strip().lower())
        if m:
            levels[str(element.get(_W + "styleId", ""))] = int(m.group(1))
    return levels


def _paragraphs(member: Any, deadline: float) -> Iterator[tuple[str, str]]:
    """(style id, text) of each paragraph, in order, parsed as a stream: what is read is
    dropped as it goes, so memory stays flat however long the document is. A paragraph
    inside another one (a text box) is its own."""
    events = _xml_events(_Capped(member, DOCX_XML_BYTES, deadline))
    texts: list[list[str]] = []
    styles: list[str] = []
    depth = count = chars = 0
    for event, element in events:
        tag = element.tag
        if event == "start":
            if depth == 0 and _declares_dtd(element):
                raise _DocxTooMuch("its XML declares a DTD, which a Word document never does")
            depth += 1
            if tag == _W + "p":
                texts.append([])
                styles.append("")
            continue
        depth -= 1
        if tag == _W + "t" and texts:
            texts[-1].append(element.text or "")
        elif tag in _RUN_TEXT and texts:
            texts[-1].append(_RUN_TEXT[tag])
        elif tag == _W + "pStyle" and styles:
            styles[-1] = str(element.get(_W + "val", ""))
        elif tag == _W + "p" and texts:
            text = "".join(texts.pop())
            count += 1
            chars += len(text)
            if count > DOCX_PARAGRAPHS:
                raise _DocxTooMuch(f"it holds more than {DOCX_PARAGRAPHS:,} paragraphs")
            if chars > MAX_TEXT_CHARS:
                raise _DocxTooMuch("it holds more text than desktop-mem indexes in one document")
            yield styles.pop(), text
        if depth <= 2 and not texts:  # a whole block of the body is read: let it go
            element.clear()
            parent = element.getparent()
            while parent is not None and element.getprevious() is not None:
                del parent[0]


def _docx(path: Path, data: bytes) -> list[Section]:
    """A Word document's text, with its heading styles as the sections' headings, read as
    a stream with bounds on the work: the unpacked XML, the paragraphs and the time (a
    65 KB file declaring 10 MB unpacked kept python-docx busy for minutes, and a 760 KB
    one reached 4.6 GB of memory)."""
    deadline = time.monotonic() + DOCX_SECONDS
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            infos = archive.infolist()
            if sum(info.file_size for info in infos) > MAX_UNZIPPED:
                raise refuse(
                    path, "it would unpack to far more than a document holds (a zip bomb?)"
                )
            main = _target(archive, "_rels/.rels", "officeDocument", "", deadline)
            main = main or "word/document.xml"
            base = main.rpartition("/")[0] + "/" if "/" in main else ""
            rels = f"{base}_rels/{main.rpartition('/')[2]}.rels"
            styles = _target(archive, rels, "styles", base, deadline)
            levels = _heading_levels(archive, styles, deadline)
            try:
                declared = archive.getinfo(main).file_size
                member = archive.open(main)
            except KeyError:
                raise refuse(path, "it is not a Word document (it has no document part)") from None
            if declared > DOCX_XML_BYTES:  # said before a byte is unpacked
                member.close()
                raise _DocxTooMuch(f"its text unpacks to more than {DOCX_XML_BYTES // 2**20} MB")
            with member:
                return _docx_sections(_paragraphs(member, deadline), levels)
    except _DocxTooMuch as exc:
        raise refuse(path, f"{exc}, past what desktop-mem reads in one Word file") from None
    except zipfile.BadZipFile:
        raise refuse(path, "it is not a Word document (.docx is a zip archive)") from None
    except (KeyError, ValueError, EOFError, NotImplementedError, RuntimeError) as exc:
        raise refuse(path, f"it is not a readable Word document ({type(exc).__name__})") from None
    except Exception as exc:
        from lxml.etree import XMLSyntaxError

        if isinstance(exc, XMLSyntaxError):
            raise refuse(
                path,
                "its XML is not what a Word document holds (nested entities, a text too long, "
                "absurd depth, or damaged)",
            ) from None
        raise


def _docx_sections(paragraphs: Iterator[tuple[str, str]], levels: dict[str, int]) -> list[Section]:
    sections: list[Section] = []
    titles: list[str] = []  # every heading, in order (_only_headings)
    heading_path: list[str] = []
    body: list[str] = []
    for style, text in paragraphs:
        level = levels.get(style) or _style_id_level(style)
        if level and text.strip():
            if "".join(body).strip():
                sections.append(Section("\n".join(body).strip(), None, " › ".join(heading_path)))
            body = []
            heading_path = [*heading_path[: level - 1], text.strip()]
            titles.append(text.strip())
        else:
            body.append(text)
    if "".join(body).strip():
        sections.append(Section("\n".join(body).strip(), None, " › ".join(heading_path)))
    return sections or _only_headings(titles)


def _style_id_level(style: str) -> int:
    """A heading style the styles part does not name ("Heading2"): its level, or 0."""
    m = re.fullmatch(r"[Hh]eading(\d)", style)
    return int(m.group(1)) if m else 0


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
