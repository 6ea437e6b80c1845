"""A text tier: a table of texts found by meaning and words beside the memories (earlier
messages, document passages), and its vectors: what is not indexed yet, indexing it in
batches, and re-indexing all of it with another embedding model while the old index
keeps serving. The conversation store and the document store are each one (each says
which rows are its texts); searching them is core/search/pipeline.py."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from desktop_mem.core.db.database import id_chunks
from desktop_mem.core.errors import ModelServerError

if TYPE_CHECKING:
    from desktop_mem.core.db.database import Database
    from desktop_mem.core.db.vectors import VectorIndex
    from desktop_mem.core.models.embed import Embedder

Progress = Callable[[int, int], None]


class TextTier:
    """Needs `db`, `index`, `embedder` and the class's SQL: `TEXTS`, a SELECT of (id,
    text) for every row that is indexed (its table aliased `t`, ending in a WHERE
    clause), and `VECTORS` and `VECTOR_KEY`, the table and column of the rows' vectors.
    `EMBED_CHARS`: the start of each text that is embedded; `BATCH`: texts per request."""

    db: Database
    index: VectorIndex
    embedder: Embedder | None
    TABLE: str
    TEXTS: str
    VECTORS: str
    VECTOR_KEY: str
    EMBED_CHARS = 4000
    BATCH = 64

    def _missing_sql(self) -> str:
        return (
            f"{self.TEXTS} AND NOT EXISTS (SELECT 1 FROM {self.VECTORS} v "
            f"WHERE v.{self.VECTOR_KEY} = t.id)"
        )

    def indexable_count(self) -> int:
        """Rows with a text to index: what a re-index embeds."""
        return int(self.db.query(f"SELECT count(*) FROM ({self.TEXTS})")[0][0])

    def unindexed_count(self) -> int:
        """Rows with a text but no vector yet (saved while no embedding model answered)."""
        return int(self.db.query(f"SELECT count(*) FROM ({self._missing_sql()})")[0][0])

    def _missing_rows(self, ids: Sequence[int] | None = None) -> list[tuple[int, str]]:
        """(id, text) of the rows with a text and no vector (of `ids` only, if given:
        read by id, whatever the table's size), by id."""
        sql = self._missing_sql()
        if ids is None:
            return [(int(r[0]), str(r[1])) for r in self.db.query(sql + " ORDER BY t.id")]
        rows = [
            (int(r[0]), str(r[1]))
            for chunk, marks in id_chunks(sorted(set(ids)))
            for r in self.db.query(sql + f" AND t.id IN ({marks})", chunk)
        ]
        return sorted(rows)

    def missing_of(self, ids: Sequence[int]) -> list[int]:
        """Which of these rows have a text and no vector yet."""
        return [i for i, _ in self._missing_rows(ids)] if ids else []

    def index_missing(
        self,
        ids: Sequence[int] | None = None,
        progress: Progress | None = None,
        stop_at_failure: bool = False,
    ) -> int:
        """Embed the rows that have no vector yet (only `ids`, if given), in batches.
        A model-server failure raises, or with `stop_at_failure` leaves the rest for
        later. A row deleted while it was being embedded gets no vector. How many were
        embedded."""
        if self.embedder is None or (ids is not None and not ids):
            return 0
        rows = self._missing_rows(ids)
        done = 0
        for start in range(0, len(rows), self.BATCH):
            chunk = rows[start : start + self.BATCH]
            try:
                vecs = self.embedder.embed([text[: self.EMBED_CHARS] for _, text in chunk])
            except ModelServerError:
                if stop_at_failure:
                    break
                raise
            with self.db.transaction() as conn:
                live = {
                    r[0]
                    for part, marks in id_chunks([i for i, _ in chunk])
                    for r in conn.execute(
                        f"SELECT id FROM {self.TABLE} WHERE id IN ({marks})", part
                    ).fetchall()
                }
                keep = [n for n, (i, _) in enumerate(chunk) if i in live]
                self.index.ensure(conn, self.embedder.model, vecs.shape[1])
                self.index.put(conn, [chunk[n][0] for n in keep], [""] * len(keep), vecs[keep])
            done += len(keep)
            if progress:
                progress(start + len(chunk), len(rows))
        if done:
            self.index.maybe_rebuild()
        return done

    def reembed(self, embedder: Embedder, progress: Progress | None = None) -> int:
        """Index every row anew with `embedder` (another model); the old index serves
        until the switch (VectorIndex.rebuild)."""
        rows = self.db.query(self.TEXTS + " ORDER BY t.id")
        previous = self.embedder

        def switch() -> None:
            self.embedder = embedder
            self.db.on_rollback(lambda: setattr(self, "embedder", previous))

        return self.index.rebuild(
            [(i, text[: self.EMBED_CHARS]) for i, text in rows],
            lambda texts: embedder.embed(texts, fresh=True),
            embedder.model,
            switch,
            progress,
        )
