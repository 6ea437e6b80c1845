"""Messages that ask nothing: greetings, thanks, agreement, reactions, goodbyes.

"take care", "wow", "I appreciate it", "no worries", "谢啦": a message made only of the
formulas people use to keep a conversation going asks nothing of memory, and nothing
the user said before helps answer it. Yet their words are in what people say about
their lives ("Mel takes care of her kids", "Wow, that's a great photo!"), and an
embedding model puts "take care" nearest such memories, further from the reference's
small talk than from them: the relevance rule, which judges meaning, cannot tell a
farewell from a topic. These formulas are a closed class of the language, like stop
words: `phatic()` tells them by their form, whatever the store holds, and the read path
searches nothing for such a message.

A message is phatic when every part of it is such a formula, with the words that
only address someone or strengthen a formula ("cheers mate", "thanks so much again").
One word of anything else makes it a message about something: "thanks! what's my
sister's name?", "take care of the dentist reminder", "I'm not feeling great".
"""

from __future__ import annotations

import re
import unicodedata

from desktop_mem.core import textproc

# English formulas, matched as whole words from the start of what is left of the
# message (longest first), with or without their apostrophes.
_EN_FORMULAS = (
    # greetings
    "hi", "hello", "hey", "heya", "hiya", "yo", "howdy", "greetings", "sup", "wassup",
    "what's up", "whats good", "good morning", "morning", "mornin", "good afternoon",
    "afternoon", "good evening", "evening", "good day", "gm", "hey there", "hi there",
    "hello there", "how are you", "how are you doing", "how r u", "how are u",
    "how's it going", "how's everything", "how are things", "how have you been",
    "how you doing", "how's your day", "how's your day going", "how is your day going",
    "hope you're well", "hope you are well", "hope you're doing well",
    "hope you are doing well", "nice to meet you", "long time no see", "i'm back",
    "welcome back", "are you there", "you there",
    # thanks and praise of the answer
    "thanks", "thank you", "thank u", "thankyou", "thx", "thnx", "thanx", "ty", "tysm",
    "tyvm", "cheers", "many thanks", "much appreciated", "appreciated", "i appreciate it",
    "i appreciate that", "i appreciate you", "i appreciate your help", "appreciate it",
    "appreciate that", "thanks a lot", "thanks a bunch", "thanks a million",
    "that's very kind", "that's kind of you", "that's so kind", "how kind",
    "you're the best", "you are the best", "you're a star", "you're a lifesaver",
    "lifesaver", "you rock", "that helps", "that helped", "that really helps",
    "that really helped", "that's helpful", "that was helpful", "that's very helpful",
    "very helpful", "super helpful", "so helpful", "helpful", "great help", "big help",
    "that's what i needed", "just what i needed", "for your help", "for the help",
    "for helping", "for helping me", "for that", "for this", "for everything",
    "for the info", "for the information", "for the advice", "for the tip",
    "for the tips", "for the suggestion", "for the suggestions", "for the answer",
    "for the explanation", "for the reminder", "for your time",
    # agreement and acknowledgement
    "ok", "okay", "k", "kk", "okie", "okey", "oki", "alright", "alrighty", "all right",
    "sure", "sure thing", "for sure", "got it", "gotcha", "understood", "noted", "i see",
    "i understand", "makes sense", "that makes sense", "fair enough", "good to know",
    "nice to know", "right", "yes", "yeah", "yea", "yep", "yup", "ya", "no", "nope", "nah",
    "of course", "absolutely", "exactly", "indeed", "agreed", "true", "totally",
    "definitely", "sounds good", "sounds great", "sounds perfect", "sounds like a plan",
    "perfect", "great", "cool", "nice", "awesome", "amazing", "excellent", "wonderful",
    "fantastic", "brilliant", "lovely", "neat", "sweet", "fine", "fine by me",
    "works for me", "that works", "no problem", "no prob", "np", "no worries",
    "never mind", "nevermind", "nvm", "all good", "it's all good", "that's all",
    "that's it", "that's all for now", "that's all for today", "nothing else",
    "no thanks", "no thank you", "will do", "let's do it", "deal", "good", "very good",
    "good one", "nice one", "well done", "good job", "great job", "great answer",
    "good answer", "good point", "interesting", "i'm good", "i'm fine", "i'm ok",
    "i'm okay", "i'm great", "doing well", "doing good", "not bad", "and you",
    "you too", "same to you", "likewise", "you're welcome", "welcome",
    "thanks a ton", "appreciate all your help", "all your help", "your help",
    "with this", "with that", "i agree", "agree", "me too", "so true", "i think so",
    "i don't think so", "i guess", "i guess so", "i know", "i knew it", "love it",
    "love that", "i love it", "i love that",
    "ta", "thanks heaps", "heaps", "legend", "g'day", "fair", "haha fair",
    "nice explanation", "good explanation", "great explanation", "love the explanation",
    "didn't see that coming", "thanks for your patience", "for your patience",
    # apologies for a delay, and coming back
    "sorry", "sorry for the late reply", "sorry for the delay", "sorry for the wait",
    "sorry i was away", "sorry i was busy", "was afk", "afk", "was afk for a bit",
    "for a bit", "brb", "be right back", "back", "i'm back now", "still there",
    # reactions
    "oh", "ah", "aha", "ahh", "ooh", "hmm", "hm", "mm", "mhm", "uh huh", "wow", "whoa",
    "woah", "omg", "lol", "lmao", "rofl", "haha", "hahaha", "hehe", "heh", "yay", "oops",
    "ugh", "meh", "damn", "dang", "oh well", "oh no", "phew", "bravo",
    # goodbyes
    "bye", "bye bye", "byebye", "goodbye", "good bye", "bye for now", "see you",
    "see ya", "see u", "cya", "see you later", "see you soon", "see you tomorrow",
    "see you around", "later", "laters", "catch you later", "talk later", "talk soon",
    "talk to you", "talk to you later", "talk to you soon", "ttyl", "take care", "have a good day",
    "have a nice day", "have a great day", "have a good one", "have a good night",
    "have a nice night", "have a good evening", "have a nice evening",
    "have a good weekend", "have a nice weekend", "have a great weekend",
    "enjoy your day", "good night", "goodnight", "night", "nighty night", "gn",
    "sleep well", "sweet dreams", "until next time", "gotta go", "got to go",
    "i have to go", "i gotta go", "i'm off",
)  # fmt: skip
# "that's super helpful", "this is exactly what I needed", "it was hilarious": a remark
# on the answer, not a message about something.
_EN_REMARK = (
    r"(?:that|this|it|that one)(?:'s| is| was)?(?: (?:super|really|so|very|quite|pretty|exactly|"
    r"just|totally|absolutely))*(?: (?:helpful|useful|funny|hilarious|great|perfect|"
    r"amazing|awesome|cool|nice|interesting|good|kind|fair|true|right|correct|fine|"
    r"brilliant|lovely|clear|exactly what i needed|what i needed|what i was thinking|"
    r"exactly what i was thinking|it|all))+"
)
# Words that only address someone, strengthen a formula or say when ("cheers mate",
# "thanks so much again", "how are you today?"): part of a phatic message, never one
# by themselves ("again?" and "tomorrow?" are follow-up questions).
_EN_FILLERS = (
    "mate", "buddy", "dude", "bro", "man", "pal", "friend", "my friend", "guys",
    "everyone", "so", "very", "really", "much", "so much", "very much", "a lot", "too",
    "as well", "then", "anyway", "again", "just", "honestly", "tbh", "seriously", "to me", "to you", "for now",
    "today", "tonight", "tomorrow", "this morning", "this evening", "for today",
)  # fmt: skip
# Chinese formulas, taken out wherever they stand (Chinese has no spaces), longest first,
# then the particles that carry a tone and never a topic.
_ZH_FORMULAS = (
    "你好", "您好", "你好吗", "嗨", "哈喽", "哈啰", "嘿", "喂", "早", "早安", "早上好", "上午好",
    "中午好", "午安", "下午好", "晚上好", "晚安", "大家好", "在吗", "在不在", "我回来了",
    "谢谢", "谢谢你", "谢谢您", "谢啦", "谢了", "多谢", "感谢", "感谢你", "非常感谢", "太感谢了",
    "十分感谢", "万分感谢", "辛苦了", "辛苦", "麻烦了", "好的", "好", "好嘞", "好滴", "好哒",
    "好吧", "行", "行吧", "可以", "可以的", "收到", "明白", "明白了", "我明白了", "知道了",
    "我知道了", "懂了", "我懂了", "了解", "了解了", "没问题", "没事", "没事儿", "没关系", "不客气",
    "不用谢", "客气了", "对", "对的", "是的", "是", "不用了", "不用", "算了", "拜拜", "再见",
    "回见", "回头见", "明天见", "下次见", "改天见", "先这样", "就这样", "就这些", "没了",
    "没有了", "哈哈", "呵呵", "嘿嘿", "嘻嘻", "哇塞", "厉害", "太厉害了", "好厉害", "太棒了", "真棒",
    "你真棒", "棒", "不错", "挺好", "很好", "太好了", "我很好", "牛", "赞", "点赞", "有道理",
    "原来如此", "酷", "完美", "没毛病", "一路顺风", "保重", "好梦", "晚安好梦", "嗯", "嗯嗯", "哦", "噢",
    "喔", "哇", "哈", "诶", "就是这个意思", "笑死我了", "笑死", "帮大忙了", "帮了大忙",
    "亲", "不好意思", "抱歉", "刚刚在忙", "刚才在忙", "回复晚了", "回晚了", "下次再聊", "回头聊",
    "改天聊", "说得对", "说的对", "你说得对",
)  # fmt: skip
_PARTICLES = "了呀啊啦吧呢嘛哦噢嗯哈呗哟喔诶欸咯嘞哇"


def _en_pattern(formulas: tuple[str, ...]) -> re.Pattern[str]:
    forms = set()
    for formula in formulas:
        forms.add(formula)
        forms.add(formula.replace("'", ""))
    alternation = "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True))
    if formulas is _EN_FORMULAS:
        alternation = f"{_EN_REMARK}|{alternation}"
    return re.compile(rf"(?:{alternation})(?=\s|$)\s*")


_EN = _en_pattern(_EN_FORMULAS)
_EN_FILLER = _en_pattern(_EN_FILLERS)
_ZH = re.compile("|".join(re.escape(f) for f in sorted(_ZH_FORMULAS, key=len, reverse=True)))
_ZH_PARTICLE = re.compile(f"[{_PARTICLES}]")
# What is neither a letter, a digit nor an apostrophe: punctuation, emoji, symbols.
_NOT_WORD = re.compile(r"[^\w']+|_")


def phatic(message: str) -> bool:
    """Whether the message is only greetings, thanks, agreement, reactions or goodbyes
    (see the module): "thanks so much!", "take care", "好的谢谢～", "lol", "👍". A message
    with any other word, a number, or nothing at all is not."""
    text = textproc.normalize(message).lower().replace("\u2019", "'")
    text = _NOT_WORD.sub(" ", text).strip()
    if not text:  # emoji alone ("👍", "😂😂") react; punctuation alone asks again
        return any(unicodedata.category(c) == "So" for c in message)
    said = False
    if textproc.has_cjk(text):
        said = _ZH.search(text) is not None
        text = " ".join(_ZH_PARTICLE.sub(" ", _ZH.sub(" ", text)).split())
    while text:
        formula, filler = _EN.match(text), _EN_FILLER.match(text)
        match = max((m for m in (formula, filler) if m), key=lambda m: m.end(), default=None)
        if match is None:
            return False
        said = said or match is formula
        text = text[match.end() :]
    return said
