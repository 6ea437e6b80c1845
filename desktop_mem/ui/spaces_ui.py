"""Settings > Spaces: the profile's spaces with what each holds; make one, rename it,
give it an instruction of its own, keep it apart from the shared space, and delete it
(its contents moved to the shared space or deleted for good, everywhere the profile
syncs). The page follows what the core announces (SpacesChanged, and the memories,
conversations and documents it counts): never a refresh by hand after an action."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop_mem.core.errors import DesktopMemError
from desktop_mem.core.memory.spaces import MAX_INSTRUCTION, MAX_NAME, Space
from desktop_mem.core.service.spaces import Emptied
from desktop_mem.ui import tasks
from desktop_mem.ui.context import Context
from desktop_mem.ui.spaces import shared_name
from desktop_mem.ui.sync_controller import deleted_elsewhere

SPACE_ROLE = Qt.ItemDataRole.UserRole + 9  # a row's space id (-1: the shared space)
SHARED_ROW = -1


def _said(exc: DesktopMemError) -> str:
    return tasks.describe_exception(exc, str(exc))


class SpaceDialog(QDialog):
    """A new space (its name, instruction and whether it is kept apart), or a space's
    new name. `save` is called with what was typed and returns a sentence when it was
    refused (a name taken, say): said in the dialog, which stays open."""

    def __init__(
        self,
        title: str,
        parent: QWidget | None = None,
        name: str = "",
        name_only: bool = False,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setMinimumWidth(420)
        layout = QVBoxLayout(self)
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        self.name = QLineEdit(name)
        self.name.setMaxLength(MAX_NAME)
        self.name.setPlaceholderText(self.tr("e.g. Work, Thesis, Client A"))
        form.addRow(self.tr("Name"), self.name)
        self.instruction = QPlainTextEdit()
        self.instruction.setTabChangesFocus(True)
        self.instruction.setPlaceholderText(
            self.tr("Optional: how answers in this space should be, e.g. “Answer as a "
                    "colleague; use our project's terms.”")
        )  # fmt: skip
        self.instruction.setMaximumHeight(90)
        self.apart = QCheckBox(self.tr("Kept apart: it neither reads nor adds to the shared space"))
        if not name_only:
            form.addRow(self.tr("Instruction"), self.instruction)
            form.addRow("", self.apart)
        else:
            self.instruction.hide()
            self.apart.hide()
        layout.addLayout(form)
        self.error = QLabel()
        self.error.setObjectName("status")
        self.error.setWordWrap(True)
        self.error.hide()
        layout.addWidget(self.error)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self._save)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.save = lambda _name, _instruction, _apart: ""  # set by the page
        self.name.textChanged.connect(lambda *_: self.error.hide())

    def _save(self) -> None:
        refused = self.save(
            self.name.text(), self.instruction.toPlainText(), self.apart.isChecked()
        )
        if refused:
            self.error.setText(refused)
            self.error.show()
            self.name.setFocus()
            self.name.selectAll()
            return
        self.accept()


class SpacesPage(QWidget):
    def __init__(self, context: Context, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = context
        self.spaces = context.app.spaces
        self._shown: list[Space] = []
        layout = QVBoxLayout(self)
        intro = QLabel(
            self.tr(
                "Spaces keep memory apart by project. A chat in a space is given that space's "
                "memories, documents and conversations, and the shared ones unless the space "
                "is kept apart; never another space's. What applies everywhere (who you are, "
                "your health) stays shared."
            )
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.table = QTableWidget(0, 5)
        self.table.setTabKeyNavigation(False)  # Tab moves on; the arrows move in the table
        self.table.setHorizontalHeaderLabels(
            [
                self.tr("Space"),
                self.tr("Memories"),
                self.tr("Conversations"),
                self.tr("Documents"),
                self.tr("Shared memories"),
            ]
        )
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in range(1, 5):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setMinimumHeight(110)
        self.table.itemSelectionChanged.connect(self._selection_changed)
        layout.addWidget(self.table, 1)
        row = QHBoxLayout()
        self.new_button = QPushButton(self.tr("New space…"))
        self.new_button.clicked.connect(lambda: self.new_space())
        self.rename_button = QPushButton(self.tr("Rename…"))
        self.rename_button.clicked.connect(lambda: self.rename_space())
        self.delete_button = QPushButton(self.tr("Delete…"))
        self.delete_button.setObjectName("danger")
        self.delete_button.clicked.connect(lambda: self.remove_space())
        for w in (self.new_button, self.rename_button, self.delete_button):
            row.addWidget(w)
        row.addStretch(1)
        layout.addLayout(row)
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        self.instruction = QPlainTextEdit()
        self.instruction.setTabChangesFocus(True)
        self.instruction.setMaximumHeight(72)
        self.instruction.setToolTip(
            self.tr("Given to the model in this space's chats, after your own instructions.")
        )
        self.instruction.textChanged.connect(self._instruction_typed)
        instruction_row = QVBoxLayout()
        instruction_row.addWidget(self.instruction)
        self.save_instruction = QPushButton(self.tr("Save the instruction"))
        self.save_instruction.clicked.connect(lambda: self.set_instruction())
        instruction_row.addWidget(self.save_instruction, 0, Qt.AlignmentFlag.AlignLeft)
        form.addRow(self.tr("Instruction"), instruction_row)
        self.apart = QCheckBox(self.tr("Kept apart: it neither reads nor adds to the shared space"))
        self.apart.setToolTip(
            self.tr("Its chats are not given the shared memories or the profile about you, "
                    "and what they teach stays in the space, even health facts.")
        )  # fmt: skip
        self.apart.clicked.connect(self.set_apart)
        form.addRow("", self.apart)
        layout.addLayout(form)
        self.error = QLabel()  # one sentence when something was refused
        self.error.setObjectName("status")
        self.error.setWordWrap(True)
        self.error.hide()
        layout.addWidget(self.error)
        self.refresh()
        core = context.core
        self._signals = (
            core.spaces_changed,
            core.memories_changed,
            core.conversations_changed,
            core.documents_changed,
        )
        for signal in self._signals:
            signal.connect(self.refresh)

    def stop(self) -> None:
        """Follow the spaces no more (Settings closed: the page is not shown again)."""
        for signal in self._signals:
            signal.disconnect(self.refresh)

    # -- the list -------------------------------------------------------------------------

    def refresh(self) -> None:
        """The spaces as they are now, the one selected kept selected."""
        chosen = self.selected_id()
        if self._select_later is not None:  # a space just made: selected once listed
            chosen, self._select_later = self._select_later, None
        spaces = self.spaces.list()
        self._shown = spaces
        counts = self.spaces.counts()
        documents: dict[int | None, int] = {}
        for d in self.ctx.app.documents.list():
            documents[d.space] = documents.get(d.space, 0) + 1
        rows: list[tuple[int, str, int | None, str]] = [(SHARED_ROW, shared_name(), None, "—")] + [
            (s.id, s.name, s.id, self.tr("kept apart") if s.apart else self.tr("seen"))
            for s in spaces
        ]
        self.table.blockSignals(True)
        self.table.setRowCount(len(rows))
        for r, (key, name, space, sees) in enumerate(rows):
            item = QTableWidgetItem(name)
            item.setData(SPACE_ROLE, key)
            if space is None:
                item.setToolTip(self.tr("What applies everywhere: every space that is not kept "
                                        "apart is given it"))  # fmt: skip
            self.table.setItem(r, 0, item)
            memories, conversations = counts.get(space, (0, 0))
            for column, value in ((1, memories), (2, conversations), (3, documents.get(space, 0))):
                cell = QTableWidgetItem(str(value))
                cell.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(r, column, cell)
            self.table.setItem(r, 4, QTableWidgetItem(sees))
        self.table.blockSignals(False)
        at = next((r for r, row in enumerate(rows) if row[0] == chosen), None)
        if at is not None:
            self.table.selectRow(at)
        else:
            self.table.clearSelection()
        self._selection_changed()

    def selected_id(self) -> int | None:
        """The space selected (None: none, or the shared space)."""
        rows = self.table.selectionModel().selectedRows()
        item = self.table.item(rows[0].row(), 0) if rows else None
        key = item.data(SPACE_ROLE) if item is not None else None
        return None if key in (None, SHARED_ROW) else int(key)

    def selected(self) -> Space | None:
        sid = self.selected_id()
        return next((s for s in self._shown if s.id == sid), None)

    def select(self, space_id: int) -> None:
        for r in range(self.table.rowCount()):
            item = self.table.item(r, 0)
            if item is not None and item.data(SPACE_ROLE) == space_id:
                self.table.selectRow(r)
                return

    def _selection_changed(self) -> None:
        space = self.selected()
        for w in (self.rename_button, self.delete_button, self.instruction, self.apart):
            w.setEnabled(space is not None)
        self.instruction.blockSignals(True)
        self.instruction.setPlainText(space.instruction if space else "")
        self.instruction.setPlaceholderText(
            self.tr("Optional: how answers in this space should be")
            if space
            else self.tr("Select a space to give it an instruction of its own")
        )
        self.instruction.blockSignals(False)
        self.apart.setChecked(bool(space and space.apart))
        self.save_instruction.setEnabled(False)

    def _instruction_typed(self) -> None:
        space = self.selected()
        typed = self.instruction.toPlainText()
        self.save_instruction.setEnabled(space is not None and typed.strip() != space.instruction)
        if len(typed) > MAX_INSTRUCTION:
            self._say(self.tr("An instruction is at most %1 characters.").replace(
                "%1", f"{MAX_INSTRUCTION:,}"))  # fmt: skip

    def _say(self, text: str) -> None:
        self.error.setText(text)
        self.error.setVisible(bool(text))

    # -- changes --------------------------------------------------------------------------

    def new_space(
        self, name: str | None = None, instruction: str = "", apart: bool = False
    ) -> bool:
        """Make a space (asking its name, instruction and choice when `name` is None)."""
        self._say("")
        made: list[Space] = []

        def save(name: str, instruction: str, apart: bool) -> str:
            try:
                made.append(self.spaces.create(name, instruction, apart))
            except DesktopMemError as exc:
                return _said(exc)
            return ""

        if name is not None:
            refused = save(name, instruction, apart)
            if refused:
                self._say(refused)
                return False
        else:
            dialog = SpaceDialog(self.tr("New space"), self)
            dialog.save = save
            if dialog.exec() != QDialog.DialogCode.Accepted:
                return False
        self._select_later = made[0].id
        self.ctx.hub.status.emit(
            self.tr("The space “%1” was made: choose it beside the conversations to chat "
                    "in it.").replace("%1", made[0].name),
            10000,
        )  # fmt: skip
        return True

    _select_later: int | None = None

    def rename_space(self, name: str | None = None) -> bool:
        space = self.selected()
        if space is None:
            return False
        self._say("")

        def save(new: str, _instruction: str, _apart: bool) -> str:
            try:
                self.spaces.change(space.id, name=new)
            except DesktopMemError as exc:
                return _said(exc)
            return ""

        if name is not None:
            refused = save(name, "", False)
            self._say(refused)
            return not refused
        dialog = SpaceDialog(self.tr("Rename the space"), self, name=space.name, name_only=True)
        dialog.save = save
        return dialog.exec() == QDialog.DialogCode.Accepted

    def set_instruction(self, text: str | None = None) -> bool:
        space = self.selected()
        if space is None:
            return False
        try:
            self.spaces.change(
                space.id, instruction=self.instruction.toPlainText() if text is None else text
            )
        except DesktopMemError as exc:
            self._say(_said(exc))
            return False
        self._say("")
        return True

    def set_apart(self, apart: bool) -> bool:
        space = self.selected()
        if space is None:
            return False
        try:
            self.spaces.change(space.id, apart=apart)
        except DesktopMemError as exc:
            self._say(_said(exc))
            self.apart.setChecked(space.apart)
            return False
        self._say("")
        return True

    def remove_space(self, contents: str | None = None) -> bool:
        """Delete the selected space; what it holds is moved to the shared space
        ("move") or deleted for good ("delete"); None asks which."""
        space = self.selected()
        if space is None:
            return False
        self._say("")
        if contents is None:
            contents = self._ask_contents(space)
            if contents is None:
                return False
        name = space.name

        def done(emptied: Emptied) -> None:
            self.ctx.hub.work.emit(None, 0, 0)
            said = (
                self.tr("The space “%1” was deleted; what it held is now shared.")
                if emptied.moved
                else self.tr("The space “%1” was deleted with everything it held.")
            )
            self.ctx.hub.status.emit(said.replace("%1", name), 10000)

        def failed(text: str) -> None:
            self.ctx.hub.work.emit(None, 0, 0)
            self._say(text)

        self.ctx.hub.work.emit(self.tr("Deleting the space…"), 0, 0)
        # deleting its contents rewrites the full-text indexes: off the GUI thread
        tasks.run(self.spaces.remove, space.id, contents, done=done, failed=failed)
        return True

    def _ask_contents(self, space: Space) -> str | None:
        """Move its contents to the shared space, delete them for good, or keep the
        space (None)."""
        memories, conversations = self.spaces.counts().get(space.id, (0, 0))
        documents = sum(1 for d in self.ctx.app.documents.list() if d.space == space.id)
        box = QMessageBox(self)
        box.setIcon(QMessageBox.Icon.Question)
        box.setWindowTitle(self.tr("Delete the space"))
        if not (memories or conversations or documents):
            box.setText(self.tr("Delete the space “%1”? It holds nothing.").replace(
                "%1", space.name))  # fmt: skip
            delete = box.addButton(self.tr("Delete the space"), QMessageBox.ButtonRole.AcceptRole)
            box.addButton(QMessageBox.StandardButton.Cancel)
            box.exec()
            return "move" if box.clickedButton() is delete else None
        held = [
            self.tr("%n memory(s)", "", memories),
            self.tr("%n conversation(s)", "", conversations),
            self.tr("%n document(s)", "", documents),
        ]
        box.setText(
            self.tr("Delete the space “%1”? It holds %2.")
            .replace("%1", space.name)
            .replace("%2", self.tr(", ").join(held))
        )
        info = self.tr(
            "Move them to the shared space, where every space that is not kept apart is given "
            "them, or delete them for good, with their history."
        )
        if elsewhere := deleted_elsewhere(self.ctx):
            info += ("" if info.endswith("。") else " ") + elsewhere
        box.setInformativeText(info)
        move = box.addButton(
            self.tr("Move them to the shared space"), QMessageBox.ButtonRole.AcceptRole
        )
        delete = box.addButton(
            self.tr("Delete them for good"), QMessageBox.ButtonRole.DestructiveRole
        )
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(move)  # a reflexive Enter keeps what it holds
        box.exec()
        if box.clickedButton() is move:
            return "move"
        if box.clickedButton() is delete:
            return "delete"
        return None
