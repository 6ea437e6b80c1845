"""`sync`: one profile on two or more computers, through a folder that Syncthing,
Dropbox, iCloud Drive, OneDrive, Nextcloud or a network share carries. Only sealed
files go into the folder; each computer writes its own and reads the others'."""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from desktop_mem.cli import output
from desktop_mem.cli.context import Context
from desktop_mem.core.errors import EXIT_OK, SyncError


def add_parsers(sub: Any, parser_class: type[argparse.ArgumentParser]) -> None:
    s = sub.add_parser(
        "sync",
        help="use this profile on several computers, through a folder an engine syncs",
        description="Sync this profile through a folder that Syncthing, Dropbox, iCloud Drive, "
        "OneDrive, Nextcloud or a network share carries to your other computers. Only "
        "encrypted files go into it; the window syncs by itself while it is open.",
    )
    ssub = s.add_subparsers(
        dest="action", metavar="ACTION", parser_class=parser_class, required=True
    )
    su = ssub.add_parser("setup", help="start syncing this profile through FOLDER")
    su.add_argument("folder", type=Path, help="a folder your sync engine carries")
    su.add_argument("--name", help="this computer's name (its host name if not given)")
    su.add_argument("--json", action="store_true")
    su.set_defaults(func=setup)
    jo = ssub.add_parser(
        "join",
        help="make this (new) profile a copy of the one synced through FOLDER",
        description="Join a synced profile: FOLDER is the folder the other computer syncs "
        "through, as the engine brought it here. The code is the profile's recovery code, "
        "or a pairing code shown on a computer that syncs it (`sync pair`, an hour). Use a "
        "new profile: `desktop-mem --profile NAME sync join ...`.",
    )
    jo.add_argument("folder", type=Path)
    jo.add_argument("--code", required=True, help="the recovery code or a pairing code")
    jo.add_argument("--name", help="this computer's name (its host name if not given)")
    jo.add_argument("--json", action="store_true")
    jo.set_defaults(func=join, announces_code=False)
    pa = ssub.add_parser("pair", help="show a one-time pairing code another computer joins with")
    pa.add_argument("--json", action="store_true")
    pa.set_defaults(func=pair)
    st = ssub.add_parser("status", help="the folder, this computer and the others, the last pass")
    st.add_argument("--json", action="store_true")
    st.set_defaults(func=status)
    no = ssub.add_parser("now", help="one pass: send what changed here, take in the others'")
    no.add_argument("--json", action="store_true")
    no.set_defaults(func=now)
    mv = ssub.add_parser(
        "move",
        help="sync through another folder from now on (same key, same computer)",
        description="Sync this profile through FOLDER from now on, keeping its key and this "
        "computer's place in it. If FOLDER already holds the profile's sync folder (the "
        "engine moved it, or another computer moved first) it is used; otherwise the sync "
        "folder is copied there, and the old one stays until you delete it. Move each "
        "computer to the same folder.",
    )
    mv.add_argument("folder", type=Path)
    mv.add_argument("--json", action="store_true")
    mv.set_defaults(func=move)
    de = ssub.add_parser("devices", help="the computers that sync this profile")
    de.add_argument("--json", action="store_true")
    de.set_defaults(func=devices)
    rn = ssub.add_parser("rename", help="give this computer another name")
    rn.add_argument("name")
    rn.set_defaults(func=rename)
    rm = ssub.add_parser(
        "remove",
        help="take a computer out: it gets no new key and cannot read what changes next",
    )
    rm.add_argument("device", help="its name, or the start of its id (`sync devices`)")
    rm.set_defaults(func=remove)
    lo = ssub.add_parser(
        "lost",
        help="what merges dropped: edits to memories deleted elsewhere, and the like",
        description="A deletion wins over an edit made on another computer at the same "
        "time (and over messages written in a conversation deleted elsewhere); what it "
        "dropped is kept here, with its text, until you dismiss it. Lists them, or keeps "
        "one as a new memory (--keep), or deletes them for good (--dismiss).",
    )
    lo.add_argument("--keep", type=int, metavar="ID", help="keep this one's text as a new memory")
    lo.add_argument(
        "--dismiss",
        nargs="+",
        metavar="ID",
        help="delete these for good (their ids, or `all`)",
    )
    lo.add_argument("--json", action="store_true")
    lo.set_defaults(func=lost_command, opens_profile=True, creates_profile=False)
    of = ssub.add_parser(
        "off", help="stop syncing on this computer (what it holds stays, and the others')"
    )
    of.set_defaults(func=off)
    s.set_defaults(opens_profile=True, creates_profile=False)
    jo.set_defaults(creates_profile=True)


def _pass_line(p: Any) -> str:
    d = p.to_dict()
    parts = [f"sent {d['sent']} change{'' if d['sent'] == 1 else 's'}", f"received {d['received']}"]
    if d["memories_changed"] or d["memories_removed"]:
        parts.append(
            f"{d['memories_changed']} memories added or changed, {d['memories_removed']} removed"
        )
    if d["conversations_changed"] or d["conversations_removed"]:
        parts.append(
            f"{d['conversations_changed']} conversations added or changed, "
            f"{d['conversations_removed']} removed"
        )
    if d["conflicts"]:
        parts.append(f"{d['conflicts']} edited on two computers at once (both versions kept)")
    if d["merged_duplicates"]:
        parts.append(f"{d['merged_duplicates']} duplicates merged")
    return "Synced: " + ", ".join(parts) + ".\n"


_LOST_WORDS = {
    # the way a merge dropped it (core/sync/lost.py): (one, several), the computer as {c}
    "memory_here": (
        "1 edit made here was to a memory deleted on {c}",
        "{n} edits made here were to memories deleted on {c}",
    ),
    "memory_there": (
        "1 edit made on {c} was to a memory deleted here",
        "{n} edits made on {c} were to memories deleted here",
    ),
    "message_here": (
        "1 message written here was in a conversation deleted on {c}",
        "{n} messages written here were in conversations deleted on {c}",
    ),
    "message_there": (
        "1 message written on {c} was in a conversation deleted here",
        "{n} messages written on {c} were in conversations deleted here",
    ),
    "memory_removed": (
        "1 memory change written on {c} after it was removed was undone here",
        "{n} memory changes written on {c} after it was removed were undone here",
    ),
}


def _lost_line(kind: str, computer: str, n: int) -> str:
    """ "2 edits made here were to memories deleted on desktop"."""
    one, several = _LOST_WORDS.get(kind, ("1 change was lost", "{n} changes were lost"))
    return (one if n == 1 else several).format(n=n, c=output.safe(computer))


def _lost_said(ctx: Context, groups: list[dict[str, Any]]) -> None:
    for g in groups:
        n = int(g["count"])
        ctx.out.write(
            _lost_line(g["kind"], g["computer"], n)
            + f": {'its' if n == 1 else 'their'} text is kept (`desktop-mem sync lost`).\n"
        )


def _progress(ctx: Context) -> Any:
    """On a terminal (not with --json): "Taking in what laptop wrote: 40,000 of 120,000
    records" on stderr while a large file is applied."""
    if ctx.args.json or not ctx.err.isatty():
        return None

    def show(done: int, total: int, peer: str) -> None:
        ctx.err.write(
            f"\rTaking in what {output.safe(peer)} wrote: {done:,} of {total:,} records\x1b[K"
        )
        if done >= total:
            ctx.err.write("\n")
        ctx.err.flush()

    return show


STOPPED = object()  # Ctrl+C stopped the indexing after the pass


def _index(ctx: Context) -> Any:
    """Vectors for what arrived, by this computer's own embedding model (they never
    travel), after the pass; on a terminal (not with --json) "Indexing what arrived by
    meaning: 40,000 of 110,000" on stderr. Ctrl+C stops it and keeps what was done:
    until the rest is indexed it is found by its words, and the window (or the next
    `sync now`) indexes it. Returns what was indexed, None if the model server cannot
    embed now, STOPPED after Ctrl+C."""
    show = None
    if not ctx.args.json and ctx.err.isatty():

        def show(done: int, total: int) -> None:
            ctx.err.write(f"\rIndexing what arrived by meaning: {done:,} of {total:,}\x1b[K")
            if done >= total:
                ctx.err.write("\n")
            ctx.err.flush()

    try:
        return ctx.app.sync.index_arrived(progress=show)
    except KeyboardInterrupt:
        ctx.err.write(
            "\nIndexing by meaning stopped; what it did is kept. Until the rest is indexed it "
            "is found by its words; the app indexes it in the background when it opens this "
            "profile (or run `desktop-mem sync now` again).\n"
        )
        return STOPPED


def _indexed(done: Any) -> dict[str, int] | None:
    """What --json says was indexed (null: the model server could not embed)."""
    if done is None or done is STOPPED:
        return None
    return {"memories": done.memories, "messages": done.messages, "passages": done.passages}


def _indexed_line(ctx: Context, done: Any) -> str:
    if done is STOPPED:
        return ""
    if done is None:
        waiting = ctx.app.models.unindexed().total
        if not waiting:
            return ""
        return (
            f"{waiting:,} item{' waits' if waiting == 1 else 's wait'} to be indexed by meaning: "
            "the model server cannot do it now. Until then they are found by their words; "
            "the app indexes them once it can (or run `desktop-mem sync now` again).\n"
        )
    if not done.total:
        return ""
    return f"Indexed {done.total:,} item{'' if done.total == 1 else 's'} by meaning.\n"


def _report(ctx: Context, p: Any) -> None:
    for line in p.refused:
        if line.endswith("."):  # a sentence of its own ("laptop's change file 12 ...")
            ctx.err.write(f"desktop-mem: {output.safe(line)}\n")
        else:
            ctx.err.write(f"desktop-mem: refused {output.safe(line)}; nothing of it was applied.\n")
    for line in _membership_lines(p):
        ctx.out.write(line + "\n")


def _membership_lines(p: Any) -> list[str]:
    """Who joined (said once, so that a computer let in by someone else is noticed),
    and this computer's own way in."""
    lines = []
    for j in p.joined:
        who = output.safe(j.get("name") or "")
        by = output.safe(j.get("by_name") or "another computer")
        if j.get("via") == "pair":
            at = (
                time.strftime("%H:%M", time.localtime(j["offered_at"]))
                if j.get("offered_at")
                else "?"
            )
            how = f"with the pairing code shown on {by} at {at}"
        elif j.get("via") == "recovery":
            how = "with the recovery code"
        else:
            how = f"let in by {by}"
        lines.append(
            f"{who} joined the sync ({how})." if who else f"A computer joined the sync {how}."
        )
    if p.let_in:
        lines.append("This computer is in the sync now.")
    elif p.waiting_for:
        lines.append(_waiting_line(p.waiting_for))
    return lines


def _waiting_line(device: str, name: str | None = None) -> str:
    return (
        f"This computer waits to be let in by {output.safe(name or device[:8])}: it does so at "
        "its next sync (within a minute while its window is open). Until then what you "
        "change here waits to be sent."
    )


def setup(ctx: Context) -> int:
    result = ctx.app.sync.set_up(ctx.args.folder, ctx.args.name)
    info = ctx.app.sync.info()
    if ctx.args.json:
        output.print_json({"sync": info, "pass": result.to_dict()}, ctx.out)
        return EXIT_OK
    ctx.out.write(
        f"This profile now syncs through {info['folder']} as {output.safe(info['name'])}.\n"
        "On your other computer, once the engine has brought the folder there:\n"
        f"  desktop-mem --profile NAME sync join {info['folder']} --code YOUR-RECOVERY-CODE\n"
        "(or a pairing code from `desktop-mem sync pair`).\n"
    )
    _report(ctx, result)
    return EXIT_OK


def join(ctx: Context) -> int:
    try:
        result = ctx.app.sync.join(
            ctx.args.folder, ctx.args.code, ctx.args.name, index=False, progress=_progress(ctx)
        )
    except Exception:
        if ctx.new_code:  # the profile made for the join stays, with its own code
            from desktop_mem.cli.keys import recovery_notice

            ctx.err.write(recovery_notice(ctx.new_code, ctx.config.profile))
        raise
    done = _index(ctx)
    info = ctx.app.sync.info()
    counts = ctx.app.counts()
    if result.recovery == "own" and ctx.new_code:
        # made by this command and not shown yet: it is what opens this copy
        from desktop_mem.cli.keys import recovery_notice

        ctx.err.write(recovery_notice(ctx.new_code, ctx.config.profile))
    if ctx.args.json:
        output.print_json(
            {"sync": info, "pass": result.to_dict(), "counts": counts, "indexed": _indexed(done),
             "recovery_code": result.recovery},
            ctx.out,
        )  # fmt: skip
        return EXIT_OK
    memories, conversations = counts.get("memories", 0), counts.get("conversations", 0)
    ctx.out.write(
        f"Joined as {output.safe(info['name'])}: {memories} memor{'y' if memories == 1 else 'ies'} "
        f"and {conversations} conversation{'' if conversations == 1 else 's'} so far.\n"
        + _recovery_line(result.recovery, made_now=bool(ctx.new_code))
        + _indexed_line(ctx, done)
    )
    result.waiting_for = None  # said below, with the name
    _report(ctx, result)
    waiting = info.get("waiting_for")
    if waiting:
        ctx.out.write(_waiting_line(waiting["device"], waiting.get("name")) + "\n")
    return EXIT_OK


def _recovery_line(recovery: str | None, made_now: bool) -> str:
    """Which recovery code opens the joined profile from now on (the core says what it
    did); nothing for a profile that has none (a passphrase opens it)."""
    if recovery == "synced":
        if made_now:  # its own code was made with it and never shown
            return "The recovery code of the profile you joined opens this profile.\n"
        return (
            "From now on the recovery code of the profile you joined opens this profile: the "
            "recovery code shown when this profile was made no longer does.\n"
        )
    if recovery == "own":
        where = "shown above" if made_now else "the one shown when this profile was made"
        return (
            "The profile you joined has no recovery code (a passphrase protects it): this "
            f"profile keeps its own recovery code ({where}).\n"
        )
    return ""


def pair(ctx: Context) -> int:
    code = ctx.app.sync.offer_pairing()
    if ctx.args.json:
        output.print_json({"pairing_code": code, "valid_minutes": 60}, ctx.out)
        return EXIT_OK
    ctx.out.write(
        f"Pairing code: {code}\nOn the other computer: desktop-mem --profile NAME sync join "
        "FOLDER --code <this code>. It works once, for an hour, once the folder has reached "
        "that computer.\n"
    )
    return EXIT_OK


def _ago(stamp: str | None) -> str:
    if not stamp:
        return "never"
    return stamp[:16].replace("T", " ") + " UTC"


def status(ctx: Context) -> int:
    info = ctx.app.sync.info()
    if ctx.args.json:
        output.print_json(info, ctx.out)
        return EXIT_OK
    if not info["enabled"]:
        ctx.out.write("This profile is not synced (`desktop-mem sync setup FOLDER` starts).\n")
        _lost_said(ctx, info.get("lost") or [])
        return EXIT_OK
    ctx.out.write(
        f"Folder: {info['folder']}\nThis computer: {output.safe(info['name'])} "
        f"({info['device'][:8]})\nLast pass: {_ago(info['last_pass'])}\n"
        f"Waiting to be sent: {info['pending']}\nIn the folder: {info['folder_bytes']:,} bytes\n"
    )
    if info.get("waiting_for"):
        w = info["waiting_for"]
        ctx.out.write(_waiting_line(w["device"], w.get("name")) + "\n")
    _devices(ctx, info["computers"])
    for at in info.get("stuck") or []:
        name = output.safe(at["name"])
        ctx.out.write(
            f"Cannot go on with {name}'s files past {at['file']} (since {_ago(at['since'])}): "
            f"{name} sends a fresh copy at its next sync.\n"
        )
    if info.get("ignored"):
        n = int(info["ignored"])
        ctx.out.write(
            f"{n} file{'s' if n != 1 else ''} in the sync folder {'are' if n != 1 else 'is'} "
            "ignored: refused once for what they are (a link, a FIFO, too large, or not this "
            "profile's), and not read again until they change.\n"
        )
    if info["conflicts"]:
        ctx.out.write(
            f"{info['conflicts']} memories were edited on two computers at once: both versions "
            "are in their history (`memory history ID`).\n"
        )
    _lost_said(ctx, info.get("lost") or [])
    if info.get("error"):
        ctx.err.write(f"desktop-mem: the last pass: {output.safe(info['error'])}\n")
    return EXIT_OK


def _devices(ctx: Context, computers: list[dict[str, Any]]) -> None:
    """The other computers that sync (one taken out is no longer listed): whether each
    has taken in everything this one wrote, as its own status says, and whether all of
    its own files have arrived here."""
    live = [c for c in computers if not c["removed"]]
    if not live:
        gone = len(live) < len(computers)
        ctx.out.write(
            "No other computer syncs now.\n" if gone else "No other computer has joined yet.\n"
        )
    for c in live:
        ctx.out.write(f"{c['device'][:8]}  {output.safe(c['name']):<20} {_standing(c)}\n")


def _standing(c: dict[str, Any]) -> str:
    if c.get("stuck"):  # its status says so: never "up to date"
        return (
            f"cannot read this computer's {c['stuck']}: a fresh copy goes out at this "
            "computer's next sync"
        )
    if c.get("up_to_date", True):
        when = c.get("synced_at") or c.get("seen_at")
        state = "has all your changes" + (f" (the last reached it {_ago(when)})" if when else "")
    else:
        n = int(c.get("missing") or 0)
        state = f"has not yet received your last {n} change{'' if n == 1 else 's'}"
        if c.get("missing_since"):
            state += f" (since {_ago(c['missing_since'])})"
    if c["behind"]:
        state += "; its latest changes have not arrived here yet"
    return state


def now(ctx: Context) -> int:
    result = ctx.app.sync.now(index=False, progress=_progress(ctx))
    done = _index(ctx)
    if ctx.args.json:
        output.print_json(dict(result.to_dict(), indexed=_indexed(done)), ctx.out)
        return EXIT_OK
    ctx.out.write(_pass_line(result) + _indexed_line(ctx, done))
    if result.applied.lost:
        names = ctx.app.sync.origin_names()
        _lost_said(
            ctx,
            [{"kind": kind, "computer": names.get(device, device[:8]), "count": n}
             for kind, device, n in _counted(result.applied.lost)],
        )  # fmt: skip
    _report(ctx, result)
    return EXIT_OK


def _counted(pairs: list[tuple[str, str]]) -> list[tuple[str, str, int]]:
    counts: dict[tuple[str, str], int] = {}
    for pair in pairs:
        counts[pair] = counts.get(pair, 0) + 1
    return [(kind, device, n) for (kind, device), n in counts.items()]


def lost_command(ctx: Context) -> int:
    sync, args = ctx.app.sync, ctx.args
    if args.keep is not None:
        memory_id = sync.keep_lost(args.keep)
        if args.json:
            output.print_json({"kept": args.keep, "memory_id": memory_id}, ctx.out)
        else:
            ctx.out.write(f"Kept as memory {memory_id}; no longer listed as lost.\n")
        return EXIT_OK
    if args.dismiss:
        every = [d for d in args.dismiss if d.lower() == "all"]
        ids = [] if every else [_lost_id(d) for d in args.dismiss]
        n = sync.dismiss_lost(None if every else ids)
        if args.json:
            output.print_json({"dismissed": n}, ctx.out)
        else:
            ctx.out.write(f"Deleted {n} for good.\n" if n else "Nothing to dismiss.\n")
        return EXIT_OK
    names = sync.origin_names()
    items = sync.lost()
    if args.json:
        output.print_json([x.to_dict(names) for x in items], ctx.out)
        return EXIT_OK
    if not items:
        ctx.out.write("No change was lost in a merge.\n")
        return EXIT_OK
    for kind, device, n in _counted([(x.kind, x.device) for x in items]):
        ctx.out.write(_lost_line(kind, names.get(device, device[:8]), n) + ":\n")
        for x in items:
            if (x.kind, x.device) == (kind, device):
                role = f"({x.role}) " if x.role else ""
                ctx.out.write(f"  {x.id:>4}  {_ago(x.at)}  {role}{output.safe(x.text)}\n")
    ctx.out.write(
        "`desktop-mem sync lost --keep ID` keeps one as a new memory; `--dismiss ID` (or "
        "`--dismiss all`) deletes them for good.\n"
    )
    return EXIT_OK


def _lost_id(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise SyncError(
            f"{text!r} is not the id of a lost change: give the numbers `desktop-mem sync "
            "lost` lists, or `all`.",
            reason="usage",
        ) from None


def move(ctx: Context) -> int:
    result = ctx.app.sync.move(ctx.args.folder)
    info = ctx.app.sync.info()
    if ctx.args.json:
        output.print_json({"sync": info, "pass": result.to_dict()}, ctx.out)
        return EXIT_OK
    ctx.out.write(
        f"This profile now syncs through {info['folder']}. Move your other computers to the "
        "same folder once the engine has brought it there: `desktop-mem sync move FOLDER`, "
        "or Settings > Sync > Move to another folder….\n"
    )
    _report(ctx, result)
    return EXIT_OK


def devices(ctx: Context) -> int:
    info = ctx.app.sync.info()
    computers = info.get("computers", [])
    if ctx.args.json:
        output.print_json(
            {
                "this": {"device": info.get("device"), "name": info.get("name")},
                "computers": computers,
            },
            ctx.out,
        )
        return EXIT_OK
    if not info["enabled"]:
        ctx.out.write("This profile is not synced.\n")
        return EXIT_OK
    ctx.out.write(f"{info['device'][:8]}  {output.safe(info['name']):<20} this computer\n")
    _devices(ctx, computers)
    return EXIT_OK


def rename(ctx: Context) -> int:
    ctx.app.sync.rename(ctx.args.name)
    ctx.out.write(f"This computer is now called {output.safe(ctx.app.sync.info()['name'])}.\n")
    return EXIT_OK


def remove(ctx: Context) -> int:
    device = ctx.app.sync.find(ctx.args.device)
    ctx.app.sync.remove(device)
    ctx.out.write(
        f"Removed {device[:8]}: the others have a new key it does not have, so it cannot read "
        "what changes from now on (it keeps what it already had).\n"
    )
    return EXIT_OK


def off(ctx: Context) -> int:
    ctx.app.sync.turn_off()
    ctx.out.write(
        "Sync is off on this computer: what it holds stays. Its files stay in the folder for "
        "the others; remove it from another computer to take them out.\n"
    )
    return EXIT_OK
