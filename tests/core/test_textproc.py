from __future__ import annotations

from desktop_mem.core.textproc import (
    fts_document,
    fts_match,
    matched_spans,
    query_terms,
    speaks_of_self,
)


def test_cjk_runs_become_bigrams_and_english_is_untouched() -> None:
    assert fts_document("我下个月要考试 in Tokyo") == " 我下 下个 个月 月要 要考 考试  in Tokyo"


def test_single_cjk_character_is_kept() -> None:
    assert fts_document("猫") == " 猫 "


def test_query_terms_drop_stopwords_and_split_cjk() -> None:
    assert query_terms("When did Caroline go to the LGBTQ support group?") == [
        "caroline", "go", "lgbtq", "support", "group",
    ]  # fmt: skip
    assert query_terms("东京的天气") == ["东京", "京的", "的天", "天气"]
    assert query_terms("who are you") == ["who", "are", "you"]  # only stop words: keep them


def test_chinese_function_words_are_found_only_where_they_are_words() -> None:
    from desktop_mem.core.textproc import cjk_function_positions

    assert cjk_function_positions("我对什么过敏") == {0, 2, 3}  # 我, 什么; 过 is in 过敏
    assert cjk_function_positions("为什么是你") == {0, 1, 2, 3, 4}
    assert cjk_function_positions("西湖边跑步") == set()


def test_full_width_is_normalized() -> None:
    assert query_terms("ＴＯＫＹＯ２０２６") == ["tokyo2026"]


def test_fts_syntax_in_queries_is_quoted() -> None:
    expr = fts_match(query_terms('"NEAR(a b)" OR -x * AND'))
    assert expr is not None
    for part in expr.split(" OR "):
        assert part.startswith('"')
    assert fts_match([]) is None
    assert fts_match(["猫"]) == '"猫"*'


def test_plain_text_is_what_markdown_reads_as() -> None:
    from desktop_mem.core.textproc import plain_text

    md = "## Tea\n\n**Green tea** is *great*; see [Longjing](http://x).\n\n- one\n- `two`\n"
    assert plain_text(md) == "Tea Green tea is great; see Longjing. one two"
    assert plain_text("```py\nprint(1)\n```\n> quoted\n1. first") == "print(1) quoted first"
    assert plain_text("你好，**世界**！") == "你好，世界！"
    assert plain_text("snake_case_name and 2 * 3 * 4") == "snake_case_name and 2 * 3 * 4"


def test_the_period_a_question_names() -> None:
    from desktop_mem.core.textproc import named_period

    assert named_period("What setback did Mel face in October 2023?") == (
        "2023-10-01",
        "2023-11-01",
    )
    assert named_period("the painting shown on October 13, 2023") == ("2023-10-13", "2023-10-14")
    assert named_period("what she found on 1st February, 2023") == ("2023-02-01", "2023-02-02")
    assert named_period("December 2023") == ("2023-12-01", "2024-01-01")
    assert named_period("beaches in 2023") == ("2023-01-01", "2024-01-01")
    assert named_period("on 2023-05-03") == ("2023-05-03", "2023-05-04")
    assert named_period("我2023年5月去了哪里") == ("2023-05-01", "2023-06-01")
    assert named_period("2023年5月3日") == ("2023-05-03", "2023-05-04")
    # no year, no date, or no such day: nothing to go on
    assert named_period("camping in June") is None
    assert named_period("I may go hiking") is None
    assert named_period("2024-02-30") is None and named_period("31 April 2023") is None


def test_a_text_speaks_of_its_writer_in_either_language() -> None:
    for said in ("What's my blood type?", "do I have siblings", "I’m tired", "remind us",
                 "我喜欢喝什么？", "Which firm am I employed by?"):  # fmt: skip
        assert speaks_of_self(said), said
    for said in ("what's the capital of Canada?", "the capital of the US?", "write a haiku",
                 "is it an iMac", "水的沸点是多少"):  # fmt: skip
        assert not speaks_of_self(said), said


def _marked(text: str, query: str) -> list[str]:
    return [text[a:b] for a, b in matched_spans(text, query)]


def test_the_words_a_search_matched_are_found_to_be_highlighted() -> None:
    """Issue 44: search results did not highlight the matched words. English by word
    and stem (as the porter-stemmed index matches them), without the stop words;
    Chinese, which has no spaces, by the characters its bigrams matched."""
    assert _marked("I keep bees in the garden", "bee gardens") == ["bees", "garden"]
    assert _marked("My sister Lin lives in Chengdu", "where does my sister live") == [
        "sister",
        "lives",
    ]
    assert _marked("She studied French", "studies") == ["studied"]
    assert _marked("Lin's birthday is in May", "LIN") == ["Lin"]
    assert _marked("用户最喜欢的颜色是绿色", "我最喜欢什么颜色") == ["最喜欢", "颜色"]
    assert _marked("我妹妹住在成都，她喜欢 hiking", "妹妹住哪 hike") == ["妹妹住", "hiking"]
    assert _marked("I keep bees", "the") == [], "a stop word alone matches no text word"
    assert _marked("I keep bees", "") == []
