"""Other apps: `mcp` (desktop-mem as an MCP server over stdio) and `clients` (the apps
registered to use the memory, their keys and rights, what each read or wrote)."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING

from desktop_mem.cli import output
from desktop_mem.cli.context import Context
from desktop_mem.core.errors import EXIT_OK

if TYPE_CHECKING:
    from desktop_mem.cli.context import Subparsers
    from desktop_mem.core.clients import App, ClientRegistry

LEVELS = ("off", "read", "write", "delete")
UNREGISTERED = "unregistered"  # `clients log unregistered`: the apps without a key


def add_parsers(sub: Subparsers, parser_class: type[argparse.ArgumentParser]) -> None:
    m = sub.add_parser(
        "mcp",
        help="serve this profile's memory to other AI apps over MCP (stdio)",
        description="Run as an MCP server on stdin/stdout: the command an MCP client (Claude "
        "Desktop, Cursor, VS Code, Zed…) starts. An app is known by the key in its "
        "configuration (DESKTOP_MEM_APP_KEY, from `clients add`), and may only do what "
        "`clients allow` (or Settings > Apps in the window) lets it; an app without a key "
        "may only read, or nothing (`clients unregistered off`).",
    )
    m.set_defaults(func=mcp, opens_profile=False)

    c = sub.add_parser(
        "clients", help="the apps that may use the memory over MCP, and their rights"
    )
    csub = c.add_subparsers(
        dest="action", metavar="ACTION", parser_class=parser_class, required=True
    )
    ad = csub.add_parser(
        "add", help="register an app: prints the MCP configuration (with its key) to paste"
    )
    ad.add_argument("name", help="your name for the app, e.g. 'Claude Desktop'")
    ad.add_argument("--level", choices=LEVELS, default="read", help="what it may do (read)")
    ad.add_argument("--json", action="store_true")
    ad.set_defaults(func=clients_add)
    rn = csub.add_parser("renew", help="give an app a new key (the old one stops working)")
    rn.add_argument("name")
    rn.add_argument("--json", action="store_true")
    rn.set_defaults(func=clients_renew)
    rm = csub.add_parser("remove", help="unregister an app: its key stops working, its log goes")
    rm.add_argument("name")
    rm.set_defaults(func=clients_remove)
    ls = csub.add_parser("list", help="every registered app, its permission and last use")
    ls.add_argument("--json", action="store_true")
    ls.set_defaults(func=clients_list)
    al = csub.add_parser("allow", help="set what an app may do: off, read, write or delete")
    al.add_argument("name")
    al.add_argument("level", choices=LEVELS)
    al.set_defaults(func=clients_allow)
    sp = csub.add_parser(
        "spaces",
        help="show, or set, the spaces an app may use (it sees nothing of the others)",
    )
    sp.add_argument("name")
    sp.add_argument(
        "spaces", nargs="*", metavar="SPACE", help="names or numbers of spaces; 'shared' too"
    )
    sp.add_argument("--json", action="store_true")
    sp.set_defaults(func=clients_spaces)
    pa = csub.add_parser("pause", help="refuse every request from an app (level off)")
    pa.add_argument("name")
    pa.set_defaults(func=clients_pause)
    un = csub.add_parser("unregistered", help="what apps without a key may do: read or off")
    un.add_argument("level", choices=("read", "off"))
    un.set_defaults(func=clients_unregistered)
    lg = csub.add_parser(
        "log", help="what an app read and wrote (memory ids and times); 'unregistered' for "
        "the apps without a key"
    )  # fmt: skip
    lg.add_argument("name")
    lg.add_argument("--clear", action="store_true", help="delete this app's log")
    lg.add_argument("--json", action="store_true")
    lg.set_defaults(func=clients_log)
    c.set_defaults(opens_profile=True, creates_profile=False)


def mcp(ctx: Context) -> int:
    """Serve a keyring profile. A passphrase profile is refused: its passphrase would have
    to sit in plain text in the app's configuration file."""
    from desktop_mem.core import paths
    from desktop_mem.core.clients import APP_KEY_ENV
    from desktop_mem.core.errors import KeyringUnavailable, LockedError
    from desktop_mem.core.keys.vault import read_key_mode
    from desktop_mem.core.service import Service

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

    try:
        app = Service.open(config, ctx.vault, create=False)
    except KeyringUnavailable:
        raise KeyringUnavailable(
            f"The system keyring is locked or did not answer, so profile '{config.profile}' "
            "cannot be opened for this app: unlock the keyring (log in to your desktop "
            "session), then restart the app."
        ) from None
    with app:
        serve(app, os.environ.get(APP_KEY_ENV) or None)
    return EXIT_OK


def _registry(ctx: Context) -> ClientRegistry:
    return ctx.app.apps


def _snippet(ctx: Context, key: str) -> str:
    from desktop_mem.core.clients import connect_snippet
    from desktop_mem.core.paths import home_argument

    return connect_snippet(key, home_argument(ctx.config.home), ctx.config.profile)


def _with_key(ctx: Context, app: App, key: str, said: str) -> int:
    snippet = _snippet(ctx, key)
    if ctx.args.json:
        import json

        output.print_json({**app.to_dict(), "key": key, "config": json.loads(snippet)}, ctx.out)
        return EXIT_OK
    ctx.err.write(
        f"{said} Paste this into {app.name}'s MCP configuration (it holds the app's key: "
        "keep it as private as a password; it is not shown again):\n"
    )
    ctx.out.write(snippet + "\n")
    return EXIT_OK


def clients_add(ctx: Context) -> int:
    app, key = _registry(ctx).add(ctx.args.name, ctx.args.level)
    return _with_key(ctx, app, key, f"{app.name} is registered and may {_words(app.level)}.")


def clients_renew(ctx: Context) -> int:
    app, key = _registry(ctx).renew(ctx.args.name)
    return _with_key(ctx, app, key, f"{app.name} has a new key; the old one no longer works.")


def clients_remove(ctx: Context) -> int:
    app = _registry(ctx).remove(ctx.args.name)
    ctx.out.write(f"{app.name} is unregistered: its key no longer works and its log is gone.\n")
    return EXIT_OK


def clients_list(ctx: Context) -> int:
    registry = _registry(ctx)
    apps = registry.all()
    level = registry.unregistered_level()
    reads, writes = registry.unregistered_counts()
    if ctx.args.json:
        output.print_json(
            {
                "apps": [
                    {**a.to_dict(), "spaces": _space_names(ctx, registry.spaces_of(a))}
                    for a in apps
                ],
                "unregistered": {"level": level, "reads": reads, "writes": writes},
            },
            ctx.out,
        )
        return EXIT_OK
    for a in apps:
        seen = (a.last_seen or "never")[:16].replace("T", " ")
        label = f"  (connects as '{output.safe(a.label)}')" if a.label and a.label != a.name else ""
        missing = "  (no key yet: `clients renew` gives it one)" if not a.has_key else ""
        where = ", ".join(_space_names(ctx, registry.spaces_of(a)))
        ctx.out.write(
            f"{a.level:<7} {seen:<16}  {a.reads:>5} reads {a.writes:>4} writes  "
            f"{output.safe(a.name)}{label}{missing}  in: {output.safe(where)}\n"
        )
    ctx.out.write(f"{level:<7} {'':<16}  {reads:>5} reads {0:>4} writes  apps without a key\n")
    if not apps:
        ctx.err.write("No app is registered yet: `desktop-mem clients add NAME` registers one.\n")
    return EXIT_OK


def clients_allow(ctx: Context) -> int:
    a = _registry(ctx).set_level(ctx.args.name, ctx.args.level)
    ctx.out.write(f"{a.name} may now: {_words(a.level)}.\n")
    return EXIT_OK


def _space_names(ctx: Context, spaces: frozenset[int | None]) -> list[str]:
    named = {s.id: s.name for s in ctx.app.spaces.list()}
    return [
        "shared" if s is None else named.get(s, f"#{s}")
        for s in sorted(spaces, key=lambda s: -1 if s is None else s)
    ]


def clients_spaces(ctx: Context) -> int:
    registry = _registry(ctx)
    if ctx.args.spaces:
        wanted = {ctx.app.spaces.named(s) for s in ctx.args.spaces}
        registry.set_spaces(ctx.args.name, wanted)
    app = registry.get(ctx.args.name)
    names = _space_names(ctx, registry.spaces_of(app))
    if ctx.args.json:
        output.print_json({"name": app.name, "spaces": names}, ctx.out)
    else:
        ctx.out.write(f"{app.name} may use: {', '.join(output.safe(n) for n in names)}.\n")
    return EXIT_OK


def clients_pause(ctx: Context) -> int:
    a = _registry(ctx).set_level(ctx.args.name, "off")
    ctx.out.write(f"{a.name} is paused: every request it makes is refused.\n")
    return EXIT_OK


def clients_unregistered(ctx: Context) -> int:
    level = _registry(ctx).set_unregistered_level(ctx.args.level)
    ctx.out.write(
        "Apps without a key may now read memories.\n"
        if level == "read"
        else "Apps without a key are now refused everything.\n"
    )
    return EXIT_OK


def clients_log(ctx: Context) -> int:
    from desktop_mem.core.clients import MAX_LOG_ROWS, RETENTION_DAYS

    registry = _registry(ctx)
    unregistered = ctx.args.name == UNREGISTERED
    name = None if unregistered else ctx.args.name
    if ctx.args.clear:
        n = registry.clear_log(name, unregistered=unregistered)
        ctx.out.write(f"Cleared {n} access records.\n")
        return EXIT_OK
    rows = registry.recent(name, unregistered=unregistered)
    if ctx.args.json:
        output.print_json(
            [
                {"app": a.client, "tool": a.tool, "memory_id": a.memory_id, "at": a.at,
                 "times": a.times}
                for a in rows
            ],
            ctx.out,
        )  # fmt: skip
        return EXIT_OK
    for a in rows:
        target = f"memory {a.memory_id}" if a.memory_id is not None else "-"
        times = f" (x{a.times} that day)" if a.times > 1 else ""
        who = f"  {output.safe(a.client)}" if unregistered else ""
        ctx.out.write(f"{a.at[:19].replace('T', ' ')}  {a.tool:<20} {target}{times}{who}\n")
    ctx.err.write(
        f"The log keeps {RETENTION_DAYS} days (at most {MAX_LOG_ROWS:,} lines); an app's calls "
        "of one tool on one memory in a day are one line.\n"
    )
    return EXIT_OK


def _words(level: str) -> str:
    return {
        "off": "nothing (paused)",
        "read": "read memories",
        "write": "read and write memories",
        "delete": "read, write and delete memories",
    }[level]
