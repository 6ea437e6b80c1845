"""The words a search matched, marked behind the text of a hit (a memory card, a
conversation's message found): where they are comes from the core
(textproc.matched_spans), English by word and stem, Chinese by the characters matched."""

from __future__ import annotations

from PySide6.QtCore import QRect
from PySide6.QtGui import QColor, QFontMetrics, QPainter, QPalette

from desktop_mem.core import textproc


def mark_color(palette: QPalette, selected: bool) -> QColor:
    """An opaque mark between the row's background and the accent, readable under the
    text in the light and the dark theme, and on a selected row."""
    under = palette.color(QPalette.ColorRole.Highlight if selected else QPalette.ColorRole.Base)
    over = palette.color(
        QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Highlight
    )
    # a dark background needs more of the accent to be seen
    share = 0.3 if selected else 0.5 if under.lightness() < 128 else 0.35
    return QColor(
        round(under.red() + (over.red() - under.red()) * share),
        round(under.green() + (over.green() - under.green()) * share),
        round(under.blue() + (over.blue() - under.blue()) * share),
    )


def mark_line(
    painter: QPainter,
    line: QRect,
    text: str,
    spans: list[tuple[int, int]],
    offset: int,
    metrics: QFontMetrics,
    color: QColor,
) -> None:
    """Fill behind the matched parts of one drawn line: `text` is the line, drawn from
    `line`'s left; `spans` are in the whole text, of which the line starts at `offset`."""
    end = offset + len(text)
    for start, stop in spans:
        if stop <= offset or start >= end:
            continue
        a, b = max(start, offset) - offset, min(stop, end) - offset
        x = line.left() + metrics.horizontalAdvance(text[:a])
        width = metrics.horizontalAdvance(text[a:b])
        painter.fillRect(QRect(x, line.top(), width, line.height()), color)


def spans(text: str, query: str) -> list[tuple[int, int]]:
    return textproc.matched_spans(text, query) if query.strip() else []
