"""What a message asks, without the frame it is asked in.

People write to an assistant in requests and several sentences, not in search
queries: "Can you suggest a snack? Maybe something with peanut butter?", "Quick
question before I go: what's my daily medication again? Thanks!", "快递要填地址，我现在住在
哪儿来着？". The frame ("can you", "quick question", "thanks", "来着") is about talking
to an assistant, and it brings the whole message nearer the reference's requests and
small talk, the decoys that say a message is not about the store, while it dilutes
what the message asks: the allergy that the bare "suggest a snack with peanut butter"
finds at 8.5 deviations stood at 6.9 framed, under the request decoy.

`parts()` gives each asking part of a message (a question, a request) on its own and
without its frame, and the ask without a trailing phrase of time ("in the morning",
"for next week"), which narrows a question beyond what a memory says. Each part is
judged by the relevance rule as a query of its own, and an item relevant to one part is
relevant to the message. Sentences that only set the scene ("I'm at the shops.") are
not parts: they are judged with the whole message, never alone, so that a framed
question about something never mentioned does not find the scene's words.
"""

from __future__ import annotations

import re

from desktop_mem.core import textproc

MAX_PARTS = 4  # asking parts judged on their own, besides the whole message

# A sentence ends at ? ! and their Chinese forms, or at . ; : before a space, though
# not after a title or an initial ("Dr. Seuss", "J. K. Rowling").
_SENTENCE_END = re.compile(
    r"(?<=[?!。？！])\s*|(?<=[.;:])(?<!\b[A-Z]\.)(?<!\b(?:Dr|Mr|Ms|St|Jr|Sr|vs)\.)"
    r"(?<!\bMrs\.)(?<!\bProf\.)\s+|\n+"
)
# A clause boundary: a comma between two clauses of one sentence.
_ZH_CLAUSE = re.compile(r"[，,；;]")
# An English sentence is split at a comma only before a clause that asks something of
# its own ("Can I have dairy, or should I skip the cheese?"), never in a list, a date
# ("11 December, 2023") or an aside ("John's colleague, Rob, invited him").
_EN_CLAUSE = re.compile(
    r",\s+(?=(?:(?:and|or|but|so)\s+)?(?:what|which|who|where|when|why|how|is|are|am|do|does|"
    r"did|can|could|would|will|should|shall)\b)",
    re.IGNORECASE,
)

# The frame at the start of an English sentence: greetings, fillers and the ways a
# request is put to someone. Stripped again and again ("so, could you please tell me").
_EN_LEAD = re.compile(
    r"^(?:"
    r"(?:hey|hi|hello|ok|okay|so|well|um|uh|oh|right|sorry|btw|by the way|anyway|also|"
    r"and|or|but|just|honestly|actually|quick question|one more thing|silly question)\b[,:!.]?"
    r"|would you mind(?: (?:telling|reminding|checking|helping)(?: me)?)?\b"
    r"|(?:can|could|would|will) you(?: please)?(?: (?:just|quickly|maybe))?"
    r"(?: (?:tell|remind|show|give|let) me(?: (?:know|again))?| (?:check|say|find out|look up|"
    r"work out|figure out|help me(?: with)?))?(?: (?:if|whether|about|of|on))?\b"
    r"|(?:do|did) you (?:know|remember|recall)(?: (?:if|whether))?\b"
    r"|i (?:was|am|'m) (?:just )?wondering(?: (?:if|whether|about))?\b|i wonder(?: if| whether)?\b"
    r"|(?:can|could|may) i ask(?: you)?\b|(?:please|pls|kindly)\b"
    r"|(?:tell|remind|show) me(?: again)?(?: (?:about|of|if|whether))?\b|let me know\b"
    r"|(?:maybe|perhaps|possibly|ideally|preferably)\b"
    r"|any (?:idea|ideas|suggestions|thoughts)(?: (?:for|on|about))?\b"
    r"|i(?:'d| would) like(?: to know)?\b|i need to know\b|i want to know\b"
    r")[\s,:]*",
    re.IGNORECASE,
)
# What follows the ask at the end of an English sentence: thanks, "again", "please".
_EN_TAIL = re.compile(
    r"[\s,]*(?:\b(?:please|thanks|thank you|cheers|again|remind me|if you can|if possible|"
    r"by any chance|right|for me)\b|[?!.…]+)+$",
    re.IGNORECASE,
)
# A trailing phrase of time: it narrows the question beyond what a memory says
# ("what do I drink in the morning?": the memory is "I prefer green tea").
# A trailing phrase of time: it narrows the question beyond what a memory says ("what
# do I drink in the morning?": the memory is "I prefer green tea"). Only a part of the
# day or a time relative to now, led by a preposition or "this/next/last": a named
# date ("on 11 December") or a season is what the question is about.
_EN_WHEN = re.compile(
    r"\s+(?:(?:in|at|during|for|on)\s+(?:the\s+)?(?:mornings?|afternoons?|evenings?|"
    r"nights?|weekends?|day|daytime)|at\s+(?:night|bedtime|the\s+moment)|"
    r"(?:this|next|last|every|each)\s+(?:morning|afternoon|evening|night|week|weekend|"
    r"month|year|day)|(?:for|by)\s+(?:next|this)\s+(?:week|weekend|month)|tonight|today|"
    r"tomorrow|later|these\s+days|nowadays|right\s+now|now)$",
    re.IGNORECASE,
)
_ZH_LEAD = re.compile(
    r"^(?:请问|请你|请|麻烦你?|劳驾|帮我|帮忙|能不能帮我|你能不能|你能否|你可以|你能|能不能|"
    r"可不可以|可以|我想知道|我想问(?:一下)?|想问(?:一下)?|问一下|问你|顺便问一下|对了|那个|嗯+|哦+|"
    r"好的|快问|先问一下哈?|也许|或许|告诉我|提醒我|你知道|你记得|你觉得|你看|你?帮我想想|一下|(?:帮我)?(?:查|看)(?:一下|看))[，,：:\s]*"
)
_ZH_TAIL = re.compile(r"(?:来着|谢谢你?|多谢|哈|啦|吧|呢|呀|啊|[?？!！。…~～\s])+$")
# Chinese time words: taken out anywhere (the question is still the question without them)
_ZH_WHEN = re.compile(
    r"(?:今天|明天|后天|昨天|今晚|明晚|早上|上午|中午|下午|晚上|平时|平常|每天|周末|这周|下周|上周|"
    r"这个月|下个月|上个月|今年|明年|去年|最近|现在)"
)

# A clause asks something: a question, or a request put to the assistant. An English
# one says so by its first word once its frame is gone (or by its question mark, when
# it is a sentence of its own); a Chinese one by a question word or particle anywhere,
# an "A不A" question (重不重), or a request's first word.
_EN_ASKS = re.compile(
    r"^(?:what|which|who|whom|whose|where|when|why|how|is|are|am|was|were|do|does|did|"
    r"can|could|would|will|should|shall|have|has|may|might|any|suggest|recommend|plan|"
    r"tell|remind|give|find|book|list|help|pick|choose|name|write|make|show|explain)\b",
    re.IGNORECASE,
)
_ZH_ASKS = re.compile(
    r"[?？]|吗|什么|哪|谁|几|多少|怎么|怎样|为什么|是否|没有$|([^\W\d_])不\1|"
    r"^(?:请|麻烦|推荐|建议|帮我|给我|安排|提醒)"
)


def _strip_en(sentence: str) -> str:
    text = sentence.strip()
    for _ in range(4):
        shorter = _EN_LEAD.sub("", text, count=1).strip()
        if shorter == text:
            break
        text = shorter
    return _EN_TAIL.sub("", text).strip()


def _strip_zh(sentence: str) -> str:
    text = sentence.strip()
    for _ in range(3):
        shorter = _ZH_LEAD.sub("", text, count=1).strip()
        if shorter == text:
            break
        text = shorter
    return _ZH_TAIL.sub("", text).strip()


def clauses(text: str) -> list[tuple[str, bool, bool]]:
    """The message's clauses (split at sentence ends and commas), each with whether
    it is a whole sentence of its own and whether its sentence ends in a question mark."""
    out: list[tuple[str, bool, bool]] = []
    for piece in _SENTENCE_END.split(text):
        piece = piece.strip()
        if not piece:
            continue
        question = piece.rstrip("!.…~～ ").endswith(("?", "？"))
        split = (_ZH_CLAUSE if textproc.has_cjk(piece) else _EN_CLAUSE).split(piece)
        found = [c.strip() for c in split if c.strip()]
        out += [(c, len(found) == 1, question) for c in found]
    return out


def _asking(clause: str, alone: bool, question: bool) -> str | None:
    """The clause without its frame, if it asks something, written as a question or
    request is (a capital, and the question mark of the sentence it ends): embedding
    models read "do I have any tattoos" nearer statements than "Do I have any tattoos?"."""
    if textproc.has_cjk(clause):
        core = _strip_zh(clause)
        if not core or not _ZH_ASKS.search(clause.strip()):
            return None
        return core + "？" if question else core
    core = _strip_en(clause)
    if not core or not (_EN_ASKS.search(core) or (alone and question)):
        return None
    core = core[0].upper() + core[1:]
    return core + "?" if question else core


def _without_when(part: str, cjk: bool) -> str:
    mark = part[-1] if part[-1] in "?？" else ""
    bare = part.rstrip("?？")
    if cjk:
        return _ZH_WHEN.sub("", bare).strip() + mark
    match = _EN_WHEN.search(bare)
    if match is None:
        return part
    return bare[: match.start()].strip() + mark


def sets_a_scene(message: str) -> bool:
    """Whether the message says something besides what it asks ("I'm at the shops.
    What do I need?"): a clause with words of its own that asks nothing."""
    whole = textproc.normalize(message)
    return any(
        _asking(clause, alone, question) is None and _says_something(clause)
        for clause, alone, question in clauses(whole)
    )


def parts(message: str) -> list[str]:
    """The asking parts of a message, each without its frame, and each without a
    trailing phrase of time, that differ from the whole message: what the relevance
    rule judges besides the message itself. A bare question ("what do I drink?") has
    none; at most `MAX_PARTS`."""
    whole = textproc.normalize(message)
    if not whole:
        return []
    found: list[str] = []
    for clause, alone, question in clauses(whole):
        core = _asking(clause, alone, question)
        if core is None:
            continue
        for part in (core, _without_when(core, textproc.has_cjk(core))):
            if part not in found and _says_something(part):
                found.append(part)
    key = _key(whole)
    return [p for p in found if _key(p) != key][:MAX_PARTS]


def _says_something(part: str) -> bool:
    """Whether a part holds a word that is not a stop word ("Something?" does not)."""
    return any(t not in textproc.STOPWORDS for t in textproc.query_terms(part))


def _key(text: str) -> str:
    """What a part and the message are compared by: their words, not their punctuation."""
    return " ".join(re.findall(r"\w+", text.lower()))
