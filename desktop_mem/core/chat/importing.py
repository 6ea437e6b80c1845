"""Bringing another assistant's history in: its conversations become the recall tier,
with their own dates; the facts in them are proposed for review, never imposed.

Each conversation is stored in its own transaction with the export's id for it
(conversations.origin_key, unique per origin), so an import stopped or killed half-way
resumes by being run again, and importing the same export twice adds nothing. Its user
messages are marked learn_state 'import': the chat's learning never takes them (it
takes 'pending'); `propose` runs the chat's own extraction on them (the user's words
only, with the conversation's date for "tomorrow") and proposes what it finds to the
proposals store (core/chat/proposals.py), where the user accepts, edits or rejects
it. Until then no proposal is in any prompt: the read path reads memories, and a
proposal is not one.

A fact found is weighed, as the chat weighs a learned one (Extractor.decide), against
the memories and the other facts waiting for review: one that says something else
about the same thing ("lives in Lisbon" against "lives in Berlin") is proposed with
that conflict, and accepting it lets the date decide (see core/chat/proposals.py).

Projects land in spaces (core/memory/spaces.py). A ChatGPT or Claude project is
imported into a space of its own (SpaceStore.for_import: named as it was, made once,
found again by the project's id), with its conversations (and a Claude project's
documents, as the conversation named after it); what is found in them, and what the
assistant remembered of the project, is proposed for that space, except what applies
everywhere (health and safety, who the person is: `learned_in`), proposed for the shared
space unless the space is kept apart. A conversation that names a project the export
holds nothing else of goes to a space of its own all the same (named by what is known,
or numbered): it was kept apart there, and the shared space would mix it into every
chat; the person can rename that space, or take it out moving what it holds to the
shared space. At most MAX_SPACES projects of one import get a space (an export naming
thousands is not a person's projects): the rest are imported into the shared space.
"""

from __future__ import annotations

import builtins
import logging
import threading
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from desktop_mem.core import textproc
from desktop_mem.core.chat.arrived import ArrivedConversation, ImportedMessage
from desktop_mem.core.chat.conversations import title_from
from desktop_mem.core.chat.foreign import (
    Export,
    ForeignConversation,
    ForeignMemory,
    open_export,
)
from desktop_mem.core.chat.proposals import Proposal
from desktop_mem.core.chat.records import origin_label
from desktop_mem.core.errors import InvalidInput, InvalidModelAnswer, ModelServerError
from desktop_mem.core.jsontypes import JSONObject
from desktop_mem.core.memory.records import now_iso, parse_when
from desktop_mem.core.memory.spaces import EVERY, SpaceStore, learned_in

if TYPE_CHECKING:
    from desktop_mem.core.chat.conversations import ConversationStore
    from desktop_mem.core.chat.extract import Candidate, Extractor
    from desktop_mem.core.chat.learning import Learner
    from desktop_mem.core.chat.proposals import ProposalStore
    from desktop_mem.core.db.connection import Connection
    from desktop_mem.core.db.database import Database
    from desktop_mem.core.memory.spaces import Scope

log = logging.getLogger("desktop_mem.importing")

TO_PROPOSE = "import"  # learn_state of an imported user message not yet read for facts
BATCH = 50  # conversations per transaction
MAX_SPACES = 100  # projects of one import that get a space of their own


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
    spaces: int = 0  # projects imported into a space each (made, or found again)
    skipped: int = 0  # not recognisable (a newer format?)
    first: str | None = None
    last: str | None = None
    fingerprint: str = ""  # of the files read whole: run() need not read them again

    def to_dict(self) -> JSONObject:
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
    spaces: int = 0  # spaces the import put something in (made, or found again)
    proposed: int = 0  # memories from a memories file, waiting for review
    to_read: int = 0  # user messages waiting to be read for facts
    conversation_ids: list[int] = field(default_factory=list)
    message_ids: list[int] = field(default_factory=list)
    stopped: bool = False

    def to_dict(self) -> JSONObject:
        d = asdict(self)
        d.pop("message_ids")
        return d


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
        proposals: ProposalStore,
        spaces: SpaceStore | None = None,
    ) -> None:
        self.db = db
        self.conversations = conversations
        self.proposals = proposals  # where what is found waits for review
        self.spaces = spaces or SpaceStore(db, proposals.events)  # a project's space
        self._placed: dict[str, int | None] = {}  # this import's projects: their spaces
        self._into: int | None = None  # this import's space for what is in no project
        self._reading = threading.Lock()  # one pass reads at a time: none reads twice

    # -- looking before writing ------------------------------------------------------------

    def survey(self, path: Path, since: str | None = None) -> Survey:
        """What the file holds, read whole (so a file that cannot be is refused before
        anything is written: ImportRejected); writes nothing."""
        export = open_export(path)
        fingerprint = export.fingerprint()
        out = Survey(export.kind, export.label, memories=len(export.memories))
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
        out.spaces = min(len(export.spaces), MAX_SPACES)
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
        into: int | None = None,
    ) -> Imported:
        """Store the file's conversations (each once) and propose its memories, and the
        facts of what the person told the assistant about themselves. `since` (an ISO
        date): only conversations active since then; `facts_since`: only the user's
        messages since then wait to be read for facts. `progress(done, total)` counts
        conversations; `total` is the survey's count when known. `into`: the space what
        is in no project goes to (None: the shared space); a project still gets a space
        of its own, and what applies everywhere is still proposed for the shared space
        (unless `into` is kept apart).

        The file is read whole before anything is written (ImportRejected, and nothing
        stored, when it cannot be), unless `surveyed` read these very files."""
        export = open_export(path)
        fingerprint = export.fingerprint()
        if surveyed is None or not fingerprint or surveyed.fingerprint != fingerprint:
            for _ in export.conversations():
                pass
        out = Imported(export.label)
        if into is not None:
            self.spaces.get(into)  # NotFound: one sentence, before anything is written
        self._placed, self._into = {}, into
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
                self._store(batch, propose, out, facts_since, export)
                batch = []
            if progress:
                progress(seen, max(total or 0, seen))
            if should_stop is not None and should_stop():
                out.stopped = True
                break
        if batch:
            self._store(batch, propose, out, facts_since, export)
        if export.about:  # known once the conversations are read
            out.proposed += self.propose_memories(export, export.about)
        out.skipped = export.skipped
        out.spaces = len({s for s in self._placed.values() if s is not None and s != into})
        out.to_read = self.to_read()
        return out

    def _store(
        self,
        batch: list[ForeignConversation],
        propose: bool,
        out: Imported,
        facts_since: str | None = None,
        export: Export | None = None,
    ) -> None:
        with self.db.transaction() as conn:
            self._spaces_still_there(conn)
            for conv in batch:
                if self._known(conv):
                    out.already += 0 if conv.project else 1
                    continue
                space = self._space(conn, export, conv.space)
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
                        space,
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

    def _spaces_still_there(self, conn: Connection) -> None:
        """The spaces this import puts things in, as they stand at a transaction's start
        (it holds the write lock: none goes meanwhile). One taken out since (by the
        person, or on another computer the profile syncs with) is the shared space for
        what follows, as what a space taken out held goes there."""
        ids = {s for s in (self._into, *self._placed.values()) if s is not None}
        if not ids:
            return
        marks = ",".join("?" * len(ids))
        there = {
            int(r[0])
            for r in conn.execute(f"SELECT id FROM spaces WHERE id IN ({marks})", sorted(ids))
        }
        gone = ids - there
        if gone:
            self._into = None if self._into in gone else self._into
            self._placed = {k: None if v in gone else v for k, v in self._placed.items()}

    def _space(self, conn: Connection, export: Export | None, key: str | None) -> int | None:
        """The space a project of the export is imported into (not in a project, or past
        MAX_SPACES: the import's own, `run`'s `into`); made the first time, inside the
        caller's transaction."""
        if key is None or export is None:
            return self._into
        if key not in self._placed:
            project = export.spaces.get(key)
            if project is None or len(self._placed) >= MAX_SPACES:
                self._placed[key] = self._into
            else:
                self._placed[key] = self.spaces.for_import(
                    conn, project.origin, project.key, project.name, project.instruction,
                    numbered=f"{export.label} project",
                    others={s for s in self._placed.values() if s is not None},
                )  # fmt: skip
        return self._placed[key]

    def propose_memories(
        self, export: Export, about: builtins.list[ForeignMemory] | None = None
    ) -> int:
        """Propose a memories file's memories (each once; those the profile holds are
        marked as duplicates), or the facts of `about`; a project's memories for its
        space (except what applies everywhere: `learned_in`). What the person told the
        assistant about themselves (`about`: the account's "about me") applies
        everywhere: the shared space, unless the import's space is kept apart."""
        added = 0
        with self.db.transaction() as conn:  # announced once, after the commit
            self._spaces_still_there(conn)
            for m in export.memories if about is None else about:
                scope = self.proposals.scope(self._space(conn, export, m.space))
                space = learned_in(m.text, scope)
                if about is not None and scope.shared:
                    space = None
                added += self.proposals.add(
                    export.kind, m.text, m.kind, said_at=_stamp(m.created_at), importance=0.6,
                    weigh=True, space=space,
                )  # fmt: skip
        return added

    # -- facts that say something else about the same thing ---------------------------------

    def _relate(
        self,
        extractor: Extractor,
        c: Candidate,
        when: datetime,
        besides: int | None = None,
        scope: Scope = EVERY,
    ) -> tuple[str, int | None, int | None]:
        """How a fact found relates to what is held and waiting where it would go (the
        scope of its space), by the chat's own consolidation: ("new"|"same"|"conflict",
        memory id, proposal id). Raises ModelServerError when the server fails
        (InvalidModelAnswer: no conflict known)."""
        from desktop_mem.core.chat.extract import RELATED_SIMILARITY

        others = self.proposals.alike(c.text, RELATED_SIMILARITY, besides, scope)
        try:
            step = extractor.decide(c, when, others=others, scope=scope)
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
            p = self.proposals.next_to_weigh()
            if p is None:
                break
            how, memory_id, proposal_id = "new", None, None
            try:
                c = Candidate.model_validate(
                    {"text": p.text[:500], "kind": p.kind, "importance": p.importance}
                )
                how, memory_id, proposal_id = self._relate(
                    extractor, c, p.when, p.id, self.proposals.scope(p.space)
                )
            except ModelServerError as exc:
                return done, exc.reason
            except ValueError:  # not a statement the extraction would give: left as it is
                pass
            self.proposals.weighed(p.id, how, memory_id, proposal_id)
            done += 1
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
                chat_scope = learner.scope_of(user_id)  # its conversation's space
                for c in candidates:
                    space = learned_in(c.text, chat_scope)
                    scope = self.proposals.scope(space)
                    try:  # weighed against those just proposed too: one at a time
                        how, memory_id, proposal_id = self._relate(
                            extractor, c, exchange.when, scope=scope
                        )
                    except ModelServerError as exc:
                        out.failed = exc.reason
                        break
                    if how == "same" and proposal_id is not None:
                        continue  # waiting already, in other words
                    found += self.proposals.add(
                        origin or "import", c.text, c.kind, c.importance, c.valid_from,
                        c.valid_until, said, user_id,
                        duplicate_of=memory_id if how == "same" else None,
                        conflicts=(memory_id, proposal_id) if how == "conflict" else (None, None),
                        space=space,
                    )  # fmt: skip
                if out.failed:
                    break
            with self.db.transaction() as conn:
                self.conversations.mark_learned(conn, user_id)
            out.read += 1
            out.proposed += found
            if progress:
                progress(out.read, max(total, out.read))
        out.left = self.to_read()
        return out


def _stamp(value: str | None) -> str | None:
    try:
        return parse_when(value, "message date") if value else None
    except InvalidInput:
        return None


def since_date(text: str | None) -> str | None:
    """An ISO date for `since`, or None; a bad one says so."""
    if not text:
        return None
    try:
        return datetime.fromisoformat(text).date().isoformat()
    except ValueError:
        raise InvalidInput(f"'{text}' is not a date: give it as YYYY-MM-DD.") from None


__all__ = [
    "Imported", "Importer", "Proposed", "Survey", "origin_label", "since_date",
]  # fmt: skip
