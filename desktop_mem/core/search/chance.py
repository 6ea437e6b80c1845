"""What unrelated text looks like to the embedding model in use, from both sides of a
query-item pair.

A cosine similarity means nothing on its own: what 0.4 says depends on the model, on
the query and on the item. So each pair is measured against its own chance level, taken
from the reference sentences (core/search/sentences.py), embedded once with the user's
model and kept in the encrypted profile:

- the item's side: how near the item comes to questions that are not about it (the
  reference questions, in the query's script). Robust statistics (median, and the median
  absolute deviation, so that a reference question on the item's topic does not move
  them) give its centre and spread. An item that is near every question (a hub: "prefers
  short answers", or any text a model cannot tell apart from others) has a high centre,
  so being near this query says little; a specific item has a low one.
- the query's side: how much the query's similarity to unrelated statements (the
  reference statements, in the item's script) varies. A pair's deviation is its
  similarity above the item's centre, in the two sides' spreads together.

Both sides are taken per script: a multilingual model finds any two Chinese sentences
closer than a Chinese and an English one, so the statistics of one script are not mixed
with the other's. Where the model cannot read a script (all-MiniLM and Chinese), its
vectors say nothing about texts in it: a pair in it is judged by its words.

The reference's small talk and tasks (questions about the world, requests to write or
explain) are decoys: a query nearer one of them, measured the same way, than to any
item is small talk or a question about the world, not about what the store holds.
"""

from __future__ import annotations

import contextlib
import math
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from desktop_mem.core import textproc
from desktop_mem.core.db.vectors import from_blob, to_blob
from desktop_mem.core.errors import DesktopMemError, ModelServerError
from desktop_mem.core.models.embed import Embedder, content_hash
from desktop_mem.core.search.sentences import (
    PROBES,
    REFERENCE_SENTENCES,
    SMALL_TALK,
    STATEMENTS,
    TASKS,
)

if TYPE_CHECKING:
    import numpy as np

    from desktop_mem.core.db.database import Database
else:
    from desktop_mem.core.lazy import numpy as np

_MAD_TO_STD = 1.4826  # the MAD of a normal distribution times this is its deviation
# A model reads a script when, for this share of the reference's probe questions in it,
# the nearest of the probe answers is the question's own.
PROBES_TOLD_APART = 0.75

# Where each kind of reference sentence is in REFERENCE_SENTENCES.
_N_STATEMENTS, _N_TASKS, _N_TALK, _N_PROBES = (
    len(STATEMENTS),
    len(TASKS),
    len(SMALL_TALK),
    len(PROBES),
)
_TASKS_AT = _N_STATEMENTS
_TALK_AT = _TASKS_AT + _N_TASKS
_PROBE_Q_AT = _TALK_AT + _N_TALK
_PROBE_A_AT = _PROBE_Q_AT + _N_PROBES
_STATEMENT_ROWS = tuple(range(_N_STATEMENTS)) + tuple(range(_PROBE_A_AT, _PROBE_A_AT + _N_PROBES))
_QUESTION_ROWS = tuple(range(_TASKS_AT, _TALK_AT)) + tuple(range(_PROBE_Q_AT, _PROBE_A_AT))
_TASK_ROWS = tuple(range(_TASKS_AT, _TALK_AT))
_TALK_ROWS = tuple(range(_TALK_AT, _PROBE_Q_AT))
# what people say and ask about their own lives: the statements and the probe questions
_PERSONAL_ROWS = _STATEMENT_ROWS + tuple(range(_PROBE_Q_AT, _PROBE_A_AT))
_SCRIPT_OF = tuple(textproc.script(t) for t in REFERENCE_SENTENCES)


def _median(x: np.ndarray) -> float:
    """The median (np.median would import numpy.ma, 40 ms of a command's start-up)."""
    s = np.sort(np.asarray(x, dtype=np.float64).ravel())
    n = len(s)
    return float(s[n // 2]) if n % 2 else float((s[n // 2 - 1] + s[n // 2]) / 2)


def _row_medians(x: np.ndarray) -> np.ndarray:
    s = np.sort(x, axis=1)
    n = s.shape[1]
    return s[:, n // 2] if n % 2 else (s[:, n // 2 - 1] + s[:, n // 2]) / 2


def robust(sims: np.ndarray) -> tuple[float, float]:
    """Centre and spread of similarities to unrelated texts: the median and the MAD
    (as a deviation), never less than half the plain deviation (a few identical
    values would make it zero)."""
    center = _median(sims)
    mad = _median(np.abs(sims - center))
    return center, max(_MAD_TO_STD * mad, float(np.std(sims)) * 0.5, 1e-4)


def robust_rows(sims: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`robust` for each row."""
    sims = np.asarray(sims, dtype=np.float64)
    center = _row_medians(sims)
    mad = _row_medians(np.abs(sims - center[:, None]))
    spread = np.maximum(np.maximum(_MAD_TO_STD * mad, sims.std(axis=1) * 0.5), 1e-4)
    return center, spread


@dataclass
class Calibration:
    """One model's reference, prepared once per model: the statements and questions
    of each script, and each decoy's own chance level among the questions of each
    script (without itself)."""

    vectors: np.ndarray
    readable: frozenset[str]
    statements: dict[str, np.ndarray] = field(default_factory=dict)  # script -> row numbers
    questions: dict[str, np.ndarray] = field(default_factory=dict)  # script -> vectors
    tasks: dict[str, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)
    talk: dict[str, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)
    personal: dict[str, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)
    # No text's similarities vary less than this: a narrower spread comes from a text
    # the model barely represents (one character, one word it does not know), and
    # would make any difference look significant. Half the reference's typical one.
    floor: float = 0.0

    @classmethod
    def of(cls, vecs: np.ndarray, readable: frozenset[str]) -> Calibration:
        cal = cls(vecs, readable)
        for name in textproc.SCRIPTS:
            cal.statements[name] = np.array(
                [r for r in _STATEMENT_ROWS if _SCRIPT_OF[r] == name], dtype=np.int64
            )
            rows = [r for r in _QUESTION_ROWS if _SCRIPT_OF[r] == name]
            cal.questions[name] = vecs[rows]
            cal.tasks[name] = _levels(vecs, _TASK_ROWS, rows)
            cal.talk[name] = _levels(vecs, _TALK_ROWS, rows)
            cal.personal[name] = _levels(vecs, _PERSONAL_ROWS, rows)
        spreads = [cal.personal[name][1] for name in textproc.SCRIPTS if name in readable]
        cal.floor = 0.5 * _median(np.concatenate(spreads)) if spreads else 0.0
        return cal


def _levels(
    vecs: np.ndarray, items: tuple[int, ...], questions: list[int]
) -> tuple[np.ndarray, np.ndarray]:
    """Each reference item's centre and spread among the questions (without itself),
    as a stored item's are measured."""
    sims = vecs[list(items)] @ vecs[questions].T
    levels = [robust(np.delete(sims[n], [k for k, r in enumerate(questions) if r == item]))
              for n, item in enumerate(items)]  # fmt: skip
    return np.array([c for c, _ in levels]), np.array([s for _, s in levels])


@dataclass
class ChanceLevel:
    """One query's chance level. `by_script`: the centre and spread of its similarity
    to unrelated statements in each script; `talk` and `task`: how near (in
    deviations, as an item is measured) the small talk and the task it is nearest are."""

    center: float
    spread: float
    by_script: dict[str, tuple[float, float]] = field(default_factory=dict)
    readable: frozenset[str] = frozenset(textproc.SCRIPTS)
    script: str = "other"  # the query's
    questions: dict[str, np.ndarray] = field(default_factory=dict)
    talk: float = -math.inf  # how near the small talk it is nearest is, as an item is measured
    task: float = -math.inf  # and the question about the world or request
    # how near the reference's statements and questions about people's lives come
    personal: float = -math.inf
    floor: float = 0.0  # the least spread (Calibration.floor)

    def decoy(self, terms: list[str]) -> float:
        """How near the decoy the query is nearest is: small talk, or for a query of
        more than one word, a question about the world (a single word is a keyword
        search, not a question, even when a task happens to hold it)."""
        return max(self.talk, self.task) if len(terms) > 1 else self.talk

    def reads(self, script: str | None) -> bool:
        """Whether the model reads both the query's script and `script` (an item's)."""
        return self.script in self.readable and (script or self.script) in self.readable

    def nearest(
        self, sims: np.ndarray, rows: tuple[int, ...], levels: tuple[np.ndarray, np.ndarray]
    ) -> float:
        """The largest deviation among these reference rows, each measured as an item
        (`levels`: their centres and spreads among the questions of the query's script)."""
        z = self._deviations(sims[list(rows)], levels[0], levels[1], [_SCRIPT_OF[r] for r in rows])
        return float(np.nanmax(z)) if not np.isnan(z).all() else -math.inf

    def query_spread(self, script: str | None) -> float:
        return self.by_script.get(script or self.script, (self.center, self.spread))[1]

    def _deviations(
        self, sims: np.ndarray, center: np.ndarray, spread: np.ndarray, scripts: list[str]
    ) -> np.ndarray:
        """(similarity - the item's centre) / the item's and the query's spreads
        together (each at least the floor); NaN where the model cannot read the pair."""
        query = np.array([self.query_spread(name) for name in scripts], dtype=np.float64)
        both = np.sqrt(
            (np.maximum(spread, self.floor) ** 2 + np.maximum(query, self.floor) ** 2) / 2
        )
        z = (np.asarray(sims, dtype=np.float64) - center) / both
        readable = np.array([self.reads(name) for name in scripts], dtype=bool)
        return np.where(readable, z, np.nan)

    def z(self, sims: np.ndarray, vecs: np.ndarray, scripts: list[str]) -> np.ndarray:
        """Each pair's deviation above chance: `sims[n]` is the query's similarity with
        the item whose vector is `vecs[n]`, written in `scripts[n]`. NaN where the model
        cannot read the pair (or there is no reference to measure the item with)."""
        questions = self.questions.get(self.script)
        if questions is None or not len(questions) or not len(sims):
            return np.full(len(sims), np.nan)
        center, spread = robust_rows(np.asarray(vecs) @ questions.T)
        return self._deviations(sims, center, spread, scripts)


class Reference:
    """The reference sentences' vectors for each embedding model, cached in the
    profile's `meta` table (so each model embeds them once per profile), and what is
    derived from them. One per profile, shared by every tier; each asks with the
    embedder it searches with."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._vectors: dict[str, np.ndarray] = {}
        self._readable: dict[str, frozenset[str]] = {}
        self._calibrations: dict[str, Calibration] = {}
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

    def calibration(self, embedder: Embedder | None) -> Calibration | None:
        vecs = self.vectors(embedder)
        if vecs is None or embedder is None:
            return None
        if embedder.model not in self._calibrations:
            self._calibrations[embedder.model] = Calibration.of(vecs, self.readable(embedder))
        return self._calibrations[embedder.model]

    def level(self, qvec: np.ndarray, script: str, embedder: Embedder | None) -> ChanceLevel | None:
        """The query's chance level (`qvec` embedded by `embedder`, the query written in
        `script`), or None when there is no reference to measure it with."""
        cal = self.calibration(embedder)
        if cal is None or cal.vectors.shape[1] != qvec.shape[-1]:
            return None
        return self._level(cal, cal.vectors @ qvec, script)

    @staticmethod
    def _level(cal: Calibration, sims: np.ndarray, script: str) -> ChanceLevel:
        by_script = {name: robust(sims[rows]) for name, rows in cal.statements.items() if len(rows)}
        center, spread = by_script.get(script, by_script.get("other", (0.0, 1.0)))
        level = ChanceLevel(center, spread, by_script, cal.readable, script, cal.questions)
        level.floor = cal.floor
        if script in cal.talk:
            level.talk = level.nearest(sims, _TALK_ROWS, cal.talk[script])
            level.task = level.nearest(sims, _TASK_ROWS, cal.tasks[script])
            level.personal = level.nearest(sims, _PERSONAL_ROWS, cal.personal[script])
        return level

    def readable(self, embedder: Embedder | None) -> frozenset[str]:
        """The scripts the model can read: those in which it tells the probe answers
        apart (each question's nearest answer is its own, for most of them), where it
        does in some. Computed once per model."""
        vecs = self.vectors(embedder)
        if vecs is None or embedder is None:
            return frozenset(textproc.SCRIPTS)
        model = embedder.model
        if model in self._readable:
            return self._readable[model]
        questions = vecs[_PROBE_Q_AT:_PROBE_A_AT]
        answers = vecs[_PROBE_A_AT : _PROBE_A_AT + _N_PROBES]
        nearest = np.argmax(questions @ answers.T, axis=1)
        told: dict[str, list[bool]] = {}
        for n, (_, answer) in enumerate(PROBES):
            told.setdefault(textproc.script(answer), []).append(bool(nearest[n] == n))
        readable = frozenset(
            name for name, oks in told.items() if sum(oks) >= PROBES_TOLD_APART * len(oks)
        )
        # A model that tells the probes apart in no script says nothing about scripts
        # (a toy or bag-of-words model): only a contrast marks one as unreadable.
        self._readable[model] = readable or frozenset(textproc.SCRIPTS)
        return self._readable[model]


def small_talk_terms() -> tuple[frozenset[str], ...]:
    """Each small-talk reference sentence's search terms: a query whose terms are all
    in one of them is small talk by its words (where the model cannot read it)."""
    return tuple(frozenset(textproc.query_terms(t)) for t in SMALL_TALK)
