"""The chat page: the conversation's title, its messages (message_widget.py) in a
scrolling column of readable width, centred on a wide window, that follows the newest
exchange as it streams (unless the user scrolled up to read), the offline notice, and
the composer (Enter sends, Shift+Enter is a new line, Tab moves on, Ctrl+Tab is a tab;
while a message is being edited a bar says so, and Esc or Cancel stops editing)."""

from __future__ import annotations

from PySide6.QtCore import QDateTime, QEvent, QLocale, Qt, QTimer, Signal
from PySide6.QtGui import (
    QKeyEvent,
    QResizeEvent,
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

from desktop_mem.ui import focus
from desktop_mem.ui.message_widget import MessageWidget
from desktop_mem.ui.widgets import ElidedLabel

COLUMN = 820  # px: the widest the messages and the composer get (about 90 characters)
FOLLOW_SLACK = 24  # px from the bottom that still counts as "at the newest message"


class Composer(QPlainTextEdit):
    """Enter sends, Shift+Enter inserts a new line; Tab and Shift+Tab move the focus
    (the keyboard never gets trapped here), Ctrl+Tab inserts a tab; Esc cancels an
    edit in progress."""

    submitted = Signal()
    cancelled = Signal()

    LINES = (2, 8)  # as tall as its text, from two lines to eight (then it scrolls)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTabChangesFocus(True)
        self.editing = False
        self.document().contentsChanged.connect(self._fit)
        self._fit()

    def _fit(self) -> None:
        line = self.fontMetrics().lineSpacing()
        lines = max(1, int(self.document().size().height()))  # lines, in a plain text edit
        low, high = self.LINES
        shown = min(max(lines, low), high)
        margins = self.contentsMargins().top() + self.contentsMargins().bottom()
        self.setFixedHeight(shown * line + margins + 2 * int(self.document().documentMargin()))

    def event(self, event: QEvent) -> bool:
        # Esc is the window's Stop shortcut; while editing, it cancels the edit instead
        if (
            event.type() == QEvent.Type.ShortcutOverride
            and self.editing
            and isinstance(event, QKeyEvent)
            and event.key() == Qt.Key.Key_Escape
        ):
            event.accept()
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not (
            event.modifiers() & Qt.KeyboardModifier.ShiftModifier
        ):
            self.submitted.emit()
            return
        if (
            event.key() == Qt.Key.Key_Tab
            and event.modifiers() & Qt.KeyboardModifier.ControlModifier
        ):
            self.insertPlainText("\t")
            return
        if event.key() == Qt.Key.Key_Escape and self.editing:
            self.cancelled.emit()
            return
        super().keyPressEvent(event)


class ChatView(QWidget):
    send_requested = Signal(str)
    stop_requested = Signal()
    regenerate_requested = Signal(int)  # the user message's turn (0-based), -1: the last
    edit_requested = Signal(int, str)  # likewise, and the new text
    version_requested = Signal(int, int)  # a message's id, and -1 / +1: its other version
    memory_clicked = Signal(int)
    message_clicked = Signal(int)
    document_clicked = Signal(object)  # the passage (documents.PassageHit)
    notice_link = Signal(int, str)  # an answer's widget index, and its notice's link (undo, retry)
    model_changed = Signal(str)
    retry_requested = Signal()  # the offline line's Retry: look for the server again
    settings_requested = Signal()  # its Settings…
    actions_changed = Signal()  # can_regenerate or can_edit_last may say otherwise now

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        outer = QHBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        column = self.column = QWidget()  # the readable column, centred when wide
        column.setMaximumWidth(COLUMN)
        outer.addStretch(1)
        outer.addWidget(column, 100)
        outer.addStretch(1)
        layout = QVBoxLayout(column)
        layout.setContentsMargins(0, 0, 0, 0)
        head = QHBoxLayout()
        self.title = ElidedLabel()
        self.title.setObjectName("chatTitle")
        self.title.text_set.connect(self._fit_head)
        head.addWidget(self.title, 1)
        # the space the chat is in (nothing while the profile has only the shared one)
        self.space_badge = QLabel()
        self.space_badge.setObjectName("spaceBadge")
        self.space_badge.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Preferred)
        self.space_badge.setMaximumWidth(220)  # a long name is cut, never the title away
        self.space_badge.hide()
        head.addWidget(self.space_badge)
        self.incognito_badge = QLabel(self.tr("Incognito: nothing is remembered or stored"))
        self.incognito_badge.setObjectName("incognito")
        # the badge says it in one word where the whole sentence would squeeze the title
        self.incognito_badge.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Preferred)
        self.incognito_badge.hide()
        head.addWidget(self.incognito_badge)
        self.model_box = QComboBox()
        self.model_box.setToolTip(self.tr("Chat model"))
        self.model_box.setAccessibleName(self.tr("Chat model"))
        self.model_box.setMinimumWidth(140)
        self.model_box.currentTextChanged.connect(self._model_picked)
        head.addWidget(self.model_box)
        layout.addLayout(head)
        # Ollama is down but this conversation can still be read: a line, not the page,
        # with what to do about it (look again, or change the server in Settings)
        self.offline_bar = QWidget()
        offline_row = QHBoxLayout(self.offline_bar)
        offline_row.setContentsMargins(0, 0, 0, 0)
        self.offline_banner = QLabel()
        self.offline_banner.setObjectName("status")
        self.offline_banner.setWordWrap(True)
        self.offline_banner.setTextFormat(Qt.TextFormat.RichText)
        offline_row.addWidget(self.offline_banner, 1)
        self.offline_retry = QPushButton(self.tr("Retry"))
        self.offline_retry.setToolTip(self.tr("Look for the model server again now"))
        self.offline_retry.clicked.connect(self.retry_requested)
        offline_row.addWidget(self.offline_retry)
        self.offline_settings = QPushButton(self.tr("Settings…"))
        self.offline_settings.setToolTip(self.tr("Change the model server's address"))
        self.offline_settings.clicked.connect(self.settings_requested)
        offline_row.addWidget(self.offline_settings)
        self.offline_bar.hide()
        layout.addWidget(self.offline_bar)

        self.scroll_area = QScrollArea()
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll_area.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab goes to the composer
        self.list_widget = QWidget()
        self.list_widget.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.list_layout = QVBoxLayout(self.list_widget)
        self.list_layout.addStretch(1)
        self.scroll_area.setWidget(self.list_widget)
        layout.addWidget(self.scroll_area, 1)
        self.empty = QLabel(
            self.tr("Say hello. What you tell me stays on this computer, encrypted.")
        )
        self.empty.setObjectName("empty")
        self.empty.setWordWrap(True)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.list_layout.insertWidget(0, self.empty)
        # The newest exchange stays in view as it streams: while the view is at its end,
        # a taller list scrolls with it; a user who scrolled up to read is left there.
        self._follow = True
        bar = self.scroll_area.verticalScrollBar()
        bar.rangeChanged.connect(self._range_changed)
        bar.valueChanged.connect(self._scrolled)

        # Regenerate and Edit are on each message (and in the Chat menu, Ctrl+R and
        # Ctrl+E for the last turn): no second row of the same buttons here.
        self.edit_bar = QWidget()
        self.edit_bar.setObjectName("editBar")
        self.edit_bar.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        edit_row = QHBoxLayout(self.edit_bar)
        edit_row.setContentsMargins(8, 2, 2, 2)
        self.edit_label = QLabel(
            self.tr("Editing your message: sending it replaces the answers after it (they are "
                    "kept as versions).")
        )  # fmt: skip
        self.edit_label.setWordWrap(True)
        self.edit_label.setObjectName("notice")
        edit_row.addWidget(self.edit_label, 1)
        self.cancel_edit_button = QPushButton(self.tr("Cancel"))
        self.cancel_edit_button.setToolTip(self.tr("Stop editing (Esc)"))
        self.cancel_edit_button.clicked.connect(self.cancel_edit)
        edit_row.addWidget(self.cancel_edit_button)
        self.edit_bar.hide()
        layout.addWidget(self.edit_bar)

        row = QHBoxLayout()
        self.input = Composer()
        self.input.setPlaceholderText(
            self.tr("Message (Enter to send, Shift+Enter for a new line)")
        )
        self.input.setAccessibleName(self.tr("Message"))
        self.input.submitted.connect(self._submit)
        self.input.cancelled.connect(self.cancel_edit)
        row.addWidget(self.input, 1)
        self._offline = False  # set_offline: the model server is known not to answer
        self._busy = False  # set_busy: an answer is being written
        self.send_button = QPushButton(self.tr("Send"))
        self.send_button.clicked.connect(self._submit)
        self.stop_button = QPushButton(self.tr("Stop"))
        self.stop_button.clicked.connect(self.stop_requested)
        self.stop_button.hide()
        row.addWidget(self.send_button)
        row.addWidget(self.stop_button)
        layout.addLayout(row)
        focus.chain([self.model_box, self.offline_retry, self.offline_settings])
        self.messages: list[MessageWidget] = []
        self._editing: int | None = None  # the turn being edited (-1: the last)
        self._edited: MessageWidget | None = None
        self._draft = ""  # what the composer held before an edit began
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
        self.cancel_edit()
        for w in self.messages:
            w.setParent(None)
            w.deleteLater()
        self.messages = []
        self.empty.show()
        self._follow = True
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
        w.version_clicked.connect(lambda delta, widget=w: self._version(widget, delta))
        w.notice.linkActivated.connect(
            lambda link, widget=w: self.notice_link.emit(self.messages.index(widget), link)
        )
        w.parts_changed.connect(lambda widget=w: self._order(widget))
        w.command_set.connect(self._update_actions)
        self.list_layout.insertWidget(self.list_layout.count() - 1, w)
        self.messages.append(w)
        self._order(w)
        self.empty.hide()
        self._update_actions()
        if role == "user":
            self._follow = True  # a new exchange: into view, even if the user had scrolled
        if self._follow:
            QTimer.singleShot(0, self.scroll_to_end)
        return w

    def remove_last(self, count: int = 1) -> None:
        for _ in range(min(count, len(self.messages))):
            w = self.messages.pop()
            w.setParent(None)
            w.deleteLater()
        self.empty.setVisible(not self.messages)
        self._update_actions()

    def _order(self, widget: MessageWidget) -> None:
        """Tab reads the conversation in order, between the model picker and the composer:
        a message's controls come after the previous message's, before the next's."""
        if widget not in self.messages:
            return
        i = self.messages.index(widget)
        before = self.messages[i - 1].parts()[-1] if i else self.offline_settings
        after = (
            self.messages[i + 1].parts()[0]
            if i + 1 < len(self.messages)
            else self.composer_parts()[0]
        )
        focus.chain([before, *widget.parts(), after])

    def composer_parts(self) -> list[QWidget]:
        """What Tab visits under the messages, in order."""
        return [self.cancel_edit_button, self.input, self.send_button, self.stop_button]

    def remove_messages(self, ids: set[int]) -> None:
        """Messages deleted from the conversation shown: gone from the view at once."""
        for w in [m for m in self.messages if m.message_id in ids]:
            if w is self._edited:
                self.cancel_edit()
            self.messages.remove(w)
            w.setParent(None)
            w.deleteLater()
        self.empty.setVisible(not self.messages)
        self._update_actions()

    def forget_memories(self, ids: tuple[int, ...]) -> None:
        """Memories deleted (`ids`; empty: all): no answer shows a chip of one."""
        for m in self.messages:
            m.forget_memories(ids)

    def forget_lines(self, ids: set[int]) -> None:
        """Lines of the profile removed (`ids`: those still there): their chips go."""
        for m in self.messages:
            m.forget_lines(ids)

    def scroll_to_end(self) -> None:
        self._follow = True
        bar = self.scroll_area.verticalScrollBar()
        bar.setValue(bar.maximum())

    def show_message(self, widget: MessageWidget) -> None:
        """Scroll to a message (a chip opened it) and stop following the end."""
        self._follow = False
        self.scroll_area.ensureWidgetVisible(widget, 0, 40)

    def _range_changed(self, _low: int, high: int) -> None:
        if self._follow:
            self.scroll_area.verticalScrollBar().setValue(high)

    def _scrolled(self, value: int) -> None:
        self._follow = value >= self.scroll_area.verticalScrollBar().maximum() - FOLLOW_SLACK

    # -- input --------------------------------------------------------------------------

    def set_offline(self, offline: bool) -> None:
        """While the model server is known not to answer, nothing is sent: Send is
        disabled (Enter too) and the typed text waits in the composer."""
        self._offline = offline
        self.send_button.setEnabled(not offline)
        self.send_button.setToolTip(
            self.tr("The model server is not answering: your message waits here until it does.")
            if offline
            else ""
        )
        self._update_actions()  # Regenerate and Edit ask the model too

    def show_offline_line(self, text: str, why: str, shown: bool) -> None:
        """The line over a conversation being read while the server does not answer
        (`why`: the server's own words, as its tooltip), with Retry and Settings…."""
        self.offline_banner.setText(text)
        self.offline_banner.setToolTip(why)
        focused = self.window().focusWidget()
        if not shown and focused is not None and self.offline_bar.isAncestorOf(focused):
            self.input.setFocus()  # the keyboard is not left on a button that went
        self.offline_bar.setVisible(shown)
        self.offline_banner.setVisible(shown)

    def offline(self) -> bool:
        """The model server is known not to answer: nothing can be sent or answered."""
        return self._offline

    def _submit(self) -> None:
        text = self.input.toPlainText().strip()
        if not text or self.stop_button.isVisible() or self._offline:
            return
        self.input.clear()
        if self._editing is not None:
            turn = self._editing
            self._end_edit()
            self.edit_requested.emit(turn, text)
        else:
            self.send_requested.emit(text)

    def edit_last_message(self) -> None:
        if self._offline:
            return
        last = next((m for m in reversed(self.messages) if m.role == "user"), None)
        if last is not None and not last.command:
            self._begin_edit(last, -1)

    def _begin_edit(self, widget: MessageWidget, turn: int) -> None:
        """The composer holds the message to change; the message and a bar over the
        composer say it is being edited."""
        if self._editing is None:
            self._draft = self.input.toPlainText()
        if self._edited is not None:
            self._edited.set_editing(False)
        self._editing, self._edited = turn, widget
        widget.set_editing(True)
        self.edit_bar.show()
        self.input.editing = True
        self.input.setPlainText(widget.text())
        self.input.moveCursor(self.input.textCursor().MoveOperation.End)
        self.input.setFocus()

    def _end_edit(self) -> None:
        if self._edited is not None:
            self._edited.set_editing(False)
        self._editing, self._edited = None, None
        self.edit_bar.hide()
        self.input.editing = False

    def editing(self) -> bool:
        return self._editing is not None

    def cancel_edit(self) -> None:
        """Stop editing: the message stays as it was, the composer gets its draft back."""
        if self._editing is None:
            return
        self._end_edit()
        self.input.setPlainText(self._draft)
        self._draft = ""

    def turn_of(self, widget: MessageWidget) -> int:
        """Which user message (0-based) a message belongs to: itself, or the one an
        answer answers."""
        index = self.messages.index(widget)
        return sum(1 for m in self.messages[: index + 1] if m.role == "user") - 1

    def _version(self, widget: MessageWidget, delta: int) -> None:
        if widget.message_id is not None:
            self.version_requested.emit(widget.message_id, delta)

    def _redo(self, widget: MessageWidget) -> None:
        if (
            widget not in self.messages
            or widget.command  # done, not answered: nothing to give again
            or self.stop_button.isVisible()
            or self._offline
        ):
            return
        turn = self.turn_of(widget)
        if turn < 0:
            return
        if widget.role == "user":
            self._begin_edit(widget, turn)
        else:
            self.regenerate_requested.emit(turn)

    def remove_from_turn(self, turn: int) -> None:
        """Remove a turn's widgets (its user message, its answer) and every later one."""
        users = [i for i, m in enumerate(self.messages) if m.role == "user"]
        start = users[turn] if 0 <= turn < len(users) else len(self.messages)
        self.remove_last(len(self.messages) - start)

    def set_busy(self, busy: bool) -> None:
        self._busy = busy
        # a button that goes while it has the keyboard would hand it to the next one in
        # the window (the rail's Chat button): Send gives it to Stop, Stop to the composer
        had = (self.stop_button if not busy else self.send_button).hasFocus()
        self.send_button.setVisible(not busy)
        self.stop_button.setVisible(busy)
        if had:
            (self.stop_button if busy else self.input).setFocus()
        self._update_actions(busy)

    def _update_actions(self, busy: bool | None = None) -> None:
        busy = self.stop_button.isVisible() if busy is None else busy
        why = (
            self.tr("The model server is not answering: this works again once it does.")
            if self._offline
            else None
        )
        for m in self.messages:
            m.set_redo_enabled(not busy and why is None, why)
            m.set_versions_enabled(not busy)
        self.actions_changed.emit()

    def can_regenerate(self) -> bool:
        """The Chat menu's Regenerate would answer the last message again: there is
        one, it is not a command or a command's reply, and the model server can answer."""
        idle = not self._busy and not self._offline
        return idle and bool(self.messages) and not self.messages[-1].command

    def can_edit_last(self) -> bool:
        """The Chat menu's "Edit last message" would open the last message to edit."""
        if self._busy or self._offline:
            return False
        last = next((m for m in reversed(self.messages) if m.role == "user"), None)
        return last is not None and not last.command

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_head()

    def _fit_head(self) -> None:
        """The incognito badge's whole sentence where it leaves the title room (up to
        about ten characters of it), else the one word, with the sentence as its tooltip."""
        badge = self.incognito_badge
        if badge.isHidden():
            return
        whole = self.tr("Incognito: nothing is remembered or stored")
        metrics = self.title.fontMetrics()
        title = min(metrics.horizontalAdvance(self.title.full_text()), 10 * metrics.height())
        layout = self.column.layout()
        spacing = max(0, layout.spacing() if layout is not None else 0) * 2
        room = self.column.width() - self.model_box.sizeHint().width() - spacing - title
        if not self.space_badge.isHidden():
            room -= self.space_badge.sizeHint().width() + spacing // 2
        padding = badge.sizeHint().width() - badge.fontMetrics().horizontalAdvance(badge.text())
        fits = badge.fontMetrics().horizontalAdvance(whole) + padding <= room
        badge.setText(whole if fits else self.tr("Incognito"))
        badge.setToolTip("" if fits else whole)

    def set_space(self, name: str, tip: str) -> None:
        """The chat's space in its header ("" says none: the profile has no other); a
        long name cut with "…", whole in the tooltip."""
        badge = self.space_badge
        badge.setText(badge.fontMetrics().elidedText(name, Qt.TextElideMode.ElideRight, 180))
        badge.setToolTip(f"{name}\n{tip}" if badge.text() != name else tip)
        badge.setAccessibleName(self.tr("Space: %1").replace("%1", name))
        badge.setVisible(bool(name))
        self._fit_head()

    def set_incognito(self, on: bool) -> None:
        """Incognito looks different as a whole (a tinted chat area), and its empty state
        says what it is instead of promising to keep things."""
        self.incognito_badge.setVisible(on)
        self._fit_head()
        self.empty.setText(
            self.tr(
                "Incognito: nothing you say here is remembered or stored, and no memory is "
                "used. Closing it leaves no trace."
            )
            if on
            else self.tr("Say hello. What you tell me stays on this computer, encrypted.")
        )
        self.list_widget.setObjectName("incognitoList" if on else "")
        self.list_widget.style().unpolish(self.list_widget)
        self.list_widget.style().polish(self.list_widget)
        self.list_widget.setAutoFillBackground(False)
