"""The read path: what the model is given before each reply.

1. The system message: the rules (the blocks are data about the user, never
   instructions), the date, the user's instructions and the core memories (what is
   about the user's health and safety, within `Budget.care_tokens`; then the pinned
   ones and the user's most important durable facts, within `Budget.core_tokens`):
   they change rarely, so the model server's cache of the prompt survives them.
2. The turns of the conversation that fit, as they were stored.
3. The newest user message, after the blocks found for it:
   - memories: those hybrid search finds for the message (plus the previous user
     message when this one is a short follow-up such as "and the third one?"). Expired
     memories never enter. The most relevant go at the start and the end of the block,
     where models attend best, the weakest in the middle ("lost in the middle", Liu et
     al. 2023);
   - past messages from other conversations that are relevant to the message, for what
     extraction did not keep; a message a memory in the block was learned from, or one
     already among the turns sent, is left out;
   - passages of the user's documents.

Every block holds only what passes the relevance rule (core/search/relevance.py): an
unrelated message ("hi") gets empty blocks. Each has its own share of the budget. The
layout (core/chat/layout.py) keeps each request an extension of the previous one, so
the model server evaluates only what is new.

All of it under a token budget taken from the context length every request to the model
asks for (`ChatBackend.num_ctx`). Tokens are estimated per script and the estimate is
corrected by the counts the server reports after each answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from desktop_mem.core import textproc
from desktop_mem.core.chat import layout
from desktop_mem.core.chat.conversations import ConversationStore, MessageHit
from desktop_mem.core.chat.layout import (
    NO_MEMORY_PROMPT,
    SYSTEM_PROMPT,
    Turn,
    edges_first,
    memory_line,
    message_line,
    passage_line,
)
from desktop_mem.core.chat.records import IN_EVERY_PROMPT, RecalledMessage, UsedMemory
from desktop_mem.core.memory import records
from desktop_mem.core.memory.about import AboutLine
from desktop_mem.core.memory.spaces import SHARED, Scope
from desktop_mem.core.memory.store import Memory, MemoryStore
from desktop_mem.core.search.hybrid import HybridSearch, SearchResult
from desktop_mem.core.search.phatic import phatic
from desktop_mem.core.search.relevance import is_small_talk
from desktop_mem.core.settings import DEFAULTS

if TYPE_CHECKING:
    from desktop_mem.core.documents.records import PassageHit
    from desktop_mem.core.documents.store import DocumentStore

__all__ = [  # the prompt's texts and lines, importable from here as before
    "NO_MEMORY_PROMPT", "SYSTEM_PROMPT", "Budget", "ContextBuilder", "Plan", "TokenCounter",
    "edges_first", "memory_line", "message_line", "passage_line",
]  # fmt: skip


@dataclass
class Budget:
    """Token limits for one prompt. `context` is the model's context length (capped by
    the user's setting); the answer's reserve comes off it first, and room for the
    tasks asked after the chat (learning, the title: they reuse its cached prompt
    only if they fit in the context with it and the answer)."""

    context: int = 8192
    answer_reserve: int = 1024
    task_reserve: int = 512
    # the memory block at most (measured: README "What the model is given")
    memory_tokens: int = DEFAULTS["memory_tokens"]
    max_memories: int = 20  # found ones, at most (the relevance rule decides how many)
    core_memories: int = 12  # pinned memories at most
    # the core block: the pinned memories, then the most important durable ones while
    # the block stays within this many tokens
    core_tokens: int = 200
    # before them, what is about the user's health and safety (core/memory/care.py), with
    # room of its own: a family's allergies, fears, limits and medications pass 200
    # tokens by themselves (the personal benchmark's family of four holds 12 in 266
    # tokens; benchmarks/data/care's family of six 14), and one cut from the prompt is
    # a promise broken without a word. Past this, the most pressing kind first.
    care_memories: int = 24
    care_tokens: int = 400
    # the "about you" profile (core/chat/about.py writes it within this; the user's own
    # lines first when they have made it longer)
    about_tokens: int = 250
    recall_tokens: int = DEFAULTS["recall_tokens"]  # the past-messages block at most
    max_recalled: int = 12
    document_tokens: int = 400  # the documents block at most
    max_passages: int = 4
    recall_chars: int = 400  # of one past message (its start)

    @property
    def prompt(self) -> int:
        return max(512, self.context - self.answer_reserve - self.task_reserve)


PARTIAL_COUNT = 0.6  # a reported prompt count below this share of the estimate is partial


class TokenCounter:
    """Token estimate: ~1 token per CJK character, ~4 characters per token otherwise,
    plus a few per message. `observe()` corrects it with the server's real counts."""

    def __init__(self) -> None:
        self.ratio = 1.0

    def raw(self, text: str) -> float:
        cjk = textproc.cjk_count(text)
        return cjk * 1.0 + (len(text) - cjk) / 4.0

    def count(self, text: str) -> int:
        return int(self.raw(text) * self.ratio) + 1

    def messages(self, messages: Sequence[dict[str, str]]) -> int:
        return sum(self.count(m["content"]) + 4 for m in messages)

    def observe(self, messages: Sequence[dict[str, str]], actual: int | None) -> None:
        """Fold in the count the server reported for a prompt (moving average). A count
        well below the estimate is left out: servers that reuse a cached prefix may
        report only the tokens they evaluated afresh, which says nothing of the size."""
        estimated = sum(self.raw(m["content"]) + 4 for m in messages)
        if actual and estimated > 50 and actual >= PARTIAL_COUNT * estimated:
            self.ratio = 0.7 * self.ratio + 0.3 * min(3.0, max(0.3, actual / estimated))


@dataclass
class Plan:
    """A prompt ready to send, and what went into it."""

    messages: list[dict[str, str]]
    # what the model was given, in block order, with scores and why: the front ends
    # only format these (they never read the records back)
    used: list[UsedMemory] = field(default_factory=list)  # memories
    recalled: list[RecalledMessage] = field(default_factory=list)  # past messages
    documents: list[PassageHit] = field(default_factory=list)  # passages
    about: list[AboutLine] = field(default_factory=list)  # the profile's lines given
    memory_tokens: int = 0  # both blocks
    history_tokens: int = 0
    prompt_tokens: int = 0
    history_turns: int = 0
    dropped_turns: int = 0
    retrieval_ms: float = 0.0
    warnings: list[str] = field(default_factory=list)
    history_start: int | None = None  # the id of the first history message sent

    @property
    def sent(self) -> str:
        """The newest user message as the model got it (with its blocks)."""
        return self.messages[-1]["content"]

    def still_true(
        self,
        memories: MemoryStore,
        conversations: ConversationStore,
        documents: DocumentStore | None,
    ) -> bool:
        """Whether everything this plan quoted is still there as it was quoted: a
        memory, message or passage deleted or changed since is never sent again."""
        now = {m.id: m.text for m in memories.get_many([u.memory_id for u in self.used])}
        if any(now.get(u.memory_id) != u.text for u in self.used):
            return False
        ids = [r.message_id for r in self.recalled]
        msgs = conversations._plain_messages(ids) if ids else {}
        if len(msgs) != len(set(ids)) or any(m.forgotten for m in msgs.values()):
            return False  # deleted, or kept but left out of every prompt
        chunks = [p.chunk_id for p in self.documents]
        return not chunks or (
            documents is not None and len(documents.passages(chunks)) == len(set(chunks))
        )


FOLLOW_UP_TERMS = 4
# The durable memories every prompt holds, as Letta's core blocks and ChatGPT's saved
# memories do, so that "where do I live?" never depends on a search: facts about the
# user, the people in their life and their standing preferences that the extractor
# rated this important (its scale: 1 = the user would be upset to lose it: health,
# family, strong preferences).
CORE_IMPORTANCE = 0.8
CORE_KINDS = ("fact", "person", "preference")


@dataclass
class Given:
    """A memory chosen for the block: why (records.WHY: "always" and "core" in every
    prompt, "found"
    for this message) and whether as a weaker match (relevance.WEAK, or let in because
    past messages showed the question is about something known)."""

    memory: Memory
    score: float
    why: str = "found"
    weak: bool = False


class ContextBuilder:
    def __init__(
        self,
        store: MemoryStore,
        search: HybridSearch,
        counter: TokenCounter,
        conversations: ConversationStore | None = None,
        documents: DocumentStore | None = None,
    ) -> None:
        self.store = store
        self.search = search
        self.counter = counter
        self.conversations = conversations
        self.documents = documents  # a DocumentStore: the knowledge tier
        # Earlier turns' blocks: "drop" (sent as stored, without them) or "keep" (sent as
        # they were, which the session supplies). Measured in benchmarks/turn_cost.py:
        # see docs/prompt.md for the numbers that chose "drop".
        self.earlier_blocks = "drop"

    def memory_query(self, user_text: str, history: Sequence[Turn]) -> str:
        """The user's message, plus the previous user message when this one is too short
        to search on its own ("and the third one?", "为什么？")."""
        if len(textproc.query_terms(user_text)) >= FOLLOW_UP_TERMS:
            return user_text
        previous = [m["content"] for m in history if m["role"] == "user"]
        return f"{previous[-1]} {user_text}" if previous else user_text

    def select(
        self,
        user_text: str,
        history: Sequence[Turn],
        budget: Budget,
        result: SearchResult | None = None,
        conversation_id: int | None = None,
        profiled: frozenset[int] = frozenset(),
        scope: Scope = SHARED,
    ) -> tuple[list[Given], list[str]]:
        """Core memories, then the best search hits (`result`, or a search now), within
        the block's budget, each with why it is given and whether as a weaker match.

        The core block holds first what is about the user's health and safety
        (core/memory/care.py: an allergy, a medication, a fear, a diet...), within its own
        budget, whatever the message: similarity is not relevance, and for "plan a
        dinner" the allergy is the most relevant fact and not at all similar. Then the
        pinned memories, then the most important durable ones while the core budget
        lasts.

        Small talk ("hi", "thanks!": a message that names nothing it is about) is given
        none of what is about health: nothing it says could need it. Once a turn of the
        conversation has been given it, though, small talk is too, so that the system
        message, and the model server's cache of the prompt, stay as they were.

        Every memory comes from the scope's spaces (core/memory/spaces.py)."""
        if result is None:
            result = self.found(
                self.memory_query(user_text, history), budget, conversation_id, scope
            )
        chosen: list[Given] = []
        spent = 0
        talk = is_small_talk(user_text) and not self._given_always(history)
        for m in [] if talk else self.store.always_given(budget.care_memories, scope):
            cost = self.counter.count(memory_line(m)) + 1
            if spent + cost > budget.care_tokens:
                continue
            chosen.append(Given(m, 1.0, "always"))
            spent += cost
        spent = 0
        seen = {g.memory.id for g in chosen}
        pinned = [m for m in self.store.list(pinned=True, limit=budget.core_memories * 2,
                                             scope=scope)
                  if not m.expired and m.id not in seen][: budget.core_memories]  # fmt: skip
        chosen += [Given(m, 1.0, "core") for m in pinned]
        spent += sum(self.counter.count(memory_line(m)) + 1 for m in pinned)
        seen |= {m.id for m in pinned}
        for m in self.store.durable(CORE_IMPORTANCE, CORE_KINDS, budget.core_memories, scope):
            cost = self.counter.count(memory_line(m)) + 1
            if m.id in seen or m.id in profiled or spent + cost > budget.core_tokens:
                continue
            chosen.append(Given(m, 1.0, "core"))
            seen.add(m.id)
            spent += cost
        for hit in result.hits:
            if hit.memory.id not in seen and scope.holds(hit.memory.space):
                chosen.append(Given(hit.memory, hit.score, "found", hit.weak))
                seen.add(hit.memory.id)
        # What is given for health and safety comes on top of the memory block's budget
        # (within the core block's): it never takes the room of what a message finds.
        spent, kept = 0, []
        for given in chosen:
            if given.why == "always":
                kept.append(given)
                continue
            cost = self.counter.count(memory_line(given.memory)) + 1
            if spent + cost > budget.memory_tokens:
                continue
            kept.append(given)
            spent += cost
        return kept, result.warnings

    def about_given(self, lines: Sequence[AboutLine], budget: Budget) -> list[AboutLine]:
        """The profile's lines that fit its budget, in order (estimated without the
        server's correction, as they were written: the same lines every turn)."""
        plain = TokenCounter()
        out, spent = [], 0
        for line in lines:
            cost = plain.count(f"- {line.text}") + 1
            if spent + cost > budget.about_tokens:
                continue
            out.append(line)
            spent += cost
        return out

    def _given_always(self, history: Sequence[Turn]) -> bool:
        """Whether an answer among these turns was given memories every turn gets for
        the user's health or safety."""
        ids = [m["id"] for m in history if m["role"] == "assistant" and (m.get("id") or 0) > 0]
        if not ids:
            return False
        marks = ",".join("?" * len(ids))
        return bool(
            self.store.db.query(
                f"SELECT 1 FROM message_memories WHERE message_id IN ({marks}) "
                "AND why = 'always' LIMIT 1",
                ids,
            )
        )

    def found(
        self,
        query: str,
        budget: Budget,
        conversation_id: int | None = None,
        scope: Scope = SHARED,
    ) -> SearchResult:
        """The memories relevant to the query, for the memory block, judged as search
        judges them (the conversation being answered holds the query itself: its words
        do not count as known)."""
        return self.search.search(
            query,
            k=budget.max_memories,
            include_expired=False,
            answering=conversation_id,
            scope=scope,
        )

    def past(
        self, query: str, budget: Budget, conversation_id: int | None, scope: Scope = SHARED
    ) -> tuple[list[MessageHit], list[str]]:
        """The earlier messages relevant to the query, for the recall block: from the
        conversations of the scope's spaces."""
        if self.conversations is None or budget.recall_tokens <= 0:
            return [], []
        return self.conversations.search(
            query,
            k=budget.max_recalled * 2,
            exclude_conversation=conversation_id,
            details=False,  # one query for the hits: what their answers used is not needed
            scope=scope,
        )

    def _spoken_for(self, message_ids: list[int], in_block: set[int]) -> set[int]:
        """Which of these messages the memory tier already speaks for, or left out on
        purpose: those of an exchange (a user message and the answer after it) that a
        memory in the block was learned from, or that a memory has outgrown since (it
        expired, or was changed after learning from it). A current memory learned from
        the exchange that the search did not pick does not hide the message: the
        message matched the question on its own."""
        if not message_ids:
            return set()
        marks = ",".join("?" * len(message_ids))
        pairs = self.store.db.query(
            "SELECT m.id, CASE WHEN m.role = 'assistant' THEN (SELECT max(p.id) FROM messages p "
            "WHERE p.conversation_id = m.conversation_id AND p.id < m.id) END "
            f"FROM messages m WHERE m.id IN ({marks})",
            message_ids,
        )
        ids = sorted({i for pair in pairs for i in pair if i is not None})
        marks = ",".join("?" * len(ids))
        rows = self.store.db.query(
            f"SELECT source_message_id, id, valid_until, 0 FROM memories "
            f"WHERE source_message_id IN ({marks}) "
            f"UNION ALL SELECT h.message_id, h.memory_id, m.valid_until, "
            f"h.text <> m.text FROM memory_history h JOIN memories m ON m.id = h.memory_id "
            f"WHERE h.message_id IN ({marks})",
            (*ids, *ids),
        )
        sources = {
            message
            for message, memory, valid_until, outgrown in rows
            if memory in in_block or outgrown or records.is_expired(valid_until)
        }
        return {mid for mid, before in pairs if mid in sources or before in sources}

    def recall(
        self,
        user_text: str,
        history: Sequence[Turn],
        budget: Budget,
        conversation_id: int | None,
        in_block: set[int] | None = None,
        found: tuple[list[MessageHit], list[str]] | None = None,
        scope: Scope = SHARED,
    ) -> tuple[list[MessageHit], list[str]]:
        """Relevant earlier messages from other conversations (`found`, or a search
        now), within the recall block's budget: none the memory tier speaks for
        (`in_block`: the memories in the block), none already among the turns sent."""
        if found is None:
            found = self.past(self.memory_query(user_text, history), budget, conversation_id, scope)
        hits, warnings = found
        learned = self._spoken_for([h.message.id for h in hits], in_block or set())
        sent = {textproc.normalize(m["content"]) for m in history}
        sent.add(textproc.normalize(user_text))
        kept: list[MessageHit] = []
        spent = 0
        for hit in hits:
            msg = hit.message
            if msg.id in learned or textproc.normalize(msg.content) in sent:
                continue
            cost = self.counter.count(message_line(msg, budget.recall_chars)) + 1
            if spent + cost > budget.recall_tokens:
                continue
            kept.append(hit)
            spent += cost
            sent.add(textproc.normalize(msg.content))
            if len(kept) == budget.max_recalled:
                break
        return kept, warnings

    def passages(
        self,
        user_text: str,
        history: Sequence[Turn],
        budget: Budget,
        conversation_id: int | None = None,
        scope: Scope = SHARED,
    ) -> list[PassageHit]:
        """Relevant passages of the user's documents in the scope's spaces, within their
        block's budget."""
        if self.documents is None or budget.document_tokens <= 0:
            return []
        hits = self.documents.search(
            self.memory_query(user_text, history),
            k=budget.max_passages * 2,
            answering=conversation_id,
            scope=scope,
        )
        kept, spent = [], 0
        for hit in hits:
            cost = self.counter.count(passage_line(hit)) + 1
            if spent + cost > budget.document_tokens:
                continue
            kept.append(hit)
            spent += cost
            if len(kept) == budget.max_passages:
                break
        return kept

    def blocks(
        self,
        user_text: str,
        history: Sequence[Turn],
        budget: Budget,
        conversation_id: int | None,
        profiled: frozenset[int] = frozenset(),
        scope: Scope = SHARED,
    ) -> tuple[list[Memory], str, Plan]:
        """Retrieval for one message: the core memories (for the system message), the
        blocks that go with the message, and a plan holding what they gave."""
        plan = Plan(messages=[])
        # Greetings, thanks, agreement and goodbyes ask nothing of memory, and nothing
        # said before answers them: nothing is searched ("take care" is a farewell,
        # whatever memories say of taking care).
        asks = not phatic(user_text)
        query = self.memory_query(user_text, history)
        result = self.found(query, budget, conversation_id, scope) if asks else SearchResult([])
        messages = self.past(query, budget, conversation_id, scope) if asks else ([], [])
        # Unknown words raise each tier's bar until some item clears it (the gate,
        # core/search/relevance.py): they ask whether the profile knows anything about the
        # query. When past messages show the user talked about it, the unknown words
        # do not shut what was learned from those talks either: the memories the
        # gate held back come in. (The other way round, memories opening the recall
        # tier, measured no gain on LoCoMo and more items for questions about other
        # people.)
        if messages[0] and not result.hits:
            result = SearchResult(result.held, result.warnings)
        chosen, warnings = self.select(
            user_text, history, budget, result, profiled=profiled, scope=scope
        )
        core = [g for g in chosen if g.why in IN_EVERY_PROMPT]
        found = edges_first([g for g in chosen if g.why not in IN_EVERY_PROMPT])
        past, more = self.recall(
            user_text, history, budget, conversation_id, {g.memory.id for g in chosen}, messages,
            scope,
        )  # fmt: skip
        plan.warnings = warnings + [w for w in more if w not in warnings]
        parts = [layout.block("memories", [memory_line(g.memory) for g in found], "(none)")]
        quoted = [message_line(h.message, budget.recall_chars) for h in edges_first(past)]
        parts.append(layout.block("past_messages", quoted))
        passages = self.passages(user_text, history, budget, conversation_id, scope) if asks else []
        parts.append(layout.block("documents", [passage_line(p) for p in edges_first(passages)]))
        plan.documents = list(passages)
        plan.used = [
            UsedMemory(g.memory.id, rank, g.score, g.memory.text, g.why, g.weak)
            for rank, g in enumerate(core + found, 1)
        ]
        plan.recalled = [
            RecalledMessage(h.message.id, rank, h.score, h.message.conversation_id,
                            h.message.role, h.message.content, h.message.created_at, h.weak)
            for rank, h in enumerate(past, 1)
        ]  # fmt: skip
        return [g.memory for g in core], "\n".join(p for p in parts if p), plan

    def build(
        self,
        user_text: str,
        history: Sequence[Turn],
        budget: Budget,
        *,
        use_memory: bool = True,
        now: datetime | None = None,
        conversation_id: int | None = None,
        instructions: str = "",
        history_start: int | None = None,
        about: Sequence[AboutLine] = (),
        scope: Scope = SHARED,
    ) -> Plan:
        """The prompt for one turn. `history`: the conversation's earlier messages as
        stored, each with its "id" (a "sent" key, when there is one, is what the model
        got instead). `history_start`: the id of the message the history sent started
        with last turn (the plan's `history_start`). `instructions`: what the user
        wrote about themselves and how to answer (Settings), in every prompt, memory
        on or off. `about`: the "about you" profile's lines (given with memory on, in
        the system message, within `Budget.about_tokens`). `scope`: the spaces the
        conversation sees (core/memory/spaces.py): every block comes from them."""
        import time

        now = now or datetime.now(UTC).astimezone()
        today = now.strftime("%A, %d %B %Y")
        started = time.perf_counter()
        blocks, core = "", list[Memory]()
        given = self.about_given(about, budget) if use_memory else []
        if use_memory:
            profiled = frozenset(m for ln in given for m in ln.cites)
            core, blocks, plan = self.blocks(
                user_text, history, budget, conversation_id, profiled, scope
            )
        else:
            plan = Plan(messages=[])
        plan.retrieval_ms = (time.perf_counter() - started) * 1000
        plan.about = given
        system = layout.system_message(
            today, use_memory, instructions, core, [ln.text for ln in plan.about]
        )
        system_msg = {"role": "system", "content": system}
        user_msg = {"role": "user", "content": layout.with_blocks(blocks, user_text)}
        sent = [{"role": m["role"], "content": m.get("sent") or m["content"]} for m in history]
        fixed = self.counter.messages([system_msg, user_msg])
        room = budget.prompt - fixed
        start = layout.keep_from(
            [
                Turn(role=m["role"], content=m["content"], id=h.get("id"))
                for m, h in zip(sent, history, strict=True)
            ],
            lambda m: self.counter.messages([{"role": m["role"], "content": m["content"]}]),
            room,
            history_start,
        )
        plan.history_start = history[start].get("id") if start < len(history) else None
        turns = sent[start:]
        spent = self.counter.messages(turns)
        if room < 0:
            plan.warnings.append(
                "Your message is longer than the model's context: it will be cut by the "
                "model server; shorten it or choose a model with a longer context."
            )
        plan.messages = [system_msg, *turns, user_msg]
        if use_memory:  # the blocks, and the core memories in the system message
            bare = layout.system_message(today, use_memory, instructions)
            extra = core or plan.about
            core_tokens = self.counter.count(system) - self.counter.count(bare) if extra else 0
            plan.memory_tokens = self.counter.count(blocks) + core_tokens
        plan.history_tokens = spent
        plan.prompt_tokens = fixed + spent
        plan.history_turns = len(turns)
        plan.dropped_turns = len(history) - len(turns)
        return plan
