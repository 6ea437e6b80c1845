"""Chat models: Ollama (local, the default) and an opt-in OpenAI-compatible server.

Both stream an answer that the caller can stop at any moment from another thread:
`Stream.cancel()` closes the HTTP connection under the stream, so a stop takes
effect at once even while the model is thinking, and the text received so far is
kept. Every call has a timeout. Errors arrive as the typed, one-sentence errors of
`desktop_mem.core.errors` (Ollama not running, model not pulled, server failed).
Streams raise their connection errors lazily, on the first chunk, not at the call, so
`Stream` translates errors wherever they surface.

Every request to an Ollama model asks for the same context length (`num_ctx()`: the
model's trained length capped by the profile's setting), whatever sends it: the chat,
learning, titles, consolidation. Ollama reloads a model whenever a request asks for
another length than the loaded one, and leaving `num_ctx` out asks for the server's
default, which is another. Nothing else that is fixed at load time is ever sent.
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import queue
import socket
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import httpx

from desktop_mem.core.config import DEFAULT_CHAT_MODEL
from desktop_mem.core.errors import ModelFailed, ModelMissing, OllamaUnavailable
from desktop_mem.core.jsontypes import JSONObject
from desktop_mem.core.models.catalog import ModelInfo, is_embedding, short_name
from desktop_mem.core.models.embed import translate_error
from desktop_mem.core.models.ollama_client import load as load_ollama
from desktop_mem.core.settings import DEFAULTS

if TYPE_CHECKING:
    import ollama
CONNECT_TIMEOUT_S = 5.0
# Between two chunks of an answer; the first one waits for the model to load.
READ_TIMEOUT_S = 300.0
DEFAULT_CONTEXT = 4096  # what Ollama gives a model unless told otherwise
# a request's sampling options (temperature, top_p, num_predict, ...), as Ollama names them
Options = dict[str, object]
# Options fixed when Ollama loads a model: a request may never send one of them but
# num_ctx (which it always sends, the same for a model), or the model is reloaded.
LOAD_OPTIONS = frozenset(
    {"num_ctx", "num_batch", "num_gpu", "main_gpu", "use_mmap", "use_mlock", "num_thread",
     "low_vram", "f16_kv", "vocab_only", "numa"}
)  # fmt: skip


def context_window(trained: int, cap: int) -> int:
    """The context length asked of a model: its trained length, capped by the user's
    setting. The one rule; `OllamaChat.num_ctx` applies it to every request."""
    return max(512, min(trained, cap))


@dataclass
class Usage:
    """Token counts reported by the server for one call (None if it did not say)."""

    prompt_tokens: int | None = None
    answer_tokens: int | None = None


class Stream:
    """An answer arriving chunk by chunk. Iterate for text; `cancel()` from any thread
    stops it (iteration then ends quietly and `stopped` is True)."""

    def __init__(
        self,
        chunks: Callable[[], Iterator[tuple[str, Usage | None]]],
        close: Callable[[], None],
        translate: Callable[[BaseException], Exception],
    ) -> None:
        self._chunks = chunks
        self._close = close
        self._translate = translate
        self._cancelled = threading.Event()
        # what the reader thread hands over: ("piece", (text, usage)), ("end", None),
        # ("error", exception), or ("cancel", None) from `cancel()`
        self._wake: queue.Queue[tuple[str, Any]] = queue.Queue()
        self._parts: list[str] = []
        self.stopped = False
        self.done = False
        self.usage = Usage()

    @staticmethod
    def _cut_off(err: Exception) -> Exception:
        if isinstance(err, OllamaUnavailable):
            return OllamaUnavailable(
                "The model server stopped answering in the middle of the reply: the partial "
                "answer is kept; check that it is still running and retry.",
                reason="reply_cut",
            )
        reason = str(err).split("(", 1)[1].split(")", 1)[0] if "(" in str(err) else str(err)
        return ModelFailed(
            f"The model failed in the middle of the reply ({reason}): the partial answer is "
            "kept; retry, or check the server's log.",
            reason="model_failed_midway",
        )

    @property
    def text(self) -> str:
        """What has arrived so far (joined on demand: appending to one string would copy
        a long answer once per chunk)."""
        if len(self._parts) > 1:
            self._parts = ["".join(self._parts)]
        return self._parts[0] if self._parts else ""

    def cancel(self) -> None:
        self._cancelled.set()
        self._wake.put(("cancel", None))
        self._close()

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    def _produce(self) -> None:
        """Read the answer on a thread of its own: the reader blocks on the network
        (connecting, waiting for the first byte, between chunks), the caller never does,
        so a cancel ends the iteration at once in every state."""
        try:
            for item in self._chunks():
                self._wake.put(("piece", item))
                if self._cancelled.is_set():
                    return
            self._wake.put(("end", None))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller, typed there
            self._wake.put(("error", exc))

    def __iter__(self) -> Iterator[str]:
        reader = threading.Thread(target=self._produce, name="answer-reader", daemon=True)
        reader.start()
        try:
            while not self._cancelled.is_set():
                kind, value = self._wake.get()
                if self._cancelled.is_set():
                    break
                if kind == "end":
                    self.done = True
                    break
                if kind == "error":
                    assert isinstance(value, BaseException)
                    exc = value if isinstance(value, Exception) else RuntimeError(str(value))
                    raise (
                        self._cut_off(self._translate(exc)) if self.text else self._translate(exc)
                    ) from None
                piece, usage = value
                if usage is not None:
                    self.usage = usage
                if piece:
                    self._parts.append(piece)
                    yield piece
        finally:
            # shuts the connection: the reader, blocked on it, ends with an error
            # nobody reads (or at the server's next chunk)
            self._close()
        if self._cancelled.is_set():
            self.stopped = True


class ChatBackend(Protocol):
    model: str

    @property
    def local(self) -> bool: ...

    @property
    def host(self) -> str: ...

    def stream(
        self, messages: Sequence[dict[str, str]], options: Options | None = None
    ) -> Stream: ...

    def complete_json(
        self,
        messages: Sequence[dict[str, str]],
        schema: JSONObject,
        options: Options | None = None,
    ) -> tuple[str, Usage]: ...

    def context_length(self) -> int: ...

    def num_ctx(self) -> int: ...

    def models(self) -> list[str]: ...


def _timeout(read: float, connect: float = CONNECT_TIMEOUT_S) -> httpx.Timeout:
    return httpx.Timeout(connect=connect, read=read, write=30.0, pool=connect)


class _Connections:
    """The connections a stream reads from, so a stop can shut them down: closing the
    client from another thread does not wake a read blocked on its socket, which would
    wait for the server's next chunk (or its first, for minutes while a model loads).
    Each connection is kept the moment it is made (httpcore's trace of the request),
    not when the answer's headers arrive; one made after the shut is shut at once."""

    def __init__(self) -> None:
        self._streams: list[Any] = []
        self._lock = threading.Lock()
        self._shut = False

    def _trace(self, event: str, info: dict[str, object]) -> None:
        if event == "connection.connect_tcp.complete":
            stream = info.get("return_value")
            with self._lock:
                self._streams.append(stream)
                shut = self._shut
            if shut:
                self._shut_one(stream)

    def trace(self, request: httpx.Request) -> None:
        request.extensions["trace"] = self._trace

    def keep(self, response: httpx.Response) -> None:
        with self._lock:
            self._streams.append(response.extensions.get("network_stream"))

    def hooks(self) -> dict[str, list[Callable[[Any], None]]]:
        return {"request": [self.trace], "response": [self.keep]}

    @staticmethod
    def _shut_one(stream: Any) -> None:
        sock = stream.get_extra_info("socket") if stream is not None else None
        if sock is not None:
            with contextlib.suppress(OSError):  # already closed: nothing to wake
                sock.shutdown(socket.SHUT_RDWR)

    def shut(self) -> None:
        with self._lock:
            self._shut = True
            streams = list(self._streams)
        for stream in streams:
            self._shut_one(stream)


@dataclass
class PullProgress:
    status: str
    completed: int = 0
    total: int = 0

    @property
    def fraction(self) -> float | None:
        return self.completed / self.total if self.total else None


def _cap(cap: int | Callable[[], int]) -> int:
    return int(cap() if callable(cap) else cap)


@dataclass
class OllamaChat:
    host: str
    model: str = DEFAULT_CHAT_MODEL
    read_timeout: float = READ_TIMEOUT_S
    connect_timeout: float = CONNECT_TIMEOUT_S
    # the most context asked of the model: the profile's setting, read at each request
    context_cap: int | Callable[[], int] = DEFAULTS["context_tokens"]
    _context: int | None = field(default=None, init=False, repr=False)

    @property
    def local(self) -> bool:
        """Ollama on this computer; on another one, messages leave this computer."""
        return is_local_url(self.host)

    def _client(self, read: float | None = None, **kw: Any) -> ollama.Client:
        # trust_env=False: never through a proxy from the environment (see embed.py)
        return load_ollama().Client(
            host=self.host,
            timeout=_timeout(read or self.read_timeout, self.connect_timeout),
            trust_env=False,
            **kw,
        )

    def _error(self, exc: BaseException) -> Exception:
        return translate_error(exc, self.host, self.model, "chat")

    def num_ctx(self) -> int:
        """The context length every request to this model asks for."""
        return context_window(self.context_length(), _cap(self.context_cap))

    def _options(self, options: Options | None) -> Options:
        """A request's options: its own sampling options, and the model's one context
        length (a load option from a caller would reload the model: refused)."""
        extra = {k: v for k, v in (options or {}).items() if k not in LOAD_OPTIONS}
        return {**extra, "num_ctx": self.num_ctx()}

    def stream(self, messages: Sequence[dict[str, str]], options: Options | None = None) -> Stream:
        connections = _Connections()
        client = self._client(event_hooks=connections.hooks())

        def close() -> None:
            connections.shut()
            client._client.close()

        def chunks() -> Iterator[tuple[str, Usage | None]]:
            for part in client.chat(
                model=self.model, messages=list(messages), stream=True,
                options=self._options(options),
            ):  # fmt: skip
                usage = None
                if part.get("done"):
                    usage = Usage(part.get("prompt_eval_count"), part.get("eval_count"))
                yield (part.get("message") or {}).get("content") or "", usage

        return Stream(chunks, close, self._error)

    def complete_json(
        self,
        messages: Sequence[dict[str, str]],
        schema: JSONObject,
        options: Options | None = None,
    ) -> tuple[str, Usage]:
        """One non-streamed answer constrained to a JSON schema (structured outputs)."""
        try:
            with self._client() as client:
                res = client.chat(
                    model=self.model,
                    messages=list(messages),
                    format=schema,
                    options=self._options({"temperature": 0, **(options or {})}),
                )
        except Exception as exc:  # noqa: BLE001
            raise self._error(exc) from None
        usage = Usage(res.get("prompt_eval_count"), res.get("eval_count"))
        return (res.get("message") or {}).get("content") or "", usage

    def models(self) -> list[str]:
        try:
            with self._client(read=10.0) as client:
                listed = client.list()
        except Exception as exc:  # noqa: BLE001
            raise self._error(exc) from None
        return sorted(m.get("model") or "" for m in listed.get("models") or [])

    def inventory(self) -> list[ModelInfo]:
        """Every model on the server, once each (without ":latest"), with whether it
        embeds (/api/show's capabilities; by family on a server without them)."""
        try:
            with self._client(read=10.0) as client:
                listed = client.list().get("models") or []
                out: dict[str, ModelInfo] = {}
                for m in listed:
                    name = short_name(m.get("model") or "")
                    if not name or name in out:
                        continue
                    details = m.get("details") or {}
                    try:
                        caps = client.show(m.get("model")).get("capabilities")
                    except load_ollama().ResponseError:
                        caps = None  # gone meanwhile, or a server that cannot show it
                    embeds = is_embedding(name, caps, details.get("family") or "")
                    out[name] = ModelInfo(name, embeds, int(m.get("size") or 0))
        except Exception as exc:  # noqa: BLE001
            raise translate_error(
                exc, self.host, self.model, "chat", "the list of models"
            ) from None
        return sorted(out.values(), key=lambda i: i.name)

    def context_length(self) -> int:
        """The model's trained context length, from /api/show (cached)."""
        if self._context is None:
            try:
                with self._client(read=10.0) as client:
                    info = client.show(self.model)
            except Exception as exc:  # noqa: BLE001
                raise self._error(exc) from None
            found = [
                int(v)
                for k, v in (info.get("modelinfo") or {}).items()
                if k.endswith(".context_length") and isinstance(v, int | float)
            ]
            self._context = found[0] if found else DEFAULT_CONTEXT
        return self._context

    def pull(
        self,
        progress: Callable[[PullProgress], None] | None = None,
        cancel: threading.Event | None = None,
    ) -> bool:
        """Download the model with progress; False if cancelled."""
        try:
            with self._client(read=600.0) as client:
                for part in client.pull(self.model, stream=True):
                    if cancel is not None and cancel.is_set():
                        return False
                    if progress:
                        progress(
                            PullProgress(
                                part.get("status") or "",
                                int(part.get("completed") or 0),
                                int(part.get("total") or 0),
                            )
                        )
        except Exception as exc:  # noqa: BLE001
            raise self._error(exc) from None
        return True


def is_local_url(url: str) -> bool:
    """Whether a server URL points at this computer (localhost or a loopback address)."""
    try:
        host = httpx.URL(url).host
    except (httpx.InvalidURL, ValueError, TypeError):
        return False
    if host in ("localhost", "localhost.localdomain") or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@dataclass
class OpenAICompatChat:
    """Any server with the OpenAI chat-completions API (a cloud service, LM Studio, a
    llama.cpp server). Off unless the user turns it on: messages then leave the machine
    unless the URL is local."""

    base_url: str
    model: str
    api_key: str | None = field(default=None, repr=False)  # never in a log or traceback
    read_timeout: float = READ_TIMEOUT_S
    context: int = 8192
    context_cap: int | Callable[[], int] = DEFAULTS["context_tokens"]

    @property
    def host(self) -> str:
        return self.base_url

    @property
    def local(self) -> bool:
        """Whether the server is this computer (LM Studio, llama.cpp) and not a cloud."""
        return is_local_url(self.base_url)

    def _client(self, read: float | None = None, **kw: Any) -> httpx.Client:
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        return httpx.Client(
            base_url=self.base_url.rstrip("/") + "/",
            headers=headers,
            timeout=_timeout(read or self.read_timeout),
            trust_env=False,
            **kw,
        )

    def _error(self, exc: BaseException) -> Exception:
        if isinstance(exc, httpx.HTTPStatusError):
            code = exc.response.status_code
            if code == 404:
                return ModelMissing(
                    f"The server at {self.base_url} has no model '{self.model}' (404): check the "
                    "model name in the settings.",
                    model=self.model,
                )
            if code in (401, 403):
                return ModelFailed(
                    f"The server at {self.base_url} refused the API key ({code}): check it in "
                    "the settings."
                )
            return ModelFailed(
                f"The server at {self.base_url} failed ({code}): try again, or check the server."
            )
        if isinstance(exc, httpx.TimeoutException):
            return OllamaUnavailable(
                f"The server at {self.base_url} did not answer in time: try again later.",
                reason="ollama_timeout",
            )
        if isinstance(exc, httpx.TransportError | ConnectionError):
            return OllamaUnavailable(
                f"The server at {self.base_url} is not reachable: check the URL and your "
                "connection, and try again.",
                reason="server_unreachable",
            )
        if isinstance(exc, ValueError | KeyError):
            return ModelFailed(f"The server at {self.base_url} sent an answer that is not valid.")
        return ModelFailed(f"Unexpected answer from {self.base_url} ({exc}).")

    def stream(self, messages: Sequence[dict[str, str]], options: Options | None = None) -> Stream:
        connections = _Connections()
        client = self._client(event_hooks=connections.hooks())
        body = {"model": self.model, "messages": list(messages), "stream": True}
        body["stream_options"] = {"include_usage": True}
        if options and "temperature" in options:
            body["temperature"] = options["temperature"]

        def chunks() -> Iterator[tuple[str, Usage | None]]:
            with client.stream("POST", "chat/completions", json=body) as res:
                res.raise_for_status()
                for line in res.iter_lines():
                    if not line.startswith("data:"):
                        continue
                    data = line[5:].strip()
                    if data == "[DONE]":
                        break
                    event = json.loads(data)
                    usage = None
                    if event.get("usage"):
                        u = event["usage"]
                        usage = Usage(u.get("prompt_tokens"), u.get("completion_tokens"))
                    choices = event.get("choices") or [{}]
                    yield (choices[0].get("delta") or {}).get("content") or "", usage

        def close() -> None:
            connections.shut()
            client.close()

        return Stream(chunks, close, self._error)

    def complete_json(
        self,
        messages: Sequence[dict[str, str]],
        schema: JSONObject,
        options: Options | None = None,
    ) -> tuple[str, Usage]:
        body = {
            "model": self.model,
            "messages": list(messages),
            "temperature": 0,
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": "answer", "schema": schema},
            },
        }
        try:
            with self._client() as client:
                res = client.post("chat/completions", json=body)
                res.raise_for_status()
                data = res.json()
                text = data["choices"][0]["message"]["content"] or ""
        except Exception as exc:  # noqa: BLE001
            raise self._error(exc) from None
        u = data.get("usage") or {}
        return text, Usage(u.get("prompt_tokens"), u.get("completion_tokens"))

    def models(self) -> list[str]:
        try:
            with self._client(read=10.0) as client:
                res = client.get("models")
                res.raise_for_status()
                return sorted(m["id"] for m in res.json().get("data", []))
        except Exception as exc:  # noqa: BLE001
            raise self._error(exc) from None

    def context_length(self) -> int:
        return self.context

    def num_ctx(self) -> int:
        """The context the prompt is built for (the server decides its own length)."""
        return context_window(self.context, _cap(self.context_cap))
