"""The words a search matched, marked behind the text of a hit (a memory card, a
conversation's message found): where they are comes from the core
(textproc.matched_spans), English by word and stem, Chinese by the characters matched."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, QRect, QSize
from PySide6.QtGui import (
    QColor,
    QFontMetrics,
    QPainter,
    QPalette,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
)
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

from desktop_mem.core import textproc

Index = QModelIndex | QPersistentModelIndex


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


class MarkedTextDelegate(QStyledItemDelegate):
    """A list row of wrapped plain text with the words `query` matched marked behind
    them (the Documents page's passages found): laid out as a text document at the
    row's width, so a mark follows its word onto whichever line it wraps to."""

    PAD = 6

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.query = ""

    def _document(self, text: str, option: QStyleOptionViewItem, selected: bool) -> QTextDocument:
        doc = QTextDocument()
        doc.setDocumentMargin(0)
        doc.setDefaultFont(option.font)
        doc.setPlainText(text)
        width = option.rect.width() or (option.widget.width() if option.widget else 400)
        doc.setTextWidth(max(40, width - 2 * self.PAD))
        palette = option.palette
        plain = QTextCharFormat()
        plain.setForeground(
            palette.color(
                QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
            )
        )
        cursor = QTextCursor(doc)
        cursor.select(QTextCursor.SelectionType.Document)
        cursor.mergeCharFormat(plain)
        marked = QTextCharFormat()
        marked.setBackground(mark_color(palette, selected))
        for start, stop in spans(text, self.query):
            cursor.setPosition(start)
            cursor.setPosition(stop, QTextCursor.MoveMode.KeepAnchor)
            cursor.mergeCharFormat(marked)
        return doc

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        if opt.widget is not None and hasattr(opt.widget, "viewport"):
            opt.rect.setWidth(opt.widget.viewport().width())
        doc = self._document(opt.text, opt, False)
        return QSize(int(doc.idealWidth()) + 2 * self.PAD, int(doc.size().height()) + 2 * 3)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        text = opt.text
        opt.text = ""
        style = opt.widget.style() if opt.widget else None
        if style is not None:  # the row's background, selection and focus
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        doc = self._document(text, option, selected)
        painter.save()
        painter.translate(option.rect.left() + self.PAD, option.rect.top() + 3)
        doc.drawContents(painter)
        painter.restore()
