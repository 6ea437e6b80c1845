"""A fake Ollama server: real HTTP on 127.0.0.1, scripted and deterministic.

Embeddings are feature-hashed bags of words and CJK bigrams, so texts that share
words get similar vectors (search behaves like a real, if simple, model) and the
same text always gets the same vector. Every request is recorded, so tests can
assert what the product sent. Faults are injected with `fail_next`.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np

_TOKEN = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]+|[^\W_]+")


def _features(text: str) -> list[str]:
    feats = []
    for tok in _TOKEN.findall(text.lower()):
        if re.match(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]", tok):
            feats += [tok[i : i + 2] for i in range(max(1, len(tok) - 1))]
        else:
            feats.append(tok[:-1] if len(tok) > 3 and tok.endswith("s") else tok)
    return feats


def _direction(feature: str, dim: int) -> np.ndarray:
    seed = int.from_bytes(hashlib.blake2b(feature.encode(), digest_size=8).digest(), "little")
    return np.random.default_rng(seed).standard_normal(dim)


def fake_embedding(text: str, dim: int) -> list[float]:
    """Sum of a dense pseudo-random direction per word (and CJK bigram), plus a shared
    component like real models' non-zero mean: dense like a real embedding, and texts
    that share words are close."""
    vec = 0.5 * _direction("<shared>", dim)
    for feat in _features(text) or ["<empty>"]:
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


@dataclass
class FakeOllama:
    embed_models: dict[str, int] = field(default_factory=lambda: {"fake-embed": 64})
    chat_models: list[str] = field(default_factory=lambda: ["qwen2.5:7b"])
    requests: list[tuple[str, str, Any]] = field(default_factory=list)
    faults: list[Fault] = field(default_factory=list)
    delay: float = 0.0

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
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

        self.httpd = _Server(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    # -- control ----------------------------------------------------------------------

    @property
    def url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> FakeOllama:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def fail_next(self, status: int = 500, times: int = 1, **kw: Any) -> None:
        with self._lock:
            self.faults += [Fault(status=status, **kw) for _ in range(times)]

    def paths(self) -> list[str]:
        return [p for _, p, _ in self.requests]

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
            if fault.delay:
                time.sleep(fault.delay)
            if fault.drop:
                handler.close_connection = True
                handler.wfile.flush()
                handler.connection.close()
                return
            self._send(handler, fault.status, fault.body or json.dumps({"error": "injected fault"}))
            return
        route = {
            ("GET", "/"): lambda: (200, "Ollama is running"),
            ("HEAD", "/"): lambda: (200, ""),
            ("GET", "/api/version"): lambda: (200, {"version": "0.12.6"}),
            ("GET", "/api/tags"): lambda: (200, {"models": self._tags()}),
            ("POST", "/api/embed"): lambda: self._embed(body),
            ("POST", "/api/embeddings"): lambda: self._embed_legacy(body),
            ("POST", "/api/show"): lambda: self._show(body),
        }.get((method, path))
        if route is None:
            self._send(handler, 404, {"error": f"{path} not found"})
            return
        status, payload = route()
        self._send(handler, status, payload)

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
        dim = self._model_dim(name)
        if dim is None:
            return self._missing(name)
        inputs = body.get("input")
        texts = [inputs] if isinstance(inputs, str) else list(inputs or [])
        return 200, {"model": name, "embeddings": [fake_embedding(t, dim) for t in texts]}

    def _embed_legacy(self, body: dict[str, Any]) -> tuple[int, Any]:
        name = body.get("model", "")
        dim = self._model_dim(name)
        if dim is None:
            return self._missing(name)
        return 200, {"embedding": fake_embedding(body.get("prompt", ""), dim)}

    def _show(self, body: dict[str, Any]) -> tuple[int, Any]:
        name = body.get("model") or body.get("name") or ""
        base = name[: -len(":latest")] if name.endswith(":latest") else name
        if base not in self.embed_models and name not in self.chat_models:
            return self._missing(name)
        info = {"general.architecture": "fake", "fake.context_length": 32768}
        if base in self.embed_models:
            info["fake.embedding_length"] = self.embed_models[base]
        return 200, {
            "modelfile": "",
            "parameters": "",
            "template": "",
            "details": {},
            "model_info": info,
        }


def main() -> None:  # python -m tests.fakes.ollama_server: run it by hand
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=0)
    args = ap.parse_args()
    fake = FakeOllama()
    fake.httpd.server_address  # noqa: B018
    if args.port:
        fake.httpd.server_close()
        fake.httpd = _Server(("127.0.0.1", args.port), fake.httpd.RequestHandlerClass)
    fake.start()
    print(f"listening on {fake.url}", flush=True)
    fake.thread.join()


if __name__ == "__main__":
    main()
