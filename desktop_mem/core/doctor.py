"""`desktop-mem doctor`: check everything the app depends on and say what to fix.

Besides what must work (the keyring, the database, Ollama and its models) it says what
would make every turn slow (the model server reloading or unloading the chat model,
core/models/loaded.py) and how many messages still wait to be learned from."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import httpx
import sqlcipher3
import sqlite_vec

from desktop_mem.core import paths
from desktop_mem.core.config import DEFAULT_CHAT_MODEL, Config
from desktop_mem.core.db.database import Database
from desktop_mem.core.db.files import stale_backup_copies
from desktop_mem.core.db.opening import open_profile
from desktop_mem.core.errors import DatabaseCorrupt, DesktopMemError
from desktop_mem.core.jsontypes import JSONObject
from desktop_mem.core.keys.vault import (
    PASSPHRASE_ENV,
    KeyringAccess,
    Vault,
    read_key_mode,
    read_sidecar,
)
from desktop_mem.core.models import loaded
from desktop_mem.core.models.embed import DEFAULT_EMBED_MODEL
from desktop_mem.core.settings import DEFAULTS


@dataclass
class Facts:
    """What the profile says about how it uses the model server."""

    embed_model: str | None = None
    chat_model: str | None = None
    context_tokens: int = DEFAULTS["context_tokens"]
    observed: dict[str, Any] | None = None  # /api/ps right after the last answer


@dataclass
class Check:
    name: str
    ok: bool
    detail: str
    fix: str = ""

    def to_dict(self) -> JSONObject:
        return asdict(self)


def _model_names(tags: dict[str, Any]) -> set[str]:
    names: set[str] = set()
    for m in tags.get("models", []):
        for key in ("name", "model"):
            n = m.get(key)
            if n:
                names.add(n)
                if n.endswith(":latest"):
                    names.add(n[: -len(":latest")])
    return names


def check_ollama(config: Config, embed_model: str, facts: Facts | None = None) -> list[Check]:
    host = config.ollama_host
    try:
        with httpx.Client(base_url=host, timeout=5.0, trust_env=False) as client:
            version = client.get("/api/version").json().get("version", "?")
            tags = client.get("/api/tags").json()
    except (httpx.HTTPError, ValueError) as exc:
        return [
            Check(
                "ollama",
                False,
                f"not reachable at {host} ({type(exc).__name__})",
                "start Ollama (`ollama serve`, or open the Ollama app), or set --ollama-host",
            )
        ]
    names = _model_names(tags)
    facts = facts or Facts()
    chat_model = config.chat_model or facts.chat_model or DEFAULT_CHAT_MODEL
    checks = [Check("ollama", True, f"version {version} at {host}")]
    for role, model in (
        ("embedding model", embed_model),
        ("chat model", chat_model),
    ):
        present = model in names
        checks.append(
            Check(
                role,
                present,
                f"{model} is {'installed' if present else 'not installed'}",
                "" if present else f"run `ollama pull {model}`",
            )
        )
    if chat_model in names:
        checks.append(check_turn_speed(config, chat_model, facts))
    return checks


def _asked(config: Config, model: str, cap: int) -> int | None:
    """The context length the chat asks of the model (as OllamaChat.num_ctx)."""
    from desktop_mem.core.errors import ModelServerError
    from desktop_mem.core.models.llm import OllamaChat

    try:
        return OllamaChat(config.ollama_host, model, read_timeout=10.0, context_cap=cap).num_ctx()
    except ModelServerError:
        return None


def check_turn_speed(config: Config, model: str, facts: Facts) -> Check:
    """Whether the server keeps the chat model loaded as every turn needs: with the
    context length desktop-mem asks for (now), for longer than a pause between turns
    (as seen right after the last answer)."""
    asked = _asked(config, model, facts.context_tokens)
    problem = None
    if asked is not None:
        try:
            now = loaded.find(loaded.loaded_models(config.ollama_host), model)
        except (httpx.HTTPError, ValueError, TypeError):
            now = None
        problem = loaded.judge(now, model, asked, after_answer=False)
        seen = facts.observed or {}
        if problem is None and seen.get("model") == model and seen.get("problem"):
            problem = loaded.SlowTurns(
                seen["problem"], model, asked, seen.get("context_length"), seen.get("keep_alive")
            )
    if problem is None:
        detail = f"{model} asks for a {asked:,}-token context" if asked else f"{model}"
        return Check("turn speed", True, detail + "; the server reports nothing that slows turns")
    return Check("turn speed", False, problem.what(), problem.fix())


def check_keyring(access: KeyringAccess) -> Check:
    problem = access.problem()
    if problem:
        return Check(
            "keyring",
            False,
            f"{access.describe()}: {problem}",
            f"profiles can still be protected by a passphrase ({PASSPHRASE_ENV}); to use the "
            "keyring, run a Secret Service (GNOME Keyring, KWallet) or the OS keychain",
        )
    return Check("keyring", True, access.describe())


def check_database(config: Config, vault: Vault) -> tuple[list[Check], Facts]:
    path = paths.database_path(config.home, config.profile)
    versions = sqlcipher3.connect(":memory:").execute("PRAGMA cipher_version").fetchone()
    checks = [
        Check(
            "sqlcipher",
            True,
            f"SQLCipher {versions[0] if versions else '?'}, SQLite {sqlcipher3.sqlite_version}",
        )
    ]
    if not path.exists():
        checks.append(
            Check(
                "database",
                True,
                f"profile '{config.profile}' not created yet (it will be at {path})",
            )
        )
        return checks, Facts()
    left = len(stale_backup_copies(path))
    try:
        db = open_profile(config.home, config.profile, config.passphrase, vault, create=False)
    except DesktopMemError as exc:
        checks.append(Check("database", False, str(exc), "see the message above"))
        checks.append(check_leftovers(path, left))
        return checks, Facts()
    try:
        checks.append(check_leftovers(path, left))
        vec = db.query("SELECT vec_version()")[0][0]
        checks.append(Check("sqlite-vec", True, f"{vec} loaded ({sqlite_vec.loadable_path()})"))
        try:
            problems = [r[0] for r in db.query("PRAGMA quick_check(20)") if r[0] != "ok"]
            problems += [r[0] for r in db.query("PRAGMA cipher_integrity_check")]
        except DatabaseCorrupt as exc:
            problems = [str(exc)]
        if problems:
            checks.append(
                Check(
                    "database",
                    False,
                    f"{path} is damaged: " + "; ".join(p[:120] for p in problems[:3]),
                    "restore it from a backup; `desktop-mem memory export FILE` and "
                    "`conversations export` save what can still be read",
                )
            )
            return checks, Facts()
        count = db.query("SELECT count(*) FROM memories")[0][0]
        unindexed = db.query(
            "SELECT count(*) FROM memories m LEFT JOIN memory_vectors v ON v.memory_id = m.id "
            "WHERE v.memory_id IS NULL"
        )[0][0]
        model = db.meta_get("embed_model")
        counted = db.query("SELECT n FROM counters WHERE name = 'memories'")[0][0]
        if counted != count:  # repair: the counters only speed things up
            with db.transaction() as conn:
                conn.execute("UPDATE counters SET n = ? WHERE name = 'memories'", (count,))
                conn.execute(
                    "UPDATE counters SET n = (SELECT count(*) FROM memory_vectors) WHERE name = 'vectors'"
                )
        checks.append(
            Check(
                "database",
                True,
                f"{path} ({read_key_mode(path) or db.key_mode} key, {count} memories, "
                "integrity ok)",
            )
        )
        checks.append(
            Check(
                "index",
                unindexed == 0,
                f"{count - unindexed} of {count} memories have vectors"
                + (f" from {model}" if model else ""),
                "" if unindexed == 0 else "run `desktop-mem memory reembed --missing`",
            )
        )
        checks.append(check_learning(db))
        checks.append(check_always_given(db))
        recovery_check = check_recovery(db)
        if recovery_check is not None:
            checks.append(recovery_check)
        from desktop_mem.core.settings import setting

        facts = Facts(
            model,
            setting(db, "chat_model") or None,
            int(setting(db, "context_tokens")),
            loaded.last_observed(db),
        )
        return checks, facts
    finally:
        db.close()


def check_always_given(db: Database) -> Check:
    """Which memories are given to the model in every chat (core/memory/care/): their
    ids and why, never their text (a doctor report is pasted into bug reports)."""
    from desktop_mem.core.memory.care import CATEGORIES
    from desktop_mem.core.memory.store import ALWAYS

    rows = db.query(f"SELECT id, coalesce(care, 'asked') FROM memories WHERE {ALWAYS} ORDER BY id")
    if not rows:
        return Check("always given", True, "no memory is given in every chat")
    counts = {c: sum(1 for _, care in rows if care == c) for c in CATEGORIES}
    why = ", ".join(f"{c} {n}" for c, n in counts.items() if n)
    ids = ", ".join(f"#{mid}" for mid, _ in rows[:20]) + (", …" if len(rows) > 20 else "")
    return Check(
        "always given",
        True,
        f"{len(rows)} {'memory is' if len(rows) == 1 else 'memories are'} given in every chat "
        f"({why}): {ids}; `desktop-mem memory list --always` shows them",
    )


def check_leftovers(path: Path, found: int) -> Check:
    """Copies of the database a killed backup left beside it (each a whole profile under
    its key, holding whatever was forgotten since): removed when the profile opens."""
    remaining = len(stale_backup_copies(path))
    if remaining:
        return Check(
            "leftovers",
            False,
            f"{remaining} file(s) a killed backup left in {path.parent} could not be removed",
            f"delete the files named {path.name}.backup-… in {path.parent}",
        )
    if found:
        return Check("leftovers", True, f"{found} file(s) a killed backup left were removed")
    return Check("leftovers", True, "no copies left by a killed backup")


def check_recovery(db: Database) -> Check | None:
    """Whether the recovery record in profile.json opens this profile's key (a keyring
    profile's; a passphrase profile has no code)."""
    from desktop_mem.core.keys import recovery

    key = db._key
    if key is None or key.mode != "keyring":
        return None
    fix = "make a new one with `desktop-mem recovery-code` (or Settings > Backup) and keep it"
    record = read_sidecar(db.path).get("recovery")
    if record is None:
        return Check("recovery code", False, "this profile has no recovery code", fix)
    if not recovery.well_formed(record):
        return Check("recovery code", False, "the profile's recovery data is damaged", fix)
    if not recovery.provable(record):
        return Check(
            "recovery code",
            True,
            "set up (made before 0.4: checked when the key next changes)",
        )
    if not recovery.holds(record, key.secret):
        return Check(
            "recovery code",
            False,
            "the profile's recovery data does not open its key (another code's, or damaged)",
            fix,
        )
    return Check("recovery code", True, "the recovery data opens this profile's key")


def check_learning(db: Database) -> Check:
    """How many messages wait to be learned from (core/chat/learning.py)."""
    from desktop_mem.core.chat.learning import WHAT_FAILED, waiting

    w = waiting(db)
    if not w.total:
        return Check("learning", True, "every message has been learned from")
    reason = max(w.reasons, key=lambda r: w.reasons[r]) if w.reasons else ""
    why = f" (last failure: {WHAT_FAILED.get(reason, reason)})" if reason else ""
    detail = (
        f"{w.total} message{'s' if w.total != 1 else ''} not yet learned from{why}: "
        f"{w.pending} to be tried again, {w.failed} that failed every time"
    )
    return Check(
        "learning",
        False,
        detail,
        "they are tried again after the next chat turn the model answers and in the window's "
        "idle-time pass; if the model keeps failing, choose one that follows instructions better",
    )


def run(config: Config, vault: Vault | None = None) -> list[Check]:
    vault = vault or Vault()
    checks = [check_keyring(vault.keyring)]
    db_checks, facts = check_database(config, vault)
    checks += db_checks
    embed_model = config.embed_model or facts.embed_model or DEFAULT_EMBED_MODEL
    checks += check_ollama(config, embed_model, facts)
    return checks
