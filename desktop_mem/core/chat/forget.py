"""What the chat's "forget …" finds: every memory and earlier message that says it, not
the few a search for an answer would give (it stopped at 5 memories and 30 messages,
said "Deleted 5 memories", and the rest reached the next prompt).

Two ways in, joined: search by meaning (the relevance rule, up to a page of PAGE), and
every memory and message whose words hold all the words of what is to be forgotten
(full text, no limit). At most PAGE of each are offered at once; how many more there
are is said, and a "forget …" said again after the deletion finds them. After a forget,
what still mentions it (unticked, kept to read, beyond the page) is counted and said;
and a conversation title made from what was forgotten goes with it.

A memory can say more than what is forgotten (the model merged "lives in Lisbon" and
"has a peanut allergy" into one): the rest of it is proposed to keep (`rest_of`), and a
part about the user's health or safety (core/memory/care/) is never left out of it
unless the forget names such a fact itself. Kept, the rest is a new memory and the old
one is purged, with its versions: an edit would keep the forgotten words in its history.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from desktop_mem.core import textproc
from desktop_mem.core.chat.conversations import Message
from desktop_mem.core.db.database import id_chunks
from desktop_mem.core.memory import care
from desktop_mem.core.memory.records import NewMemory
from desktop_mem.core.memory.spaces import EVERY, Scope
from desktop_mem.core.memory.store import Memory

if TYPE_CHECKING:
    from desktop_mem.core.chat.stores import Stores
    from desktop_mem.core.db.database import Database

PAGE = 500  # memories, and messages, offered by one "forget …"
MIN_SCORE = 0.35  # a search hit this good is offered


class Forgotten(NamedTuple):
    """What a "forget ..." did: memories and messages deleted, messages kept but left
    out of every prompt; and what still says it (unticked, or beyond the page offered)."""

    memories: int
    messages: int
    kept: int = 0
    memories_left: int = 0
    messages_left: int = 0
    rests: int = 0  # memories of which the rest was kept (a new, shorter memory each)


@dataclass
class Found:
    memories: list[Memory] = field(default_factory=list)
    messages: list[Message] = field(default_factory=list)
    more_memories: int = 0  # beyond the page: found by a "forget …" said again
    more_messages: int = 0
    # by memory id: what it says besides what is forgotten, proposed to keep (rest_of)
    rests: dict[int, str] = field(default_factory=dict)


# Where a memory's statements part: punctuation, and the words that join two of them.
_PARTS = re.compile(
    r"\s*[;；。，、]\s*(?:and\s+|but\s+|also\s+)?|\s*,\s*(?:and\s+|but\s+|also\s+)?"
    r"|\s+(?:and|but|also|while|plus)\s+|(?:并且|而且|另外|还有|同时)",
    re.IGNORECASE,
)


def rest_of(memory_text: str, what: str) -> str | None:
    """What a memory says besides `what`, to keep: its parts that do not speak of it
    (each part a statement between commas, "and", "；"…), joined again; None when every
    part is about it. A part about the user's health or safety stays in the rest unless
    `what` speaks of such a fact (care.names_care: "peanuts", "my allergy"): forgetting
    where one lives never drops an allergy. A
    memory that cannot be parted but holds such a fact is proposed whole, to be edited
    down by the user."""
    parts = [p.strip(" .。") for p in _PARTS.split(memory_text) if p and p.strip(" .。")]
    forgets_care = care.recognise(what) is not None or care.names_care(what)
    rest = [
        p
        for p in parts
        if not textproc.matched_spans(p, what)
        or (not forgets_care and care.recognise(p) is not None)
    ]
    if len(rest) == len(parts):  # nothing parted off (one statement, or words elsewhere)
        if not forgets_care and care.recognise(memory_text) is not None:
            return memory_text
        return None
    if not rest:
        return None
    zh = textproc.has_cjk(memory_text)
    joined = ("，" if zh else ", ").join(rest)
    who = _SUBJECT.match(parts[0])
    if who and rest[0] is not parts[0] and not _SUBJECT.match(rest[0]):
        joined = who.group(0) + joined  # "The user … and is allergic": "The user is …"
    end = "。" if zh else "."
    return joined[0].upper() + joined[1:] + end * memory_text.rstrip().endswith(end)


_SUBJECT = re.compile(r"(?:the user|user|i)\s+(?=\w)", re.IGNORECASE)


def _all_words(text: str) -> str | None:
    """An FTS5 expression that holds when every word of `text` is there (each quoted:
    what the user typed is never FTS5 syntax)."""
    terms = textproc.query_terms(text)
    if not terms:
        return None
    parts = []
    for term in terms:
        quoted = '"' + term.replace('"', '""') + '"'
        parts.append(quoted + "*" if len(term) == 1 and textproc.has_cjk(term) else quoted)
    return " AND ".join(parts)


def _by_words(db: Database, table: str, text: str) -> list[int]:
    match = _all_words(text)
    if match is None:
        return []
    rows = db.query(
        f"SELECT rowid FROM {table} WHERE {table} MATCH ? ORDER BY rowid DESC", (match,)
    )
    return [int(r[0]) for r in rows]


def _joined(first: Iterable[int], then: Iterable[int], leave_out: set[int]) -> list[int]:
    return [i for i in dict.fromkeys([*first, *then]) if i not in leave_out]


def memory_ids(profile: Stores, text: str) -> list[int]:
    """Every memory about `text`: the search's hits first (best first), then every one
    holding all its words (newest first). Every space's: forgetting reaches them all."""
    hits = profile.search.search(text, k=PAGE, scope=EVERY).hits
    meant = [h.memory.id for h in hits if h.score >= MIN_SCORE]
    return _joined(meant, _by_words(profile.db, "memories_fts", text), set())


def message_ids(profile: Stores, text: str, leave_out: Sequence[int] = ()) -> list[int]:
    """Every earlier message about `text` still in the prompts (not one left out of them
    before), but `leave_out` (the "forget …" and its answer)."""
    found, _ = profile.conversations.search(text, k=PAGE, details=False, scope=EVERY)
    meant = [h.message.id for h in found]
    words = _by_words(profile.db, "messages_fts", text)  # forgotten ones are not indexed
    return _joined(meant, words, set(leave_out))


def find(
    profile: Stores, text: str, leave_out: Sequence[int] = (), scope: Scope | None = None
) -> Found:
    """What "forget <text>" would forget, in every space: what the chat's own spaces
    hold first (`scope`: the spaces a chat in its space sees), then the others'."""
    mids = memory_ids(profile, text)
    msgs = message_ids(profile, text, leave_out)
    if scope is not None and not scope.every:
        mids = _own_first(profile, mids, scope, "memories")
        msgs = _own_first(profile, msgs, scope, "messages")
    messages = []
    for mid in msgs[:PAGE]:
        messages.append(profile.conversations.message(mid))
    memories = profile.memories.get_many(mids[:PAGE])
    rests = {m.id: r for m in memories if (r := rest_of(m.text, text)) is not None}
    return Found(
        memories,
        messages,
        max(0, len(mids) - PAGE),
        max(0, len(msgs) - PAGE),
        rests,
    )


def _own_first(profile: Stores, ids: list[int], scope: Scope, table: str) -> list[int]:
    """`ids` with those in the scope's spaces first, each part in its order."""
    if not ids:
        return ids
    column = "space_id" if table == "memories" else "c.space_id"
    source = (
        "memories" if table == "memories"
        else "messages m JOIN conversations c ON c.id = m.conversation_id"
    )  # fmt: skip
    key = "id" if table == "memories" else "m.id"
    condition, params = scope.where(column)
    own: set[int] = set()
    for chunk, marks in id_chunks(ids):
        own |= {
            int(r[0])
            for r in profile.db.query(
                f"SELECT {key} FROM {source} WHERE {key} IN ({marks}) AND {condition}",
                (*chunk, *params),
            )
        }
    return [i for i in ids if i in own] + [i for i in ids if i not in own]


def still_said(profile: Stores, text: str, leave_out: Sequence[int] = ()) -> tuple[int, int]:
    """How many memories and earlier messages (in the prompts) still hold it."""
    return len(memory_ids(profile, text)), len(message_ids(profile, text, leave_out))


def retitle(conversations: Any, text: str, touched: Iterable[int], gone: Sequence[int]) -> int:
    """Conversations whose title was made from what was just forgotten lose it: a title
    holding a word of `text`, or (a model's) made from a first message now deleted or left
    out of the prompts (`gone`). Checked in the conversations `touched`. Returns how many."""
    words = set(textproc.query_terms(text))
    gone_ids = set(gone)
    cleared = 0
    for cid in dict.fromkeys(touched):
        rows = conversations.db.query(
            "SELECT title, title_source, (SELECT min(id) FROM messages WHERE conversation_id = "
            "c.id AND role = 'user') FROM conversations c WHERE c.id = ?",
            (cid,),
        )
        if not rows or not rows[0][0]:
            continue
        title, source, first = rows[0]
        from_words = bool(words & set(textproc.query_terms(title)))
        from_gone = source != "user" and (first is None or first in gone_ids)
        if from_words or from_gone:
            conversations.clear_title(cid)
            cleared += 1
    return cleared


def drop_emptied(conversations: Any, touched: Iterable[int], keep: int | None) -> int:
    """Conversations the forget left without a message go too (but `keep`, the one the
    chat is in). Returns how many."""
    dropped = 0
    for cid in dict.fromkeys(touched):
        if cid == keep:
            continue
        rows = conversations.db.query(
            "SELECT count(*) FROM messages WHERE conversation_id = ?", (cid,)
        )
        if rows and rows[0][0] == 0:
            conversations.delete(cid)
            dropped += 1
    return dropped


def carry_out(
    profile: Stores,
    memory_ids: Sequence[int],
    message_ids: Sequence[int],
    keep: Sequence[int],
    command: Sequence[int],
    what: str,
    conversation_id: int | None,
    rests: Mapping[int, str] | None = None,
) -> Forgotten:
    """What the user chose after a "forget …": delete memories and earlier messages
    (with the context they lent to memories); the earlier messages the user keeps
    (`keep`) stay to read but are left out of every prompt, and so are the command and
    its answer (`command`), which say the same thing. A conversation the forget leaves
    empty goes, a title made of what was forgotten goes with it, and what still says it
    is counted. `rests`: of a memory deleted, the rest the user keeps (rest_of), stored
    as a new memory with the old one's kind, importance, pin and dates."""
    memories, conversations = profile.memories, profile.conversations
    rests = rests or {}
    # a rest that is the whole memory (one the user did not edit down) keeps it as it is
    found = [
        m for m in memories.get_many(list(memory_ids)) if (rests.get(m.id) or "").strip() != m.text
    ]
    existing = [m.id for m in found]
    touched = _conversations_of(conversations, [*message_ids, *keep])
    n = memories.delete(existing) if existing else 0
    kept_rests = _keep_rests(memories, found, rests)
    m = conversations.delete_messages(message_ids, memories)
    kept = [i for i in keep if i not in set(message_ids)]
    k = conversations.exclude_messages(kept, memories)
    left = (0, 0)
    if n or m or k:
        conversations.exclude_messages(command, memories)
        if conversation_id is not None:
            touched.append(conversation_id)
        gone = [*message_ids, *kept, *command]
        drop_emptied(conversations, touched, conversation_id)
        if what:
            retitle(conversations, what, touched, gone)
            left = still_said(profile, what, command)
        profile.db.checkpoint()  # the old title's page too
    return Forgotten(n, m, k, *left, rests=kept_rests)


def _keep_rests(memories: Any, deleted: Sequence[Memory], rests: Mapping[int, str]) -> int:
    kept = 0
    for old in deleted:
        text = (rests.get(old.id) or "").strip()
        if not text:
            continue
        memories.add(
            NewMemory(
                text,
                kind=old.kind,
                importance=old.importance,
                pinned=old.pinned,
                source="user",
                valid_from=old.valid_from,
                valid_until=old.valid_until,
                always=True if old.always and old.care == "asked" else None,
                space=old.space,  # what is kept of it stays where it was
            ),
            actor="user",
        )
        kept += 1
    return kept


def _conversations_of(conversations: Any, message_ids: Sequence[int]) -> list[int]:
    from desktop_mem.core.errors import DesktopMemError

    found: list[int] = []
    for mid in message_ids:
        try:
            found.append(conversations.message(mid).conversation_id)
        except DesktopMemError:
            continue
    return found
