"""`conversations …`: list, show, search, export, rename and delete conversations."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from desktop_mem.cli import output
from desktop_mem.cli.context import Context
from desktop_mem.cli.spaces import scope_of
from desktop_mem.core.errors import EXIT_OK

if TYPE_CHECKING:
    from desktop_mem.cli.context import Subparsers
    from desktop_mem.core.service.conversations import Conversations


def add_parsers(sub: Subparsers, parser_class: type[argparse.ArgumentParser]) -> None:
    conv = sub.add_parser("conversations", help="list, show, search, export, delete conversations")
    csub = conv.add_subparsers(
        dest="action", metavar="ACTION", parser_class=parser_class, required=True
    )
    ls = csub.add_parser("list", help="conversations, most recent first")
    ls.add_argument(
        "--space", help="those a chat in this space is given ('shared' too); default: all"
    )
    ls.add_argument("--json", action="store_true")
    ls.set_defaults(func=conversations_list)
    show = csub.add_parser("show", help="the messages of a conversation")
    show.add_argument("id", type=int)
    show.add_argument("--json", action="store_true")
    show.set_defaults(func=conversations_show)
    ex = csub.add_parser("export", help="write a conversation to a file (md or json)")
    ex.add_argument("id", type=int)
    ex.add_argument("file")
    ex.add_argument("--format", choices=("md", "json"), help="default: from the file name")
    ex.set_defaults(func=conversations_export)
    ea = csub.add_parser(
        "export-all",
        help="write every conversation to one file (json, which `import` reads back, or md)",
    )
    ea.add_argument("file")
    ea.add_argument("--format", choices=("md", "json"), help="default: from the file name")
    ea.set_defaults(func=conversations_export_all)
    de = csub.add_parser("delete", help="delete a conversation for good")
    de.add_argument("ids", type=int, nargs="+", metavar="ID")
    de.set_defaults(func=conversations_delete)
    se = csub.add_parser("search", help="search every conversation (words and meaning)")
    se.add_argument("query")
    se.add_argument("-k", type=int, default=10)
    se.add_argument("--json", action="store_true")
    se.add_argument(
        "--space", help="search what a chat in this space sees ('shared' too); default: all"
    )
    se.set_defaults(func=conversations_search)
    rn = csub.add_parser("rename", help="give a conversation a title")
    rn.add_argument("id", type=int)
    rn.add_argument("title")
    rn.set_defaults(func=conversations_rename)
    conv.set_defaults(opens_profile=True)


def _conversation_store(ctx: Context) -> Conversations:
    return ctx.app.conversations


def conversations_list(ctx: Context) -> int:
    convs = _conversation_store(ctx).list(scope=scope_of(ctx.app, ctx.args.space))
    if ctx.args.json:
        output.print_json([c.to_dict() for c in convs], ctx.out)
        return EXIT_OK
    columns = output.width()
    for c in convs:
        source = f"  ({c.source})" if c.origin else ""
        ctx.out.write(
            f"{c.id:>5} {c.updated_at[:16].replace('T', ' ')} {c.messages:>4} msgs  "
            f"{output.one_line(c.title or '(untitled)', columns - 36 - len(source))}{source}\n"
        )
    ctx.err.write(f"{len(convs)} conversations\n")
    return EXIT_OK


def conversations_export_all(ctx: Context) -> int:
    path = Path(ctx.args.file)
    fmt = ctx.args.format or ("md" if path.suffix.lower() in (".md", ".markdown") else "json")
    n = ctx.app.conversations.export_all(path, fmt)
    ctx.out.write(f"Exported {n} conversations to {path} ({fmt}). This file is not encrypted.\n")
    return EXIT_OK


def conversations_show(ctx: Context) -> int:
    store = _conversation_store(ctx)
    msgs = store.messages(ctx.args.id)
    if ctx.args.json:
        output.print_json(
            {
                "conversation": store.get(ctx.args.id).to_dict(),
                "messages": [m.to_dict() for m in msgs],
            },
            ctx.out,
        )
        return EXIT_OK
    for m in msgs:
        note = "" if m.status == "complete" else f" ({m.status})"
        ctx.out.write(f"[{m.id}] {m.role}{note}: {m.content}\n")
        if m.used:
            ctx.out.write("    memories: " + "; ".join(f"#{u.memory_id}" for u in m.used) + "\n")
    return EXIT_OK


def conversations_export(ctx: Context) -> int:
    args = ctx.args
    path = Path(args.file)
    fmt = args.format or ("json" if path.suffix.lower() == ".json" else "md")
    _conversation_store(ctx).export_to(path, args.id, fmt)
    ctx.out.write(
        f"Exported conversation {args.id} to {path} ({fmt}). This file is not encrypted.\n"
    )
    return EXIT_OK


def conversations_delete(ctx: Context) -> int:
    store, ids, out = _conversation_store(ctx), ctx.args.ids, ctx.out
    for cid in ids:
        store.get(cid)
    lent = sum(store.context_lent(cid) for cid in ids)
    total = sum(store.delete(cid) for cid in ids)
    out.write(f"Deleted {len(ids)} conversation(s) and {total} messages for good.\n")
    output.pending_erase(ctx.app, out)
    if lent:
        out.write(
            f"{lent} memories learned from them stay, without the words they quoted from them.\n"
        )
    return EXIT_OK


def conversations_search(ctx: Context) -> int:
    hits, warnings = _conversation_store(ctx).search(
        ctx.args.query, ctx.args.k, scope=scope_of(ctx.app, ctx.args.space)
    )
    output.warn(warnings, ctx.err)
    if ctx.args.json:
        output.print_json(
            [
                {
                    **h.message.to_dict(),
                    "conversation_title": h.conversation_title,
                    "score": round(h.score, 4),
                    "signals": h.signals,
                }
                for h in hits
            ],
            ctx.out,
        )
        return EXIT_OK
    columns = output.width()
    for h in hits:
        m = h.message
        ctx.out.write(
            f"{m.conversation_id:>5}/{m.id:<6} {h.score:.3f} {m.role:<9} "
            f"{output.one_line(m.content, columns - 32)}\n"
        )
    if not hits:
        ctx.err.write("No message matches.\n")
    return EXIT_OK


def conversations_rename(ctx: Context) -> int:
    c = _conversation_store(ctx).rename(ctx.args.id, ctx.args.title)
    ctx.out.write(f"Renamed {c.id}: {c.title}\n")
    return EXIT_OK
