"""Importing another assistant's history: look at a file before writing, import its
conversations into the recall tier (each once), read them for facts in the background,
and the review of what was found (accept, edit, reject; nothing is in a prompt before
it is accepted). See core/chat/importing.py and core/chat/proposals.py."""

from __future__ import annotations

import builtins
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from desktop_mem.core.chat.importing import Imported, Importer, Proposed, Survey, since_date
from desktop_mem.core.chat.proposals import Proposal
from desktop_mem.core.errors import ModelServerError
from desktop_mem.core.events import IMPORT, acting

if TYPE_CHECKING:
    from desktop_mem.core.service import Service

Progress = Callable[[int, int], None]


class Imports:
    def __init__(self, service: Service) -> None:
        self.service = service
        prof = service.profile
        self.importer = Importer(prof.db, prof.conversations, prof.proposals, prof.spaces)
        self.proposal_store = prof.proposals  # the facts found, for the review

    def door(self, path: Path) -> str:
        """Which import takes the file the user chose: 'memories' (this app's memories
        export: JSON, CSV, Markdown, imported as memories at once) or 'history' (every
        other file or folder: another assistant's export, a pasted list; what it holds
        is said before anything is written, and its facts are reviewed)."""
        from desktop_mem.core.memory.memories_file import is_memories_file

        return "memories" if is_memories_file(Path(path)) else "history"

    def survey(self, path: Path, since: str | None = None) -> Survey:
        """What the file holds and what importing it would add; writes nothing. Raises
        ImportRejected (one sentence) for a file it cannot import."""
        return self.importer.survey(Path(path), since_date(since))

    def run(
        self,
        path: Path,
        propose: bool = True,
        since: str | None = None,
        progress: Progress | None = None,
        index_progress: Progress | None = None,
        should_stop: Callable[[], bool] | None = None,
        total: int | None = None,
        facts_since: str | None = None,
        surveyed: Survey | None = None,
        space: int | None = None,
    ) -> tuple[Imported, builtins.list[str]]:
        """Import the file's conversations (those already here are not added again) and
        propose its memories; then embed the new messages for search. With `propose`,
        the conversations' user messages wait to be read for facts (`propose_facts`;
        only those since `facts_since`, "only the last year").
        A file that cannot be read whole is refused (ImportRejected) before anything is
        written; `surveyed`, the survey of these very files, spares reading them twice.
        `space`: where what is in no project of the export goes (None: the shared space;
        a project gets a space of its own all the same).
        Returns what was imported and warnings (the model server away: the messages are
        found by their words now, and embedded later)."""
        with acting(IMPORT):  # what it writes is announced as the import's
            done = self.importer.run(
                Path(path), propose, since_date(since), progress, should_stop, total,
                since_date(facts_since), surveyed, space,
            )  # fmt: skip
            warnings: list[str] = []
            if done.message_ids:
                try:
                    self.service.profile.conversations.index_vectors(
                        done.message_ids, progress=index_progress
                    )
                except ModelServerError as exc:
                    warnings.append(
                        f"The imported messages are searchable by their words; finding them "
                        f"by meaning waits for the model server ({exc})."
                    )
        return done, warnings

    def use_instructions(self, text: str) -> None:
        """Make the export's custom instructions this profile's instructions."""
        self.service.settings.set("instructions", text.strip())

    # -- facts ---------------------------------------------------------------------------

    def to_read(self) -> int:
        """Imported user messages not yet read for facts."""
        return self.importer.to_read()

    def to_weigh(self) -> int:
        """Saved memories from a memories file not yet weighed against the profile's."""
        return self.proposal_store.to_weigh()

    def propose_facts(
        self,
        limit: int | None = None,
        should_stop: Callable[[], bool] | None = None,
        progress: Progress | None = None,
        wait: bool = False,
    ) -> Proposed:
        """Read imported messages for facts with the chat's own extraction and propose
        them for review; resumes where the last pass stopped. One pass reads at a time:
        another returns at once (`busy`), or with `wait` goes on once the first ends."""
        mem = self.service.memories
        with acting(IMPORT):
            return self.importer.propose(
                mem.learner, mem.extractor, limit, should_stop, progress, wait
            )

    def proposals(self, state: str = "waiting") -> builtins.list[Proposal]:
        return self.proposal_store.review(state)

    def counts(self) -> dict[str, int]:
        return self.proposal_store.counts()

    def accept(
        self, ids: Iterable[int] | None = None, text: str | None = None
    ) -> builtins.list[int]:
        """Make proposed facts memories (None: all waiting; `text`: one, as edited)."""
        return self.proposal_store.accept(ids, text)

    def reject(self, ids: Iterable[int] | None = None) -> int:
        return self.proposal_store.reject(ids)

    def restore(self, proposals: Iterable[Proposal]) -> int:
        """Undo a rejection: these proposals (as they were listed) wait again."""
        return self.proposal_store.restore(proposals)
