"""Owns Settings > Apps: the AI apps registered to use this memory over MCP, what each
may do, the spaces each may use, what each read or wrote, and how to connect one. An app is known by the key in
its configuration, which this page shows once, when the app is connected or given a
new key; apps without a key may read, or nothing, as chosen here. The page follows what
the registry and the spaces announce (AppsChanged, SpacesChanged), whoever made the change:
never a refresh by hand."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QGuiApplication, QKeyEvent, QMouseEvent
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QListWidget,
    QMenu,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop_mem.core.clients import (
    LEVELS,
    RETENTION_DAYS,
    UNREGISTERED_LEVELS,
    ClientRegistry,
    connect_snippet,
)
from desktop_mem.core.errors import DesktopMemError
from desktop_mem.core.paths import home_argument
from desktop_mem.core.service.spaces import Spaces
from desktop_mem.core.textproc import escape_controls
from desktop_mem.ui.events import CoreSignals
from desktop_mem.ui.spaces import shared_name
from desktop_mem.ui.tasks import describe_exception


def level_label(level: str) -> str:
    return {
        "off": QCoreApplication.translate("AppsPage", "Paused"),
        "read": QCoreApplication.translate("AppsPage", "Read"),
        "write": QCoreApplication.translate("AppsPage", "Read and write"),
        "delete": QCoreApplication.translate("AppsPage", "Read, write and delete"),
    }[level]


def tool_label(tool: str) -> str:
    refused = tool.startswith("refused:")
    name = tool.removeprefix("refused:")
    words = {
        "search_memories": QCoreApplication.translate("AppsPage", "searched"),
        "list_memories": QCoreApplication.translate("AppsPage", "listed"),
        "get_profile_summary": QCoreApplication.translate("AppsPage", "read the pinned memories"),
        "add_memory": QCoreApplication.translate("AppsPage", "wrote"),
        "delete_memory": QCoreApplication.translate("AppsPage", "deleted"),
    }.get(name, name)
    if refused:
        return QCoreApplication.translate("AppsPage", "refused: %1").replace("%1", words)
    return words


class TickMenu(QMenu):
    """A menu of boxes to tick that stays open while they are ticked, by the mouse or
    by Space or Enter: several spaces are chosen in one go."""

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        action = self.activeAction()
        if action is not None and action.isEnabled() and action.isCheckable():
            action.trigger()
            return
        super().mouseReleaseEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        action = self.activeAction()
        keys = (Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Enter)
        if event.key() in keys and action is not None and action.isCheckable():
            action.trigger()
            return
        super().keyPressEvent(event)


def _elided(button: QPushButton, text: str) -> str:
    """The text cut with "…" to what a button shows of it (its menu arrow beside)."""
    return button.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, 320)


class AppsPage(QWidget):
    def __init__(
        self,
        registry: ClientRegistry,
        core: CoreSignals,
        profile: str,
        parent: QWidget | None = None,
        home: Path | None = None,
        spaces: Spaces | None = None,
    ) -> None:
        """`registry`: the apps of the open profile (Service.apps); `core`: its
        announcements (Context.core), which the page follows; `spaces`: the profile's
        spaces (Service.spaces), each app's to choose among."""
        super().__init__(parent)
        self.registry = registry
        self.spaces = spaces
        self.profile = profile
        self.home = home_argument(home) if home is not None else None
        layout = QVBoxLayout(self)
        intro = QLabel(
            self.tr(
                "AI apps on this computer (Claude Desktop, Cursor, VS Code, LM Studio…) can use "
                "your memory over MCP. Connect an app here: it gets a key that only its "
                "configuration holds, and may only do what you choose; a change applies at once."
            )
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.table = QTableWidget(0, 5)
        self.table.setTabKeyNavigation(False)  # Tab moves on; the arrows move in the table
        self.table.setHorizontalHeaderLabels(
            [self.tr("App"), self.tr("May"), self.tr("Last use"), self.tr("Reads / writes"),
             self.tr("Spaces")]
        )  # fmt: skip
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.itemSelectionChanged.connect(self._show_log)
        self.table.setMinimumHeight(120)  # three apps at least, at 800x600 too
        layout.addWidget(self.table, 1)
        # in place of the empty table (over its frame, it overlapped it where the page
        # is short: Chinese at 800x600)
        self.empty = QLabel(self.tr("No app is connected yet."))
        self.empty.setObjectName("notice")
        self.empty.setWordWrap(True)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setMinimumHeight(self.empty.fontMetrics().height() * 3)
        layout.addWidget(self.empty, 1)
        row = QHBoxLayout()
        self.connect_button = QPushButton(self.tr("Connect an app…"))
        self.connect_button.clicked.connect(lambda: self.connect_app())
        self.renew = QPushButton(self.tr("New key…"))
        self.renew.clicked.connect(lambda: self.renew_key())
        self.remove = QPushButton(self.tr("Remove…"))
        self.remove.setObjectName("danger")
        self.remove.clicked.connect(lambda: self.remove_app())
        self.clear = QPushButton(self.tr("Clear this app's log"))
        self.clear.clicked.connect(self._clear)
        for w in (self.connect_button, self.renew, self.remove, self.clear):
            row.addWidget(w)
        row.addStretch(1)
        layout.addLayout(row)
        # the spaces the selected app may read and write in (its level says what it may do)
        self.spaces_row = QWidget()
        spaces_row = QHBoxLayout(self.spaces_row)
        spaces_row.setContentsMargins(0, 0, 0, 0)
        self.spaces_label = QLabel(self.tr("Spaces it may use"))
        spaces_row.addWidget(self.spaces_label)
        # one line: the spaces given, and a menu that ticks them (it stays open)
        self.spaces_button = QPushButton()
        self.spaces_button.setAccessibleName(self.tr("Spaces it may use"))
        self.spaces_menu = TickMenu(self.spaces_button)
        self.spaces_button.setMenu(self.spaces_menu)
        spaces_row.addWidget(self.spaces_button, 1)
        self.spaces_row.setVisible(spaces is not None)
        layout.addWidget(self.spaces_row)
        keyless = QHBoxLayout()
        keyless.addWidget(QLabel(self.tr("Apps without a key may")))
        self.unregistered = QComboBox()
        for level in UNREGISTERED_LEVELS:
            words = self.tr("Nothing") if level == "off" else level_label(level)
            self.unregistered.addItem(words, level)
        self.unregistered.currentIndexChanged.connect(self._unregistered_changed)
        keyless.addWidget(self.unregistered)
        keyless.addStretch(1)
        layout.addLayout(keyless)
        self.log = QListWidget()
        self.log.setMaximumHeight(72)
        layout.addWidget(self.log)
        self.snippet_label = QLabel()
        self.snippet_label.setWordWrap(True)
        layout.addWidget(self.snippet_label)
        self.snippet = QPlainTextEdit()
        self.snippet.setReadOnly(True)
        self.snippet.setMaximumHeight(110)
        layout.addWidget(self.snippet)
        copy_row = QHBoxLayout()
        self.copy = QPushButton(self.tr("Copy"))
        self.copy.clicked.connect(
            lambda: QGuiApplication.clipboard().setText(self.snippet.toPlainText())
        )
        copy_row.addWidget(self.copy)
        copy_row.addStretch(1)
        layout.addLayout(copy_row)
        self._show_snippet(None, None)
        self.refresh()
        self.core = core
        core.apps_changed.connect(self.refresh)
        if spaces is not None:
            core.spaces_changed.connect(self.refresh)

    def stop(self) -> None:
        """Follow the registry no more (Settings closed: the page is not shown again)."""
        self.core.apps_changed.disconnect(self.refresh)
        if self.spaces is not None:
            self.core.spaces_changed.disconnect(self.refresh)

    # -- spaces ---------------------------------------------------------------------------

    def _space_names(self) -> list[tuple[int | None, str]]:
        """The shared space and each space, as the page lists them."""
        if self.spaces is None:
            return [(None, shared_name())]
        return [(None, shared_name()), *((s.id, s.name) for s in self.spaces.list())]

    def _spaces_text(
        self, given: frozenset[int | None], names: list[tuple[int | None, str]]
    ) -> str:
        shown = [name for space, name in names if space in given]
        return self.tr(", ").join(shown) if shown else self.tr("none")

    def _show_spaces(self, names: list[tuple[int | None, str]]) -> None:
        """The selected app's spaces, each ticked or not (nothing without an app)."""
        name = self.selected()
        given = self.registry.spaces_of(self.registry.get(name)) if name else frozenset()
        listed = [(a.data(), a.text()) for a in self.spaces_menu.actions()]
        wanted = [(-1 if space is None else space, label.replace("&", "&&"))
                  for space, label in names]  # fmt: skip
        if listed != wanted:  # the same spaces: ticked again in place (the menu may be open)
            self.spaces_menu.clear()
            for key, label in wanted:
                action = self.spaces_menu.addAction(label)
                action.setCheckable(True)
                action.setData(key)
                action.toggled.connect(lambda _on: self._space_ticked())
        for action in self.spaces_menu.actions():
            action.blockSignals(True)
            key = int(action.data())
            action.setChecked((None if key < 0 else key) in given)
            action.blockSignals(False)
        self.spaces_button.setText(
            _elided(self.spaces_button, self._spaces_text(given, names))
            if name
            else self.tr("Select an app first")
        )
        self.spaces_button.setEnabled(name is not None)
        self.spaces_label.setEnabled(name is not None)
        self.spaces_button.setToolTip(
            self.tr("What %1 may read and write in: never another space.").replace(
                "%1", escape_controls(name)
            )
            if name
            else self.tr("Select an app to choose the spaces it may use.")
        )

    def given_spaces(self) -> set[int | None]:
        """The spaces ticked for the selected app."""
        return {
            None if int(a.data()) < 0 else int(a.data())
            for a in self.spaces_menu.actions()
            if a.isChecked()
        }

    def _space_ticked(self) -> None:
        name = self.selected()
        if name is None:
            return
        try:
            self.registry.set_spaces(name, self.given_spaces())  # announced: the page follows
        except DesktopMemError as exc:
            self.snippet_label.setText(describe_exception(exc, str(exc)))

    def refresh(self) -> None:
        """The apps as the registry has them now (a level's box is kept where its app
        stays: the keyboard stays on it)."""
        apps = self.registry.all()
        names = self._space_names()
        self.table.setRowCount(len(apps))
        for row, a in enumerate(apps):
            name = QTableWidgetItem(escape_controls(a.name))
            name.setData(_NAME_ROLE, a.name)
            if a.label and a.label != a.name:
                name.setToolTip(self.tr("Connects as “%1”").replace("%1", escape_controls(a.label)))
            self.table.setItem(row, 0, name)
            combo = self.table.cellWidget(row, 1)
            if not isinstance(combo, QComboBox) or combo.property("app") != a.name:
                combo = QComboBox()
                combo.setProperty("app", a.name)
                for level in LEVELS:
                    combo.addItem(level_label(level), level)
                combo.currentIndexChanged.connect(
                    lambda _i, app=a.name, box=combo: self.registry.set_level(
                        app, box.currentData()
                    )
                )
                self.table.setCellWidget(row, 1, combo)
            combo.blockSignals(True)  # shown as it is: not set again
            combo.setCurrentIndex(combo.findData(a.level))
            combo.blockSignals(False)
            if not a.has_key:
                seen = self.tr("needs a new key")
            elif a.last_seen:
                seen = a.last_seen[:16].replace("T", " ")
            else:
                seen = self.tr("not yet")
            self.table.setItem(row, 2, QTableWidgetItem(seen))
            self.table.setItem(row, 3, QTableWidgetItem(f"{a.reads} / {a.writes}"))
            given = self._spaces_text(self.registry.spaces_of(a), names)
            spaces_item = QTableWidgetItem(given)
            spaces_item.setToolTip(given)
            self.table.setItem(row, 4, spaces_item)
        for column in (1, 2, 3, 4):
            self.table.resizeColumnToContents(column)
        self.empty.setVisible(not apps)
        self.table.setVisible(bool(apps))
        self.unregistered.blockSignals(True)
        self.unregistered.setCurrentIndex(
            max(0, self.unregistered.findData(self.registry.unregistered_level()))
        )
        self.unregistered.blockSignals(False)
        self._selection_changed()

    def selected(self) -> str | None:
        rows = self.table.selectionModel().selectedRows()
        item = self.table.item(rows[0].row(), 0) if rows else None
        return item.data(_NAME_ROLE) if item is not None else None

    def _selection_changed(self) -> None:
        chosen = self.selected() is not None
        for w in (self.renew, self.remove, self.clear):
            w.setEnabled(chosen)
        self._show_spaces(self._space_names())

    # -- connecting -------------------------------------------------------------------

    def connect_app(self, name: str | None = None) -> bool:
        """Register an app (asking its name) and show its configuration, key included."""
        if name is None:
            name, ok = QInputDialog.getText(
                self,
                self.tr("Connect an app"),
                self.tr("A name for the app (for you: the app is known by its key):"),
            )
            if not ok:
                return False
        try:
            app, key = self.registry.add(name)
        except DesktopMemError as exc:  # said beside the configuration, where the eye is
            self._show_snippet(None, None)
            self.snippet_label.setText(str(exc))
            return False
        self._show_snippet(app.name, key)
        return True

    def _confirm(self, title: str, text: str) -> bool:
        answer = QMessageBox.question(
            self,
            title,
            text,
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,  # a reflexive Enter keeps the key working
        )
        return answer == QMessageBox.StandardButton.Yes

    def renew_key(self, confirmed: bool = False) -> bool:
        name = self.selected()
        if name is None:
            return False
        if not confirmed and not self._confirm(
            self.tr("New key"),
            self.tr(
                "Give %1 a new key? Its old key stops working at once: paste the new "
                "configuration into the app."
            ).replace("%1", escape_controls(name)),
        ):
            return False
        app, key = self.registry.renew(name)
        self._show_snippet(app.name, key)
        return True

    def remove_app(self, confirmed: bool = False) -> bool:
        name = self.selected()
        if name is None:
            return False
        if not confirmed and not self._confirm(
            self.tr("Remove app"),
            self.tr(
                "Remove %1? Its key stops working at once and its log is deleted; the "
                "memories it wrote stay."
            ).replace("%1", escape_controls(name)),
        ):
            return False
        self.registry.remove(name)
        self._show_snippet(None, None)
        self.log.clear()
        return True

    def _show_snippet(self, name: str | None, key: str | None) -> None:
        if key is None or name is None:
            self.snippet_label.setText(
                self.tr("Connect an app to see the configuration to paste into it.")
            )
            self.snippet.setPlainText("")
            self.copy.setEnabled(False)
            return
        self.snippet_label.setText(
            self.tr(
                "Paste this into %1's MCP configuration. It holds the app's key: keep it as "
                "private as a password. It is shown only now (a new key can be made later)."
            ).replace("%1", escape_controls(name))
        )
        self.snippet.setPlainText(connect_snippet(key, self.home, self.profile))
        self.copy.setEnabled(True)

    # -- the log ------------------------------------------------------------------------

    def _show_log(self) -> None:
        self._selection_changed()
        name = self.selected()
        self.log.clear()
        if name is None:
            return
        for a in self.registry.recent(name, 50):
            what = tool_label(a.tool)
            target = self.tr(" memory %1").replace("%1", str(a.memory_id)) if a.memory_id else ""
            times = self.tr(" (%n time(s) that day)", "", a.times) if a.times > 1 else ""
            self.log.addItem(f"{a.at[:16].replace('T', ' ')} · {what}{target}{times}")
        if not self.log.count():
            self.log.addItem(self.tr("Nothing recorded."))
        self.log.addItem(
            self.tr(
                "The log keeps %n day(s); an app's calls of one kind on one memory in a day "
                "are one line.",
                "",
                RETENTION_DAYS,
            )
        )

    def _clear(self) -> None:
        name = self.selected()
        if name:
            self.registry.clear_log(name)
            self.log.clear()

    def _unregistered_changed(self) -> None:
        self.registry.set_unregistered_level(self.unregistered.currentData())


_NAME_ROLE = 0x0100 + 7  # Qt.UserRole + 7: the app's name as stored (the cell shows it escaped)

__all__ = ["AppsPage", "connect_snippet", "level_label", "tool_label"]
