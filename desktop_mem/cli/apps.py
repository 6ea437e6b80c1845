"""Other apps: `mcp` (desktop-mem as an MCP server over stdio) and `clients` (which apps
connected, what each may do, what each read or wrote)."""

from __future__ import annotations

import argparse
from typing import Any

from desktop_mem.cli import output
from desktop_mem.cli.context import Context
from desktop_mem.core.errors import EXIT_OK

LEVELS = ("off", "read", "write", "delete")


def add_parsers(sub: Any, parser_class: type[argparse.ArgumentParser]) -> None:
    m = sub.add_parser(
        "mcp",
        help="serve this profile's memory to other AI apps over MCP (stdio)",
        description="Run as an MCP server on stdin/stdout: the command an MCP client (Claude "
        "Desktop, Cursor, VS Code, Zed…) starts. Each app may only do what `clients allow` "
        "(or Settings > Apps in the window) lets it; new apps may read only.",
    )
    m.set_defaults(func=mcp, opens_profile=False)

    c = sub.add_parser("clients", help="the apps that used the memory over MCP, and their rights")
    csub = c.add_subparsers(
        dest="action", metavar="ACTION", parser_class=parser_class, required=True
    )
    ls = csub.add_parser("list", help="every app that connected, its permission and last use")
    ls.add_argument("--json", action="store_true")
    ls.set_defaults(func=clients_list)
    al = csub.add_parser("allow", help="set what an app may do: off, read, write or delete")
    al.add_argument("name")
    al.add_argument("level", choices=LEVELS)
    al.set_defaults(func=clients_allow)
    pa = csub.add_parser("pause", help="refuse every request from an app (level off)")
    pa.add_argument("name")
    pa.set_defaults(func=clients_pause)
    lg = csub.add_parser("log", help="what an app read and wrote (memory ids and times)")
    lg.add_argument("name")
    lg.add_argument("--clear", action="store_true", help="delete this app's log")
    lg.add_argument("--json", action="store_true")
    lg.set_defaults(func=clients_log)
    c.set_defaults(opens_profile=True, creates_profile=False)


def mcp(ctx: Context) -> int:
    """Serve a keyring profile. A passphrase profile is refused: its passphrase would have
    to sit in plain text in the app's configuration file."""
    from desktop_mem.core import paths
    from desktop_mem.core.errors import LockedError
    from desktop_mem.core.keys.vault import read_key_mode
    from desktop_mem.core.profile import Profile

    config = ctx.config
    if read_key_mode(paths.database_path(config.home, config.profile)) == "passphrase":
        raise LockedError(
            f"Profile '{config.profile}' is protected by a passphrase, and an app's "
            "configuration file is no place for it: keep its key in the system keyring "
            "(Settings > Privacy, or `desktop-mem rekey --mode keyring`) to serve it over MCP.",
            reason="mcp_passphrase",
        )
    config.passphrase = None  # never from the environment a client was started with
    from desktop_mem.mcp_server import serve

    with Profile.open(config, ctx.vault) as prof:
        serve(prof)
    return EXIT_OK


def _registry(ctx: Context) -> Any:
    from desktop_mem.core.clients import ClientRegistry

    return ClientRegistry(ctx.prof.db)


def clients_list(ctx: Context) -> int:
    clients = _registry(ctx).all()
    if ctx.args.json:
        output.print_json([c.to_dict() for c in clients], ctx.out)
        return EXIT_OK
    for c in clients:
        ctx.out.write(
            f"{c.level:<7} {c.last_seen[:16].replace('T', ' ')}  {c.reads:>5} reads "
            f"{c.writes:>4} writes  {c.name}\n"
        )
    if not clients:
        ctx.err.write("No app has connected yet (desktop-mem mcp is the command they start).\n")
    return EXIT_OK


def clients_allow(ctx: Context) -> int:
    c = _registry(ctx).set_level(ctx.args.name, ctx.args.level)
    ctx.out.write(f"{c.name} may now: {_words(c.level)}.\n")
    return EXIT_OK


def clients_pause(ctx: Context) -> int:
    c = _registry(ctx).set_level(ctx.args.name, "off")
    ctx.out.write(f"{c.name} is paused: every request it makes is refused.\n")
    return EXIT_OK


def clients_log(ctx: Context) -> int:
    registry = _registry(ctx)
    if ctx.args.clear:
        n = registry.clear_log(ctx.args.name)
        ctx.out.write(f"Cleared {n} access records of {ctx.args.name}.\n")
        return EXIT_OK
    registry.get(ctx.args.name)
    rows = registry.recent(ctx.args.name)
    if ctx.args.json:
        output.print_json(
            [{"tool": a.tool, "memory_id": a.memory_id, "at": a.at} for a in rows], ctx.out
        )
        return EXIT_OK
    for a in rows:
        target = f"memory {a.memory_id}" if a.memory_id is not None else "-"
        ctx.out.write(f"{a.at[:19].replace('T', ' ')}  {a.tool:<20} {target}\n")
    return EXIT_OK


def _words(level: str) -> str:
    return {
        "off": "nothing (paused)",
        "read": "read memories",
        "write": "read and write memories",
        "delete": "read, write and delete memories",
    }[level]
