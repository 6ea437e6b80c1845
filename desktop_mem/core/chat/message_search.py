"""Finding past messages: the recall tier's search (full text and meaning, judged by
the relevance rule) and its vector index (embedded in the background after a turn, and
again for another model). The search part of `ConversationStore`."""

from __future__ import annotations

import builtins
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from desktop_mem.core import textproc
from desktop_mem.core.chat.records import MESSAGE_COLUMNS, Message, MessageHit
from desktop_mem.core.db.database import id_chunks
from desktop_mem.core.memory.spaces import SHARED, Scope
from desktop_mem.core.models.embed import Embedder
from desktop_mem.core.search.pipeline import search_tier
from desktop_mem.core.search.relevance import MESSAGE_TIER, WEAK
from desktop_mem.core.search.text_tier import TextTier
from desktop_mem.core.search.words import document_frequencies, retrieval_terms

if TYPE_CHECKING:
    from desktop_mem.core.db.database import Database

MAX_QUERY_CHARS = 2_000  # as for memory search
KEYWORD_CUTOFF_MIN = 2_000  # messages before frequent words stop being retrieved by
KEYWORD_CUTOFF_SHARE = 0.10
KEYWORD_CUTOFF_ROWS = 5_000
EMBED_CHARS = 4000
INDEX_BATCH = 128  # messages per embedding call when indexing in the background


class MessageSearch(TextTier):
    """Needs `db`, `embedder`, `index` (the messages' VectorIndex), `reference`, `rule`
    and `message(id)` of the store it is part of."""

    db: Database
    embedder: Embedder | None
    index: Any

    def message(self, message_id: int) -> Message:
        raise NotImplementedError

    def search(
        self,
        query: str,
        k: int = 10,
        *,
        relevant_only: bool = True,
        exclude_conversation: int | None = None,
        details: bool = True,
        scope: Scope = SHARED,
    ) -> tuple[builtins.list[MessageHit], builtins.list[str]]:
        """Messages of every conversation (but `exclude_conversation`), by full text and
        by meaning, fused like memory search; with `relevant_only` only those that pass
        the relevance rule (core/search/relevance.py). Returns the hits and any warnings.
        `details` False: the messages come without the memories and messages their
        answers used (one query for all, as the chat's read path wants them). `scope`:
        the spaces whose conversations are searched (core/memory/spaces.py): the shared
        space's unless it says otherwise."""
        query = textproc.normalize(query)[:MAX_QUERY_CHARS]
        warnings: list[str] = []
        terms = textproc.query_terms(query)
        if not terms:  # nothing to search for (punctuation only)
            return [], warnings
        total = self.index.count()
        if total >= KEYWORD_CUTOFF_MIN:
            # As for memories, words in more than a tenth of a large history are not
            # retrieved by (nor counted as matched words below); nor, in a lifetime of
            # messages, words in more than KEYWORD_CUTOFF_ROWS of them: scoring every
            # match costs time in proportion, and such a word says little.
            limit = min(int(total * KEYWORD_CUTOFF_SHARE), KEYWORD_CUTOFF_ROWS)
            df = document_frequencies(self.db, "messages_fts", terms, limit)
            terms = retrieval_terms(terms, total, df, limit / total)
        leave_out = (
            (lambda ids: self._in_conversation(ids, exclude_conversation))
            if exclude_conversation is not None
            else None
        )
        ranked = search_tier(
            self, MESSAGE_TIER, query, terms, k, relevant_only, leave_out, exclude_conversation,
            scope,
        )  # fmt: skip
        warnings += ranked.warnings
        if not ranked.hits:
            return [], warnings
        titles = dict(self.db.query("SELECT id, title FROM conversations"))
        plain = {} if details else self._plain_messages([mid for mid, _, _ in ranked.hits])
        hits = []
        for mid, score, relevance in ranked.hits:
            msg = self.message(mid) if details else plain.get(mid)
            if msg is None:  # deleted since it was ranked
                continue
            found_by = (("keyword", ranked.keyword), ("vector", ranked.semantic))
            signals = [name for name, d in found_by if mid in d]
            hits.append(
                MessageHit(
                    msg,
                    titles.get(msg.conversation_id, ""),
                    score,
                    signals,
                    relevance,
                    ranked.strength.get(mid) == WEAK,
                )  # fmt: skip
            )
        return hits, warnings

    def _plain_messages(self, ids: Sequence[int]) -> dict[int, Message]:
        found: dict[int, Message] = {}
        for chunk, marks in id_chunks(ids):
            sql = f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE id IN ({marks})"
            found.update((r[0], Message(*r)) for r in self.db.query(sql, chunk))
        return found

    def _in_conversation(self, ids: Sequence[int], conversation_id: int) -> set[int]:
        if not ids:
            return set()
        marks = ",".join("?" * len(ids))
        return {
            r[0]
            for r in self.db.query(
                f"SELECT id FROM messages WHERE conversation_id = ? AND id IN ({marks})",
                (conversation_id, *ids),
            )
        }

    # the texts of the tier (core/search/text_tier.py): every message with text, but
    # those kept to read and left out of every prompt
    TABLE = "messages"
    TEXTS = "SELECT t.id, t.content FROM messages t WHERE t.content != '' AND t.forgotten = 0"
    VECTORS = "message_vectors"
    VECTOR_KEY = "message_id"
    EMBED_CHARS = EMBED_CHARS
    BATCH = INDEX_BATCH

    def index_vectors(
        self,
        message_ids: Sequence[int] | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> int:
        """Embed messages that have no vector yet (run in the background after a turn;
        None: every such message), in batches. Returns how many were embedded; a
        model-server failure leaves the rest for later."""
        return self.index_missing(message_ids, progress, stop_at_failure=True)
