"""The conversation list beside the chat: the space the window is in (new chats start
there; the list shows its conversations, or every space's, each with its space's name),
New chat and Incognito, the search field (it searches as you type, like the memory
browser, and shows the message each conversation was found by), and the list under
date headings."""

from __future__ import annotations

from PySide6.QtCore import (
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QPoint,
    QSize,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QFont, QFontMetrics, QKeyEvent, QPainter, QPalette
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QPushButton,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from desktop_mem.core.chat.records import Conversation
from desktop_mem.ui import highlight
from desktop_mem.ui.item_models import (
    ID_ROLE,
    MESSAGE_ROLE,
    SNIPPET_ROLE,
    SPACE_ROLE,
    ConversationListModel,
)
from desktop_mem.ui.spaces import MANAGE, Choice, choice_of, data_of

SEARCH_DELAY_MS = 250  # as the memory browser: as you type, not once per keystroke
Index = QModelIndex | QPersistentModelIndex


class SnippetDelegate(QStyledItemDelegate):
    """A conversation found by a search: its title, and under it in a quieter, smaller
    font the message it was found by."""

    def _snippet(self, index: Index) -> str:
        return str(index.data(SNIPPET_ROLE) or "")

    @staticmethod
    def _space(index: Index) -> str:
        return str(index.data(SPACE_ROLE) or "")

    def _tag(self, painter: QPainter, option: QStyleOptionViewItem, tag: str, top: int) -> int:
        """The conversation's space, small and quiet at the right of its title's line;
        how wide it is drawn (with the gap before it)."""
        small = self._small(option.font)
        metrics = QFontMetrics(small)
        rect = option.rect.adjusted(6, 0, -6, 0)
        width = min(metrics.horizontalAdvance(tag), rect.width() // 2)
        shown = metrics.elidedText(tag, Qt.TextElideMode.ElideRight, width)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        painter.save()
        painter.setFont(small)
        role = (
            QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.PlaceholderText
        )
        painter.setPen(option.palette.color(role))
        line = QFontMetrics(option.font).lineSpacing()
        box = rect.adjusted(rect.width() - width, 0, 0, 0)
        box.setTop(top)
        box.setHeight(line)
        painter.drawText(box, int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter),
                         shown)  # fmt: skip
        painter.restore()
        return width + 8

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        size = super().sizeHint(option, index)
        if self._snippet(index):
            size.setHeight(size.height() + QFontMetrics(self._small(option.font)).lineSpacing() + 4)
        return size

    @staticmethod
    def _small(font: QFont) -> QFont:
        small = QFont(font)
        small.setPointSizeF(max(7.0, font.pointSizeF() * 0.9))
        return small

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        snippet = self._snippet(index)
        tag = self._space(index)
        if not snippet and tag:  # the title, cut short of its space's name
            opt = QStyleOptionViewItem(option)
            self.initStyleOption(opt, index)
            title = opt.text
            opt.text = ""
            style = opt.widget.style() if opt.widget else None
            if style is not None:
                style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)
            height = QFontMetrics(option.font).lineSpacing()
            top = option.rect.top() + (option.rect.height() - height) // 2
            room = option.rect.width() - 12 - self._tag(painter, option, tag, top)
            selected = bool(option.state & QStyle.StateFlag.State_Selected)
            painter.save()
            painter.setPen(option.palette.color(
                QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
            ))  # fmt: skip
            box = option.rect.adjusted(6, 0, 0, 0)
            box.setWidth(max(0, room))
            painter.drawText(box, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                             QFontMetrics(option.font).elidedText(
                                 title, Qt.TextElideMode.ElideRight, max(0, room)))  # fmt: skip
            painter.restore()
            return
        if not snippet:
            super().paint(painter, option, index)
            return
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""
        style = opt.widget.style() if opt.widget else None
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        palette = option.palette
        rect = option.rect.adjusted(6, 2, -6, -2)
        metrics = QFontMetrics(option.font)
        painter.save()
        painter.setPen(
            palette.color(
                QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
            )
        )
        title = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
        line = rect.adjusted(0, 0, 0, -(rect.height() - metrics.lineSpacing()))
        if tag:  # its space's name at the right of the title's line
            line.setRight(line.right() - self._tag(painter, option, tag, line.top()))
        query = self._query(index)
        mark = highlight.mark_color(palette, selected)
        title = metrics.elidedText(title, Qt.TextElideMode.ElideRight, line.width())
        # the words the search matched, marked behind the title and the message found
        highlight.mark_line(painter, line, title, highlight.spans(title, query), 0, metrics, mark)
        painter.drawText(line, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                         title)  # fmt: skip
        small = self._small(option.font)
        painter.setFont(small)
        quiet = (
            QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.PlaceholderText
        )
        painter.setPen(palette.color(quiet))
        below = rect.adjusted(0, metrics.lineSpacing() + 2, 0, 0)
        small_metrics = QFontMetrics(small)
        said = small_metrics.elidedText(snippet, Qt.TextElideMode.ElideRight, rect.width())
        marked = below.adjusted(0, 0, 0, -(below.height() - small_metrics.lineSpacing()))
        highlight.mark_line(painter, marked, said, highlight.spans(said, query), 0,
                            small_metrics, mark)  # fmt: skip
        painter.drawText(below, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop), said)
        painter.restore()

    @staticmethod
    def _query(index: Index) -> str:
        model = index.model()
        return model.query if isinstance(model, ConversationListModel) else ""


class ConversationsPanel(QWidget):
    new_requested = Signal(bool)  # True: incognito
    search_requested = Signal(str)  # "" lists them all again
    open_requested = Signal(int)  # a conversation
    message_requested = Signal(int)  # a search hit: the conversation at that message
    menu_requested = Signal(QPoint)  # a position in the list
    space_chosen = Signal(object)  # a space's id, None (the shared space) or ALL
    manage_spaces_requested = Signal()  # the box's "Manage spaces…": Settings > Spaces

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 0, 6)
        # the space the window is in: new chats start there, the list shows its own
        self.space_box = QComboBox()
        self.space_box.setAccessibleName(self.tr("Space"))
        self.space_box.setToolTip(
            self.tr("The space new chats start in; the list shows its conversations "
                    "(All spaces: every conversation, each with its space's name)")
        )  # fmt: skip
        self.space_box.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.space_box.setMinimumContentsLength(8)
        self.space_box.activated.connect(self._space_activated)
        layout.addWidget(self.space_box)
        self._space_shown: Choice = None
        buttons = QHBoxLayout()
        self.new_button = QPushButton(self.tr("New chat"))
        self.new_button.clicked.connect(lambda: self.new_requested.emit(False))
        self.incognito_button = QPushButton(self.tr("Incognito"))
        self.incognito_button.setToolTip(
            self.tr("A chat that reads and writes no memory and is not stored")
        )
        self.incognito_button.clicked.connect(lambda: self.new_requested.emit(True))
        buttons.addWidget(self.new_button)
        buttons.addWidget(self.incognito_button)
        layout.addLayout(buttons)
        self.search = QLineEdit()
        self.search.setPlaceholderText(self.tr("Search conversations"))
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self._typed)
        self.search.returnPressed.connect(self._search_now)
        self.search.installEventFilter(self)  # Down: on into the list
        layout.addWidget(self.search)
        self.model = ConversationListModel(self)
        self.list = QListView()
        self.list.setModel(self.model)
        self.list.setItemDelegate(SnippetDelegate(self.list))
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.list.setUniformItemSizes(False)  # date headings and snippets are taller
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.list.customContextMenuRequested.connect(self.menu_requested)
        self.list.clicked.connect(self._activated)
        self.list.activated.connect(self._activated)  # Enter on the keyboard too
        self.list.setAccessibleName(self.tr("Conversations"))
        layout.addWidget(self.list, 1)
        self.empty = QLabel()
        self.empty.setObjectName("notice")
        self.empty.setWordWrap(True)
        self.empty.hide()
        layout.addWidget(self.empty)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(SEARCH_DELAY_MS)
        self._timer.timeout.connect(self._search_now)
        self.setMinimumWidth(160)
        self.setMaximumWidth(360)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            watched is self.search
            and event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() == Qt.Key.Key_Down
            and self.model.count()
        ):
            self.list.setFocus()
            first = next(
                r for r in range(self.model.rowCount()) if self.model.conversation(r) is not None
            )
            self.list.setCurrentIndex(self.model.index(first))
            return True
        return super().eventFilter(watched, event)

    def query(self) -> str:
        return self.search.text().strip()

    def _space_activated(self, row: int) -> None:
        data = self.space_box.itemData(row)
        if data == MANAGE:  # not a space: the box goes back to the one chosen
            self.space_box.setCurrentIndex(max(0, self._space_row()))
            self.manage_spaces_requested.emit()
            return
        self._space_shown = choice_of(data)
        self.space_chosen.emit(self._space_shown)

    def _space_row(self) -> int:
        return self.space_box.findData(data_of(self._space_shown))

    def show_space(self, choice: Choice) -> None:
        """The space chosen, as the box shows it (after the box was filled)."""
        self._space_shown = choice
        self.space_box.setCurrentIndex(max(0, self._space_row()))

    def _typed(self, text: str) -> None:
        if text.strip():
            self._timer.start()
        else:
            self._search_now()  # cleared: the whole list again at once

    def _search_now(self) -> None:
        self._timer.stop()
        self.search_requested.emit(self.query())

    def _activated(self, index: QModelIndex) -> None:
        message = index.data(MESSAGE_ROLE)
        if message:
            self.message_requested.emit(int(message))
        elif index.data(ID_ROLE) is not None:
            self.open_requested.emit(int(index.data(ID_ROLE)))

    def show_found(self, shown: int) -> None:
        """Under the list: what a search found, or nothing to say."""
        searching = bool(self.query())
        self.empty.setVisible(searching and not shown)
        self.empty.setText(self.tr("No conversation is about this.") if searching else "")

    def select(self, conversation_id: int | None) -> None:
        row = self.model.row_of(conversation_id)
        if row >= 0:
            self.list.setCurrentIndex(self.model.index(row))
        else:
            self.list.clearSelection()

    def focus_search(self) -> None:
        self.search.setFocus()
        self.search.selectAll()

    def conversation_at(self, pos: QPoint) -> Conversation | None:
        index = self.list.indexAt(pos)
        return self.model.conversation(index.row()) if index.isValid() else None
