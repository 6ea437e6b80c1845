"""`desktop-mem doctor`: check everything the app depends on and say what to fix."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import httpx
import sqlcipher3
import sqlite_vec

from desktop_mem.core import paths
from desktop_mem.core.config import DEFAULT_CHAT_MODEL, Config
from desktop_mem.core.errors import DatabaseCorrupt, DesktopMemError
from desktop_mem.core.keys.vault import PASSPHRASE_ENV, KeyringAccess, Vault, read_key_mode
from desktop_mem.core.models.embed import DEFAULT_EMBED_MODEL
from desktop_mem.core.store.db import open_profile


@dataclass
class Check:
    name: str
    ok: bool
    detail: str
    fix: str = ""

    def to_dict(self) -> dict[str, Any]:
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


def check_ollama(config: Config, embed_model: str) -> list[Check]:
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
    checks = [Check("ollama", True, f"version {version} at {host}")]
    for role, model in (
        ("embedding model", embed_model),
        ("chat model", config.chat_model or DEFAULT_CHAT_MODEL),
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
    return checks


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


def check_database(config: Config, vault: Vault) -> tuple[list[Check], str | None]:
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
        return checks, None
    try:
        db = open_profile(config.home, config.profile, config.passphrase, vault, create=False)
    except DesktopMemError as exc:
        checks.append(Check("database", False, str(exc), "see the message above"))
        return checks, None
    try:
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
            return checks, None
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
        return checks, model
    finally:
        db.close()


def run(config: Config, vault: Vault | None = None) -> list[Check]:
    vault = vault or Vault()
    checks = [check_keyring(vault.keyring)]
    db_checks, stored_model = check_database(config, vault)
    checks += db_checks
    embed_model = config.embed_model or stored_model or DEFAULT_EMBED_MODEL
    checks += check_ollama(config, embed_model)
    return checks
