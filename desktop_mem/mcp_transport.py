"""The MCP server's stdio transport: every frame is checked here before the SDK sees it,
so no frame can wedge, crash or slow the server.

A frame is one line of UTF-8 JSON. One that is too long, not UTF-8, not JSON, a batch,
nested too deep, carries an id that is not a string or a whole number (a boolean is
not one), a number beyond 64 bits or text with a lone surrogate is answered with a
JSON-RPC error of one sentence (with its id when it has a usable one, else null), and
the next frame is served. Only frames that pass reach the SDK's session, as if they had
come through its own stdio transport. The answers go out through one writer that never
dies: an answer that cannot be encoded is replaced by an error for its id.

While serving, file descriptors 0 and 1 point at the null device (the wire is served
from private duplicates), so a library's stray print cannot corrupt the wire.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
from collections.abc import AsyncIterator
from typing import Any, NoReturn

import anyio
import mcp_types as types
from mcp.shared._context_streams import create_context_streams
from mcp.shared.message import SessionMessage

log = logging.getLogger("desktop_mem.mcp")

MAX_FRAME = 1024 * 1024  # bytes of one frame: a memory is 500 characters, a query 2,000
MAX_DEPTH = 32  # nesting of arrays and objects in one frame
MAX_ID_CHARS = 200
MAX_INT = 2**63 - 1  # what SQLite stores; JSON-RPC ids must also stay within 2**53
MAX_ID_INT = 2**53 - 1


class FrameError(Exception):
    """A frame that must be answered with a JSON-RPC error (and not passed on)."""

    def __init__(self, code: int, message: str, request_id: RequestId = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.request_id = request_id


# a JSON-RPC request's id as the frame gave it (None: not known, or a notification)
RequestId = str | int | None


class _TooLarge:
    """A number that did not fit (kept as a marker so the frame's id can still be read)."""


def _parse_int(text: str) -> int | _TooLarge:
    if len(text.lstrip("-")) > 19:
        return _TooLarge()
    value = int(text)
    return value if -MAX_INT - 1 <= value <= MAX_INT else _TooLarge()


def _parse_float(text: str) -> float | _TooLarge:
    value = float(text)
    return value if value not in (float("inf"), float("-inf")) else _TooLarge()


def _refuse_constant(name: str) -> NoReturn:
    raise ValueError(name)  # NaN, Infinity: not JSON


def _request_id(frame: dict[str, object]) -> RequestId:
    """The frame's id if it is one JSON-RPC allows (a string or a whole number, never a
    boolean); FrameError otherwise."""
    rid = frame.get("id")
    if isinstance(rid, str) and len(rid) <= MAX_ID_CHARS and _encodable(rid):
        return rid
    if type(rid) is int and -MAX_ID_INT <= rid <= MAX_ID_INT:
        return rid
    raise FrameError(
        types.INVALID_REQUEST,
        "The request's id must be a string or a whole number (not a boolean, a fraction "
        "or a number beyond 2**53).",
    )


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _check_values(value: object, request_id: RequestId) -> None:
    """Refuse numbers beyond 64 bits, lone surrogates and deep nesting anywhere."""
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise FrameError(
                types.INVALID_REQUEST,
                f"The request is nested more than {MAX_DEPTH} levels deep.",
                request_id,
            )
        if isinstance(item, _TooLarge):
            raise FrameError(
                types.INVALID_PARAMS,
                "The request holds a number too large to be an id or a count (more than 64 bits).",
                request_id,
            )
        if isinstance(item, str):
            if not _encodable(item):
                raise FrameError(
                    types.INVALID_PARAMS,
                    "The request holds text that is not valid Unicode (a lone surrogate "
                    "such as \\ud800): send well-formed text.",
                    request_id,
                )
        elif isinstance(item, dict):
            for key, sub in item.items():
                stack.append((key, depth + 1))
                stack.append((sub, depth + 1))
        elif isinstance(item, list):
            stack.extend((sub, depth + 1) for sub in item)


def check_frame(line: bytes) -> types.JSONRPCMessage:
    """The message a frame holds, or FrameError saying in one sentence what is wrong."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        raise FrameError(types.PARSE_ERROR, "The request is not UTF-8 text.") from None
    try:
        frame = json.loads(
            text,
            parse_int=_parse_int,
            parse_float=_parse_float,
            parse_constant=_refuse_constant,
        )
    except (ValueError, RecursionError):
        raise FrameError(types.PARSE_ERROR, "The request is not valid JSON.") from None
    if isinstance(frame, list):
        raise FrameError(
            types.INVALID_REQUEST, "Batches are not supported: send one message per line."
        )
    if not isinstance(frame, dict):
        raise FrameError(types.INVALID_REQUEST, "The request is not a JSON-RPC object.")
    request_id = _request_id(frame) if "id" in frame and frame["id"] is not None else None
    _check_values(frame, request_id)
    try:
        return types.jsonrpc_message_adapter.validate_json(text, by_name=False)
    except ValueError:
        raise FrameError(
            types.INVALID_REQUEST,
            "The request is not a JSON-RPC 2.0 message (jsonrpc, id, method, params).",
            request_id,
        ) from None


def error_frame(code: int, message: str, request_id: RequestId = None) -> bytes:
    body = {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}
    return json.dumps(body, ensure_ascii=True).encode("ascii") + b"\n"


def encode(message: types.JSONRPCMessage) -> bytes:
    """A message as one line of UTF-8; an error for its id when it cannot be encoded."""
    try:
        text = message.model_dump_json(by_alias=True, exclude_unset=True)
        return text.encode("utf-8") + b"\n"
    except (ValueError, UnicodeError) as exc:
        log.warning("an answer could not be encoded (%s)", type(exc).__name__)
        return error_frame(
            types.INTERNAL_ERROR,
            "The answer could not be encoded as UTF-8 JSON.",
            getattr(message, "id", None),
        )


END = b""  # what _Lines.next gives at the end of the input (a frame is never empty)


class _Lines:
    """Frames from a file descriptor, at most MAX_FRAME bytes each: a longer one is
    skipped to its end and reported as None."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buffer = b""
        self.eof = False
        self.selectable = hasattr(anyio, "wait_readable")

    def _read(self) -> bytes:
        try:
            return os.read(self.fd, 65536)
        except OSError:
            return b""

    async def _chunk(self) -> bytes:
        """What the client wrote next. A pipe (what a client starts the server with) is
        waited on by the event loop, so Ctrl+C or SIGTERM ends the server at once: a
        worker thread blocked in read() kept the process alive until stdin closed. A
        file (which never blocks) is read in a thread."""
        if self.selectable:
            try:
                await anyio.wait_readable(self.fd)
            except (OSError, ValueError, NotImplementedError):
                self.selectable = False  # a regular file or /dev/null: not pollable
            else:
                return self._read()
        return await anyio.to_thread.run_sync(self._read, abandon_on_cancel=True)

    async def next(self) -> bytes | None:
        """The next frame; None for one that was too long; END at the end."""
        oversized = False
        while True:
            cut = self.buffer.find(b"\n")
            if cut >= 0:
                line, self.buffer = self.buffer[:cut], self.buffer[cut + 1 :]
                if oversized or cut > MAX_FRAME:
                    return None
                if line.strip():
                    return line
                continue
            if len(self.buffer) > MAX_FRAME:
                oversized = True
                self.buffer = b""
            if self.eof:
                if oversized:
                    return None
                line, self.buffer = self.buffer, b""
                return line if line.strip() else END
            chunk = await self._chunk()
            if not chunk:
                self.eof = True
            self.buffer += chunk


def _claim_wire() -> tuple[int, int, list[tuple[int, int]]]:
    """Private duplicates of stdin and stdout for the wire; fds 0 and 1 then point at
    the null device. Returns (in, out, what to restore)."""
    wire_in, wire_out = os.dup(0), os.dup(1)
    saved: list[tuple[int, int]] = []
    null_in = os.open(os.devnull, os.O_RDONLY)
    null_out = os.open(os.devnull, os.O_WRONLY)
    for fd, null in ((0, null_in), (1, null_out)):
        saved.append((fd, os.dup(fd)))
        os.dup2(null, fd)
        os.close(null)
    return wire_in, wire_out, saved


def _release_wire(wire_in: int, wire_out: int, saved: list[tuple[int, int]]) -> None:
    for fd, copy in saved:
        with contextlib.suppress(OSError):
            os.dup2(copy, fd)
            os.close(copy)
    for fd in (wire_in, wire_out):
        with contextlib.suppress(OSError):
            os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


@contextlib.asynccontextmanager
async def guarded_stdio(
    stdin_fd: int | None = None, stdout_fd: int | None = None
) -> AsyncIterator[tuple[Any, Any]]:
    """The (read, write) streams an SDK server runs on, fed only with checked frames."""
    claimed = None
    if stdin_fd is None or stdout_fd is None:
        claimed = _claim_wire()
        stdin_fd, stdout_fd = claimed[0], claimed[1]
    read_writer, read_stream = create_context_streams[SessionMessage | Exception](0)
    write_stream, write_reader = create_context_streams[SessionMessage](0)
    out_lock = anyio.Lock()
    assert stdin_fd is not None and stdout_fd is not None
    wire_out: int = stdout_fd

    async def send(data: bytes) -> None:
        async with out_lock:
            try:
                await anyio.to_thread.run_sync(_write_all, wire_out, data)
            except OSError as exc:  # the client went away: nothing more to say
                log.info("the MCP client closed its end (%s)", type(exc).__name__)

    async def reader() -> None:
        lines = _Lines(stdin_fd)
        async with read_writer:
            while True:
                line = await lines.next()
                if line is END:
                    break
                if line is None:
                    await send(
                        error_frame(
                            types.INVALID_REQUEST,
                            f"The request is larger than {MAX_FRAME // 1024} KiB: send less.",
                        )
                    )
                    continue
                try:
                    message = check_frame(line)
                except FrameError as exc:
                    log.info("refused a frame (%d)", exc.code)
                    await send(error_frame(exc.code, exc.message, exc.request_id))
                    continue
                await read_writer.send(SessionMessage(message))

    async def writer() -> None:
        async with write_reader:
            async for session_message in write_reader:
                await send(encode(session_message.message))

    try:
        async with anyio.create_task_group() as tg:
            tg.start_soon(reader)
            tg.start_soon(writer)
            yield read_stream, write_stream
            tg.cancel_scope.cancel()
    finally:
        if claimed is not None:
            _release_wire(*claimed)
