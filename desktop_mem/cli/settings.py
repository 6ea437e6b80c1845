"""`settings …`: show or change this profile's settings."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from desktop_mem.cli.context import Context
from desktop_mem.core.errors import EXIT_OK
from desktop_mem.core.settings import DEFAULTS

if TYPE_CHECKING:
    from desktop_mem.cli.context import Subparsers


def add_parsers(sub: Subparsers, parser_class: type[argparse.ArgumentParser]) -> None:
    st = sub.add_parser("settings", help="show or change this profile's settings")
    ssub = st.add_subparsers(dest="action", metavar="ACTION", parser_class=parser_class)
    ssub.add_parser("list", help="every setting (the default action)")
    g = ssub.add_parser("set", help="change a setting")
    g.add_argument("key", choices=list(DEFAULTS))
    g.add_argument("value")
    st.set_defaults(func=settings, opens_profile=True)


def settings(ctx: Context) -> int:
    args, out, err = ctx.args, ctx.out, ctx.err
    s = ctx.app.settings
    if getattr(args, "action", None) == "set":
        s.set(args.key, args.value)
        if args.key == "openai_enabled" and s.get("openai_enabled"):
            err.write(
                "notice: with the OpenAI-compatible backend on, your messages and the memories "
                "retrieved for them are sent to that server.\n"
            )
        out.write(f"{args.key} = {s.all()[args.key]}\n")
        return EXIT_OK
    for k, v in s.all().items():
        out.write(f"{k:<20} {'' if v is None else v}\n")
    return EXIT_OK
