"""The chat: messages rendered as Markdown (code blocks highlighted), the memories
each answer used as chips under it, and the composer (Enter sends, Shift+Enter is a
new line)."""

from __future__ import annotations

import re
from typing import Any

from PySide6.QtCore import QDateTime, QLocale, QPoint, QRect, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (
    QColor,
    QGuiApplication,
    QKeyEvent,
    QSyntaxHighlighter,
    QTextCharFormat,
    QTextFormat,
)
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLayout,
    QLayoutItem,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QTextBrowser,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop_mem.core import textproc

_KEYWORDS = (
    r"\b(?:def|class|return|if|elif|else|for|while|in|import|from|as|with|try|except|"
    r"finally|raise|lambda|yield|async|await|pass|break|continue|None|True|False|and|or|"
    r"not|is|function|const|let|var|new|this|null|undefined|true|false|public|private|"
    r"static|void|int|fn|struct|impl|match|pub|use|mut|SELECT|FROM|WHERE|INSERT|UPDATE|"
    r"DELETE|CREATE|TABLE|JOIN|echo|export|then|fi|do|done|case|esac)\b"
)


MAX_CHIPS = 6  # the rest are listed in a tooltip


class FlowLayout(QLayout):
    """Lays widgets out left to right, wrapping to the next line (Qt's flow layout)."""

    def __init__(self, parent: QWidget | None = None, spacing: int = 4) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._spacing = spacing
        self.setContentsMargins(0, 0, 0, 0)

    def addItem(self, item: QLayoutItem) -> None:
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._arrange(QRect(0, 0, width, 0), apply=False)

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        self._arrange(rect, apply=True)

    def sizeHint(self) -> QSize:
        return self.minimumSize()

    def minimumSize(self) -> QSize:
        size = QSize()
        for item in self._items:
            size = size.expandedTo(item.minimumSize())
        return size

    def _arrange(self, rect: QRect, apply: bool) -> int:
        x, y, line = rect.x(), rect.y(), 0
        for item in self._items:
            hint = item.sizeHint()
            if x + hint.width() > rect.right() and line > 0:
                x, y, line = rect.x(), y + line + self._spacing, 0
            if apply:
                item.setGeometry(QRect(QPoint(x, y), hint))
            x += hint.width() + self._spacing
            line = max(line, hint.height())
        return y + line - rect.y()


class CodeHighlighter(QSyntaxHighlighter):
    """Keywords, strings, numbers and comments inside fenced code blocks."""

    RULES = (
        (re.compile(_KEYWORDS), "#c678dd", True),
        (re.compile(r"\b\d+(?:\.\d+)?\b"), "#d19a66", False),
        (re.compile(r"\"[^\"\n]*\"|'[^'\n]*'|`[^`\n]*`"), "#98c379", False),
        (re.compile(r"(?:#|//|--).*$"), "#7f848e", False),
    )

    def highlightBlock(self, text: str) -> None:
        fmt = self.currentBlock().blockFormat()
        if not (
            fmt.hasProperty(QTextFormat.Property.BlockCodeFence)
            or fmt.hasProperty(QTextFormat.Property.BlockCodeLanguage)
        ):
            return
        for pattern, color, bold in self.RULES:
            char = QTextCharFormat()
            char.setForeground(QColor(color))
            if bold:
                char.setFontWeight(600)
            for m in pattern.finditer(text):
                self.setFormat(m.start(), m.end() - m.start(), char)


class MarkdownView(QTextBrowser):
    """Read-only Markdown that grows to fit its text (no inner scroll bar)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setOpenExternalLinks(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.viewport().setAutoFillBackground(False)
        self.setStyleSheet("QTextBrowser { background: transparent; }")
        self.highlighter = CodeHighlighter(self.document())
        self.document().documentLayout().documentSizeChanged.connect(self._fit)
        self.markdown_text = ""

    def set_markdown(self, text: str) -> None:
        self.markdown_text = text
        self.setMarkdown(text)
        self._fit()

    def _fit(self, *_: Any) -> None:
        self.document().setTextWidth(self.viewport().width())
        self.setFixedHeight(int(self.document().size().height()) + 6)

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self._fit()


RENDER_MS = 40


class MessageWidget(QFrame):
    memory_clicked = Signal(int)
    message_clicked = Signal(int)  # an earlier message the answer was given
    document_clicked = Signal(str, int)  # a passage's file, and its page (0: none)
    rendered = Signal()
    redo_clicked = Signal()  # Edit (a user message) or Regenerate (an answer)

    def __init__(self, role: str, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.role = role
        self.message_id: int | None = None
        self.setObjectName("userMessage" if role == "user" else "assistantMessage")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 6, 10, 6)
        head = QHBoxLayout()
        self.who = QLabel(self.tr("You") if role == "user" else self.tr("Assistant"))
        self.who.setObjectName("who")
        head.addWidget(self.who)
        head.addStretch(1)
        self.copy_button = QToolButton()
        self.copy_button.setText(self.tr("Copy"))
        self.copy_button.setToolTip(self.tr("Copy this message"))
        self.copy_button.clicked.connect(self.copy)
        self.redo_button = QToolButton()
        if role == "user":
            self.redo_button.setText(self.tr("Edit"))
            self.redo_button.setToolTip(
                self.tr("Change this message and send it again (the turns after it are replaced)")
            )
        else:
            self.redo_button.setText(self.tr("Regenerate"))
            self.redo_button.setToolTip(
                self.tr("Answer this message again (the turns after it are replaced)")
            )
        self.redo_button.clicked.connect(self.redo_clicked)
        head.addWidget(self.redo_button)
        head.addWidget(self.copy_button)
        layout.addLayout(head)
        self.body = MarkdownView()
        layout.addWidget(self.body)
        self.status = QLabel()
        self.status.setObjectName("status")
        self.status.setWordWrap(True)
        self.status.hide()
        layout.addWidget(self.status)
        self.chip_row = QWidget()
        self.chips = FlowLayout(self.chip_row)
        self.chip_row.hide()
        layout.addWidget(self.chip_row)
        self.notice = QLabel()
        self.notice.setObjectName("notice")
        self.notice.setWordWrap(True)
        self.notice.setTextInteractionFlags(Qt.TextInteractionFlag.LinksAccessibleByMouse)
        self.notice.hide()
        layout.addWidget(self.notice)
        self._pending = ""
        self._render = QTimer(self)
        self._render.setSingleShot(True)
        self._render.timeout.connect(self._flush)
        self.set_text(text)

    def set_text(self, text: str) -> None:
        self._pending = ""
        self._render.stop()
        self.body.set_markdown(text)

    def append(self, piece: str) -> None:
        """Streamed text: re-rendered at most every RENDER_MS, not once per token (the
        whole Markdown is parsed again each time)."""
        self._pending += piece
        if not self._render.isActive():
            self._render.start(RENDER_MS)

    def _flush(self) -> None:
        if self._pending:
            self.body.set_markdown(self.body.markdown_text + self._pending)
            self._pending = ""
            self.rendered.emit()

    def text(self) -> str:
        return self.body.markdown_text + self._pending

    def copy(self) -> None:
        QGuiApplication.clipboard().setText(self.text())

    def set_status(self, status: str, error: str | None = None) -> None:
        if status == "stopped":  # the user's choice, not a failure: quiet, not red
            self.status.setObjectName("stopped")
            self.status.setText(self.tr("Stopped."))
        elif status == "error":
            self.status.setObjectName("status")
            self.status.setText(error or self.tr("The answer failed."))
        else:
            self.status.hide()
            return
        self.status.style().unpolish(self.status)
        self.status.style().polish(self.status)
        self.status.show()

    def set_chips(
        self,
        used: list[tuple[int, str]],
        recalled: list[tuple[int, str, str]] | None = None,
        documents: list[tuple[str, str, str, int | None]] | None = None,
    ) -> None:
        """What the answer was given: memories (id, text), earlier messages (id, text,
        date) and passages of documents (where, text, path, page); a click opens the
        memory, the conversation at that message, or the file at that page."""
        while self.chips.count():
            item = self.chips.takeAt(0)
            if item.widget():
                item.widget().deleteLater()
        recalled = recalled or []
        documents = documents or []
        if not used and not recalled and not documents:
            self.chip_row.hide()
            return
        if used:
            label = QLabel(self.tr("Memories used:"))
            label.setObjectName("chipsLabel")
            self.chips.addWidget(label)
            for memory_id, text in used[:MAX_CHIPS]:
                chip = self._chip(_short(text, 24), text)
                chip.setProperty("memory_id", memory_id)
                chip.clicked.connect(lambda _=False, i=memory_id: self.memory_clicked.emit(i))
            if len(used) > MAX_CHIPS:
                more = QLabel(self.tr("+%1 more").replace("%1", str(len(used) - MAX_CHIPS)))
                more.setToolTip("\n".join(t for _, t in used[MAX_CHIPS:]))
                self.chips.addWidget(more)
        if recalled:
            label = QLabel(self.tr("Earlier messages:"))
            label.setObjectName("chipsLabel")
            self.chips.addWidget(label)
            for message_id, text, day in recalled[:MAX_CHIPS]:
                tip = self.tr("%1, in another conversation:").replace("%1", day) + "\n" + text
                chip = self._chip(_short(text, 24), tip)
                chip.setProperty("message_id", message_id)
                chip.clicked.connect(lambda _=False, i=message_id: self.message_clicked.emit(i))
        if documents:
            label = QLabel(self.tr("Documents:"))
            label.setObjectName("chipsLabel")
            self.chips.addWidget(label)
            for where, text, path, page in documents[:MAX_CHIPS]:
                chip = self._chip(_short(where, 32), f"{where}\n{text}")
                chip.clicked.connect(
                    lambda _=False, p=path, n=page: self.document_clicked.emit(p, n or 0)
                )
        self.chip_row.show()

    def _chip(self, label: str, tip: str) -> QPushButton:
        chip = QPushButton(label)
        chip.setObjectName("chip")
        chip.setToolTip(tip)
        chip.setFlat(True)
        chip.setCursor(Qt.CursorShape.PointingHandCursor)
        self.chips.addWidget(chip)
        return chip

    def set_notice(self, html: str | None) -> None:
        self.notice.setVisible(bool(html))
        self.notice.setText(html or "")


def _short(text: str, width: int) -> str:
    return textproc.shorten(text, width)


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
    undo_requested = Signal(int)  # the answer's message widget index
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
            lambda _link, widget=w: self.undo_requested.emit(self.messages.index(widget))
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
