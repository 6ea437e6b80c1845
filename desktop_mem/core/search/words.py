"""What the full-text index says about a query's words, for the relevance rule and for
retrieval: which share of them an item contains, which the profile has never seen, which
only a few items hold, and which are too frequent to retrieve by."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from desktop_mem.core import textproc

if TYPE_CHECKING:
    from desktop_mem.core.db.database import Database

# Rows of a term's matches read whole before asking for the candidates one by one: FTS5
# answers "MATCH ? AND rowid IN (...)" with one lookup per listed row (about 4 ms for
# 100 candidates), and a term's whole list of rows in a fraction of that.
_MATCHES_READ = 5_000


def term_coverage(
    db: Database, fts_table: str, terms: list[str], ids: list[int], column: str | None = None
) -> dict[int, float]:
    """For each row, the share of the query's search terms it contains (in `column`,
    where given), as the full-text index sees them (stemmed; CJK as bigrams)."""
    if not terms or not ids:
        return {}
    wanted = set(ids)
    marks = ",".join("?" * len(ids))
    counts: dict[int, int] = {}
    for term in terms:
        match = textproc.fts_match([term])
        if column:
            match = f"{column} : ({match})"
        rows = db.query(
            f"SELECT rowid FROM {fts_table} WHERE {fts_table} MATCH ? LIMIT ?",
            (match, _MATCHES_READ + 1),
        )
        if len(rows) > _MATCHES_READ:  # a very common word: ask for the candidates only
            rows = db.query(
                f"SELECT rowid FROM {fts_table} WHERE {fts_table} MATCH ? AND rowid IN ({marks})",
                (match, *ids),
            )
        for (rowid,) in rows:
            if rowid in wanted:
                counts[rowid] = counts.get(rowid, 0) + 1
    return {rowid: c / len(terms) for rowid, c in counts.items()}


def _known(
    db: Database, term: str, conversation: int | None, tables: tuple[str, ...] | None = None
) -> bool:
    match = textproc.fts_match([term])
    args: tuple[Any, ...]
    # What the user's documents say is known too: a name a passage holds ("the MOT is
    # due in March") is not a sign that the query is about something never mentioned.
    for table in tables or ("memories_fts", "doc_chunks_fts"):
        if db.query(f"SELECT 1 FROM {table} WHERE {table} MATCH ? LIMIT 1", (match,)):
            return True
    if tables is not None:
        return False
    if conversation is None:
        sql, args = "SELECT 1 FROM messages_fts WHERE messages_fts MATCH ? LIMIT 1", (match,)
    else:
        sql = (
            "SELECT 1 FROM messages_fts WHERE messages_fts MATCH ? AND rowid NOT IN "
            "(SELECT id FROM messages WHERE conversation_id = ?) LIMIT 1"
        )
        args = (match, conversation)
    return bool(db.query(sql, args))


def unknown_share(
    db: Database,
    terms: list[str],
    names: frozenset[str] = frozenset(),
    conversation: int | None = None,
    tables: tuple[str, ...] | None = None,
) -> tuple[float, int]:
    """The share of the query's words that no memory, message or document passage
    contains, and how many of them are `names` (textproc.names). Messages of
    `conversation` (the one being answered, which holds the query itself) do not count
    as seen. Numbers and month and weekday names do not count (a date is answered by
    when things were said).
    Chinese and Japanese are counted by character: a character is known when a known
    bigram of its run covers it, so the bigrams that straddle two words ("果过" in
    "芒果过敏") count for nothing by themselves. Chinese function words ("我", "的",
    "什么": textproc.CJK_FUNCTION_WORDS) do not count, as English stop words are not
    search terms: every question is made of them. With `tables`, a word is known
    when one of those full-text tables holds it, and nothing else counts."""
    runs = textproc.cjk_runs(terms)
    in_runs = {t for run in runs for t in run}
    words = [t for t in terms if t not in in_runs and not textproc.is_time_word(t)]
    units = len(words)
    missing = [t for t in words if not _known(db, t, conversation, tables)]
    unknown = len(missing)
    for run in runs:
        chars = len(run[0]) + len(run) - 1  # overlapping bigrams, or one lone character
        function = textproc.cjk_function_positions(run[0] + "".join(b[1:] for b in run[1:]))
        covered: set[int] = set()
        for n, bigram in enumerate(run):
            if _known(db, bigram, conversation, tables):
                covered.update(range(n, n + len(bigram)))
        units += chars - len(function)
        unknown += chars - len(covered | function)
    return (unknown / units if units else 0.0), sum(t in names for t in missing)


def profile_items(db: Database) -> int:
    """Memories and (indexed) messages: how much text the profile has seen, from the
    counters the triggers keep (a count(*) would scan the tables)."""
    rows = db.query(
        "SELECT coalesce(sum(n), 0) FROM counters WHERE name IN ('memories', 'message_vectors')"
    )
    return int(rows[0][0] or 0)


def document_frequencies(
    db: Database, fts_table: str, terms: list[str], upto: int, column: str | None = None
) -> dict[str, int]:
    """How many rows contain each term, counted up to `upto` (a bounded count: the
    cost stays small for very frequent words)."""
    out = {}
    for term in terms:
        match = (f"{column} : " if column else "") + (textproc.fts_match([term]) or "")
        out[term] = db.query(
            f"SELECT count(*) FROM (SELECT 1 FROM {fts_table} WHERE {fts_table} MATCH ? LIMIT ?)",
            (match, upto + 1),
        )[0][0]
    return out


def retrieval_terms(terms: list[str], total: int, df: dict[str, int], share: float) -> list[str]:
    """The terms worth retrieving by in a large collection: those in at most `share` of
    its rows (Elasticsearch's cutoff_frequency). FTS5 scores every row matching any
    term, so one frequent word costs tens of ms, while its IDF is low. A query made
    only of such words keeps its rarest one."""
    if not df:
        return terms
    kept = [t for t in terms if df.get(t, 0) <= total * share]
    return kept or [min(terms, key=lambda t: df.get(t, 0))]


def rare_holders(
    db: Database, fts_table: str, terms: list[str], most: int, column: str | None = None
) -> dict[int, list[str]]:
    """The rows holding a rare term, with the terms they hold: a term that at most
    `most` rows hold (in `column`, where given). Which terms are worth asking about is
    the caller's choice; a term more rows hold is read only up to `most` + 1 of them."""
    out: dict[int, list[str]] = {}
    for term in terms:
        match = (f"{column} : " if column else "") + (textproc.fts_match([term]) or "")
        rows = db.query(
            f"SELECT rowid FROM {fts_table} WHERE {fts_table} MATCH ? LIMIT ?", (match, most + 1)
        )
        if 0 < len(rows) <= most:
            for (rowid,) in rows:
                out.setdefault(rowid, []).append(term)
    return out
