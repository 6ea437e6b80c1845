"""desktop-mem as an MCP server, driven by the official MCP Python SDK's client over
stdio, as Claude Desktop or Cursor would start it: `desktop-mem mcp`."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import anyio
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp_types import Implementation

from desktop_mem.core.config import Config
from desktop_mem.core.keys.vault import KeyringAccess, Vault
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.profile import Profile
from tests import report
from tests.conftest import Run
from tests.fakes.keyrings import FileKeyring
from tests.fakes.ollama_server import FakeOllama

ROOT = Path(__file__).resolve().parents[1]


def _env(home: Path, key: str | None = None) -> dict[str, str]:
    env = {
        "PYTHONPATH": str(ROOT),
        "HOME": os.environ.get("HOME", "/tmp"),
        "PYTHON_KEYRING_BACKEND": "tests.fakes.keyrings.FileKeyring",
        "DESKTOP_MEM_TEST_KEYRING_FILE": str(home.parent / "keyring.json"),
    }
    if key:
        env["DESKTOP_MEM_APP_KEY"] = key
    return env


def _server(home: Path, fake: FakeOllama, key: str | None = None) -> StdioServerParameters:
    """As an app's configuration starts it: the command, its arguments and the app's key
    in its environment; the database key comes from the keyring (here a file-backed one
    the processes share)."""
    args = ["-m", "desktop_mem", "--home", str(home), "--ollama-host", fake.url]
    return StdioServerParameters(
        command=sys.executable,
        args=[*args, "--embed-model", "fake-embed", "mcp"],
        env=_env(home, key),
        cwd=str(ROOT),
    )


def _vault(home: Path, monkeypatch: Any) -> Vault:
    monkeypatch.setenv("DESKTOP_MEM_TEST_KEYRING_FILE", str(home.parent / "keyring.json"))
    return Vault(KeyringAccess(FileKeyring()))


def _call(
    home: Path,
    fake: FakeOllama,
    app: str,
    calls: list[tuple[str, dict[str, Any]]],
    key: str | None = None,
) -> list[Any]:
    """Start the server with `key` in its environment, connect naming itself `app`, make
    the calls; their results."""

    async def go() -> list[Any]:
        results = []
        async with (
            stdio_client(_server(home, fake, key)) as (read, write),
            ClientSession(
                read, write, client_info=Implementation(name=app, version="1.0")
            ) as session,
        ):
            await session.initialize()
            tools = await session.list_tools()
            results.append(sorted(t.name for t in tools.tools))
            for name, args in calls:
                results.append(await session.call_tool(name, args))
        return results

    return anyio.run(go)


def _text(result: Any) -> str:
    return " ".join(getattr(c, "text", "") for c in result.content)


def _register(run: Run, name: str, level: str = "read") -> tuple[str, dict[str, Any]]:
    """`clients add`: the app's key and the configuration it prints."""
    code, out, err = run("clients", "add", name, "--level", level, "--json")
    assert code == 0, err
    found = json.loads(out)
    return found["key"], found["config"]


def test_an_app_reads_by_default_and_writes_only_when_allowed(
    tmp_path: Path, fake_ollama: FakeOllama, monkeypatch: Any
) -> None:
    home = tmp_path / "home"
    vault = _vault(home, monkeypatch)
    run = Run(home, fake_ollama, vault)
    config = Config.resolve(home=home, ollama_host=fake_ollama.url, embed_model="fake-embed")
    with Profile.open(config, vault) as prof:
        prof.memories.add(NewMemory("Allergic to peanuts", pinned=True))
        prof.memories.add(NewMemory("Lives in Hangzhou with a cat named Mochi"))
    key, _ = _register(run, "Test Editor")

    tools, found, summary, refused = _call(home, fake_ollama, "test-editor/1.0", [
        ("search_memories", {"query": "where does the user live with the cat"}),
        ("get_profile_summary", {}),
        ("add_memory", {"text": "Prefers green tea"}),
    ], key)  # fmt: skip
    assert tools == [
        "add_memory", "delete_memory", "get_profile_summary", "list_memories", "search_memories"
    ]  # fmt: skip
    memories = found.structured_content["memories"]
    assert [m["text"] for m in memories] == ["Lives in Hangzhou with a cat named Mochi"]
    assert memories[0]["source"] and memories[0]["created_at"]  # where from, and when
    # how relevant, in deviations above chance, and how sure the rule is
    assert memories[0]["relevance"] > 0 and memories[0]["match"] in ("strong", "weak")
    assert "relevance" not in summary.structured_content["pinned"][0], "not a search hit"
    assert [m["text"] for m in summary.structured_content["pinned"]] == ["Allergic to peanuts"]
    assert refused.is_error
    assert "'Test Editor' may only read memories" in _text(refused)
    assert "Settings > Apps" in _text(refused)

    base = run.base
    listed = json.loads(run("clients", "list", "--json", base=base)[1])["apps"]
    assert [(c["name"], c["level"], c["label"]) for c in listed] == [
        ("Test Editor", "read", "test-editor/1.0")  # the name it gave is only a label
    ]
    assert run("clients", "allow", "Test Editor", "write", base=base)[0] == 0

    _, added, again, denied = _call(home, fake_ollama, "Test Editor", [
        ("add_memory", {"text": "Prefers green tea over coffee", "kind": "preference"}),
        ("add_memory", {"text": "Prefers green tea over coffee", "kind": "preference"}),
        ("delete_memory", {"memory_id": 1}),
    ], key)  # fmt: skip
    change = added.structured_content["changes"][0]
    assert change["action"] == "added"
    assert again.structured_content["changes"][0]["action"] == "skipped"  # no duplicate
    assert denied.is_error and "may only write" in _text(denied)
    with Profile.open(config, vault) as prof:
        mem = prof.memories.get(change["id"])
        assert mem.source == "app:Test Editor"  # the registration is the memory's source

        log = prof.clients
        assert {a.tool for a in log.access_for_memory(2)} >= {"search_memories"}
        assert {a.client for a in log.access_for_memory(2)} == {"Test Editor"}
        assert "add_memory" in {a.tool for a in log.access_for_memory(mem.id)}
        prof.memories.delete([2])
        # a deleted memory's earlier reads stay in the log (issue 45): what read it, when
        assert {a.tool for a in log.access_for_memory(2)} >= {"search_memories"}

    assert run("clients", "pause", "Test Editor", base=base)[0] == 0
    _, paused = _call(home, fake_ollama, "x", [("search_memories", {"query": "tea"})], key)
    assert paused.is_error and "paused" in _text(paused)
    code, out, _ = run("clients", "log", "Test Editor", base=base)
    assert code == 0 and "refused:search_memories" in out and "add_memory" in out
    # the access log holds no query or memory text, and no file holds it in the clear
    assert "green tea" not in out and "where does the user live" not in out


def test_an_app_is_known_by_its_key_not_by_the_name_it_gives(
    tmp_path: Path, fake_ollama: FakeOllama, monkeypatch: Any
) -> None:
    """The attack of issue 28: after `clients allow "Claude Desktop" delete`, a client
    connecting as "Claude  Desktop" (or as "Claude Desktop" itself) without the key is
    an unregistered app: it may read, never delete. A wrong, renewed or removed key is
    shut out; apps without a key can be shut out too."""
    home = tmp_path / "home"
    vault = _vault(home, monkeypatch)
    run = Run(home, fake_ollama, vault)
    assert run("memory", "add", "Allergic to peanuts")[0] == 0
    assert run("memory", "add", "Lives in Hangzhou")[0] == 0
    key, _ = _register(run, "Claude Desktop", "delete")
    attacks = 0
    for name in ("Claude  Desktop", "Claude Desktop", "claude desktop"):
        _, found, deleted = _call(home, fake_ollama, name, [
            ("search_memories", {"query": "peanuts"}),
            ("delete_memory", {"memory_id": 1}),
        ])  # fmt: skip
        assert not found.is_error  # unregistered apps read, by default
        assert deleted.is_error and "without a desktop-mem key may only read" in _text(deleted)
        attacks += 1
    _, forged = _call(home, fake_ollama, "Claude Desktop", [
        ("search_memories", {"query": "peanuts"}),
    ], "dmk_" + "A" * 43)  # fmt: skip
    assert forged.is_error and "key is not valid" in _text(forged)  # a wrong key: nothing
    attacks += 1

    _, gone = _call(home, fake_ollama, "anything", [("delete_memory", {"memory_id": 1})], key)
    assert not gone.is_error and gone.structured_content == {"deleted": 1}  # the key deletes

    code, out, _ = run("clients", "renew", "Claude Desktop", "--json")
    assert code == 0
    new_key = json.loads(out)["key"]
    _, old = _call(home, fake_ollama, "Claude Desktop", [("list_memories", {})], key)
    assert old.is_error and "key is not valid" in _text(old)  # the renewed key is dead
    _, new = _call(home, fake_ollama, "Claude Desktop", [("list_memories", {})], new_key)
    assert not new.is_error
    attacks += 1

    assert run("clients", "unregistered", "off")[0] == 0
    _, shut = _call(home, fake_ollama, "Claude Desktop", [("list_memories", {})])
    assert shut.is_error and "shut out" in _text(shut)
    assert run("clients", "remove", "Claude Desktop")[0] == 0
    _, removed = _call(home, fake_ollama, "Claude Desktop", [("list_memories", {})], new_key)
    assert removed.is_error and "key is not valid" in _text(removed)
    attacks += 2
    code, out, _ = run("clients", "log", "unregistered")
    # refusals are logged for what the caller is, never under the name it chose (issue 45)
    assert code == 0 and "refused:delete_memory" in out and "an app without a key" in out
    assert "Claude" not in out
    report.add("mcp_attacks", attacks)


def test_a_passphrase_profile_is_not_served(
    tmp_path: Path, fake_ollama: FakeOllama, monkeypatch: Any
) -> None:
    """Its passphrase would have to sit in plain text in the app's configuration file:
    one sentence that says so, exit 3, even with the passphrase in the environment."""
    home = tmp_path / "home"
    monkeypatch.setenv("DESKTOP_MEM_PASSPHRASE", "a passphrase for this test")
    run = Run(home, fake_ollama, _vault(home, monkeypatch))
    assert run("memory", "add", "a secret")[0] == 0
    code, out, err = run("mcp")
    assert code == 3 and out == ""
    assert "protected by a passphrase" in err and "configuration file" in err
    assert err.count("\n") == 1


def test_bad_arguments_concurrent_writers_and_nothing_in_the_clear(
    tmp_path: Path, fake_ollama: FakeOllama, monkeypatch: Any
) -> None:
    """Bad arguments get an MCP error with one sentence and store nothing; the command
    line writes while the server runs; no query or memory text reaches any file outside
    the encrypted database."""
    from tests.leaks import files_under, scan_files

    home = tmp_path / "home"
    vault = _vault(home, monkeypatch)
    run = Run(home, fake_ollama, vault)
    assert run("memory", "add", "The first memory about the garden")[0] == 0
    config = Config.resolve(home=home, ollama_host=fake_ollama.url, embed_model="fake-embed")
    key, _ = _register(run, "Scripted App", "delete")

    async def go() -> list[Any]:
        out = []
        async with (
            stdio_client(_server(home, fake_ollama, key)) as (read, write),
            ClientSession(
                read, write, client_info=Implementation(name="Scripted App", version="1")
            ) as session,
        ):
            await session.initialize()
            for name, args in [
                ("add_memory", {"text": "x", "kind": "fact"}),
                ("add_memory", {"text": "A statement", "kind": "banana"}),
                ("delete_memory", {"memory_id": 999_999}),
                ("delete_memory", {"memory_id": "not a number"}),
                ("search_memories", {"query": "garden", "limit": -5}),
            ]:
                out.append(await session.call_tool(name, args))
            # the command line writes while the server holds the profile open
            code = await anyio.to_thread.run_sync(
                lambda: run("memory", "add", "A second memory about the garden pond")[0]
            )
            out.append(code)
            out.append(await session.call_tool("search_memories", {"query": "garden pond"}))
        return out

    short, kind, missing, typed, clamped, cli_code, after = anyio.run(go)
    for result in (short, kind, missing, typed):
        assert result.is_error, _text(result)
        assert _text(result).strip() and "Traceback" not in _text(result)
    assert "2 to 500 characters" in _text(short)
    assert "not a kind of memory" in _text(kind)
    assert "no memory 999999" in _text(missing).lower()
    assert not clamped.is_error and len(clamped.structured_content["memories"]) <= 1
    assert cli_code == 0
    texts = [m["text"] for m in after.structured_content["memories"]]
    assert "A second memory about the garden pond" in texts
    with Profile.open(config, vault) as prof:
        assert prof.memories.count() == 2  # nothing from the refused calls
    needles = ["garden pond", "about the garden", "A statement"]
    assert scan_files(files_under(home), needles) == []


def test_a_locked_keyring_is_explained_without_suggesting_a_passphrase(
    tmp_path: Path, fake_ollama: FakeOllama, monkeypatch: Any
) -> None:
    """mcp refuses DESKTOP_MEM_PASSPHRASE, so its message must not offer it; and an app
    pointed at a data folder with no profile is told so instead of creating one."""
    from desktop_mem.core.keys.vault import KeyringAccess
    from tests.fakes.keyrings import LockedKeyring, MemoryKeyring

    home = tmp_path / "home"
    backend = MemoryKeyring()
    run = Run(home, fake_ollama, Vault(KeyringAccess(backend)))
    assert run("memory", "add", "a secret")[0] == 0
    locked = Run(home, fake_ollama, Vault(KeyringAccess(LockedKeyring(), timeout=1)))
    code, out, err = locked("mcp")
    assert code == 3 and out == "" and err.count("\n") == 1
    assert "unlock the keyring" in err and "PASSPHRASE" not in err
    code, _, err = run("--home", str(tmp_path / "empty"), "mcp", base=run.base[2:])
    assert code == 1 and "There is no profile" in err
    assert not (tmp_path / "empty" / "profiles").exists()


def test_an_app_sees_only_the_spaces_it_is_given(
    tmp_path: Path, fake_ollama: FakeOllama, monkeypatch: Any
) -> None:
    """Issue 55: the coding assistant that needs the project's conventions cannot also
    search the user's medication. A new app gets the shared space; given a space, it
    reads and writes there and nowhere else, and a call for another space's memory is
    refused in one sentence and logged."""
    home = tmp_path / "home"
    vault = _vault(home, monkeypatch)
    run = Run(home, fake_ollama, vault)
    config = Config.resolve(home=home, ollama_host=fake_ollama.url, embed_model="fake-embed")
    with Profile.open(config, vault) as prof:
        work = prof.spaces.create("Work").id
        family = prof.spaces.create("Family").id
        prof.memories.add(NewMemory("Takes sertraline every morning"))
        prof.memories.add(NewMemory("The project uses tabs, never spaces", space=work))
        secret = prof.memories.add(NewMemory("My sister's project is a surprise", space=family))
    key, _ = _register(run, "Coder", "delete")
    _, found, listed = _call(home, fake_ollama, "coder", [
        ("search_memories", {"query": "project"}),
        ("list_memories", {}),
    ], key)  # fmt: skip
    texts = [m["text"] for m in listed.structured_content["memories"]]
    assert texts == ["Takes sertraline every morning"]  # a new app: the shared space
    assert "surprise" not in json.dumps(found.structured_content)

    code, out, _ = run("clients", "spaces", "Coder", "Work")
    assert (code, out) == (0, "Coder may use: Work.\n")
    _, found, listed, added, refused, gone = _call(home, fake_ollama, "coder", [
        ("search_memories", {"query": "sertraline medication"}),
        ("list_memories", {}),
        ("add_memory", {"text": "The build runs with make ci"}),
        ("delete_memory", {"memory_id": secret.memory.id}),
        ("delete_memory", {"memory_id": 999}),
    ], key)  # fmt: skip
    assert found.structured_content["memories"] == []
    assert [m["text"] for m in listed.structured_content["memories"]] == [
        "The project uses tabs, never spaces"
    ]
    assert refused.is_error and _text(refused) == _text(gone).replace(
        " 999 ", f" {secret.memory.id} "
    )
    assert "in the spaces this app may use" in _text(refused)
    with Profile.open(config, vault) as prof:
        new_id = added.structured_content["changes"][0]["id"]
        assert prof.memories.get(new_id).space == work
        assert prof.memories.get(secret.memory.id).space == family  # still there
        assert "refused:delete_memory" in {a.tool for a in prof.clients.recent("Coder")}
    code, out, _ = run("clients", "list", "--json")
    assert json.loads(out)["apps"][0]["spaces"] == ["Work"]
