"""A loopback HTTP server for the backend tests: it answers recorded exchanges (real
servers' answers, ``data/<backend>_http.json``, written by ``servers/record.py``), keeps
every request it was sent, and misbehaves on demand — an HTTP error status, a reset
connection, a connection accepted and never answered, an answer trickled byte by byte.

An exchange is ``{"method", "path", "params", "request", "status", "response"}``. A
request is answered by the first exchange with the same method and path (query string
excluded) whose request body has the same ``query`` first line (when both have one); with
none, by ``empty`` (``{path suffix: body}``) or HTTP 404.
"""

from __future__ import annotations

import json
import socket
import struct
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

DATA = Path(__file__).parent / "data"

#: Faults: an HTTP status (int), or one of these.
HANG, RESET, CLOSE, TRICKLE = "hang", "reset", "close", "trickle"


def recorded(name: str) -> list[dict[str, Any]]:
    """The exchanges recorded from a real server (``data/<name>_http.json``)."""
    data = json.loads((DATA / f"{name}_http.json").read_text(encoding="utf-8"))
    return list(data["exchanges"])


def first_line(value: Any) -> str:
    text = value.get("query", "") if isinstance(value, dict) else ""
    return str(text).strip().splitlines()[0] if str(text).strip() else ""


class Seen:
    """One request the stub received."""

    def __init__(self, method: str, path: str, params: dict[str, list[str]], body: Any,
                 headers: dict[str, str]) -> None:  # fmt: skip
        self.method, self.path, self.params, self.body, self.headers = (
            method, path, params, body, headers,
        )  # fmt: skip

    def __repr__(self) -> str:
        return f"Seen({self.method} {self.path} {self.body!r})"


class Stub:
    """The server, listening on ``url`` (127.0.0.1, a free port) until :meth:`close`.
    ``faults``: ``{path prefix: fault}``, checked in insertion order."""

    def __init__(self, exchanges: list[dict[str, Any]] = (), empty: dict[str, Any] | None = None) -> None:  # type: ignore[assignment]  # fmt: skip
        self.exchanges = list(exchanges)
        self.empty = dict(empty or {})
        self.faults: dict[str, Any] = {}
        self.seen: list[Seen] = []
        self.stopping = threading.Event()
        stub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def _serve(self) -> None:
                parts = urlsplit(self.path)
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length) if length else b""
                body = json.loads(raw) if raw else None
                stub.seen.append(Seen(self.command, parts.path, parse_qs(parts.query), body,
                                      {k.lower(): v for k, v in self.headers.items()}))  # fmt: skip
                fault = next((f for p, f in stub.faults.items() if parts.path.startswith(p)), None)
                if fault == HANG:
                    stub.stopping.wait(60)
                    self.close_connection = True
                    return
                if fault in (RESET, CLOSE):
                    if fault == RESET:  # RST instead of FIN: close now, lingering 0 s
                        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                                   struct.pack("ii", 1, 0))  # fmt: skip
                        self.connection.close()
                    self.close_connection = True
                    return
                status, answer = stub.answer(self.command, parts.path, body)
                if isinstance(fault, int):
                    status, answer = fault, {"detail": f"stub: HTTP {fault} for {parts.path}"}
                payload = json.dumps(answer).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(payload)))
                self.end_headers()
                if fault == TRICKLE:
                    for byte in payload:
                        if stub.stopping.wait(0.1):
                            break
                        self.wfile.write(bytes([byte]))
                        self.wfile.flush()
                else:
                    self.wfile.write(payload)

            do_GET = do_POST = do_PUT = do_DELETE = _serve

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def answer(self, method: str, path: str, body: Any) -> tuple[int, Any]:
        query = first_line(body)
        for exchange in self.exchanges:
            if (exchange["method"], exchange["path"]) == (method, path) and (
                not query or "request" not in exchange or first_line(exchange["request"]) == query
            ):
                return int(exchange.get("status", 200)), exchange["response"]
        for suffix, answer in self.empty.items():
            if path.endswith(suffix):
                return 200, answer
        return 404, {"detail": f"stub: nothing recorded for {method} {path}"}

    def bodies(self, path: str) -> list[Any]:
        return [s.body for s in self.seen if s.path == path]

    def close(self) -> None:
        self.stopping.set()
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)


def silent_server() -> tuple[socket.socket, str]:
    """A listening socket that accepts (the kernel does) and never answers; its URL."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    return sock, f"http://127.0.0.1:{sock.getsockname()[1]}"


def timed(call: Any) -> tuple[float, Any]:
    """``(seconds, exception or result)`` of ``call()``."""
    started = time.monotonic()
    try:
        result = call()
    except Exception as exc:  # noqa: BLE001 - the test inspects it
        result = exc
    return time.monotonic() - started, result
