"""Qt item models over the core services (never SQL here)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime

from PySide6.QtCore import (
    QAbstractListModel,
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSize,
    Qt,
)
from PySide6.QtGui import QFont, QFontMetrics

from desktop_mem.core.chat.records import ORIGINS, Conversation
from desktop_mem.core.memory.records import Memory

Index = QModelIndex | QPersistentModelIndex
SORT_ROLE = Qt.ItemDataRole.UserRole + 1
ID_ROLE = Qt.ItemDataRole.UserRole + 2
Found = tuple[float | None, bool]  # a search hit's relevance as shown, and whether weak
SNIPPET_ROLE = Qt.ItemDataRole.UserRole + 3  # a conversation search hit: the message found
MESSAGE_ROLE = Qt.ItemDataRole.UserRole + 4  # ... and its id
SPACE_ROLE = Qt.ItemDataRole.UserRole + 5  # a conversation's space, named ("" unsaid)


class MemoryTableModel(QAbstractTableModel):
    """Memories as rows: text, kind, pinned, importance, created, updated, source.
    `set_memories` replaces the rows (a listing, or search hits in their order)."""

    COLUMNS = ("text", "kind", "pinned", "importance", "created", "updated", "source")

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[Memory] = []
        self._found: dict[int, Found] = {}
        self._more: Callable[[int, int], list[Memory]] | None = None
        self.computers: dict[str, str] = {}  # the synced computers' names, by id
        # memories edited on two computers at once, not looked at yet (marked on cards)
        self.edited_on_both: set[int] = set()
        # each memory's space by name, said on its card (None: not said, as when the
        # list is one space's)
        self.space_names: dict[int | None, str] | None = None
        self.query = ""  # the search the hits answer: its matched words are marked

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

    PAGE = 500  # rows read at a time as the user scrolls down a listing

    def set_memories(
        self,
        memories: list[Memory],
        found: dict[int, Found] | None = None,
        more: Callable[[int, int], list[Memory]] | None = None,
    ) -> None:
        """Replace the rows; `found`: for search hits, each one's (relevance, weak).
        `more(offset, limit)` reads the rows after these, a page at
        a time as the view scrolls down (canFetchMore/fetchMore), so a listing of
        100,000 memories costs the window one page."""
        self.beginResetModel()
        self._rows = list(memories)
        self._found = dict(found or {})
        self._more = more
        self.endResetModel()

    def canFetchMore(self, parent: Index) -> bool:
        return not parent.isValid() and self._more is not None

    def fetchMore(self, parent: Index) -> None:
        more = self._more
        if parent.isValid() or more is None:
            return
        rows = more(len(self._rows), self.PAGE)
        if len(rows) < self.PAGE:
            self._more = None  # the last page
        known = {m.id for m in self._rows[-self.PAGE :]}
        rows = [m for m in rows if m.id not in known]  # a memory added meanwhile shifts them
        if rows:
            self.beginInsertRows(QModelIndex(), len(self._rows), len(self._rows) + len(rows) - 1)
            self._rows.extend(rows)
            self.endInsertRows()

    def fetch_all(self) -> None:
        while self._more is not None:
            self.fetchMore(QModelIndex())

    SORT_KEYS: dict[str, Callable[[Memory], str | int | float]] = {
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
        self.fetch_all()  # sorting a part would be wrong: the user asked for all of them
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

    def found(self, memory_id: int) -> Found | None:
        """A search hit's (relevance, weak); None in a listing."""
        return self._found.get(memory_id)

    def row_of(self, memory_id: int) -> int:
        return next((i for i, m in enumerate(self._rows) if m.id == memory_id), -1)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            names = self.headers()
            return names[section] if 0 <= section < len(names) else None
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
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
            if col == "text" and self._found.get(m.id, (None, False))[0] is not None:
                return m.text + "\n\n" + relevance_tip()
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


def relevance_tip() -> str:
    """What a search hit's standing means, and what the list follows."""
    return QCoreApplication.translate(
        "cards",
        "A match is what the chat would give the model for this search: near it in "
        "meaning or holding its words, and the search about something you have (a "
        "greeting, or a question about something you never mentioned, has none). Matches "
        "are listed best first. A weak match is near the search but not a match: listed "
        "with “Weak matches too”.",
    )


def kind_label(_ctx: object, kind: str) -> str:
    return {
        "fact": QCoreApplication.translate("kinds", "fact"),
        "preference": QCoreApplication.translate("kinds", "preference"),
        "event": QCoreApplication.translate("kinds", "event"),
        "plan": QCoreApplication.translate("kinds", "plan"),
        "person": QCoreApplication.translate("kinds", "person"),
        "note": QCoreApplication.translate("kinds", "note"),
    }.get(kind, kind)


def source_label(_ctx: object, source: str) -> str:
    return {
        "user": QCoreApplication.translate("sources", "you"),
        "extractor": QCoreApplication.translate("sources", "from a chat"),
        "import": QCoreApplication.translate("sources", "import"),
        "consolidation": QCoreApplication.translate("sources", "consolidation"),
    }.get(source, source)


GROUPS = ("pinned", "today", "yesterday", "week", "month", "older")


def date_group(conversation: Conversation, today: date) -> str:
    """Where a conversation goes in the list: pinned, or by its last message's local
    date (today, yesterday, the previous 7 days, the previous 30 days, older)."""
    if conversation.pinned:
        return "pinned"
    try:
        stamp = datetime.fromisoformat(conversation.updated_at.replace("Z", "+00:00"))
    except ValueError:
        return "older"
    day = stamp.astimezone().date() if stamp.tzinfo else stamp.date()
    age = (today - day).days
    if age <= 0:
        return "today"
    if age == 1:
        return "yesterday"
    return "week" if age <= 7 else "month" if age <= 30 else "older"


class ConversationListModel(QAbstractListModel):
    """Conversations, most recent first under date headings (Pinned, Today, Yesterday,
    Previous 7 days, Previous 30 days, Older); search results as found, without them.
    A heading is a row that cannot be selected."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[Conversation | str] = []
        self._found: dict[int, tuple[int, str]] = {}
        self.query = ""  # the search the hits answer: its matched words are marked
        # each conversation's space by name, shown beside its title (None: not shown,
        # as when the list is one space's)
        self.space_names: dict[int | None, str] | None = None

    def group_label(self, group: str) -> str:
        return {
            "pinned": self.tr("Pinned"),
            "today": self.tr("Today"),
            "yesterday": self.tr("Yesterday"),
            "week": self.tr("Previous 7 days"),
            "month": self.tr("Previous 30 days"),
            "older": self.tr("Older"),
        }[group]

    def set_conversations(
        self,
        rows: list[Conversation],
        grouped: bool = True,
        today: date | None = None,
        found: dict[int, tuple[int, str]] | None = None,
    ) -> None:
        """The conversations under date headings; or (`grouped` False) search results in
        their order, each with `found[id]`: the message (id, text) it was found by."""
        today = today or date.today()
        out: list[Conversation | str] = []
        last = None
        for c in rows:
            group = date_group(c, today) if grouped else None
            if group is not None and group != last:
                out.append(group)
                last = group
            out.append(c)
        self.beginResetModel()
        self._rows = out
        self._found = dict(found or {})
        self.endResetModel()

    def conversation(self, row: int) -> Conversation | None:
        item = self._rows[row] if 0 <= row < len(self._rows) else None
        return item if isinstance(item, Conversation) else None

    def row_of(self, conversation_id: int | None) -> int:
        return next(
            (
                i
                for i, c in enumerate(self._rows)
                if isinstance(c, Conversation) and c.id == conversation_id
            ),
            -1,
        )

    def conversations(self) -> list[Conversation]:
        """The conversations listed, in order (without the headings)."""
        return [c for c in self._rows if isinstance(c, Conversation)]

    def count(self) -> int:
        return len(self.conversations())

    def headings(self) -> list[str]:
        return [self.group_label(r) for r in self._rows if isinstance(r, str)]

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def flags(self, index: Index) -> Qt.ItemFlag:
        heading = index.isValid() and 0 <= index.row() < len(self._rows)
        if heading and isinstance(self._rows[index.row()], str):
            return Qt.ItemFlag.NoItemFlags
        return super().flags(index)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        c = self._rows[index.row()]
        if isinstance(c, str):
            if role == Qt.ItemDataRole.DisplayRole:
                return self.group_label(c)
            if role == Qt.ItemDataRole.FontRole:
                font = QFont()
                font.setBold(True)
                return font
            if role == Qt.ItemDataRole.SizeHintRole:  # air above a heading (CJK too)
                height = QFontMetrics(QFont()).height()
                return QSize(0, int(height * 1.8) if index.row() else int(height * 1.3))
            if role == Qt.ItemDataRole.TextAlignmentRole:
                return int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom)
            if role == Qt.ItemDataRole.AccessibleTextRole:
                return self.group_label(c)
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return c.title or self.tr("New conversation")
        if role == SNIPPET_ROLE:
            return self._found.get(c.id, (0, ""))[1]
        if role == SPACE_ROLE:
            return "" if self.space_names is None else self.space_names.get(c.space, "")
        if role == MESSAGE_ROLE:
            return self._found.get(c.id, (None, ""))[0]
        if role == Qt.ItemDataRole.ToolTipRole and c.id in self._found:
            return self._found[c.id][1]
        if role == Qt.ItemDataRole.ToolTipRole:
            tip = self.tr("%n message(s), last %1", "", c.messages).replace(
                "%1", c.updated_at[:16].replace("T", " ")
            )
            if c.origin:  # imported: where from, and when it began
                tip += "\n" + self.tr("from %1, %2").replace(
                    "%1", ORIGINS.get(c.origin, c.origin)
                ).replace("%2", c.created_at[:10])
            if self.space_names is not None:  # every space's listed: say which
                tip += "\n" + (
                    self.tr("In the shared space")
                    if c.space is None
                    else self.tr("In the space %1").replace("%1", self.space_names.get(c.space, ""))
                )
            return tip
        if role == ID_ROLE:
            return c.id
        return None
