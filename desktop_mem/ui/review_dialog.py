"""The review of facts found in imported history: the list grows as the chat model finds
them (a live count, the reading's progress, Stop), grouped by kind, each ticked one
accepted or rejected (each saying the space accepting it adds it to, once the profile
has spaces), one edited in a roomy editor before it is accepted; Reject all
asks first, and a rejection can be undone. Those the profile already holds are marked
and left unticked. While it is open the list follows what the import announces
(ProposalsChanged), whoever decided: never a refresh by hand after an action."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

if TYPE_CHECKING:
    from desktop_mem.core.service import Service
    from desktop_mem.core.service.imports import Proposal, Proposed
    from desktop_mem.ui.import_dialog import ImportController

ID_ROLE = Qt.ItemDataRole.UserRole + 1


class RejectCommand:
    """Rejecting proposals, and its undo: they wait again with their text, which a
    rejection removes from the database (so the undo keeps it, in the window only)."""

    def __init__(self, app: Service, proposals: list[Proposal]) -> None:
        self.app, self.proposals = app, proposals

    def do(self) -> int:
        return int(self.app.imports.reject([p.id for p in self.proposals]))

    def undo(self) -> int:
        return int(self.app.imports.restore(self.proposals))


class EditFactDialog(QDialog):
    """A fact's text, editable over several lines, then accepted as a memory."""

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Edit and accept"))
        layout = QVBoxLayout(self)
        label = QLabel(self.tr("The memory, as it should be kept:"))
        layout.addWidget(label)
        self.editor = QPlainTextEdit(text)
        self.editor.setTabChangesFocus(True)
        label.setBuddy(self.editor)
        layout.addWidget(self.editor, 1)
        buttons = QDialogButtonBox()
        self.accept_button = buttons.addButton(
            self.tr("Accept"), QDialogButtonBox.ButtonRole.AcceptRole
        )
        buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.editor.textChanged.connect(
            lambda: self.accept_button.setEnabled(len(self.text()) >= 2)
        )
        self.resize(560, 240)

    def text(self) -> str:
        return self.editor.toPlainText().strip()


class ReviewDialog(QDialog):
    """The facts found in imported history, as they are found."""

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
        row = QHBoxLayout()
        self.reading = QLabel()
        self.reading.setWordWrap(True)
        row.addWidget(self.reading, 1)
        self.progress = QProgressBar()
        self.progress.setTextVisible(False)
        self.progress.setMaximumWidth(180)
        self.progress.hide()
        row.addWidget(self.progress)
        self.read_button = QPushButton(self.tr("Find facts in my messages"))
        self.read_button.clicked.connect(controller.read)
        self.stop_button = QPushButton(self.tr("Stop"))
        self.stop_button.clicked.connect(controller.stop.set)
        self.stop_button.hide()
        row.addWidget(self.read_button)
        row.addWidget(self.stop_button)
        layout.addLayout(row)
        self.items = QListWidget()
        self.items.setWordWrap(True)
        self.items.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.items.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.items.itemDoubleClicked.connect(lambda _: self.edit())
        layout.addWidget(self.items, 1)
        self.undo_line = QLabel()
        self.undo_line.setTextFormat(Qt.TextFormat.RichText)
        self.undo_line.linkActivated.connect(lambda _link: self.undo())
        self.undo_line.hide()
        layout.addWidget(self.undo_line)
        buttons = QHBoxLayout()
        self.accept_button = QPushButton(self.tr("Accept ticked"))
        self.edit_button = QPushButton(self.tr("Edit and accept…"))
        self.reject_button = QPushButton(self.tr("Reject ticked"))
        self.accept_all = QPushButton(self.tr("Accept all"))
        self.reject_all = QPushButton(self.tr("Reject all…"))
        self.accept_button.clicked.connect(lambda: self.decide(True, self.ticked()))
        self.reject_button.clicked.connect(lambda: self.decide(False, self.ticked()))
        self.accept_all.clicked.connect(lambda: self.decide(True, None))
        self.reject_all.clicked.connect(self.ask_reject_all)
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
        self.proposals: list[Proposal] = []
        self.space_names: dict[int, str] = {}  # the profile's spaces, by id
        self.read_total = 0
        self.read_done = 0
        self.last_reject: RejectCommand | None = None
        self.confirm: QMessageBox | None = None
        self.editor: EditFactDialog | None = None
        self.paused = ""  # why reading stopped, when it did on a failure
        controller.ctx.core.proposals_changed.connect(self._changed)
        controller.reading_changed.connect(self._reading_changed)
        controller.read_progress.connect(self._read_progress)
        controller.read_ended.connect(self._read_ended)
        self.finished.connect(lambda _r: self._set_undo(None))  # undo lasts while it is open

    # -- the list, kept as the user left it while it grows ----------------------------------

    def _changed(self) -> None:
        if self.isVisible():  # a hidden one is read again when it is shown
            self.refresh()

    def refresh(self) -> None:
        states = {}
        for i in range(self.items.count()):
            item = self.items.item(i)
            if item.data(ID_ROLE) is not None:
                states[int(item.data(ID_ROLE))] = item.checkState()
        current = self.items.currentItem()
        current_id = current.data(ID_ROLE) if current is not None else None
        scrolled = self.items.verticalScrollBar().value()
        self.proposals = self.app.imports.proposals()
        self.space_names = {sp.id: sp.name for sp in self.app.spaces.list()}
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
            item = QListWidgetItem(self._line(p))
            item.setFlags(
                Qt.ItemFlag.ItemIsEnabled
                | Qt.ItemFlag.ItemIsUserCheckable
                | Qt.ItemFlag.ItemIsSelectable
            )
            default = Qt.CheckState.Unchecked if p.duplicate_of else Qt.CheckState.Checked
            item.setCheckState(states.get(p.id, default))
            item.setData(ID_ROLE, p.id)
            self.items.addItem(item)
            if p.id == current_id:
                self.items.setCurrentItem(item)
        self.items.verticalScrollBar().setValue(scrolled)
        self._words()

    def _line(self, p: Proposal) -> str:
        text = f"{p.text}    ({self.controller.source_text(p.origin, p.said_at)})"
        if p.duplicate_of:
            text += "  " + self.tr("already a memory")
        if self.space_names:  # where accepting it adds it, once the profile has spaces
            name = self.space_names.get(p.space) if p.space is not None else None
            text += "  " + (
                self.tr("for the space %1").replace("%1", name)
                if name is not None
                else self.tr("for the shared space")
            )
        if p.replaces:
            text += "  " + self.tr("replaces: %1 (%2)").replace("%1", p.replaces["text"]).replace(
                "%2", p.replaces["date"]
            )
        if p.replaced_by:
            text += "  " + self.tr("replaced by: %1 (%2), kept as past").replace(
                "%1", p.replaced_by["text"]
            ).replace("%2", p.replaced_by["date"])
        return text

    def _words(self) -> None:
        n = len(self.proposals)
        reading = self.controller.reading
        origins = {p.origin for p in self.proposals}
        named = len(origins) == 1 and origins <= {"chatgpt", "claude"}
        where = self.controller.origin_name(next(iter(origins))) if named else ""
        if n and reading:
            found = (
                self.tr("%n fact(s) about you found so far in your %1 history.", "", n)
                if named
                else self.tr("%n fact(s) about you found so far in your imported history.", "", n)
            )
        elif n:
            found = (
                self.tr("%n fact(s) about you found in your %1 history.", "", n)
                if named
                else self.tr("%n fact(s) about you found in your imported history.", "", n)
            )
        elif reading:
            found = self.tr(
                "Reading your imported messages for facts about you: each appears here as it "
                "is found."
            )
        else:
            found = self.tr("No facts wait for review.")
        if n:  # two sentences: a space between them in English, none in Chinese
            found = (
                self.tr("%1 %2")
                .replace("%1", found.replace("%1", where))
                .replace("%2", self.tr("None is used until you accept it."))
            )
        self.heading.setText(found)
        left = self.app.imports.to_read()
        if reading:
            total = max(self.read_total, self.read_done)
            self.reading.setText(
                self.tr("Read %1 of %n message(s).", "", total).replace("%1", f"{self.read_done:,}")
                if total
                else self.tr("Reading…")
            )
        elif self.paused:
            self.reading.setText(self.paused)
        else:
            self.reading.setText(
                self.tr("%n of your imported message(s) not yet read for facts.", "", left)
                if left
                else ""
            )
        self.reading.setVisible(bool(self.reading.text()))  # no empty line above the list
        self.progress.setVisible(reading)
        self.progress.setRange(0, max(self.read_total, 1) if self.read_total else 0)
        self.progress.setValue(self.read_done)
        self.stop_button.setVisible(reading)
        self.read_button.setVisible(bool(left) and not reading)
        for b in (self.accept_button, self.edit_button, self.reject_button,
                  self.accept_all, self.reject_all):  # fmt: skip
            b.setEnabled(bool(n))

    # -- the background reading, as the controller reports it --------------------------------

    def _reading_changed(self, reading: bool) -> None:
        if reading:
            self.read_total = self.read_done = 0
            self.paused = ""
        self._words()

    def _read_progress(self, done: int, total: int) -> None:
        self.read_done, self.read_total = done, total
        self._words()

    def _read_ended(self, result: Proposed | str) -> None:
        if isinstance(result, str):  # it failed: the sentence says why
            self.paused = result
        elif result.failed:
            self.paused = self.tr(
                "The model server stopped answering, so reading paused; nothing was lost. "
                "Try again once it answers."
            )
        self._words()  # what it found was announced as it was found

    # -- deciding -------------------------------------------------------------------------

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
        hub = self.controller.ctx.hub
        if accept:
            made = self.app.imports.accept(ids)
            hub.status.emit(self.tr("Accepted: %n new memory(s).", "", len(made)), 10000)
            self._set_undo(None)
        else:
            chosen = [p for p in self.proposals if ids is None or p.id in ids]
            command = RejectCommand(self.app, chosen)
            n = command.do()
            self._set_undo(command, n)

    def ask_reject_all(self) -> None:
        """Reject every fact listed, once the user says so."""
        n = len(self.proposals)
        if not n:
            return
        box = QMessageBox(
            QMessageBox.Icon.Question,
            self.tr("Reject all"),
            self.tr("Reject all %n fact(s) found in your imported history?", "", n),
            parent=self,
        )
        box.setInformativeText(
            self.tr("They will not be proposed again. You can undo this while this window is open.")
        )
        go = box.addButton(self.tr("Reject all"), QMessageBox.ButtonRole.DestructiveRole)
        cancel = box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(cancel)
        listed = [p.id for p in self.proposals]

        def answered() -> None:
            if box.clickedButton() is go:
                self.decide(False, listed)

        box.finished.connect(answered)
        box.open()
        self.confirm = box

    def _set_undo(self, command: RejectCommand | None, n: int = 0) -> None:
        self.last_reject = command
        if command is None:
            self.undo_line.hide()
            return
        self.undo_line.setText(
            self.tr("Rejected %n fact(s).", "", n) + ' <a href="undo">' + self.tr("Undo") + "</a>"
        )
        self.undo_line.show()

    def undo(self) -> None:
        if self.last_reject is None:
            return
        n = self.last_reject.undo()
        self._set_undo(None)
        self.controller.ctx.hub.status.emit(
            self.tr("%n fact(s) wait for review again.", "", n), 10000
        )

    def edit(self) -> None:
        item = self.items.currentItem()
        if item is None or item.data(ID_ROLE) is None:
            return
        pid = int(item.data(ID_ROLE))
        current = next(p.text for p in self.proposals if p.id == pid)
        dialog = EditFactDialog(current, self)

        def accepted() -> None:
            self.app.imports.accept([pid], text=dialog.text())
            self._set_undo(None)

        dialog.accepted.connect(accepted)
        dialog.open()
        self.editor = dialog

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.refresh()
