from __future__ import annotations

from desktop_mem.core.textproc import fts_document, fts_match, query_terms


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


def test_full_width_is_normalized() -> None:
    assert query_terms("ＴＯＫＹＯ２０２６") == ["tokyo2026"]


def test_fts_syntax_in_queries_is_quoted() -> None:
    expr = fts_match(query_terms('"NEAR(a b)" OR -x * AND'))
    assert expr is not None
    for part in expr.split(" OR "):
        assert part.startswith('"')
    assert fts_match([]) is None
    assert fts_match(["猫"]) == '"猫"*'
