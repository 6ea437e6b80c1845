"""Owns Settings > Apps: the AI apps that used this memory over MCP, what each may do,
what each read or wrote, and how to connect one (the configuration to paste)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QPlainTextEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop_mem.core.clients import LEVELS, ClientRegistry


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


def connect_snippet(profile: str) -> str:
    """The MCP configuration for this installation and profile."""
    beside = Path(sys.executable).with_name("desktop-mem")  # this installation's own
    command = str(beside) if beside.exists() else shutil.which("desktop-mem")
    args = ["mcp"] if profile == "default" else ["--profile", profile, "mcp"]
    if command is None:  # run from a checkout: the interpreter and the module
        command, args = sys.executable, ["-m", "desktop_mem", *args]
    quoted = ", ".join(f'"{a}"' for a in args)
    return (
        '{ "mcpServers": { "desktop-mem": {\n'
        f'    "command": "{command}",\n'
        f'    "args": [{quoted}] }} }} }}'
    )


class AppsPage(QWidget):
    def __init__(self, db: Any, profile: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.registry = ClientRegistry(db)
        layout = QVBoxLayout(self)
        intro = QLabel(
            self.tr(
                "AI apps on this computer (Claude Desktop, Cursor, VS Code, LM Studio…) can use "
                "your memory over MCP. Each may only do what you choose here; a change applies "
                "at once."
            )
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.table = QTableWidget(0, 4)
        self.table.setHorizontalHeaderLabels(
            [self.tr("App"), self.tr("May"), self.tr("Last use"), self.tr("Reads / writes")]
        )
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.itemSelectionChanged.connect(self._show_log)
        self.table.setMinimumHeight(120)  # three apps at least, at 800x600 too
        layout.addWidget(self.table, 1)
        self.empty = QLabel(self.tr("No app has connected yet."))
        self.empty.setObjectName("notice")
        layout.addWidget(self.empty)
        row = QHBoxLayout()
        row.addWidget(QLabel(self.tr("A new app may")))
        self.default = QComboBox()
        for level in LEVELS:
            self.default.addItem(level_label(level), level)
        self.default.setCurrentIndex(max(0, self.default.findData(self.registry.default_level())))
        self.default.currentIndexChanged.connect(self._default_changed)
        row.addWidget(self.default)
        row.addStretch(1)
        self.clear = QPushButton(self.tr("Clear this app's log"))
        self.clear.setEnabled(False)
        self.clear.clicked.connect(self._clear)
        row.addWidget(self.clear)
        layout.addLayout(row)
        self.log = QListWidget()
        self.log.setMaximumHeight(72)
        layout.addWidget(self.log)
        layout.addWidget(QLabel(self.tr("Connect an app: paste this into its MCP configuration")))
        self.snippet = QPlainTextEdit(connect_snippet(profile))
        self.snippet.setReadOnly(True)
        self.snippet.setMaximumHeight(64)
        layout.addWidget(self.snippet)
        copy_row = QHBoxLayout()
        self.copy = QPushButton(self.tr("Copy"))
        self.copy.clicked.connect(
            lambda: QGuiApplication.clipboard().setText(self.snippet.toPlainText())
        )
        copy_row.addWidget(self.copy)
        copy_row.addStretch(1)
        layout.addLayout(copy_row)
        self.refresh()

    def refresh(self) -> None:
        clients = self.registry.all()
        self.table.setRowCount(len(clients))
        for row, c in enumerate(clients):
            self.table.setItem(row, 0, QTableWidgetItem(c.name))
            combo = QComboBox()
            for level in LEVELS:
                combo.addItem(level_label(level), level)
            combo.setCurrentIndex(combo.findData(c.level))
            combo.currentIndexChanged.connect(
                lambda _i, name=c.name, box=combo: self.registry.set_level(name, box.currentData())
            )
            self.table.setCellWidget(row, 1, combo)
            self.table.setItem(row, 2, QTableWidgetItem(c.last_seen[:16].replace("T", " ")))
            self.table.setItem(row, 3, QTableWidgetItem(f"{c.reads} / {c.writes}"))
        for column in (1, 2, 3):
            self.table.resizeColumnToContents(column)
        self.empty.setVisible(not clients)

    def selected(self) -> str | None:
        rows = self.table.selectionModel().selectedRows()
        return self.table.item(rows[0].row(), 0).text() if rows else None

    def _show_log(self) -> None:
        name = self.selected()
        self.clear.setEnabled(name is not None)
        self.log.clear()
        if name is None:
            return
        for a in self.registry.recent(name, 50):
            what = tool_label(a.tool)
            target = self.tr(" memory %1").replace("%1", str(a.memory_id)) if a.memory_id else ""
            self.log.addItem(f"{a.at[:16].replace('T', ' ')} · {what}{target}")
        if not self.log.count():
            self.log.addItem(self.tr("Nothing recorded."))

    def _clear(self) -> None:
        name = self.selected()
        if name:
            self.registry.clear_log(name)
            self.refresh()
            self.log.clear()

    def _default_changed(self) -> None:
        from desktop_mem.core.settings import Settings

        Settings(self.registry.db).set("mcp_default_level", self.default.currentData())


__all__ = ["AppsPage", "connect_snippet", "level_label", "tool_label"]
