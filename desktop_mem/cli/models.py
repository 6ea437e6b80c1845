"""`models …`: the chat models Ollama has, and pulling new ones (no profile needed)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, TextIO

from desktop_mem.cli import output
from desktop_mem.cli.context import Context
from desktop_mem.core.errors import EXIT_OK

if TYPE_CHECKING:
    from desktop_mem.cli.context import Subparsers
    from desktop_mem.core.models.llm import OllamaChat, PullProgress


def add_parsers(sub: Subparsers, parser_class: type[argparse.ArgumentParser]) -> None:
    mo = sub.add_parser("models", help="the chat models Ollama has, and pulling new ones")
    mosub = mo.add_subparsers(
        dest="action", metavar="ACTION", parser_class=parser_class, required=True
    )
    ml = mosub.add_parser("list", help="models installed in Ollama")
    ml.add_argument("--json", action="store_true")
    mp = mosub.add_parser("pull", help="download a model into Ollama, with progress")
    mp.add_argument("name")
    mo.set_defaults(func=models, opens_profile=False)


def models(ctx: Context) -> int:
    from desktop_mem.core.service.models import server, server_models

    args, config, out, err = ctx.args, ctx.config, ctx.out, ctx.err
    if args.action == "list":
        names = server_models(config.ollama_host)
        if args.json:
            output.print_json(names, out)
        else:
            out.write("".join(f"{n}\n" for n in names))
        return EXIT_OK
    return pull(server(config.ollama_host, args.name), out, err)


def pull(chat: OllamaChat, out: TextIO, err: TextIO) -> int:
    """Pull a model, showing progress; Ctrl+C cancels (Ollama keeps what it has)."""
    last = [""]

    def show(p: PullProgress) -> None:
        line = p.status
        if p.fraction is not None:
            line += f" {p.fraction * 100:5.1f}% of {p.total / 1e9:.2f} GB"
        if line != last[0]:
            err.write(("\r" if err.isatty() else "") + line + ("" if err.isatty() else "\n"))
            err.flush()
            last[0] = line

    try:
        chat.pull(show)
    except KeyboardInterrupt:
        err.write("\nPull cancelled; run it again to resume.\n")
        return 130
    err.write("\n" if err.isatty() else "")
    out.write(f"Pulled {chat.model}.\n")
    return EXIT_OK
