"""Reading a sentence as its writer meant it (core/memory/care): one kind of space and
apostrophe, traditional Chinese characters as simplified, and the care words people
misspell ("alergic", "pregant") spelt right."""

from __future__ import annotations

import re

# Traditional characters of the words the rules read (我對青黴素過敏, 我懼高), as simplified.
_TRADITIONAL = str.maketrans(
    "過對懼藥懷暈車機開輪聽聾殘礙針癇癲氣黴壓腎臟癥閉醫療從會說時兒發遊飛電貓見頭腦餵"
    "產嬰寶檢齒營養鹽無麩質蝦魚雞堅豬葷齋視輔動記務遠離歲這還經體處劑險飲燒蟲鬆們麼來"
    "個後現沒歡愛賭癮嚴護錯靜劇術悶腳彎擔",
    "过对惧药怀晕车机开轮听聋残碍针痫癫气霉压肾脏症闭医疗从会说时儿发游飞电猫见头脑喂"
    "产婴宝检齿营养盐无麸质虾鱼鸡坚猪荤斋视辅动记务远离岁这还经体处剂险饮烧虫松们么来"
    "个后现没欢爱赌瘾严护错静剧术闷脚弯担",
)


def _words(text: str) -> list[str]:
    return text.split()


# Words the rules read that people misspell ("alergic", "pregant", "hights"): a word one
# letter away (left out, added, changed or two swapped) is read as the word. Real words
# one letter away from one of these are never changed ("weights" is not "heights",
# "meditation" not "medication"): those in a vocabulary of 21,000 English words
# (all-MiniLM's, and LoCoMo's conversations) are listed, and every inflection of the
# words themselves (_forms).
_SPELLED = _words(
    "allergic allergies allergy anaphylactic intolerant intolerance coeliac pregnant "
    "pregnancy breastfeeding diabetes diabetic asthma asthmatic epilepsy epileptic seizures "
    "migraines arthritis vegetarian pescatarian terrified petrified frightened afraid "
    "heights shellfish peanuts peanut medication medications prescription antidepressants "
    "sertraline citalopram fluoxetine escitalopram warfarin penicillin insulin wheelchair "
    "dyslexia dyslexic alcoholic addiction addicted seasick carsick claustrophobic phobia "
    "recovering anxiety sesame lactose"
)
_REAL_WORDS = frozenset(
    _words(
        "addition additions addaction alcoholics allergen allergens allergist heighten "
        "heightens height weights eights recovery recoveries medicated medicine mediation "
        "meditation fainting painting anxious pregnancies diabetics asthmatics epileptics "
        "seizure migraine vegetarians phobias phobic frighten frightens seamen"
    )
)


def _forms(word: str) -> set[str]:
    """A word's inflections ("terrified": "terrifies", "terrify"), which are words too and
    never read as its misspellings."""
    stems = {word}
    for end, alike in (("ied", "y"), ("ies", "y"), ("ed", ""), ("ing", ""), ("s", ""), ("y", "")):
        if word.endswith(end):
            stems.add(word[: -len(end)] + alike)
    forms = set(stems)
    for stem in stems:
        forms |= {stem + "s", stem + "es", stem + "ed", stem + "ing", stem + "ly"}
        if stem.endswith("y"):
            forms |= {stem[:-1] + "ies", stem[:-1] + "ied", stem + "ing"}
    return forms


def _deletes(word: str) -> set[str]:
    return {word[:i] + word[i + 1 :] for i in range(len(word))}


def _misspellings() -> dict[str, str]:
    known: dict[str, str] = {}
    for word in _SPELLED:
        for variant in _deletes(word):
            known.setdefault(variant, word)
    return known


_MISSPELT = _misspellings()
_CANON = frozenset(_SPELLED)
_KNOWN = _REAL_WORDS.union(*map(_forms, _SPELLED)) - _CANON
_LETTERS = re.compile(r"[A-Za-z]{5,}")
_HAN = re.compile(r"[\u4e00-\u9fff]")


def _respelled(word: str) -> str:
    """The care word a misspelt word stands for, or the word as it is."""
    low = word.lower()
    if low in _CANON or low in _KNOWN:
        return word
    hit = _MISSPELT.get(low)  # a letter left out ("alergic")
    if hit is None:
        for variant in _deletes(low):
            # a letter added ("allergiic"), or changed or two swapped ("afriad")
            hit = variant if variant in _CANON else _MISSPELT.get(variant)
            if hit is not None:
                break
    if hit is None or hit[0] != low[0]:  # people rarely miss a word's first letter
        return word
    return hit


_SEEN: dict[str, str] = {}  # word -> as read, for the words met so far


def plain_text(text: str) -> str:
    """The sentence with one kind of space and apostrophe, simplified characters and
    care words spelt right."""
    text = " ".join(text.replace("\u2019", "'").replace("\u2018", "'").split())
    if _HAN.search(text):
        text = text.translate(_TRADITIONAL)
    fixes: dict[str, str] = {}
    for word in _LETTERS.findall(text):
        read = _SEEN.get(word)
        if read is None:
            if len(_SEEN) > 100_000:  # an import of a lifetime's words stays bounded
                _SEEN.clear()
            read = _SEEN[word] = _respelled(word)
        if read != word:
            fixes[word] = read
    if fixes:
        text = _LETTERS.sub(lambda m: fixes.get(m.group(), m.group()), text)
    return text
