"""`desktop-mem chat`, `conversations`, `settings` and `memory consolidate`."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from desktop_mem.core.chat.backends import remote_notice
from desktop_mem.core.models.llm import OpenAICompatChat
from desktop_mem.core.profile import Profile
from tests.conftest import Run
from tests.fakes.ollama_server import FakeOllama

HANGZHOU = {"memories": [{"text": "Lives in Hangzhou with a cat named Mochi", "kind": "fact"}]}


def test_one_turn_streams_then_reports_memories(run: Run, fake_ollama: FakeOllama) -> None:
    fake_ollama.reply_json(HANGZHOU)
    code, out, err = run("chat", "I live in Hangzhou with my cat Mochi")
    assert code == 0 and out == "You said: I live in Hangzhou with my cat Mochi\n"
    assert "memory added #1: Lives in Hangzhou with a cat named Mochi" in err

    code, out, _ = run("chat", "where do I live with my cat?", "--json")
    data = json.loads(out)
    assert code == 0 and data["status"] == "complete" and data["conversation_id"] == 2
    assert data["used"][0]["text"] == "Lives in Hangzhou with a cat named Mochi"
    assert data["recalled"] == [], "the message the memory came from is not repeated"
    assert data["prompt"]["memory_tokens"] > 0
    assert "Lives in Hangzhou" in fake_ollama.last_prompt()

    code, out, _ = run("chat", "and my cat?", "--conversation", "2", "--json")
    assert json.loads(out)["conversation_id"] == 2
    body = fake_ollama.chat_requests(structured=False)[-1]
    assert [m["role"] for m in body["messages"]] == ["system", "user", "assistant", "user"]


def test_chat_errors_have_exit_codes_and_keep_the_message(
    run: Run, fake_ollama: FakeOllama
) -> None:
    code, _, err = run("chat", "hello", "--model", "missing:1b")
    assert code == 4 and "ollama pull missing:1b" in err
    code, out, _ = run("conversations", "show", "1", "--json")
    msgs = json.loads(out)["messages"]
    assert msgs[0]["content"] == "hello" and msgs[1]["status"] == "error"
    base = [
        "--home",
        run.base[1],
        "--ollama-host",
        "http://127.0.0.1:9",
        "--embed-model",
        "fake-embed",
    ]
    code, _, err = run("chat", "anyone?", base=base)
    assert code == 4 and "not reachable" in err


def test_incognito_and_commands(run: Run, fake_ollama: FakeOllama) -> None:
    code, out, _ = run("chat", "my secret plan", "--incognito")
    assert code == 0 and out.startswith("You said")
    assert json.loads(run("conversations", "list", "--json")[1]) == []

    code, out, err = run("chat", "remember that I am allergic to peanuts")
    assert code == 0 and "I'll remember: you are allergic to peanuts" in out
    assert "memory added" in err
    code, out, err = run("chat", "forget peanuts")
    assert "memory #1: The user is allergic to peanuts" in err and "Nothing deleted" in err
    assert "remember that I am allergic to peanuts" in err  # the message that said it, offered
    code, out, err = run("chat", "forget peanuts", "--yes")
    assert code == 0 and "Deleted 1 memory" in out
    assert json.loads(run("memory", "list", "--json")[1]) == []


def test_conversations_commands(run: Run, fake_ollama: FakeOllama, tmp_path: Path) -> None:
    # Waiting for learning and indexing: with --no-wait whether the messages had vectors
    # when the search ran depended on the machine's speed.
    run("chat", "Plan a trip to Kyoto temples")
    run("chat", "帮我写一封请假邮件")
    code, out, _ = run("conversations", "list")
    assert code == 0 and "Plan a trip to Kyoto temples" in out and "请假邮件" in out
    # Two words: the fake's embedding of one word is a random direction, which the
    # relevance rule rightly does not trust (a real model's is the word's meaning).
    code, out, _ = run("conversations", "search", "kyoto temples", "--json")
    assert json.loads(out)[0]["conversation_id"] == 1
    assert run("conversations", "rename", "1", "Kyoto")[0] == 0
    target = tmp_path / "kyoto.md"
    assert run("conversations", "export", "1", str(target))[0] == 0
    assert target.read_text().startswith("# Kyoto")
    assert run("conversations", "delete", "1")[0] == 0
    assert run("conversations", "show", "1")[0] == 1


def test_auto_memory_setting_and_consolidate(run: Run, fake_ollama: FakeOllama) -> None:
    assert run("settings", "set", "auto_memory", "off")[0] == 0
    assert "auto_memory          False" in run("settings")[1]
    run("chat", "I live in Hangzhou")
    assert fake_ollama.chat_requests(structured=True) == []
    run("memory", "add", "Lives in Hangzhou")
    run("memory", "add", "lives in   hangzhou")
    code, out, _ = run("memory", "consolidate", "--json")
    changes = json.loads(out)
    assert code == 0 and [c["action"] for c in changes] == ["merged"]
    code, out, _ = run("memory", "list", "--current", "--json")
    assert len(json.loads(out)) == 1


def test_openai_backend_is_opt_in(run: Run, fake_ollama: FakeOllama) -> None:
    assert run("settings", "set", "openai_enabled", "true")[0] == 0
    code, _, err = run("chat", "hi")
    assert code == 1 and "URL or model is not set" in err
    run("settings", "set", "openai_base_url", fake_ollama.url + "/v1")
    run("settings", "set", "openai_model", "qwen2.5:7b")
    run("settings", "set", "openai_api_key", "sk-test")
    assert "sk-test" not in run("settings")[1]
    fake_ollama.reply_json(HANGZHOU)
    code, out, err = run("chat", "I live in Hangzhou with Mochi")
    assert code == 0 and out == "You said: I live in Hangzhou with Mochi\n"
    assert "notice:" not in err, "a server on this computer needs no notice"
    assert "memory added" in err, "structured outputs work through response_format"
    assert "/v1/chat/completions" in fake_ollama.paths() and "/api/chat" not in fake_ollama.paths()
    run("settings", "set", "openai_api_key", "sk-wrong")
    code, _, err = run("chat", "hi")
    assert code == 4 and "refused the API key" in err


def test_remote_backend_notice_is_shown_once(profile: Profile) -> None:
    cloud = OpenAICompatChat("https://api.example.com/v1", "gpt-x")
    assert not cloud.local and OpenAICompatChat("http://127.0.0.2:1234/v1", "m").local
    notice = remote_notice(profile, cloud)
    assert notice and "api.example.com" in notice and "outside this computer" in notice
    assert remote_notice(profile, cloud) is None


def test_models_list_and_pull(run: Run, fake_ollama: FakeOllama) -> None:
    code, out, _ = run("models", "list", "--json")
    assert code == 0 and "qwen2.5:7b" in json.loads(out)
    code, out, err = run("models", "pull", "llama3.2:3b")
    assert code == 0 and "Pulled llama3.2:3b" in out and "100.0%" in err
    assert "llama3.2:3b" in json.loads(run("models", "list", "--json")[1])
    code, _, err = run("models", "pull", "nope:1b")
    assert code == 4 and "does not exist" in err
    code, out, _ = run("chat", "hi", "--model", "llama3.2:3b")
    assert code == 0 and out.startswith("You said: hi")


def test_chat_logs_hold_no_conversation_text(run: Run, fake_ollama: FakeOllama, home: Path) -> None:
    canary = "quokkazanzibar log canary 9931"
    fake_ollama.reply_json("{" + canary)
    fake_ollama.reply_json({"memories": [{"text": canary, "valid_until": canary}]})
    assert run("chat", f"my secret is {canary}")[0] == 0
    logs = list((home / "logs").glob("*"))
    assert logs and any(p.read_text() for p in logs), "the failures were logged"
    assert not any(canary in p.read_text(errors="replace") for p in logs)


def test_interactive_conversation(
    run: Run, fake_ollama: FakeOllama, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("hello\n/regen\n\n/new\n你好\n/quit\n"))
    code, out, err = run("chat")
    assert code == 0 and "Chatting with qwen2.5:7b" in err
    assert out.count("You said: hello") == 2 and "You said: 你好" in out
    convs = json.loads(run("conversations", "list", "--json")[1])
    assert [c["messages"] for c in convs] == [2, 2], (
        "regenerate replaced the answer; /new began another"
    )


def test_ctrl_c_stops_the_answer_and_keeps_it(
    home: Path, fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    fake_ollama.reply(" ".join(f"w{i}" for i in range(400)), chunk_delay=0.02)
    env = dict(os.environ, DESKTOP_MEM_PASSPHRASE="a passphrase for this test")
    cmd = [sys.executable, "-m", "desktop_mem", "--home", str(home), "--ollama-host",
           fake_ollama.url, "--embed-model", "fake-embed", "chat", "tell me a story"]  # fmt: skip
    # Ctrl+C as a terminal delivers it: a suite started in the background (`cmd &` in a
    # script) ignores SIGINT, and the command would inherit that and answer to the end.
    proc = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert proc.stdout is not None
    proc.stdout.read(6)  # the answer has started
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert b"(stopped)" in err
    show = subprocess.run(
        [*cmd[:9], "conversations", "show", "1", "--json"], env=env, capture_output=True, timeout=60
    )
    msgs = json.loads(show.stdout)["messages"]
    assert msgs[1]["status"] == "stopped" and msgs[1]["content"].startswith("w0 w1")
    assert len(msgs[1]["content"].split()) < 400


def test_a_conversation_export_is_private_and_written_whole(
    run: Run, fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    import os
    import stat

    assert run("chat", "I keep bees on the roof")[0] == 0
    old = os.umask(0o022)
    try:
        target = tmp_path / "chat.md"
        target.write_text("an older export")
        code, out, _ = run("conversations", "export", "1", str(target))
    finally:
        os.umask(old)
    assert code == 0 and "not encrypted" in out
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert "I keep bees on the roof" in target.read_text()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".desktop-mem")], "no temp file"


def test_ctrl_c_stops_an_answer_the_server_has_not_started(
    home: Path, fake_ollama: FakeOllama
) -> None:
    from tests.fakes.ollama_server import HOLD_LIMIT, hang

    held = hang(fake_ollama)  # a model loading: the request is taken, nothing answered
    env = dict(os.environ, DESKTOP_MEM_PASSPHRASE="a passphrase for this test")
    cmd = [sys.executable, "-m", "desktop_mem", "--home", str(home), "--ollama-host",
           fake_ollama.url, "--embed-model", "fake-embed", "chat", "are you there?"]  # fmt: skip
    proc = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert held.arrived.wait(HOLD_LIMIT)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=HOLD_LIMIT * 2)
    assert not held.answered.is_set(), "Ctrl+C waited for the server's answer"
    assert proc.returncode == 0, err
    assert b"(stopped)" in err
    held.release.set()
