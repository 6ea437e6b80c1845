"""`docs …`: the user's documents as a knowledge tier (add, list, move, remove,
reindex, search, folders, unwatch). Names from the disk are printed with their control
characters escaped: a file name cannot move the cursor or ring the terminal's bell."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from desktop_mem.cli import output
from desktop_mem.cli.context import Context
from desktop_mem.cli.spaces import scope_of, space_of
from desktop_mem.core.errors import EXIT_ERROR, EXIT_OK, NotFound, UsageError

if TYPE_CHECKING:
    from desktop_mem.cli.context import Subparsers
    from desktop_mem.core.documents.records import AddReport
    from desktop_mem.core.service.documents import Documents


def add_parsers(sub: Subparsers, parser_class: type[argparse.ArgumentParser]) -> None:
    d = sub.add_parser(
        "docs",
        help="your documents (Markdown, text, PDF, Word, HTML) as knowledge for the chat",
        description="Documents are read, cut into passages and stored encrypted in the "
        "profile; relevant passages go into the chat's prompt, labelled with their file "
        "and page. The files themselves are never changed.",
    )
    dsub = d.add_subparsers(
        dest="action", metavar="ACTION", parser_class=parser_class, required=True
    )
    a = dsub.add_parser("add", help="add files or folders (a folder is watched: see reindex)")
    a.add_argument("paths", nargs="+", metavar="PATH")
    a.add_argument("--space", help="the space they go to (default: the shared space)")
    a.add_argument("--json", action="store_true")
    a.set_defaults(func=add)
    mv = dsub.add_parser(
        "move", help="move documents, or a watched folder with its documents, to a space"
    )
    mv.add_argument("ids", type=int, nargs="*", metavar="ID")
    mv.add_argument("--folder", action="append", default=[], metavar="FOLDER",
                    help="a watched folder (its documents move with it)")  # fmt: skip
    mv.add_argument("--to", required=True, metavar="SPACE",
                    help="the space's name or number, or 'shared'")  # fmt: skip
    mv.set_defaults(func=move)
    ls = dsub.add_parser("list", help="the documents, with their passages and pages")
    ls.add_argument(
        "--space", help="only what a chat in this space is given ('shared' too); default: all"
    )
    ls.add_argument("--json", action="store_true")
    ls.set_defaults(func=list_)
    fo = dsub.add_parser("folders", help="the watched folders, and what each holds")
    fo.add_argument("--json", action="store_true")
    fo.set_defaults(func=folders)
    uw = dsub.add_parser(
        "unwatch", help="stop watching a folder (its documents are removed, or kept with --keep)"
    )
    uw.add_argument("folder")
    uw.add_argument(
        "--keep", action="store_true", help="keep its documents, as files no longer watched"
    )
    uw.set_defaults(func=unwatch)
    rm = dsub.add_parser(
        "remove",
        help="remove documents and every passage of them, for good (a watched folder's "
        "re-reading leaves them out until you add the file again)",
    )
    rm.add_argument("ids", type=int, nargs="+", metavar="ID")
    rm.set_defaults(func=remove)
    ri = dsub.add_parser(
        "reindex", help="re-read changed files, add new ones in watched folders, drop gone ones"
    )
    ri.set_defaults(func=reindex)
    se = dsub.add_parser("search", help="search the documents' passages (words and meaning)")
    se.add_argument("query")
    se.add_argument("-k", type=int, default=5)
    se.add_argument("--all", action="store_true", help="the best k, relevant or not")
    se.add_argument(
        "--space", help="search what a chat in this space is given ('shared' too); default: all"
    )
    se.add_argument("--json", action="store_true")
    se.set_defaults(func=search)
    d.set_defaults(opens_profile=True)


def _store(ctx: Context) -> Documents:
    return ctx.app.documents


def _report(report: AddReport, ctx: Context, as_json: bool) -> int:
    if as_json:
        output.print_json(
            {
                "added": report.added, "updated": report.updated, "unchanged": report.unchanged,
                "removed": report.removed, "refused": report.refused,
                "left_out": report.left_out, "passages": report.passages, "pages": report.pages,
                "unavailable": report.unavailable,
                "elsewhere": [
                    {**e.to_dict(), "space_name": _space_name(ctx, e.space)}
                    for e in report.elsewhere
                ],
                "stopped": str(report.stopped) if report.stopped else None,
            },
            ctx.out,
        )  # fmt: skip
    else:
        for line in [*report.refused, *report.unavailable]:
            ctx.err.write(f"desktop-mem: {output.safe(line)}\n")
        for line in _elsewhere(report, ctx):  # names from the disk and the user: escaped
            ctx.err.write(f"desktop-mem: {line}\n")
        left = f", {len(report.left_out)} left out (removed by you)" if report.left_out else ""
        ctx.out.write(
            f"{len(report.added)} added, {len(report.updated)} updated, "
            f"{len(report.unchanged)} unchanged, {len(report.removed)} removed "
            f"({report.passages} passages); {len(report.refused)} not added{left}.\n"
        )
    if report.stopped is not None:  # a full disk: every later file would fail too
        ctx.err.write(
            f"desktop-mem: {report.stopped} The files before it were added; run this again "
            "once there is room.\n"
        )
        return int(report.stopped.exit_code)
    # an error only when nothing named could be indexed: a folder that holds one bad file
    # among good ones (for ever, perhaps) is not a failing command
    indexed = report.added or report.updated or report.unchanged or report.left_out
    return EXIT_ERROR if report.refused and not indexed else EXIT_OK


def _space_name(ctx: Context, space: int | None) -> str | None:
    return None if space is None else ctx.app.spaces.get(space).name


def _elsewhere(report: AddReport, ctx: Context) -> list[str]:
    """One sentence for each file or folder that stays in the space it was in, with the
    command that moves it to the space asked (runnable as printed, names and all)."""
    if not report.elsewhere:
        return []
    asked = getattr(ctx.args, "space", None)
    to = output.option("--to", _space_name(ctx, space_of(ctx.app, asked)) or "shared")
    lines = []
    for e in report.elsewhere:
        where = (
            "the shared space"
            if e.space is None
            else f"the space '{output.safe(_space_name(ctx, e.space) or '')}'"
        )
        name = output.safe(e.path)
        if e.folder == e.path:
            lines.append(
                f"The folder {name} was added before, to {where}: it stays there with its "
                f"files (`docs move --folder {output.shell_word(e.path)} {to}` moves it)."
            )
        elif e.folder is not None:
            lines.append(
                f"{name} is in the watched folder {output.safe(e.folder)}, which is in "
                f"{where}: it stays there (`docs move --folder {output.shell_word(e.folder)} "
                f"{to}` moves the folder)."
            )
        else:
            lines.append(
                f"{name} was added before, to {where}: it stays there "
                f"(`docs move {e.document} {to}` moves it)."
            )
    return lines


def add(ctx: Context) -> int:
    from desktop_mem.core.documents.records import AddReport

    store = _store(ctx)
    space = space_of(ctx.app, ctx.args.space)
    total = AddReport()
    for raw in ctx.args.paths:
        total.extend(
            store.add(Path(raw), progress=output.progress(ctx.err, "Reading"), space=space)
        )
    return _report(total, ctx, ctx.args.json)


def list_(ctx: Context) -> int:
    docs = _store(ctx).list(scope_of(ctx.app, ctx.args.space))
    if ctx.args.json:
        output.print_json([d.to_dict() for d in docs], ctx.out)
        return EXIT_OK
    for d in docs:
        pages = f"{d.pages} pages, " if d.pages else ""
        ctx.out.write(
            f"{d.id:>5}  {d.kind:<8} {pages}{d.passages} passages  {output.safe(d.path)}\n"
        )
    ctx.err.write(f"{len(docs)} documents\n")
    return EXIT_OK


def move(ctx: Context) -> int:
    if not ctx.args.ids and not ctx.args.folder:
        raise UsageError("Name the documents (their numbers) or a --folder to move.")
    store = _store(ctx)
    space = space_of(ctx.app, ctx.args.to)
    ids = list(dict.fromkeys(ctx.args.ids))  # one named twice moves once
    for doc_id in ids:  # every one known, and on its own, before anything moves
        doc = store.get(doc_id)
        if doc.folder is not None:
            raise UsageError(
                f"Document {doc_id} is in the watched folder {output.safe(doc.folder)}: move "
                f"the folder (`docs move --folder {output.shell_word(doc.folder)} "
                f"{output.option('--to', _space_name(ctx, space) or 'shared')}`)."
            )
    known = {f.path for f in store.folders()}
    folders: list[str] = []
    for named in ctx.args.folder:
        folder = named if named in known else str(Path(named).expanduser().resolve())
        if folder not in known:
            raise NotFound(
                f"{output.safe(named)} is not a watched folder: `docs folders` lists them.",
                reason="folder_unknown",
            )
        if folder not in folders:
            folders.append(folder)
    for doc_id in ids:
        store.move(doc_id, space)
    moved = sum(store.move_folder(folder, space) for folder in folders)
    where = "the shared space" if space is None else f"'{_space_name(ctx, space)}'"
    n = len(ids) + moved
    with_folders = (
        f" ({moved} of them with {len(folders)} watched "
        f"{'folder' if len(folders) == 1 else 'folders'})"
        if folders
        else ""
    )
    ctx.out.write(
        output.safe(f"Moved {n} {'document' if n == 1 else 'documents'}{with_folders} to {where}.")
        + "\n"
    )
    return EXIT_OK


def remove(ctx: Context) -> int:
    store = _store(ctx)
    for doc_id in ctx.args.ids:
        store.get(doc_id)
    n = sum(store.remove(doc_id) for doc_id in ctx.args.ids)
    ctx.out.write(f"Removed {len(ctx.args.ids)} document(s) and their {n} passages for good.\n")
    output.pending_erase(ctx.app, ctx.out)
    return EXIT_OK


def folders(ctx: Context) -> int:
    found = _store(ctx).folders()
    if ctx.args.json:
        output.print_json([f.to_dict() for f in found], ctx.out)
        return EXIT_OK
    for f in found:
        left = f", {f.left_out} left out (removed by you)" if f.left_out else ""
        ctx.out.write(f"{f.documents:>5} documents{left}  {output.safe(f.path)}\n")
    if not found:
        ctx.err.write("No folder is watched: `docs add FOLDER` adds one.\n")
    return EXIT_OK


def unwatch(ctx: Context) -> int:
    n = _store(ctx).unwatch(ctx.args.folder, keep_documents=ctx.args.keep)
    what = (
        f"its {n} document(s) stay, no longer re-read"
        if ctx.args.keep
        else f"its {n} document(s) and their passages are removed for good"
    )
    ctx.out.write(f"No longer watching {output.safe(ctx.args.folder)}: {what}.\n")
    if not ctx.args.keep:
        output.pending_erase(ctx.app, ctx.out)
    return EXIT_OK


def reindex(ctx: Context) -> int:
    return _report(_store(ctx).sync(progress=output.progress(ctx.err, "Reading")), ctx, False)


def search(ctx: Context) -> int:
    if ctx.args.k < 1:
        raise UsageError("-k must be at least 1.")
    hits = _store(ctx).search(
        ctx.args.query, ctx.args.k, relevant_only=not ctx.args.all,
        scope=scope_of(ctx.app, ctx.args.space),
    )  # fmt: skip
    if ctx.args.json:
        output.print_json([h.to_dict() for h in hits], ctx.out)
        return EXIT_OK
    columns = output.width()
    for h in hits:
        where = output.safe(h.where())
        ctx.out.write(f"{h.score:.3f}  {where}: {output.one_line(h.text, columns - 40)}\n")
    if not hits:
        ctx.err.write("No passage matches: none is about this (--all lists the nearest anyway).\n")
    return EXIT_OK
