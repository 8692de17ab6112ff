"""JSON over HTTP for the server backends' recall path: a small HTTP/1.1 client on the
socket module, with no SDK, no event loop and no third-party import.

Over 300 lines on purpose: one HTTP/1.1 exchange within a deadline (connect, TLS, send, read the answer):
every server backend's recall loads all of it, at once.

Why not the vendors' SDKs: a hook is a fresh interpreter on every prompt, and importing
``hindsight_client`` alone took 1–5 s on the team's 2-core machine (issue 14);
``openviking_sdk`` and ``honcho`` pull in ``httpx`` and ``pydantic``. Why not
:mod:`http.client` or :mod:`urllib.request`: importing them costs more than a bare
interpreter's whole start (``http.client`` loads the ``email`` parser and ``ssl``:
+25 ms against 9.8 ms for ``python -c pass``, measured with ``bench/bench_backends.py
--imports``). What the backends need of HTTP is small — one request, ``Connection:
close``, a JSON body back, sized by ``Content-Length``, chunked, or read to the end — so
it is written here on the C ``_socket`` module (0.3 ms to import; :mod:`socket` itself
costs ~4 ms building its enums). ``https://`` URLs load :mod:`ssl` when first used.

**Every call ends by its deadline, at the socket level.** The deadline is fixed when the
call starts (``timeout_s`` seconds later). Connecting is bounded by what is left, and so
is every single send and ``recv`` — status line, headers and body — so a server that
accepts and never answers, or trickles one byte at a time, is cut at the deadline, not
after ``timeout_s`` per read. (Name resolution is the operating system's and is not
bounded; a backend on ``127.0.0.1`` or another literal address resolves nothing.)

Failures are :class:`HTTPFailure` (a :class:`~memhooks.errors.BackendError`) with a
``kind`` — ``timeout``, ``unreachable``, ``reset``, ``status`` (HTTP ≥ 400, ``status``
set), ``malformed`` — and a one-line message that names the backend and what failed.
"""

from __future__ import annotations

import json
import time

from ..errors import BackendError
from ..limits import MAX_READ_BYTES

try:  # the C module: socket.py's enum building is most of its import time
    import _socket as sockets
except ImportError:  # pragma: no cover - an interpreter without it
    import socket as sockets  # type: ignore[no-redef]

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

#: Largest answer read, bytes: a list of memories, not a data dump.
MAX_RESPONSE = MAX_READ_BYTES
#: Largest status line + headers, bytes.
MAX_HEAD = 64 * 1024
#: Longest server text quoted in a message, characters.
MAX_DETAIL = 300
USER_AGENT = "memhooks"


class HTTPFailure(BackendError):
    """One HTTP exchange that failed: ``kind`` (``timeout``, ``unreachable``, ``reset``,
    ``status``, ``malformed``), ``status`` (the HTTP status for ``status``, else
    ``None``) and ``body`` (the server's answer for ``status``, at most 4 KiB)."""

    def __init__(
        self, message: str, kind: str, status: int | None = None, body: bytes = b""
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.status = status
        self.body = body


#: Characters left as they are in a path segment or query value (RFC 3986 unreserved).
UNRESERVED = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")


def segment(value: str) -> str:
    """``value`` percent-encoded as one URL path segment or query value (UTF-8; every
    byte but the RFC 3986 unreserved characters escaped)."""
    return "".join(chr(b) if b in UNRESERVED else f"%{b:02X}" for b in value.encode("utf-8"))


class Endpoint:
    """A server's base URL (``http://`` or ``https://``, with an optional base path)
    and the headers sent with every call. ``backend`` names the adapter in messages.
    Raises BackendError for a URL that is not http(s) or has no host."""

    __slots__ = ("backend", "base", "headers", "host", "port", "scheme", "shown", "url")

    def __init__(self, backend: str, url: str, headers: Mapping[str, str] | None = None) -> None:
        self.backend = backend
        self.url = url.strip()
        scheme, _, rest = self.url.partition("://")
        scheme = scheme.lower()
        authority, slash, path = rest.partition("/")
        authority = authority.rpartition("@")[2]  # credentials never travel in the URL
        host, port = _host_port(authority, 443 if scheme == "https" else 80)
        if scheme not in ("http", "https") or not host or port is None:
            raise BackendError(f"{backend}: url must be an http:// or https:// URL (got {url!r})")
        self.scheme, self.host, self.port = scheme, host, port
        self.base = (slash + path).split("?", 1)[0].split("#", 1)[0].rstrip("/")
        self.headers = {"user-agent": USER_AGENT, "accept": "application/json", **(headers or {})}
        shown_host = f"[{host}]" if ":" in host else host
        self.shown = f"{scheme}://{shown_host}:{port}{self.base}"

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        timeout_s: float,
        what: str,
        params: Mapping[str, str] | None = None,
    ) -> Any:
        """Send ``body`` (JSON, or nothing when ``None``) to ``base + path`` and return
        the parsed JSON answer (``None`` for an empty one), all within ``timeout_s``
        seconds. ``what`` says what the call is for, in messages. Raises
        :class:`HTTPFailure`."""
        payload = None if body is None else json.dumps(body, ensure_ascii=False).encode("utf-8")
        query = "&".join(f"{segment(k)}={segment(v)}" for k, v in (params or {}).items())
        status, raw = self.exchange(
            method, path + (f"?{query}" if query else ""), payload,
            {"content-type": "application/json"} if payload is not None else {},
            timeout_s=timeout_s, what=what,
        )  # fmt: skip
        if status >= 400:
            said = detail(raw)
            raise HTTPFailure(
                f"{self.backend}: {what} failed: HTTP {status}" + (f": {said}" if said else ""),
                "status",
                status,
                raw[:4096],
            )
        if not raw.strip():
            return None
        try:
            return json.loads(raw)
        except ValueError:
            raise HTTPFailure(
                f"{self.backend}: {what} failed: the answer is not JSON: {detail(raw)}",
                "malformed",
            ) from None

    def exchange(
        self,
        method: str,
        path: str,
        payload: bytes | None,
        headers: Mapping[str, str],
        *,
        timeout_s: float,
        what: str,
    ) -> tuple[int, bytes]:
        """One exchange, whatever the answer's status: ``(status, body)``, all within
        ``timeout_s`` seconds. ``path`` (query string included) goes after the base
        path; ``headers`` join the endpoint's. Raises :class:`HTTPFailure` for every
        failure but an HTTP status (kinds ``timeout``, ``reset``, ``malformed``,
        ``unreachable``)."""
        if timeout_s <= 0:
            raise HTTPFailure(f"{self.backend}: no time left for {what}", "timeout")
        deadline = time.monotonic() + timeout_s
        given = {name.lower() for name in headers}
        sent = {**{k: v for k, v in self.headers.items() if k.lower() not in given}, **headers}
        lines = [f"{method} {self.base + path} HTTP/1.1", f"host: {self.host}:{self.port}",
                 "connection: close", *(f"{k}: {v}" for k, v in sent.items())]  # fmt: skip
        if payload is not None:
            lines.append(f"content-length: {len(payload)}")
        request = ("\r\n".join(lines) + "\r\n\r\n").encode("utf-8") + (payload or b"")
        try:
            return _exchange(self.host, self.port, self.scheme == "https", request, deadline)
        except TimeoutError:
            raise HTTPFailure(
                f"{self.backend}: {what} took longer than {timeout_s:.2f} s "
                f"({self.shown} did not answer in time)",
                "timeout",
            ) from None
        except (ConnectionResetError, BrokenPipeError, ConnectionAbortedError):
            raise HTTPFailure(
                f"{self.backend}: {what} failed: {self.shown} reset the connection", "reset"
            ) from None
        except _Closed:
            raise HTTPFailure(
                f"{self.backend}: {what} failed: {self.shown} closed the connection "
                "before answering",
                "reset",
            ) from None
        except _Malformed as exc:
            raise HTTPFailure(
                f"{self.backend}: {what} failed: {self.shown} sent no valid HTTP answer ({exc})",
                "malformed",
            ) from None
        except OSError as exc:
            raise HTTPFailure(
                f"{self.backend}: {what} failed: cannot reach {self.shown}: {exc.strerror or exc}",
                "unreachable",
            ) from None


def detail(raw: bytes) -> str:
    """The first line of a server's answer (its JSON ``detail`` / ``message`` / ``error``
    when it has one), cut to :data:`MAX_DETAIL` characters."""
    text = raw.decode("utf-8", "replace").strip()
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if isinstance(data, dict):
        for key in ("detail", "message", "error"):
            value = data.get(key)
            if isinstance(value, dict):
                value = value.get("message") or json.dumps(value)
            if isinstance(value, str) and value.strip():
                text = value.strip()
                break
    first = (text.splitlines() or [""])[0]
    return first[:MAX_DETAIL] + ("…" if len(first) > MAX_DETAIL else "")


class _Closed(Exception):
    """The server closed the connection before a complete answer."""


class _Malformed(Exception):
    """The answer is not HTTP/1.x as this client reads it."""


def _host_port(authority: str, default: int) -> tuple[str, int | None]:
    if authority.startswith("["):  # [IPv6]:port
        host, _, rest = authority[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ""
    else:
        host, _, port = authority.partition(":")
    if not port:
        return host, default
    return host, int(port) if port.isdigit() and 0 < int(port) < 65536 else None


def _exchange(
    host: str, port: int, tls: bool, request: bytes, deadline: float
) -> tuple[int, bytes]:
    """Send ``request`` and read the whole answer before ``deadline`` (a monotonic
    time): ``(status, body)``, the body de-chunked. Raises TimeoutError, OSError (incl.
    resets), :class:`_Closed` or :class:`_Malformed`."""
    sock = _connect(host, port, deadline)
    try:
        if tls:
            sock = _tls(sock, host)
        _left(sock, deadline)
        sock.sendall(request)
        reader = _Reader(sock, deadline)
        head = reader.until(b"\r\n\r\n", MAX_HEAD)
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        version, _, rest = status_line.partition(" ")
        code = rest[:3]
        if not version.startswith("HTTP/1.") or not code.isdigit():
            raise _Malformed(f"status line {status_line[:80]!r}")
        headers = {}
        for line in header_lines:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        if "chunked" in headers.get("transfer-encoding", "").lower():
            body = reader.chunked()
        elif "content-length" in headers:
            length = headers["content-length"]
            if not length.isdigit() or int(length) > MAX_RESPONSE:
                raise _Malformed(f"content-length {length[:20]!r}")
            body = reader.exactly(int(length))
        else:
            body = reader.rest()
        return int(code), body
    finally:
        sock.close()


def _connect(host: str, port: int, deadline: float) -> Any:
    """A connected TCP socket to the first address of ``host`` that answers in time."""
    error: OSError | None = None
    # An ASCII name goes as bytes: a str is encoded with the idna codec, an import per hook.
    name: str | bytes = host.encode("ascii") if host.isascii() else host
    for family, kind, proto, _, address in sockets.getaddrinfo(name, port, 0, sockets.SOCK_STREAM):
        sock = sockets.socket(family, kind, proto)
        try:
            _left(sock, deadline)
            sock.connect(address)
            return sock
        except OSError as exc:
            sock.close()
            if isinstance(exc, TimeoutError):
                raise
            error = exc
    raise error or OSError(f"no address for {host}")


def _tls(sock: Any, host: str) -> Any:
    import socket
    import ssl

    plain = socket.socket(fileno=sock.detach())
    return ssl.create_default_context().wrap_socket(plain, server_hostname=host)


def _left(sock: Any, deadline: float) -> None:
    """Arm ``sock``'s timeout with what is left until ``deadline``; TimeoutError when
    nothing is."""
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError
    sock.settimeout(left)


class _Reader:
    """Buffered reads of an answer, each ``recv`` bounded by what is left of the deadline
    and the whole answer by :data:`MAX_RESPONSE` bytes."""

    def __init__(self, sock: Any, deadline: float) -> None:
        self.sock = sock
        self.deadline = deadline
        self.buffer = b""
        self.total = 0
        self.eof = False

    def _more(self) -> bool:
        if self.eof:
            return False
        _left(self.sock, self.deadline)
        chunk = self.sock.recv(65536)
        if not chunk:
            self.eof = True
            return False
        self.total += len(chunk)
        if self.total > MAX_RESPONSE + MAX_HEAD:
            raise _Malformed(f"answer larger than {MAX_RESPONSE} bytes")
        self.buffer += chunk
        return True

    def until(self, marker: bytes, limit: int) -> bytes:
        while marker not in self.buffer:
            if len(self.buffer) > limit:
                raise _Malformed("headers too long")
            if not self._more():
                raise _Closed
        found, _, self.buffer = self.buffer.partition(marker)
        return found

    def exactly(self, size: int) -> bytes:
        while len(self.buffer) < size:
            if not self._more():
                raise _Closed
        found, self.buffer = self.buffer[:size], self.buffer[size:]
        return found

    def rest(self) -> bytes:
        while self._more():
            pass
        found, self.buffer = self.buffer, b""
        return found

    def chunked(self) -> bytes:
        parts: list[bytes] = []
        while True:
            size_line = self.until(b"\r\n", 1024).split(b";", 1)[0].strip()
            try:
                size = int(size_line, 16)
            except ValueError:
                raise _Malformed(f"chunk size {size_line[:20]!r}") from None
            if size == 0:
                return b"".join(parts)
            parts.append(self.exactly(size))
            self.exactly(2)  # the CRLF after the chunk
