"""The keyboard's path through the window: Tab visits the controls of a page in the order
they are read (top to bottom, left to right, a splitter's or a stack's parts in turn),
hidden and disabled ones skipped by Qt, and always moves on (a date field no longer
keeps it); Shift+Tab goes back the same way."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractSpinBox,
    QComboBox,
    QDateEdit,
    QLayout,
    QLineEdit,
    QPlainTextEdit,
    QScrollArea,
    QSplitter,
    QStackedWidget,
    QTabWidget,
    QTextEdit,
    QWidget,
)

# controls whose parts are theirs: Tab never stops inside them
_WHOLE = (QAbstractItemView, QAbstractSpinBox, QComboBox, QLineEdit, QPlainTextEdit, QTextEdit)


def reachable(widget: QWidget) -> bool:
    """Tab can stop on it (when it is shown and enabled)."""
    return bool(widget.focusPolicy() & Qt.FocusPolicy.TabFocus) and widget.focusProxy() is None


def in_order(root: QWidget) -> list[QWidget]:
    """The controls under `root` that Tab can reach, in the order they are read: each
    layout's items in turn, a splitter's, a stack's or a tab widget's parts one after
    another, a scroll area's contents; windows of their own (dialogs) left out."""
    found: list[QWidget] = []

    def widget(w: QWidget) -> None:
        if w.isWindow() and w is not root:
            return
        if reachable(w):
            found.append(w)
        if isinstance(w, _WHOLE):
            return
        if isinstance(w, QScrollArea):
            if (inner := w.widget()) is not None:
                widget(inner)
            return
        if isinstance(w, QTabWidget | QSplitter | QStackedWidget):
            parts: list[QWidget | None] = [w.tabBar()] if isinstance(w, QTabWidget) else []
            parts += [w.widget(i) for i in range(w.count())]
            for part in parts:
                if part is not None:
                    widget(part)
            return
        if (own := w.layout()) is not None:
            layout(own)

    def layout(lay: QLayout) -> None:
        for i in range(lay.count()):
            item = lay.itemAt(i)
            if item is None:
                continue
            if (w := item.widget()) is not None:
                widget(w)
            elif (inner := item.layout()) is not None:
                layout(inner)

    widget(root)
    return found


def chain(widgets: Iterable[QWidget]) -> None:
    """Tab goes from each of these to the next (Shift+Tab back)."""
    items = list(widgets)
    for first, second in zip(items, items[1:], strict=False):
        QWidget.setTabOrder(first, second)


class DateField(QDateEdit):
    """A date field that Tab leaves (Qt's moves from day to month to year inside it, and
    on one showing its special value, "Any date", it never left). Left and Right move
    between the day, the month and the year; Up and Down change them."""

    def event(self, event: QEvent) -> bool:
        if (
            event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab)
            and not event.modifiers() & Qt.KeyboardModifier.ControlModifier
        ):
            forward = event.key() == Qt.Key.Key_Tab and not (
                event.modifiers() & Qt.KeyboardModifier.ShiftModifier
            )
            QWidget.focusNextPrevChild(self, forward)
            return True
        return super().event(event)
