"""Bringing another assistant's history in, in the window: the one import door (a file
or folder chosen, sent to the import that reads it: this app's memories files at once,
everything else looked at first), what the export holds said before anything is
written, the import in the background with progress, then the facts in it found in
the background by the chat model while the review (review_dialog.py) shows them as
they come, and the status bar's line while some wait ("3 facts found in your imported
conversations: Review"). Nothing found reaches a prompt before it is accepted."""

from __future__ import annotations

import html
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QCheckBox, QFileDialog, QLabel, QMainWindow, QMessageBox

from desktop_mem.core.errors import ExportRejected
from desktop_mem.ui import tasks
from desktop_mem.ui.context import Context
from desktop_mem.ui.errors import translated_ui
from desktop_mem.ui.review_dialog import ReviewDialog


class ImportController(QObject):
    reading_changed = Signal(bool)  # the chat model reads imported messages for facts, or not
    read_progress = Signal(int, int)  # messages read, of how many
    read_ended = Signal(object)  # what the pass did (Proposed), or the sentence it failed with

    def __init__(
        self, context: Context, import_memories: Callable[[str], None] | None = None
    ) -> None:
        super().__init__(context.view)
        self.ctx = context
        self.app = context.app
        self.import_memories = import_memories  # this app's own memories files
        self.box: QMessageBox | None = None
        self.review: ReviewDialog | None = None
        self.stop = threading.Event()
        self.reading = False
        self.found = QLabel()
        self.found.setObjectName("importFound")
        self.found.setTextFormat(Qt.TextFormat.RichText)
        self.found.linkActivated.connect(lambda _link: self.show_review())
        self.found.hide()
        if isinstance(context.view, QMainWindow):
            context.view.statusBar().addPermanentWidget(self.found)
        context.core.proposals_changed.connect(self.update_found)
        context.hub.import_requested.connect(self.choose)
        QTimer.singleShot(0, self.update_found)  # facts that wait from an earlier evening

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
        if s.about:
            lines.append(
                self.tr(
                    "%n fact(s) you told it about yourself: proposed for you to review",
                    "",
                    s.about,
                )
            )
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

    def rejected_text(self, exc: ExportRejected) -> str:
        """Why an export was refused, in the window's language: what the file is, or
        what is wrong with it, and what to choose instead."""
        if not translated_ui():
            return str(exc)  # the core's sentence, with every detail
        name = exc.file
        if exc.case == "not_export":
            what = {
                "pdf": self.tr("a PDF document"),
                "picture": self.tr("a picture"),
                "word": self.tr("a Word document"),
                "spreadsheet": self.tr("a spreadsheet"),
                "web_page": self.tr("a web page"),
                "zip": self.tr("a zip without a conversations.json in it"),
                "empty": self.tr("empty"),
                "binary": self.tr("not a text file"),
                "table": self.tr("a table (CSV)"),
                "memories_table": self.tr("a table of memories"),
                "other_json": self.tr("JSON of another kind"),
            }.get(exc.detail, self.tr("a file of another kind"))
            return (
                self.tr(
                    "%1 is %2, not an export this app reads: choose the zip that ChatGPT or "
                    "Claude sent you (or the conversations.json in it), or a memories file."
                )
                .replace("%1", name)
                .replace("%2", what)
            )
        words = {
            "password": self.tr(
                "%1 is locked with a password, so nothing was imported: download the export "
                "again from the service."
            ),
            "unsafe_zip": self.tr(
                "%1 is not a safe zip (it points outside itself, or unpacks to far more than "
                "it holds), so nothing was imported: download the export again."
            ),
            "no_conversations": self.tr(
                "%1 holds no conversations.json: choose the folder you unpacked the export "
                "into, or the export's zip."
            ),
            "no_memories": self.tr("%1 holds no memories: nothing was imported."),
        }
        return words.get(
            exc.case,
            self.tr(
                "%1 cannot be read whole, so nothing was imported from it: download the "
                "export again."
            ),
        ).replace("%1", name)

    # -- the door ----------------------------------------------------------------------

    def choose(self, path: str | None = None) -> None:
        """Import a file: chosen here when not given; this app's memories files go to
        the memory import, every other file or folder is looked at first."""
        if path is None:
            path, _ = QFileDialog.getOpenFileName(
                self.ctx.view, self.tr("Import"), self.ctx.file_folder(),
                self.tr(
                    "Exports and memories (*.zip *.json *.txt *.md *.markdown *.csv);;"
                    "All files (*)"
                ),
            )  # fmt: skip
            if not path:
                return
            self.ctx.remember_folder(path)
        if self.import_memories is not None and self.app.imports.door(Path(path)) == "memories":
            self.import_memories(path)
        else:
            self.import_history(path)

    # -- importing -----------------------------------------------------------------------

    def import_history(self, path: str | None = None) -> None:
        if path is None:
            self.choose()
            return
        chosen = Path(path)
        self.ctx.hub.work.emit(self.tr("Reading the export…"), 0, 0)
        tasks.run(
            self.app.imports.survey,
            chosen,
            done=lambda s: self.confirm(chosen, s),
            failed_with=self._failed,
        )

    def _failed(self, text: str, exc: BaseException | None = None) -> None:
        self.ctx.hub.work.emit(None, 0, 0)
        details = ""
        if isinstance(exc, ExportRejected):
            text = self.rejected_text(exc)
            details = exc.detail if exc.case == "unreadable" else ""
        box = QMessageBox(
            QMessageBox.Icon.Warning, self.tr("Nothing was imported"), text, parent=self.ctx.view
        )
        if details:
            box.setDetailedText(details)
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
        space = self.ctx.space.for_new()
        box.setInformativeText(
            self.tr(
                "Conversations become searchable history, dated as they were written. Facts "
                "about you found in them are proposed for you to review; none is used before "
                "you accept it."
            )
            + self.where_text(space, survey)
        )
        go = box.addButton(self.tr("Import"), QMessageBox.ButtonRole.AcceptRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(go)
        nothing = not (survey.conversations or survey.memories or survey.about)
        go.setEnabled(not nothing)

        def answered() -> None:
            if box.clickedButton() is go:
                self.run(path, survey, bool(use and use.isChecked()), space)

        box.finished.connect(answered)
        box.open()
        self.box = box

    def where_text(self, space: int | None, survey: Any) -> str:
        """Where the import puts things, once the profile has spaces: the space the
        window is in (where a new chat starts), a project's own space for a project."""
        spaces = {s.id: s.name for s in self.app.spaces.list()}
        if not spaces:
            return ""
        if space in spaces:
            where = self.tr("They go to %1, the space you are in.").replace("%1", spaces[space])
        else:
            where = self.tr("They go to the shared space.")
        if survey.spaces:
            where += "\n" + self.tr(
                "Each of its %n project(s) goes to a space of its own.", "", survey.spaces
            )
        return "\n\n" + where

    def run(self, path: Path, survey: Any, use_instructions: bool, space: int | None) -> None:
        self.stop.clear()
        total = survey.conversations + survey.already + survey.empty + survey.projects
        what = self.tr("Importing conversations…")

        def work(report: Any) -> Any:
            done = self.app.imports.run(
                path, progress=report, should_stop=self.stop.is_set, total=total,
                surveyed=survey, space=space,
            )  # fmt: skip
            if use_instructions and survey.instructions:
                self.app.imports.use_instructions(survey.instructions)
            return done

        tasks.run(
            work,
            done=self.imported,
            progress=lambda d, t: self.ctx.hub.work.emit(what, d, t),
            failed_with=self._failed,
        )

    def imported(self, result: Any) -> None:
        """The conversations are in: the review opens at once, and the chat model
        starts reading them for facts, which appear in it as they are found."""
        done, warnings = result
        self.ctx.hub.work.emit(None, 0, 0)
        msg = self.tr("Imported %n conversation(s)", "", done.conversations)
        msg += ", " + self.tr("%n message(s).", "", done.messages)
        if warnings:
            msg += " " + self.tr("They are found by their words until the model server answers.")
        self.ctx.hub.status.emit(msg, 15000)
        if done.proposed or done.to_read:
            self.show_review()
        if done.to_read:
            self.read()

    # -- finding facts in the background ---------------------------------------------------

    def read(self) -> None:
        """Read the imported messages for facts with the chat model, in the background;
        the review shows what is found as it is found."""
        if self.reading:
            return
        self.stop.clear()
        self.reading = True
        self.reading_changed.emit(True)
        what = self.tr("Finding facts in your imported messages…")

        def work(report: Any) -> Any:
            return self.app.imports.propose_facts(
                should_stop=self.stop.is_set, progress=report, wait=True
            )

        def progress(done: int, total: int) -> None:
            self.ctx.hub.work.emit(what, done, total)
            self.read_progress.emit(done, total)

        tasks.run(work, done=self._read_done, failed=self._read_done, progress=progress)

    def _read_done(self, result: Any) -> None:
        self.reading = False
        self.ctx.hub.work.emit(None, 0, 0)
        self.reading_changed.emit(False)
        self.read_ended.emit(result)

    def update_found(self) -> None:
        """The status bar's line while facts wait and the review is not open."""
        waiting = self.app.imports.counts()["waiting"]
        shown = bool(waiting) and not (self.review is not None and self.review.isVisible())
        if shown:
            self.found.setText(
                html.escape(
                    self.tr("%n fact(s) found in your imported conversations:", "", waiting)
                )
                + ' <a href="review">'
                + html.escape(self.tr("Review"))
                + "</a>"
            )
        self.found.setVisible(shown)

    def show_review(self) -> None:
        if self.review is None:
            self.review = ReviewDialog(self, self.ctx.view)
            self.review.finished.connect(lambda _r: self.update_found())
        self.review.show()  # read as it is shown (showEvent), then as it is announced
        self.review.raise_()
        self.update_found()
