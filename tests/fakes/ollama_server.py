"""A fake Ollama server: real HTTP on 127.0.0.1, scripted and deterministic.

Embeddings are feature-hashed bags of words and CJK bigrams, so texts that share
words get similar vectors (search behaves like a real, if simple, model) and the
same text always gets the same vector. Every request is recorded, so tests can
assert what the product sent. Faults are injected with `fail_next`; a request (or a
streamed answer, part way) can be held until the test releases it, so a test waits on
what it observes (the request arrived, it was answered) instead of on a clock.
`invalid_json` answers every structured request with broken JSON. Chat requests go
through a simulated scheduler (tests/fakes/scheduler.py: context length per loaded
model, slots with their prompt caches), which /api/ps reports as Ollama does.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np

from tests import report
from tests.fakes.scheduler import Scheduler

# A held request is answered anyway after this long, so a test whose product never
# gets past the hold fails (its assertion sees the release came too late) instead of
# hanging the suite. It bounds a failure, it is never what a passing test waits for.
HOLD_LIMIT = 30.0

_TOKEN = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]+|[^\W_]+")


def _features(text: str, reads_cjk: bool = True) -> list[str]:
    feats = []
    for tok in _TOKEN.findall(text.lower()):
        if re.match(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]", tok):
            if not reads_cjk:  # a run of text it cannot read: a direction of its own
                feats.append(f"<unread:{tok}>")
                continue
            feats += [tok[i : i + 2] for i in range(max(1, len(tok) - 1))]
        else:
            feats.append(tok[:-1] if len(tok) > 3 and tok.endswith("s") else tok)
    return feats


def _direction(feature: str, dim: int) -> np.ndarray:
    seed = int.from_bytes(hashlib.blake2b(feature.encode(), digest_size=8).digest(), "little")
    return np.random.default_rng(seed).standard_normal(dim)


def fake_embedding(text: str, dim: int, reads_cjk: bool = True) -> list[float]:
    """Sum of a dense pseudo-random direction per word (and CJK bigram), plus a shared
    component like real models' non-zero mean: dense like a real embedding, and texts
    that share words are close. Without `reads_cjk` a run of Chinese or Japanese is a
    direction of its own, related to no other text: a model that cannot read it."""
    vec = 0.5 * _direction("<shared>", dim)
    for feat in _features(text, reads_cjk) or ["<empty>"]:
        vec += _direction(feat, dim)
    norm = np.linalg.norm(vec)
    return (vec / norm).round(6).tolist()


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client that gave up (timeout, stop) leaves a broken pipe: expected here.
        import sys

        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


@dataclass
class Fault:
    status: int = 500
    body: str | None = None
    delay: float = 0.0
    drop: bool = False  # close the connection without an answer
    paths: tuple[str, ...] = ()
    after: int = 0  # let this many matching requests through first
    hold: bool = False  # answer only once `release` is set
    arrived: threading.Event = field(default_factory=threading.Event)  # the request came
    release: threading.Event = field(default_factory=threading.Event)
    answered: threading.Event = field(default_factory=threading.Event)  # the answer went out


@dataclass
class Reply:
    """A scripted chat answer. Streamed as `chunks` (default: word by word)."""

    text: str = ""
    chunks: list[str] | None = None
    chunk_delay: float = 0.0
    die_after: int | None = None  # drop the connection after this many chunks
    error_after: int | None = None  # send an error line after this many chunks
    hold_after: int | None = None  # after this many chunks, wait for `release`
    release: threading.Event = field(default_factory=threading.Event)
    resumed: threading.Event = field(default_factory=threading.Event)  # sending again
    prompt_tokens: int | None = None

    def pieces(self) -> list[str]:
        if self.chunks is not None:
            return self.chunks
        return re.findall(r"\S+\s*|\s+", self.text) or [""]


@dataclass
class FakeOllama:
    embed_models: dict[str, int] = field(default_factory=lambda: {"fake-embed": 256})
    # Pulled as embedding models (name: dimension), as Ollama's library has them: a
    # pulled bge-m3 embeds, it does not chat.
    embed_pullable: dict[str, int] = field(
        default_factory=lambda: {"bge-m3": 1024, "nomic-embed-text": 768}
    )
    chat_models: list[str] = field(default_factory=lambda: ["qwen2.5:7b"])
    pullable: set[str] = field(default_factory=lambda: {"qwen2.5:7b", "llama3.2:3b"})
    requests: list[tuple[str, str, Any]] = field(default_factory=list)
    faults: list[Fault] = field(default_factory=list)
    delay: float = 0.0
    context_length: int = 32768
    api_key: str = "sk-test"  # what the OpenAI-compatible endpoint accepts
    # Scripted answers: `replies` for ordinary chat, `json_replies` for requests with
    # `format` (structured outputs). When a queue is empty the responders answer.
    replies: list[Reply] = field(default_factory=list)
    json_replies: list[Any] = field(default_factory=list)
    # Conversation titles (structured requests for {"title"}) have their own queue, so a
    # title asked after an exchange never takes a reply scripted for extraction; with
    # none queued the title is empty (the product keeps the first message's start).
    titles: list[str] = field(default_factory=list)
    # The "about you" profile (structured requests for {"lines"}) has its own queue too;
    # with none queued the fake writes one the way the prompt asks (`fake_profile`).
    profiles: list[Any] = field(default_factory=list)
    profile_responder: Any = None  # (request body) -> object | str
    responder: Any = None  # (request body) -> Reply | str
    json_responder: Any = None  # (request body) -> object | str
    title_responder: Any = None  # (request body) -> str
    port: int = 0  # 0: any free port
    # Every structured answer (extraction, decisions; not titles) is broken JSON.
    invalid_json: bool = False
    # What the model server does with the requests (reloads, cached prefixes); with
    # `count_prompts` the answers report its prompt token counts.
    scheduler: Scheduler = field(default_factory=Scheduler)
    count_prompts: bool = False
    answers: dict[int, str] = field(default_factory=dict)  # request index -> the answer
    # Embedding models (by name) that cannot read Chinese or Japanese (fake_embedding)
    cjk_blind: set[str] = field(default_factory=set)
    embed_proxy: str | None = None  # forward /api/embed to this server (a real model)
    pull_size: int = 4_000_000  # bytes a pull reports (a real chat model: 4.7 GB)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._releases: list[threading.Event] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def do_GET(self) -> None:
                fake._handle(self, "GET", None)

            def do_HEAD(self) -> None:
                fake._handle(self, "HEAD", None)

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    body = raw
                fake._handle(self, "POST", body)

            def do_DELETE(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                fake._handle(self, "DELETE", json.loads(raw or b"{}"))

        self.httpd = _Server(("127.0.0.1", self.port), Handler)
        # serve_forever looks for shutdown() every poll_interval (0.5 s by default): at
        # 0.01 s a test's server stops in milliseconds (hundreds of tests start one)
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
        )

    # -- control ----------------------------------------------------------------------

    @property
    def url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> FakeOllama:
        self.thread.start()
        return self

    def stop(self) -> None:
        for release in self._releases:  # nothing held outlives the server
            release.set()
        self.httpd.shutdown()
        self.httpd.server_close()

    def fail_next(self, status: int = 500, times: int = 1, **kw: Any) -> list[Fault]:
        """Queue faults; returned so a test can watch them (`arrived`, `answered`) and
        release a held one."""
        faults = [Fault(status=status, **kw) for _ in range(times)]
        with self._lock:
            self.faults += faults
            self._releases += [f.release for f in faults]
        return faults

    def paths(self) -> list[str]:
        return [p for _, p, _ in self.requests]

    def reply(self, text: str = "", **kw: Any) -> Reply:
        reply = Reply(text, **kw)
        with self._lock:
            self.replies.append(reply)
            self._releases.append(reply.release)
        return reply

    def reply_json(self, payload: Any) -> None:
        """Queue a structured-output answer: an object (sent as JSON) or raw text."""
        with self._lock:
            self.json_replies.append(payload)

    def chat_requests(
        self, structured: bool | None = None, titles: bool = False
    ) -> list[dict[str, Any]]:
        """Bodies of /api/chat requests (only those with or without `format`); requests
        for a conversation's title only with `titles` (then only those)."""
        return [
            body
            for _, path, body in self.requests
            if path == "/api/chat"
            and (structured is None or bool(body.get("format")) == structured)
            and _asks_title(body) == titles
        ]

    def last_prompt(self) -> str:
        """Every message of the last ordinary chat request, joined: what the model saw."""
        body = self.chat_requests(structured=False)[-1]
        return "\n\n".join(f"[{m['role']}] {m['content']}" for m in body["messages"])

    def embed_inputs(self) -> list[str]:
        out: list[str] = []
        for _, path, body in self.requests:
            if path == "/api/embed":
                inp = body.get("input")
                out += [inp] if isinstance(inp, str) else list(inp)
        return out

    # -- serving ----------------------------------------------------------------------

    def _handle(self, handler: BaseHTTPRequestHandler, method: str, body: Any) -> None:
        path = handler.path.split("?")[0]
        with self._lock:
            self.requests.append((method, path, body))
            index = len(self.requests) - 1
            fault = None
            for f in self.faults:
                if not f.paths or path in f.paths:
                    if f.after > 0:
                        f.after -= 1
                        break
                    fault = f
                    break
            if fault:
                self.faults.remove(fault)
        if self.delay:
            time.sleep(self.delay)
        if fault:
            report.add("faults")
            fault.arrived.set()
            if fault.hold:
                fault.release.wait(HOLD_LIMIT)
            if fault.delay:
                time.sleep(fault.delay)
            if fault.drop:
                handler.close_connection = True
                handler.wfile.flush()
                handler.connection.close()
            else:
                body = fault.body or json.dumps({"error": "injected fault"})
                with contextlib.suppress(OSError):  # the client may be gone (killed)
                    self._send(handler, fault.status, body)
            fault.answered.set()
            return
        route = {
            ("GET", "/"): lambda: (200, "Ollama is running"),
            ("HEAD", "/"): lambda: (200, ""),
            ("GET", "/api/version"): lambda: (200, {"version": "0.12.6"}),
            ("GET", "/api/tags"): lambda: (200, {"models": self._tags()}),
            ("POST", "/api/embed"): lambda: self._embed(body),
            ("POST", "/api/embeddings"): lambda: self._embed_legacy(body),
            ("POST", "/api/show"): lambda: self._show(body),
            ("POST", "/api/chat"): lambda: self._chat(handler, body, index),
            ("GET", "/api/ps"): lambda: (200, {"models": self.scheduler.ps()}),
            ("POST", "/api/pull"): lambda: self._pull(handler, body),
            # the OpenAI-compatible API (as LM Studio and llama.cpp's server speak it)
            ("GET", "/v1/models"): lambda: (
                200,
                {
                    "object": "list",
                    "data": [{"id": n, "object": "model"} for n in self.chat_models],
                },
            ),
            ("POST", "/v1/chat/completions"): lambda: self._openai_chat(handler, body),
        }.get((method, path))
        if route is None:
            self._send(handler, 404, {"error": f"{path} not found"})
            return
        result = route()
        if result is not None:  # streamed routes answer themselves
            self._send(handler, *result)

    # -- chat and pull --------------------------------------------------------------

    def _chat(self, handler: BaseHTTPRequestHandler, body: dict[str, Any], index: int) -> Any:
        name = body.get("model", "")
        if name not in self.chat_models and f"{name}:latest" not in self.chat_models:
            return self._missing(name)
        reply = self._next_reply(body, structured=bool(body.get("format")))
        answer = reply.text or "".join(reply.pieces())
        with self._lock:
            self.answers[index] = answer
        served = self.scheduler.chat(  # a huge answer's cache is of no interest: its start
            name, body.get("messages", []), body.get("options"), answer[:100_000],
            _kind(body), body.get("keep_alive"),
        )  # fmt: skip
        prompt_tokens = reply.prompt_tokens or (
            served.prompt_tokens
            if self.count_prompts
            else sum(len(m.get("content", "")) // 4 + 4 for m in body.get("messages", []))
        )
        done = {
            "model": name,
            "created_at": "2026-11-30T00:00:00Z",
            "message": {"role": "assistant", "content": ""},
            "done": True,
            "done_reason": "stop",
            "prompt_eval_count": prompt_tokens,
            "eval_count": len(reply.pieces()),
        }
        if body.get("stream") is False:
            done["message"]["content"] = reply.text or "".join(reply.pieces())
            return 200, done
        self._stream_start(handler)
        for n, piece in enumerate(reply.pieces()):
            if reply.die_after is not None and n >= reply.die_after:
                report.add("faults")
                handler.close_connection = True
                handler.connection.shutdown(2)
                return None
            if reply.error_after is not None and n >= reply.error_after:
                report.add("faults")
                self._stream_line(handler, {"error": "model runner has unexpectedly stopped"})
                self._stream_end(handler)
                return None
            if reply.hold_after is not None and n == reply.hold_after:
                reply.release.wait(HOLD_LIMIT)
                reply.resumed.set()
            if reply.chunk_delay:
                time.sleep(reply.chunk_delay)
            line = {
                "model": name,
                "created_at": "2026-11-30T00:00:00Z",
                "message": {"role": "assistant", "content": piece},
                "done": False,
            }
            if not self._stream_line(handler, line):
                return None  # the client went away (stop)
        self._stream_line(handler, done)
        self._stream_end(handler)
        return None

    def _next_reply(self, body: dict[str, Any], structured: bool) -> Reply:
        if structured and _asks_title(body):
            with self._lock:
                title = self.titles.pop(0) if self.titles else None
            if title is None:
                title = self.title_responder(body) if self.title_responder else ""
            return Reply(json.dumps({"title": title}, ensure_ascii=False))
        if structured and asks_profile(body):
            with self._lock:
                answer = self.profiles.pop(0) if self.profiles else None
            if answer is None:
                answer = (self.profile_responder or fake_profile)(body)
            if isinstance(answer, str):  # raw text: a broken or hostile answer
                report.add("faults")
                return Reply(answer)
            return Reply(json.dumps(answer, ensure_ascii=False))
        with self._lock:
            queue: list[Any] = self.json_replies if structured else self.replies
            scripted = queue.pop(0) if queue else None
        if structured:
            if self.invalid_json and scripted is None:
                scripted = '{"memories": [{"text": "Lives in'  # cut off: not JSON
            if isinstance(scripted, str):  # raw text: how tests inject malformed JSON
                report.add("faults")
            if scripted is None:
                scripted = (self.json_responder or _empty_for_schema)(body)
            return Reply(
                scripted if isinstance(scripted, str) else json.dumps(scripted, ensure_ascii=False)
            )
        if scripted is None:
            scripted = (self.responder or _echo)(body)
        return scripted if isinstance(scripted, Reply) else Reply(str(scripted))

    def _openai_chat(self, handler: BaseHTTPRequestHandler, body: dict[str, Any]) -> Any:
        if handler.headers.get("Authorization") not in (None, f"Bearer {self.api_key}"):
            return 401, {"error": {"message": "invalid api key"}}
        if body.get("model") not in self.chat_models:
            return 404, {"error": {"message": "model not found"}}
        fmt = (body.get("response_format") or {}).get("json_schema", {}).get("schema")
        reply = self._next_reply({**body, "format": fmt}, structured=bool(fmt))
        usage = {"prompt_tokens": 10, "completion_tokens": len(reply.pieces())}
        if not body.get("stream"):
            message = {"role": "assistant", "content": reply.text}
            return 200, {"choices": [{"index": 0, "message": message}], "usage": usage}
        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream")
        handler.send_header("Transfer-Encoding", "chunked")
        handler.end_headers()
        for n, piece in enumerate(reply.pieces()):
            if reply.hold_after is not None and n == reply.hold_after:
                reply.release.wait(HOLD_LIMIT)
                reply.resumed.set()
            event = {"choices": [{"index": 0, "delta": {"content": piece}}]}
            try:
                self._sse(handler, json.dumps(event, ensure_ascii=False))
            except OSError:
                return None  # the client went away (stop)
        self._sse(handler, json.dumps({"choices": [], "usage": usage}))
        self._sse(handler, "[DONE]")
        self._stream_end(handler)
        return None

    def _sse(self, handler: BaseHTTPRequestHandler, data: str) -> None:
        raw = f"data: {data}\n\n".encode()
        handler.wfile.write(f"{len(raw):x}\r\n".encode() + raw + b"\r\n")
        handler.wfile.flush()

    def _pull(self, handler: BaseHTTPRequestHandler, body: dict[str, Any]) -> Any:
        name = body.get("model") or body.get("name") or ""
        if name not in self.pullable and name not in self.embed_pullable:
            return 500, {"error": "pull model manifest: file does not exist"}
        self._stream_start(handler)
        self._stream_line(handler, {"status": "pulling manifest"})
        total = self.pull_size
        for done in range(0, total + 1, total // 4):
            line = {"status": "pulling 1234abcd", "digest": "sha256:1234abcd", "total": total}
            if done:
                line["completed"] = done
            if not self._stream_line(handler, line):
                return None
            time.sleep(0.01)
        for status in ("verifying sha256 digest", "writing manifest", "success"):
            self._stream_line(handler, {"status": status})
        self._stream_end(handler)
        with self._lock:
            if name in self.embed_pullable:
                self.embed_models[name] = self.embed_pullable[name]
            elif name not in self.chat_models:
                self.chat_models.append(name)
        return None

    def _stream_start(self, handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "application/x-ndjson")
        handler.send_header("Transfer-Encoding", "chunked")
        handler.end_headers()

    def _stream_line(self, handler: BaseHTTPRequestHandler, payload: Any) -> bool:
        raw = (json.dumps(payload, ensure_ascii=False) + "\n").encode()
        try:
            handler.wfile.write(f"{len(raw):x}\r\n".encode() + raw + b"\r\n")
            handler.wfile.flush()
        except OSError:
            return False
        return True

    def _stream_end(self, handler: BaseHTTPRequestHandler) -> None:
        try:
            handler.wfile.write(b"0\r\n\r\n")
            handler.wfile.flush()
        except OSError:
            pass

    def _send(self, handler: BaseHTTPRequestHandler, status: int, payload: Any) -> None:
        data = payload if isinstance(payload, str) else json.dumps(payload)
        raw = data.encode()
        handler.send_response(status)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(raw)))
        handler.end_headers()
        if handler.command != "HEAD":
            handler.wfile.write(raw)

    def _tags(self) -> list[dict[str, Any]]:
        names = list(self.embed_models) + list(self.chat_models)
        return [
            {
                "name": n if ":" in n else f"{n}:latest",
                "model": n if ":" in n else f"{n}:latest",
                "modified_at": "2026-11-01T00:00:00Z",
                "size": 1000,
                "digest": hashlib.sha256(n.encode()).hexdigest(),
                "details": {"format": "gguf", "family": "fake", "parameter_size": "1B"},
            }
            for n in names
        ]

    def _model_dim(self, name: str) -> int | None:
        base = name[: -len(":latest")] if name.endswith(":latest") else name
        return self.embed_models.get(base)

    def _missing(self, name: str) -> tuple[int, dict[str, str]]:
        return 404, {"error": f'model "{name}" not found, try pulling it first'}

    def _embed(self, body: dict[str, Any]) -> tuple[int, Any]:
        name = body.get("model", "")
        self.scheduler.embed(name, body.get("options"), body.get("keep_alive"))
        if self.embed_proxy:
            import httpx

            res = httpx.post(self.embed_proxy + "/api/embed", json=body, timeout=120.0)
            return res.status_code, res.json()
        dim = self._model_dim(name)
        if dim is None:
            return self._missing(name)
        inputs = body.get("input")
        texts = [inputs] if isinstance(inputs, str) else list(inputs or [])
        reads = name.removesuffix(":latest") not in self.cjk_blind
        return 200, {"model": name, "embeddings": [fake_embedding(t, dim, reads) for t in texts]}

    def _embed_legacy(self, body: dict[str, Any]) -> tuple[int, Any]:
        name = body.get("model", "")
        dim = self._model_dim(name)
        if dim is None:
            return self._missing(name)
        return 200, {"embedding": fake_embedding(body.get("prompt", ""), dim)}

    def _show(self, body: dict[str, Any]) -> tuple[int, Any]:
        name = body.get("model") or body.get("name") or ""
        base = name[: -len(":latest")] if name.endswith(":latest") else name
        if base not in self.embed_models and not {name, base} & set(self.chat_models):
            return self._missing(name)
        info = {"general.architecture": "fake", "fake.context_length": self.context_length}
        if base in self.embed_models:
            info["fake.embedding_length"] = self.embed_models[base]
        return 200, {
            "modelfile": "",
            "parameters": "",
            "template": "",
            "details": {},
            "model_info": info,
            # as Ollama 0.6+ says what a model can do
            "capabilities": ["embedding"] if base in self.embed_models else ["completion"],
        }


_BLOCKS = re.compile(r"(?:<(memories|past_messages|documents)>\n.*?\n</\1>\n?)+\n", re.S)


def own_words(content: str) -> str:
    """A user message without the blocks the product puts before the user's words."""
    found = _BLOCKS.match(content)
    return content[found.end() :] if found else content


def _echo(body: dict[str, Any]) -> Reply:
    """Default answer: says what it was asked, so tests can follow the conversation."""
    users = [m["content"] for m in body.get("messages", []) if m.get("role") == "user"]
    return Reply(f"You said: {own_words(users[-1]) if users else ''}")


def _kind(body: dict[str, Any]) -> str:
    """What a chat request is for, as the scheduler's record names it."""
    if _asks_title(body):
        return "title"
    return "json" if body.get("format") else "chat"


def _asks_title(body: dict[str, Any]) -> bool:
    schema = body.get("format")
    return isinstance(schema, dict) and "title" in schema.get("properties", {})


def asks_profile(body: dict[str, Any]) -> bool:
    schema = body.get("format")
    return isinstance(schema, dict) and "lines" in schema.get("properties", {})


_NUMBERED = re.compile(r"^\[(\d+)\] (.+)$", re.M)


def fake_profile(body: dict[str, Any], lines: int = 16, chars: int = 160) -> dict[str, Any]:
    """The "about you" profile as the prompt asks for it: {"lines": [{"text", "cites"}]},
    one line a fact, each citing the numbers of the memories it came from. Not a
    language model: it takes the memories in the order given (the product gives the
    most important first) and writes each as a line citing its own number, skipping
    any too long for one line, up to `lines` lines."""
    users = [m["content"] for m in body.get("messages", []) if m.get("role") == "user"]
    out = []
    for number, text in _NUMBERED.findall(users[-1] if users else ""):
        if len(text) <= chars and len(out) < lines:
            out.append({"text": text.strip(), "cites": [int(number)]})
    return {"lines": out}


def _empty_for_schema(body: dict[str, Any]) -> dict[str, Any]:
    """Default structured answer: every required array of the schema, empty."""
    schema = body.get("format") or {}
    props = schema.get("properties", {}) if isinstance(schema, dict) else {}
    return {k: [] for k, v in props.items() if v.get("type") == "array"}


def demo_answer(body: dict[str, Any]) -> Reply:
    """The demo's chat answer: not a language model, so it says so, and shows what the
    app gave it (the memories and earlier messages in its prompt) and what was said."""
    messages = body.get("messages", [])
    users = [m["content"] for m in messages if m.get("role") == "user"]
    given = "\n".join(m["content"] for m in messages if m.get("role") == "system")
    given += "\n" + (users[-1] if users else "")  # the blocks come with the newest message
    quoted = re.findall(r"^- \[[^\]]*\] (.+)$", given, re.M)
    said = own_words(users[-1]) if users else ""
    if quoted:
        shown = "\n".join(f"- {q}" for q in quoted[:5])
        return Reply(
            f"(Demo model: no language model is running.) You said: {said}\n\n"
            f"desktop-mem gave me these memories for it:\n{shown}"
        )
    return Reply(
        f"(Demo model: no language model is running.) You said: {said}\n\n"
        "No memory was relevant to this message, so none was sent."
    )


def demo_title(body: dict[str, Any]) -> str:
    """The demo's conversation title: the first words the user wrote."""
    users = [m["content"] for m in body.get("messages", []) if m.get("role") == "user"]
    line = re.search(r"^USER: (.+)$", users[-1], re.M) if users else None
    try:
        if line:  # asked after the chat: the first message is quoted on its USER line
            said = str(json.loads(line.group(1)))
        else:
            said = str(json.loads(users[-1]).get("user", "")) if users else ""
    except (ValueError, AttributeError):
        said = users[-1] if users else ""
    words = said.split()
    return " ".join(words[:5]) if len(words) > 1 else said[:12]


_STATEMENT = re.compile(
    r"(?:^|(?<=[.!?。！？]\s))((?:I|I'm|I am|My|my|We|Our)\b[^.!?\n]{3,200}|我[^。！？\n]{2,120})",
)


def demo_learn(body: dict[str, Any]) -> dict[str, Any]:
    """The demo's memory extraction: every statement the user made about themselves
    ("I …", "My …", "我…") becomes a memory; consolidation adds what is new."""
    props = (body.get("format") or {}).get("properties", {})
    if "memories" not in props:
        return {"action": "ADD"} if "action" in props else _empty_for_schema(body)
    # the task is the last message (asked after the chat, the conversation comes before it)
    prompt = body.get("messages", [{}])[-1].get("content", "")
    said = []
    for line in re.findall(r"^USER: (.+)$", prompt, re.M):
        try:
            said.append(str(json.loads(line)))
        except ValueError:
            said.append(line)
    found = [s.strip() for text in said for s in _STATEMENT.findall(text)]
    return {"memories": [{"text": s, "kind": "fact", "importance": 0.6} for s in found[:5]]}


def main() -> None:
    """python -m tests.fakes.ollama_server [--port 11434] [--demo]: run it by hand, e.g.
    to try the window without Ollama (make demo does that with a seeded profile)."""
    import argparse

    ap = argparse.ArgumentParser(description=main.__doc__)
    ap.add_argument("--port", type=int, default=0, help="default: any free port")
    ap.add_argument(
        "--demo", action="store_true", help="answer and learn like a (very simple) model"
    )
    args = ap.parse_args()
    fake = FakeOllama(
        port=args.port,
        chat_models=["qwen2.5:7b", "demo"],
        responder=demo_answer if args.demo else None,
        json_responder=demo_learn if args.demo else None,
        title_responder=demo_title if args.demo else None,
    ).start()
    print(f"listening on {fake.url}", flush=True)
    try:
        fake.thread.join()
    except KeyboardInterrupt:
        fake.stop()


if __name__ == "__main__":
    main()


class Unaccepting:
    """A port that listens and never accepts: once its one-place accept queue is full
    (filled here), a new connection stays in its handshake, as a client connecting to a
    server too busy to accept does. The hang mode for the "connecting" state."""

    def __init__(self) -> None:
        import socket

        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(0)
        self._fillers: list[socket.socket] = []
        for _ in range(3):  # Linux queues backlog + 1; a spare one does no harm
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.setblocking(False)
            with contextlib.suppress(BlockingIOError):
                s.connect(self._sock.getsockname())
            self._fillers.append(s)

    @property
    def url(self) -> str:
        host, port = self._sock.getsockname()[:2]
        return f"http://{host}:{port}"

    def close(self) -> None:
        for s in self._fillers:
            s.close()
        self._sock.close()


def hang(fake: FakeOllama, path: str = "/api/chat") -> Fault:
    """The hang mode: the next request to `path` is accepted and read, and nothing is
    answered until the test releases it (or HOLD_LIMIT passes): a server loading a
    large model does this for minutes."""
    return fake.fail_next(200, paths=(path,), hold=True)[0]
