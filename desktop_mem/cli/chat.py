"""`chat`: one turn, or a conversation in the terminal."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any, TextIO

from desktop_mem.cli import output
from desktop_mem.cli.context import Context
from desktop_mem.core.errors import EXIT_OK, UsageError

if TYPE_CHECKING:
    from desktop_mem.cli.context import Subparsers
    from desktop_mem.core.chat.session import ChatSession, TurnResult
    from desktop_mem.core.jsontypes import JSONObject

LEARN_TIMEOUT_S = 300.0


def add_parsers(sub: Subparsers, parser_class: type[argparse.ArgumentParser]) -> None:
    c = sub.add_parser(
        "chat",
        help="chat with the local model (one turn with MESSAGE, else a conversation)",
        description="Chat with the model. With MESSAGE: one turn, the answer on stdout, the "
        "memories used and changed on stderr. Without: an interactive conversation "
        "(/new, /regen, /quit; Ctrl+C stops an answer).",
    )
    c.add_argument("message", nargs="?")
    c.add_argument("--conversation", type=int, metavar="ID", help="continue this conversation")
    c.add_argument(
        "--space",
        help="start the conversation in this space (its name or number): it is given that "
        "space's memories and, unless it is kept apart, the shared ones",
    )
    c.add_argument(
        "--incognito", action="store_true", help="no memory read or written, nothing stored"
    )
    c.add_argument("--model", help="chat model (default: the profile's, else qwen2.5:7b)")
    c.add_argument("--json", action="store_true", help="one JSON object instead of streaming")
    c.add_argument("--yes", action="store_true", help="confirm a 'forget ...' without asking")
    c.add_argument("--no-wait", action="store_true", help="do not wait for memories to be learned")
    c.set_defaults(func=chat, opens_profile=True)


def given_lines(result: TurnResult) -> list[str]:
    """What an answer was given, for stderr: a line each for memories, earlier messages
    and passages (a weaker match marked with "?")."""
    lines = []
    if result.used:
        lines.append(
            "memories used: "
            + "; ".join(f"#{u.memory_id}{'?' if u.weak else ''} {u.text}" for u in result.used)
        )
    if result.about:
        lines.append("about you: " + "; ".join(f"line {ln.id} {ln.text}" for ln in result.about))
    if result.recalled:
        lines.append(
            "earlier messages used: "
            + "; ".join(
                f"[{(r.created_at or '')[:10]}, conversation {r.conversation_id}] "
                f"{output.one_line(r.text or '')}"
                for r in result.recalled
            )
        )
    if result.documents:
        lines.append("documents used: " + "; ".join(p.where() for p in result.documents))
    return lines


def _report(result: TurnResult, err: TextIO) -> None:
    for w in result.warnings:
        err.write(f"warning: {w}\n")
    if result.status != "error":
        for line in given_lines(result):
            err.write(line + "\n")
    if result.error:
        err.write(f"desktop-mem: {result.error}\n")


def _confirm_forget(
    session: ChatSession,
    result: TurnResult,
    yes: bool,
    out: TextIO,
    err: TextIO,
    quiet: bool = False,
) -> dict[str, Any] | None:
    """Each candidate on its own line. Unpinned memories and the earlier messages that
    said it are deleted unless the user says otherwise (interactively; --yes takes the
    defaults); earlier messages the user keeps stay to read but leave every prompt; a
    memory that says more than what is forgotten keeps the rest as a new memory (asked;
    --yes keeps it, and says so). `quiet` (--json): nothing printed, what was deleted
    returned for the JSON."""
    memories, messages = result.forget_candidates, result.forget_messages
    if not memories and not messages:
        return None
    say = _Quiet() if quiet else err
    if any(result.forget_more):  # said in the answer too: a page at a time
        say.write(
            f"  (and {result.forget_more[0]} more memories and {result.forget_more[1]} more "
            "messages: forget these, then say it again)\n"
        )
    for m in memories:
        say.write(f"  memory #{m.id}{' (pinned)' if m.pinned else ''}: {m.text}\n")
        if m.id in result.forget_rests:
            say.write(f"    the rest of it: {result.forget_rests[m.id]}\n")
    for msg in messages:
        say.write(
            f"  message #{msg.id} ({msg.created_at[:10]}): {' '.join(msg.content.split())[:120]}\n"
        )
    chosen = [m.id for m in memories if not m.pinned]
    drop_messages = [msg.id for msg in messages]
    keep: list[int] = []
    rests = {i: r for i, r in result.forget_rests.items() if i in chosen}
    if not yes:
        if quiet or not sys.stdin.isatty():
            say.write("Nothing deleted: run again with --yes to delete the unpinned memories.\n")
            session.forget([], [])
            return {"deleted": False, "memories": [], "messages": [], "kept": [], "rests": {}}
        chosen = [m.id for m in memories if _ask(err, f"Delete memory #{m.id}?", not m.pinned)]
        rests = {
            i: r
            for i, r in result.forget_rests.items()
            if i in chosen and _ask(err, f"Keep the rest of memory #{i} as a memory: {r}?", True)
        }
        if messages and not _ask(
            err,
            f"Also delete the {len(messages)} earlier message(s) that said it (no: they stay "
            "to read, but the assistant no longer sees them)?",
            True,
        ):
            drop_messages, keep = [], [msg.id for msg in messages]
    whole = {m.id for m in memories if result.forget_rests.get(m.id) == m.text and m.id in rests}
    done = session.forget(chosen, drop_messages, keep, rests)
    for i, rest in rests.items():  # said even with --json: nothing kept silently
        if i in whole:
            err.write(
                f"Kept memory #{i}: it is about your health or safety; edit it to change it.\n"
            )
        else:
            err.write(f"Kept the rest of memory #{i} as a new memory: {rest}\n")
    if quiet:
        pass
    elif done.memories or done.messages or done.kept:
        n, k = done.memories, done.messages
        kept = f"; {done.kept} kept to read, out of every prompt" if done.kept else ""
        left = done.memories_left + done.messages_left
        still = (
            f" {done.memories_left} memories and {done.messages_left} messages still mention "
            "it: say the same forget again to see them."
            if left
            else ""
        )
        out.write(
            f"Deleted {n} memor{'y' if n == 1 else 'ies'} and "
            f"{k} message{'' if k == 1 else 's'}{kept}.{still}\n"
        )
    else:
        out.write("Nothing was deleted.\n")
    return {
        "deleted": True,
        "memories": [i for i in chosen if i not in whole],
        "messages": drop_messages,
        "kept": keep,
        "rests": {str(i): r for i, r in rests.items() if i not in whole},
        "kept_whole": sorted(whole),
        "memories_deleted": done.memories,
        "messages_deleted": done.messages,
        "memories_left": done.memories_left,
        "messages_left": done.messages_left,
    }


class _Quiet:
    def write(self, _text: str) -> int:
        return 0


def _ask(err: TextIO, question: str, default: bool) -> bool:
    err.write(f"{question} [{'Y/n' if default else 'y/N'}] ")
    err.flush()
    answer = sys.stdin.readline().strip().lower()
    if not answer:
        return default
    return answer in ("y", "yes", "是", "好")


def _turn(
    session: ChatSession,
    text: str,
    args: argparse.Namespace,
    out: TextIO,
    err: TextIO,
    regenerate: bool = False,
    report: dict[str, Any] | None = None,
) -> TurnResult:
    """One turn. With --json nothing is printed; what a forget deleted goes in `report`."""

    def piece(p: str) -> None:
        out.write(p)
        out.flush()

    stream = None if args.json else piece
    result = session.regenerate(stream) if regenerate else session.send(text, stream)
    if args.json:  # --yes confirms a forget here too; the JSON says what went
        forgotten = _confirm_forget(session, result, args.yes, out, err, quiet=True)
        if report is not None:
            report["forgotten"] = forgotten
        return result
    if result.status == "command":
        out.write(result.text)
    out.write("\n" if result.text else "")
    if result.status == "stopped":
        err.write("(stopped)\n")
    _report(result, err)
    _confirm_forget(session, result, args.yes, out, err)
    if result.learning is not None and not args.no_wait:
        learned = result.outcome(LEARN_TIMEOUT_S)
        output.changes(learned.changes, err)
        if learned.failure:
            err.write(f"warning: {learned.failure}\n")
    output.changes(result.changes, err)
    return result


def _turn_json(result: TurnResult, wait: bool) -> JSONObject:
    outcome = result.outcome(LEARN_TIMEOUT_S) if wait else None
    learned = outcome.changes if outcome else []
    failed = [outcome.failure] if outcome and outcome.failure else []
    return {
        "conversation_id": result.conversation_id,
        "message_id": result.answer_id,
        "answer": result.text,
        "status": result.status,
        "error": result.error,
        **result.given(),
        "changes": [c.to_dict() for c in [*result.changes, *learned] if c.action != "skipped"],
        "forget_candidates": [m.to_dict() for m in result.forget_candidates],
        "forget_messages": [m.to_dict() for m in result.forget_messages],
        "forget_more": {"memories": result.forget_more[0], "messages": result.forget_more[1]},
        "forget_rests": {str(i): r for i, r in result.forget_rests.items()},
        "prompt": {
            "memory_tokens": result.plan.memory_tokens if result.plan else 0,
            "history_turns": result.plan.history_turns if result.plan else 0,
            "prompt_tokens": result.plan.prompt_tokens if result.plan else 0,
        },
        "warnings": [*result.warnings, *failed],
    }


def chat(ctx: Context) -> int:
    args, app, out, err = ctx.args, ctx.app, ctx.out, ctx.err
    if args.model:
        app.use_chat_model(args.model)
    notice = app.remote_notice()
    if notice:
        err.write(f"notice: {notice}\n")
    if args.space is not None and args.conversation is not None:
        raise UsageError(
            "--space is for a new conversation: an earlier one goes on in its own space."
        )
    space = app.spaces.named(args.space) if args.space is not None else None
    session = app.chat(args.conversation, incognito=args.incognito, space=space)
    try:
        if args.message is not None:
            report: dict[str, Any] = {}
            result = _turn(session, args.message, args, out, err, report=report)
            if result.status == "error" and _offer_pull(session, result, err):
                result = _turn(session, args.message, args, out, err, True, report)
            if args.json:
                said = _turn_json(result, not args.no_wait)
                output.print_json({**said, "forgotten": report.get("forgotten")}, out)
            return result.exit_code if result.status == "error" else EXIT_OK
        return _loop(session, args, out, err)
    finally:
        session.close()
        if args.no_wait:  # what the turn learns is learned later: the message says so
            app.close(wait=False)


def _offer_pull(session: ChatSession, result: TurnResult, err: TextIO) -> bool:
    """After "model not pulled", in a terminal: offer to pull it now."""
    from desktop_mem.core.models.llm import OllamaChat

    backend = session.backend
    if not isinstance(backend, OllamaChat) or "ollama pull" not in (result.error or ""):
        return False
    if not sys.stdin.isatty():
        return False
    err.write(f"Pull {backend.model} now? [y/N] ")
    err.flush()
    if sys.stdin.readline().strip().lower() not in ("y", "yes"):
        return False
    from desktop_mem.cli.models import pull

    return pull(backend, err, err) == EXIT_OK


def _loop(session: ChatSession, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    mode = " (incognito: nothing is stored)" if session.incognito else ""
    err.write(f"Chatting with {session.backend.model}{mode}. /new, /regen, /quit.\n")
    while True:
        err.write("you> ")
        err.flush()
        try:
            line = sys.stdin.readline()
        except KeyboardInterrupt:
            err.write("\n")
            return EXIT_OK
        if not line:
            err.write("\n")
            return EXIT_OK
        text = line.strip()
        if not text:
            continue
        if text in ("/quit", "/exit", "/q"):
            return EXIT_OK
        if text == "/new":
            session.conversation_id = None
            session._transient.clear()
            err.write("New conversation.\n")
            continue
        regen = text in ("/regen", "/regenerate")
        try:
            _turn(session, text, args, out, err, regenerate=regen)
        except UsageError as exc:
            err.write(f"desktop-mem: {exc}\n")
