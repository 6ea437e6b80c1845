"""Which memories are about the user's health and safety, and so always given.

Similarity is not relevance: for "plan a dinner with my husband tonight" the peanut
allergy is the most relevant fact the profile holds, and not at all similar. A memory
about health or safety (an allergy or intolerance, a medication, a health condition,
a pregnancy, a diet, a disability or accessibility need) or one the user asked to be
always remembered is therefore given to the model on every turn, in the core block,
whatever the message says (core/chat/read_path.py).

`recognise()` reads one sentence, in English or Chinese, as the memory is stored,
whatever wrote it (the chat's learning, `memory add`, the window, an import, an app
over MCP (whose memory is given always only once the user says so: issue 45), the
Python API): no model is asked, so the answer is the same everywhere
and at once. It looks for what a sentence says of health or safety ("allergic",
"过敏", "on blood thinners", "can't have gluten", "吃素"), not for a topic: "my sister is
a nurse" and "peanut butter is my favourite" are not health facts. A sentence that
denies it ("I'm not allergic to anything", "我以前吃素") or speaks of a death ("my
grandmother died of cancer") is not one either. The user can turn it off per memory,
or on for one it missed (core/memory/store.py: `set_always`).

CATEGORIES names what kind of care a memory calls for; the window and the command
line say it ("always given: health").
"""

from __future__ import annotations

import re

# The kinds of care, most pressing first: the core block gives them in this order.
CATEGORIES = ("health", "diet", "access", "asked")
# Raised whenever the rules change: memories stored by older rules are read again.
RULES_VERSION = 1

_I = re.IGNORECASE
_WB = r"(?<![A-Za-z])"  # a word boundary that treats "'" as part of a word
_WE = r"(?![A-Za-z])"

# Things one eats, drinks or takes: "can't have X", "avoid X" are about health or diet
# only with one of these.
_FOODS = (
    r"(?:gluten|wheat|dairy|lactose|milk|cheese|eggs?|nuts?|peanuts?|tree nuts|almonds?|"
    r"cashews?|walnuts?|shellfish|prawns?|shrimps?|crab|lobster|seafood|fish|soy|soya|"
    r"sesame|mustard|celery|lupin|sulphites?|sulfites?|alcohol|booze|wine|beer|caffeine|"
    r"coffee|sugar|salt|sodium|spicy food|chilli|chili|garlic|onions?|pork|beef|meat|"
    r"red meat|chicken|grapefruit|citrus|strawberr(?:y|ies)|kiwi(?:fruit)?|fodmaps?|"
    r"fried food|raw fish|sushi|soft cheese|penicillin|aspirin|ibuprofen|nsaids?|"
    r"latex|codeine|morphine|antibiotics?|sulfa drugs?)"
)

_EN: list[tuple[str, re.Pattern[str]]] = [
    # allergies and intolerances
    (
        "health",
        re.compile(
            _WB + r"(?:allerg(?:y|ies|ic)|anaphyla(?:xis|ctic)|epi-?pens?|intoleran(?:t|ce)|"
            r"coeliac|celiac|hay ?fever)" + _WE,
            _I,
        ),
    ),
    (
        "health",
        re.compile(
            _WB + r"(?:can'?t|cannot|can not|mustn'?t|must not|shouldn'?t|should not|unable to|"
            r"not allowed to|never) (?:have|eat|drink|take|tolerate|digest|touch)(?: any)? "
            + _FOODS
            + _WE,
            _I,
        ),
    ),
    (
        "health",
        re.compile(
            _FOODS + r" (?:makes?|made) (?:me|him|her|them) (?:sick|ill|"
            r"break out|swell)",
            _I,
        ),
    ),
    ("health", re.compile(_WB + r"(?:sensitive|reacts? badly) to " + _FOODS + _WE, _I)),
    # medications
    (
        "health",
        re.compile(
            _WB + r"(?:medications?|medicines?|meds|prescriptions?|prescribed|insulin|inhalers?|"
            r"antidepressants?|blood[- ]thinners?|anticoagulants?|warfarin|apixaban|"
            r"rivaroxaban|statins?|metformin|levothyroxine|thyroxine|ssris?|beta[- ]blockers?|"
            r"chemo(?:therapy)?|radiotherapy|dialysis|pacemaker|contraceptive pill|"
            r"birth control|hrt|antihistamines?|steroids?|painkillers?|anti-?epileptics?|"
            r"blood pressure pills?|sleeping pills?|symbicort|ventolin|salbutamol)" + _WE,
            _I,
        ),
    ),
    ("health", re.compile(r"(?<![\w.])\d+(?:\.\d+)? ?(?:mg|mcg|µg)" + _WE, _I)),
    # health conditions
    (
        "health",
        re.compile(
            _WB + r"(?:diabet(?:es|ic)|pre-?diabet(?:es|ic)|asthma(?:tic)?|epilep(?:sy|tic)|"
            r"seizures?|hypertension|high blood pressure|low blood pressure|heart (?:condition|"
            r"disease|failure|problems?|attack)|arrhythmia|atrial fibrillation|a-?fib|angina|"
            r"migraines?|crohn'?s|colitis|ibs|irritable bowel|arthritis|gout|lupus|"
            r"fibromyalgia|multiple sclerosis|parkinson'?s|dementia|alzheimer'?s|cancer|"
            r"leukaemia|leukemia|tumou?r|hiv|hepatitis|kidney (?:disease|failure|stones?)|"
            r"liver disease|anaemi[ac]|anemi[ac]|thyroid|hypothyroid(?:ism)?|"
            r"hyperthyroid(?:ism)?|g6pd|sickle cell|haemophilia|hemophilia|copd|sleep apnoea|"
            r"sleep apnea|immunocompromised|depression|depressed|anxiety disorder|"
            r"panic attacks?|bipolar|ptsd|ocd|adhd|autis(?:m|tic)|eating disorder|anorexia|"
            r"bulimia|chronic pain|long covid|endometriosis|pcos|osteoporosis|glaucoma|"
            r"cataracts?|tinnitus|vertigo|concussion|(?:had|has|have|after) a stroke|blood clots?|dvt|"
            r"recovering from (?:surgery|an operation)|had surgery|surgery (?:on|for))" + _WE,
            _I,
        ),
    ),
    # pregnancy
    (
        "health",
        re.compile(
            _WB + r"(?:pregnan(?:t|cy)|expecting (?:a baby|twins)|trimester|breast-?feeding|"
            r"weeks along|trying to conceive|ivf)" + _WE,
            _I,
        ),
    ),
    # diets
    (
        "diet",
        re.compile(
            _WB + r"(?:vegetarian|vegan|pescatarian|pescetarian|halal|kosher|gluten-free|"
            r"dairy-free|lactose-free|nut-free|low-?(?:salt|sodium|sugar|fat|carb|fodmap)|"
            r"keto(?:genic)? diet|plant-based|jain|fasting for ramadan|fasts? during ramadan)"
            + _WE,
            _I,
        ),
    ),
    (
        "diet",
        re.compile(
            _WB + r"(?:do(?:n'?t| not)|never|doesn'?t|does not|won'?t|will not|avoids?|"
            r"stays? away from|gave up|cut out) (?:eat |drink |have |touch )?(?:any )?"
            r"(?:pork|beef|meat|red meat|fish|seafood|shellfish|alcohol|gluten|dairy|eggs)" + _WE,
            _I,
        ),
    ),
    (
        "diet",
        re.compile(
            _WB + r"(?:on a (?:diet|low[- ]\w+ diet)|teetotal|teetotaller|"
            r"sober)" + _WE,
            _I,
        ),
    ),
    # disabilities and accessibility
    (
        "access",
        re.compile(
            _WB + r"(?:wheelchairs?|deaf|hard of hearing|hearing aids?|hearing loss|"
            r"partially sighted|visually impaired|blind(?! (?:date|spot|tasting))|low vision|screen readers?|"
            r"colou?r-?blind|dyslexi[ac]|dyspraxi[ac]|disabled|disabilit(?:y|ies)|"
            r"mobility (?:scooter|issues?|problems?)|walking stick|crutches|prosthe(?:sis|tic)|"
            r"amputee|sign language|can'?t (?:climb|manage) stairs|"
            r"can'?t walk (?:far|long)|can'?t stand for long|guide dog|large print)" + _WE,
            _I,
        ),
    ),
    # asked to be always remembered
    (
        "asked",
        re.compile(
            _WB + r"(?:always remember|never forget|don'?t (?:ever )?forget|keep in mind always|"
            r"remember this always|important to remember)" + _WE,
            _I,
        ),
    ),
]

_ZH: list[tuple[str, re.Pattern[str]]] = [
    ("health", re.compile(r"过敏|不耐受|乳糖不耐|麸质|乳糜泻|花粉症|肾上腺素笔")),
    ("health", re.compile(r"(?:不能|不可以|不宜|不敢|不可|忌)(?:吃|喝|碰|用|服用)")),
    (
        "health",
        re.compile(
            r"吃药|服药|用药|在吃.{0,8}药|药物|处方|(?:降压|降糖|抗凝|抗抑郁|安眠|止痛|抗癫痫|"
            r"甲状腺|避孕|哮喘)药|胰岛素|华法林|阿司匹林|他汀|二甲双胍|吸入器|化疗|放疗|透析|"
            r"起搏器|优甲乐|左甲状腺素|氨氯地平|毫克|\d+ ?(?:mg|mcg)"
        ),
    ),
    (
        "health",
        re.compile(
            r"糖尿病|糖尿病前期|血糖|哮喘|癫痫|高血压|低血压|心脏病|心脏(?:搭桥|支架|不好)|心律不齐|房颤|"
            r"偏头痛|克罗恩|结肠炎|肠易激|关节炎|痛风|红斑狼疮|帕金森|痴呆|阿尔茨海默|癌|白血病|"
            r"肿瘤|艾滋|肝炎|乙肝|肾病|肾结石|贫血|甲亢|甲减|甲状腺|蚕豆病|血友病|慢阻肺|"
            r"睡眠呼吸暂停|抑郁|焦虑症|惊恐发作|双相情感|多动症|自闭症|孤独症|进食障碍|厌食症|慢性疼痛|"
            r"子宫内膜异位|多囊|骨质疏松|青光眼|白内障|耳鸣|眩晕|中风|血栓|手术"
        ),
    ),
    (
        "health",
        re.compile(r"怀孕|孕期|怀了.{0,3}(?:宝宝|孩子|二胎)|备孕|哺乳|孕妇|孕周|预产期|试管婴儿"),
    ),
    (
        "diet",
        re.compile(
            r"素食|吃素|纯素|清真|犹太洁食|低盐|少盐|低钠|低糖|少糖|无糖|低脂|无麸质|戒酒|"
            r"(?:不|从不|从来不|不再)(?:吃|喝|碰).{0,4}(?:猪肉|牛肉|肉|海鲜|鱼|酒|辣)|滴酒不沾|节食"
        ),
    ),
    (
        "access",
        re.compile(
            r"轮椅|听障|听力(?:不好|不太好|差|受损)|耳聋|聋|助听器|视障|失明|盲人|弱视|色盲|阅读障碍|"
            r"行动不便|拐杖|残疾|残障|手语|假肢|导盲犬|爬不了楼梯|走不了远路"
        ),
    ),
    (
        "asked",
        re.compile(
            r"永远记住|一定要记住|务必记住|始终记住|千万(?:要)?记(?:住|得)|"
            r"请一直记得|永远别忘|千万别忘"
        ),
    ),
]

# A sentence that denies it, or puts it in the past, is not a fact of care.
_EN_NOT = re.compile(
    r"(?:\b(?:not|no longer|never been|never had|isn'?t|aren'?t|wasn'?t|weren'?t|"
    r"don'?t have|doesn'?t have|didn'?t have|no|none|free of|used to be|used to have|"
    r"gave up being|stopped being|grew out of|outgrew)\b)[^.;,]{0,24}$",
    _I,
)
_ZH_NOT = re.compile(r"(?:没有|没|不是|不再|以前|曾经|从前|过去)[^，。；]{0,6}$|不$")
# Nor one about a death, or a star sign ("my star sign is Cancer").
_NOT_CARE = re.compile(
    r"\b(?:died|passed away|death|funeral|late (?:husband|wife|father|mother|mum|dad)|"
    r"star sign|zodiac|horoscope)\b|去世|过世|病逝|离世|星座",
    _I,
)


def _negated(text: str, start: int, zh: bool) -> bool:
    before = text[:start]
    return bool((_ZH_NOT if zh else _EN_NOT).search(before))


def recognise(text: str) -> str | None:
    """The kind of care a memory's text calls for (one of CATEGORIES), or None."""
    if not text:
        return None
    plain = " ".join(text.replace("\u2019", "'").split())
    if _NOT_CARE.search(plain):
        return None
    found: set[str] = set()
    for zh, rules in ((False, _EN), (True, _ZH)):
        for category, pattern in rules:
            for match in pattern.finditer(plain):
                if not _negated(plain, match.start(), zh):
                    found.add(category)
                    break
    return next((c for c in CATEGORIES if c in found), None)
