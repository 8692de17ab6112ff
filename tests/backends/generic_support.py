"""A tiny memory service speaking memhooks' generic backend protocol (docs/backends.md),
over real HTTP on 127.0.0.1 (:class:`MemoryServer`) and as a real command
(``generic_command.py``). Both answer with :func:`answer`: word-overlap ranking over the
memories written to them, one project at a time."""

from __future__ import annotations

import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.lower()))


def answer(memories: list[dict[str, Any]], request: dict[str, Any]) -> dict[str, Any]:
    """The protocol's response to ``request`` (``op`` search or remember); ``remember``
    appends to ``memories``."""
    if request["op"] == "remember":
        memory = {**request["memory"], "id": f"g{len(memories) + 1}"}
        memories.append(memory)
        return {"id": memory["id"]}
    wanted = words(" ".join([request["query"], *request["entities"], *request["tags"]]))
    found = []
    for memory in memories:
        if memory["project"] != request["project"]:
            continue
        score = len(wanted & words(memory["text"]))
        if request["auto"]:
            score += (memory["scope"] == request["scopes"][0]) + len(
                set(memory["files"]) & set(request["files"])
            )
        if score:
            found.append((score, memory))
    found.sort(key=lambda pair: -pair[0])
    keep = ("id", "text", "scope", "files", "kind", "tags", "entities", "created_at")
    return {
        "memories": [
            {**{k: m[k] for k in keep if m.get(k) is not None}, "score": float(s)}
            for s, m in found[: request["limit"]]
        ]
    }


class MemoryServer:
    """The service over HTTP: ``POST /search``, ``POST /remember``, ``GET /health``.

    Knobs: ``token`` (required bearer token), ``slow`` (a phrase: searches whose query
    contains it sleep ``delay`` seconds), ``status`` / ``body`` (answer every request
    with this instead), ``extra`` (memories prepended to every search answer, as a
    backend that "knows better" would). ``requests`` records ``(path, headers, body)``.
    """

    def __init__(self) -> None:
        self.memories: list[dict[str, Any]] = []
        self.requests: list[tuple[str, dict[str, str], Any]] = []
        self.token: str | None = None
        self.slow: str | None = None
        self.delay = 0.0
        self.status = 200
        self.body: bytes | None = None
        self.extra: list[dict[str, Any]] = []
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, args=(0.05,), daemon=True
        )

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        if self._thread.is_alive():
            self._server.shutdown()
        self._server.server_close()

    def bodies(self, path: str) -> list[Any]:
        return [body for p, _, body in self.requests if p == path]

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        service = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                service.requests.append((self.path, dict(self.headers), None))
                self._reply(200, {"ok": True})

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                request = json.loads(raw)
                service.requests.append((self.path, dict(self.headers), request))
                if service.token and self.headers.get("Authorization") != f"Bearer {service.token}":
                    return self._reply(401, {"error": "bad token"})
                if service.status != 200 or service.body is not None:
                    return self._raw(service.status, service.body or b"{}")
                if service.slow and service.slow in request.get("query", ""):
                    time.sleep(service.delay)
                reply = answer(service.memories, request)
                if self.path == "/search":
                    reply["memories"] = service.extra + reply["memories"]
                self._reply(200, reply)

            def _reply(self, status: int, data: Any) -> None:
                self._raw(status, json.dumps(data).encode())

            def _raw(self, status: int, body: bytes) -> None:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                try:
                    self.wfile.write(body)
                except BrokenPipeError:  # the client gave up (a timeout test)
                    pass

        return Handler
