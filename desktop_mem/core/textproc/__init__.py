"""Text preparation for full-text search in English, Chinese and Japanese, in one
place for every tier: scripts (scripts.py), terms and the full-text document
(terms.py), dates (dates.py), and text as it is shown (display.py).

FTS5's unicode61 tokenizer keeps a run of CJK characters as one token, so "我下个月
要考试" would only match itself. The trigram tokenizer segments it, but cannot match
the two-character words that most Chinese queries are made of, and does not stem
English. So the index gets CJK runs rewritten as overlapping bigrams (the classic
CJK analyzer of Lucene and Elasticsearch), and English goes through porter
stemming: both languages, and mixed text, work in one index.
"""

from desktop_mem.core.textproc.dates import is_time_word, named_period
from desktop_mem.core.textproc.display import escape_controls, normalize, plain_text, shorten
from desktop_mem.core.textproc.scripts import SCRIPTS, cjk_count, has_cjk, script
from desktop_mem.core.textproc.terms import (
    CJK_FUNCTION_WORDS,
    STOPWORDS,
    cjk_function_positions,
    cjk_runs,
    fts_document,
    fts_match,
    matched_spans,
    names,
    query_terms,
    remove_words,
    speaks_of_self,
)

__all__ = [
    "CJK_FUNCTION_WORDS", "SCRIPTS", "STOPWORDS", "cjk_count", "cjk_function_positions",
    "cjk_runs", "escape_controls", "fts_document", "fts_match", "has_cjk", "is_time_word",
    "matched_spans", "named_period", "names", "normalize", "plain_text", "query_terms", "remove_words",
    "script", "shorten", "speaks_of_self",
]  # fmt: skip
