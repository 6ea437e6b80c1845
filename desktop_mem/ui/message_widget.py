"""One message in the chat: its Markdown (code blocks highlighted), its time on hover,
Edit or Regenerate and Copy, and the memories and earlier messages it used as chips."""

from __future__ import annotations

import re
from collections.abc import Sequence

from PySide6.QtCore import QPoint, QRect, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (
    QColor,
    QGuiApplication,
    QResizeEvent,
    QSyntaxHighlighter,
    QTextCharFormat,
    QTextFormat,
)
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QLayout,
    QLayoutItem,
    QPushButton,
    QSizePolicy,
    QTextBrowser,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop_mem.core import textproc
from desktop_mem.core.chat.records import RecalledMessage, UsedMemory
from desktop_mem.core.documents.records import PassageHit
from desktop_mem.core.memory.about import AboutLine
from desktop_mem.ui.passage_dialog import where as passage_place

_KEYWORDS = (
    r"\b(?:def|class|return|if|elif|else|for|while|in|import|from|as|with|try|except|"
    r"finally|raise|lambda|yield|async|await|pass|break|continue|None|True|False|and|or|"
    r"not|is|function|const|let|var|new|this|null|undefined|true|false|public|private|"
    r"static|void|int|fn|struct|impl|match|pub|use|mut|SELECT|FROM|WHERE|INSERT|UPDATE|"
    r"DELETE|CREATE|TABLE|JOIN|echo|export|then|fi|do|done|case|esac)\b"
)


MAX_CHIPS = 6  # the rest are listed in a tooltip
# The profile is the same on every answer: its first lines, the rest in a tooltip (all of
# them in Memories › About you).
ABOUT_CHIPS = 2
# what an answer was given: memories, earlier messages, passages, the profile's lines
Given = tuple[list[UsedMemory], list[RecalledMessage], list[PassageHit], Sequence[AboutLine]]


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
        # Tab stops on the text only when it holds links (Copy copies it); then its ring
        # shows, in a border that is there, transparent, when it has no focus.
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.setStyleSheet(
            "QTextBrowser { background: transparent; border: 2px solid transparent;"
            " border-radius: 4px; padding: 0px; }"
            " QTextBrowser:focus { border-color: palette(highlight); }"
        )
        self.highlighter = CodeHighlighter(self.document())
        self.document().documentLayout().documentSizeChanged.connect(self._fit)
        self.markdown_text = ""

    def set_markdown(self, text: str) -> None:
        self.markdown_text = text
        self.setMarkdown(text)
        links = LINK.search(text) is not None
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus if links else Qt.FocusPolicy.ClickFocus)
        self._fit()

    def _fit(self, *_: object) -> None:
        self.document().setTextWidth(self.viewport().width())
        self.setFixedHeight(int(self.document().size().height()) + 6)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()


RENDER_MS = 40
LINK = re.compile(r"\]\(|<https?://|https?://\S")  # Markdown that renders a link


class MessageWidget(QFrame):
    memory_clicked = Signal(int)
    message_clicked = Signal(int)  # an earlier message the answer was given
    document_clicked = Signal(object)  # a passage it was given (documents.PassageHit)
    rendered = Signal()
    parts_changed = Signal()  # its controls changed (chips): the chat orders Tab again
    redo_clicked = Signal()  # Edit (a user message) or Regenerate (an answer)
    version_clicked = Signal(int)  # -1: the previous version of this message, +1: the next
    command_set = Signal()  # it became a command or a command's reply (set_command)

    def __init__(self, role: str, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.role = role
        self.message_id: int | None = None
        self.command = False  # a chat command or its reply (set_command)
        self.taught = False  # its notice says what the exchange taught (memories)
        self.setObjectName("userMessage" if role == "user" else "assistantMessage")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 6, 10, 6)
        head = QHBoxLayout()
        self.who = QLabel(self.tr("You") if role == "user" else self.tr("Assistant"))
        self.who.setObjectName("who")
        head.addWidget(self.who)
        head.addStretch(1)
        # "‹ 2/3 ›": the other versions of this message (Regenerate and Edit keep them)
        self.previous_button = QToolButton()
        self.previous_button.setText("‹")
        self.previous_button.setToolTip(self.tr("Previous version"))
        self.previous_button.setAccessibleName(self.tr("Previous version"))
        self.previous_button.clicked.connect(lambda: self.version_clicked.emit(-1))
        self.version_label = QLabel()
        self.version_label.setObjectName("versions")
        self.next_button = QToolButton()
        self.next_button.setText("›")
        self.next_button.setToolTip(self.tr("Next version"))
        self.next_button.setAccessibleName(self.tr("Next version"))
        self.next_button.clicked.connect(lambda: self.version_clicked.emit(1))
        for w in (self.previous_button, self.version_label, self.next_button):
            head.addWidget(w)
            w.hide()
        self._version = (1, 1)
        self.copy_button = QToolButton()
        self.copy_button.setText(self.tr("Copy"))
        self.copy_button.setToolTip(self.tr("Copy this message"))
        self.copy_button.clicked.connect(self.copy)
        self.redo_button = QToolButton()
        if role == "user":
            self.redo_button.setText(self.tr("Edit"))
            self._redo_tip = self.tr(
                "Change this message and send it again (the turns after it are replaced)"
            )
        else:
            self.redo_button.setText(self.tr("Regenerate"))
            self._redo_tip = self.tr("Answer this message again (the turns after it are replaced)")
        self.redo_button.setToolTip(self._redo_tip)
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
        self.notice.setTextInteractionFlags(self._links)
        self.notice.setFocusPolicy(Qt.FocusPolicy.ClickFocus)  # set_notice: a link, Tab
        self.notice.hide()
        layout.addWidget(self.notice)
        self._pending = ""
        self._given: Given = ([], [], [], [])
        self._render = QTimer(self)
        self._render.setSingleShot(True)
        self._render.timeout.connect(self._flush)
        self.set_text(text)

    # a notice's links (Undo) are reached by Tab and followed with Enter, as by a click
    _links = (
        Qt.TextInteractionFlag.LinksAccessibleByMouse
        | Qt.TextInteractionFlag.LinksAccessibleByKeyboard
    )

    def parts(self) -> list[QWidget]:
        """Its controls in the order Tab visits them: the versions, Edit or Regenerate,
        Copy, the text (when it has links), the chips, the notice's links."""
        chips = [
            w
            for i in range(self.chips.count())
            if (item := self.chips.itemAt(i)) is not None
            and isinstance(w := item.widget(), QPushButton)
        ]
        return [self.previous_button, self.next_button, self.redo_button, self.copy_button,
                self.body, *chips, self.notice]  # fmt: skip

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

    def set_command(self) -> None:
        """A chat command ("forget …") or the app's reply to it: done, not answered, so
        neither Edit nor Regenerate is offered."""
        self.command = True
        self.redo_button.hide()
        self.command_set.emit()

    def set_redo_enabled(self, on: bool, why: str | None = None) -> None:
        """Edit or Regenerate usable or not; `why` not, as its tooltip (a disabled
        button still shows one)."""
        self.redo_button.setEnabled(on)
        self.redo_button.setToolTip(why or self._redo_tip)

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

    def set_given(
        self,
        used: list[UsedMemory],
        recalled: list[RecalledMessage],
        passages: list[PassageHit],
        about: Sequence[AboutLine] = (),
    ) -> None:
        """What the answer was given, as its records say (core.chat.records UsedMemory and
        RecalledMessage, documents PassageHit, the profile's AboutLine), the same for a
        turn just answered and for one read back: the lines of what the model knows
        about you, memories, earlier messages and passages of documents, each a chip (a
        weaker match drawn as such); a click opens the memory (for a line of the profile,
        the first it cites), the conversation at that message, or the file at that
        page."""
        about = list(about)
        self._given = (used, recalled, passages, about)
        while self.chips.count():
            item = self.chips.takeAt(0)
            chip = item.widget() if item is not None else None
            if chip is not None:
                chip.setParent(None)  # out of the Tab order now, not at the next pass
                chip.deleteLater()
        recalled = [r for r in recalled if r.text is not None]  # not those deleted since
        used = [u for u in used if u.text is not None]  # a forgotten memory: no chip
        if not used and not recalled and not passages and not about:
            self.chip_row.hide()
            return
        if about:
            self._label(self.tr("About you:"))
            for ln in about[:ABOUT_CHIPS]:
                tip = (
                    self.tr("In every answer: a line of what the model knows about you")
                    + "\n"
                    + ln.text
                )
                chip = self._chip(_short(ln.text, 24), tip)
                chip.setProperty("about_line", ln.id)
                first = ln.cites[0] if ln.cites else None
                if first is not None:
                    chip.clicked.connect(lambda _=False, i=first: self.memory_clicked.emit(i))
            if len(about) > ABOUT_CHIPS:
                more = QLabel(self.tr("+%1 more").replace("%1", str(len(about) - ABOUT_CHIPS)))
                more.setToolTip("\n".join(ln.text for ln in about[ABOUT_CHIPS:]))
                self.chips.addWidget(more)
        if used:
            self._label(self.tr("Memories used:"))
            for u in used[:MAX_CHIPS]:
                chip = self._chip(
                    _short(u.text or "", 24),
                    self._why(u.why, u.weak) + "\n" + (u.text or ""),
                    u.weak,
                )
                chip.setProperty("memory_id", u.memory_id)
                chip.clicked.connect(lambda _=False, i=u.memory_id: self.memory_clicked.emit(i))
            if len(used) > MAX_CHIPS:
                more = QLabel(self.tr("+%1 more").replace("%1", str(len(used) - MAX_CHIPS)))
                more.setToolTip("\n".join(u.text or "" for u in used[MAX_CHIPS:]))
                self.chips.addWidget(more)
        if recalled:
            self._label(self.tr("Earlier messages:"))
            for r in recalled[:MAX_CHIPS]:
                day = (r.created_at or "")[:10]
                tip = (
                    self.tr("%1, in another conversation:").replace("%1", day)
                    + "\n"
                    + (r.text or "")
                )
                chip = self._chip(_short(r.text or "", 24), tip, r.weak)
                chip.setProperty("message_id", r.message_id)
                chip.clicked.connect(lambda _=False, i=r.message_id: self.message_clicked.emit(i))
        if passages:
            self._label(self.tr("Documents:"))
            for p in passages[:MAX_CHIPS]:
                where = passage_place(p)
                chip = self._chip(_short(where, 32), f"{where}\n{p.text}", p.weak)
                chip.clicked.connect(lambda _=False, p=p: self.document_clicked.emit(p))
        self.chip_row.show()
        self.parts_changed.emit()

    def forget_memories(self, ids: tuple[int, ...]) -> None:
        """Memories were deleted (`ids`; empty: all of them): their chips go at once, and
        those of the profile's lines that cited them (the lines went with them)."""
        used, recalled, passages, about = self._given
        kept = [u for u in used if ids and u.memory_id not in ids]
        lines = [ln for ln in about if ids and not set(ln.cites) & set(ids)]
        if len(kept) != len(used) or len(lines) != len(about):
            self.set_given(kept, recalled, passages, lines)

    def forget_lines(self, ids: set[int]) -> None:
        """Lines of the profile were removed or rewritten (`ids`: those still there): the
        chips of the others go."""
        used, recalled, passages, about = self._given
        lines = [ln for ln in about if ln.id in ids]
        if len(lines) != len(about):
            self.set_given(used, recalled, passages, lines)

    def _why(self, why: str, weak: bool) -> str:
        said = {
            "always": self.tr("In every answer: about your health or safety"),
            "core": self.tr("In every answer (pinned)"),
            "found": self.tr("Found for this message"),
            "recalled": self.tr("Learned from an earlier message found for this one"),
        }.get(why, "")
        return said + (" · " + self.tr("a weaker match") if weak else "")

    def _label(self, text: str) -> None:
        label = QLabel(text)
        label.setObjectName("chipsLabel")
        if self.chips.count():  # a gap from the chips of the kind before
            label.setContentsMargins(10, 0, 0, 0)
        self.chips.addWidget(label)

    def _chip(self, label: str, tip: str, weak: bool = False) -> QPushButton:
        chip = QPushButton(label)
        chip.setObjectName("chip")
        chip.setProperty("weak", weak)
        chip.setToolTip(tip)
        chip.setFlat(True)
        chip.setCursor(Qt.CursorShape.PointingHandCursor)
        self.chips.addWidget(chip)
        return chip

    def set_versions(self, index: int, count: int) -> None:
        """This message is version `index` (1-based) of `count`: "‹ 2/3 ›" in its head
        (nothing when it has only one)."""
        self._version = (index, count)
        several = count > 1
        self.version_label.setText(
            self.tr("%1/%2").replace("%1", str(index)).replace("%2", str(count))
        )
        self.version_label.setAccessibleName(
            self.tr("Version %1 of %2").replace("%1", str(index)).replace("%2", str(count))
        )
        for w in (self.previous_button, self.version_label, self.next_button):
            w.setVisible(several)
        self.set_versions_enabled(True)

    def set_versions_enabled(self, on: bool) -> None:
        index, count = self._version
        self.previous_button.setEnabled(on and index > 1)
        self.next_button.setEnabled(on and index < count)

    def set_editing(self, on: bool) -> None:
        """Drawn as the message being edited (the composer holds its text)."""
        self.setProperty("editing", on)
        self.style().unpolish(self)
        self.style().polish(self)

    def set_notice(self, html: str | None, taught: bool = False) -> None:
        """The line under the message; `taught`: it says what the exchange taught."""
        self.taught = taught and bool(html)
        self.notice.setVisible(bool(html))
        self.notice.setText(html or "")
        # a tab stop only while it has a link to follow
        links = "<a " in (html or "")
        self.notice.setFocusPolicy(
            Qt.FocusPolicy.StrongFocus if links else Qt.FocusPolicy.ClickFocus
        )


def _short(text: str, width: int) -> str:
    return textproc.shorten(text, width)
