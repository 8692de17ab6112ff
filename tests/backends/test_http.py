"""The server backends' HTTP client (``memhooks.backends.http``) against loopback servers
that answer, fail, reset, hang and trickle: every call ends by its deadline, and every
failure says what kind it was."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from http_stub import CLOSE, HANG, RESET, TRICKLE, Stub, silent_server, timed

from memhooks.backends.http import Endpoint, HTTPFailure, segment
from memhooks.errors import BackendError


@pytest.fixture
def stub() -> Iterator[Stub]:
    server = Stub([{"method": "POST", "path": "/api/find", "request": {"query": "q"},
                    "response": {"results": [1, 2]}}], empty={"/ping": {"ok": True}})  # fmt: skip
    yield server
    server.close()


def raw_server(answer: bytes) -> tuple[str, threading.Thread]:
    """A one-shot server that reads a request and writes ``answer`` as it is."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)

    def serve() -> None:
        conn, _ = listener.accept()
        conn.recv(65536)
        conn.sendall(answer)
        conn.close()
        listener.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    return f"http://127.0.0.1:{listener.getsockname()[1]}", thread


def test_json_in_json_out_with_headers_and_params(stub: Stub) -> None:
    endpoint = Endpoint("demo", stub.url + "/", {"authorization": "Bearer k"})
    assert endpoint.call(
        "POST", "/api/find", {"query": "q", "n": "é"}, timeout_s=5, what="find"
    ) == {"results": [1, 2]}
    assert endpoint.call("GET", "/ping", params={"detail": "a b/c"}, timeout_s=5, what="ping") == {
        "ok": True
    }
    post, get = stub.seen
    assert post.body == {"query": "q", "n": "é"} and post.headers["authorization"] == "Bearer k"
    assert post.headers["content-type"] == "application/json"
    assert get.params == {"detail": ["a b/c"]} and get.body is None


def test_base_path_and_path_segments_are_kept_apart() -> None:
    endpoint = Endpoint("demo", "https://user:pw@example.org:8443/base/?x=1")
    assert (endpoint.scheme, endpoint.host, endpoint.port, endpoint.base) == (
        "https",
        "example.org",
        8443,
        "/base",
    )
    assert endpoint.shown == "https://example.org:8443/base"  # no credentials in messages
    assert segment("a b/ü") == "a%20b%2F%C3%BC"
    for bad in ("ftp://x", "http://", "127.0.0.1:80", "http://h:99999"):
        with pytest.raises(BackendError, match="must be an http"):
            Endpoint("demo", bad)


@pytest.mark.parametrize(
    ("fault", "kind", "message"),
    [
        (500, "status", r"demo: find failed: HTTP 500: stub: HTTP 500 for /api/find"),
        (401, "status", r"HTTP 401"),
        (RESET, "reset", r"reset the connection"),
        (CLOSE, "reset", r"closed the connection before answering"),
    ],
)
def test_failures_say_what_kind_they_are(stub: Stub, fault: Any, kind: str, message: str) -> None:
    stub.faults["/api"] = fault
    with pytest.raises(HTTPFailure, match=message) as info:
        Endpoint("demo", stub.url).call(
            "POST", "/api/find", {"query": "q"}, timeout_s=5, what="find"
        )
    assert info.value.kind == kind
    assert info.value.status == (fault if isinstance(fault, int) else None)


@pytest.mark.parametrize("fault", [HANG, TRICKLE])
def test_a_server_that_hangs_or_trickles_is_cut_at_the_deadline(stub: Stub, fault: str) -> None:
    stub.faults["/api"] = fault  # trickle: one byte per 0.1 s, ~3 s for the whole answer
    elapsed, error = timed(
        lambda: Endpoint("demo", stub.url).call(
            "POST", "/api/find", {"query": "q"}, timeout_s=0.5, what="find"
        )
    )
    assert isinstance(error, HTTPFailure) and error.kind == "timeout", error
    assert "find took longer than 0.50 s" in str(error)
    assert 0.45 <= elapsed < 1.0


def test_a_server_that_accepts_and_never_answers_is_cut_at_the_deadline() -> None:
    listener, url = silent_server()
    try:
        elapsed, error = timed(
            lambda: Endpoint("demo", url).call("GET", "/x", timeout_s=0.3, what="x")
        )
    finally:
        listener.close()
    assert isinstance(error, HTTPFailure) and error.kind == "timeout"
    assert 0.25 <= elapsed < 0.8


def test_unreachable_and_no_time_left() -> None:
    with pytest.raises(HTTPFailure, match=r"cannot reach http://127.0.0.1:9: .*refused") as info:
        Endpoint("demo", "http://127.0.0.1:9").call("GET", "/", timeout_s=2, what="x")
    assert info.value.kind == "unreachable"
    with pytest.raises(HTTPFailure, match="no time left for x"):
        Endpoint("demo", "http://127.0.0.1:9").call("GET", "/", timeout_s=0, what="x")


def test_chunked_and_unsized_answers_are_read_whole() -> None:
    chunked = (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
               b"5;ext=1\r\n{\"a\":\r\n4\r\n [1]\r\n1\r\n}\r\n0\r\n\r\n")  # fmt: skip
    url, thread = raw_server(chunked)
    assert Endpoint("demo", url).call("GET", "/", timeout_s=5, what="x") == {"a": [1]}
    thread.join(5)
    url, thread = raw_server(b'HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n{"b": 2}')
    assert Endpoint("demo", url).call("GET", "/", timeout_s=5, what="x") == {"b": 2}
    thread.join(5)


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        (b"SSH-2.0-OpenSSH_9.2\r\n\r\n", "sent no valid HTTP answer"),
        (b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n<html>", "the answer is not JSON: <h"),
        (
            b"HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n{}",
            "closed the connection before answering",
        ),
    ],
)
def test_malformed_answers(answer: bytes, message: str) -> None:
    url, thread = raw_server(answer)
    with pytest.raises(HTTPFailure, match=message):
        Endpoint("demo", url).call("GET", "/", timeout_s=5, what="x")
    thread.join(5)


def test_the_client_imports_no_http_library() -> None:
    """The hook's path stays light (issue 14): no SDK, no http.client (+25 ms), no idna
    codec for an ASCII host, even after a call."""
    code = (
        "import sys, memhooks.backends.http as h, memhooks.backends.hindsight, "
        "memhooks.backends.openviking, memhooks.backends.honcho\n"
        "try: h.Endpoint('x', 'http://127.0.0.1:9').call('GET', '/', timeout_s=2, what='x')\n"
        "except h.HTTPFailure: pass\n"
        "print(sorted(m for m in ('http.client', 'urllib.request', 'email', 'ssl', 'asyncio', "
        "'httpx', 'pydantic', 'socket', 'encodings.idna') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout
