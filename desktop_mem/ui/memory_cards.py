"""How one memory looks in the browser's list: its full text, wrapped, and a quiet second
line with its kind, date, pin and source (the delegate of the list view)."""

from __future__ import annotations

from PySide6.QtCore import (
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QRect,
    QSize,
    Qt,
)
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPalette, QTextLayout, QTextOption
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
)

from desktop_mem.core.memory.records import Memory
from desktop_mem.ui import highlight
from desktop_mem.ui.item_models import (
    Found,
    MemoryTableModel,
    kind_label,
    source_label,
)

Index = QModelIndex | QPersistentModelIndex

PAD_X = 12
PAD_Y = 8
GAP = 3  # between the text and its second line
MAX_LINES = 6  # a longer memory ends with "…"; the details and the tooltip have it all


def relevance_label(found: Found) -> str:
    """A search hit's standing, on the one scale the list follows: a match (what the
    chat would give the model for this search; no word on its card) or a weak match
    (listed with "Weak matches too"). No number: a hit's nearness alone would contradict
    the match the rule makes of the search as a whole (relevance_tip)."""
    _z, weak = found
    return QCoreApplication.translate("cards", "weak match") if weak else ""


def care_label(care: str | None) -> str:
    """Why a memory is given in every chat, in a few words."""
    words = {
        "health": QCoreApplication.translate("cards", "health"),
        "diet": QCoreApplication.translate("cards", "diet"),
        "access": QCoreApplication.translate("cards", "accessibility"),
    }
    return words.get(care or "", QCoreApplication.translate("cards", "you asked"))


def always_label(memory: Memory) -> str:
    """ "always given: health" for a memory given in every chat, else ""."""
    if not memory.always:
        return ""
    return QCoreApplication.translate("cards", "always given: %1").replace(
        "%1", care_label(memory.care)
    )


def computer_label(memory: Memory, computers: dict[str, str] | None) -> str:
    """ "from laptop" for a memory made on another synced computer, else ""."""
    device = memory.origin_device
    if not device:
        return ""
    name = (computers or {}).get(device)
    if not name:  # sync was turned off since: its names are gone
        return QCoreApplication.translate("cards", "from another computer")
    return QCoreApplication.translate("cards", "from %1").replace("%1", name)


def meta_line(
    memory: Memory,
    found: Found | None = None,
    computers: dict[str, str] | None = None,
    edited_on_both: bool = False,
    spaces: dict[int | None, str] | None = None,
) -> str:
    """(Relevance ·) kind · date (· its space) (· edited on two computers) · pinned ·
    always given · source (· from another computer) (· until, expired): the second line
    of a card. `spaces`: the spaces' names, when the card says which it is in.
    `computers`: the synced computers' names by id; `edited_on_both`: an edit made on
    two computers at once that the user has not looked at yet (said before the rest,
    which a narrow card cuts off)."""
    parts = [relevance_label(found)] if found is not None else []
    parts = [p for p in parts if p]
    parts += [kind_label(None, memory.kind), memory.created_at[:10]]
    if spaces is not None:  # every space listed: which one it is in
        parts.append(
            QCoreApplication.translate("cards", "shared")
            if memory.space is None
            else QCoreApplication.translate("cards", "in %1").replace(
                "%1", spaces.get(memory.space, "?")
            )
        )
    if edited_on_both:
        parts.append(QCoreApplication.translate("cards", "⇄ edited on two computers"))
    if memory.pinned:
        parts.append(QCoreApplication.translate("cards", "★ pinned"))
    if memory.always:
        parts.append(always_label(memory))
    parts.append(source_label(None, memory.source))
    if memory.origin_device:
        parts.append(computer_label(memory, computers))
    if memory.expired:
        parts.append(QCoreApplication.translate("cards", "expired"))
    elif memory.valid_until:
        parts.append(
            QCoreApplication.translate("cards", "until %1").replace("%1", memory.valid_until[:10])
        )
    return " · ".join(parts)


def wrapped_lines(text: str, font: QFont, width: int) -> list[tuple[str, float]]:
    """The text's lines wrapped at `width` (at a word boundary, else anywhere), each
    with its height: a line is as tall as the fonts it is drawn in, and one with Chinese
    in it is drawn in a taller fallback font than the one asked for."""
    layout = QTextLayout(text, font)
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
    layout.setTextOption(option)
    lines: list[tuple[str, float]] = []
    layout.beginLayout()
    while (line := layout.createLine()).isValid():
        line.setLineWidth(width)
        lines.append((text[line.textStart() : line.textStart() + line.textLength()], line.height()))
    layout.endLayout()
    return lines


class MemoryCardDelegate(QStyledItemDelegate):
    """Paints a memory as a card and says how tall it is at a width. Line layouts are
    cached by (memory, text, width): a listing is painted many times while it scrolls."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._cache: dict[tuple[int, str, int, str], list[str]] = {}

    # -- layout ------------------------------------------------------------------------

    def _lines(self, memory: Memory, font: QFont, width: int) -> list[str]:
        key = (memory.id, memory.text, width, font.key())
        found = self._cache.get(key)
        if found is not None:
            return found
        lines = [line for line, _ in wrapped_lines(" ".join(memory.text.split()), font, width)]
        if len(lines) > MAX_LINES:
            rest = "".join(lines[MAX_LINES - 1 :])
            last = QFontMetrics(font).elidedText(rest, Qt.TextElideMode.ElideRight, width)
            lines = [*lines[: MAX_LINES - 1], last]
        if len(self._cache) > 20_000:
            self._cache.clear()
        self._cache[key] = lines or [""]
        return self._cache[key]

    @staticmethod
    def _meta_font(font: QFont) -> QFont:
        small = QFont(font)
        small.setPointSizeF(max(7.0, font.pointSizeF() * 0.9))
        return small

    def _memory(self, index: Index) -> Memory | None:
        model = index.model()
        return model.memory(index.row()) if isinstance(model, MemoryTableModel) else None

    def _meta(self, index: Index, memory: Memory, found: Found | None) -> str:
        model = index.model()
        if not isinstance(model, MemoryTableModel):
            return meta_line(memory, found)
        return meta_line(
            memory, found, model.computers, memory.id in model.edited_on_both,
            model.space_names,
        )  # fmt: skip

    def _query(self, index: Index) -> str:
        model = index.model()
        return model.query if isinstance(model, MemoryTableModel) else ""

    def _found(self, index: Index, memory: Memory) -> Found | None:
        model = index.model()
        return model.found(memory.id) if isinstance(model, MemoryTableModel) else None

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        memory = self._memory(index)
        view = option.widget  # a QListView: its viewport's width where the rect has none
        shown = view.viewport().width() if isinstance(view, QAbstractScrollArea) else 0
        width = max(120, option.rect.width() or shown)
        if memory is None:
            return QSize(width, 24)
        lines = self._lines(memory, option.font, width - 2 * PAD_X)
        height = len(lines) * QFontMetrics(option.font).lineSpacing()
        height += GAP + QFontMetrics(self._meta_font(option.font)).lineSpacing()
        return QSize(width, height + 2 * PAD_Y)

    # -- painting ----------------------------------------------------------------------

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        memory = self._memory(index)
        if memory is None:
            return
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""  # the frame, selection and hover only: the text is drawn below
        style = opt.widget.style() if opt.widget else None
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        palette = option.palette
        text_color = palette.color(
            QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        )
        quiet = palette.color(
            QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.PlaceholderText
        )
        rect = option.rect.adjusted(PAD_X, PAD_Y, -PAD_X, -PAD_Y)
        painter.save()
        font = QFont(option.font)
        if memory.expired:
            font.setStrikeOut(True)
        found = self._found(index, memory)
        weak = found is not None and found[1]
        painter.setFont(font)
        painter.setPen(quiet if weak else text_color)  # a weaker match reads quieter
        metrics = QFontMetrics(font)
        spacing = QFontMetrics(option.font).lineSpacing()
        y = rect.top()
        lines = self._lines(memory, option.font, rect.width())
        # the words the search matched, marked behind the text
        marks = highlight.spans("".join(lines), self._query(index)) if found else []
        offset = 0
        for line in lines:
            box = QRect(rect.left(), y, rect.width(), spacing)
            if marks:
                highlight.mark_line(painter, box, line, marks, offset, metrics,
                                    highlight.mark_color(palette, selected))  # fmt: skip
            painter.drawText(box, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                             line)  # fmt: skip
            offset += len(line)
            y += spacing
        small = self._meta_font(option.font)
        painter.setFont(small)
        painter.setPen(quiet)
        meta = QFontMetrics(small)
        painter.drawText(
            QRect(rect.left(), y + GAP, rect.width(), meta.lineSpacing()),
            int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
            meta.elidedText(
                self._meta(index, memory, found),
                Qt.TextElideMode.ElideRight,
                rect.width(),
            ),
        )
        if not selected:  # a hairline between cards, as quiet in dark as in light
            hairline = QColor(palette.color(QPalette.ColorRole.Text))
            hairline.setAlpha(40)
            painter.setPen(hairline)
            painter.drawLine(option.rect.bottomLeft(), option.rect.bottomRight())
        painter.restore()
