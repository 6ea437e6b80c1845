"""`spaces …`: memory kept apart by project (list, add, edit, remove). A space sees the
shared space's memories unless it is kept apart; nothing in one space is ever given in
another's chats, searches or apps."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from desktop_mem.cli import output
from desktop_mem.cli.context import Context
from desktop_mem.core.errors import EXIT_OK, UsageError

if TYPE_CHECKING:
    from desktop_mem.cli.context import Subparsers
    from desktop_mem.core.memory.spaces import Scope
    from desktop_mem.core.service import Service


def add_parsers(sub: Subparsers, parser_class: type[argparse.ArgumentParser]) -> None:
    sp = sub.add_parser(
        "spaces", help="memory kept apart by project: list, add, edit and remove spaces"
    )
    sp.set_defaults(opens_profile=True)
    ssub = sp.add_subparsers(
        dest="action", metavar="ACTION", parser_class=parser_class, required=True
    )
    ls = ssub.add_parser("list", help="the spaces, with how many memories and chats each holds")
    ls.add_argument("--json", action="store_true")
    ls.set_defaults(func=list_)

    a = ssub.add_parser("add", aliases=["create"], help="make a space")
    a.add_argument("name")
    a.add_argument("--instruction", default="", help="given with your own in its chats")
    a.add_argument(
        "--apart",
        action="store_true",
        help="kept apart: it neither reads nor adds to the shared space",
    )
    a.add_argument("--json", action="store_true")
    a.set_defaults(func=add)

    e = ssub.add_parser("edit", help="rename a space, or change its instruction or its choice")
    e.add_argument("space", help="its name or number")
    e.add_argument("--name")
    e.add_argument("--instruction")
    apart = e.add_mutually_exclusive_group()
    apart.add_argument("--apart", dest="apart", action="store_true", default=None,
                       help="keep it apart from the shared space")  # fmt: skip
    apart.add_argument("--sees-shared", dest="apart", action="store_false",
                       help="let it see the shared space's memories")  # fmt: skip
    e.add_argument("--json", action="store_true")
    e.set_defaults(func=edit)

    rn = ssub.add_parser("rename", help="give a space another name")
    rn.add_argument("space", help="its name or number")
    rn.add_argument("name")
    rn.add_argument("--json", action="store_true")
    rn.set_defaults(func=rename)

    r = ssub.add_parser("remove", help="take out a space, moving or deleting what it holds")
    r.add_argument("space", help="its name or number")
    what = r.add_mutually_exclusive_group(required=True)
    what.add_argument("--move", dest="contents", action="store_const", const="move",
                      help="move its memories, chats and documents to the shared space")  # fmt: skip
    what.add_argument("--delete", dest="contents", action="store_const", const="delete",
                      help="delete them for good, everywhere")  # fmt: skip
    r.add_argument("--yes", action="store_true", help="confirm deleting (cannot be undone)")
    r.add_argument("--json", action="store_true")
    r.set_defaults(func=remove)


def space_of(app: Service, name: str | None) -> int | None:
    """The space a command line names (None: the shared space)."""
    return app.spaces.named(name)


def scope_of(app: Service, name: str | None) -> Scope:
    """What a reader in the named space sees; every space when none is named (the
    person's own view)."""
    if name is None:
        return app.spaces.every()
    return app.spaces.scope(space_of(app, name))


def list_(ctx: Context) -> int:
    spaces = ctx.app.spaces.list()
    counts = ctx.app.spaces.counts()
    if ctx.args.json:
        output.print_json(
            [
                {
                    **s.to_dict(),
                    "memories": counts.get(s.id, (0, 0))[0],
                    "conversations": counts.get(s.id, (0, 0))[1],
                }
                for s in spaces
            ],  # fmt: skip
            ctx.out,
        )
        return EXIT_OK
    shared = counts.get(None, (0, 0))
    ctx.out.write(f"{'shared':<24} {shared[0]:>6} memories {shared[1]:>5} chats\n")
    for s in spaces:
        mems, chats = counts.get(s.id, (0, 0))
        note = "  kept apart" if s.apart else ""
        name = output.one_line(s.name, 24)
        ctx.out.write(f"{name:<24} {mems:>6} memories {chats:>5} chats  #{s.id}{note}\n")
    return EXIT_OK


def _said(ctx: Context, verb: str, space_id: int) -> int:
    space = ctx.app.spaces.get(space_id)
    if ctx.args.json:
        output.print_json(space.to_dict(), ctx.out)
    else:
        apart = " (kept apart)" if space.apart else ""
        ctx.out.write(f"{verb} space #{space.id}: {space.name}{apart}\n")
    return EXIT_OK


def add(ctx: Context) -> int:
    args = ctx.args
    space = ctx.app.spaces.create(args.name, args.instruction, args.apart)
    return _said(ctx, "Made", space.id)


def edit(ctx: Context) -> int:
    args = ctx.args
    if args.name is None and args.instruction is None and args.apart is None:
        raise UsageError("Nothing to change: give --name, --instruction, --apart or --sees-shared.")
    space = ctx.app.spaces.find(args.space)
    ctx.app.spaces.change(space.id, name=args.name, instruction=args.instruction, apart=args.apart)
    return _said(ctx, "Changed", space.id)


def rename(ctx: Context) -> int:
    space = ctx.app.spaces.find(ctx.args.space)
    ctx.app.spaces.change(space.id, name=ctx.args.name)
    return _said(ctx, "Renamed", space.id)


def remove(ctx: Context) -> int:
    args = ctx.args
    space = ctx.app.spaces.find(args.space)
    if args.contents == "delete" and not args.yes:
        raise UsageError(
            f"This deletes everything in the space '{space.name}' for good, on every "
            "computer this profile syncs with: run again with --yes to confirm, or use "
            "--move to keep it in the shared space."
        )
    done = ctx.app.spaces.remove(space.id, args.contents)
    if args.json:
        output.print_json(
            {"removed": space.name, "moved": done.moved, "memories": done.memories,
             "conversations": done.conversations, "documents": done.documents,
             "folders": done.folders},
            ctx.out,
        )  # fmt: skip
        return EXIT_OK
    verb = "moved to the shared space" if done.moved else "deleted for good"
    ctx.out.write(
        f"Removed the space '{space.name}': {done.memories} memories, "
        f"{done.conversations} chats and {done.documents + done.folders} documents or "
        f"folders {verb}.\n"
    )
    if not done.moved:
        output.pending_erase(ctx.app, ctx.out)
    return EXIT_OK
