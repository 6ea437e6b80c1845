"""The English rules of core/memory/care: the words and phrasings that say a fact of
health or safety ("allergic to peanuts", "on blood thinners", "terrified of heights")."""

from __future__ import annotations

import re

from desktop_mem.core.memory.care.rule import Rule

_I = re.IGNORECASE
_WB = r"(?<![A-Za-z])"  # a word boundary that treats "'" as part of a word
_WE = r"(?![A-Za-z])"


def _stems(words: str) -> frozenset[str]:
    return frozenset(w if w[0] == "*" or not w.isascii() else w[:8] for w in words.split())


def _rule(category: str, needs: str | tuple[str, ...], pattern: str, **flags: bool) -> Rule:
    groups = (needs,) if isinstance(needs, str) else needs
    return Rule(category, re.compile(pattern, _I), tuple(map(_stems, groups)), **flags)


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
KIN = (
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

EN_RULES: list[Rule] = [
    # allergies and intolerances
    _rule(
        "health",
        "aller anaph intol coeli celia hay",
        _WB + r"(?:allerg(?:y|ies|ic)|anaphyla(?:xis|ctic)|intoleran(?:t|ce)|"
        r"coeliac|celiac|hay ?fever)" + _WE,
        allergy=True,
    ),
    _rule(
        "health",
        ("can canno must shoul unabl allow never", _FOOD_WORDS),
        _WB + r"(?:can'?t|cannot|can not|mustn'?t|must not|shouldn'?t|should not|unable to|"
        r"not allowed to|never) (?:have|eat|drink|take|tolerate|digest|touch)(?: any)? "
        + _FOODS
        + _WE,
        passing=True,
    ),
    _rule(
        "health",
        ("make made give gave", _ALLERGEN_WORDS),
        _ALLERGENS
        + r"(?: \w+){0,2}? (?:makes?|made|gives?) (?:me|him|her|them|my "
        + KIN
        + r"|my (?:throat|lips?|face|tongue|eyes|skin|mouth))(?: \w+)? (?:sick|ill|unwell|"
        r"throw up|vomit|swell|swell up|close up|itch|itchy|wheeze|break out|come out in|"
        r"bloated|hives|a rash)",
    ),
    _rule(
        "health",
        ("sensi react", _ALLERGEN_WORDS),
        _WB + r"(?:sensitive|reacts?|react badly|reacts badly) to (?:\w+ )?" + _ALLERGENS + _WE,
    ),
    _rule(
        "health",
        "hives rash rashe eczem welts aller",
        _WB + r"(?:gives?|gave) (?:me|him|her|them|my " + KIN + r") (?:hives|a rash|rashes|"
        r"eczema|welts|an allergic reaction)|(?:break|breaks|come|comes) out in (?:hives|"
        r"a rash|rashes|welts)" + _WE,
    ),
    # medications
    _rule("health", _DRUG_WORDS, _WB + _DRUGS + _WE),
    _rule("health", "mg mcg", r"(?<![\w.])\d+(?:\.\d+)? ?(?:mg|mcg|µg)" + _WE),
    # health conditions
    _rule(
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
    Rule(
        "health",
        re.compile(
            r"(?<![A-Za-z])POTS(?![A-Za-z])|(?i:(?<![A-Za-z])(?:vasovagal|syncope)"
            r"(?![A-Za-z]))"
        ),  # fmt: skip
        (_stems("pots vasov synco"),),
    ),
    # the body's limits: swimming, lifting and bending, travel sickness, fainting
    _rule(
        "health",
        "swim",
        _WB + r"(?:(?:can'?t|cannot|can not|unable to|never learn(?:ed|t) (?:how )?to|"
        r"don'?t know how to|do not know how to|didn'?t learn to|can barely|can hardly) "
        r"swim|non-?swimmer|(?:weak|poor|bad|terrible|nervous) swimmer|not a (?:very )?"
        r"(?:strong|good|confident|great) swimmer)" + _WE,
        passing=True,
    ),
    _rule(
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
    _rule(
        "health",
        "motio trave carsi seasi airsi sick queas nause throw",
        _WB + r"(?:(?:motion|travel|car|sea|air|bus|coach|train)[- ]?sick(?:ness)?|"
        r"(?:get|gets|feel|feels) (?:sick|ill|queasy|nauseous) (?:in|on) (?:the |a )?"
        r"(?:cars?|boats?|buses|coaches|planes|back seats?|back)|(?:throw|throws) up (?:in|on) "
        r"(?:cars?|boats?|buses|the car|a boat|the back seat))" + _WE,
    ),
    _rule(
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
    _rule(
        "health",
        (_FEARFUL_WORDS, _FEARED_WORDS),
        _WB + _FEARFUL + r"(?: \w+){0,2}? (?:of|around|about|in|on|near|with|at|by|in front "
        r"of) " + _FEARED + _WE,
    ),
    _rule(
        "health",
        ("fear fears phobi terro dread horro", _FEARED_WORDS),
        _WB + r"(?:fears?|phobias?|terror|dread|horror) of " + _FEARED + _WE,
    ),
    _rule(
        "health",
        ("dread hate hates", "flyin needl injec heigh"),
        _WB + r"(?:dread|dreads|hate|hates) (?:flying|needles|injections|heights)"
        r"(?= (?:and|so|because)|$|[.,;!])",
    ),
    _rule(
        "health",
        (_FEARED_WORDS, "scare scarr terri frigh freak make made give gives"),
        _WB + _FEARED + r"(?: \w+){0,2}? (?:(?:scares?|scarr?ed|terrif(?:y|ies)|frighten(?:s)?|"
        r"freak(?:s)?) " + _OBJ + r"(?: out)?|(?:makes?|make) " + _OBJ + r"(?: \w+)? (?:panic|"
        r"nervous|anxious|faint|dizzy|queasy|shaky|shake|scared|uneasy|freak out|pass out|"
        r"sick|feel faint|feel sick|tense|sweat)|(?:gives?|give) " + _OBJ + r" (?:panic "
        r"attacks|the creeps|anxiety|the shakes|the willies))" + _WE,
    ),
    _rule(
        "health",
        ("can canno", _FEARED_WORDS),
        _WB + r"(?:can'?t|cannot|can not) (?:do|handle|cope with|manage|stand|deal with|face|"
        r"look at|be in|go in|get in|use) " + _FEARED + _WE,
    ),
    _rule(
        "health",
        "flyer flier trave",
        _WB + r"(?:nervous|anxious|fearful|reluctant|white-knuckled?) "
        r"(?:flyer|flier|traveller|traveler)" + _WE,
    ),
    _rule(
        "health",
        "*phob *claust",
        r"(?<![A-Za-z-])(?!(?:homo|xeno|trans|islamo|bi|techno|japano|sino|anglo|franco|"
        r"germano|russo)phob)[a-z]*phob(?:ia|ias|ic|ics|e|es)(?![A-Za-z])|"
        r"(?<![A-Za-z])claust[a-z]*",
    ),
    # recovery from addiction, and sobriety: a past told of is the fact itself
    _rule(
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
    Rule(
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
    _rule(
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
    _rule(
        "diet",
        "veget vegan pesca pesce halal koshe glute dairy lacto nut low keto plant jain fasti "
        "fasts fast renal kidne diabe cardi heart liqui soft bland elimi anti",
        _WB + r"(?:(?:vegetarian|vegan|pescatarian|pescetarian|halal|kosher|gluten-free|"
        r"dairy-free|lactose-free|nut-free|low-?(?:salt|sodium|sugar|fat|carb|fodmap|purine|"
        r"protein|potassium)|plant-based)" + _WE + _NOT_A_DISH + r"|keto(?:genic)? diet|jain|"
        r"fasting for ramadan|fasts? during ramadan|(?:renal|kidney|diabetic|cardiac|"
        r"heart[- ]healthy|liquid|soft[- ]food|bland|elimination|anti-inflammatory) diet)" + _WE,
    ),
    _rule(
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
    _rule(
        "diet", "diet teeto", _WB + r"(?:on a (?:diet|low[- ]\w+ diet)|teetotal|teetotaller)" + _WE
    ),  # fmt: skip
    _rule(
        "diet",
        ("no", "pork beef meat alcoh shell seafo dairy glute eggs nuts"),
        _WB + r"(?:so|hence|therefore|which means|means)[,:]? no (?:pork|beef|meat|alcohol|"
        r"shellfish|seafood|dairy|gluten|eggs|nuts)" + _WE,
    ),
    # disabilities and accessibility
    _rule(
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
    _rule(
        "asked",
        "alway never forge keep remem impor",
        _WB + r"(?:always remember|never forget|don'?t (?:ever )?forget(?! to |,| (?:that )?"
        r"you\b)|keep in mind always|remember this always)" + _WE,
        asked=True,
    ),
]
