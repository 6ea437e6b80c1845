"""Bringing another assistant's history in: its conversations become the recall tier,
with their own dates; the facts in them are proposed for review, never imposed.

Each conversation is stored in its own transaction with the export's id for it
(conversations.origin_key, unique per origin), so an import stopped or killed half-way
resumes by being run again, and importing the same export twice adds nothing. Its user
messages are marked learn_state 'import': the chat's learning never takes them (it
takes 'pending'); `propose` runs the chat's own extraction on them (the user's words
only, with the conversation's date for "tomorrow") and keeps what it finds in the
proposals table, where the user accepts, edits or rejects it. Until then no proposal
is in any prompt: the read path reads memories, and a proposal is not one.

A fact found is weighed, as the chat weighs a learned one (Extractor.decide), against
the memories and the other facts waiting for review: one that says something else
about the same thing ("lives in Lisbon" against "lives in Berlin") is kept with that
conflict, and accepting it lets the date decide, not the order of the clicks: the
newer statement becomes current and the older one ends where the newer one begins
(it stays in the memory's history); an older fact accepted after a newer one is
stored as already ended.
"""

from __future__ import annotations

import builtins
import logging
import threading
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from desktop_mem.core import textproc
from desktop_mem.core.chat.arrived import ArrivedConversation, ImportedMessage
from desktop_mem.core.chat.conversations import title_from
from desktop_mem.core.chat.foreign import (
    Export,
    ForeignConversation,
    ForeignMemory,
    open_export,
)
from desktop_mem.core.chat.records import origin_label
from desktop_mem.core.db.database import id_chunks
from desktop_mem.core.errors import InvalidInput, InvalidModelAnswer, ModelServerError, NotFound
from desktop_mem.core.events import Events, ProposalsChanged
from desktop_mem.core.memory.records import KINDS, NewMemory, now_iso, parse_when
from desktop_mem.core.models.embed import content_hash

if TYPE_CHECKING:
    import numpy as np

    from desktop_mem.core.chat.conversations import ConversationStore
    from desktop_mem.core.chat.extract import Candidate, Extractor
    from desktop_mem.core.chat.learning import Learner
    from desktop_mem.core.db.database import Database
    from desktop_mem.core.memory.store import MemoryStore
else:
    from desktop_mem.core.lazy import numpy as np

log = logging.getLogger("desktop_mem.importing")

TO_PROPOSE = "import"  # learn_state of an imported user message not yet read for facts
BATCH = 50  # conversations per transaction


def _hash(text: str) -> str:
    return content_hash(textproc.normalize(text).lower())


@dataclass
class Survey:
    """What a file holds, before anything is written."""

    kind: str
    label: str
    conversations: int = 0  # with at least one message
    messages: int = 0
    empty: int = 0  # conversations without a message (new chats, deleted ones)
    already: int = 0  # imported before: not added again
    memories: int = 0
    about: int = 0  # facts in what the person told the assistant about themselves
    instructions: str | None = None  # how they asked it to answer
    projects: int = 0
    skipped: int = 0  # not recognisable (a newer format?)
    first: str | None = None
    last: str | None = None
    fingerprint: str = ""  # of the files read whole: run() need not read them again

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("fingerprint")
        return d


@dataclass
class Imported:
    """What an import wrote."""

    label: str
    conversations: int = 0
    messages: int = 0
    already: int = 0
    empty: int = 0
    skipped: int = 0
    older: int = 0  # left out by `since`
    projects: int = 0  # Claude projects stored (with their documents' text)
    proposed: int = 0  # memories from a memories file, waiting for review
    to_read: int = 0  # user messages waiting to be read for facts
    conversation_ids: list[int] = field(default_factory=list)
    message_ids: list[int] = field(default_factory=list)
    stopped: bool = False

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("message_ids")
        return d


@dataclass
class Proposal:
    id: int
    origin: str
    text: str
    kind: str
    importance: float
    valid_from: str | None
    valid_until: str | None
    said_at: str | None
    message_id: int | None
    duplicate_of: int | None
    state: str
    conflicts_memory: int | None = None
    conflicts_proposal: int | None = None
    created_at: str = ""
    # what accepting it changes, by date ({"text", "date"}): the older statement it
    # replaces, or the newer one that replaces it (it is then stored as ended)
    replaces: dict[str, str] | None = None
    replaced_by: dict[str, str] | None = None

    @property
    def source(self) -> str:
        return origin_label(self.origin, self.said_at)

    @property
    def date(self) -> str:
        """When it was true from: said then, or (a saved memory without a date) as of
        its import."""
        return self.valid_from or self.said_at or self.created_at

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["source"] = self.source
        return d


_PROPOSAL = (
    "id, origin, text, kind, importance, valid_from, valid_until, said_at, message_id, "
    "duplicate_of, state, conflicts_memory, conflicts_proposal, created_at"
)


def _memory_date(memory: Any) -> str:
    return str(memory.valid_from or memory.created_at)


def _ends_before(memory: Any, when: str) -> bool:
    return bool(memory.valid_until) and str(memory.valid_until) <= when


@dataclass
class Proposed:
    """What a pass of reading imported messages for facts did."""

    read: int = 0  # user messages read
    proposed: int = 0
    left: int = 0  # still to read
    failed: str | None = None  # the reason the model server gave, when it stopped on one
    busy: bool = False  # another pass was reading already (the window's, the idle one)


class Importer:
    def __init__(
        self,
        db: Database,
        conversations: ConversationStore,
        memories: MemoryStore,
        events: Events,
    ) -> None:
        self.db = db
        self.conversations = conversations
        self.memories = memories
        self.events = events
        self._vectors: dict[int, np.ndarray] = {}  # waiting proposals', for `_alike`
        self._reading = threading.Lock()  # one pass reads at a time: none reads twice

    # -- looking before writing ------------------------------------------------------------

    def survey(self, path: Path, since: str | None = None) -> Survey:
        """What the file holds, read whole (so a file that cannot be is refused before
        anything is written: ImportRejected); writes nothing."""
        export = open_export(path)
        fingerprint = export.fingerprint()
        out = Survey(
            export.kind, export.label, memories=len(export.memories) - export.project_instructions
        )
        out.projects = export.projects
        for conv in export.conversations():
            if conv.project:  # counted by the export; its messages are documents
                continue
            if not conv.messages:
                out.empty += 1
                continue
            if since and (conv.updated_at or conv.created_at or "") < since:
                continue
            if self._known(conv):
                out.already += 1
                continue
            out.conversations += 1
            out.messages += len(conv.messages)
            when = conv.created_at or conv.messages[0].created_at
            if when:
                out.first = min(out.first or when, when)
                out.last = max(out.last or when, when)
        out.skipped = export.skipped
        out.instructions = export.instructions
        out.about = len(export.about)
        out.fingerprint = fingerprint
        return out

    def _known(self, conv: ForeignConversation) -> bool:
        if self.db.query(
            "SELECT 1 FROM conversations WHERE origin = ? AND origin_key = ?",
            (conv.origin, conv.key),
        ):
            return True
        # this app's own export read back into the profile it came from: the same
        # conversation is the one begun at the same moment with the same title
        created = _stamp(conv.created_at)
        return conv.origin == "desktop-mem" and bool(
            created
            and self.db.query(
                "SELECT 1 FROM conversations WHERE created_at = ? AND title = ?",
                (created, conv.title),
            )
        )

    # -- writing ---------------------------------------------------------------------------

    def run(
        self,
        path: Path,
        propose: bool = True,
        since: str | None = None,
        progress: Callable[[int, int], None] | None = None,
        should_stop: Callable[[], bool] | None = None,
        total: int | None = None,
        facts_since: str | None = None,
        surveyed: Survey | None = None,
    ) -> Imported:
        """Store the file's conversations (each once) and propose its memories, and the
        facts of what the person told the assistant about themselves. `since` (an ISO
        date): only conversations active since then; `facts_since`: only the user's
        messages since then wait to be read for facts. `progress(done, total)` counts
        conversations; `total` is the survey's count when known.

        The file is read whole before anything is written (ImportRejected, and nothing
        stored, when it cannot be), unless `surveyed` read these very files."""
        export = open_export(path)
        fingerprint = export.fingerprint()
        if surveyed is None or not fingerprint or surveyed.fingerprint != fingerprint:
            for _ in export.conversations():
                pass
        out = Imported(export.label)
        out.proposed = self.propose_memories(export)
        batch: list[ForeignConversation] = []
        for seen, conv in enumerate(export.conversations(), 1):
            if not conv.messages:
                out.empty += 0 if conv.project else 1
            elif since and (conv.updated_at or conv.created_at or "") < since:
                out.older += 1
            else:
                batch.append(conv)
            if len(batch) >= BATCH:
                self._store(batch, propose, out, facts_since)
                batch = []
            if progress:
                progress(seen, max(total or 0, seen))
            if should_stop is not None and should_stop():
                out.stopped = True
                break
        if batch:
            self._store(batch, propose, out, facts_since)
        if export.about:  # known once the conversations are read
            out.proposed += self.propose_memories(export, export.about)
        out.skipped = export.skipped
        out.to_read = self.to_read()
        return out

    def _store(
        self,
        batch: list[ForeignConversation],
        propose: bool,
        out: Imported,
        facts_since: str | None = None,
    ) -> None:
        with self.db.transaction() as conn:
            for conv in batch:
                if self._known(conv):
                    out.already += 0 if conv.project else 1
                    continue
                created = _stamp(conv.created_at) or _stamp(conv.messages[0].created_at)
                created = created or now_iso()
                updated = _stamp(conv.messages[-1].created_at) or _stamp(conv.updated_at)
                first_user = next((m.text for m in conv.messages if m.role == "user"), "")
                title = textproc.shorten(conv.title, 200) if conv.title else title_from(first_user)
                messages = []
                for m in conv.messages:
                    stamp = _stamp(m.created_at) or created
                    read = (
                        propose
                        and not conv.project
                        and m.role == "user"
                        and stamp[:10] >= (facts_since or "")
                    )
                    messages.append(
                        ImportedMessage(m.role, m.text, stamp, TO_PROPOSE if read else "")
                    )
                cid, ids = self.conversations.add_imported(
                    conn,
                    ArrivedConversation(
                        title,
                        "user" if conv.title else "",
                        False,
                        None,
                        created,
                        updated or created,
                        conv.origin,
                        conv.key,
                    ),  # fmt: skip
                    messages,
                )
                out.message_ids += ids
                if conv.project:
                    out.projects += 1
                else:
                    out.conversations += 1
                    out.messages += len(conv.messages)
                out.conversation_ids.append(cid)

    def propose_memories(
        self, export: Export, about: builtins.list[ForeignMemory] | None = None
    ) -> int:
        """Propose a memories file's memories (each once; those the profile holds are
        marked as duplicates), or the facts of `about`."""
        added = 0
        with self.db.transaction():
            for m in export.memories if about is None else about:
                added += self._propose(
                    export.kind, m.text, m.kind, said_at=_stamp(m.created_at), importance=0.6,
                    weigh=True,
                )  # fmt: skip
        if added:
            self.events.emit(ProposalsChanged())
        return added

    def _propose(
        self,
        origin: str,
        text: str,
        kind: str = "fact",
        importance: float = 0.5,
        valid_from: str | None = None,
        valid_until: str | None = None,
        said_at: str | None = None,
        message_id: int | None = None,
        duplicate_of: int | None = None,
        conflicts: tuple[int | None, int | None] = (None, None),
        weigh: bool = False,
    ) -> int:
        text = textproc.normalize(text).strip()
        if len(text) < 2:
            return 0
        h = _hash(text)
        if self.db.query("SELECT 1 FROM proposals WHERE content_hash = ?", (h,)):
            return 0
        same = self.memories.find_duplicate(text)
        dup = same.id if same else duplicate_of
        with self.db.transaction() as conn:
            conn.execute(
                "INSERT INTO proposals(origin, text, content_hash, kind, importance, "
                "valid_from, valid_until, said_at, message_id, duplicate_of, created_at, "
                "conflicts_memory, conflicts_proposal, weigh) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (origin, text, h, kind if kind in KINDS else "fact", importance, valid_from,
                 valid_until, said_at, message_id, dup, now_iso(),
                 *((None, None) if dup else conflicts), int(weigh and not dup)),
            )  # fmt: skip
        return 1

    # -- facts that say something else about the same thing ---------------------------------

    def _alike(
        self, text: str, floor: float, besides: int | None = None
    ) -> builtins.list[tuple[Proposal, float]]:
        """The waiting proposals nearest in meaning to `text` (cosine >= floor), best
        first; none when there is no embedding model or its server is away."""
        embedder = self.memories.embedder
        waiting = [p for p in self._listed("waiting") if p.id != besides]
        if embedder is None or not waiting:
            return []
        live = {p.id for p in waiting}
        self._vectors = {i: v for i, v in self._vectors.items() if i in live}
        missing = [p for p in waiting if p.id not in self._vectors]
        try:
            query = np.asarray(embedder.embed([text]), dtype=np.float32)[0]
            if missing:
                vecs = np.asarray(embedder.embed([p.text for p in missing]), dtype=np.float32)
                for p, v in zip(missing, vecs, strict=True):
                    self._vectors[p.id] = v / (np.linalg.norm(v) or 1.0)
        except ModelServerError:
            return []
        query = query / (np.linalg.norm(query) or 1.0)
        sims = np.vstack([self._vectors[p.id] for p in waiting]) @ query
        order = np.argsort(-sims)[:5]
        return [(waiting[i], float(sims[i])) for i in order if sims[i] >= floor]

    def _relate(
        self, extractor: Extractor, c: Candidate, when: datetime, besides: int | None = None
    ) -> tuple[str, int | None, int | None]:
        """How a fact found relates to what is held and waiting, by the chat's own
        consolidation: ("new"|"same"|"conflict", memory id, proposal id). Raises
        ModelServerError when the server fails (InvalidModelAnswer: no conflict known)."""
        from desktop_mem.core.chat.extract import RELATED_SIMILARITY

        others = self._alike(c.text, RELATED_SIMILARITY, besides)
        try:
            step = extractor.decide(c, when, others=others)
        except InvalidModelAnswer:
            log.warning("no decision on an imported fact: proposed without a conflict")
            return "new", None, None
        target = step.target
        if target is None or step.action == "added":
            return "new", None, None
        is_proposal = isinstance(target, Proposal)
        kind = "same" if step.action == "skipped" else "conflict"
        return (kind, None, target.id) if is_proposal else (kind, target.id, None)

    # -- reading imported messages for facts ---------------------------------------------

    def to_read(self) -> int:
        return int(
            self.db.query(
                "SELECT count(*) FROM messages WHERE learn_state = ? AND forgotten = 0",
                (TO_PROPOSE,),
            )[0][0]
        )

    def to_weigh(self) -> int:
        """Saved memories from a memories file not yet weighed against the rest."""
        return int(
            self.db.query("SELECT count(*) FROM proposals WHERE weigh = 1 AND state = 'waiting'")[
                0
            ][0]
        )

    def weigh(
        self, extractor: Extractor, should_stop: Callable[[], bool] | None = None
    ) -> tuple[int, str | None]:
        """Weigh the saved memories a memories file proposed, as a fact found in a
        conversation is: one the profile holds in other words is marked held, one that
        says something else about the same thing is marked as replacing it (or replaced,
        by date). Returns (weighed, the model server's reason when it stopped on one)."""
        from desktop_mem.core.chat.prompts import Candidate

        done = 0
        while should_stop is None or not should_stop():
            rows = self.db.query(
                f"SELECT {_PROPOSAL} FROM proposals WHERE weigh = 1 AND state = 'waiting' "
                "ORDER BY id LIMIT 1"
            )
            if not rows:
                break
            p = Proposal(*rows[0])
            how, memory_id, proposal_id = "new", None, None
            try:
                c = Candidate.model_validate(
                    {"text": p.text[:500], "kind": p.kind, "importance": p.importance}
                )
                how, memory_id, proposal_id = self._relate(extractor, c, _when(p.date), p.id)
            except ModelServerError as exc:
                return done, exc.reason
            except ValueError:  # not a statement the extraction would give: left as it is
                pass
            with self.db.transaction() as conn:
                conn.execute(
                    "UPDATE proposals SET weigh = 0, duplicate_of = ?, conflicts_memory = ?, "
                    "conflicts_proposal = ? WHERE id = ?",
                    (memory_id if how == "same" else None,
                     memory_id if how == "conflict" else None,
                     proposal_id if how == "conflict" else None, p.id),
                )  # fmt: skip
            done += 1
            if how != "new":
                self.events.emit(ProposalsChanged())
        return done, None

    def propose(
        self,
        learner: Learner,
        extractor: Extractor,
        limit: int | None = None,
        should_stop: Callable[[], bool] | None = None,
        progress: Callable[[int, int], None] | None = None,
        wait: bool = False,
    ) -> Proposed:
        """Read imported user messages for facts, oldest first, with the chat's own
        extraction, and propose what it finds. Stops when the model server fails (the
        rest wait for the next pass: nothing is lost) or `should_stop` says so. While
        another pass reads (the window's after an import, the idle one), returns at once
        with `busy` (the other pass finds them), or with `wait` goes on once it ends."""
        while not (self._reading.acquire(timeout=0.25) if wait else self._reading.acquire(False)):
            if not wait or (should_stop is not None and should_stop()):
                return Proposed(left=self.to_read(), busy=True)
        try:
            return self._propose_pass(learner, extractor, limit, should_stop, progress)
        finally:
            self._reading.release()

    def _propose_pass(
        self,
        learner: Learner,
        extractor: Extractor,
        limit: int | None,
        should_stop: Callable[[], bool] | None,
        progress: Callable[[int, int], None] | None,
    ) -> Proposed:
        out = Proposed()
        _, out.failed = self.weigh(extractor, should_stop)
        if out.failed:
            out.left = self.to_read()
            return out
        total = self.to_read() if limit is None else min(limit, self.to_read())
        while limit is None or out.read < limit:
            if should_stop is not None and should_stop():
                break
            rows = self.db.query(
                "SELECT m.id, c.origin FROM messages m JOIN conversations c "
                "ON c.id = m.conversation_id WHERE m.learn_state = ? AND m.forgotten = 0 "
                "ORDER BY m.id LIMIT 1",
                (TO_PROPOSE,),
            )
            if not rows:
                break
            user_id, origin = rows[0]
            exchange = learner.exchange(user_id)
            found = 0
            if exchange is not None:
                try:
                    candidates = extractor.extract(exchange.user, exchange.answer, exchange.when)
                except ModelServerError as exc:
                    out.failed = exc.reason
                    break
                said = exchange.when.astimezone(UTC).isoformat(timespec="seconds")
                for c in candidates:
                    try:  # weighed against those just proposed too: one at a time
                        how, memory_id, proposal_id = self._relate(extractor, c, exchange.when)
                    except ModelServerError as exc:
                        out.failed = exc.reason
                        break
                    if how == "same" and proposal_id is not None:
                        continue  # waiting already, in other words
                    found += self._propose(
                        origin or "import", c.text, c.kind, c.importance, c.valid_from,
                        c.valid_until, said, user_id,
                        duplicate_of=memory_id if how == "same" else None,
                        conflicts=(memory_id, proposal_id) if how == "conflict" else (None, None),
                    )  # fmt: skip
                if out.failed:
                    if found:
                        self.events.emit(ProposalsChanged())
                    break
            with self.db.transaction() as conn:
                self.conversations.mark_learned(conn, user_id)
            out.read += 1
            out.proposed += found
            if found:
                self.events.emit(ProposalsChanged())
            if progress:
                progress(out.read, max(total, out.read))
        out.left = self.to_read()
        return out

    # -- review ------------------------------------------------------------------------------

    def proposals(self, state: str = "waiting") -> builtins.list[Proposal]:
        """The proposals in `state`; the waiting ones with what accepting them would
        replace, or be replaced by, by date."""
        out = self._listed(state)
        if state == "waiting":
            for p in out:
                for text, date in self._counterparts(p):
                    shown = {"text": text, "date": date[:10]}
                    if date <= p.date:
                        p.replaces = p.replaces or shown
                    else:
                        p.replaced_by = p.replaced_by or shown
        return out

    def _listed(self, state: str) -> builtins.list[Proposal]:
        return [
            Proposal(*r)
            for r in self.db.query(
                f"SELECT {_PROPOSAL} FROM proposals WHERE state = ? ORDER BY kind, id", (state,)
            )
        ]

    def _counterparts(self, p: Proposal) -> builtins.list[tuple[str, str]]:
        """The statements `p` conflicts with (text, date): a memory, a proposal still
        waiting or the memory an accepted one became; either side may name the other."""
        out: list[tuple[str, str]] = []
        for mid in self._conflicting_memories(p):
            m = self._memory(mid)
            if m is not None:
                out.append((m.text, _memory_date(m)))
        rows = self.db.query(
            f"SELECT {_PROPOSAL} FROM proposals WHERE state = 'waiting' AND "
            "(id = ? OR conflicts_proposal = ?) AND id != ?",
            (p.conflicts_proposal or 0, p.id, p.id),
        )
        out += [(q.text, q.date) for q in (Proposal(*r) for r in rows)]
        return out

    def _conflicting_memories(self, p: Proposal) -> builtins.list[int]:
        """The memories `p` conflicts with: the one it was weighed against, and those
        accepted proposals it conflicts with (either way) became."""
        ids = [p.conflicts_memory] if p.conflicts_memory else []
        ids += [
            int(r[0])
            for r in self.db.query(
                "SELECT memory_id FROM proposals WHERE state = 'accepted' AND memory_id "
                "IS NOT NULL AND (id = ? OR conflicts_proposal = ?) AND id != ?",
                (p.conflicts_proposal or 0, p.id, p.id),
            )
        ]
        return list(dict.fromkeys(ids))

    def _memory(self, memory_id: int) -> Any:
        try:
            return self.memories.get(memory_id)
        except NotFound:
            return None

    def proposal(self, proposal_id: int) -> Proposal:
        rows = self.db.query(f"SELECT {_PROPOSAL} FROM proposals WHERE id = ?", (proposal_id,))
        if not rows:
            raise NotFound(f"There is no proposed memory {proposal_id}.")
        return Proposal(*rows[0])

    def accept(
        self, ids: Iterable[int] | None = None, text: str | None = None
    ) -> builtins.list[int]:
        """Make proposals memories (None: every one waiting). `text`: the user's edit of
        a single proposal. A duplicate of a memory already held is not added again: it
        is marked accepted. Returns the new memories' ids."""
        chosen = self._waiting(ids)
        if text is not None:
            if len(chosen) != 1:
                raise InvalidInput("Edit one proposed memory at a time.")
            text = textproc.normalize(text).strip()
            if len(text) < 2:
                raise InvalidInput("A memory cannot be empty: type a few words.")
        fresh: list[tuple[Proposal, NewMemory]] = []
        kept: set[str] = set()
        for p in chosen:
            body = text if text is not None else p.text
            key = _hash(body)
            if key in kept or self.memories.find_duplicate(body):
                continue
            kept.add(key)
            fresh.append(
                (p, NewMemory(body, kind=p.kind, importance=p.importance, source="import",
                              source_message_id=p.message_id, created_at=p.said_at,
                              valid_from=p.valid_from, valid_until=p.valid_until))
            )  # fmt: skip
        mems, _ = (
            self.memories.add_many([n for _, n in fresh], actor="import") if fresh else ([], [])
        )
        made = {p.id: m.id for (p, _), m in zip(fresh, mems, strict=True)}
        with self.db.transaction() as conn:
            for p in chosen:  # decided: only its hash stays, so it is not proposed again
                conn.execute(
                    "UPDATE proposals SET state = 'accepted', memory_id = ?, text = '' "
                    "WHERE id = ?",
                    (made.get(p.id), p.id),
                )
        # the date decides, not the order of the clicks: oldest first, each newer
        # statement ends the older one it conflicts with where it begins
        for p in sorted((p for p in chosen if p.id in made), key=lambda p: (p.date, p.id)):
            self._supersede(p, made[p.id])
        self.events.emit(ProposalsChanged())
        return list(made.values())

    def _supersede(self, p: Proposal, memory_id: int) -> None:
        from desktop_mem.core.chat.extract import may_change

        mine = self.memories.get(memory_id)
        for other_id in self._conflicting_memories(p):
            other = self._memory(other_id)
            if other is None or other_id == memory_id:
                continue
            theirs = _memory_date(other)
            if theirs <= p.date:  # p is newer: the other ends where p begins
                if not _ends_before(other, p.date) and may_change("import", other):
                    self.memories.invalidate(
                        other_id, _when(p.date), "import",
                        "replaced by a newer imported fact",
                    )  # fmt: skip
            elif not _ends_before(mine, theirs):  # p is older: it ended when that began
                self.memories.edit(
                    memory_id, valid_until=theirs, actor="import",
                    action="replaced by a newer statement",
                )  # fmt: skip
                mine = self.memories.get(memory_id)

    def reject(self, ids: Iterable[int] | None = None) -> int:
        """Reject proposals (None: every one waiting); they are not proposed again."""
        chosen = self._waiting(ids)
        with self.db.transaction() as conn:
            for chunk, marks in id_chunks([p.id for p in chosen]):
                conn.execute(
                    f"UPDATE proposals SET state = 'rejected', text = '' WHERE id IN ({marks})",
                    chunk,
                )
        self.events.emit(ProposalsChanged())
        return len(chosen)

    def restore(self, proposals: Iterable[Proposal]) -> int:
        """Undo a rejection: the proposals, as they were shown before it (a rejected one
        keeps only its hash), wait for review again."""
        done = 0
        with self.db.transaction() as conn:
            for p in proposals:
                done += conn.execute(
                    "UPDATE proposals SET state = 'waiting', text = ? WHERE id = ? AND "
                    "state = 'rejected'",
                    (p.text, p.id),
                ).rowcount
        self.events.emit(ProposalsChanged())
        return done

    def _waiting(self, ids: Iterable[int] | None) -> builtins.list[Proposal]:
        if ids is None:
            return self._listed("waiting")
        out = []
        for i in ids:
            p = self.proposal(int(i))
            if p.state == "waiting":
                out.append(p)
        return out

    def counts(self) -> dict[str, int]:
        out = {"waiting": 0, "accepted": 0, "rejected": 0}
        for state, n in self.db.query("SELECT state, count(*) FROM proposals GROUP BY state"):
            out[state] = n
        return out


def _stamp(value: str | None) -> str | None:
    try:
        return parse_when(value, "message date") if value else None
    except InvalidInput:
        return None


def _when(value: str) -> datetime:
    when = datetime.fromisoformat(value)
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def since_date(text: str | None) -> str | None:
    """An ISO date for `since`, or None; a bad one says so."""
    if not text:
        return None
    try:
        return datetime.fromisoformat(text).date().isoformat()
    except ValueError:
        raise InvalidInput(f"'{text}' is not a date: give it as YYYY-MM-DD.") from None


__all__ = [
    "Imported", "Importer", "Proposal", "Proposed", "Survey", "origin_label", "since_date",
]  # fmt: skip
