"""The relevance rule every tier shares: is a found item about this query at all?

Nearest neighbours always exist, so "the 10 nearest" is not "10 relevant": "hi" has
nearest memories too. Each query-item pair is measured in deviations above its own
chance level, from the item's side and the query's (core/search/chance.py): how near the
item comes to questions that are not about it, and how much the query's similarity to
unrelated text varies. The rule then asks two things:

1. Is the query about something the store holds at all (the gate)? Some item must stand
   `z` deviations above chance, a bar that grows slowly with the number of items
   searched, as the largest of n chance draws does (about sqrt(2 ln n)), so that a
   larger store does not let more noise through. And the query must be nearer that item
   than to small talk or a question about the world (the reference's decoys): "hi",
   "thanks!" and "what's the capital of Canada?" get nothing, whatever the store holds,
   while "who's my boss?" is nearer the memory about the manager than "who are you?".
2. Which items (once it is)? Those within `item_margin` deviations of the bar and
   `best_margin` of the best item: a paraphrased question often finds its answer
   second or third, after the item that opened the gate.

Keywords count as evidence, not as proof: a keyword match lowers an item's bars by
`keyword_credit` deviations times the share of the query's words it contains ("what
did you do today" and "today I bought shoes" share one), and words that say nothing of
what the query is about (stop words, a time word, the words of small talk) count for
nothing. An item that holds every word of the query, among them one that says what it
is about, is kept whatever its cosine: a search for "kyoto" or "XR-200" finds what says
it even where the model represents the word poorly. Words the profile has never
seen (`unknown_penalty`) raise the gate, not each item, once the profile has seen
enough text to know most everyday words (`known_words_at`): in a new user's store most
words of a paraphrase are new by nature. Nor do they for an item in another language
than the query's (where the model reads both): a bilingual user's English question
about what they said in Chinese shares none of its words. Dates do not count as unknown
words: an item dated within the day, month or year the query names counts as
containing its date words. A pair in a script the model cannot read is judged by its
words alone: half the query's words, or one rare word, one that says what the query is
about and that at most two of the items hold ("驾照" for "我下个月要考驾照" when all-MiniLM
is asked "驾照考试什么时候"): a word few items say picks them out, and brings no more than
two along. Where the model reads the pair its meaning decides, with the keyword credit.

This works from the first memory (the reference does not depend on the store) to a
million, for any embedding model, and each kept item says how sure the rule is: strong
when it clears the gate by itself, weak when it came in within the margin.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from desktop_mem.core import textproc
from desktop_mem.core.db.vectors import DOCUMENTS, MEMORIES, MESSAGES
from desktop_mem.core.search.chance import ChanceLevel, small_talk_terms
from desktop_mem.core.search.phatic import phatic
from desktop_mem.core.search.words import (
    profile_items,
    rare_holders,
    term_coverage,
    unknown_share,
)

if TYPE_CHECKING:
    import numpy as np

    from desktop_mem.core.db.database import Database
else:
    from desktop_mem.core.lazy import numpy as np

# How sure the rule is of a kept item: it clears the gate by itself, or it came in
# within the margin once another did (or past messages showed the query is about
# something known); NONE: listed by a search for everything, not kept by the rule.
STRONG, WEAK, NONE = "strong", "weak", "none"


@dataclass(frozen=True)
class Tier:
    """What a tier searches: its full-text table, where its text and its dates are,
    and what its items are like. Past messages hold small talk too: a greeting finds
    greetings there, so whether a query is small talk is not judged against them
    (`chatter`), and a greeting in one language would find those of the other without
    the words, so an item in another language does not meet the ordinary bar at the
    gate (`across_languages`) as a memory or a passage does. Memories and messages are
    the user's own life (`of_user`): a question that speaks of its writer is about them,
    however near a question about the world it comes; passages are reference text, where
    such a question is one about the world. A question about a how-to or a reference
    file names its subject, the appliance or the dish, as the file does
    (`names_its_subject`): "how do I clean the dishwasher filter?" is not about notes on
    the heat pump's filter, where a memory is asked about in other words than its own."""

    fts: str
    table: str
    text: str
    date: str | None = None  # the SQL expression of when an item was said or became true
    across_languages: bool = True
    chatter: bool = False
    of_user: bool = True
    names_its_subject: bool = False
    # the full-text column of an item's own text, where a rare word of the query counts
    # (RelevanceRule.rare_items); None: not in this tier
    own_words: str | None = None
    # an item's space key as an SQL expression of its id (`{id}`; core/db/vectors.py's
    # Layout.space_of): what a reader in a space may see; "": items have no space
    space_of: str = ""


MEMORY_TIER = Tier(
    "memories_fts", "memories", "text", "coalesce(valid_from, created_at)", own_words="body",
    space_of=MEMORIES.space_of,
)  # fmt: skip
MESSAGE_TIER = Tier(
    "messages_fts", "messages", "content", "created_at", False, True,
    space_of=MESSAGES.space_of,
)  # fmt: skip
PASSAGE_TIER = Tier(
    "doc_chunks_fts", "doc_chunks", "text", of_user=False, names_its_subject=True,
    space_of=DOCUMENTS.space_of,
)  # fmt: skip


@dataclass(frozen=True)
class RelevanceRule:
    # The gate, in deviations above chance, for a search among `base_candidates` items;
    # it grows by `growth` times the growth of the expected maximum of chance draws.
    z: float = 2.0
    base_candidates: int = 10
    growth: float = 0.75
    # Once the gate is open, an item within `item_margin` deviations of it is kept too,
    # if it is also within `best_margin` of the best item.
    item_margin: float = 2.0
    best_margin: float = 5.0
    # A name in the query the profile has never seen raises the gate by this many
    # deviations; other words never seen, by `unknown_penalty` times their share of
    # the query's words, in full once the profile has seen `known_words_at` memories
    # and messages.
    name_penalty: float = 6.0
    # Among a tier whose items name their subject (document passages), the query's
    # words none of them holds raise the gate by this many deviations times their share.
    unsaid_penalty: float = 2.0
    unknown_penalty: float = 0.0
    known_words_at: int = 200
    # A keyword match lowers an item's bars by this many deviations times the share of
    # the query's words the item contains, never below `z_floor`.
    keyword_credit: float = 3.0
    z_floor: float = 0.0
    # A query this much nearer a decoy (small talk, a question about the world) than to
    # any item is not about the store; nor one `talk_margin` nearer a decoy than to
    # anything the reference says about people's lives, where only its words bring it
    # near an item, or among past messages (Tier.chatter).
    decoy_margin: float = 0.5
    talk_margin: float = 1.5
    # Where the model cannot read a pair, the share of the query's words an item must
    # contain to be kept.
    words_share: float = 0.5
    # A word of the query that says what it is about and that at most `rare_items` (and
    # at most `rare_share`, but always one) of the items searched hold keeps them, where
    # the model cannot read the pair, or where it can too (`rare_readable`).
    rare_items: int = 2
    rare_share: float = 0.1
    rare_readable: bool = False
    # Judge each asking part of a message on its own too (core/search/asking.py): an
    # item relevant to one part is relevant to the message.
    by_parts: bool = True
    # When a message sets a scene besides what it asks ("I'm at the shops. What do I
    # need?"), what the whole message keeps must stand this many deviations above
    # chance for one of its asking parts: the scene's words alone keep nothing (None:
    # the whole message keeps what it keeps).
    part_floor: float | None = 1.0

    def threshold(self, candidates: int) -> float:
        """The gate in deviations for a search among this many items."""
        n = max(candidates, self.base_candidates, 2)
        base = max(self.base_candidates, 2)
        return self.z + self.growth * (math.sqrt(2 * math.log(n)) - math.sqrt(2 * math.log(base)))

    def bar(self, candidates: int, unknown: tuple[float, int], items_in_profile: int) -> float:
        """The gate raised by the query's share of unknown words and its unknown names."""
        ramp = min(1.0, items_in_profile / self.known_words_at)
        words, names = unknown
        return (
            self.threshold(candidates)
            + self.name_penalty * min(names, 1)
            + self.unknown_penalty * words * ramp
        )

    def shown(self, evidence: float, candidates: int) -> float:
        """The relevance a person is shown for a hit among this many items: its evidence
        (deviations above chance, keyword credit included) less what the gate grows by
        with the items searched, so that one bar holds in any store: from `z` (2.0) it
        is a match, below it a weak one. Never below 0 (no nearer than chance), and to
        one decimal, as it is shown: the number seen is the number compared."""
        return round(max(0.0, evidence - (self.threshold(candidates) - self.z)), 1)

    def passes(self, z: float, bar: float, coverage: float) -> bool:
        return z >= max(self.z_floor, bar - self.keyword_credit * coverage)

    def rare_at_most(self, items: int) -> int:
        """How many of `items` may hold a word for it to count as rare."""
        return max(1, min(self.rare_items, int(self.rare_share * items)))


@dataclass
class Asked:
    """What the rule knows of a query: its search terms, its chance level (None
    without a model), the names it writes (textproc.names), the day, month or year it
    names (textproc.named_period), and the conversation being answered, whose messages
    hold the query itself and so do not count as the profile knowing its words."""

    terms: list[str]
    level: ChanceLevel | None
    names: frozenset[str] = frozenset()
    period: tuple[str, str] | None = None
    conversation: int | None = None
    # whether `terms` are all the query's words (a large store retrieves without its
    # most frequent ones: an item holding the rest does not hold every word)
    whole: bool = True
    # whether the query speaks of its writer (I, my, 我): then it is not a question
    # about the world, however near one its meaning comes
    of_self: bool = False

    @classmethod
    def of(
        cls,
        query: str,
        terms: list[str],
        level: ChanceLevel | None,
        conversation: int | None = None,
    ) -> Asked:
        whole = set(terms) >= set(textproc.query_terms(query))
        return cls(
            terms,
            level,
            textproc.names(query),
            textproc.named_period(query),
            conversation,
            whole,
            textproc.speaks_of_self(query),
        )


@dataclass
class Candidates:
    """One tier's candidates: `sims[n]` is the query's cosine with `ids[n]`, measured
    with `vectors[ids[n]]`, meaningful where `has_vec[n]`; `keyword`: those the
    full-text search found."""

    ids: list[int]
    sims: np.ndarray
    has_vec: np.ndarray
    vectors: dict[int, np.ndarray]
    keyword: Collection[int] = ()


@dataclass
class Judgement:
    keep: np.ndarray  # per candidate: relevant
    z: dict[int, float]  # evidence in deviations (keyword credit included), per id judged
    coverage: dict[int, float]  # share of the query's terms an item contains, where counted
    # per candidate: what the gate unraised by unknown words keeps, when they shut it
    held: np.ndarray | None = None
    strength: dict[int, str] = field(default_factory=dict)  # STRONG or WEAK, per kept id
    bar: float = math.nan  # the gate the items were judged by


_TALK_TERMS: tuple[frozenset[str], ...] | None = None
_TALK_WORDS: frozenset[str] = frozenset()


def _talk_terms() -> tuple[frozenset[str], ...]:
    global _TALK_TERMS, _TALK_WORDS
    if _TALK_TERMS is None:
        _TALK_TERMS = small_talk_terms()
        _TALK_WORDS = frozenset().union(*_TALK_TERMS)
    return _TALK_TERMS


def _small_talk_by_words(terms: list[str]) -> bool:
    return bool(terms) and any(set(terms) <= said for said in _talk_terms())


def says_what_about(terms: list[str]) -> bool:
    """Whether some term says what the query is about: not a stop word (a query of
    stop words only searches by them), a time word or a word of small talk."""
    _talk_terms()
    return any(
        t not in textproc.STOPWORDS and t not in _TALK_WORDS and not textproc.is_time_word(t)
        for t in terms
    )


def rare_candidates(terms: list[str]) -> list[str]:
    """The query's terms that can count as rare words: those that say what it is about
    (not stop words, small talk's words or time words), of two letters or more, and of
    Chinese or Japanese the bigrams that touch no function word ("驾照", "柯基"; not
    "我爸", "什么" or "试什"), each a word of its own or part of one."""
    _talk_terms()
    functional: set[str] = set()
    for run in textproc.cjk_runs(terms):
        text = run[0] + "".join(b[1:] for b in run[1:])
        function = textproc.cjk_function_positions(text)
        functional.update(b for n, b in enumerate(run) if {n, n + 1} & function)
    return [
        t
        for t in terms
        if len(t) >= 2
        and t not in functional
        and t not in textproc.STOPWORDS
        and t not in _TALK_WORDS
        and not textproc.is_time_word(t)
    ]


def is_small_talk(message: str) -> bool:
    """Whether a message says nothing of what it is about: only words of small talk,
    stop words and time words, and no day, month or year it asks about ("hi", "thanks,
    that's all", "good night", "你好"). Judged by its words alone, whatever the model: a
    request the model puts near small talk ("can you suggest a snack?") still names what
    it is about. A message of greetings, thanks, agreement or goodbyes only ("take
    care", "I appreciate it": core/search/phatic.py) is small talk too, whatever its
    words."""
    if phatic(message):
        return True
    terms = textproc.query_terms(message)
    return not says_what_about(terms) and textproc.named_period(message) is None


def item_scripts(db: Database, tier: Tier, ids: list[int]) -> dict[int, str]:
    """The script of each row's text (its start is enough)."""
    from desktop_mem.core.db.database import id_chunks

    out: dict[int, str] = {}
    for chunk, marks in id_chunks(ids):
        sql = f"SELECT id, substr({tier.text}, 1, 300) FROM {tier.table} WHERE id IN ({marks})"
        out.update((i, textproc.script(t or "")) for i, t in db.query(sql, chunk))
    return out


def dated_within(db: Database, tier: Tier, ids: list[int], period: tuple[str, str]) -> set[int]:
    """Which of these rows are dated within [start, end) (ISO dates)."""
    from desktop_mem.core.db.database import id_chunks

    if tier.date is None:
        return set()
    out: set[int] = set()
    for chunk, marks in id_chunks(ids):
        sql = (
            f"SELECT id FROM {tier.table} WHERE id IN ({marks}) "
            f"AND {tier.date} >= ? AND {tier.date} < ?"
        )
        out.update(r[0] for r in db.query(sql, (*chunk, *period)))
    return out


def judge(
    db: Database,
    tier: Tier,
    rule: RelevanceRule,
    asked: Asked,
    found: Candidates,
    collection: int,
    held_by: int | None = None,
) -> Judgement:
    """Apply the rule to one tier's candidates among `collection` items searched (a
    space's, when the search is in one); `held_by`: the items the tier holds in all,
    among which a word counts as rare (every space's: that is where its count is
    taken; `collection` when not given). Without a
    chance level (the model server is down, or no embedding model) what the words found
    is all there is to go on; a candidate without a vector yet is judged by its words
    too.

    When the query's unknown words shut the gate, `held` says what the gate without
    them would keep, for a caller that knows from another tier that the query is about
    something the profile knows. An item dated within the period the query names
    contains the query's time words, as far as the keyword credit goes."""
    level, terms, period = asked.level, asked.terms, asked.period
    ids, has_vec = found.ids, found.has_vec
    keyword = set(found.keyword)
    by_words = np.array([i in keyword for i in ids], dtype=bool)
    if level is None:
        return Judgement(by_words, {}, {})
    judged = [n for n in range(len(ids)) if has_vec[n] and ids[n] in found.vectors]
    scripts = item_scripts(db, tier, [ids[n] for n in judged])
    zs = np.full(len(ids), np.nan)
    if judged:
        zs[judged] = level.z(
            found.sims[judged],
            np.vstack([found.vectors[ids[n]] for n in judged]),
            [scripts.get(ids[n], level.script) for n in judged],
        )
    readable = ~np.isnan(zs)
    time_share = sum(map(textproc.is_time_word, terms)) / len(terms) if terms else 0.0
    dated = dated_within(db, tier, ids, period) if period and time_share else set()
    worded = [i for i in ids if i in keyword or i in dated]
    # Words that say nothing of what the query is about (stop words, small talk's) are
    # no evidence: "what can you do?" is in most things anyone says.
    about = says_what_about(terms)
    coverage = term_coverage(db, tier.fts, terms, worded) if about else {}
    # What an item holds in its own words: the turn it answers (kept as its context)
    # may hold the question's words ("What's it about?" after "I finished my first
    # screenplay"); they find it, but do not keep it whatever its meaning.
    # Asked only of the items that hold enough of them to be kept by them (half, with a
    # date's words): most queries' words are in no such item, and nothing more is read.
    enough = min(rule.words_share, 1.0)
    could = [i for i in worded
             if coverage.get(i, 0.0) + (time_share if i in dated else 0.0) >= enough]  # fmt: skip
    own = (
        term_coverage(db, tier.fts, terms, could, tier.own_words)
        if tier.own_words is not None and about
        else coverage
    )
    whole = np.zeros(len(ids), dtype=bool)
    if asked.whole and about:
        whole[[n for n, i in enumerate(ids) if own.get(i, 0.0) >= 1.0]] = True
    for i in dated:
        coverage[i] = min(1.0, coverage.get(i, 0.0) + time_share)
        if own is not coverage:
            own[i] = min(1.0, own.get(i, 0.0) + time_share)
    cover = np.array([coverage.get(i, 0.0) for i in ids])
    own_cover = np.array([own.get(i, 0.0) for i in ids])
    evidence = zs + rule.keyword_credit * cover
    scores = {ids[n]: round(float(evidence[n]), 2) for n in np.flatnonzero(readable)}
    best = float(evidence[readable].max()) if readable.any() else -math.inf
    nearest = float(zs[readable].max()) if readable.any() else -math.inf
    # A query nearer small talk or a question about the world than to any item is not
    # about the store, nor one far nearer them than to what people say about their
    # lives whose words alone bring it near an item ("how's it going?" and "I go
    # climbing"). Among past messages a greeting finds greetings: there the second
    # test stands alone.
    # A question about the user's own life ("is there an antibiotic I should warn
    # doctors about?") can come nearer a question about the world than to the memory
    # that answers it; among the user's memories and messages it is still about the
    # store, and small talk remains its decoy.
    decoy = level.talk if asked.of_self and tier.of_user else level.decoy(terms)
    unlike_life = decoy > level.personal + rule.talk_margin
    nearer_decoy = decoy > best + rule.decoy_margin
    # A query that names nothing it is about (only stop words and small talk's words:
    # "what can you do?", "ok then"), nor a day, month or year it asks about, is small
    # talk by its words, whatever the model makes of it: a model can put it near
    # anything said with "can" or "do".
    if (
        nearer_decoy
        or not (about or period)
        or (unlike_life and (tier.chatter or decoy > nearest + rule.decoy_margin))
        or (not level.reads(None) and _small_talk_by_words(terms))
    ):
        # A single word is a keyword search: what holds it is what it asks for, when
        # it is no nearer a decoy than that item is (a model may put one word near
        # small talk by its vector alone).
        single = len(terms) == 1 and not nearer_decoy
        alone = whole if single else np.zeros(len(ids), dtype=bool)
        strength = {ids[n]: WEAK for n in np.flatnonzero(alone)}
        return Judgement(alone, scores, coverage, strength=strength)
    ordinary = rule.threshold(collection)
    unknown = unknown_share(db, terms, asked.names, asked.conversation)
    gate = rule.bar(collection, unknown, profile_items(db))
    held_in = collection if held_by is None else held_by
    rare = _rare(db, tier, rule, terms, ids, held_in, readable) if not unknown[1] else None
    if tier.names_its_subject:
        gate += rule.unsaid_penalty * unknown_share(db, terms, tables=(tier.fts,))[0]
    items = max(ordinary - rule.item_margin, best - rule.best_margin)
    # An item in another script could not have used the query's words, so they do not
    # count as unknown to it.
    across = {
        n
        for n in np.flatnonzero(readable)
        if tier.across_languages and scripts.get(ids[n], level.script) != level.script
    }
    opens = {n for n in np.flatnonzero(readable)
             if rule.passes(zs[n], ordinary if n in across else gate, cover[n])}  # fmt: skip
    by_meaning = np.array(
        [bool(readable[n]) and rule.passes(zs[n], items, cover[n]) for n in range(len(ids))],
        dtype=bool,
    )
    # Without a vector, or where the model cannot read the pair, the words decide.
    words = ~readable & (
        (by_words & ~has_vec)
        | (cover >= rule.words_share)
        | np.array([i in dated for i in ids], dtype=bool) & ~has_vec
    )
    if rare is not None:
        words |= rare
        for n in np.flatnonzero(rare & readable):
            scores[ids[n]] = max(scores[ids[n]], round(ordinary, 2))
    held = None
    if opens:
        # An item that clears the gate by itself and holds half the query's words is
        # evidence twice over, however far a stronger one stands above it ("I have a
        # sister called Ana" beside "My sister Ana lives in Porto"); without the words,
        # the margin to the best item still decides (2 deviations alone are a chance
        # draw's reach in a store of hundreds).
        cleared = np.zeros(len(ids), dtype=bool)
        cleared[[n for n in opens if own_cover[n] >= rule.words_share]] = True
        keep = by_meaning | words | cleared | whole
    else:
        keep = words | whole
        if any(rule.passes(zs[n], ordinary, cover[n]) for n in np.flatnonzero(readable)):
            held = by_meaning
    given = keep | held if held is not None else keep
    above = rare if rare is not None else np.zeros(len(ids), dtype=bool)
    strength = {ids[n]: STRONG if n in opens or above[n] else WEAK for n in np.flatnonzero(given)}
    return Judgement(keep, scores, coverage, held, strength, gate)


def _rare(
    db: Database,
    tier: Tier,
    rule: RelevanceRule,
    terms: list[str],
    ids: list[int],
    collection: int,
    readable: np.ndarray,
) -> np.ndarray | None:
    """Per candidate: whether it holds a rare word of the query (RelevanceRule.rare_items)
    in its own text, where the model cannot read the pair (or `rare_readable`). None
    where no candidate does."""
    if tier.own_words is None or rule.rare_items <= 0 or not ids:
        return None
    most = rule.rare_at_most(collection)
    held = rare_holders(db, tier.fts, rare_candidates(terms), most, tier.own_words)
    rare = np.array([i in held for i in ids], dtype=bool)
    if not rule.rare_readable:
        rare &= ~readable
    return rare if rare.any() else None
