"""Sync said in words: the status bar's line and Settings > Sync ("Synced with laptop
2 min ago", "has not yet received your last 3 changes"), what a pass brought or
refused, and what the user can do about it. The words only: how sync stands is the
controller's (ui/sync_controller.py)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from PySide6.QtCore import QObject


def _parse(stamp: str | None) -> datetime | None:
    if not stamp:
        return None
    try:
        when = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


class SyncWords(QObject):
    """Sync in a few words. A QObject for its tr(): lupdate reads counted strings (the
    singular and plural forms) from tr() calls in a class."""

    def ago(self, stamp: str | None, now: datetime | None = None) -> str:
        """When, from now: "just now", "5 min ago", "3 hours ago", or the date."""
        when = _parse(stamp)
        if when is None:
            return self.tr("never")
        seconds = ((now or datetime.now(UTC)) - when).total_seconds()
        if seconds < 60:
            return self.tr("just now")
        if seconds < 3600:
            return self.tr("%n min ago", "", int(seconds // 60))
        if seconds < 86400:
            return self.tr("%n hour(s) ago", "", int(seconds // 3600))
        return when.astimezone().strftime("%Y-%m-%d %H:%M")

    def synced(
        self,
        names: list[str],
        stamp: str | None,
        now: datetime | None = None,
        removed: bool = False,
    ) -> str:
        """The status bar's line after a pass (`removed`: computers were taken out)."""
        if not names:
            if removed:  # one did join; it was taken out
                return self.tr("Sync on · no other computer syncs now")
            return self.tr("Sync on · no other computer has joined yet")
        return (
            self.tr("Synced with %1 %2")
            .replace("%1", ", ".join(names))
            .replace("%2", self.ago(stamp, now))
        )

    def clock(self, stamp: str | None, now: datetime | None = None) -> str:
        """A moment as a clock says it: "14:02" today, else its date too."""
        when = _parse(stamp)
        if when is None:
            return ""
        local = when.astimezone()
        if local.date() == (now or datetime.now(UTC)).astimezone().date():
            return local.strftime("%H:%M")
        return local.strftime("%Y-%m-%d %H:%M")

    def not_received(
        self, name: str, n: int, since: str | None, now: datetime | None = None
    ) -> str:
        """Another computer has not taken in this one's last changes."""
        when = self.clock(since, now)
        if when:
            text = self.tr("%1 has not yet received your last %n change(s) (since %2)", "", n)
            return text.replace("%1", name).replace("%2", when)
        return self.tr("%1 has not yet received your last %n change(s)", "", n).replace("%1", name)

    def cannot_read(self, name: str) -> str:
        """Another computer says one of this computer's files in the folder is damaged
        or missing there."""
        return self.tr(
            "%1 cannot read one of your files: a fresh copy goes out at the next sync"
        ).replace("%1", name)

    def cannot_read_short(self) -> str:
        """Settings > Sync, beside a computer that cannot read one of this one's files."""
        return self.tr("cannot read one of your files: a fresh copy goes out at the next sync")

    def not_arrived(self, name: str) -> str:
        """Not every file another computer wrote could be read here yet."""
        return self.tr("%1's latest changes have not arrived here yet").replace("%1", name)

    def advice(self, lagging: list[str], behind: list[str]) -> str:
        """What the user can do about it, in a sentence."""
        if lagging:
            return self.tr(
                "Check that %1 is switched on with desktop-mem open, and that your sync engine "
                "(Syncthing, Dropbox…) runs on both computers."
            ).replace("%1", ", ".join(lagging))
        if behind:
            return self.tr(
                "Your sync engine has not brought every file of %1 here yet: check that it runs "
                "on both computers."
            ).replace("%1", ", ".join(behind))
        return ""

    def has_all(self, stamp: str | None, now: datetime | None = None) -> str:
        """Settings > Sync, beside a computer that has taken in everything."""
        if _parse(stamp) is None:  # nothing written here yet to reach it
            return self.tr("has all your changes")
        return self.tr("has all your changes (the last reached it %1)").replace(
            "%1", self.ago(stamp, now)
        )

    def lacks(self, n: int, since: str | None, now: datetime | None = None) -> str:
        """Settings > Sync, beside a computer that has not."""
        when = self.clock(since, now)
        if when:
            return self.tr("has not yet received your last %n change(s) (since %1)", "", n).replace(
                "%1", when
            )
        return self.tr("has not yet received your last %n change(s)", "", n)

    def not_here(self) -> str:
        """Settings > Sync, beside a computer whose files have not all arrived."""
        return self.tr("its latest changes have not arrived here yet")

    def conflicts(self, n: int) -> str:
        return self.tr("%n memory(s) were edited on two computers at once", "", n)

    def edited_on_both(self, n: int) -> str:
        """Said once, after the pass that found them."""
        return self.tr(
            "%n memory(s) were edited on two computers at once: the other version is in its "
            "history (Settings > Sync lists them).",
            "",
            n,
        )

    def joined(self, j: dict[str, Any]) -> str:
        """Said once, on every computer, when a computer is first seen in the sync: so
        that one let in by someone else (or by a code seen over a shoulder) is noticed."""
        name = str(j.get("name") or "")
        by = str(j.get("by_name") or "")
        if j.get("via") == "recovery":
            if name:
                return self.tr("%1 joined the sync with the recovery code.").replace("%1", name)
            return self.tr("A computer joined the sync with the recovery code.")
        if j.get("via") == "pair" and j.get("offered_at"):
            at = datetime.fromtimestamp(int(j["offered_at"])).strftime("%H:%M")
            if name:
                return (
                    self.tr("%1 joined the sync with the pairing code shown on %2 at %3.")
                    .replace("%1", name).replace("%2", by).replace("%3", at)
                )  # fmt: skip
            return (
                self.tr("A computer joined the sync with the pairing code shown on %1 at %2.")
                .replace("%1", by).replace("%2", at)
            )  # fmt: skip
        if name:
            return self.tr("%1 joined the sync.").replace("%1", name)
        return self.tr("A computer joined the sync.")

    def let_in(self, name: str) -> str:
        return self.tr("This computer is in the sync now: %1 let it in.").replace("%1", name)

    def waiting(self, name: str) -> str:
        return self.tr("Waiting for %1 to let this computer in").replace("%1", name)

    def ignored(self, n: int) -> str:
        """Files an earlier pass refused for what they are, left alone since."""
        return self.tr(
            "%n file(s) in the sync folder are ignored: each was refused once for what it "
            "is (a link, a FIFO, too large, or not this profile's), and is not read again "
            "until it changes.",
            "",
            n,
        )

    def lost(self, kind: str, name: str, n: int) -> str:
        """What merges dropped, one way and one computer: "2 edits made here were to
        memories deleted on desktop"."""
        if kind == "memory_here":
            text = self.tr("%n edit(s) made here were to memories deleted on %1", "", n)
        elif kind == "memory_there":
            text = self.tr("%n edit(s) made on %1 were to memories deleted here", "", n)
        elif kind == "message_here":
            text = self.tr("%n message(s) written here were in conversations deleted on %1", "", n)
        elif kind == "memory_removed":
            text = self.tr(
                "%n memory change(s) written on %1 after it was removed were undone here", "", n
            )
        else:
            text = self.tr("%n message(s) written on %1 were in conversations deleted here", "", n)
        return text.replace("%1", name)

    def lost_way(self, kind: str, name: str) -> str:
        """One dropped change's way, short, beside its text."""
        if kind == "memory_here":
            text = self.tr("edited here, deleted on %1")
        elif kind == "memory_there":
            text = self.tr("edited on %1, deleted here")
        elif kind == "message_here":
            text = self.tr("written here, its conversation deleted on %1")
        elif kind == "memory_removed":
            text = self.tr("written on %1 after it was removed, undone")
        else:
            text = self.tr("written on %1, its conversation deleted here")
        return text.replace("%1", name)

    def lost_after_pass(self, groups: list[tuple[str, str, int]]) -> str:
        """Said once, after the pass that dropped them: (way, computer's name, how many)."""
        said = [self.lost(kind, name, n) for kind, name, n in groups]
        total = sum(n for _kind, _name, n in groups)
        return self.sentences(
            [*said, self.tr("Settings > Sync keeps their text until you dismiss them.", "", total)]
        )

    def sentences(self, parts: list[str]) -> str:
        """Sentences one after the other, as the language writes them ("。" in Chinese)."""
        text = parts[0] if parts else ""
        for part in parts[1:]:
            text = self.tr("%1. %2").replace("%1", text.rstrip(".。")).replace("%2", part)
        return text

    def refused(self, stuck: list[str]) -> str:
        """A pass refused a file: where this computer cannot go on with another
        computer's files (`stuck`: their names), what that computer does about it;
        otherwise that nothing of the file was applied and the rest went on."""
        if stuck:
            return self.tr(
                "A file of %1's in the sync folder is damaged or missing, so its latest "
                "changes cannot be taken in yet: %1 sends a fresh copy the next time it "
                "syncs."
            ).replace("%1", self.tr(", ").join(stuck))
        return self.tr(
            "A file in the sync folder was refused (damaged, cut short, or not written by "
            "one of your computers): nothing of it was applied, and sync went on with the "
            "others."
        )
