"""`about …`: what the model knows about you, the short profile given in every prompt
(show, edit a line, remove a line, off, on, rewrite). Named `about` rather than
`profile`, which `--profile` already means: the encrypted store itself."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from desktop_mem.cli import output
from desktop_mem.cli.context import Context
from desktop_mem.core.errors import EXIT_OK

if TYPE_CHECKING:
    from desktop_mem.cli.context import Subparsers
    from desktop_mem.core.jsontypes import JSONObject
    from desktop_mem.core.memory.about import AboutLine


def add_parsers(sub: Subparsers, parser_class: type[argparse.ArgumentParser]) -> None:
    ab = sub.add_parser(
        "about",
        help="what the model knows about you: a short profile in every prompt, each line "
        "citing the memories it came from",
    )
    ab.set_defaults(opens_profile=True)
    asub = ab.add_subparsers(
        dest="action", metavar="ACTION", parser_class=parser_class, required=True
    )
    sh = asub.add_parser("show", help="the profile's lines and the memories each cites")
    sh.add_argument("--json", action="store_true")
    sh.set_defaults(func=show)

    e = asub.add_parser(
        "edit", help="put a line in your own words (kept as written, never rewritten)"
    )
    e.add_argument("line", type=int, help="the line's number, as `about show` gives it")
    e.add_argument("text")
    e.add_argument("--json", action="store_true")
    e.set_defaults(func=edit)

    r = asub.add_parser("remove", help="remove a line (a rewrite does not bring it back)")
    r.add_argument("line", type=int)
    r.set_defaults(func=remove)

    for name, text in (
        ("on", "give the profile to the model in every prompt and keep it up to date"),
        ("off", "neither give the profile nor write it"),
    ):
        x = asub.add_parser(name, help=text)
        x.set_defaults(func=set_enabled)

    rw = asub.add_parser("rewrite", help="write it again now from your current memories")
    rw.add_argument("--json", action="store_true")
    rw.set_defaults(func=rewrite)


def _line(ln: AboutLine) -> JSONObject:
    return {**ln.to_dict(), "edited": ln.edited}


def show(ctx: Context) -> int:
    about = ctx.app.about
    lines = about.lines()
    if ctx.args.json:
        output.print_json(
            {
                "on": about.enabled,
                "tokens": about.tokens(),
                "written_at": about.written_at(),
                "lines": [_line(ln) for ln in lines],
            },
            ctx.out,
        )
        return EXIT_OK
    if not about.enabled:
        ctx.out.write("Off: the model is not given this and it is not kept up to date.\n")
    if not lines:
        ctx.out.write(
            "Nothing yet: it is written from your memories while you are away, or now "
            "with `desktop-mem about rewrite`.\n"
        )
        return EXIT_OK
    columns = output.width()
    for ln in lines:
        mark = " (yours)" if ln.edited else ""
        cites = ", ".join(f"#{c}" for c in ln.cites)
        ctx.out.write(f"{ln.id:>4}  {output.one_line(ln.text, columns - 30)}{mark}  [{cites}]\n")
    if about.enabled:
        ctx.out.write(f"{about.tokens()} tokens in every prompt.\n")
    return EXIT_OK


def edit(ctx: Context) -> int:
    ln = ctx.app.about.edit(ctx.args.line, ctx.args.text)
    if ctx.args.json:
        output.print_json(_line(ln), ctx.out)
    else:
        ctx.out.write(f"Line {ln.id} is in your words now; a rewrite keeps it as it is.\n")
    return EXIT_OK


def remove(ctx: Context) -> int:
    ctx.app.about.remove(ctx.args.line)
    ctx.out.write(f"Removed line {ctx.args.line}; a rewrite does not bring it back.\n")
    output.pending_erase(ctx.app, ctx.out)
    return EXIT_OK


def set_enabled(ctx: Context) -> int:
    on = ctx.args.action == "on"
    ctx.app.about.set_enabled(on)
    ctx.out.write(
        "On: the model is given it in every prompt.\n"
        if on
        else "Off: the model is not given it, and it is not written.\n"
    )
    return EXIT_OK


def rewrite(ctx: Context) -> int:
    done = ctx.app.about.rewrite()
    if ctx.args.json:
        output.print_json(
            {"lines": len(done.lines), "tokens": ctx.app.about.tokens(), "dropped": done.dropped},
            ctx.out,
        )
    else:
        n = len(done.lines)
        ctx.out.write(f"Rewritten: {n} {'line' if n == 1 else 'lines'} from your memories.\n")
    return EXIT_OK
