"""`desktop-mem sync`: set up, join (recovery code and pairing code), now, status,
devices, rename, remove, off, with --json and one sentence for each fault."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.conftest import Run
from tests.fakes.ollama_server import FakeOllama


def _code(err: str) -> str:
    found = re.search(r"\b([A-Z0-9]{4,6}(?:-[A-Z0-9]{4,6}){3,})\b", err)
    assert found, err
    return found.group(1)


def test_two_computers_from_the_command_line(
    run: Run, tmp_path: Path, fake_ollama: FakeOllama
) -> None:
    folder = tmp_path / "Dropbox"
    folder.mkdir()
    laptop = ["--home", str(tmp_path / "laptop"), "--ollama-host", fake_ollama.url,
              "--embed-model", "fake-embed"]  # fmt: skip
    desktop = ["--home", str(tmp_path / "desktop"), "--ollama-host", fake_ollama.url,
               "--embed-model", "fake-embed"]  # fmt: skip
    code, _, err = run("memory", "add", "I grow tomatoes on the balcony", base=laptop)
    assert code == 0, err
    recovery = _code(err)
    code, out, err = run("sync", "setup", str(folder), "--name", "laptop", base=laptop)
    assert code == 0, err
    assert "now syncs through" in out and "sync join" in out

    # a wrong code: one sentence, exit 3, and the new profile's own code is said
    code, out, err = run("sync", "join", str(folder), "--code", "AAAA-BBBB-CCCC-DDDD-EEEE-FFFF",
                         base=desktop)  # fmt: skip
    assert code == 3, (out, err)
    assert "does not open this synced profile" in err

    code, out, err = run("sync", "join", str(folder), "--code", recovery, "--name", "desktop",
                         "--json", base=desktop)  # fmt: skip
    assert code == 0, err
    data = json.loads(out)
    assert data["counts"]["memories"] == 1 and data["sync"]["name"] == "desktop"
    # the code shown when the failed join made the profile no longer opens it: the core
    # says what joining did
    assert data["recovery_code"] == "synced"
    # what arrived is indexed by this computer's own model before the command returns
    assert data["indexed"] == {"memories": 1, "messages": 0, "passages": 0}
    code, out, _ = run("memory", "list", "--json", base=desktop)
    assert [m["text"] for m in json.loads(out)] == ["I grow tomatoes on the balcony"]

    # the recovery code of the synced profile opens the joined copy too
    code, out, err = run("memory", "add", "我周末去爬山", base=desktop)
    assert code == 0 and "recovery code" not in err.lower()
    code, out, err = run("sync", "now", "--json", base=desktop)
    assert code == 0, err and json.loads(out)["sent"] >= 1
    code, out, err = run("sync", "now", base=laptop)
    assert code == 0 and out.startswith("Synced:"), err
    code, out, _ = run("memory", "list", "--json", base=laptop)
    assert sorted(m["text"] for m in json.loads(out)) == sorted(
        ["I grow tomatoes on the balcony", "我周末去爬山"]
    )

    code, out, err = run("sync", "devices", "--json", base=laptop)
    assert code == 0, err
    data = json.loads(out)
    assert data["this"]["name"] == "laptop"
    assert [c["name"] for c in data["computers"]] == ["desktop"]
    code, out, err = run("sync", "rename", "work laptop", base=laptop)
    assert code == 0 and "work laptop" in out
    code, out, err = run("sync", "status", base=laptop)
    assert code == 0 and "work laptop" in out and "desktop" in out

    # a pairing code joins a third computer
    code, out, err = run("sync", "pair", "--json", base=laptop)
    assert code == 0, err
    pairing = json.loads(out)["pairing_code"]
    third = ["--home", str(tmp_path / "third"), "--ollama-host", fake_ollama.url,
             "--embed-model", "fake-embed"]  # fmt: skip
    code, out, err = run("sync", "join", str(folder), "--code", pairing, "--name", "tablet",
                         base=third)  # fmt: skip
    assert code == 0, err
    assert "Joined as tablet: 2 memories" in out and "Indexed 2 items by meaning." in out
    assert re.search(r"This computer waits to be let in by (work )?laptop: it does so", out), out
    # made by the join: its own code was never shown, the synced profile's opens it
    assert "The recovery code of the profile you joined opens this profile.\n" in out
    assert "no longer" not in out and "recovery code" not in err.lower()
    code, out, err = run("sync", "now", base=laptop)  # lets it in, and says so
    assert code == 0, err
    assert re.search(r"tablet joined the sync \(with the pairing code shown on work laptop at "
                     r"\d\d:\d\d\)\.", out), out  # fmt: skip
    code, out, err = run("sync", "now", base=third)
    assert code == 0 and "This computer is in the sync now." in out, (out, err)
    code, out, err = run("sync", "now", base=desktop)  # told once on the others too
    assert code == 0 and "tablet joined the sync (with the pairing code" in out, (out, err)
    code, out, err = run("sync", "now", base=desktop)
    assert "joined" not in out

    # the desktop is taken out; a later change on the laptop does not open for it
    code, out, err = run("sync", "remove", "desktop", base=laptop)
    assert code == 0, err
    run("memory", "add", "A secret after the removal", base=laptop)
    assert run("sync", "now", base=laptop)[0] == 0
    code, out, err = run("sync", "now", base=desktop)
    code, out, _ = run("memory", "list", "--json", base=desktop)
    assert "A secret after the removal" not in out
    code, out, err = run("sync", "now", base=third)
    assert code == 0, err
    code, out, _ = run("memory", "list", "--json", base=third)
    assert "A secret after the removal" in out

    code, out, err = run("sync", "off", base=laptop)
    assert code == 0 and "off" in out
    code, out, err = run("sync", "now", base=laptop)
    assert code == 1 and err.count("\n") == 1 and "not synced" in err


def test_a_missing_folder_and_a_profile_with_data_get_one_sentence(
    run: Run, tmp_path: Path
) -> None:
    code, out, err = run("sync", "setup", str(tmp_path / "nowhere" / "deeper"))
    assert code != 0 and err.count("\n") == 1, err
    folder = tmp_path / "Sync"
    folder.mkdir()
    run("memory", "add", "something of mine")
    code, out, err = run("sync", "join", str(folder), "--code", "AAAA")
    assert code != 0 and err.count("\n") == 1 and "no synced desktop-mem profile" in err, err


def test_a_join_while_the_model_server_is_down_indexes_later(
    run: Run, tmp_path: Path, fake_ollama: FakeOllama
) -> None:
    folder = tmp_path / "Sync"
    folder.mkdir()
    laptop = ["--home", str(tmp_path / "laptop"), "--ollama-host", fake_ollama.url,
              "--embed-model", "fake-embed"]  # fmt: skip
    code, _, err = run("memory", "add", "My bike is a blue Brompton", base=laptop)
    recovery = _code(err)
    assert run("sync", "setup", str(folder), base=laptop)[0] == 0
    down = ["--home", str(tmp_path / "desktop"), "--ollama-host", "http://127.0.0.1:9",
            "--embed-model", "fake-embed"]  # fmt: skip
    code, out, err = run("sync", "join", str(folder), "--code", recovery, base=down)
    assert code == 0, err
    assert "1 item waits to be indexed by meaning: the model server cannot do it now" in out
    code, out, _ = run("memory", "search", "Brompton", "--json", base=down)
    assert code == 0 and "blue Brompton" in out  # found by its words meanwhile
    up = [*down[:2], "--ollama-host", fake_ollama.url, *down[4:]]
    code, out, err = run("sync", "now", base=up)
    assert code == 0 and "Indexed 1 item by meaning." in out, (out, err)
    code, out, err = run("sync", "now", "--json", base=up)
    assert json.loads(out)["indexed"] == {"memories": 0, "messages": 0, "passages": 0}


def test_a_planted_file_is_said_once_then_counted_by_sync_status(
    run: Run, tmp_path: Path, fake_ollama: FakeOllama
) -> None:
    import os

    folder = tmp_path / "Dropbox"
    folder.mkdir()
    laptop = ["--home", str(tmp_path / "laptop"), "--ollama-host", fake_ollama.url,
              "--embed-model", "fake-embed"]  # fmt: skip
    code, _, err = run("memory", "add", "I grow tomatoes on the balcony", base=laptop)
    assert code == 0, err
    code, _, err = run("sync", "setup", str(folder), "--name", "laptop", base=laptop)
    assert code == 0, err
    keys = next(folder.glob("desktop-mem-*")) / "keys"
    os.mkfifo(keys / f"000002-{'a' * 32}.dmk")  # it hung `sync now` for ever
    code, out, err = run("sync", "now", base=laptop)
    assert code == 0, err
    assert "refused keys/000002-" in err and "not a regular file" in err
    code, out, err = run("sync", "now", "--json", base=laptop)  # another process
    assert code == 0 and json.loads(out)["refused"] == [] and json.loads(out)["ignored"] == 1
    code, out, err = run("sync", "status", base=laptop)
    assert code == 0 and "1 file in the sync folder is ignored" in out, (out, err)


def _computers(tmp_path: Path, fake_ollama: FakeOllama, *names: str) -> list[list[str]]:
    return [
        ["--home", str(tmp_path / n), "--ollama-host", fake_ollama.url, "--embed-model",
         "fake-embed"]
        for n in names
    ]  # fmt: skip


def test_status_says_which_computer_lacks_this_ones_changes(
    run: Run, tmp_path: Path, fake_ollama: FakeOllama
) -> None:
    """ "Synced" is said of a computer only once it has taken in what this one wrote;
    until then how many changes it lacks, and since when. One taken out is no longer
    listed, from the moment it is."""
    folder = tmp_path / "Sync"
    folder.mkdir()
    laptop, desktop = _computers(tmp_path, fake_ollama, "laptop", "desktop")
    code, _, err = run("memory", "add", "I grow tomatoes", base=laptop)
    recovery = _code(err)
    assert run("sync", "setup", str(folder), "--name", "laptop", base=laptop)[0] == 0
    assert run("sync", "join", str(folder), "--code", recovery, "--name", "desktop",
               base=desktop)[0] == 0  # fmt: skip
    assert run("sync", "now", base=laptop)[0] == 0
    code, out, err = run("sync", "status", base=laptop)
    assert code == 0, err
    assert re.search(r"desktop\s+has all your changes \(the last reached it \d{4}-", out), out

    # desktop's engine is paused: two changes made on the laptop do not reach it
    run("memory", "add", "I play the cello", base=laptop)
    run("memory", "add", "我喜欢喝绿茶", base=laptop)
    assert run("sync", "now", base=laptop)[0] == 0
    code, out, err = run("sync", "status", base=laptop)
    assert re.search(r"desktop\s+has not yet received your last 2 changes \(since \d{4}-", out)
    code, out, err = run("sync", "status", "--json", base=laptop)
    (c,) = json.loads(out)["computers"]
    assert (c["name"], c["up_to_date"], c["missing"], c["synced_at"]) == ("desktop", False, 2, None)
    assert c["missing_since"] and "applied" in c and "seen_at" in c  # the old fields stay
    code, out, err = run("sync", "devices", base=laptop)
    assert "has not yet received your last 2 changes" in out

    assert run("sync", "now", base=desktop)[0] == 0
    assert run("sync", "now", base=laptop)[0] == 0
    code, out, err = run("sync", "status", "--json", base=laptop)
    (c,) = json.loads(out)["computers"]
    assert c["up_to_date"] and c["missing"] == 0 and c["synced_at"] == c["received_at"]

    # taken out: gone from the lists at once, before any pass
    assert run("sync", "remove", "desktop", base=laptop)[0] == 0
    for action in ("status", "devices"):
        code, out, err = run("sync", action, base=laptop)
        assert code == 0 and "desktop" not in out, out
        assert "No other computer syncs now." in out


def test_a_lost_edit_is_said_listed_kept_and_dismissed(
    run: Run, tmp_path: Path, fake_ollama: FakeOllama
) -> None:
    folder = tmp_path / "Sync"
    folder.mkdir()
    laptop, desktop = _computers(tmp_path, fake_ollama, "laptop", "desktop")
    code, _, err = run("memory", "add", "I drive a red Fiat", base=laptop)
    recovery = _code(err)
    run("memory", "add", "I grow tomatoes", base=laptop)
    assert run("sync", "setup", str(folder), "--name", "laptop", base=laptop)[0] == 0
    assert run("sync", "join", str(folder), "--code", recovery, "--name", "desktop",
               base=desktop)[0] == 0  # fmt: skip
    ids = {m["text"]: m["id"] for m in json.loads(run("memory", "list", "--json", base=laptop)[1])}
    there = {m["text"]: m["id"]
             for m in json.loads(run("memory", "list", "--json", base=desktop)[1])}  # fmt: skip
    # apart: the laptop edits both, the desktop deletes both
    run("memory", "edit", str(ids["I drive a red Fiat"]), "I drive a blue Fiat", base=laptop)
    run("memory", "edit", str(ids["I grow tomatoes"]), "I grow cherry tomatoes", base=laptop)
    assert run("memory", "delete", *map(str, there.values()), base=desktop)[0] == 0
    assert run("sync", "now", base=desktop)[0] == 0
    code, out, err = run("sync", "now", base=laptop)
    assert code == 0, err
    assert "2 edits made here were to memories deleted on desktop: their text is kept" in out
    code, out, err = run("sync", "status", base=laptop)
    assert "2 edits made here were to memories deleted on desktop" in out
    code, out, err = run("sync", "status", "--json", base=laptop)
    (group,) = json.loads(out)["lost"]
    assert (group["kind"], group["computer"], group["count"]) == ("memory_here", "desktop", 2)
    code, out, err = run("sync", "lost", base=laptop)
    assert code == 0 and "I drive a blue Fiat" in out and "I grow cherry tomatoes" in out
    assert "2 edits made here were to memories deleted on desktop:" in out
    code, out, err = run("sync", "lost", "--json", base=laptop)
    items = {x["text"]: x for x in json.loads(out)}
    assert items["I drive a blue Fiat"]["computer"] == "desktop"

    code, out, err = run("sync", "lost", "--keep", str(items["I grow cherry tomatoes"]["id"]),
                         "--json", base=laptop)  # fmt: skip
    assert code == 0, err
    kept = json.loads(out)["memory_id"]
    code, out, _ = run("memory", "list", "--json", base=laptop)
    assert [(m["id"], m["text"]) for m in json.loads(out)] == [(kept, "I grow cherry tomatoes")]
    code, out, err = run("sync", "lost", "--dismiss", "seven", base=laptop)
    assert code != 0 and err.count("\n") == 1 and "not the id of a lost change" in err
    code, out, err = run("sync", "lost", "--dismiss", "all", base=laptop)
    assert code == 0 and out == "Deleted 1 for good.\n"
    code, out, err = run("sync", "lost", base=laptop)
    assert out == "No change was lost in a merge.\n"


def test_joining_says_which_recovery_code_opens_the_profile(
    run: Run, tmp_path: Path, fake_ollama: FakeOllama, monkeypatch
) -> None:
    from desktop_mem.core.keys import recovery
    from desktop_mem.core.keys.vault import read_sidecar

    folder = tmp_path / "Sync"
    folder.mkdir()
    laptop, desktop, tablet = _computers(tmp_path, fake_ollama, "laptop", "desktop", "tablet")
    with monkeypatch.context() as m:  # the laptop's profile is protected by a passphrase
        m.setenv("DESKTOP_MEM_PASSPHRASE", "correct horse battery")
        assert run("memory", "add", "I keep bees", base=laptop)[0] == 0
        assert run("sync", "setup", str(folder), base=laptop)[0] == 0
        pairing = json.loads(run("sync", "pair", "--json", base=laptop)[1])["pairing_code"]
        second = json.loads(run("sync", "pair", "--json", base=laptop)[1])["pairing_code"]
    # the desktop (a keyring) keeps its own code: made by the join, it is shown now
    code, out, err = run("sync", "join", str(folder), "--code", pairing, base=desktop)
    assert code == 0, err
    assert "The profile you joined has no recovery code (a passphrase protects it): this " \
        "profile keeps its own recovery code (shown above)." in out  # fmt: skip
    assert "opens this copy too" not in out
    own = _code(err)
    path = tmp_path / "desktop" / "profiles" / "default" / "memory.db"
    assert recovery.unseal(read_sidecar(path)["recovery"], own)

    # a passphrase profile joining is told of no recovery code at all
    with monkeypatch.context() as m:
        m.setenv("DESKTOP_MEM_PASSPHRASE", "another passphrase")
        code, out, err = run("sync", "join", str(folder), "--code", second, "--json",
                             base=tablet)  # fmt: skip
    assert code == 0, err
    assert json.loads(out)["recovery_code"] == "none"
    assert "recovery code" not in err.lower()


def test_every_way_a_change_is_lost_has_its_own_words() -> None:
    """`sync now` and `sync status` say each way a change was dropped in its own words
    (a way without words would be said as "1 change was lost")."""
    from desktop_mem.cli.sync import _lost_line
    from desktop_mem.core.sync import lost

    for kind in lost.KINDS:
        assert "change was lost" not in _lost_line(kind, "laptop", 1), kind
        assert "changes were lost" not in _lost_line(kind, "laptop", 2), kind
    assert _lost_line(lost.REMOVED, "laptop", 2) == (
        "2 memory changes written on laptop after it was removed were undone here"
    )
