"""Bringing another assistant's history in, in the window: choose the export, see what
it holds before anything is written, import it in the background with progress, and
review the facts found in it (accept all, reject all, or each: accept, edit, reject),
grouped by kind. Nothing found reaches a prompt before it is accepted."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop_mem.ui import tasks
from desktop_mem.ui.context import Context

ID_ROLE = Qt.ItemDataRole.UserRole + 1


class ImportController(QObject):
    def __init__(self, context: Context) -> None:
        super().__init__(context.view)
        self.ctx = context
        self.app = context.app
        self.box: QMessageBox | None = None
        self.review: ReviewDialog | None = None
        self.stop = threading.Event()

    # -- words -------------------------------------------------------------------------

    def kind_name(self, kind: str) -> str:
        return {
            "fact": self.tr("Facts"),
            "preference": self.tr("Preferences"),
            "event": self.tr("Events"),
            "plan": self.tr("Plans"),
            "person": self.tr("People"),
            "note": self.tr("Notes"),
        }.get(kind, kind)

    def origin_name(self, origin: str) -> str:
        return {
            "chatgpt": "ChatGPT",
            "claude": "Claude",
            "mem0": "mem0",
            "openmemory": "OpenMemory",
            "pasted": self.tr("a pasted list"),
        }.get(origin, origin)

    def source_text(self, origin: str, said_at: str | None) -> str:
        name = self.origin_name(origin)
        if said_at:
            return self.tr("from %1, %2").replace("%1", name).replace("%2", said_at[:10])
        return self.tr("from %1").replace("%1", name)

    def found_text(self, s: Any) -> str:
        """What the file holds, in sentences, before anything is written."""
        lines = [self.tr("This file is from %1.").replace("%1", self.origin_name(s.kind))]
        if s.conversations:
            line = self.tr("%n new conversation(s)", "", s.conversations)
            line += ", " + self.tr("%n message(s)", "", s.messages)
            if s.first and s.last:
                line += " " + self.tr("(%1 to %2)").replace("%1", s.first[:10]).replace(
                    "%2", s.last[:10]
                )
            lines.append(line)
        if s.already:
            lines.append(
                self.tr("%n conversation(s) imported before: not added again", "", s.already)
            )
        if s.empty:
            lines.append(self.tr("%n empty conversation(s): left out", "", s.empty))
        if s.memories:
            lines.append(self.tr("%n saved memory(s): proposed for you to review", "", s.memories))
        if s.projects:
            lines.append(
                self.tr(
                    "%n project(s): instructions proposed for review, documents kept with "
                    "your conversations",
                    "",
                    s.projects,
                )
            )
        if s.skipped:
            lines.append(
                self.tr("%n entry(s) in a form this app does not know: skipped", "", s.skipped)
            )
        if len(lines) == 1:
            lines.append(self.tr("Nothing new to import."))
        return "\n".join(lines)

    # -- importing -----------------------------------------------------------------------

    def import_history(self, path: str | None = None) -> None:
        if path is None:
            path, _ = QFileDialog.getOpenFileName(
                self.ctx.view, self.tr("Import from ChatGPT, Claude or another assistant"),
                self.ctx.file_folder(),
                self.tr("Exports (*.zip *.json *.txt);;All files (*)"),
            )  # fmt: skip
            if not path:
                return
            self.ctx.remember_folder(path)
        chosen = Path(path)
        self.ctx.hub.work.emit(self.tr("Reading the export…"), 0, 0)
        tasks.run(
            self.app.imports.survey,
            chosen,
            done=lambda s: self.confirm(chosen, s),
            failed=self._failed,
        )

    def _failed(self, text: str) -> None:
        self.ctx.hub.work.emit(None, 0, 0)
        box = QMessageBox(
            QMessageBox.Icon.Warning, self.tr("Nothing was imported"), text, parent=self.ctx.view
        )
        box.open()
        self.box = box

    def confirm(self, path: Path, survey: Any) -> None:
        """Say what the file holds; import only when the user says so."""
        self.ctx.hub.work.emit(None, 0, 0)
        box = QMessageBox(
            QMessageBox.Icon.Question,
            self.tr("Import"),
            self.found_text(survey),
            parent=self.ctx.view,
        )
        use = None
        if survey.instructions:
            use = QCheckBox(self.tr("Use its custom instructions in this profile"))
            box.setCheckBox(use)
        box.setInformativeText(
            self.tr(
                "Conversations become searchable history, dated as they were written. Facts "
                "about you found in them are proposed for you to review; none is used before "
                "you accept it."
            )
        )
        go = box.addButton(self.tr("Import"), QMessageBox.ButtonRole.AcceptRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(go)
        nothing = not (survey.conversations or survey.memories)
        go.setEnabled(not nothing)

        def answered() -> None:
            if box.clickedButton() is go:
                self.run(path, survey, bool(use and use.isChecked()))

        box.finished.connect(answered)
        box.open()
        self.box = box

    def run(self, path: Path, survey: Any, use_instructions: bool) -> None:
        self.stop.clear()
        total = survey.conversations + survey.already + survey.empty + survey.projects
        what = self.tr("Importing conversations…")

        def work(report: Any) -> Any:
            done = self.app.imports.run(
                path, progress=report, should_stop=self.stop.is_set, total=total
            )
            if use_instructions and survey.instructions:
                self.app.imports.use_instructions(survey.instructions)
            return done

        tasks.run(
            work,
            done=self.imported,
            progress=lambda d, t: self.ctx.hub.work.emit(what, d, t),
            failed=self._failed,
        )

    def imported(self, result: Any) -> None:
        done, warnings = result
        self.ctx.hub.work.emit(None, 0, 0)
        self.ctx.hub.conversations_changed.emit()
        msg = self.tr("Imported %n conversation(s)", "", done.conversations)
        msg += ", " + self.tr("%n message(s).", "", done.messages)
        if warnings:
            msg += " " + self.tr("They are found by their words until the model server answers.")
        self.ctx.hub.status.emit(msg, 15000)
        if done.proposed or done.to_read:
            self.show_review()

    def show_review(self) -> None:
        if self.review is None:
            self.review = ReviewDialog(self, self.ctx.view)
        self.review.refresh()
        self.review.show()
        self.review.raise_()


class ReviewDialog(QDialog):
    """The facts found in imported history: each ticked one is accepted or rejected; one
    can be edited before it is accepted; those the profile already holds are marked."""

    def __init__(self, controller: ImportController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.app = controller.app
        self.setWindowTitle(self.tr("Review imported memories"))
        self.resize(720, 520)
        layout = QVBoxLayout(self)
        self.heading = QLabel()
        self.heading.setWordWrap(True)
        layout.addWidget(self.heading)
        self.items = QListWidget()
        self.items.setWordWrap(True)
        self.items.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.items.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.items.itemDoubleClicked.connect(lambda _: self.edit())
        layout.addWidget(self.items, 1)
        self.reading = QLabel()
        self.reading.setWordWrap(True)
        row = QHBoxLayout()
        row.addWidget(self.reading, 1)
        self.read_button = QPushButton(self.tr("Find facts in my messages"))
        self.read_button.clicked.connect(self.read)
        self.stop_button = QPushButton(self.tr("Stop"))
        self.stop_button.clicked.connect(self.controller.stop.set)
        self.stop_button.hide()
        row.addWidget(self.read_button)
        row.addWidget(self.stop_button)
        layout.addLayout(row)
        buttons = QHBoxLayout()
        self.accept_button = QPushButton(self.tr("Accept ticked"))
        self.edit_button = QPushButton(self.tr("Edit and accept…"))
        self.reject_button = QPushButton(self.tr("Reject ticked"))
        self.accept_all = QPushButton(self.tr("Accept all"))
        self.reject_all = QPushButton(self.tr("Reject all"))
        self.accept_button.clicked.connect(lambda: self.decide(True, self.ticked()))
        self.reject_button.clicked.connect(lambda: self.decide(False, self.ticked()))
        self.accept_all.clicked.connect(lambda: self.decide(True, None))
        self.reject_all.clicked.connect(lambda: self.decide(False, None))
        self.edit_button.clicked.connect(self.edit)
        for b in (self.accept_button, self.edit_button, self.reject_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        buttons.addWidget(self.accept_all)
        buttons.addWidget(self.reject_all)
        layout.addLayout(buttons)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        layout.addWidget(close)
        self.proposals: list[Any] = []

    def refresh(self) -> None:
        self.proposals = self.app.imports.proposals()
        self.items.clear()
        kind = None
        for p in self.proposals:
            if p.kind != kind:
                kind = p.kind
                header = QListWidgetItem(self.controller.kind_name(kind))
                header.setFlags(Qt.ItemFlag.ItemIsEnabled)
                font = header.font()
                font.setBold(True)
                header.setFont(font)
                self.items.addItem(header)
            text = f"{p.text}    ({self.controller.source_text(p.origin, p.said_at)})"
            if p.duplicate_of:
                text += "  " + self.tr("already a memory")
            if p.replaces:
                text += "  " + self.tr("replaces: %1 (%2)").replace(
                    "%1", p.replaces["text"]
                ).replace("%2", p.replaces["date"])
            if p.replaced_by:
                text += "  " + self.tr("replaced by: %1 (%2), kept as past").replace(
                    "%1", p.replaced_by["text"]
                ).replace("%2", p.replaced_by["date"])
            item = QListWidgetItem(text)
            item.setFlags(
                Qt.ItemFlag.ItemIsEnabled
                | Qt.ItemFlag.ItemIsUserCheckable
                | Qt.ItemFlag.ItemIsSelectable
            )
            item.setCheckState(Qt.CheckState.Unchecked if p.duplicate_of else Qt.CheckState.Checked)
            item.setData(ID_ROLE, p.id)
            self.items.addItem(item)
        n = len(self.proposals)
        origins = {p.origin for p in self.proposals}
        found = (
            self.tr("%n fact(s) about you found in your %1 history.", "", n).replace(
                "%1", self.controller.origin_name(origins.pop())
            )
            if len(origins) == 1 and origins <= {"chatgpt", "claude"}
            else self.tr("%n fact(s) about you found in your imported history.", "", n)
        )
        self.heading.setText(
            found + " " + self.tr("None is used until you accept it.")
            if n
            else self.tr("No facts wait for review.")
        )
        left = self.app.imports.to_read()
        self.reading.setText(
            self.tr("%n of your imported message(s) not yet read for facts.", "", left)
            if left
            else ""
        )
        self.read_button.setVisible(bool(left))
        for b in (self.accept_button, self.edit_button, self.reject_button,
                  self.accept_all, self.reject_all):  # fmt: skip
            b.setEnabled(bool(n))

    def ticked(self) -> list[int]:
        out = []
        for i in range(self.items.count()):
            item = self.items.item(i)
            if item.data(ID_ROLE) is not None and item.checkState() == Qt.CheckState.Checked:
                out.append(int(item.data(ID_ROLE)))
        return out

    def decide(self, accept: bool, ids: list[int] | None) -> None:
        if ids == []:
            return
        if accept:
            made = self.app.imports.accept(ids)
            self.controller.ctx.hub.memories_changed.emit(None)
            self.controller.ctx.hub.status.emit(
                self.tr("Accepted: %n new memory(s).", "", len(made)), 10000
            )
        else:
            n = self.app.imports.reject(ids)
            self.controller.ctx.hub.status.emit(self.tr("Rejected %n fact(s).", "", n), 10000)
        self.refresh()

    def edit(self) -> None:
        item = self.items.currentItem()
        if item is None or item.data(ID_ROLE) is None:
            return
        pid = int(item.data(ID_ROLE))
        current = next(p.text for p in self.proposals if p.id == pid)
        text, ok = QInputDialog.getText(
            self, self.tr("Edit and accept"), self.tr("Memory:"), text=current
        )
        if ok and text.strip():
            self.app.imports.accept([pid], text=text)
            self.controller.ctx.hub.memories_changed.emit(None)
            self.refresh()

    def read(self) -> None:
        """Read imported messages for facts with the chat model, in the background."""
        self.controller.stop.clear()
        self.read_button.hide()
        self.stop_button.show()
        hub = self.controller.ctx.hub
        what = self.tr("Finding facts in your imported messages…")

        def work(report: Any) -> Any:
            return self.app.imports.propose_facts(
                should_stop=self.controller.stop.is_set, progress=report
            )

        tasks.run(
            work,
            done=self.read_done,
            failed=self.read_failed,
            progress=lambda d, t: hub.work.emit(what, d, t),
        )

    def _reading_ended(self) -> None:
        self.controller.ctx.hub.work.emit(None, 0, 0)
        self.stop_button.hide()
        self.refresh()

    def read_done(self, done: Any) -> None:
        self._reading_ended()
        if done.failed:
            self.reading.setText(
                self.tr(
                    "The model server stopped answering, so reading paused; nothing was "
                    "lost. Try again once it answers."
                )
            )

    def read_failed(self, text: str) -> None:
        self._reading_ended()
        self.reading.setText(text)
