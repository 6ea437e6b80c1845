"""Whether what a rule of core/memory/care found is the user's fact now: not denied,
past or overcome, someone else's, the user's work, a what-if, for today only or a joke."""

from __future__ import annotations

import re

from desktop_mem.core.memory.care.english import KIN
from desktop_mem.core.memory.care.rule import Rule

_I = re.IGNORECASE

# A sentence ends at these; a clause at a comma, a colon or a joining word too.
_SENTENCE_END = re.compile(r"[.!?。！？;；\n](?=\s|$|[^\d])")
_CLAUSE_END = re.compile(
    r"[,，:：;；—–]|\s-\s|\b(?:and|but|so|because|though|although|while|whereas)\b|"
    r"但是|可是|不过|所以|因为|虽然",
    _I,
)

# Denied: "I'm not allergic", "no allergies", "我不恐高", "我没有什么过敏的".
_EN_DENIED = re.compile(
    r"\b(?:not|no longer|never been|never had|never|isn'?t|aren'?t|wasn'?t|weren'?t|"
    r"don'?t have|doesn'?t have|didn'?t have|haven'?t got|no|none|free of|neither|nor|"
    r"gave up being|stopped being|grew out of|outgrew|got over|get over|gotten over|"
    r"overcame|overcome|conquered|beat|cured of|cured)\b[^.;,]{0,30}$",
    _I,
)
_ZH_DENIED = re.compile(
    r"(?:没有|没|不是|不再|从没|从来没|并不|并没|已经不|克服了|治好了)[^，。；,;]{0,6}$|"
    r"不$|不太$|一点都不$|一点也不$|都不$|也不$"
)
_EN_SAYS_WHO = re.compile(
    r"\b(?:i|we|you|he|she|they|it)(?:'ll| will| won'?t| would|'d| could| can|'m| am| "
    r"shall)?\s*$",
    _I,
)
# Past: "I used to be vegetarian", "I was afraid of heights as a kid", "我小时候恐高".
_EN_USED_TO = re.compile(r"(?<!got )(?<!get )(?<!am )(?<!'m )(?<!is )(?<!are )\bused to\b", _I)
_EN_WAS = re.compile(r"\b(?:was|were)\s+(?:an?\s+)?(?:(?:very|really|so|quite|a bit|"
                     r"terribly|badly|severely|deathly|also|strict)\s+)?$", _I)  # fmt: skip
_EN_CHILDHOOD = re.compile(
    r"\bas an? (?:kid|child|baby|toddler|teen|teenager|boy|girl|youngster)\b|"
    r"\bwhen I was (?:an? )?(?:little|young|younger|small|kid|child|teen|teenager|baby)\b|"
    r"\bin my (?:childhood|youth|teens|twenties|20s)\b|\bgrowing up\b",
    _I,
)
_EN_PAST_VERB = re.compile(r"\b(?:was|were|had|got|used to|did)\b", _I)
_EN_NOW = re.compile(r"\b(?:still|since|now|always|ever since|'ve|have been|has been|"
                     r"i'?m|am|is|are)\b", _I)  # fmt: skip
_ZH_PAST = re.compile(r"(?:以前|曾经|从前|过去|小时候|年轻时|那时候|当年)[^，。；,;]{0,6}$")
# Overcome, said after it: "..., not any more", "but I got over it", "现在不怕了".
_EN_OVERCOME = re.compile(
    r"(?:[,;:—–-]|\bbut\b)\s*(?:(?:it'?s|that'?s)\s+)?(?:not|no)\s+(?:any ?more|"
    r"longer|now|these days)\b|\b(?:got|gotten|get) over it\b|\b(?:grew|grown|outgrew|"
    r"outgrown) (?:out of )?(?:it|that|them)\b|\bwent away\b|\bgone now\b|"
    r"\bbut now I(?:'m| am)? (?:love|like|enjoy|adore|fine|okay|ok|over)\b",
    _I,
)
_ZH_OVERCOME = re.compile(
    r"(?:现在|如今|后来|已经|早就)[^。；;]{0,8}(?:不怕|不晕|不会了|好了|没事|习惯|学会|克服|"
    r"敢|不再|治好|痊愈)"
)

# Whose fact: the last person a sentence names before it. The user and their family
# count as the user; anyone else, a pet or a story's character does not.
_EN_SELF = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|im|we|we're|we've|we'd|the user|user)\b", _I)
_EN_OTHER = re.compile(
    r"\b(?:you|you're|you've|your|friends?|bff|mates?|buddy|pal|colleagues?|co-?workers?|"
    r"workmates?|boss|"
    r"manager|supervisor|neighbou?rs?|classmates?|flatmates?|roommates?|housemates?|"
    r"students?|pupils?|clients?|customers?|patients?|intern|babysitter|nanny|"
    r"acquaintances?|guy|bloke|lady|woman|man|person|someone|somebody|people|everyone|"
    r"everybody|anyone|nobody|strangers?|others|character|hero|heroine|protagonist|"
    r"detective|villain|narrator|company|economy|market|business|industry|host|guests?|"
    r"landlord|landlady|tenants?|(?:lots of|many|most|some|other|these|those|for|all) "
    r"(?:kids|children|people)|(?:kids|children) who)\b|"
    # a named person's spouse is someone else's ("Rob's wife Hannah is expecting twins")
    r"\b(?-i:(?!User)[A-Z][a-z]+)'s (?:wife|husband|partner|boyfriend|girlfriend|"
    r"fianc[ée]e?)\b",
    _I,
)
# The user's family, named as theirs ("my son", "our youngest"; not "my friend's son").
_EN_KIN = re.compile(r"\b(?:my|our|the user's|user's)\s+(?:[a-z]+\s+)?" + KIN + r"\b", _I)
# "I'm a 35-year-old woman with epilepsy", "I'm one of those people who faint": a
# description of the user, not someone else.
_EN_DESCRIBED = re.compile(r"\b(?:i'?m|i am|im)\s+(?:an?|one of)\s+(?:[\w-]+\s+){0,3}$", _I)
_EN_PET = re.compile(
    r"\b(?:dogs?|pupp(?:y|ies)|pups?|cats?|kittens?|pets?|horses?|hamsters?|rabbits?|"
    r"parrots?|golden retrievers?|labradors?)\b",
    _I,
)
_ZH_SELF = re.compile(r"(?<!告诉)(?<!跟)(?<!对)(?<!给)(?<!让)(?<!叫)(?<!问)(?<!帮)(?<!陪)(?<!找)"
                      r"(?<!请)我")  # fmt: skip
_ZH_OTHER = re.compile(
    r"你|朋友|同事|同学|邻居|老板|领导|上司|闺蜜|室友|舍友|客户|病人|患者|学生|网友|别人|有人|"
    r"很多人|不少人|大家|路人|主角|男主|女主|角色|主人公|队友|同桌|房东|租客|客人|公司"
)
_ZH_ABOUT = re.compile(r"对[^，。；,;我]*$")
_ZH_KIN = re.compile(
    r"(?<!的)(?:儿子|女儿|孩子|小孩|宝宝|老公|老婆|丈夫|妻子|爱人|爸爸|妈妈|父亲|母亲|爸|妈|"
    r"公公|婆婆|爷爷|奶奶|外公|外婆)"
)
_ZH_PET = re.compile(r"狗|猫|宠物|金毛|柯基|泰迪|哈士奇|兔子|仓鼠|鹦鹉")
_STORY = re.compile(
    r"\b(?:novel|book|film|movie|show|series|documentary|story|episode|play|anime|manga|"
    r"comic|game|podcast|drama)s?\b(?:\s+[\w']+){0,4}?\s+(?:about|where|in which|"
    r"whose)\b|\bin the (?:novel|book|film|movie|show|series|story|episode|play|"
    r"game|anime|drama)\b|\b(?:novel|book|film|movie|show|story)'s\b|\bplot\b|"
    r"小说|电影|电视剧|剧里|剧中|动画|漫画|故事|纪录片|综艺|游戏里|书里",
    _I,
)
# The user's work or study: "a nurse who treats allergies", "works at an allergy clinic",
# "我是儿科医生，专门看过敏", "在过敏科上班".
_EN_WORK_BEFORE = re.compile(
    r"\b(?:treat|treats|treating|research|researches|researching|study|studies|studying|"
    r"teach|teaches|teaching|specialis(?:e|es|ing) in|specializ(?:e|es|ing) in|"
    r"writ(?:e|es|ing) about|article (?:about|on)|thesis (?:about|on)|paper (?:about|on)|"
    r"book (?:about|on)|lecture (?:about|on)|talk (?:about|on)|dispense|dispenses|"
    r"prescribe|prescribes|sell|sells|look after|looks after|care for|cares for|"
    r"work with|works with|working with|first aid for|awareness of|help|helps|support|"
    r"supports|volunteer|volunteers)\b(?:(?!\b(?:my|our|i|i'm|me)\b)[^.;,]){0,40}$",
    _I,
)
_EN_WORK_AFTER = re.compile(
    r"^(?:\s+\w+)?\s+(?:clinics?|wards?|department|dept|unit|specialists?|research|"
    r"charit(?:y|ies)|conference|course|training|workshop|awareness|nurses?|doctors?|"
    r"team|services?|centre|center|hospital|medicine|counsell?ors?)\b",
    _I,
)
# ... which a modifier says only in a sentence about work: "sees an allergy specialist"
# is a patient's.
_AT_WORK = re.compile(
    r"\b(?:work|works|working|job|employed|volunteer\w*|intern\w*|i'?m an?|i am an?)\b|"
    r"上班|工作|我是",
    _I,
)
_ZH_WORK_BEFORE = re.compile(r"(?:专门看|治疗|研究|专攻|负责|专治|看)[^，。；,;]{0,2}$")
_ZH_WORK_AFTER = re.compile(
    r"^[^，。；,;]{0,2}?(?:科|门诊|诊所|专科|研究|课程|讲座|中心|协会|医生|护士|专家)"
)
# A diet said of a thing is a dish's: "it's dairy-free", "is it lactose-free?".
_EN_A_THING = re.compile(r"\b(?:it|this|that|which)(?:'s| is| was)?\s*$|\bis it\s*$", _I)
# What if: "if I were pregnant", "maybe I'll go vegetarian", "要是我对猫过敏".
_EN_WHAT_IF = re.compile(
    r"\b(?:if (?:i|we) (?:were|was|ever|became|am ever|'m ever)|if i'?m ever|what if|"
    r"suppose|supposing|imagin(?:e|ing) (?:if|being|having)|wonder(?:ing)? (?:if|whether)|"
    r"not sure (?:if|whether)|maybe i'?ll|might (?:try|go|become|start|be going)|"
    r"(?:thinking|think) (?:about|of) (?:going|becoming|being|trying|getting)|"
    r"considering (?:going|becoming|being|trying|a)|plan(?:ning)? to (?:go|become|try)|"
    r"going to try|try going|try being|'d hate to|would hate to)\b",
    _I,
)
# In Chinese, what the condition puts in doubt runs to the fact ("要是我对猫过敏"); one
# that says what then follows ("万一被蜇了就要用肾上腺素笔") is the user's real need.
_ZH_WHAT_IF = re.compile(
    r"(?:如果|假如|要是|万一|假设|考虑|要不要|想不想|打算|会不会|是不是|想试试)"
    r"[^就要得会才需]*$"
)
# For now only: "I can't swim today", "I'm sober tonight", "今天不能喝酒".
_EN_FOR_NOW = re.compile(
    r"\b(?:today|tonight|this (?:morning|afternoon|evening|week|weekend|time|month)|"
    r"right now|at the moment|tomorrow|on (?:mon|tues|wednes|thurs|fri|satur|sun)day|"
    r"until (?:mon|tues|wednes|thurs|fri|satur|sun)day|for now|(?:pool|gym)(?:'s| is) "
    r"closed|as (?:fast|well|far|long|quickly|much|good) as)\b",
    _I,
)
_ZH_FOR_NOW = re.compile(
    r"今天|今晚|明天|这周|这个周末|本周|这几天|下午|上午|暂时|这会儿|今早|明早"
)
# A joke: "allergic to Mondays", "allergic to waking up early", "我对加班过敏".
_JOKES_EN = (
    r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)days?|mornings?|early mornings?|work|"
    r"my job|jobs|meetings?|exercise|the gym|gyms|cardio|housework|chores|homework|maths?|"
    r"spreadsheets?|small talk|effort|responsibilit(?:y|ies)|commitment|adulting|people|"
    r"humans|nonsense|drama|deadlines?|e-?mails?|paperwork|taxes|bills|school|overtime|"
    r"alarm clocks?|bedtime|prices|\w+ prices|hard work|manual labou?r|stupidity|idiots|"
    r"my boss|excel|powerpoint|phone calls|queues|traffic|bad \w+|"
    r"[a-z]+ing(?=\s*$|\s*[.,;!?]|\s+(?:and|or|so|but|lol|haha|in|at|on|before|after|the|"
    r"my|early|up)\b)|"
    r"上班|加班|早起|起床|工作|数学|英语|学习|考试|作业|开会|会议|运动|健身|跑步|周一|星期一|"
    r"家务|做饭|社交|人类|老板|领导|内卷|早八)"
)
_EN_JOKE = re.compile(r"^\s+to\s+(?:all\s+|any\s+|the\s+|my\s+)?" + _JOKES_EN, _I)
_ZH_JOKE = re.compile(
    r"(?:对|to)\s*(?:上班|加班|早起|起床|工作|数学|英语|学习|考试|作业|开会|会议|运动|健身|跑步|"
    r"周一|星期一|家务|做饭|社交|人类|老板|领导|内卷|早八|穷|上学)\s*$"
)
# Nor a sentence about a death, or a star sign ("my star sign is Cancer").
_NOT_CARE = re.compile(
    r"\b(?:died|passed away|death|funeral|late (?:husband|wife|father|mother|mum|dad)|"
    r"star sign|zodiac|horoscope)\b|去世|过世|病逝|离世|星座",
    _I,
)


def _clause(before: str) -> str:
    """The clause a match sits in, up to the match."""
    cut = 0
    for m in _CLAUSE_END.finditer(before):
        cut = m.end()
    return before[cut:]


def _someone_else(sentence: str) -> bool:
    """Whether the last one a sentence names before the fact is not the user or their
    family: someone else, a pet, a story's character."""
    last_self = max(
        (m.end() for p in (_EN_SELF, _ZH_SELF, _EN_KIN, _ZH_KIN) for m in p.finditer(sentence)),
        default=-1,
    )
    others = [
        m.end()
        for pattern in (_EN_OTHER, _ZH_OTHER)
        for m in pattern.finditer(sentence)
        if not (pattern is _EN_OTHER and _EN_DESCRIBED.search(sentence[: m.start()]))
    ]
    others += [m.end() for m in _EN_PET.finditer(sentence)]
    others += [m.end() for m in _ZH_PET.finditer(sentence)]
    return max(others, default=-1) > last_self


def holds(rule: Rule, text: str, start: int, end: int) -> bool:
    """Whether what a rule found at text[start:end] is a fact of the user's care now."""
    sentence_start = max((m.end() for m in _SENTENCE_END.finditer(text, 0, start)), default=0)
    before = text[sentence_start:start]
    rest = _SENTENCE_END.search(text, end)
    after = text[end : rest.start() if rest else len(text)]
    clause = _clause(before)
    if _EN_DENIED.search(clause) or _ZH_DENIED.search(clause):
        return False
    if _NOT_CARE.search(before + text[start:end] + after):
        return False
    if rule.asked:
        # a request, not one's own memory of something ("I'll never forget the day...")
        return not _EN_SAYS_WHO.search(clause)
    if not rule.past:
        if _EN_USED_TO.search(clause) or _EN_WAS.search(clause) or _ZH_PAST.search(clause):
            return False
        whole = clause + text[start:end] + _clause_rest(after)
        if (
            _EN_CHILDHOOD.search(whole)
            and _EN_PAST_VERB.search(clause + text[start:end])
            and not _EN_NOW.search(clause)
        ):
            return False
        if _EN_OVERCOME.search(after) or _ZH_OVERCOME.search(after):
            return False
    # what 对 brings in is what the fact is about ("我对猫毛过敏"), not who it is about
    if _STORY.search(before) or _someone_else(_ZH_ABOUT.sub("", before)):
        return False
    if _EN_WORK_BEFORE.search(clause) or _ZH_WORK_BEFORE.search(clause):
        return False
    if (_EN_WORK_AFTER.search(after) or _ZH_WORK_AFTER.search(after)) and _AT_WORK.search(
        before + after
    ):
        return False
    if _EN_WHAT_IF.search(clause) or _ZH_WHAT_IF.search(clause):
        return False
    if rule.category == "diet" and _EN_A_THING.search(clause):
        return False
    if rule.passing and (
        _EN_FOR_NOW.search(clause + text[start:end] + _clause_rest(after))
        or _ZH_FOR_NOW.search(before + after)  # "今天开车，不能喝酒": the time leads
    ):
        return False
    return not (rule.allergy and (_EN_JOKE.search(after) or _ZH_JOKE.search(before)))


def _clause_rest(after: str) -> str:
    m = _CLAUSE_END.search(after)
    return after[: m.start()] if m else after
