"""The chat page: the conversation's title, its messages (message_widget.py) in a
scrolling list, the offline notice, and the composer (Enter sends, Shift+Enter is a
new line)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QDateTime, QLocale, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (
    QKeyEvent,
)
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from desktop_mem.ui.message_widget import MessageWidget


class Composer(QPlainTextEdit):
    """Enter sends, Shift+Enter inserts a new line."""

    submitted = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not (
            event.modifiers() & Qt.KeyboardModifier.ShiftModifier
        ):
            self.submitted.emit()
            return
        super().keyPressEvent(event)


class ElidedLabel(QLabel):
    """A one-line label that ends with "…" when narrower than its text (the full text is
    its tooltip then), so a long conversation title never widens the window."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._full = ""
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setText(text)

    def setText(self, text: str) -> None:
        self._full = text
        self._elide()

    def text(self) -> str:
        return self._full

    def minimumSizeHint(self) -> QSize:
        return QSize(0, super().minimumSizeHint().height())

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        shown = self.fontMetrics().elidedText(
            self._full, Qt.TextElideMode.ElideRight, max(0, self.width())
        )
        super().setText(shown)
        self.setToolTip(self._full if shown != self._full else "")


class ChatView(QWidget):
    send_requested = Signal(str)
    stop_requested = Signal()
    regenerate_requested = Signal(int)  # the user message's turn (0-based), -1: the last
    edit_requested = Signal(int, str)  # likewise, and the new text
    memory_clicked = Signal(int)
    message_clicked = Signal(int)
    document_clicked = Signal(str, int)
    notice_link = Signal(int, str)  # an answer's widget index, and its notice's link (undo, retry)
    model_changed = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        head = QHBoxLayout()
        self.title = ElidedLabel()
        self.title.setObjectName("chatTitle")
        head.addWidget(self.title, 1)
        self.incognito_badge = QLabel(self.tr("Incognito: nothing is remembered or stored"))
        self.incognito_badge.setObjectName("incognito")
        self.incognito_badge.hide()
        head.addWidget(self.incognito_badge)
        self.model_box = QComboBox()
        self.model_box.setToolTip(self.tr("Chat model"))
        self.model_box.setMinimumWidth(160)
        self.model_box.currentTextChanged.connect(self._model_picked)
        head.addWidget(self.model_box)
        layout.addLayout(head)
        # Ollama is down but this conversation can still be read: a line, not the page
        self.offline_banner = QLabel()
        self.offline_banner.setObjectName("status")
        self.offline_banner.setWordWrap(True)
        self.offline_banner.setTextFormat(Qt.TextFormat.RichText)
        self.offline_banner.hide()
        layout.addWidget(self.offline_banner)

        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list_widget = QWidget()
        self.list_widget.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.list_layout = QVBoxLayout(self.list_widget)
        self.list_layout.addStretch(1)
        self.scroll.setWidget(self.list_widget)
        layout.addWidget(self.scroll, 1)
        self.empty = QLabel(
            self.tr("Say hello. What you tell me stays on this computer, encrypted.")
        )
        self.empty.setObjectName("empty")
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.list_layout.insertWidget(0, self.empty)

        # Regenerate and Edit are on each message (and in the Chat menu, Ctrl+R and
        # Ctrl+E for the last turn): no second row of the same buttons here.

        row = QHBoxLayout()
        self.input = Composer()
        self.input.setPlaceholderText(
            self.tr("Message (Enter to send, Shift+Enter for a new line)")
        )
        self.input.setMaximumHeight(120)
        self.input.submitted.connect(self._submit)
        row.addWidget(self.input, 1)
        self.send_button = QPushButton(self.tr("Send"))
        self.send_button.clicked.connect(self._submit)
        self.stop_button = QPushButton(self.tr("Stop"))
        self.stop_button.clicked.connect(self.stop_requested)
        self.stop_button.hide()
        row.addWidget(self.send_button)
        row.addWidget(self.stop_button)
        layout.addLayout(row)
        self.messages: list[MessageWidget] = []
        self._editing: int | None = None  # the turn being edited (-1: the last)
        self.set_busy(False)

    # -- model picker -----------------------------------------------------------------

    def set_models(self, names: list[str], current: str) -> None:
        self.model_box.blockSignals(True)
        self.model_box.clear()
        for n in sorted(set(names) | {current}):
            self.model_box.addItem(n)
        self.model_box.setCurrentText(current)
        self.model_box.blockSignals(False)

    def _model_picked(self, name: str) -> None:
        if name:
            self.model_changed.emit(name)

    # -- messages -----------------------------------------------------------------------

    def clear(self) -> None:
        for w in self.messages:
            w.setParent(None)
            w.deleteLater()
        self.messages = []
        self.empty.show()
        self._update_actions()

    def add_message(self, role: str, text: str, when: str | None = None) -> MessageWidget:
        """A message; `when` (ISO, UTC) shows as its time on hover (default: now)."""
        w = MessageWidget(role, text)
        stamp = QDateTime.fromString(when, Qt.DateFormat.ISODate) if when else None
        local = stamp.toLocalTime() if stamp and stamp.isValid() else QDateTime.currentDateTime()
        w.who.setToolTip(QLocale().toString(local, QLocale.FormatType.ShortFormat))
        w.setToolTip(w.who.toolTip())
        w.memory_clicked.connect(self.memory_clicked)
        w.message_clicked.connect(self.message_clicked)
        w.document_clicked.connect(self.document_clicked)
        w.redo_clicked.connect(lambda widget=w: self._redo(widget))
        w.notice.linkActivated.connect(
            lambda link, widget=w: self.notice_link.emit(self.messages.index(widget), link)
        )
        self.list_layout.insertWidget(self.list_layout.count() - 1, w)
        self.messages.append(w)
        self.empty.hide()
        self._update_actions()
        QTimer.singleShot(0, self.scroll_to_end)
        return w

    def remove_last(self, count: int = 1) -> None:
        for _ in range(min(count, len(self.messages))):
            w = self.messages.pop()
            w.setParent(None)
            w.deleteLater()
        self.empty.setVisible(not self.messages)
        self._update_actions()

    def scroll_to_end(self) -> None:
        bar = self.scroll.verticalScrollBar()
        bar.setValue(bar.maximum())

    # -- input --------------------------------------------------------------------------

    def _submit(self) -> None:
        text = self.input.toPlainText().strip()
        if not text or self.stop_button.isVisible():
            return
        self.input.clear()
        if self._editing is not None:
            turn, self._editing = self._editing, None
            self.edit_requested.emit(turn, text)
        else:
            self.send_requested.emit(text)

    def edit_last_message(self) -> None:
        last = next((m for m in reversed(self.messages) if m.role == "user"), None)
        if last is None:
            return
        self.input.setPlainText(last.text())
        self.input.setFocus()
        self._editing = -1

    def turn_of(self, widget: MessageWidget) -> int:
        """Which user message (0-based) a message belongs to: itself, or the one an
        answer answers."""
        index = self.messages.index(widget)
        return sum(1 for m in self.messages[: index + 1] if m.role == "user") - 1

    def _redo(self, widget: MessageWidget) -> None:
        if widget not in self.messages or self.stop_button.isVisible():
            return
        turn = self.turn_of(widget)
        if turn < 0:
            return
        if widget.role == "user":
            self.input.setPlainText(widget.text())
            self.input.setFocus()
            self._editing = turn
        else:
            self.regenerate_requested.emit(turn)

    def remove_from_turn(self, turn: int) -> None:
        """Remove a turn's widgets (its user message, its answer) and every later one."""
        users = [i for i, m in enumerate(self.messages) if m.role == "user"]
        start = users[turn] if 0 <= turn < len(users) else len(self.messages)
        self.remove_last(len(self.messages) - start)

    def set_busy(self, busy: bool) -> None:
        self.send_button.setVisible(not busy)
        self.stop_button.setVisible(busy)
        self._update_actions(busy)

    def _update_actions(self, busy: bool | None = None) -> None:
        busy = self.stop_button.isVisible() if busy is None else busy
        for m in self.messages:
            m.redo_button.setEnabled(not busy)

    def set_incognito(self, on: bool) -> None:
        """Incognito looks different as a whole (a tinted chat area), and its empty state
        says what it is instead of promising to keep things."""
        self.incognito_badge.setVisible(on)
        self.empty.setText(
            self.tr(
                "Incognito: nothing you say here is remembered or stored, and no memory is "
                "used. Closing it leaves no trace."
            )
            if on
            else self.tr("Say hello. What you tell me stays on this computer, encrypted.")
        )
        self.empty.setWordWrap(True)
        self.list_widget.setObjectName("incognitoList" if on else "")
        self.list_widget.style().unpolish(self.list_widget)
        self.list_widget.style().polish(self.list_widget)
        self.list_widget.setAutoFillBackground(False)
