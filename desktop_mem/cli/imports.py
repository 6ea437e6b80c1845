"""`import FILE` (another assistant's export: what it holds is said before anything is
written) and `review …` (the facts found in imported history, proposed: list, read more
of the history for them, accept, edit, reject)."""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from desktop_mem.cli import output
from desktop_mem.cli.context import Context
from desktop_mem.cli.spaces import space_of
from desktop_mem.core.errors import EXIT_OK, UsageError

if TYPE_CHECKING:
    from desktop_mem.cli.context import Subparsers


def add_parsers(sub: Subparsers, parser_class: type[argparse.ArgumentParser]) -> None:
    im = sub.add_parser(
        "import",
        help="bring in ChatGPT's or Claude's export (the zip, the folder it was unpacked "
        "into, or its conversations files), mem0 or OpenMemory JSON, or a pasted list of "
        "memories: conversations become searchable history, facts are proposed for review; "
        "a file that cannot be read whole is refused and nothing of it imported",
    )
    im.add_argument("file", help="the export: a zip, a folder or a file")
    im.add_argument("--dry-run", action="store_true", help="say what the file holds; write nothing")
    im.add_argument(
        "--since", metavar="DATE", help="only conversations active since DATE (YYYY-MM-DD)"
    )
    im.add_argument(
        "--no-facts", action="store_true", help="import the conversations without proposing facts"
    )
    im.add_argument(
        "--facts-since",
        metavar="DATE",
        help="read only your messages since DATE (YYYY-MM-DD) for facts, say the last year",
    )
    im.add_argument(
        "--use-instructions",
        action="store_true",
        help="make the export's custom instructions this profile's instructions",
    )
    im.add_argument(
        "--space",
        help="the space its conversations and facts go to (default: the shared space); "
        "a project still gets a space of its own",
    )
    im.add_argument("--json", action="store_true")
    im.set_defaults(func=import_file, opens_profile=True)

    rv = sub.add_parser("review", help="facts found in imported history: accept or reject them")
    rsub = rv.add_subparsers(dest="action", metavar="ACTION", parser_class=parser_class)
    ls = rsub.add_parser("list", help="the facts waiting for review (the default)")
    ls.add_argument("--json", action="store_true")
    ls.set_defaults(func=review_list)
    rd = rsub.add_parser(
        "read", help="read imported messages for facts with the chat model (resumable)"
    )
    rd.add_argument("--limit", type=int, help="read at most this many messages")
    rd.add_argument("--json", action="store_true")
    rd.set_defaults(func=review_read)
    ac = rsub.add_parser("accept", help="make proposed facts memories")
    ac.add_argument("ids", type=int, nargs="*", metavar="ID")
    ac.add_argument("--all", action="store_true", help="every fact waiting")
    ac.add_argument("--text", help="accept one fact as edited to this text")
    ac.set_defaults(func=review_accept)
    rj = rsub.add_parser("reject", help="reject proposed facts (they are not proposed again)")
    rj.add_argument("ids", type=int, nargs="*", metavar="ID")
    rj.add_argument("--all", action="store_true", help="every fact waiting")
    rj.set_defaults(func=review_reject)
    rv.set_defaults(func=review_list, opens_profile=True, json=False)


def timed_progress(err: Any, what: str) -> Callable[[int, int], None] | None:
    """On a terminal: "Importing conversations 120/1,000, about 40 s left" (Ctrl+C stops;
    what was stored stays, and the same command goes on from there)."""
    if not err.isatty():
        return None
    started = time.monotonic()

    def show(done: int, total: int) -> None:
        left = ""
        elapsed = time.monotonic() - started
        if 0 < done < total and elapsed > 2:
            secs = elapsed / done * (total - done)
            left = (
                f", about {secs / 60:.0f} min left" if secs >= 90 else f", about {secs:.0f} s left"
            )
        err.write(f"\r{what} {done:,}/{total:,}{left}\x1b[K")
        if done >= total:
            err.write("\n")
        err.flush()

    return show


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n:,} {one if n == 1 else many or one + 's'}"


def found_sentence(s: Any) -> str:
    parts = []
    if s.conversations or s.already or s.empty:
        span = f" from {s.first[:10]} to {s.last[:10]}" if s.first and s.last else ""
        parts.append(
            f"{_plural(s.conversations, 'new conversation')} "
            f"({_plural(s.messages, 'message')}){span}"
        )
        if s.already:
            parts.append(f"{_plural(s.already, 'conversation')} imported before")
        if s.empty:
            parts.append(f"{_plural(s.empty, 'empty conversation')}")
    if s.memories:
        parts.append(_plural(s.memories, "memory", "memories"))
    if s.about:
        parts.append(f"{_plural(s.about, 'fact')} you told it about yourself (proposed for review)")
    if s.instructions:
        parts.append("custom instructions")
    if s.projects:
        parts.append(
            f"{_plural(s.projects, 'project')} (their documents kept with their conversations)"
        )
    if s.spaces:
        parts.append(f"{_plural(s.spaces, 'project')} imported into a space each")
    if s.skipped:
        parts.append(
            f"{_plural(s.skipped, 'entry', 'entries')} in a form this app does not know (skipped)"
        )
    return f"Found in {s.label}'s export: " + ("; ".join(parts) or "nothing to import") + "."


def import_file(ctx: Context) -> int:
    args, out, app = ctx.args, ctx.out, ctx.app
    path = Path(args.file)
    space = space_of(app, args.space)
    survey = app.imports.survey(path, args.since)
    if args.dry_run:
        if args.json:
            output.print_json({"found": survey.to_dict(), "imported": None}, out)
        else:
            out.write(found_sentence(survey) + " Nothing was written (--dry-run).\n")
        return EXIT_OK
    if not args.json:
        out.write(found_sentence(survey) + "\n")
    done, warnings = app.imports.run(
        path,
        propose=not args.no_facts,
        since=args.since,
        progress=timed_progress(ctx.err, "Importing conversations"),
        index_progress=timed_progress(ctx.err, "Indexing messages"),
        total=survey.conversations + survey.already + survey.empty + survey.projects,
        facts_since=args.facts_since,
        surveyed=survey,
        space=space,
    )
    if args.use_instructions and survey.instructions:
        app.imports.use_instructions(survey.instructions)
    output.warn(warnings, ctx.err)
    if args.json:
        output.print_json(
            {"found": survey.to_dict(), "imported": done.to_dict() | {"space": space}}, out
        )
        return EXIT_OK
    if done.conversations:
        into = f" into {app.spaces.get(space).name}" if space is not None else ""
        out.write(
            f"Imported {_plural(done.conversations, 'conversation')} "
            f"({_plural(done.messages, 'message')}){into}, each dated as it was written.\n"
        )
    elif done.already:
        out.write("No new conversations: those in the file were imported before.\n")
    if done.proposed:
        out.write(
            f"{_plural(done.proposed, 'memory', 'memories')} proposed: see `desktop-mem review`.\n"
        )
    if done.to_read and not args.no_facts:
        out.write(
            f"{_plural(done.to_read, 'message')} of yours wait to be read for facts about you: "
            "`desktop-mem review read` does it with the chat model, and you accept or reject "
            "what it finds.\n"
        )
    if survey.instructions and not args.use_instructions:
        out.write(
            "The export holds custom instructions: --use-instructions makes them this "
            "profile's instructions.\n"
        )
    return EXIT_OK


def review_list(ctx: Context) -> int:
    app, out = ctx.app, ctx.out
    waiting = app.imports.proposals()
    names = {s.id: s.name for s in app.spaces.list()}
    if ctx.args.json:
        output.print_json(
            {
                "waiting": [
                    p.to_dict()
                    | {"space_name": "shared" if p.space is None else names.get(p.space)}
                    for p in waiting
                ],
                "to_read": app.imports.to_read(),
            },
            out,
        )
        return EXIT_OK
    columns = output.width()
    kind = None
    for p in waiting:
        if p.kind != kind:
            kind = p.kind
            out.write(f"{kind}:\n")
        dup = "  (already a memory)" if p.duplicate_of else ""
        out.write(f"{p.id:>5}  {output.one_line(p.text, columns - 40)}  [{p.source}]{dup}\n")
        if names:  # where accepting it adds it, once the profile has spaces
            where = names.get(p.space) if p.space is not None else None
            space = f"the space {output.one_line(where, 60)}" if where else "the shared space"
            out.write(f"{'':>5}    goes to: {space}\n")
        if p.replaces:
            line = output.one_line(p.replaces["text"], columns - 30)
            out.write(f"{'':>5}    replaces: {line} ({p.replaces['date']})\n")
        if p.replaced_by:
            line = output.one_line(p.replaced_by["text"], columns - 50)
            out.write(f"{'':>5}    replaced by: {line} ({p.replaced_by['date']}), kept as past\n")
    if not waiting:
        out.write("No facts wait for review.\n")
    else:
        out.write(
            f"{_plural(len(waiting), 'fact')} to review: `desktop-mem review accept ID...` "
            "(or --all), `review reject ID...` (or --all), `review accept ID --text ...` to edit.\n"
        )
    left = app.imports.to_read()
    if left:
        out.write(
            f"{_plural(left, 'imported message')} still to read: `desktop-mem review read`.\n"
        )
    return EXIT_OK


def review_read(ctx: Context) -> int:
    app = ctx.app
    done = app.imports.propose_facts(
        limit=ctx.args.limit, progress=timed_progress(ctx.err, "Reading messages")
    )
    if ctx.args.json:
        output.print_json(vars(done), ctx.out)
        return EXIT_OK
    ctx.out.write(
        f"Read {_plural(done.read, 'message')}: {_plural(done.proposed, 'fact')} proposed"
        + (f"; {_plural(done.left, 'message')} still to read" if done.left else "")
        + ".\n"
    )
    if done.failed:
        ctx.err.write(
            "The model server failed, so reading stopped; run this again once it answers: "
            "nothing was lost.\n"
        )
    return EXIT_OK


def _ids(ctx: Context) -> list[int] | None:
    if ctx.args.all == bool(ctx.args.ids):
        raise UsageError("Name the facts by their ids (see `desktop-mem review`), or give --all.")
    return None if ctx.args.all else list(ctx.args.ids)


def review_accept(ctx: Context) -> int:
    ids = _ids(ctx)
    made = ctx.app.imports.accept(ids, ctx.args.text)
    ctx.out.write(f"Accepted: {_plural(len(made), 'new memory', 'new memories')}.\n")
    return EXIT_OK


def review_reject(ctx: Context) -> int:
    n = ctx.app.imports.reject(_ids(ctx))
    ctx.out.write(f"Rejected {_plural(n, 'fact')}.\n")
    return EXIT_OK
