"""Record a real server's HTTP answers to the backend scenario, for the default suite's
replay tests (``tests/backends/data/<backend>_http.json``).

    . /tmp/memhooks-servers/env      # after tests/backends/servers/start.sh
    /tmp/memhooks-servers/venvs/clients/bin/python tests/backends/servers/record.py hindsight|openviking

Remembers the scenario's memories into a fresh bank / URI (straight to the server), then
runs ``recall`` of the scenario's target through the adapter, pointed at a recording
proxy on 127.0.0.1 that forwards to the server. Every exchange of the recall is written
as plain JSON: method, path, query parameters, request body, status and the server's
answer. The fresh bank / URI name is replaced by the adapter's default (``proj``,
``viking://resources/memhooks``) so the tests use the defaults.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import threading
import urllib.request
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from backend_scenario import DATA, SCENARIO, drafts, make_project

from memhooks.recall import recall
from memhooks.store import project_id


def proxy(upstream: str, log: list[dict[str, Any]]) -> ThreadingHTTPServer:
    """A loopback HTTP proxy to ``upstream`` appending every exchange to ``log``."""

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def _forward(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            raw = self.rfile.read(length) if length else None
            headers = {
                k: v for k, v in self.headers.items() if k.lower() in ("content-type", "accept")
            }
            request = urllib.request.Request(upstream + self.path, data=raw, method=self.command,
                                             headers=headers)  # fmt: skip
            try:
                with urllib.request.urlopen(request, timeout=60) as answer:
                    status, body = answer.status, answer.read()
            except urllib.error.HTTPError as exc:
                status, body = exc.code, exc.read()
            parts = urlsplit(self.path)
            log.append({"method": self.command, "path": parts.path, "params": parse_qs(parts.query),
                        "request": json.loads(raw) if raw else None, "status": status,
                        "response": json.loads(body) if body else None})  # fmt: skip
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = _forward

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main(name: str) -> None:
    tag = f"memhooks-record-{uuid.uuid4().hex[:8]}"
    if name == "hindsight":
        from memhooks.backends.hindsight import HindsightBackend as Backend

        upstream = os.environ["MEMHOOKS_TEST_HINDSIGHT_URL"]
        settings = {"bank": tag}
        fresh, default = tag, "proj"
    else:
        from memhooks.backends.openviking import OpenVikingBackend as Backend  # type: ignore[assignment]

        upstream = os.environ["MEMHOOKS_TEST_OPENVIKING_URL"]
        fresh, default = f"viking://resources/{tag}", "viking://resources/memhooks"
        settings = {"memory_uri": fresh}
    log: list[dict[str, Any]] = []
    server = proxy(upstream, log)
    with tempfile.TemporaryDirectory() as tmp:
        root = make_project(Path(tmp))
        writer = Backend.open({"url": upstream, **settings})
        for draft in drafts(project_id(str(root))):
            writer.remember(draft)
        writer.close()
        reader = Backend.open({"url": f"http://127.0.0.1:{server.server_address[1]}", **settings})
        result = recall(
            str(root / SCENARIO["target"]), backend=reader, query_timeout_s=30, deadline_s=60
        )
        reader.close()
    server.shutdown()
    text = json.dumps(log, ensure_ascii=False).replace(fresh, default).replace(tmp, "/tmp/recorded")
    out = {"about": f"{name} HTTP exchanges of the scenario's recall, answered by a real server "
                    "(tests/backends/servers/record.py)", "exchanges": json.loads(text),
           "recall_status": result["status"]}  # fmt: skip
    path = DATA / f"{name}_http.json"
    path.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(
        f"{path}: {len(log)} exchanges, recall {result['status']}, {len(result['memories'])} memories"
    )


if __name__ == "__main__":
    main(sys.argv[1])
