"""Relevance in Chinese, English and across the two: does search find the memory a
question is about, and nothing for a question about something never mentioned?

A profile gets 32 memories of one person's life, half written in Chinese and half in
English (as a bilingual user's extracted memories are), then answers:

- questions about one memory, in the memory's language (zh->zh, en->en) and in the
  other one (zh->en: a Chinese question about an English memory; en->zh);
- questions about things the store never mentions, in both languages;
- greetings and small talk in both languages (the read-path benchmark's list).

Reported, per kind of question: `found` (the share whose memory passes the relevance
rule and is among the first 5 hits) and `ranked` (among the first 5 of the plain
ranking, relevant or not: what the embedding model can do at all), `unrelated_empty`
(share of unrelated questions with no hit), `smalltalk_injected` (mean hits per
greeting). Run it with a multilingual model; all-MiniLM is English-only and shows the
floor:

    python benchmarks/multilingual.py [--backend e5|minilm] [--ollama-host URL --embed-model M] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import embed_server, scratch_home
from benchmarks.context import SMALLTALK
from desktop_mem.core.config import Config
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.profile import Profile

# (memory, a question in its own language, a question in the other language)
MEMORIES: tuple[tuple[str, str, str], ...] = (
    ("我在杭州一家医院做护士，经常上夜班。", "我是做什么工作的？", "What is my job?"),
    ("我对花生严重过敏。", "我对什么食物过敏？", "Which food am I allergic to?"),
    (
        "我女儿小雨下个月要参加钢琴十级考试。",
        "我女儿在学什么乐器？",
        "What instrument does my daughter play?",
    ),
    ("我养了一只叫豆豆的柯基犬。", "我的狗叫什么名字？", "What is my dog called?"),
    ("我每个周末都去西湖边跑步。", "我周末一般做什么运动？", "What exercise do I do on weekends?"),
    ("我老家在四川成都，很能吃辣。", "我是哪里人？", "Where is my hometown?"),
    ("我正在自学日语，准备明年去京都旅行。", "我在学哪门外语？", "Which language am I studying?"),
    ("我不喝咖啡，只喝绿茶。", "我平时喝什么饮料？", "What do I usually drink?"),
    ("我丈夫是一名中学物理老师。", "我先生是做什么的？", "What does my husband do for a living?"),
    ("我开一辆白色的电动车上班。", "我开什么车？", "What car do I drive?"),
    ("我最喜欢的作家是余华，最爱读《活着》。", "我最喜欢哪位作家？", "Who is my favourite author?"),
    (
        "我妈妈有糖尿病，需要每天打胰岛素。",
        "我妈妈身体有什么问题？",
        "What health problem does my mother have?",
    ),
    (
        "我们打算明年春天在郊区买房。",
        "我们什么时候准备买房子？",
        "When are we planning to buy a house?",
    ),
    (
        "我周三晚上去社区中心学陶艺。",
        "我周三晚上有什么课？",
        "What class do I take on Wednesday evenings?",
    ),
    ("我的生日是十一月三号。", "我哪天过生日？", "When is my birthday?"),
    (
        "我害怕坐飞机，出远门更愿意坐高铁。",
        "我出远门喜欢怎么走？",
        "How do I prefer to travel long distances?",
    ),
    (
        "I play the cello in a community orchestra.",
        "Do I play any instrument?",
        "我会演奏什么乐器？",
    ),
    (
        "My brother Tom lives in Vancouver and works as an architect.",
        "Where does my brother live?",
        "我哥哥住在哪里？",
    ),
    ("I am vegetarian and have not eaten meat for ten years.", "Do I eat meat?", "我吃肉吗？"),
    (
        "I am training for the Berlin marathon in September.",
        "What race am I preparing for?",
        "我在准备什么比赛？",
    ),
    ("My favourite film is Spirited Away.", "Which movie do I love most?", "我最喜欢哪部电影？"),
    (
        "I have a cat named Miso who hates the vacuum cleaner.",
        "What is my cat's name?",
        "我的猫叫什么？",
    ),
    (
        "I work remotely as a data analyst for a bank in London.",
        "Who do I work for?",
        "我在哪家公司工作？",
    ),
    ("I grow tomatoes and basil on my balcony.", "What do I grow at home?", "我在阳台上种了什么？"),
    (
        "My wife and I got married in Lisbon in 2019.",
        "Where did I get married?",
        "我在哪里结的婚？",
    ),
    ("I am allergic to penicillin.", "Am I allergic to any medicine?", "我对什么药过敏？"),
    ("I collect vintage film cameras.", "What do I collect?", "我收藏什么东西？"),
    (
        "My son Leo is starting university in Edinburgh this autumn.",
        "Which university is my son going to?",
        "我儿子要去哪里上大学？",
    ),
    (
        "I go rock climbing at an indoor gym every Tuesday.",
        "What sport do I do on Tuesdays?",
        "我每周二做什么运动？",
    ),
    ("I can't stand spicy food.", "Do I like spicy dishes?", "我能吃辣吗？"),
    ("I drive an old blue Volvo estate.", "What kind of car do I have?", "我的车是什么牌子的？"),
    (
        "My grandmother taught me to knit when I was seven.",
        "Who taught me to knit?",
        "谁教我织毛衣的？",
    ),
)

# Questions about things none of the memories mention.
UNRELATED: tuple[str, ...] = (
    "What is my passport number?",
    "When did I last visit the dentist?",
    "What is my favourite football team?",
    "How much is my monthly rent?",
    "Which bank holds my mortgage?",
    "What is the name of my piano teacher?",
    "Did I ever break a bone?",
    "What colour are my bedroom walls?",
    "Where did I go to primary school?",
    "What did I have for breakfast yesterday?",
    "我的护照号码是多少？",
    "我上次看牙医是什么时候？",
    "我支持哪支足球队？",
    "我每个月房租多少钱？",
    "我的钢琴老师叫什么名字？",
    "我骨折过吗？",
    "我卧室的墙是什么颜色？",
    "我小学在哪里上的？",
    "我昨天早饭吃了什么？",
    "我的邮箱密码是什么？",
)


def _lang(text: str) -> str:
    from desktop_mem.core.textproc import has_cjk

    return "zh" if has_cjk(text) else "en"


def run(url: str, model: str) -> dict:
    started = time.perf_counter()
    with scratch_home() as home:
        config = Config.resolve(home=home, ollama_host=url, embed_model=model)
        with Profile.open(config) as prof:
            mems, warnings = prof.memories.add_many([NewMemory(m) for m, _, _ in MEMORIES])
            if warnings:
                sys.exit(f"embedding failed: {warnings[0]}")
            rows: dict[str, dict[str, list[float]]] = {}
            for mem, (text, own, other) in zip(mems, MEMORIES, strict=True):
                for question in (own, other):
                    kind = f"{_lang(question)}->{_lang(text)}"
                    relevant = [h.memory.id for h in prof.search.search(question, k=5).hits]
                    ranked = [
                        h.memory.id
                        for h in prof.search.search(question, k=5, relevant_only=False).hits
                    ]
                    row = rows.setdefault(kind, {"found": [], "ranked": [], "hits": []})
                    row["found"].append(float(mem.id in relevant))
                    row["ranked"].append(float(mem.id in ranked))
                    row["hits"].append(float(len(relevant)))
            unrelated = {"en": [], "zh": []}  # type: dict[str, list[float]]
            for question in UNRELATED:
                hits = prof.search.search(question, k=5).hits
                unrelated[_lang(question)].append(float(not hits))
            talk = [float(len(prof.search.search(t, k=5).hits)) for t in SMALLTALK]

    def mean(xs: list[float]) -> float:
        return round(sum(xs) / len(xs), 3) if xs else float("nan")

    everything = [x for r in rows.values() for x in r["found"]]
    return {
        "embed_model": model,
        "found": mean(everything),
        "by_kind": {
            k: {"found": mean(r["found"]), "ranked": mean(r["ranked"]), "hits": mean(r["hits"])}
            for k, r in sorted(rows.items())
        },
        "unrelated_empty": mean(unrelated["en"] + unrelated["zh"]),
        "unrelated_empty_by_language": {k: mean(v) for k, v in unrelated.items()},
        "smalltalk_injected": mean(talk),
        "memories": len(MEMORIES),
        "seconds": round(time.perf_counter() - started, 1),
    }


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--backend", choices=["e5", "minilm"], default="e5",
                    help="the offline server's model (default: multilingual-e5-small)")  # fmt: skip
    ap.add_argument("--ollama-host", help="a server with the embedding model instead")
    ap.add_argument("--embed-model", help="its model name (with --ollama-host)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.ollama_host:
        result = run(args.ollama_host, args.embed_model or "bge-m3")
    else:
        with embed_server(backend=args.backend) as url:
            result = run(url, "multilingual-e5-small" if args.backend == "e5" else "all-minilm")
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
        return
    print(f"Relevance across languages, {result['memories']} memories, {result['embed_model']}")
    print(f"{'question->memory':<18}{'found':>8}{'ranked':>8}{'hits':>8}")
    for kind, row in result["by_kind"].items():
        print(f"{kind:<18}{row['found']:>8}{row['ranked']:>8}{row['hits']:>8}")
    print(f"found overall {result['found']}; unrelated questions empty "
          f"{result['unrelated_empty']} {result['unrelated_empty_by_language']}; "
          f"small talk {result['smalltalk_injected']} hits; {result['seconds']} s")  # fmt: skip


if __name__ == "__main__":
    main()
