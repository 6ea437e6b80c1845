"""The relevance rule every tier shares: is a found item about this query at all?

Nearest neighbours always exist, so "the 10 nearest" is not "10 relevant": "hi" has
nearest memories too. A similarity means nothing on its own either; what a cosine of
0.4 says depends on the embedding model and on the query. So each query is measured
against its own chance level: its similarities to a fixed set of everyday reference
sentences (`core/search/reference.py`), embedded once with the user's model and kept in the
encrypted profile. From them, robust statistics (median, and the median absolute
deviation, so that the odd reference sentence that happens to be on the query's
topic does not move them) give the similarity an unrelated text has with this query
and how much that varies. An item is relevant when its similarity stands `z`
deviations above that level. The level is taken per script: a multilingual model
finds any two Chinese sentences closer than a Chinese and an English one, so a
Chinese memory is compared with the Chinese reference sentences and an English one
with the English ones (pooled, the gap between languages would pass for spread).

A model that cannot read a script (all-MiniLM and Chinese) sees its sentences as all
alike, so their spread is narrow and would make any text in that script look
relevant: the reference holds probe questions with the statement that answers each,
and where the model does not tell the answers apart, an item in that script is
measured with at least the query's own spread.

The bar stays in deviations of the chance level for every model, weak or strong: how
far unrelated texts of the same kind wander above chance is much the same across
models (the probes' wrong answers reach 2-2.7 deviations at their 99th percentile with
all-MiniLM and with multilingual-e5-small alike), while a weak model's true matches
stand lower (2.9 deviations for e5's English probes, 5.5 for MiniLM's). A bar scaled to
the matches would let a weak model's near misses through; a weak model finds less.

This works from the first memory (the reference does not depend on the store) to a
million (the reference does not grow with it, and a threshold in deviations does
not drift with the model's similarity scale), for any embedding model. The
threshold grows slowly with the number of candidates searched, as the largest of n
chance similarities does (about sqrt(2 ln n) deviations), so that a larger store
does not let more noise through.

Keywords count as evidence, not as proof: a query and a memory sharing a word is
the main way keyword search finds things, but "what did you do today" and "today I
bought shoes" share one. A keyword match lowers the bar by `keyword_credit`
deviations, scaled by how much of the query's informative words it matched. Words
the profile has never seen (`unknown_penalty`) say the question may be about
something the user never mentioned: they raise the bar of the whole query (some item
must clear the raised bar before any is kept), not of each item, since once one does,
the unknown word was a paraphrase or a new detail of something known. Nor do they
raise it for a memory in another language (when the model reads both): a bilingual
user's English question about what they said in Chinese shares none of its words by
nature, not because the profile never heard of it. Dates do not count as unknown
words (when something was said answers them: an item dated within the day, month or
year the query names counts as containing its date words), and Chinese counts by
character, without its function words (as English stop words). Small talk, close to
the reference's greetings and thanks and a few words long, gets nothing at all.
"""

from __future__ import annotations

import contextlib
import math
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from desktop_mem.core import textproc
from desktop_mem.core.errors import DesktopMemError, ModelServerError
from desktop_mem.core.models.embed import Embedder, content_hash
from desktop_mem.core.search.reference import PROBES, REFERENCE_SENTENCES, SMALL_TALK, TOPICS
from desktop_mem.core.store.vectors import from_blob, to_blob

if TYPE_CHECKING:
    import numpy as np
else:
    from desktop_mem.core.lazy import numpy as np

_MAD_TO_STD = 1.4826  # the MAD of a normal distribution times this is its deviation
# A message is small talk when a small-talk reference sentence is as close to it as a
# relevant item must be (the rule's bar, in deviations of its chance level) and clearly
# closer than every everyday topic: a lone word ("nurse", "日语") can be near a short
# greeting by its shortness.
SMALL_TALK_MARGIN = 2.0
SMALL_TALK_MAX_TERMS = 4  # search terms: a greeting or a thank-you is a few words
# A model reads a script when, for this share of the reference's probe questions in it,
# the nearest of the probe answers is the question's own.
PROBES_TOLD_APART = 0.75


@dataclass(frozen=True)
class RelevanceRule:
    # How many deviations above the query's chance level an item must be, for a search
    # among `base_candidates` items; it grows as the expected maximum of chance draws
    # does for larger collections.
    z: float = 4.0
    base_candidates: int = 1_000
    # Words of the query the profile has never seen (in any memory or message) say it
    # is about something the user never mentioned: the bar rises by this many
    # deviations times their share of the query's words. A store of a few texts has
    # seen few words, so the penalty comes in as the store grows to `known_words_at`.
    unknown_penalty: float = 10.0
    known_words_at: int = 200
    # A keyword match lowers the bar by this many deviations times the share of the
    # query's words the item contains.
    keyword_credit: float = 3.0
    # The floor below which nothing is relevant, even with every word matched.
    z_floor: float = 2.0

    def threshold(self, candidates: int) -> float:
        """The bar in deviations for a search among this many items."""
        n = max(candidates, 2)
        grow = math.sqrt(2 * math.log(max(n, self.base_candidates))) - math.sqrt(
            2 * math.log(self.base_candidates)
        )
        return self.z + grow

    def bar(self, candidates: int, unknown: float, items_in_profile: int) -> float:
        ramp = min(1.0, items_in_profile / self.known_words_at)
        return self.threshold(candidates) + self.unknown_penalty * unknown * ramp

    def passes(self, z: float, bar: float, coverage: float) -> bool:
        return z >= max(self.z_floor, bar - self.keyword_credit * coverage)


@dataclass
class ChanceLevel:
    """A query's similarity to unrelated text: centre and spread, measured against the
    reference sentences in the query's own script, and against each script's sentences
    for items written in it (`z(similarity, script)`)."""

    center: float
    spread: float
    # how near (in deviations) the nearest small-talk reference sentence and the nearest
    # everyday topic are: small talk if the first is near enough and it is short
    talk: float = -math.inf
    topic: float = -math.inf
    by_script: dict[str, tuple[float, float]] = field(default_factory=dict)
    # the scripts the model can read (it tells the reference's probe answers apart)
    readable: frozenset[str] = frozenset(textproc.SCRIPTS)
    script: str = "other"  # the query's

    def is_small_talk(self, terms: list[str], bar: float) -> bool:
        """Small talk gets nothing: a greeting or a thank-you is as close to it as a
        relevant item must be (`bar` deviations), closer than any everyday topic, and
        it is a few words long (a longer message that is close to them has something
        to say)."""
        return (
            self.talk >= bar
            and self.talk - self.topic >= SMALL_TALK_MARGIN
            and len(terms) <= SMALL_TALK_MAX_TERMS
        )

    def z(self, similarity: float, script: str | None = None) -> float:
        """Deviations above chance; `script`: of the item, when it is not the query's.
        In a script the model cannot read, its sentences all look alike to it, and
        their narrow spread would make any text in it look relevant: there the spread
        is at least the query's own."""
        center, spread = self.by_script.get(script or "", (self.center, self.spread))
        if script and script not in self.readable:
            spread = max(spread, self.spread)
        return (similarity - center) / spread


def _median(x: np.ndarray) -> float:
    """The median (np.median would import numpy.ma, 40 ms of a command's start-up)."""
    s = np.sort(np.asarray(x, dtype=np.float64).ravel())
    n = len(s)
    return float(s[n // 2]) if n % 2 else float((s[n // 2 - 1] + s[n // 2]) / 2)


def chance_level(sims: np.ndarray) -> ChanceLevel:
    center = _median(sims)
    mad = _median(np.abs(sims - center))
    spread = max(_MAD_TO_STD * mad, float(np.std(sims)) * 0.5, 1e-4)
    return ChanceLevel(center, spread)


# Which script each everyday reference sentence is written in.
_TOPIC_SCRIPTS = tuple(textproc.script(t) for t in TOPICS)


class Reference:
    """The reference sentences' vectors for each embedding model, cached in the
    profile's `meta` table (so each model embeds them once per profile). One per
    profile, shared by every tier; each asks with the embedder it searches with."""

    def __init__(self, db: Any) -> None:
        self.db = db
        self._vectors: dict[str, np.ndarray] = {}
        self._readable: dict[str, frozenset[str]] = {}
        self._lock = threading.Lock()

    @staticmethod
    def _key(model: str) -> str:
        digest = content_hash("\x1e".join(REFERENCE_SENTENCES))[:12]
        return f"reference:{model}:{digest}"

    def ready(self, embedder: Embedder | None) -> bool:
        """Whether `vectors` has them without asking the model server."""
        if embedder is None or embedder.model in self._vectors:
            return True
        return self.db.meta_get(self._key(embedder.model)) is not None

    def vectors(self, embedder: Embedder | None) -> np.ndarray | None:
        """The reference vectors, or None when they cannot be had (no embedder, the
        model server is down): the caller then has no chance level to compare with."""
        if embedder is None:
            return None
        model = embedder.model
        with self._lock:
            if model in self._vectors:
                return self._vectors[model]
            key = self._key(model)
            stored = self.db.meta_get(key)
            vecs: np.ndarray | None = None
            if stored:
                raw = bytes.fromhex(stored)
                dim = int.from_bytes(raw[:4], "little")
                size = 4 + dim
                count = (len(raw) - 4) // size
                vecs = np.vstack(
                    [from_blob(raw[4 + i * size : 4 + (i + 1) * size]) for i in range(count)]
                )
            else:
                try:
                    vecs = embedder.embed(list(REFERENCE_SENTENCES))
                except ModelServerError:
                    return None
                dim = vecs.shape[1]
                blob = dim.to_bytes(4, "little") + b"".join(to_blob(v) for v in vecs)
                # a read-only or busy profile keeps them in memory for this session
                with contextlib.suppress(DesktopMemError):
                    self.db.meta_set(key, blob.hex())
            norms = np.linalg.norm(vecs, axis=1, keepdims=True)
            norms[norms == 0] = 1.0
            vecs = (vecs / norms).astype(np.float32)
            self._vectors[model] = vecs
            return vecs

    def level(self, qvec: np.ndarray, script: str, embedder: Embedder | None) -> ChanceLevel | None:
        """The query's chance level (`qvec` embedded by `embedder`), or None when there
        is no reference to measure it with: the level of the everyday topics in each
        script, the query's own `script` first (the small-talk sentences only say
        whether the query is like them). A multilingual model finds two unrelated texts
        of one language more alike than two of different languages, so an item is
        compared with the unrelated sentences of its own script: pooled, the gap between
        the languages would count as spread and hide what is relevant."""
        vecs = self.vectors(embedder)
        if vecs is None or embedder is None or vecs.shape[1] != qvec.shape[-1]:
            return None
        level = self._level(vecs @ qvec, script)
        level.readable = self.readable(embedder)
        return level

    @staticmethod
    def _level(sims: np.ndarray, script: str) -> ChanceLevel:
        topics = len(TOPICS)
        by_script = {}
        for name in textproc.SCRIPTS:
            mask = np.array([s == name for s in _TOPIC_SCRIPTS], dtype=bool)
            group = chance_level(sims[:topics][mask])
            by_script[name] = (group.center, group.spread)
        center, spread = by_script.get(script, by_script["other"])
        level = ChanceLevel(center, spread, by_script=by_script, script=script)
        level.talk = level.z(float(sims[topics : topics + len(SMALL_TALK)].max()))
        level.topic = level.z(float(sims[:topics].max()))
        return level

    def readable(self, embedder: Embedder | None) -> frozenset[str]:
        """The scripts the model can read: those in which it tells the probe answers
        apart (each question's nearest answer is its own, for most of them). Computed
        once per model."""
        vecs = self.vectors(embedder)
        if vecs is None or embedder is None:
            return frozenset(textproc.SCRIPTS)
        model = embedder.model
        if model in self._readable:
            return self._readable[model]
        start = len(TOPICS) + len(SMALL_TALK)
        questions = vecs[start : start + len(PROBES)]
        answers = vecs[start + len(PROBES) : start + 2 * len(PROBES)]
        nearest = np.argmax(questions @ answers.T, axis=1)
        told: dict[str, list[bool]] = {}
        for n, (_, answer) in enumerate(PROBES):
            told.setdefault(textproc.script(answer), []).append(bool(nearest[n] == n))
        readable = frozenset(
            name for name, oks in told.items() if sum(oks) >= PROBES_TOLD_APART * len(oks)
        )
        self._readable[model] = readable
        return readable


def term_coverage(db: Any, fts_table: str, terms: list[str], ids: list[int]) -> dict[int, float]:
    """For each row, the share of the query's search terms it contains, as the
    full-text index sees them (stemmed; CJK as bigrams)."""
    if not terms or not ids:
        return {}
    marks = ",".join("?" * len(ids))
    counts: dict[int, int] = {}
    for term in terms:
        for (rowid,) in db.query(
            f"SELECT rowid FROM {fts_table} WHERE {fts_table} MATCH ? AND rowid IN ({marks})",
            (textproc.fts_match([term]), *ids),
        ):
            counts[rowid] = counts.get(rowid, 0) + 1
    return {rowid: c / len(terms) for rowid, c in counts.items()}


def _known(db: Any, term: str) -> bool:
    match = textproc.fts_match([term])
    return bool(
        db.query("SELECT 1 FROM memories_fts WHERE memories_fts MATCH ? LIMIT 1", (match,))
        or db.query("SELECT 1 FROM messages_fts WHERE messages_fts MATCH ? LIMIT 1", (match,))
    )


def unknown_share(db: Any, terms: list[str]) -> float:
    """The share of the query's words that no memory and no message contains. Numbers
    and month and weekday names do not count (a date is answered by when things were
    said). Chinese and Japanese are counted by character: a character is known when a
    known bigram of its run covers it, so the bigrams that straddle two words ("果过"
    in "芒果过敏") count for nothing by themselves. Chinese function words ("我", "的",
    "什么": textproc.CJK_FUNCTION_WORDS) do not count, as English stop words are not
    search terms: every question is made of them."""
    runs = textproc.cjk_runs(terms)
    in_runs = {t for run in runs for t in run}
    words = [t for t in terms if t not in in_runs and not textproc.is_time_word(t)]
    units = len(words)
    unknown = sum(1 for t in words if not _known(db, t))
    for run in runs:
        chars = len(run[0]) + len(run) - 1  # overlapping bigrams, or one lone character
        function = textproc.cjk_function_positions(run[0] + "".join(b[1:] for b in run[1:]))
        covered: set[int] = set()
        for n, bigram in enumerate(run):
            if _known(db, bigram):
                covered.update(range(n, n + len(bigram)))
        units += chars - len(function)
        unknown += chars - len(covered | function)
    return unknown / units if units else 0.0


def profile_items(db: Any) -> int:
    """Memories and (indexed) messages: how much text the profile has seen, from the
    counters the triggers keep (a count(*) would scan the tables)."""
    rows = db.query(
        "SELECT coalesce(sum(n), 0) FROM counters WHERE name IN ('memories', 'message_vectors')"
    )
    return int(rows[0][0] or 0)


def document_frequencies(
    db: Any, fts_table: str, terms: list[str], upto: int, column: str | None = None
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


@dataclass
class Judgement:
    keep: np.ndarray  # per candidate: relevant
    z: dict[int, float]  # deviations above the query's chance level, per id with a vector
    # share of the query's terms a keyword hit contains, for those it decided
    coverage: dict[int, float]
    # per candidate: what the ordinary bar keeps, when the raised bar shut the tier
    held: np.ndarray | None = None


# Where each tier's text is, to tell which script a candidate is written in.
_TEXT_OF = {
    "memories_fts": ("memories", "text"),
    "messages_fts": ("messages", "content"),
    "doc_chunks_fts": ("doc_chunks", "text"),
}


def item_scripts(db: Any, fts_table: str, ids: list[int]) -> dict[int, str]:
    """The script of each row's text (its start is enough)."""
    from desktop_mem.core.store.db import id_chunks

    table, column = _TEXT_OF[fts_table]
    out: dict[int, str] = {}
    for chunk, marks in id_chunks(ids):
        sql = f"SELECT id, substr({column}, 1, 300) FROM {table} WHERE id IN ({marks})"
        out.update((i, textproc.script(t or "")) for i, t in db.query(sql, chunk))
    return out


# The tiers whose items meet the ordinary bar at the gate when written in another
# language than the query's (judge): a bilingual user asks in English about what they
# said in Chinese. Not past messages: they hold greetings too, and without the words a
# greeting in one language finds those of the other ("早上好呀", "Good morning!").
_ACROSS_LANGUAGES = frozenset({"memories_fts", "doc_chunks_fts"})


# When each tier's items were said or became true: a query that names a day, a month
# or a year is answered by items of that period as a text is by the words it contains.
_DATE_OF = {
    "memories_fts": ("memories", "coalesce(valid_from, created_at)"),
    "messages_fts": ("messages", "created_at"),
}


def dated_within(db: Any, fts_table: str, ids: list[int], period: tuple[str, str]) -> set[int]:
    """Which of these rows are dated within [start, end) (ISO dates)."""
    from desktop_mem.core.store.db import id_chunks

    if fts_table not in _DATE_OF:
        return set()
    table, column = _DATE_OF[fts_table]
    out: set[int] = set()
    for chunk, marks in id_chunks(ids):
        sql = f"SELECT id FROM {table} WHERE id IN ({marks}) AND {column} >= ? AND {column} < ?"
        out.update(r[0] for r in db.query(sql, (*chunk, *period)))
    return out


def judge(
    db: Any,
    fts_table: str,
    rule: RelevanceRule,
    level: ChanceLevel | None,
    terms: list[str],
    ids: list[int],
    sims: np.ndarray,
    has_vec: np.ndarray,
    keyword: set[int] | dict[int, float],
    collection: int,
    period: tuple[str, str] | None = None,
) -> Judgement:
    """Apply the rule to one tier's candidates (`sims[n]` is the cosine of `ids[n]`,
    meaningful where `has_vec[n]`). Without a chance level (the model server is down, or
    no embedding model) what the words found is all there is to go on; a candidate
    without a vector yet is judged by its words too.

    Words the profile has never seen are a property of the query: they say it may be
    about something the user never mentioned. So they raise the bar of the question
    "does this tier hold anything about the query at all?" (the gate: some candidate
    must clear the raised bar), not of each item: once one clears it, the unknown
    words were a paraphrase or a new detail of something known, and every candidate
    is judged by the ordinary bar. A memory or a passage in another script than the
    query's (and the model reads both) meets the ordinary bar at the gate too: it
    could not have used the query's words. When none clears it, `held` says what the
    ordinary bar would keep, for a caller that knows from another tier that the query
    is about something the profile knows.

    `period`: the day, month or year the query names (textproc.named_period). An item
    dated within it contains the query's time words ("October", "2023"), as far as
    the keyword credit goes: when it was said is what they ask about."""
    by_words = np.array([i in keyword for i in ids], dtype=bool)
    if level is None:
        return Judgement(by_words, {}, {})
    keep = np.zeros(len(ids), dtype=bool)
    if level.is_small_talk(terms, rule.z):
        return Judgement(keep, {}, {})
    ordinary = rule.threshold(collection)
    gate = rule.bar(collection, unknown_share(db, terms), profile_items(db))
    # The words' share only moves a bar by up to `keyword_credit`: a candidate below
    # `low` fails whatever words it shares, so only those above it (and found by
    # keyword) cost the per-word full-text checks.
    low = max(rule.z_floor, ordinary - rule.keyword_credit)
    scripts = item_scripts(db, fts_table, [i for n, i in enumerate(ids) if has_vec[n]])
    time_share = sum(map(textproc.is_time_word, terms)) / len(terms) if terms else 0.0
    dated = dated_within(db, fts_table, ids, period) if period and time_share else set()
    zs: dict[int, float] = {}
    undecided: list[int] = []
    for n, item in enumerate(ids):
        if not has_vec[n]:
            keep[n] = by_words[n] or item in dated
            continue
        zs[item] = level.z(float(sims[n]), scripts.get(item))
        found = item in keyword or item in dated
        if zs[item] >= low and found and zs[item] < max(rule.z_floor, gate):
            undecided.append(n)
    coverage = term_coverage(db, fts_table, terms, [ids[n] for n in undecided])
    for n in undecided:
        if ids[n] in dated:
            coverage[ids[n]] = min(1.0, coverage.get(ids[n], 0.0) + time_share)
    scored = [(n, zs[ids[n]], coverage.get(ids[n], 0.0)) for n in range(len(ids)) if has_vec[n]]
    ordinary_keep = np.zeros(len(ids), dtype=bool)
    for n, z, c in scored:
        ordinary_keep[n] = rule.passes(z, ordinary, c)
    # An item in another script could not have used the query's words, so they do not
    # count as unknown to it (only where the model reads both: else it cannot match
    # across).
    across = {
        n
        for n, _, _ in scored
        if fts_table in _ACROSS_LANGUAGES
        and (written := scripts.get(ids[n], level.script)) != level.script
        and {written, level.script} <= level.readable
    }
    if any(rule.passes(z, ordinary if n in across else gate, c) for n, z, c in scored):
        return Judgement(keep | ordinary_keep, zs, coverage)
    return Judgement(keep, zs, coverage, ordinary_keep)
