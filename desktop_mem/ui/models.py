"""Qt item models over the core services (never SQL here)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QFont

from desktop_mem.core.conversations import Conversation
from desktop_mem.core.memories import Memory

Index = QModelIndex | QPersistentModelIndex
SORT_ROLE = Qt.ItemDataRole.UserRole + 1
ID_ROLE = Qt.ItemDataRole.UserRole + 2


class MemoryTableModel(QAbstractTableModel):
    """Memories as rows: text, kind, pinned, importance, created, updated, source.
    `set_memories` replaces the rows (a listing, or search hits in their order)."""

    COLUMNS = ("text", "kind", "pinned", "importance", "created", "updated", "source")

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._rows: list[Memory] = []
        self._scores: dict[int, float] = {}

    def headers(self) -> list[str]:
        return [
            self.tr("Memory"),
            self.tr("Kind"),
            self.tr("Pinned"),
            self.tr("Importance"),
            self.tr("Created"),
            self.tr("Updated"),
            self.tr("Source"),
        ]

    def set_memories(self, memories: list[Memory], scores: dict[int, float] | None = None) -> None:
        self.beginResetModel()
        self._rows = list(memories)
        self._scores = dict(scores or {})
        self.endResetModel()

    SORT_KEYS: dict[str, Any] = {
        "text": lambda m: m.text.lower(),
        "kind": lambda m: m.kind,
        "pinned": lambda m: int(m.pinned),
        "importance": lambda m: m.importance,
        "created": lambda m: m.created_at,
        "updated": lambda m: m.updated_at,
        "source": lambda m: m.source,
    }

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort the rows in Python (list.sort with a key): letting a proxy compare through
        data() costs n log n Python calls, seconds for 10,000 memories. Stable, and the
        selection follows its rows."""
        if not 0 <= column < len(self.COLUMNS):
            return
        self.layoutAboutToBeChanged.emit()
        before = self.persistentIndexList()
        ids = [self._rows[i.row()].id if 0 <= i.row() < len(self._rows) else None for i in before]
        self._rows.sort(
            key=self.SORT_KEYS[self.COLUMNS[column]],
            reverse=order == Qt.SortOrder.DescendingOrder,
        )
        if self.COLUMNS[column] != "pinned":  # pinned ones first, as the CLI lists them
            self._rows.sort(key=lambda m: not m.pinned)  # stable: the column's order stays
        where = {m.id: r for r, m in enumerate(self._rows)}
        after = [
            self.index(where[mid], i.column()) if mid in where else QModelIndex()
            for i, mid in zip(before, ids, strict=True)
        ]
        self.changePersistentIndexList(before, after)
        self.layoutChanged.emit()

    def memory(self, row: int) -> Memory | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def row_of(self, memory_id: int) -> int:
        return next((i for i, m in enumerate(self._rows) if m.id == memory_id), -1)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            names = self.headers()
            return names[section] if 0 <= section < len(names) else None
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        m = self._rows[index.row()]
        col = self.COLUMNS[index.column()]
        if role == ID_ROLE:
            return m.id
        if role == SORT_ROLE:
            return {
                "text": m.text.lower(),
                "kind": m.kind,
                "pinned": int(m.pinned),
                "importance": m.importance,
                "created": m.created_at,
                "updated": m.updated_at,
                "source": m.source,
            }[col]
        if role == Qt.ItemDataRole.DisplayRole:
            if col == "text":
                text = " ".join(m.text.split())
                return text + (self.tr(" (expired)") if m.expired else "")
            if col == "kind":
                return kind_label(self, m.kind)
            if col == "pinned":
                return "★" if m.pinned else ""
            if col == "importance":
                return f"{m.importance:.1f}"
            if col in ("created", "updated"):
                stamp = m.created_at if col == "created" else m.updated_at
                return stamp[:10]
            return source_label(self, m.source)
        if role == Qt.ItemDataRole.ToolTipRole:
            if col == "text":
                return m.text
            if col in ("created", "updated"):
                stamp = m.created_at if col == "created" else m.updated_at
                return stamp[:19].replace("T", " ")
        if role == Qt.ItemDataRole.FontRole and m.expired:
            font = QFont()
            font.setStrikeOut(True)
            return font
        if role == Qt.ItemDataRole.TextAlignmentRole and col in ("pinned", "importance"):
            return int(Qt.AlignmentFlag.AlignCenter)
        return None


def kind_label(_ctx: Any, kind: str) -> str:
    return {
        "fact": QCoreApplication.translate("kinds", "fact"),
        "preference": QCoreApplication.translate("kinds", "preference"),
        "event": QCoreApplication.translate("kinds", "event"),
        "plan": QCoreApplication.translate("kinds", "plan"),
        "person": QCoreApplication.translate("kinds", "person"),
        "note": QCoreApplication.translate("kinds", "note"),
    }.get(kind, kind)


def source_label(_ctx: Any, source: str) -> str:
    return {
        "user": QCoreApplication.translate("sources", "you"),
        "extractor": QCoreApplication.translate("sources", "from a chat"),
        "import": QCoreApplication.translate("sources", "import"),
        "consolidation": QCoreApplication.translate("sources", "consolidation"),
    }.get(source, source)


class ConversationListModel(QAbstractListModel):
    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._rows: list[Conversation] = []

    def set_conversations(self, rows: list[Conversation]) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def conversation(self, row: int) -> Conversation | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def row_of(self, conversation_id: int | None) -> int:
        return next((i for i, c in enumerate(self._rows) if c.id == conversation_id), -1)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        c = self._rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return c.title or self.tr("New conversation")
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.tr("%n message(s), last %1", "", c.messages).replace(
                "%1", c.updated_at[:16].replace("T", " ")
            )
        if role == ID_ROLE:
            return c.id
        return None
