"""The forget dialogs. The chat's "forget …": each candidate with its own checkbox,
memories and the earlier messages that said it, all ticked (pinned memories start
unticked and are marked); an earlier message the user unticks stays to read but is left
out of every prompt; a memory that says more than what is forgotten offers to keep the
rest, proposed and editable (core/chat/forget.py: rest_of). "Forget everything": a typed word, and whether the conversations
go too (by default) or stay to read, out of every prompt."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop_mem.core.chat.records import Message
from desktop_mem.core.memory.records import Memory
from desktop_mem.ui import focus
from desktop_mem.ui.confirm_dialog import TypedConfirmDialog

KIND_ROLE = Qt.ItemDataRole.UserRole + 1
ID_ROLE = Qt.ItemDataRole.UserRole + 2


class ForgetDialog(QDialog):
    def __init__(
        self,
        memories: list[Memory],
        messages: list[Message],
        parent: QWidget | None = None,
        more: tuple[int, int] = (0, 0),
        rests: dict[int, str] | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Forget"))
        # by memory id: keep the rest of it (a box) as this text (editable)
        self.rest_rows: dict[int, tuple[QCheckBox, QLineEdit]] = {}
        layout = QVBoxLayout(self)
        intro = QLabel(
            self.tr(
                "Tick what to delete for good. An earlier message you untick stays to read, "
                "but the assistant no longer sees it."
            )
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.items = QListWidget()
        self.items.setWordWrap(True)
        self.items.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.items.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        if memories:
            self._header(self.tr("Memories (%n)", "", len(memories)))
        for m in memories:
            text = m.text + ("  " + self.tr("(pinned)") if m.pinned else "")
            self._add(text, "memory", m.id, checked=not m.pinned)
            if rests and m.id in rests:
                self._add_rest(m.id, rests[m.id], whole=rests[m.id] == m.text)
        if messages:
            self._header(self.tr("Earlier messages that mention it (%n)", "", len(messages)))
        for msg in messages:
            who = self.tr("You") if msg.role == "user" else self.tr("Assistant")
            flat = " ".join(msg.content.split())
            self._add(f"{msg.created_at[:10]} · {who}: {flat}", "message", msg.id, checked=True)
        layout.addWidget(self.items, 1)
        if any(more):  # a page at a time: the rest is found by asking again
            rest = QLabel(
                self.tr(
                    "%n more memory(s) or message(s) mention it: after these, say the same "
                    "“forget …” again.",
                    "",
                    sum(more),
                )
            )
            rest.setWordWrap(True)
            layout.addWidget(rest)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.delete = buttons.addButton(
            self.tr("Delete selected"), QDialogButtonBox.ButtonRole.AcceptRole
        )
        # Enter is Cancel: what is ticked goes for good, so it is chosen on purpose
        self.delete.setAutoDefault(False)
        cancel = buttons.button(QDialogButtonBox.StandardButton.Cancel)
        cancel.setAutoDefault(True)
        cancel.setDefault(True)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        focus.chain(focus.in_order(self))  # the list, then the buttons as shown
        self.items.itemChanged.connect(self._update)
        self._update()
        self.resize(560, 360)

    def _header(self, text: str) -> None:
        item = QListWidgetItem(text)
        item.setFlags(Qt.ItemFlag.NoItemFlags)
        font = item.font()
        font.setBold(True)
        item.setFont(font)
        self.items.addItem(item)

    def _add(self, text: str, kind: str, item_id: int, checked: bool) -> None:
        item = QListWidgetItem(text)
        item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable)
        item.setCheckState(Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked)
        item.setToolTip(text)
        item.setData(KIND_ROLE, kind)
        item.setData(ID_ROLE, item_id)
        self.items.addItem(item)

    def _add_rest(self, memory_id: int, rest: str, whole: bool) -> None:
        """Under a memory that says more: keep the rest (ticked), as an editable text."""
        row = QWidget()
        line = QHBoxLayout(row)
        line.setContentsMargins(24, 2, 4, 2)
        keep = QCheckBox(self.tr("Keep it as:") if whole else self.tr("Keep the rest:"))
        keep.setChecked(True)
        keep.setToolTip(
            self.tr(
                "This memory says more than what you forget: the rest stays as a memory. "
                "Edit it down to what should stay."
            )
        )
        text = QLineEdit(rest)
        text.setAccessibleName(self.tr("The rest of this memory, to keep"))
        text.setCursorPosition(0)
        keep.toggled.connect(text.setEnabled)
        line.addWidget(keep)
        line.addWidget(text, 1)
        if whole:  # about health or safety, and not parted: the user edits it down
            text.setToolTip(
                self.tr(
                    "It is about your health or safety: it stays as it is unless you edit "
                    "it or untick this."
                )
            )
        item = QListWidgetItem()
        item.setFlags(Qt.ItemFlag.NoItemFlags)
        item.setSizeHint(row.sizeHint())
        self.items.addItem(item)
        self.items.setItemWidget(item, row)
        self.rest_rows[memory_id] = (keep, text)

    def rests(self) -> dict[int, str]:
        """Of the memories ticked for deletion, the rest the user keeps, as edited."""
        chosen = set(self.chosen("memory"))
        return {
            mid: text.text().strip()
            for mid, (keep, text) in self.rest_rows.items()
            if mid in chosen and keep.isChecked() and text.text().strip()
        }

    def _update(self, *_: object) -> None:
        self.delete.setEnabled(
            bool(self.chosen("memory") or self.chosen("message") or self.kept("message"))
        )

    def chosen(self, kind: str) -> list[int]:
        """The ticked items of a kind: deleted."""
        return self._items(kind, Qt.CheckState.Checked)

    def kept(self, kind: str) -> list[int]:
        """The unticked items of a kind: an earlier message kept, but out of every prompt."""
        return self._items(kind, Qt.CheckState.Unchecked)

    def _items(self, kind: str, state: Qt.CheckState) -> list[int]:
        out = []
        for i in range(self.items.count()):
            item = self.items.item(i)
            if item.data(KIND_ROLE) == kind and item.checkState() == state:
                out.append(int(item.data(ID_ROLE)))
        return out


class ForgetEverythingDialog(TypedConfirmDialog):
    """ "Forget everything": every memory, and by default every conversation; with the
    box ticked the conversations stay to read, out of every prompt."""

    def __init__(
        self, memories: int, messages: int, conversations: int, parent: QWidget | None = None
    ) -> None:
        # self.tr needs the dialog made first
        text = QCoreApplication.translate(
            "ForgetEverythingDialog",
            "This deletes all %n memory(s) of this profile for good, and the earlier messages "
            "that said them: every conversation goes too, unless you keep them below. "
            "Your documents stay.",
            "",
            memories,
        )
        super().__init__(
            QCoreApplication.translate("ForgetEverythingDialog", "Forget everything"),
            text,
            QCoreApplication.translate("ForgetEverythingDialog", "FORGET"),
            parent,
        )
        self.keep = QCheckBox(
            self.tr(
                "Keep my %n conversation(s) to read (the assistant will no longer see them)",
                "",
                conversations,
            )
        )
        self.keep.setToolTip(self.tr("%n message(s) in all", "", messages))
        column = self.layout()
        assert isinstance(column, QVBoxLayout)  # the dialog's own, made above
        column.insertWidget(max(0, column.count() - 1), self.keep)
        focus.chain(focus.in_order(self))  # the word, the box, then the buttons
