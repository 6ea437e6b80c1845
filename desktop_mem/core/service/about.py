"""The "about you" profile's operations: show it, edit or remove a line, turn it off or
on, rewrite it now. The window, the command line and the idle pass call these; the
store announces each change (AboutChanged), and deleting a memory removes the lines
citing it in the store's own transaction, whoever deletes it."""

from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import TYPE_CHECKING

from desktop_mem.core.errors import UsageError
from desktop_mem.core.memory.about import WRITTEN_AT, AboutLine

if TYPE_CHECKING:
    from desktop_mem.core.chat.about import Rewritten
    from desktop_mem.core.service import Service

SETTING = "about_you"


class About:
    def __init__(self, service: Service) -> None:
        self.service = service
        self.store = service.profile.about

    @property
    def enabled(self) -> bool:
        """Given in every prompt and kept up to date (the `about_you` setting)."""
        return bool(self.service.settings.get(SETTING))

    def set_enabled(self, on: bool) -> None:
        """Off: neither given nor written (its lines stay, to come back when it is
        turned on, until forgotten); on: given again, and rewritten when due."""
        self.service.settings.set(SETTING, on)

    def lines(self) -> builtins.list[AboutLine]:
        return self.store.lines()

    def given(self) -> builtins.list[AboutLine]:
        """The lines a prompt gets now (none when it is off)."""
        return self.store.lines(current_only=True) if self.enabled else []

    def get(self, line_id: int) -> AboutLine:
        return self.store.get(line_id)

    def edit(self, line_id: int, text: str) -> AboutLine:
        """Your words for a line: kept as written, never rewritten, still citing the
        memories it came from (forgetting one of them removes it)."""
        return self.store.edit(line_id, text)

    def remove(self, line_id: int) -> None:
        """Remove a line; no rewrite brings it back."""
        self.store.remove(line_id)

    def tokens(self) -> int:
        """What the lines given cost in every prompt (the prompt's estimate)."""
        from desktop_mem.core.chat.about import line_cost

        return sum(line_cost(ln.text) for ln in self.given())

    def written_at(self) -> str | None:
        """When the model last wrote it (ISO, UTC), or None."""
        return self.service.profile.db.meta_get(WRITTEN_AT)

    def due(self) -> bool:
        """A rewrite is due: it is on and the memories changed since the last one."""
        return self.enabled and self.store.due()

    def rewrite(self, should_stop: Callable[[], bool] | None = None) -> Rewritten:
        """Write it again from the current memories now, with the chat model (your
        lines stay). Raises ModelServerError (or InvalidModelAnswer) and changes nothing
        when the model cannot do it."""
        from desktop_mem.core.chat.about import AboutWriter

        if not self.enabled:
            raise UsageError(
                "What the model knows about you is turned off: turn it on first.",
                reason="about_off",
            )
        prof = self.service.profile
        return AboutWriter(self.store, prof.memories, self.service.backends).rewrite(should_stop)
