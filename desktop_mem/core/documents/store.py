"""The knowledge tier: the user's documents, stored and searched like everything else.

A document is read (core/documents/text.py), cut into passages along its own structure, and
every passage is embedded before anything is written; then the document, its passages,
their full-text entries and vectors go in one transaction. So a document is either
fully stored or not at all (a kill or a vanished file leave the previous state). When
the embedding model cannot be used (not installed yet, the server down), the passages
are stored without vectors, found by their words until `index_missing` gives them
vectors, as memories and messages are. Everything lives in the encrypted profile; the files themselves are
only read. Removing a document purges every passage, vector, code and full-text entry
(the full-text index is rewritten so no term stays in a leaf page), then the WAL is
checkpointed.

Search is the memories' and messages' design (words and meaning, fused), with the same
relevance rule: a question nothing in the documents is about finds nothing.

What a folder can hold is not trusted: symbolic links are never followed (a link is
listed as not indexed; add the file it points to by itself if it is wanted), nor are
FIFOs, devices or sockets read; every file is its own unit, so one that cannot be read
(a name that is not UTF-8, a broken format, hostile XML) is listed with one sentence
and the rest of the folder goes in. A document the user removes from a watched folder
stays out of it until the user adds that file again; a folder can be unwatched.
"""

from __future__ import annotations

import builtins
import dataclasses
import hashlib
import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from desktop_mem.core import textproc
from desktop_mem.core.db.database import id_chunks
from desktop_mem.core.db.vectors import DOCUMENTS, VectorIndex
from desktop_mem.core.documents.files import kind_of, read_file, shown_name, storable_name
from desktop_mem.core.documents.folders import WatchedFolders
from desktop_mem.core.documents.records import (
    AddReport,
    Document,
    Elsewhere,
    Folder,
    PassageHit,
)
from desktop_mem.core.documents.text import chunk, extract
from desktop_mem.core.errors import DesktopMemError, InvalidInput, ModelServerError, NotFound
from desktop_mem.core.events import Events
from desktop_mem.core.memory.records import now_iso
from desktop_mem.core.memory.spaces import EVERY, SHARED, Scope, check_space
from desktop_mem.core.models.embed import Embedder
from desktop_mem.core.search.chance import Reference
from desktop_mem.core.search.pipeline import search_tier
from desktop_mem.core.search.relevance import PASSAGE_TIER, WEAK, RelevanceRule
from desktop_mem.core.search.text_tier import TextTier

if TYPE_CHECKING:
    from desktop_mem.core.db.connection import Connection
    from desktop_mem.core.db.database import Database

log = logging.getLogger(__name__)
MAX_QUERY_CHARS = 2_000


class DocumentStore(WatchedFolders, TextTier):
    def __init__(
        self,
        db: Database,
        embedder: Embedder | None = None,
        reference: Reference | None = None,
        rule: RelevanceRule | None = None,
        *,
        events: Events,
    ) -> None:
        self.db = db
        self.embedder = embedder
        self.index = VectorIndex(db, DOCUMENTS)
        self.reference = reference or Reference(db)
        self.rule = rule or RelevanceRule()
        self.events = events  # each committed change is announced

    # -- adding -------------------------------------------------------------------------

    def add(
        self,
        target: Path,
        progress: Callable[[int, int], None] | None = None,
        should_stop: Callable[[], bool] | None = None,
        space: int | None = None,
    ) -> AddReport:
        """Add a file, or every readable file of a folder (which is then watched: see
        sync), to a space (None: the shared space; a file of a watched folder is in the
        folder's). A file already indexed and unchanged is skipped; a changed one
        replaced, in the space it was in."""
        target = Path(target).expanduser().resolve()  # what the user named, links and all
        report = AddReport()
        if not storable_name(target):
            raise InvalidInput(
                f"The name of {shown_name(target)} is not valid UTF-8, so it cannot be added: "
                "rename it and try again."
            )
        if target.is_dir():
            # a folder inside one watched already is read as part of it, in its space
            within = next(
                (f for f in self._folder_paths() if f != target and target.is_relative_to(f)),
                None,
            )
            holder = str(within or target)
            with self.db.transaction() as conn:
                if within is None:
                    conn.execute(
                        "INSERT OR IGNORE INTO doc_folders(path, added_at, space_id) "
                        "VALUES (?, ?, ?)",
                        (holder, now_iso(), space),
                    )
                (kept_in,) = conn.execute(
                    "SELECT space_id FROM doc_folders WHERE path = ?", (holder,)
                ).fetchone()
            if kept_in != space:  # watched before, in another space: it stays there
                report.stays(Elsewhere(holder, kept_in, folder=holder))
            try:
                files = self._files_in(target, report)
            except OSError as exc:
                self.events.documents("changed")  # the folder is watched already
                raise InvalidInput(
                    f"The folder {textproc.escape_controls(str(target))} could not be read "
                    f"({exc.strerror or exc}): check it and try again."
                ) from None
            folder: str | None = holder
        elif target.exists():
            with self.db.transaction() as conn:  # added by name: back in, for good
                conn.execute("DELETE FROM doc_removed WHERE path = ?", (str(target),))
            files = [target]
            folder = next((str(f) for f in self._folder_paths() if target.is_relative_to(f)), None)
        else:
            raise InvalidInput(f"There is no file or folder {shown_name(target)}: check the path.")
        left_out = self._left_out()
        try:
            for n, path in enumerate(files, 1):
                if should_stop is not None and should_stop():
                    break
                if folder is not None and str(path) in left_out and path != target:
                    report.left_out.append(str(path))
                elif not self._add_file(path, folder, report, path == target, space):
                    break
                if progress:
                    progress(n, len(files))
        finally:  # what was added before a failure too
            self.events.documents("changed")
        self._stays(files, files != [target], space, report)
        return report

    def _stays(
        self, files: builtins.list[Path], of_folder: bool, space: int | None, report: AddReport
    ) -> None:
        """What was named to go to `space` and is in another stays where it is, and the
        report says so: a file added there before, on its own or as one of a watched
        folder there. Of a folder's files, those of a watched folder are said as that
        folder, once."""
        for start in range(0, len(files), 500):
            part = [str(p) for p in files[start : start + 500]]
            rows = self.db.query(
                "SELECT d.path, d.id, d.space_id, d.folder FROM documents d "
                f"WHERE d.path IN ({','.join('?' * len(part))}) AND d.space_id IS NOT ?",
                (*part, space),
            )
            for path, doc_id, kept_in, folder in rows:
                if of_folder and folder is not None:
                    report.stays(Elsewhere(folder, kept_in, folder=folder))
                else:
                    report.stays(Elsewhere(path, kept_in, int(doc_id), folder))

    def _add_file(
        self,
        path: Path,
        folder: str | None,
        report: AddReport,
        single: bool = False,
        space: int | None = None,
    ) -> bool:
        """Index one file, on its own: whatever goes wrong with it is one sentence in the
        report and the next file is read. A model server that stops answering stops the
        whole add (raised), and so does a disk that is full or cannot be written (in the
        report, False): every later file would fail the same way, and "not added" for
        each would hide it. `single`: the user named this file itself."""
        try:
            self._add_one(path, folder, report, single, space)
        except ModelServerError:
            raise
        except DesktopMemError as exc:
            if exc.reason in ("disk_full", "read_only"):
                report.stopped = exc
                return False
            report.refused.append(f"{shown_name(path)} was not added: {exc}")
        except Exception as exc:  # noqa: BLE001 - a hostile file must not stop the folder
            log.warning("a document could not be read (%s)", type(exc).__name__)
            report.refused.append(
                f"{shown_name(path)} was not added: it could not be read ({type(exc).__name__})."
            )
        return True

    def _add_one(
        self, path: Path, folder: str | None, report: AddReport, single: bool, space: int | None
    ) -> None:
        if not storable_name(path):
            report.refused.append(
                f"{shown_name(path)} was not added: its name is not valid UTF-8 (rename it)."
            )
            return
        try:
            data, info = read_file(path, in_folder=folder is not None and not single)
        except InvalidInput as exc:
            report.refused.append(str(exc))
            return
        digest = hashlib.sha256(data).hexdigest()
        existing = self.db.query(
            "SELECT id, content_hash FROM documents WHERE path = ?", (str(path),)
        )
        if existing and existing[0][1] == digest:
            report.unchanged.append(str(path))
            return
        try:
            sections = extract(path, data)
            passages = chunk(sections)
            if not passages:
                raise InvalidInput(f"{shown_name(path)} was not added: it holds no text.")
        except InvalidInput as exc:
            report.refused.append(str(exc))
            return
        vecs = None
        if report.unindexed:  # the model could not be used for an earlier file of this add
            report.unindexed += len(passages)
        elif self.embedder is not None:
            # every passage embedded before anything is written
            try:
                vecs = self.embedder.embed(
                    [f"{p.heading}\n{p.text}" if p.heading else p.text for p in passages]
                )
            except ModelServerError:
                report.unindexed += len(passages)  # by words until index_missing
        pages = max((s.page or 0 for s in sections), default=0) or None
        stamp = now_iso()
        with self.db.transaction() as conn:
            if existing:
                doc_id = int(existing[0][0])
                self._purge_chunks(conn, doc_id)
                conn.execute(
                    "UPDATE documents SET bytes = ?, mtime = ?, content_hash = ?, pages = ?, "
                    "indexed_at = ? WHERE id = ?",
                    (len(data), info.st_mtime, digest, pages, stamp, doc_id),
                )
            else:
                # in its folder's space when it is in a watched folder
                cur = conn.execute(
                    "INSERT INTO documents(path, title, kind, bytes, mtime, content_hash, pages, "
                    "folder, added_at, indexed_at, space_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, "
                    "?, CASE WHEN ? IS NULL THEN ? "
                    "ELSE (SELECT space_id FROM doc_folders WHERE path = ?) END)",
                    (str(path), path.name, kind_of(path), len(data), info.st_mtime, digest,
                     pages, folder, stamp, stamp, folder, space, folder),
                )  # fmt: skip
                doc_id = int(cur.lastrowid)
            ids = []
            for p in passages:
                cur = conn.execute(
                    "INSERT INTO doc_chunks(document_id, seq, page, heading, text) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (doc_id, p.seq, p.page, p.heading, p.text),
                )
                ids.append(int(cur.lastrowid))
                conn.execute(
                    "INSERT INTO doc_chunks_fts(rowid, content) VALUES (?, ?)",
                    (ids[-1], textproc.fts_document(f"{p.heading}\n{p.text}")),
                )
            if vecs is not None and self.embedder is not None:
                self.index.ensure(conn, self.embedder.model, vecs.shape[1])
                self.index.put(conn, ids, [""] * len(ids), vecs)
        self.index.maybe_rebuild()
        (report.updated if existing else report.added).append(str(path))
        report.passages += len(passages)
        report.pages += pages or 0

    # -- removing -------------------------------------------------------------------------

    def _chunk_ids(self, conn: Connection, doc_id: int) -> builtins.list[int]:
        return [
            r[0] for r in conn.execute("SELECT id FROM doc_chunks WHERE document_id = ?", (doc_id,))
        ]

    def _purge_chunks(self, conn: Connection, doc_id: int) -> int:
        ids = self._chunk_ids(conn, doc_id)
        self.index.remove(conn, ids)
        for cid in ids:
            conn.execute("DELETE FROM doc_chunks_fts WHERE rowid = ?", (cid,))
            conn.execute("DELETE FROM message_documents WHERE chunk_id = ?", (cid,))
        conn.execute("DELETE FROM doc_chunks WHERE document_id = ?", (doc_id,))
        if ids:  # leave no deleted term in an FTS5 leaf page
            conn.execute("INSERT INTO doc_chunks_fts(doc_chunks_fts) VALUES ('optimize')")
        return len(ids)

    def remove(self, doc_id: int, for_good: bool = True) -> int:
        """Remove a document and every trace of its text. Returns its passage count. One
        from a watched folder stays out of it (`for_good`) until the user adds that file
        again; a document whose file is gone is removed without that."""
        doc = self.get(doc_id)
        with self.db.transaction() as conn:
            n = self._purge_chunks(conn, doc_id)
            conn.execute("DELETE FROM documents WHERE id = ?", (doc_id,))
            if for_good and doc.folder is not None:
                conn.execute(
                    "INSERT OR REPLACE INTO doc_removed(path, folder, removed_at) VALUES (?, ?, ?)",
                    (doc.path, doc.folder, now_iso()),
                )
        self.db.checkpoint()
        self.events.documents("removed", [doc_id])
        return n

    # -- reading ----------------------------------------------------------------------------

    def get(self, doc_id: int) -> Document:
        found = [d for d in self.list() if d.id == doc_id]
        if not found:
            raise NotFound(
                f"There is no document {doc_id}: see `desktop-mem docs list`.",
                reason="document_gone",
            )
        return found[0]

    def list(self, scope: Scope = EVERY) -> builtins.list[Document]:
        """The documents (of the scope's spaces: every one by default)."""
        within, params = scope.where("d.space_id")
        return [
            Document(*r)
            for r in self.db.query(
                "SELECT d.id, d.path, d.title, d.kind, d.bytes, d.pages, d.folder, d.added_at, "
                "d.indexed_at, (SELECT count(*) FROM doc_chunks c WHERE c.document_id = d.id), "
                f"d.space_id FROM documents d WHERE {within} ORDER BY d.title, d.id",
                params,
            )
        ]

    def move(self, doc_id: int, space: int | None) -> Document:
        """Move a document to a space (None: the shared space). A document of a watched
        folder moves with its folder (`move_folder`), not alone."""
        doc = self.get(doc_id)
        if doc.folder is not None:
            raise InvalidInput(
                f"{doc.title} is in the watched folder {doc.folder}: move the folder instead.",
                reason="document_in_folder",
            )
        with self.db.transaction() as conn:
            check_space(conn, space)
            conn.execute("UPDATE documents SET space_id = ? WHERE id = ?", (space, doc_id))
        self.events.documents("changed", [doc_id])
        return self.get(doc_id)

    def move_folder(self, folder: str, space: int | None) -> int:
        """Move a watched folder, and every document of it, to a space. How many
        documents moved."""
        with self.db.transaction() as conn:
            check_space(conn, space)
            if not conn.execute("SELECT 1 FROM doc_folders WHERE path = ?", (folder,)).fetchone():
                raise NotFound(f"{folder} is not a watched folder.", reason="folder_unknown")
            conn.execute("UPDATE doc_folders SET space_id = ? WHERE path = ?", (space, folder))
            moved = conn.execute(
                "UPDATE documents SET space_id = ? WHERE folder = ?", (space, folder)
            ).rowcount
        self.events.documents("changed")
        return int(moved)

    def in_space(self, space: int) -> tuple[builtins.list[int], builtins.list[str]]:
        """The documents added on their own, and the watched folders, in a space."""
        docs = [
            int(r[0])
            for r in self.db.query(
                "SELECT id FROM documents WHERE space_id = ? AND folder IS NULL", (space,)
            )
        ]
        folders = [
            str(r[0])
            for r in self.db.query("SELECT path FROM doc_folders WHERE space_id = ?", (space,))
        ]
        return docs, folders

    def passages(self, chunk_ids: Sequence[int]) -> dict[int, PassageHit]:
        out: dict[int, PassageHit] = {}
        for ids, marks in id_chunks(chunk_ids):
            for cid, did, title, path, page, heading, text in self.db.query(
                "SELECT c.id, c.document_id, d.title, d.path, c.page, c.heading, c.text "
                f"FROM doc_chunks c JOIN documents d ON d.id = c.document_id WHERE c.id IN ({marks})",
                ids,
            ):
                out[cid] = PassageHit(cid, did, title, path, page, heading, text, 0.0)
        return out

    def search(
        self,
        query: str,
        k: int = 5,
        relevant_only: bool = True,
        answering: int | None = None,
        scope: Scope = SHARED,
    ) -> builtins.list[PassageHit]:
        """Passages by words and meaning; with `relevant_only` only those the relevance
        rule keeps (`answering`: the conversation the query comes from, as for memory
        search), of the documents in the scope's spaces (the shared space's unless it
        says otherwise)."""
        query = textproc.normalize(query)[:MAX_QUERY_CHARS]
        terms = textproc.query_terms(query)
        if not terms:
            return []
        ranked = search_tier(
            self, PASSAGE_TIER, query, terms, k, relevant_only, None, answering, scope
        )
        found = self.passages([cid for cid, _, _ in ranked.hits])
        return [
            dataclasses.replace(
                found[cid], score=score, relevance=relevance, weak=ranked.strength.get(cid) == WEAK
            )
            for cid, score, relevance in ranked.hits
            if cid in found
        ]

    def used_by(self, message_ids: Sequence[int]) -> dict[int, builtins.list[PassageHit]]:
        """The passages each answer was given, in their order."""
        rows: dict[int, builtins.list[tuple[int, float, bool]]] = {}
        for ids, marks in id_chunks(message_ids):
            for mid, cid, score, weak in self.db.query(
                "SELECT message_id, chunk_id, score, weak FROM message_documents "
                f"WHERE message_id IN ({marks}) ORDER BY message_id, rank",
                ids,
            ):
                rows.setdefault(mid, []).append((cid, score, bool(weak)))
        found = self.passages([c for given in rows.values() for c, _, _ in given])
        return {
            mid: [dataclasses.replace(found[c], score=s, weak=w) for c, s, w in given if c in found]
            for mid, given in rows.items()
        }

    # -- indexing -----------------------------------------------------------------------

    # the texts of the tier (core/search/text_tier.py): each passage under its heading
    TABLE = "doc_chunks"
    TEXTS = (
        "SELECT t.id, CASE WHEN t.heading != '' THEN t.heading || char(10) ELSE '' END || "
        "t.text FROM doc_chunks t WHERE 1"
    )
    VECTORS = "doc_chunk_vectors"
    VECTOR_KEY = "chunk_id"
    EMBED_CHARS = 1_000_000  # a passage is embedded whole (it is at most 1,200 characters)

    def passage_count(self) -> int:
        return int(self.db.query("SELECT count(*) FROM doc_chunks")[0][0])

    def answers_using(self, chunk_id: int) -> builtins.list[int]:
        return [
            r[0]
            for r in self.db.query(
                "SELECT message_id FROM message_documents WHERE chunk_id = ? ORDER BY message_id",
                (chunk_id,),
            )
        ]


__all__ = ["AddReport", "DesktopMemError", "Document", "DocumentStore", "Folder", "PassageHit"]
