"""`memory …` (add, list, search, move, edit, delete, pin, history, restore, export,
import, forget-all, reembed, consolidate) and `wipe`."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from desktop_mem.cli import output
from desktop_mem.cli.context import Context
from desktop_mem.cli.spaces import scope_of, space_of
from desktop_mem.core.errors import EXIT_ERROR, EXIT_OK, ImportRejected, UsageError
from desktop_mem.core.memory.records import KINDS

if TYPE_CHECKING:
    from desktop_mem.cli.context import Subparsers
    from desktop_mem.core.memory.records import WriteResult


def add_parsers(sub: Subparsers, parser_class: type[argparse.ArgumentParser]) -> None:
    mem = sub.add_parser("memory", help="view and change memories")
    msub = mem.add_subparsers(
        dest="action", metavar="ACTION", parser_class=parser_class, required=True
    )

    a = msub.add_parser("add", help="remember something")
    a.add_argument("text")
    a.add_argument("--kind", default="fact", help=f"one of {', '.join(KINDS)} (default: fact)")
    a.add_argument("--pin", action="store_true", help="pin it: always in the prompt")
    al = a.add_mutually_exclusive_group()
    al.add_argument(
        "--always",
        dest="always",
        action="store_true",
        default=None,
        help="give it to the model on every turn, as what is about health is",
    )
    al.add_argument("--not-always", dest="always", action="store_false",
                    help="only when it is found, even if it is about health or safety")  # fmt: skip
    a.add_argument("--importance", type=float, default=0.5, help="0 to 1 (default 0.5)")
    a.add_argument("--valid-from", help="date it becomes true (YYYY-MM-DD)")
    a.add_argument("--valid-until", help="date it stops being true (YYYY-MM-DD)")
    a.add_argument("--space", help="the space it goes to (default: the shared space)")
    a.add_argument("--json", action="store_true")
    a.set_defaults(func=add)

    ls = msub.add_parser("list", help="list memories, newest first (pinned on top)")
    ls.add_argument("--kind")
    pin = ls.add_mutually_exclusive_group()
    pin.add_argument("--pinned", dest="pinned", action="store_true", default=None)
    pin.add_argument("--unpinned", dest="pinned", action="store_false")
    ls.add_argument("--always", action="store_true", default=None,
                    help="only those given on every turn (about health and safety)")  # fmt: skip
    ls.add_argument("--text", help="only memories containing this text")
    ls.add_argument("--since", help="created on or after (YYYY-MM-DD)")
    ls.add_argument("--until", help="created on or before (YYYY-MM-DD)")
    ls.add_argument("--current", action="store_true", help="hide expired memories")
    ls.add_argument("--limit", type=int)
    ls.add_argument(
        "--space",
        help="only what a chat in this space sees (its memories and, unless it is kept "
        "apart, the shared ones; 'shared': the shared space's); default: every space",
    )
    ls.add_argument("--json", action="store_true")
    ls.set_defaults(func=list_)

    s = msub.add_parser("search", help="hybrid search (meaning and keywords)")
    s.add_argument("query")
    s.add_argument("-k", type=int, default=10, help="how many results (default 10)")
    s.add_argument("--kind")
    s.add_argument("--current", action="store_true", help="hide expired memories")
    s.add_argument(
        "--all",
        action="store_true",
        help="list the best k ranked, relevant to the query or not (its relevance marked '-' "
        "where the rule would not keep it, '?' where it keeps it as a weaker match)",
    )
    s.add_argument(
        "--space",
        help="search what a chat in this space sees (its memories and, unless it is kept "
        "apart, the shared ones; 'shared': the shared space's); default: every space",
    )
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=search)

    e = msub.add_parser("edit", help="change a memory (keeps the old version in its history)")
    e.add_argument("id", type=int)
    e.add_argument("text", nargs="?")
    e.add_argument("--kind")
    e.add_argument("--importance", type=float)
    e.add_argument("--valid-from")
    e.add_argument("--valid-until")
    e.add_argument("--json", action="store_true")
    e.set_defaults(func=edit)

    mv = msub.add_parser("move", help="move memories to a space, with their history")
    mv.add_argument("ids", type=int, nargs="+", metavar="ID")
    mv.add_argument("--to", required=True, metavar="SPACE",
                    help="the space's name or number, or 'shared'")  # fmt: skip
    mv.set_defaults(func=move)

    d = msub.add_parser("delete", help="delete memories for good (with their history)")
    d.add_argument("ids", type=int, nargs="+", metavar="ID")
    d.set_defaults(func=delete)

    for name, text in (("pin", "always put it in the prompt"), ("unpin", "stop pinning it")):
        x = msub.add_parser(name, help=text)
        x.add_argument("id", type=int)
        x.set_defaults(func=set_pinned)

    aw = msub.add_parser(
        "always",
        help="give a memory to the model on every turn (on), only when found (off), or as "
        "its text says (auto: what is about health or safety is)",
    )
    aw.add_argument("id", type=int)
    aw.add_argument("state", choices=("on", "off", "auto"))
    aw.add_argument("--json", action="store_true")
    aw.set_defaults(func=set_always)

    h = msub.add_parser("history", help="every version of a memory")
    h.add_argument("id", type=int)
    h.add_argument("--json", action="store_true")
    h.set_defaults(func=history)

    r = msub.add_parser("restore", help="make an earlier version current again")
    r.add_argument("id", type=int)
    r.add_argument("version", type=int)
    r.set_defaults(func=restore)

    ex = msub.add_parser("export", help="write all memories to a file")
    ex.add_argument("file")
    ex.add_argument(
        "--format", choices=("json", "md"), help="default: from the file name, else json"
    )
    ex.set_defaults(func=export)

    im = msub.add_parser(
        "import", help="add memories from JSON, Markdown/text or CSV (all or nothing)"
    )
    im.add_argument("file")
    im.add_argument("--json", action="store_true")
    im.set_defaults(func=import_)

    fa = msub.add_parser(
        "forget-all",
        help="forget everything: every memory, and every conversation that said it "
        "(or, with --keep-conversations, keep them to read but out of every prompt)",
    )
    fa.add_argument(
        "--keep-conversations",
        action="store_true",
        help="keep the conversations to read; the assistant no longer uses them",
    )
    fa.add_argument("--yes", action="store_true", help="confirm: this cannot be undone")
    fa.set_defaults(func=forget_all)

    re_ = msub.add_parser("reembed", help="re-index every memory with the embedding model")
    re_.add_argument("--missing", action="store_true", help="only memories without a vector")
    re_.set_defaults(func=reembed)

    co = msub.add_parser(
        "consolidate", help="merge duplicates and resolve conflicts across all memories"
    )
    co.add_argument("--model", help="chat model that judges conflicts")
    co.add_argument("--json", action="store_true")
    co.set_defaults(func=consolidate)
    mem.set_defaults(opens_profile=True)

    wp = sub.add_parser(
        "wipe", help="delete every memory and every conversation of this profile for good"
    )
    wp.add_argument("--yes", action="store_true", help="confirm: this cannot be undone")
    wp.set_defaults(func=wipe, opens_profile=True)


def _written(ctx: Context, res: WriteResult, verb: str) -> int:
    """Reports a memory added or changed: its warnings on stderr, then the memory as
    JSON, or a line saying what was done to which memory."""
    output.warn(res.warnings, ctx.err)
    if ctx.args.json:
        output.print_json(res.memory.to_dict(), ctx.out)
    else:
        text = output.one_line(res.memory.text, output.width() - 20)
        ctx.out.write(f"{verb} {res.memory.id}: {text}{output.always_note(res.memory)}\n")
    return EXIT_OK


def add(ctx: Context) -> int:
    from desktop_mem.core.memory.records import NewMemory

    args = ctx.args
    new = NewMemory(
        args.text,
        kind=args.kind,
        importance=args.importance,
        pinned=args.pin,
        valid_from=args.valid_from,
        valid_until=args.valid_until,
        always=args.always,
        space=space_of(ctx.app, args.space),
    )
    return _written(ctx, ctx.app.memories.add(new), "Remembered")


def list_(ctx: Context) -> int:
    args = ctx.args
    mems = ctx.app.memories.list(
        kind=args.kind,
        pinned=args.pinned,
        always=args.always,
        text=args.text,
        since=args.since,
        until=args.until,
        include_expired=not args.current,
        limit=args.limit,
        scope=scope_of(ctx.app, args.space),
    )
    if args.json:
        output.print_json([m.to_dict() for m in mems], ctx.out)
    else:
        columns = output.width()
        for m in mems:
            ctx.out.write(output.memory_line(m, columns) + "\n")
        ctx.err.write(f"{len(mems)} memories\n")
    return EXIT_OK


def search(ctx: Context) -> int:
    args = ctx.args
    if args.k < 1:
        raise UsageError("-k must be at least 1.")
    result = ctx.app.memories.search(
        args.query,
        args.k,
        relevant_only=not args.all,
        include_expired=not args.current,
        kinds={args.kind} if args.kind else None,
        scope=scope_of(ctx.app, args.space),
    )
    output.warn(result.warnings, ctx.err)
    if args.json:
        output.print_json([h.to_dict() for h in result.hits], ctx.out)
    else:
        columns = output.width()
        for h in result.hits:
            line = output.memory_line(
                h.memory, columns, h.score, h.relevance, h.signals.get("match")
            )
            ctx.out.write(line + "\n")
        if not result.hits:
            ctx.err.write(
                "No memory matches: none is about this (--all lists the nearest anyway).\n"
            )
    return EXIT_OK


def edit(ctx: Context) -> int:
    args = ctx.args
    fields = (args.text, args.kind, args.importance, args.valid_from, args.valid_until)
    if all(f is None for f in fields):
        raise UsageError(
            "Nothing to change: give the new text, or --kind, --importance, --valid-from, "
            "--valid-until."
        )
    res = ctx.app.memories.edit(
        args.id,
        text=args.text,
        kind=args.kind,
        importance=args.importance,
        valid_from=args.valid_from,
        valid_until=args.valid_until,
    )
    return _written(ctx, res, "Updated")


def move(ctx: Context) -> int:
    space = space_of(ctx.app, ctx.args.to)
    n = ctx.app.memories.move(ctx.args.ids, space)
    where = "the shared space" if space is None else f"'{ctx.app.spaces.get(space).name}'"
    ctx.out.write(f"Moved {n} {'memory' if n == 1 else 'memories'} to {where}.\n")
    return EXIT_OK


def delete(ctx: Context) -> int:
    n = ctx.app.memories.delete(ctx.args.ids)
    ctx.out.write(f"Deleted {n} {'memory' if n == 1 else 'memories'} for good.\n")
    output.pending_erase(ctx.app, ctx.out)
    return EXIT_OK


def set_pinned(ctx: Context) -> int:
    m = ctx.app.memories.pin(ctx.args.id, ctx.args.action == "pin")
    ctx.out.write(f"{'Pinned' if m.pinned else 'Unpinned'} {m.id}.\n")
    return EXIT_OK


def set_always(ctx: Context) -> int:
    state = {"on": True, "off": False, "auto": None}[ctx.args.state]
    m = ctx.app.memories.set_always(ctx.args.id, state)
    if ctx.args.json:
        output.print_json(m.to_dict(), ctx.out)
    elif m.always:
        ctx.out.write(
            f"Memory {m.id} is given to the model on every turn{output.always_note(m)}.\n"
        )
    else:
        ctx.out.write(f"Memory {m.id} is given to the model only when it is found.\n")
    return EXIT_OK


def history(ctx: Context) -> int:
    versions = ctx.app.memories.history(ctx.args.id)
    if ctx.args.json:
        output.print_json([v.to_dict() for v in versions], ctx.out)
        return EXIT_OK
    columns = output.width()
    for v in versions:
        pin = " pinned" if v.pinned else ""
        until = f" until {v.valid_until}" if v.valid_until else ""
        ctx.out.write(
            f"v{v.version} {v.changed_at} {v.action} by {v.actor}"
            + (f" (message {v.message_id})" if v.message_id else "")
            + f": [{v.kind}{pin}{until}] {output.one_line(v.text, columns - 50)}\n"
        )
    return EXIT_OK


def restore(ctx: Context) -> int:
    res = ctx.app.memories.restore(ctx.args.id, ctx.args.version)
    output.warn(res.warnings, ctx.err)
    ctx.out.write(f"Restored {ctx.args.id} to version {ctx.args.version}.\n")
    return EXIT_OK


def export(ctx: Context) -> int:
    path = Path(ctx.args.file)
    fmt = ctx.args.format or (
        "md" if path.suffix.lower() in (".md", ".markdown", ".txt") else "json"
    )
    n = ctx.app.memories.export(path, fmt)
    ctx.out.write(f"Exported {n} memories to {path} ({fmt}). This file is not encrypted.\n")
    return EXIT_OK


def import_(ctx: Context) -> int:
    args, out = ctx.args, ctx.out
    try:
        rep = ctx.app.memories.import_file(
            Path(args.file), progress=output.progress(ctx.err, "Importing")
        )
    except ImportRejected as exc:
        if args.json:
            problems = [{"line": ln, "error": msg} for ln, msg in exc.problems]
            output.print_json({"imported": 0, "problems": problems}, out)
        raise
    output.warn(rep.warnings, ctx.err)
    if args.json:
        output.print_json(
            {"imported": rep.imported, "duplicates": rep.duplicates, "ids": rep.ids}, out
        )
    else:
        dup = f", skipped {rep.duplicates} already known" if rep.duplicates else ""
        out.write(f"Imported {rep.imported} memories{dup}.\n")
    return EXIT_OK


def forget_all(ctx: Context) -> int:
    app = ctx.app
    keep = ctx.args.keep_conversations
    if not ctx.args.yes:
        counts = app.counts()
        also = (
            f"leaves its {counts['messages']} messages out of every prompt (they stay to read)"
            if keep
            else f"deletes its {counts['messages']} messages too (--keep-conversations keeps "
            "them to read)"
        )
        raise UsageError(
            f"This deletes all {counts['memories']} memories of profile "
            f"'{ctx.config.profile}' for good and {also}: run again with --yes to confirm."
        )
    done = app.forget_everything(keep_conversations=keep)
    if done.kept:
        ctx.out.write(
            f"Deleted all {done.memories} memories for good; the {done.messages} messages of "
            f"{done.conversations} conversations stay to read, but no prompt will hold them.\n"
        )
    else:
        ctx.out.write(
            f"Deleted all {done.memories} memories and the {done.messages} messages of "
            f"{done.conversations} conversations for good.\n"
        )
    output.pending_erase(app, ctx.out)
    return EXIT_OK


def reembed(ctx: Context) -> int:
    app = ctx.app
    progress = output.progress(ctx.err, "Embedding")
    n = app.memories.reembed(progress, only_missing=ctx.args.missing)
    ctx.out.write(f"Indexed {n} memories with {app.models.embedding_model}.\n")
    return EXIT_OK


def consolidate(ctx: Context) -> int:
    if ctx.args.model:
        ctx.app.use_chat_model(ctx.args.model)
    found = ctx.app.memories.consolidate()
    if ctx.args.json:
        output.print_json([c.to_dict() for c in found], ctx.out)
    else:
        output.changes(found, ctx.out)
        ctx.out.write(f"{len(found)} change(s); each can be undone with `memory restore`.\n")
    return EXIT_OK if found is not None else EXIT_ERROR


def wipe(ctx: Context) -> int:
    app = ctx.app
    if not ctx.args.yes:
        counts = app.counts()
        raise UsageError(
            f"This deletes all {counts['memories']} memories and {counts['messages']} messages "
            f"of profile '{ctx.config.profile}' for good: run again with --yes to confirm."
        )
    done = app.forget_everything()
    ctx.out.write(f"Deleted {done.memories} memories and {done.messages} messages for good.\n")
    output.pending_erase(app, ctx.out)
    return EXIT_OK
