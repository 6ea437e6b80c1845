"""Which memories are about the user's health and safety, and so always given.

Similarity is not relevance: for "plan a dinner with my husband tonight" the peanut
allergy is the most relevant fact the profile holds, and not at all similar; for "help me
clean the gutters" it is the fear of heights. A memory about health or safety (an allergy
or intolerance, a medication, a condition or a limit of the body, a fear or phobia, a
recovery from addiction, a pregnancy, a diet, a disability or accessibility need) or one
the user asked to be always remembered is therefore given to the model on every turn, in
the core block, whatever the message says (core/chat/read_path.py).

`recognise()` reads one sentence, in English, Chinese (simplified or traditional) or
both, as the memory is stored, whatever wrote it (the chat's learning, `memory add`, the
window, an import, an app over MCP (whose memory is given always only once the user says
so: issue 45), the Python API): no model is asked, so the answer is the same everywhere
and at once, and it stays fast enough for an import of a lifetime's facts. It looks for
what a sentence says of health or safety ("allergic", "过敏", "on blood thinners", "can't
swim", "terrified of heights", "我恐高", "sober"), not for a topic ("I love dogs" is no
fear), and then asks whose fact it is and whether it holds now. It is not one when it is:
denied ("I'm not allergic to anything", "我不恐高"); past or overcome ("I used to be
scared of flying, not any more", "我以前吃素"); someone else's ("my friend is allergic to
peanuts", "我同事怀孕了"; the user's family is the user's own care: a child's allergy,
a partner's diet), a pet's or a story's ("my dog is scared of thunder", "in the film the
hero is afraid of heights"); the user's work ("I'm a nurse who treats allergies"); a
what-if ("if I were pregnant"); for today only ("I can't swim today, the pool is
closed"); a joke ("I'm allergic to Mondays", "我对加班过敏"); or about a death or a star
sign. The user can turn it off per memory, or on for one it missed
(core/memory/store.py: `set_always`).

Fears and the body's limits are "health", not a kind of their own: a phobia is a
condition of its own (and a panic or a faint is the body's), a limit ("can't swim",
"can't lift heavy things") is what a condition leaves, and the model is given the
sentence itself, which says all a label could; a fifth kind would only split one list
the user reads as one ("always given: health").

CATEGORIES names what kind of care a memory calls for; the window and the command
line say it ("always given: health"). The figures (recall and false marks per language
and kind, on a development set and a held-out one, and the time per sentence):
docs/benchmarks.md, `benchmarks/care.py`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# The kinds of care, most pressing first: the core block gives them in this order.
CATEGORIES = ("health", "diet", "access", "asked")
# Raised whenever the rules change: memories stored by older rules are read again.
RULES_VERSION = 2

_I = re.IGNORECASE
_WB = r"(?<![A-Za-z])"  # a word boundary that treats "'" as part of a word
_WE = r"(?![A-Za-z])"


# -- reading the sentence -------------------------------------------------------------

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


def _plain(text: str) -> str:
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


# -- what a sentence says of health or safety ------------------------------------------


@dataclass(frozen=True, eq=False)
class _Rule:
    category: str
    pattern: re.Pattern[str]
    # What every match holds, so that a sentence without it is not searched (most
    # memories hold none: the rules' alternations are slow to try at every position).
    # English: groups of word stems (a word counts when it starts with one, the stems
    # cut to 8 letters), every group needed; "*x" is a piece of a word ("*phob"), a
    # non-Latin item a piece of the text. Chinese: characters, any one needed. The
    # suite checks that every phrasing of benchmarks/data/care gets the same answer with
    # all rules tried.
    needs: tuple[frozenset[str], ...]
    zh: bool = False
    # a past told of is the fact itself: "I used to drink" says the user is in recovery
    past: bool = False
    # may hold for now only: "I can't swim today", "今天不能喝酒"
    passing: bool = False
    # an allergy that may be a joke: "allergic to Mondays", "对加班过敏"
    allergy: bool = False
    # asked to be remembered: only a denial undoes it
    asked: bool = False


def _stems(words: str) -> frozenset[str]:
    return frozenset(w if w[0] == "*" or not w.isascii() else w[:8] for w in words.split())


def _en(category: str, needs: str | tuple[str, ...], pattern: str, **flags: bool) -> _Rule:
    groups = (needs,) if isinstance(needs, str) else needs
    return _Rule(category, re.compile(pattern, _I), tuple(map(_stems, groups)), **flags)


def _zh(category: str, needs: str, pattern: str, **flags: bool) -> _Rule:
    return _Rule(category, re.compile(pattern), (frozenset(needs),), zh=True, **flags)


# Things one eats, drinks or takes: "can't have X", "avoid X" are about health or diet
# only with one of these.
_FOOD_WORDS = (
    "gluten wheat dairy lactose milk cheese egg nut peanut almond cashew walnut hazelnut "
    "pistachio pecan shellfish prawn shrimp crab lobster seafood fish soy sesame mustard "
    "celery lupin sulphite sulfite alcohol booze wine beer caffeine coffee sugar salt sodium "
    "spicy chilli chili garlic onion pork beef meat red chicken grapefruit citrus strawberr "
    "kiwi mango banana tomato fodmap fried raw sushi soft penicillin aspirin ibuprofen nsaid "
    "latex codeine morphine antibiotic sulfa"
)
_FOODS = (
    r"(?:gluten|wheat|dairy|lactose|milk|cheese|eggs?|nuts?|peanuts?|tree nuts|almonds?|"
    r"cashews?|walnuts?|hazelnuts?|pistachios?|pecans?|shellfish|prawns?|shrimps?|crab|"
    r"lobster|seafood|fish|soy|soya|sesame|mustard|celery|lupin|sulphites?|sulfites?|"
    r"alcohol|booze|wine|beer|caffeine|coffee|sugar|salt|sodium|spicy food|chilli|chili|"
    r"garlic|onions?|pork|beef|meat|red meat|chicken|grapefruit|citrus|strawberr(?:y|ies)|"
    r"kiwi(?:fruit)?|mangos?|mangoes|bananas?|tomatoes|fodmaps?|fried food|raw fish|sushi|"
    r"soft cheese|penicillin|aspirin|ibuprofen|nsaids?|latex|codeine|morphine|"
    r"antibiotics?|sulfa drugs?)"
)
# What one is allergic to that is not a food: "reacts to latex", "bee stings make my
# throat swell".
_ALLERGEN_WORDS = (
    _FOOD_WORDS + " tree nickel pollen grass hay dust mould mold cat dog pet feather wool bee "
    "wasp insect sting perfume fragrance detergent plaster adhesive"
)
_ALLERGENS = (
    r"(?:" + _FOODS[3:-1] + r"|nickel|pollen|grass|hay|dust|dust mites?|mould|mold|cats?|"
    r"dogs?|cat hair|dog hair|pet hair|feathers|wool|bees?|wasps?|(?:bee |wasp |insect )?"
    r"stings?|insect bites|perfumes?|fragrances?|detergents?|plasters|adhesives?|"
    r"latex gloves)"
)
# What people fear that puts their safety in play ("terrified of heights", "怕狗"); a
# fear of anything else ("scared of my mother-in-law", "afraid of commitment") is not.
_FEARED_WORDS = (
    "heigh high ladde tall cliff balco dog flyin fligh plane aerop airpl aircr needl injec "
    "jab shot blood sight enclo space room confi close lift eleva tunne mri scann water sea "
    "ocean swimm drown being under spide snake insec bug bee wasp crowd place dark thund "
    "storm light drivi motor highw freew bridg denti docto hospi surge clown bird horse cat "
    "mice rat fire vomit sick germs choki escal boat ship rolle coast cable ferri glass "
    "publi tube open"
)
_FEARED = (
    r"(?:(?:the |a |an |any |big |large |deep |open |small |tight |tall |high |"
    r"crowded |busy |strange |stray )?"
    r"(?:heights?|high places|ladders?|tall buildings|cliffs?|cliff edges|balcon(?:y|ies)|"
    r"dogs?|flying|flights?|planes?|aeroplanes?|airplanes?|aircraft|needles?|injections?|"
    r"jabs?|shots|blood|blood tests?|sight of blood|enclosed spaces?|spaces?|rooms?|"
    r"confined spaces?|closed spaces?|lifts?|elevators?|tunnels?|mri(?: scans?| "
    r"machines?| scanners?)?|scanners?|water|sea|ocean|oceans|swimming|drowning|"
    r"being underwater|underwater|spiders?|snakes?|insects?|bugs?|bees?|wasps?|crowds?|"
    r"places|dark|darkness|thunder(?:storms?)?|storms?|lightning|driving|motorways?|"
    r"highways?|freeways?|bridges?|dentists?|doctors?|hospitals?|surgery|clowns?|birds?|"
    r"horses?|cats?|mice|rats?|fire|vomit(?:ing)?|being sick|germs|choking|escalators?|"
    r"boats?|ships?|roller ?coasters?|cable cars?|ferris wheels?|glass floors?|"
    r"public transport|the underground|the tube|open spaces))"
)
_FEARFUL_WORDS = (
    "afrai scare scarr frigh terri petri fearf nervo anxio panic uneas uncom phobi freak tense"
)
_FEARFUL = (
    r"(?:afraid|scared|scarr?ed|frightened|terrified|petrified|fearful|nervous|anxious|"
    r"panicky|uneasy|uncomfortable|phobic|freaked out|freak out|freaks out|freaking out|"
    r"panic|panics|panicking|tense up|tenses up)"
)
_NOT_PET = r"(?!dogs?\b|cats?\b|pets?\b|pupp(?:y|ies)\b|kittens?\b)"
# Who a fear's trigger frightens: the user or their family, not a pet ("thunder scares my
# dog").
_OBJ = r"(?:me|us|him|her|them|(?:my|our) " + _NOT_PET + r"\w+)"
# A dish, a recipe or a place described by a diet is not the user's diet ("a dairy-free
# chocolate cake", "vegan ice cream recipes", "a vegetarian restaurant").
_NOT_A_DISH = (
    r"(?!(?:[- ]\w+)?[- ](?:cakes?|desserts?|recipes?|options?|treats?|versions?|brownies?|"
    r"ice[- ]creams?|cookies?|biscuits?|breads?|pasta|pizzas?|burgers?|restaurants?|cafes?|"
    r"caf[ée]s?|places?|menus?|cookbooks?|cooking|baking|margarine|chocolates?|alternatives?|"
    r"flavou?rs?|sausages?|snacks?|dishes|dish|meals? kits?|products?|bakery|bakeries|"
    r"tarts?|mousse|frosting|crusts?|butter|spreads?|substitutes?)\b)"
)
_KIN = (
    r"(?:son|sons|daughter|daughters|kids?|children|child|baby|toddler|little one|husband|"
    r"wife|partner|boyfriend|girlfriend|mum|mom|mother|dad|father|parents?|brother|sister|"
    r"youngest|eldest|oldest)"
)
_DRUG_WORDS = (
    "medicati medicine meds prescrip insulin inhaler nebulis nebuliz antidepr thinner "
    "thinners anticoag warfarin apixaban eliquis rivaroxa xarelto heparin clopidog dabigatr "
    "statin statins atorvast simvasta rosuvast metformi ozempic wegovy mounjaro semaglut "
    "levothyr thyroxin ssri ssris maoi maois snri snris beta inhibit chemo chemothe "
    "radiothe dialysis pacemake contrace birth hrt antihist steroid steroids prednis "
    "hydrocor painkill epilepti symbicor ventolin salbutam citalopr escitalo sertrali "
    "fluoxeti paroxeti venlafax duloxeti mirtazap bupropio lexapro zoloft prozac wellbutr "
    "lithium lamotrig valproat carbamaz levetira keppra phenelzi methotre immunosu "
    "tacrolim ciclospo adderall ritalin methylph concerta vyvanse xanax alprazol diazepam "
    "valium lorazepa clonazep benzodia benzos zopiclon zolpidem melatoni tramadol oxycodon "
    "gabapent pregabal amlodipi lisinopr ramipril losartan bisoprol atenolol propranol "
    "digoxin amiodaro allopuri antipsyc quetiapi olanzapi aripipra risperid methadon "
    "suboxone buprenor naltrexo antabuse disulfir epi epipen epipens pill pills tablet "
    "tablets"
)
_DRUGS = (
    r"(?:medications?|medicines?|meds|prescriptions?|prescribed|insulin|inhalers?|nebuli[sz]er|"
    r"antidepressants?|blood[- ]thinners?|anticoagulants?|warfarin|apixaban|eliquis|"
    r"rivaroxaban|xarelto|heparin|clopidogrel|dabigatran|statins?|atorvastatin|simvastatin|"
    r"rosuvastatin|metformin|ozempic|wegovy|mounjaro|semaglutide|levothyroxine|thyroxine|"
    r"ssris?|maois?|snris?|beta[- ]blockers?|ace inhibitors?|chemo(?:therapy)?|radiotherapy|"
    r"dialysis|pacemaker|contraceptive pill|birth control|hrt|antihistamines?|steroids?|"
    r"prednisone|prednisolone|hydrocortisone|painkillers?|anti-?epileptics?|"
    r"blood pressure (?:pills?|tablets?|medication)|sleeping pills?|sleeping tablets?|"
    r"symbicort|ventolin|salbutamol|citalopram|escitalopram|sertraline|fluoxetine|"
    r"paroxetine|venlafaxine|duloxetine|mirtazapine|bupropion|lexapro|zoloft|prozac|"
    r"wellbutrin|lithium(?![- ]ion| batter)|lamotrigine|valproate|carbamazepine|"
    r"levetiracetam|keppra|phenelzine|methotrexate|immunosuppressants?|tacrolimus|"
    r"ciclosporin|adderall|ritalin|methylphenidate|concerta|vyvanse|xanax|alprazolam|"
    r"diazepam|valium|lorazepam|clonazepam|benzodiazepines?|benzos|zopiclone|zolpidem|"
    r"melatonin|tramadol|oxycodone|gabapentin|pregabalin|amlodipine|lisinopril|ramipril|"
    r"losartan|bisoprolol|atenolol|propranolol|digoxin|amiodarone|allopurinol|"
    r"antipsychotics?|quetiapine|olanzapine|aripiprazole|risperidone|methadone|suboxone|"
    r"buprenorphine|naltrexone|antabuse|disulfiram|epi-?pens?|"
    r"on the (?:contraceptive |mini[- ]|combined )?pill)"
)
_CONDITION_WORDS = (
    "diabet prediab asthma epilep seizure convuls fits hypertens pressure sugar hypogly "
    "heart arrhyth atrial fib afib angina migrain crohn colitis ibs irritabl arthrit gout "
    "lupus fibromy sclerosi parkins dementia alzheim cancer leukaem leukem tumour tumor hiv "
    "hepatit kidney liver anaemi anemi thyroid hypothyr hyperthy g6pd sickle haemoph hemoph "
    "copd apnoea apnea narcolep immunoco depress anxiety panic bipolar ptsd ocd adhd autis "
    "disorder anorexi bulimi chronic covid endomet pcos osteopor glaucom catarac tinnitu "
    "vertigo concuss stroke clot clots dvt heatstro heat sciatica hernia disc disk bad "
    "dodgy weak injur busted pain problem trouble surgery replace shot wrecked gone "
    "knackere broken fractur recover"
)

_EN: list[_Rule] = [
    # allergies and intolerances
    _en(
        "health",
        "aller anaph intol coeli celia hay",
        _WB + r"(?:allerg(?:y|ies|ic)|anaphyla(?:xis|ctic)|intoleran(?:t|ce)|"
        r"coeliac|celiac|hay ?fever)" + _WE,
        allergy=True,
    ),
    _en(
        "health",
        ("can canno must shoul unabl allow never", _FOOD_WORDS),
        _WB + r"(?:can'?t|cannot|can not|mustn'?t|must not|shouldn'?t|should not|unable to|"
        r"not allowed to|never) (?:have|eat|drink|take|tolerate|digest|touch)(?: any)? "
        + _FOODS
        + _WE,
        passing=True,
    ),
    _en(
        "health",
        ("make made give gave", _ALLERGEN_WORDS),
        _ALLERGENS
        + r"(?: \w+){0,2}? (?:makes?|made|gives?) (?:me|him|her|them|my "
        + _KIN
        + r"|my (?:throat|lips?|face|tongue|eyes|skin|mouth))(?: \w+)? (?:sick|ill|unwell|"
        r"throw up|vomit|swell|swell up|close up|itch|itchy|wheeze|break out|come out in|"
        r"bloated|hives|a rash)",
    ),
    _en(
        "health",
        ("sensi react", _ALLERGEN_WORDS),
        _WB + r"(?:sensitive|reacts?|react badly|reacts badly) to (?:\w+ )?" + _ALLERGENS + _WE,
    ),
    _en(
        "health",
        "hives rash rashe eczem welts aller",
        _WB + r"(?:gives?|gave) (?:me|him|her|them|my " + _KIN + r") (?:hives|a rash|rashes|"
        r"eczema|welts|an allergic reaction)|(?:break|breaks|come|comes) out in (?:hives|"
        r"a rash|rashes|welts)" + _WE,
    ),
    # medications
    _en("health", _DRUG_WORDS, _WB + _DRUGS + _WE),
    _en("health", "mg mcg", r"(?<![\w.])\d+(?:\.\d+)? ?(?:mg|mcg|µg)" + _WE),
    # health conditions
    _en(
        "health",
        _CONDITION_WORDS,
        _WB + r"(?:diabet(?:es|ic)|pre-?diabet(?:es|ic)|asthma(?:tic)?|epilep(?:sy|tic)|"
        r"seizures?|convulsions|(?:have|has|get|gets) fits|hypertension|high blood pressure|"
        r"low blood pressure|low blood sugar|hypoglyc(?:a)?emi(?:a|c)|heart (?:condition|"
        r"disease|failure|problems?|attack|murmur)|weak heart|arrhythmia|atrial fibrillation|"
        r"a-?fib|angina|migraines?|crohn'?s|colitis|ibs|irritable bowel|arthritis|gout|lupus|"
        r"fibromyalgia|multiple sclerosis|parkinson'?s|dementia|alzheimer'?s|cancer|"
        r"leukaemia|leukemia|tumou?r|hiv|hepatitis|kidney (?:disease|failure|stones?)|"
        r"liver disease|anaemi[ac]|anemi[ac]|thyroid|hypothyroid(?:ism)?|"
        r"hyperthyroid(?:ism)?|g6pd|sickle cell|haemophilia|hemophilia|copd|sleep apnoea|"
        r"sleep apnea|narcolepsy|immunocompromised|depression|depressed|anxiety disorder|"
        r"panic attacks?|bipolar|ptsd|ocd|adhd|autis(?:m|tic)|eating disorder|anorexia|"
        r"bulimia|chronic pain|long covid|endometriosis|pcos|osteoporosis|glaucoma|"
        r"cataracts?|tinnitus|vertigo|concussion|(?:had|has|have|after) a stroke|blood clots?|"
        r"dvt|heat ?stroke|sciatica|hernia|(?:slipped|herniated|bulging|prolapsed) dis[ck]|"
        r"(?:bad|dodgy|weak|injured|busted) (?:back|knees?|hips?|shoulders?|neck|ankles?|"
        r"heart)|(?:back|knee|hip|neck|shoulder) (?:pain|problems?|injur(?:y|ies)|trouble|"
        r"surgery|replacement)|(?:knees?|back|hips?) (?:is|are) (?:shot|bad|wrecked|gone|"
        r"knackered)|(?:broken|fractured) (?:leg|arm|ankle|wrist|hip|foot|collarbone|ribs?|"
        r"back|pelvis)|recovering from (?:a |an |my )?(?:\w+ )?(?:surgery|operation|op|"
        r"injury|fracture|stroke|heart attack|concussion|chemo\w*|cancer)|had surgery|"
        r"surgery (?:on|for))" + _WE,
    ),
    _Rule(
        "health",
        re.compile(
            r"(?<![A-Za-z])POTS(?![A-Za-z])|(?i:(?<![A-Za-z])(?:vasovagal|syncope)"
            r"(?![A-Za-z]))"
        ),  # fmt: skip
        (_stems("pots vasov synco"),),
    ),
    # the body's limits: swimming, lifting and bending, travel sickness, fainting
    _en(
        "health",
        "swim",
        _WB + r"(?:(?:can'?t|cannot|can not|unable to|never learn(?:ed|t) (?:how )?to|"
        r"don'?t know how to|do not know how to|didn'?t learn to|can barely|can hardly) "
        r"swim|non-?swimmer|(?:weak|poor|bad|terrible|nervous) swimmer|not a (?:very )?"
        r"(?:strong|good|confident|great) swimmer)" + _WE,
        passing=True,
    ),
    _en(
        "health",
        "lift carry pick kneel bend squat crouc twist sit run",
        _WB + r"(?:(?:can'?t|cannot|can not|unable to|not (?:allowed|supposed|meant) to|"
        r"shouldn'?t|should not|mustn'?t|must not|not to|no|avoid) (?:\w+ )?(?:lift|lifting|"
        r"carry|carrying|pick up|picking up)(?: any)? (?:anything(?: heavy| over| more than| "
        r"above| bigger)?|heavy|heavier|over \d|more than \d|much|weights?|things|stuff|"
        r"shopping|boxes|bags|loads?|objects|children|kids|my (?:arms?|kids?|children|son|"
        r"daughter|baby))|no (?:heavy |strenuous )?lifting|(?:can'?t|cannot|unable to|"
        r"not (?:allowed|supposed) to) (?:kneel|bend(?: down| over)?|squat|crouch|twist|"
        r"sit (?:for long|for more than|still for long)|run (?:far|for long|more than)))" + _WE,
        passing=True,
    ),
    _en(
        "health",
        "motio trave carsi seasi airsi sick queas nause throw",
        _WB + r"(?:(?:motion|travel|car|sea|air|bus|coach|train)[- ]?sick(?:ness)?|"
        r"(?:get|gets|feel|feels) (?:sick|ill|queasy|nauseous) (?:in|on) (?:the |a )?"
        r"(?:cars?|boats?|buses|coaches|planes|back seats?|back)|(?:throw|throws) up (?:in|on) "
        r"(?:cars?|boats?|buses|the car|a boat|the back seat))" + _WE,
    ),
    _en(
        "health",
        "faint pass black dizzy woozy light pale white funny queas keel sick seizu",
        _WB + r"(?:(?:prone to|tend to|tendency to|history of|episodes of|bouts of) "
        r"(?:faint(?:ing)?|pass(?:ing)? out|black(?:ing)? out|dizzy spells|seizures)|"
        r"(?<!nearly )(?<!almost )(?:faint|faints|pass out|passes out|black out|blacks out) "
        r"(?:easily|a lot|often|regularly|sometimes|if|when|whenever|at the sight|in the heat)|"
        r"(?:sometimes|often|easily|regularly|occasionally) (?:faint|pass out|black out)|"
        r"(?:fainting|dizzy|blackout) (?:spells?|episodes?|fits)|"
        r"(?:faint|pass out|black out|feel (?:faint|sick|dizzy|woozy|queasy)|get (?:faint|"
        r"dizzy|woozy|light-?headed|queasy)|go (?:faint|dizzy|pale|white|woozy)|come over "
        r"(?:all )?(?:faint|dizzy|funny|queasy)|keel over)(?: \w+){0,3}? (?:at|when|if|"
        r"whenever|around|from|during) (?:\w+ ){0,3}?(?:blood|needles?|injections?|jabs?|"
        r"blood tests?))" + _WE,
    ),
    # fears and phobias, with their trigger
    _en(
        "health",
        (_FEARFUL_WORDS, _FEARED_WORDS),
        _WB + _FEARFUL + r"(?: \w+){0,2}? (?:of|around|about|in|on|near|with|at|by|in front "
        r"of) " + _FEARED + _WE,
    ),
    _en(
        "health",
        ("fear fears phobi terro dread horro", _FEARED_WORDS),
        _WB + r"(?:fears?|phobias?|terror|dread|horror) of " + _FEARED + _WE,
    ),
    _en(
        "health",
        ("dread hate hates", "flyin needl injec heigh"),
        _WB + r"(?:dread|dreads|hate|hates) (?:flying|needles|injections|heights)"
        r"(?= (?:and|so|because)|$|[.,;!])",
    ),
    _en(
        "health",
        (_FEARED_WORDS, "scare scarr terri frigh freak make made give gives"),
        _WB + _FEARED + r"(?: \w+){0,2}? (?:(?:scares?|scarr?ed|terrif(?:y|ies)|frighten(?:s)?|"
        r"freak(?:s)?) " + _OBJ + r"(?: out)?|(?:makes?|make) " + _OBJ + r"(?: \w+)? (?:panic|"
        r"nervous|anxious|faint|dizzy|queasy|shaky|shake|scared|uneasy|freak out|pass out|"
        r"sick|feel faint|feel sick|tense|sweat)|(?:gives?|give) " + _OBJ + r" (?:panic "
        r"attacks|the creeps|anxiety|the shakes|the willies))" + _WE,
    ),
    _en(
        "health",
        ("can canno", _FEARED_WORDS),
        _WB + r"(?:can'?t|cannot|can not) (?:do|handle|cope with|manage|stand|deal with|face|"
        r"look at|be in|go in|get in|use) " + _FEARED + _WE,
    ),
    _en(
        "health",
        "flyer flier trave",
        _WB + r"(?:nervous|anxious|fearful|reluctant|white-knuckled?) "
        r"(?:flyer|flier|traveller|traveler)" + _WE,
    ),
    _en(
        "health",
        "*phob *claust",
        r"(?<![A-Za-z-])(?!(?:homo|xeno|trans|islamo|bi|techno|japano|sino|anglo|franco|"
        r"germano|russo)phob)[a-z]*phob(?:ia|ias|ic|ics|e|es)(?![A-Za-z])|"
        r"(?<![A-Za-z])claust[a-z]*",
    ),
    # recovery from addiction, and sobriety: a past told of is the fact itself
    _en(
        "health",
        "sober sobri recov alcoh addic drink gambl drug opioi opiat heroi cocai subst paink "
        "pill meth clean dry booze quit",
        _WB + r"(?:sober(?!(?: \w+)? curious)|sobriety|in recovery(?! mode)|"
        r"recovering (?:alcoholic|addict|gambler|drug addict|heroin addict|from (?:alcohol\w*|"
        r"drug\w*|addiction|opioid\w*|gambling|substance abuse|heroin|cocaine|drinking))|"
        r"(?<!non-)(?<!non )alcoholic(?! (?:drinks?|beverages?|beer|wine|punch|content|"
        r"version|cocktails?))|alcoholism|alcohol use disorder|"
        r"(?:(?<=an )|(?<=ex-)|(?<=drug )|(?<=heroin )|(?<=opioid )|(?<=recovering )|"
        r"(?<=former ))addicts?|(?:alcohol|drug|opioid|opiate|heroin|cocaine|gambling|"
        r"substance|painkiller|pill|meth) (?:addiction|abuse|problem|habit|dependency|"
        r"dependence)|(?:drinking|gambling) problem|problem with (?:alcohol|drink(?:ing)?|"
        r"drugs|gambling)|struggled? with (?:alcohol|drink(?:ing)?|drugs|addiction|gambling|"
        r"substance)|addicted to (?:alcohol|booze|drugs|heroin|cocaine|opioids|painkillers|"
        r"pills|gambling|meth|crack|sleeping pills|benzos)|"
        r"(?:(?:years?|months?|weeks?|days?) (?:sober|clean|dry)(?! ?-?shaven)|(?:been|stayed|"
        r"staying|now|still) (?:sober|clean|dry) (?:for|since)|(?:clean|dry) for (?:\d+|a|an|"
        r"one|two|three|four|five|six|seven|eight|nine|ten|over|almost|nearly) (?:\w+ )?"
        r"(?:years?|months?|weeks?|days?))|"
        r"(?:no longer|don'?t|do not|never) drink(?:s)?(?: alcohol| booze)?(?: any ?more| any "
        r"longer| these days| now)|no longer drinks?(?= *$|[.,;!])|"
        r"(?:stopped|quit|gave up|given up|giving up|quitting|cut out|kicked) (?:drinking(?! "
        r"(?:coffee|tea|soda|cola|coke|milk|juice|energy drinks|fizzy))|alcohol|booze|the "
        r"booze|the drink|drugs|gambling|heroin|cocaine|pills|喝酒)|haven'?t (?:had a "
        r"(?:drink|drop)|touched (?:a drop|alcohol|booze|a drink|drugs)) (?:since|in|for))" + _WE,
        past=True,
        passing=True,
    ),
    _Rule(
        "health",
        re.compile(
            r"(?<![A-Za-z])(?:AA|NA|GA)(?= (?:meetings?|sponsor|group))|(?:in|attend|attends|"
            r"go to|goes to|going to|at|joined) (?:AA|NA|GA)(?![A-Za-z])|"
            r"(?i:alcoholics anonymous|narcotics anonymous|gamblers anonymous|12[- ]steps?|"
            r"twelve[- ]steps?)"
        ),
        (_stems("aa na ga anony step steps twelv"),),
        past=True,
    ),
    # pregnancy and breastfeeding
    _en(
        "health",
        "pregn expec trime breas nursi pumpi expre postp postn post weeks tryin ivf bun pregg due",
        _WB + r"(?:pregnan(?:t(?! (?:pause|with (?!twins|triplets|(?:my|our|a|his|her|their|"
        r"the|our) )))|cy)|expecting (?:a baby|a child|twins|triplets|our (?:first|second|"
        r"third|fourth|\w+ (?:baby|child))|a (?:boy|girl|little one)|(?:in|this) (?:january|"
        r"february|march|april|may|june|july|august|september|october|november|december|"
        r"spring|summer|autumn|fall|winter))|trimester|breast[- ]?feed(?:ing|s)?|breastfed|"
        r"nursing (?:my|our|a|the) (?:baby|newborn|infant|little one|son|daughter|\d+[- ]"
        r"(?:week|month)[- ]old)|pumping breast ?milk|expressing (?:breast ?)?milk|"
        r"post-?partum|post-?natal|weeks along|trying to conceive|ivf|bun in the oven|"
        r"preggers|preggo|(?:my|our|the baby'?s?) due date|baby (?:is )?due (?:in|on|next|"
        r"this))" + _WE,
    ),
    # diets
    _en(
        "diet",
        "veget vegan pesca pesce halal koshe glute dairy lacto nut low keto plant jain fasti "
        "fasts fast renal kidne diabe cardi heart liqui soft bland elimi anti",
        _WB + r"(?:(?:vegetarian|vegan|pescatarian|pescetarian|halal|kosher|gluten-free|"
        r"dairy-free|lactose-free|nut-free|low-?(?:salt|sodium|sugar|fat|carb|fodmap|purine|"
        r"protein|potassium)|plant-based)" + _WE + _NOT_A_DISH + r"|keto(?:genic)? diet|jain|"
        r"fasting for ramadan|fasts? during ramadan|(?:renal|kidney|diabetic|cardiac|"
        r"heart[- ]healthy|liquid|soft[- ]food|bland|elimination|anti-inflammatory) diet)" + _WE,
    ),
    _en(
        "diet",
        (
            "don do never doesn does won will avoid stay stays gave cut",
            "pork beef meat red fish seafo shell alcoh glute dairy eggs 猪肉 牛肉 肉 海鲜 酒",
        ),
        _WB + r"(?:do(?:n'?t| not)|never|doesn'?t|does not|won'?t|will not|avoids?|"
        r"stays? away from|gave up|cut out) (?:eat |drink |have |touch )?(?:any )?"
        r"(?:pork|beef|meat|red meat|fish|seafood|shellfish|alcohol|gluten|dairy|eggs|猪肉|"
        r"牛肉|肉|海鲜|酒)" + _WE,
    ),
    _en(
        "diet", "diet teeto", _WB + r"(?:on a (?:diet|low[- ]\w+ diet)|teetotal|teetotaller)" + _WE
    ),  # fmt: skip
    _en(
        "diet",
        ("no", "pork beef meat alcoh shell seafo dairy glute eggs nuts"),
        _WB + r"(?:so|hence|therefore|which means|means)[,:]? no (?:pork|beef|meat|alcohol|"
        r"shellfish|seafood|dairy|gluten|eggs|nuts)" + _WE,
    ),
    # disabilities and accessibility
    _en(
        "access",
        "wheel deaf heari parti visua blind visio scree colou color dysle dyspr disab mobil "
        "walki zimme rolla cane walke crutc prost amput sign bsl asl stair step acces print "
        "text font walk stand guide senso",
        _WB + r"(?:wheelchairs?|deaf|hard of hearing|hearing aids?|hearing loss|"
        r"partially sighted|visually impaired|blind(?! (?:date|spot|tasting))|low vision|"
        r"screen readers?|colou?r-?blind|dyslexi[ac]|dyspraxi[ac]|disabled|disabilit(?:y|ies)|"
        r"(?:limited|reduced) mobility|mobility (?:scooter|issues?|problems?|aids?)|"
        r"walking (?:stick|frame)|zimmer frame|rollator|(?:use|uses|using|with) a (?:walking )?"
        r"(?:cane|walker)|crutches|prosthe(?:sis|tic)|amputee|sign language|bsl|asl|"
        r"can'?t (?:climb|manage|do) stairs|stairs are (?:hard|difficult|a struggle|tough|"
        r"a problem|impossible)|step-free|accessible (?:toilet|bathroom|entrance|room|"
        r"parking|seating|venue)|large (?:text|print|font)|(?:can'?t|cannot) (?:read|see) "
        r"(?:small|fine|tiny) (?:print|text|writing)|(?:can'?t|cannot|unable to) walk (?:far|"
        r"long|very far|for long|more than|long distances)|(?:can'?t|cannot|unable to) stand "
        r"(?:for long|for more than|up for long)|guide dog|large print|sensory (?:issues|"
        r"overload|processing))" + _WE,
    ),
    # asked to be always remembered
    _en(
        "asked",
        "alway never forge keep remem impor",
        _WB + r"(?:always remember|never forget|don'?t (?:ever )?forget(?! to |,| (?:that )?"
        r"you\b)|keep in mind always|remember this always)" + _WE,
        asked=True,
    ),
]

# Chinese: what one is afraid of (怕狗, 害怕坐飞机, 不敢坐电梯).
_ZH_FEARED = (
    r"(?:狗|大狗|猫|水|深水|海|大海|游泳|高(?!温|考|血|价|峰|铁|速|中|跟|端|兴|手|级|烧)|高处|"
    r"高的地方|黑|打针|针|针头|扎针|抽血|血|坐飞机|飞机|飞|蛇|蜘蛛|虫子|蟑螂|老鼠|人多|人群|"
    r"密闭|封闭|幽闭|狭小|小空间|电梯|隧道|打雷|雷|闪电|开车|上高速|坐船|看牙|牙医|医院|"
    r"过山车|摩天轮|缆车|玻璃栈道|蹦极|爬高|登高|过桥|火(?!锅|车|箭|腿))"
)
_ZH: list[_Rule] = [
    _zh(
        "health",
        "敏耐麸糜症肾",
        r"过敏|不耐受|乳糖不耐|麸质|乳糜泻|花粉症|肾上腺素笔",
        allergy=True,
    ),  # fmt: skip
    _zh(
        "health",
        "吃喝碰用服",
        r"(?:不能|不可以|不宜|不敢|不可|忌)(?:吃|喝|碰|用|服用)",
        passing=True,
    ),  # fmt: skip
    _zh(
        "health",
        "肚疹包喘呼肿痒胀",
        r"(?:吃|喝|碰|用)[^，。；,;]{0,6}(?:就|会|都会|就会)(?:拉肚子|起疹子|起红疹|长疹子|"
        r"起包|喘不上气|呼吸困难|嘴肿|肿|痒|胀气)",
    ),
    _zh(
        "health",
        "药胰华阿他二吸化放透起优左氨西舍氟帕文碳丙拉卡泼甲利美褪抗激毫",
        r"吃药|服药|用药|在吃.{0,8}药|开了.{0,8}药|药物|药膏|处方|(?:降压|降糖|抗凝|抗抑郁|"
        r"抗焦虑|安眠|止痛|抗癫痫|甲状腺|避孕|哮喘|激素)药|胰岛素|华法林|阿司匹林|他汀|"
        r"二甲双胍|吸入器|化疗|放疗|透析|起搏器|优甲乐|左甲状腺素|氨氯地平|西酞普兰|舍曲林|"
        r"氟西汀|帕罗西汀|文拉法辛|碳酸锂|丙戊酸|拉莫三嗪|卡马西平|泼尼松|甲氨蝶呤|利他林|"
        r"阿普唑仑|美沙酮|褪黑素|抗凝|激素|毫克",
    ),
    _zh(
        "health",
        "尿糖哮喘痫癫搐厥压脏律颤痛恩炎激风疮森呆茨癌病瘤滋肝肾贫亢减腺蚕友肺眠郁虑惊慌相症障"
        "宫囊松眼鸣眩栓术嘌椎盘劳板腰膝腿节踝肩",
        r"糖尿病|糖尿病前期|血糖|哮喘|气喘|癫痫|羊癫疯|抽搐|惊厥|高血压|低血压|低血糖|心脏病|"
        r"心脏(?:搭桥|支架|不好|不太好|有问题)|心律不齐|房颤|"
        r"偏头痛|克罗恩|结肠炎|肠易激|关节炎|痛风|红斑狼疮|帕金森|痴呆|阿尔茨海默|癌|白血病|"
        r"肿瘤|艾滋|肝炎|乙肝|肾病|肾结石|贫血|甲亢|甲减|甲状腺|蚕豆病|血友病|慢阻肺|"
        r"睡眠呼吸暂停|抑郁|焦虑症|惊恐发作|恐慌症|双相情感|多动症|自闭症|孤独症|进食障碍|厌食症|"
        r"慢性疼痛|子宫内膜异位|多囊|骨质疏松|青光眼|白内障|耳鸣|眩晕|中风|血栓|手术|嘌呤|"
        r"腰椎|椎间盘|腰间盘|腰肌劳损|半月板|颈椎病|"
        r"(?:腰|膝盖|腿|颈椎|关节|脚踝|肩膀)(?:一直)?(?:不好|不太好|有伤|受过伤|有问题|"
        r"有毛病|有旧伤)",
    ),
    # the body's limits
    _zh(
        "health",
        "游泳水鸭提搬拎抬扛拿负重弯蹲坐爬跑剧",
        r"不会(?:游泳|水)|旱鸭子|水性不好|游不了泳|(?:不能|不可以)(?:游泳|下水)|"
        r"(?:不能|不可以|不宜|别|避免)(?:提|搬|拎|抬|扛|拿)(?:重物|重东西|重的|太重)|"
        r"(?:提|搬|拎|抬|扛|拿)不(?:了|动)(?:重物|重东西|重的)|不能负重|不能干重活|"
        r"(?:不能|没法|无法)(?:弯腰|下蹲|久坐|剧烈运动|爬山|爬楼梯|跑步)",
        passing=True,
    ),
    _zh(
        "health",
        "晕吐昏厥",
        r"晕(?:车|船|机)|坐(?:车|船|飞机|大巴|公交|汽车)(?:容易|会|就|必|老是|总是|特别容易|很容易)"
        r"(?:吐|恶心|头晕|晕|想吐)|晕倒|晕厥|昏倒|昏厥|晕血|晕针|"
        r"(?:打针|抽血|扎针|见血|看到血|看见血|见到血)[^，。；,;]{0,4}(?:会|就|要)?"
        r"(?:晕|头晕|发晕|晕倒|腿软|想吐)|容易(?:晕|头晕)",
    ),
    # fears and phobias
    _zh(
        "health",
        "恐畏惧怕敢慌紧喘软抖晕吐哭窒",
        r"恐高|恐水|畏高|惧高|恐飞|恐惧症|恐惧感|幽闭恐惧|"
        r"(?:很|特别|非常|超|最|好|挺|比较|有点|一直|从小就|从小|都)?(?:害)?怕"
        + _ZH_FEARED
        + r"|不敢(?:坐|上|下|进|去|碰|开|看|靠近|摸|走)"
        + _ZH_FEARED
        + r"|怕\s*(?:heights|dogs?|flying|needles|water|blood|the dark|spiders|snakes)|"
        r"对[^，。；,;]{0,6}有恐惧|"
        r"一?(?:进|到|上|坐|看到|看见|见到|站在|靠近)[^，。；,;]{0,8}就(?:心慌|害怕|紧张|恐慌|"
        r"喘不过气|腿软|发抖|头晕|晕|想吐|吐|哭)|"
        r"(?:坐飞机|电梯|高处|狗|打针|密闭空间)[^，。；,;]{0,3}(?:让我|使我|会让我)(?:恐慌|害怕|"
        r"紧张|心慌|发抖|窒息)",
    ),
    # recovery from addiction
    _zh(
        "health",
        "戒瘾酗毒赌酒",
        r"戒酒|戒毒|戒赌|酒瘾|毒瘾|赌瘾|酗酒|吸毒|酒精(?:成瘾|依赖|中毒)|(?:酒|毒|赌)(?:上瘾|成瘾)|"
        r"戒酒互助|匿名戒酒|(?:不再|再也不|已经不)(?:喝|碰)酒|不喝酒了|不碰酒了",
        past=True,
        passing=True,
    ),
    # pregnancy
    _zh(
        "health",
        "孕怀哺乳奶预婴月产",
        r"怀孕|孕期|怀了.{0,3}(?:宝宝|孩子|二胎)|怀(?:二胎|三胎|宝宝|孩子|双胞胎|上了)|备孕|哺乳|"
        r"母乳|喂奶|孕妇|孕周|孕(?:早|中|晚)期|预产期|试管婴儿|坐月子|月子里|产后",
    ),
    # diets
    _zh(
        "diet",
        "素斋清回犹盐钠糖脂麸碳酮忌猪牛肉海鱼酒辣节",
        r"素食|吃素|纯素|全素|吃斋|斋戒|清真|回民|犹太洁食|低盐|少盐|低钠|低糖|少糖|无糖|控糖|低脂|"
        r"无麸质|低碳(?:水)?饮食|生酮|忌口|"
        r"(?:不|从不|从来不|不再)(?:吃|喝|碰).{0,4}(?:猪肉|牛肉|肉|海鲜|鱼|酒|辣)|滴酒不沾|节食",
    ),
    # disabilities and accessibility
    _zh(
        "access",
        "轮听聋障视盲弱色阅行拐杖助残手假导爬走碍失眼站",
        r"轮椅|听障|听力(?:不好|不太好|差|受损)|听不见|听不清|失聪|弱听|耳聋|聋|助听器|视障|失明|"
        r"盲人|弱视|视力(?:很差|不好|差|弱|很弱)|眼睛不好|看不清(?:小字|字)|色盲|色弱|阅读障碍|"
        r"行动不便|拐杖|手杖|助行器|残疾|残障|手语|假肢|导盲犬|爬不了楼梯|无障碍|"
        r"走不了(?:远路|太远|多远|很远|远)|不能走(?:远路|太远|很久)|(?:不能|没法|无法)久站",
    ),
    _zh(
        "asked",
        "记忘",
        r"永远记住|一定要记住|务必记住|始终记住|千万(?:要)?记(?:住|得)|"
        r"请一直记得|永远别忘|千万别忘",
        asked=True,
    ),
]


def _index() -> tuple[dict[str, list[tuple[int, int]]], list[tuple[int, int, str]]]:
    """Each stem or Chinese character -> the (rule, group) it opens, a stem's own and
    those of the shorter stems it starts with; and the items found as pieces of the
    text instead ("*phob", "猪肉")."""
    stems: dict[str, list[tuple[int, int]]] = {}
    pieces: list[tuple[int, int, str]] = []
    for r, rule in enumerate(_RULES):
        for g, group in enumerate(rule.needs):
            for item in group:
                if item[0] == "*" or (not item.isascii() and not rule.zh):
                    pieces.append((r, g, item.lstrip("*")))
                else:
                    stems.setdefault(item, []).append((r, g))
    opens = {
        stem: [hit for n in range(1, len(stem) + 1) for hit in stems.get(stem[:n], ())]
        for stem in stems
    }
    return opens, pieces


def _trie(words: list[str]) -> str:
    """A regex that finds the longest of `words` a text holds at a place, as a trie: an
    alternation of 600 stems tried at every word is slow, a trie is not."""
    root: dict[str, dict] = {}
    for word in words:
        node = root
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def branch(node: dict[str, dict]) -> str:
        alts = [re.escape(c) + branch(child) for c, child in sorted(node.items()) if c]
        if not alts:
            return ""
        body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
        return f"(?:{body})?" if "" in node else body

    return branch(root)


def _candidates(lower: str) -> list[_Rule]:
    """The rules whose every match the sentence could hold (see _Rule.needs), in order."""
    opened: dict[int, int] = {}  # rule -> the groups found, as bits
    for stem in set(_STEM_FINDER.findall(lower)):
        for r, g in _STEMS[stem]:
            opened[r] = opened.get(r, 0) | 1 << g
    for r, g, piece in _PIECES:
        if piece in lower:
            opened[r] = opened.get(r, 0) | 1 << g
    return [_RULES[r] for r in sorted(opened) if opened[r] == _ALL_GROUPS[r]]


# -- whether it holds, and whose it is ---------------------------------------------------

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
_EN_KIN = re.compile(r"\b(?:my|our|the user's|user's)\s+(?:[a-z]+\s+)?" + _KIN + r"\b", _I)
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


def _holds(rule: _Rule, text: str, start: int, end: int) -> bool:
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


def names_care(text: str) -> bool:
    """Whether a text holds a word such facts are read by (an allergen, a drug, a
    condition, a fear: "peanuts", "allergy", "insulin"), though it says no fact itself:
    a "forget peanuts" is about the peanut allergy, a "forget Lisbon" is not."""
    lower = _plain(text).lower()
    return any(stem in _STEMS for stem in _STEM_FINDER.findall(lower)) or any(
        piece in lower for _r, _g, piece in _PIECES
    )


def recognise(text: str) -> str | None:
    """The kind of care a memory's text calls for (one of CATEGORIES), or None."""
    if not text:
        return None
    plain = _plain(text)
    candidates = _candidates(plain.lower())
    if not candidates:
        return None
    found: set[str] = set()
    for rule in candidates:
        if rule.category in found:
            continue
        for match in rule.pattern.finditer(plain):
            if _holds(rule, plain, match.start(), match.end()):
                found.add(rule.category)
                break
    return next((c for c in CATEGORIES if c in found), None)


_RULES = (*_EN, *_ZH)
_STEMS, _PIECES = _index()
_ALL_GROUPS = [(1 << len(rule.needs)) - 1 for rule in _RULES]
# a stem of one or two letters ("mg", "AA") only as a word of its own
_STEM_FINDER = re.compile(
    r"(?<![a-z])(?:"
    + "|".join(sorted(s for s in _STEMS if s.isascii() and len(s) < 3))
    + r")(?![a-z])|(?<![a-z])"
    + _trie([s for s in _STEMS if s.isascii() and len(s) >= 3])
    + "|["
    + "".join(sorted(s for s in _STEMS if not s.isascii()))
    + "]"
)


def care_of(text: str, always: bool | None) -> str | None:
    """What a new memory's text calls for; one the writer asked to be always given that
    its text does not mark was asked to be always remembered."""
    recognised = recognise(text)
    return (recognised or "asked") if always else recognised
