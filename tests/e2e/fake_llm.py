#!/usr/bin/env python3
# Vendored from the project's shared/tools/fake_llm.py (the e2e tests need it beside them),
# extended with --script (scripted multi-step tool sessions for every flavor).
"""fake_llm.py - a scripted, loopback-only fake LLM server for end-to-end agent tests.

Lets a test run a *real* coding-agent CLI (Claude Code, Codex, Gemini CLI,
OpenCode, Hermes, ...) fully offline: point the agent's base URL at this server,
run one prompt, and afterwards read the JSONL log of every request body the agent
sent.  That proves whether text injected by a lifecycle hook actually reached the
model (and where: system prompt, user message, <system-reminder>, developer
message, tool result ...).

Stdlib only (Python >= 3.9).  Binds to loopback only.

API surfaces (all served at once; the route decides the flavor unless --flavor
restricts it):

  anthropic         POST /v1/messages                     (stream: SSE or JSON)
                    POST /v1/messages/count_tokens
  openai-chat       POST /v1/chat/completions             (stream: SSE or JSON)
  openai-responses  POST /v1/responses                    (stream: SSE or JSON)
  gemini            POST /v1beta/models/<m>:generateContent
                    POST /v1beta/models/<m>:streamGenerateContent[?alt=sse]
                    POST /v1beta/models/<m>:countTokens
  any               GET  /v1/models, /models              (tiny model list)
                    GET  /_fake/health                    ("ok")

Routes also work under any prefix (e.g. /api/v1/chat/completions), since some
agents append their own path to the configured base URL.

Scenarios (--scenario):

  text   every request gets a plain text reply (--reply).
  write  if the request offers a file-writing tool AND the conversation does not
         yet contain a tool result, reply with ONE call of that tool creating
         --write-path with --write-content; otherwise reply with plain text.
         So one prompt = two model requests: tool call, then final text. That
         makes post-tool hooks fire.

         Tool choice, in order: Write (Claude Code), write_file (Gemini CLI,
         Hermes), write (OpenCode), create_file, create (Copilot CLI),
         apply_patch (Codex; freeform "custom" tool or JSON function).  The
         argument names are read from the tool's JSON schema (file_path /
         filePath / path / absolute_path and content / file_text), so one
         server fits all agents.  If no such tool is offered, a shell tool
         (Bash, bash, exec_command, shell, run_shell_command, terminal) is
         called with a `printf ... > file` command.  Claude Code's Write tool
         needs an absolute --write-path; apply_patch uses it as given.
  read-write  first a read of --write-path, then the write of it, then text:
         three model requests (the two-step script below). The read's tool
         result (and any context a post-tool hook adds to it) is in the
         second request, before the write is planned. Claude Code needs the
         Read: it refuses to Write an existing file it has not read.
  script  (--script STEPS) a scripted multi-step tool session, any flavor.
         STEPS is a JSON list (or @FILE holding one) of steps, each one tool
         call:
           {"read": PATH}                       Read / read_file / view / read;
                                                without one (Codex), the shell
                                                tool runs `sed -n '1,200p' PATH`
           {"write": PATH, "content": TEXT}     the file-writing tool, as above
           {"edit": PATH, "old": TEXT, "new": TEXT}
                                                Edit / replace / edit / patch, or
                                                apply_patch `*** Update File:`
                                                (old/new are whole lines there)
           {"shell": COMMAND}                   the shell tool
           {"parallel": [STEP, STEP, ...]}      several calls in one reply (the host
                                                runs them, and their hooks, at once)
         A step is played when the conversation already carries the results
         of every call before it, so a request's place in the script is read from the
         request itself: side requests (title generation, JSON-mode
         classifiers) never consume a step, and a failed tool call still
         moves the script on. After the last step, plain text (--reply).
         PATH is sent as given (Claude Code's Read/Write want it absolute).
         A step whose tool the request does not offer gets plain text.
         With --resume the script counts only the tool results added after
         the first request that offers tools: one server per turn of a
         resumed session (`claude -p --resume ID`, `codex exec resume`),
         whose conversation carries the earlier turns' results.

Internal "side" requests (title generation, JSON-mode classifiers of Gemini CLI)
get a plain-text or schema-shaped JSON reply and do not consume the scenario.

Log (--log, JSONL, one object per request):
  {"seq", "ts", "method", "path", "query", "flavor", "headers" (secrets
   redacted), "body" (parsed JSON, or raw text), "reply" ("text" | "tool_call:
   <name>" | "json" | "count_tokens" | ...)}

Typical use:
  python3 fake_llm.py --port 8765 --scenario write --write-path /tmp/p/hello.txt \
      --log /tmp/fake.jsonl &
  python3 fake_llm.py --port 8765 --log /tmp/fake.jsonl --script \
      '[{"read": "/p/a.py"}, {"read": "/p/b.py"}, {"edit": "/p/a.py", "old": "X = 0", "new": "X = 2"}]' &
  ANTHROPIC_BASE_URL=http://127.0.0.1:8765 ANTHROPIC_API_KEY=dummy claude -p hi
  python3 fake_llm.py --locate MARKER-123 --log /tmp/fake.jsonl

From Python (pytest):
  from fake_llm import FakeLLM
  with FakeLLM(scenario="text", log_path=tmp_path / "log.jsonl") as srv:
      env["ANTHROPIC_BASE_URL"] = srv.base_url      # http://127.0.0.1:<port>
      ...
  FakeLLM(script=[{"read": "/p/a.py"}, {"write": "/p/a.py", "content": "x\n"}], ...)
  srv.requests()  -> list of logged records
  srv.locate("MARKER-123") -> [(seq, "body.messages[0].content[1].text"), ...]
"""
from __future__ import annotations

import argparse
import ipaddress
import json
import os
import re
import shlex
import sys
import threading
import time
import uuid
from collections.abc import Iterable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

FLAVORS = ("auto", "anthropic", "openai-chat", "openai-responses", "gemini")
SCENARIOS = ("text", "write", "read-write", "script")
WRITE_TOOL_PREFERENCE = ("Write", "write_file", "write", "create_file", "create", "apply_patch")
SHELL_TOOL_PREFERENCE = ("Bash", "bash", "exec_command", "shell", "run_shell_command", "terminal")
READ_TOOL_PREFERENCE = ("Read", "read_file", "view", "read")
EDIT_TOOL_PREFERENCE = ("Edit", "replace", "edit", "patch", "apply_patch")
OLD_KEYS = ("old_string", "old_str", "oldString")
NEW_KEYS = ("new_string", "new_str", "newString")
PATH_KEYS = ("file_path", "filePath", "path", "absolute_path", "target_file")
CONTENT_KEYS = ("content", "contents", "text", "file_text")
REDACT_HEADERS = {"authorization", "x-api-key", "x-goog-api-key", "api-key", "cookie"}


# --------------------------------------------------------------------------- #
# helpers
# --------------------------------------------------------------------------- #
def _id(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:24]}"


def _rough_tokens(obj: Any) -> int:
    return max(1, len(json.dumps(obj, ensure_ascii=False)) // 4)


def locate(obj: Any, needle: str, path: str = "") -> list[str]:
    """Return JSON paths (like body.messages[0].content[1].text) of strings containing needle."""
    hits: list[str] = []
    if isinstance(obj, str):
        if needle in obj:
            hits.append(path or "$")
    elif isinstance(obj, dict):
        for k, v in obj.items():
            hits += locate(v, needle, f"{path}.{k}" if path else str(k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            hits += locate(v, needle, f"{path}[{i}]")
    return hits


def fill_schema(schema: Any, depth: int = 0) -> Any:
    """Build a minimal instance of a JSON schema (for JSON-mode side requests)."""
    if not isinstance(schema, dict) or depth > 6:
        return None
    if schema.get("enum"):
        return schema["enum"][0]
    t = schema.get("type")
    if isinstance(t, list):
        t = next((x for x in t if x != "null"), t[0] if t else None)
    t = (t or "").lower() if isinstance(t, str) else t
    if t == "object" or "properties" in schema:
        props = schema.get("properties") or {}
        return {k: fill_schema(v, depth + 1) for k, v in props.items()}
    if t == "array":
        return []
    if t in ("integer", "number"):
        # default 1, not 0: classifiers often want a 1-based score (Gemini CLI's router does)
        lo = schema["exclusiveMinimum"] + 1 if "exclusiveMinimum" in schema else schema.get("minimum", 1)
        return lo if t == "number" else int(lo)
    if t == "boolean":
        return False
    if t == "string":
        return "fake" + "x" * max(0, int(schema.get("minLength", 0)) - 4)
    for key in ("anyOf", "oneOf"):
        if schema.get(key):
            return fill_schema(schema[key][0], depth + 1)
    return None


def _schema_props(schema: Any) -> dict:
    if isinstance(schema, dict):
        return schema.get("properties") or {}
    return {}


def _pick(keys: Iterable[str], props: dict, default: str) -> str:
    for k in keys:
        if k in props:
            return k
    return default


# --------------------------------------------------------------------------- #
# tool description common to all flavors
# --------------------------------------------------------------------------- #
class ToolCall:
    """One planned tool call: name + arguments (dict) or freeform input (str)."""

    def __init__(self, name: str, args: dict | None = None, freeform: str | None = None):
        self.name = name
        self.args = args or {}
        self.freeform = freeform  # for OpenAI "custom" (freeform) tools such as Codex apply_patch
        self.call_id = _id("call_")

    @property
    def args_json(self) -> str:
        return json.dumps(self.args)


def _patch_text(path: str, content: str) -> str:
    lines = content.splitlines() or [""]
    body = "".join(f"+{line}\n" for line in lines)
    return f"*** Begin Patch\n*** Add File: {path}\n{body}*** End Patch\n"


def _update_patch(path: str, old: str, new: str) -> str:
    minus = "".join(f"-{line}\n" for line in old.splitlines())
    plus = "".join(f"+{line}\n" for line in new.splitlines())
    return f"*** Begin Patch\n*** Update File: {path}\n@@\n{minus}{plus}*** End Patch\n"


def _patch_call(info: dict, patch: str) -> ToolCall:
    if info.get("kind") == "custom":
        return ToolCall("apply_patch", freeform=patch)
    props = _schema_props(info.get("schema"))
    key = _pick(("input", "patch", "patchText", "command"), props, "input")
    return ToolCall("apply_patch", {key: patch})


def _call(name: str, info: dict, args: dict) -> ToolCall:
    """A call of ``name`` with ``args``, plus a filler for any other required argument."""
    schema = info.get("schema") or {}
    props = _schema_props(schema)
    for key in schema.get("required") or []:
        if key in props and key not in args:
            args[key] = fill_schema(props[key])
    return ToolCall(name, args)


def _shell_call(tools: dict[str, dict], cmd: str, description: str) -> ToolCall | None:
    for name in SHELL_TOOL_PREFERENCE:
        if name not in tools:
            continue
        props = _schema_props(tools[name].get("schema"))
        key = _pick(("command", "cmd"), props, "command")
        args: dict = {key: ["bash", "-lc", cmd] if (props.get(key) or {}).get("type") == "array" else cmd}
        if "description" in props:
            args["description"] = description
        return _call(name, tools[name], args)
    return None


def write_call(tools: dict[str, dict], path: str, content: str) -> ToolCall | None:
    """The call that creates (or overwrites) ``path`` with ``content``, or None."""
    for name in WRITE_TOOL_PREFERENCE:
        if name not in tools:
            continue
        info = tools[name]
        if name == "apply_patch":
            return _patch_call(info, _patch_text(path, content))
        props = _schema_props(info.get("schema"))
        pkey = _pick(PATH_KEYS, props, "file_path")
        ckey = _pick(CONTENT_KEYS, props, "content")
        return _call(name, info, {pkey: path, ckey: content})
    # No file-writing tool offered: fall back to a shell tool writing the file.
    return _shell_call(tools, f"printf '%s' {shlex.quote(content)} > {shlex.quote(path)}", "write file")


def plan_tool_call(tools: dict[str, dict], cfg: Config) -> ToolCall | None:
    """tools: name -> {"schema": json-schema or None, "kind": "function"|"custom"}."""
    return write_call(tools, cfg.write_path, cfg.write_content)


def read_call(tools: dict[str, dict], path: str) -> ToolCall | None:
    """The call that reads ``path``: a file-reading tool, else the shell (as Codex reads)."""
    for name in READ_TOOL_PREFERENCE:
        if name in tools:
            props = _schema_props(tools[name].get("schema"))
            return _call(name, tools[name], {_pick(PATH_KEYS, props, "file_path"): path})
    return _shell_call(tools, f"sed -n '1,200p' {shlex.quote(path)}", "read file")


def edit_call(tools: dict[str, dict], path: str, old: str, new: str) -> ToolCall | None:
    """The call that replaces ``old`` with ``new`` in ``path``, or None."""
    for name in EDIT_TOOL_PREFERENCE:
        if name not in tools:
            continue
        if name == "apply_patch":
            return _patch_call(tools[name], _update_patch(path, old, new))
        props = _schema_props(tools[name].get("schema"))
        args = {_pick(PATH_KEYS, props, "file_path"): path,
                _pick(OLD_KEYS, props, "old_string"): old, _pick(NEW_KEYS, props, "new_string"): new}
        return _call(name, tools[name], args)
    return None


def plan_step(step: dict, tools: dict[str, dict]) -> ToolCall | None:
    """The tool call that plays one ``--script`` step with the tools offered (None: no tool fits)."""
    if not tools:
        return None
    if "read" in step:
        return read_call(tools, step["read"])
    if "write" in step:
        return write_call(tools, step["write"], step.get("content", ""))
    if "edit" in step:
        return edit_call(tools, step["edit"], step["old"], step["new"])
    if "shell" in step:
        return _shell_call(tools, step["shell"], "run command")
    raise ValueError(f"fake_llm: unknown script step {step!r}")


def load_script(text: str) -> list[dict]:
    """``--script``: a JSON list of steps, or ``@FILE`` holding one. Raises ValueError."""
    if text.startswith("@"):
        text = Path(text[1:]).read_text(encoding="utf-8")
    steps = json.loads(text)
    if not isinstance(steps, list) or not all(isinstance(s, dict) for s in steps):
        raise ValueError("fake_llm: --script must be a JSON list of step objects")
    for step in steps:
        for one in step.get("parallel") or [step]:
            if not isinstance(one, dict) or not {"read", "write", "edit", "shell"} & set(one):
                raise ValueError(f"fake_llm: unknown script step {one!r}")
    return steps


# --------------------------------------------------------------------------- #
# config / state
# --------------------------------------------------------------------------- #
class Config:
    def __init__(self, flavor="auto", scenario="text", reply="FAKE-LLM-OK: done.",
                 write_path="hello.txt", write_content="hello from fake_llm\n",
                 log_path=None, model="fake-model", latency=0.0, reject_system_role=False,
                 script=None, resume=False):
        self.flavor = flavor
        self.resume = resume
        self.scenario = "script" if script is not None else scenario
        self.script = list(script or [])
        self.reply = reply
        self.write_path = write_path
        self.write_content = write_content
        self.log_path = Path(log_path) if log_path else None
        self.model = model
        self.latency = latency
        self.reject_system_role = reject_system_role

    def steps(self) -> list[dict]:
        """The scripted steps of this scenario (empty for text/write)."""
        if self.scenario == "read-write":
            return [{"read": self.write_path}, {"write": self.write_path, "content": self.write_content}]
        return self.script if self.scenario == "script" else []


class State:
    def __init__(self):
        self.lock = threading.Lock()
        self.seq = 0
        self.records: list[dict] = []
        self.base: int | None = None  # --resume: tool results already there at the first request


# --------------------------------------------------------------------------- #
# HTTP handler
# --------------------------------------------------------------------------- #
class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "fake-llm/1.0"
    cfg: Config  # set on subclass
    state: State

    # quiet default logging; our JSONL log is the record
    def log_message(self, fmt, *args):
        if os.environ.get("FAKE_LLM_VERBOSE"):
            sys.stderr.write("fake_llm: " + (fmt % args) + "\n")

    # ---- plumbing -------------------------------------------------------- #
    def _read_body(self) -> tuple[Any, str]:
        n = int(self.headers.get("Content-Length") or 0)
        raw = b""
        if n:
            raw = self.rfile.read(n)
        elif "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            chunks = []
            while True:
                size = int(self.rfile.readline().strip().split(b";")[0], 16)
                if size == 0:
                    self.rfile.readline()
                    break
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
            raw = b"".join(chunks)
        enc = (self.headers.get("Content-Encoding") or "").lower()
        if enc in ("gzip", "deflate") and raw:
            import zlib
            raw = zlib.decompress(raw, 16 + zlib.MAX_WBITS if enc == "gzip" else zlib.MAX_WBITS)
        elif enc == "zstd" and raw:
            try:
                import zstandard  # type: ignore
                raw = zstandard.ZstdDecompressor().decompress(raw, max_output_size=64 << 20)
            except Exception:  # noqa: BLE001, S110  # pragma: no cover - best effort: raw stays as sent
                pass
        text = raw.decode("utf-8", "replace")
        try:
            return (json.loads(text) if text else None), text
        except json.JSONDecodeError:
            return None, text

    def _log(self, flavor: str, body: Any, raw: str, reply: str) -> None:
        st = self.state
        parts = urlsplit(self.path)
        headers = {k.lower(): ("<redacted>" if k.lower() in REDACT_HEADERS else v)
                   for k, v in self.headers.items()}
        with st.lock:
            st.seq += 1
            rec = {"seq": st.seq, "ts": time.time(), "method": self.command,
                   "path": parts.path, "query": parts.query, "flavor": flavor,
                   "headers": headers, "body": body if body is not None else raw,
                   "reply": reply}
            st.records.append(rec)
            if self.cfg.log_path:
                with open(self.cfg.log_path, "a", encoding="utf-8") as f:
                    f.write(json.dumps(rec, ensure_ascii=False) + "\n")

    def _send(self, status: int, payload: Any, ctype="application/json") -> None:
        data = payload if isinstance(payload, (bytes, bytearray)) else (
            payload.encode() if isinstance(payload, str) else json.dumps(payload).encode())
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        if ctype.startswith("text/event-stream"):
            self.send_header("Cache-Control", "no-cache")
        self.send_header("request-id", _id("req_"))
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def _sse(self, events: list[tuple[str | None, Any]]) -> None:
        out = []
        for name, data in events:
            if name:
                out.append(f"event: {name}\n")
            out.append("data: " + (data if isinstance(data, str) else json.dumps(data)) + "\n\n")
        self._send(200, "".join(out), "text/event-stream; charset=utf-8")

    def _plan(self, tools: dict[str, dict], results: int) -> list[ToolCall]:
        """The reply's tool calls, given the tools offered and how many tool results the
        conversation already carries (empty: plain text)."""
        if self.cfg.scenario == "write":
            call = None if results else plan_tool_call(tools, self.cfg)
            return [call] if call else []
        if self.cfg.resume and tools:
            with self.state.lock:
                if self.state.base is None:
                    self.state.base = results
                results -= self.state.base
        played = 0
        for step in self.cfg.steps():  # a parallel step's calls bring as many results
            if played == results:
                calls = [plan_step(s, tools) for s in step.get("parallel") or [step]]
                return calls if all(calls) else []
            played += len(step.get("parallel") or [step])
        return []

    @staticmethod
    def _reply_kind(calls: list[ToolCall], json_mode: bool = False) -> str:
        if calls:
            return "tool_call:" + ",".join(c.name for c in calls)
        return "json" if json_mode else "text"

    # ---- routing --------------------------------------------------------- #
    def do_GET(self):
        p = urlsplit(self.path).path
        if p.endswith("/_fake/health"):
            return self._send(200, "ok", "text/plain")
        if p.endswith("/models") or re.search(r"/models/[^/:]+$", p):
            self._log("models", None, "", "models")
            m = self.cfg.model
            return self._send(200, {"object": "list", "data": [
                {"id": m, "object": "model", "created": 0, "owned_by": "fake",
                 "type": "model", "display_name": m, "created_at": "2025-01-01T00:00:00Z"}],
                "models": [{"name": f"models/{m}", "displayName": m,
                            "supportedGenerationMethods": ["generateContent"]}]})
        self._log("unknown", None, "", "404")
        self._send(404, {"error": {"type": "not_found", "message": f"fake_llm: no route {p}"}})

    def do_HEAD(self):
        self._send(200, b"", "text/plain")

    def do_POST(self):
        if self.cfg.latency:
            time.sleep(self.cfg.latency)
        p = urlsplit(self.path).path
        body, raw = self._read_body()
        want = self.cfg.flavor
        route = None
        if p.endswith("/messages/count_tokens"):
            route = "anthropic-count"
        elif p.endswith("/messages"):
            route = "anthropic"
        elif p.endswith("/chat/completions"):
            route = "openai-chat"
        elif p.endswith("/responses"):
            route = "openai-responses"
        elif ":countTokens" in p:
            route = "gemini-count"
        elif ":generateContent" in p or ":streamGenerateContent" in p:
            route = "gemini"
        if route is None or (want != "auto" and not route.startswith(want)):
            self._log(route or "unknown", body, raw, "404")
            return self._send(404, {"error": {"type": "not_found",
                                              "message": f"fake_llm: no route {p} for flavor {want}"}})
        if not isinstance(body, dict):
            self._log(route, body, raw, "400")
            return self._send(400, {"error": {"type": "invalid_request_error", "message": "JSON body expected"}})
        try:
            getattr(self, "_h_" + route.replace("-", "_"))(body, raw, p)
        except (BrokenPipeError, ConnectionResetError):
            pass

    # ---- anthropic ------------------------------------------------------- #
    def _h_anthropic_count(self, body, raw, p):
        self._log("anthropic", body, raw, "count_tokens")
        self._send(200, {"input_tokens": _rough_tokens(body)})

    def _h_anthropic(self, body, raw, p):
        if self.cfg.reject_system_role and any(
                isinstance(m, dict) and m.get("role") == "system" for m in body.get("messages") or []):
            # Emulate an Anthropic-compatible gateway without the mid-conversation-system beta.
            # Claude Code >= 2.1.19x then retries with <system-reminder> text blocks in user turns.
            self._log("anthropic", body, raw, "400:system-role")
            return self._send(400, {"type": "error", "error": {
                "type": "invalid_request_error",
                "message": 'messages.1.role: Unexpected role "system". The mid-conversation-system-2026-04-07 '
                           'anthropic-beta header is not supported. Allowed roles are "user" or "assistant".'}})
        tools = {t["name"]: {"schema": t.get("input_schema"), "kind": "function"}
                 for t in body.get("tools") or [] if isinstance(t, dict) and "name" in t}
        results = sum(isinstance(b, dict) and b.get("type") == "tool_result"
                      for m in body.get("messages") or [] if isinstance(m.get("content"), list)
                      for b in m["content"])
        calls = self._plan(tools, results)
        model = body.get("model") or self.cfg.model
        self._log("anthropic", body, raw, self._reply_kind(calls))
        usage_in = _rough_tokens(body)
        if calls:
            blocks = [{"type": "tool_use", "id": _id("toolu_"), "name": c.name, "input": c.args} for c in calls]
            stop = "tool_use"
        else:
            blocks = [{"type": "text", "text": self.cfg.reply}]
            stop = "end_turn"
        msg_id = _id("msg_")
        if not body.get("stream"):
            return self._send(200, {"id": msg_id, "type": "message", "role": "assistant", "model": model,
                                    "content": blocks, "stop_reason": stop, "stop_sequence": None,
                                    "usage": {"input_tokens": usage_in, "output_tokens": 10}})
        ev = [("message_start", {"type": "message_start", "message": {
            "id": msg_id, "type": "message", "role": "assistant", "model": model, "content": [],
            "stop_reason": None, "stop_sequence": None,
            "usage": {"input_tokens": usage_in, "output_tokens": 1,
                      "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}}}),
              ("ping", {"type": "ping"})]
        for i, b in enumerate(blocks):
            if b["type"] == "text":
                ev.append(("content_block_start", {"type": "content_block_start", "index": i,
                                                   "content_block": {"type": "text", "text": ""}}))
                ev.append(("content_block_delta", {"type": "content_block_delta", "index": i,
                                                   "delta": {"type": "text_delta", "text": b["text"]}}))
            else:
                ev.append(("content_block_start", {"type": "content_block_start", "index": i,
                                                   "content_block": {**b, "input": {}}}))
                ev.append(("content_block_delta", {"type": "content_block_delta", "index": i,
                                                   "delta": {"type": "input_json_delta",
                                                             "partial_json": json.dumps(b["input"])}}))
            ev.append(("content_block_stop", {"type": "content_block_stop", "index": i}))
        ev.append(("message_delta", {"type": "message_delta",
                                     "delta": {"stop_reason": stop, "stop_sequence": None},
                                     "usage": {"output_tokens": 10}}))
        ev.append(("message_stop", {"type": "message_stop"}))
        self._sse(ev)

    # ---- openai chat completions ---------------------------------------- #
    def _h_openai_chat(self, body, raw, p):
        tools = {}
        for t in body.get("tools") or []:
            fn = t.get("function") if isinstance(t, dict) else None
            if fn and "name" in fn:
                tools[fn["name"]] = {"schema": fn.get("parameters"), "kind": "function"}
        results = sum(m.get("role") == "tool" for m in body.get("messages") or [] if isinstance(m, dict))
        calls = self._plan(tools, results)
        rf = body.get("response_format") or {}
        json_mode = isinstance(rf, dict) and rf.get("type") in ("json_object", "json_schema")
        text = self.cfg.reply
        if json_mode and not calls:
            schema = (rf.get("json_schema") or {}).get("schema")
            text = json.dumps(fill_schema(schema) if schema else {"result": self.cfg.reply})
        self._log("openai-chat", body, raw, self._reply_kind(calls, json_mode))
        model = body.get("model") or self.cfg.model
        cid, created = _id("chatcmpl-"), int(time.time())
        usage = {"prompt_tokens": _rough_tokens(body), "completion_tokens": 10,
                 "total_tokens": _rough_tokens(body) + 10}
        tc = [{"index": i, "id": c.call_id, "type": "function",
               "function": {"name": c.name, "arguments": c.args_json}} for i, c in enumerate(calls)]
        finish = "tool_calls" if calls else "stop"
        if not body.get("stream"):
            msg = {"role": "assistant", "content": None if calls else text}
            if tc:
                msg["tool_calls"] = [{k: v for k, v in c.items() if k != "index"} for c in tc]
            return self._send(200, {"id": cid, "object": "chat.completion", "created": created, "model": model,
                                    "choices": [{"index": 0, "message": msg, "finish_reason": finish}],
                                    "usage": usage})

        def chunk(delta, fin=None, **extra):
            return {"id": cid, "object": "chat.completion.chunk", "created": created, "model": model,
                    "choices": [{"index": 0, "delta": delta, "finish_reason": fin}], **extra}
        ev = [(None, chunk({"role": "assistant", "content": ""}))]
        if tc:
            ev.append((None, chunk({"tool_calls": tc})))
        else:
            ev.append((None, chunk({"content": text})))
        ev.append((None, chunk({}, finish)))
        if (body.get("stream_options") or {}).get("include_usage"):
            ev.append((None, {"id": cid, "object": "chat.completion.chunk", "created": created,
                              "model": model, "choices": [], "usage": usage}))
        ev.append((None, "[DONE]"))
        self._sse(ev)

    # ---- openai responses ------------------------------------------------ #
    def _h_openai_responses(self, body, raw, p):
        tools = {}
        for t in body.get("tools") or []:
            if not isinstance(t, dict) or "name" not in t:
                continue
            kind = "custom" if t.get("type") == "custom" else "function"
            tools[t["name"]] = {"schema": t.get("parameters"), "kind": kind}
        items = body.get("input") if isinstance(body.get("input"), list) else []
        results = sum(isinstance(i, dict) and str(i.get("type", "")).endswith("_call_output") for i in items)
        calls = self._plan(tools, results)
        fmt = ((body.get("text") or {}).get("format") or {})
        json_mode = fmt.get("type") in ("json_schema", "json_object")
        text = self.cfg.reply
        if json_mode and not calls:
            text = json.dumps(fill_schema(fmt.get("schema")) if fmt.get("schema") else {"result": text})
        self._log("openai-responses", body, raw, self._reply_kind(calls, json_mode))
        model = body.get("model") or self.cfg.model
        rid, created = _id("resp_"), int(time.time())
        n_in = _rough_tokens(body)
        usage = {"input_tokens": n_in, "input_tokens_details": {"cached_tokens": 0},
                 "output_tokens": 10, "output_tokens_details": {"reasoning_tokens": 0},
                 "total_tokens": n_in + 10}
        output = []
        for call in calls:
            if call.freeform is not None:
                output.append({"type": "custom_tool_call", "id": _id("ctc_"), "status": "completed",
                               "call_id": call.call_id, "name": call.name, "input": call.freeform})
            else:
                output.append({"type": "function_call", "id": _id("fc_"), "status": "completed",
                               "call_id": call.call_id, "name": call.name, "arguments": call.args_json})
        if not calls:
            output.append({"type": "message", "id": _id("msg_"), "status": "completed", "role": "assistant",
                           "content": [{"type": "output_text", "text": text, "annotations": []}]})
        base = {"id": rid, "object": "response", "created_at": created, "model": model,
                "parallel_tool_calls": True, "tool_choice": "auto", "tools": []}
        done_resp = {**base, "status": "completed", "output": output, "usage": usage}
        if not body.get("stream"):
            return self._send(200, done_resp)
        seq = iter(range(1000))

        def e(name, **kw):
            return (name, {"type": name, "sequence_number": next(seq), **kw})
        ev = [e("response.created", response={**base, "status": "in_progress", "output": []}),
              e("response.in_progress", response={**base, "status": "in_progress", "output": []})]
        for n, item in enumerate(output):
            if item["type"] == "message":
                ev.append(e("response.output_item.added", output_index=n,
                            item={**item, "status": "in_progress", "content": []}))
                ev.append(e("response.content_part.added", item_id=item["id"], output_index=n, content_index=0,
                            part={"type": "output_text", "text": "", "annotations": []}))
                ev.append(e("response.output_text.delta", item_id=item["id"], output_index=n, content_index=0,
                            delta=text, logprobs=[]))
                ev.append(e("response.output_text.done", item_id=item["id"], output_index=n, content_index=0,
                            text=text, logprobs=[]))
                ev.append(e("response.content_part.done", item_id=item["id"], output_index=n, content_index=0,
                            part=item["content"][0]))
            else:  # function_call streams "arguments", custom_tool_call (freeform) its "input"
                key, prefix = (("arguments", "response.function_call_arguments") if item["type"] == "function_call"
                               else ("input", "response.custom_tool_call_input"))
                ev.append(e("response.output_item.added", output_index=n, item={**item, "status": "in_progress", key: ""}))
                ev.append(e(f"{prefix}.delta", item_id=item["id"], output_index=n, delta=item[key]))
                ev.append(e(f"{prefix}.done", item_id=item["id"], output_index=n, **{key: item[key]}))
            ev.append(e("response.output_item.done", output_index=n, item=item))
        ev.append(e("response.completed", response=done_resp))
        self._sse(ev)

    # ---- gemini ---------------------------------------------------------- #
    def _h_gemini_count(self, body, raw, p):
        self._log("gemini", body, raw, "count_tokens")
        self._send(200, {"totalTokens": _rough_tokens(body)})

    def _h_gemini(self, body, raw, p):
        tools = {}
        for t in body.get("tools") or []:
            for fd in (t.get("functionDeclarations") or t.get("function_declarations") or []):
                schema = fd.get("parametersJsonSchema") or fd.get("parameters")
                tools[fd["name"]] = {"schema": schema, "kind": "function"}
        results = sum(isinstance(part, dict) and ("functionResponse" in part or "function_response" in part)
                      for c in body.get("contents") or [] for part in (c.get("parts") or []))
        calls = self._plan(tools, results)
        gc = body.get("generationConfig") or body.get("generation_config") or {}
        json_mode = gc.get("responseMimeType") == "application/json"
        text = self.cfg.reply
        if json_mode and not calls:
            schema = gc.get("responseJsonSchema") or gc.get("responseSchema")
            text = json.dumps(fill_schema(schema) if schema else {"result": text})
        self._log("gemini", body, raw, self._reply_kind(calls, json_mode))
        m = re.search(r"/models/([^/:]+):", p)
        model = m.group(1) if m else self.cfg.model
        parts = [{"functionCall": {"name": c.name, "args": c.args, "id": c.call_id}} for c in calls] or [{"text": text}]
        resp = {"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
                "usageMetadata": {"promptTokenCount": _rough_tokens(body), "candidatesTokenCount": 10,
                                  "totalTokenCount": _rough_tokens(body) + 10},
                "modelVersion": model, "responseId": _id("")}
        if ":streamGenerateContent" in p:
            if "alt=sse" in (urlsplit(self.path).query or ""):
                return self._sse([(None, resp)])
            return self._send(200, [resp])
        self._send(200, resp)


# --------------------------------------------------------------------------- #
# server object (importable)
# --------------------------------------------------------------------------- #
def _check_loopback(host: str) -> None:
    try:
        ok = ipaddress.ip_address(host).is_loopback
    except ValueError:
        ok = host == "localhost"
    if not ok:
        raise SystemExit(f"fake_llm: refusing to bind non-loopback host {host!r}")


class FakeLLM:
    """Run the fake server in a background thread (context manager)."""

    def __init__(self, host="127.0.0.1", port=0, **cfg_kwargs):
        _check_loopback(host)
        self.cfg = Config(**cfg_kwargs)
        self.state = State()
        handler = type("BoundHandler", (Handler,), {"cfg": self.cfg, "state": self.state})
        self.httpd = ThreadingHTTPServer((host, port), handler)
        self.httpd.daemon_threads = True
        self.host, self.port = self.httpd.server_address[:2]
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self) -> FakeLLM:
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def requests(self) -> list[dict]:
        with self.state.lock:
            return list(self.state.records)

    def locate(self, needle: str) -> list[tuple[int, str]]:
        return [(r["seq"], h) for r in self.requests() for h in locate(r["body"], needle, "body")]


def locate_in_log(log_path: str, needle: str) -> list[tuple[int, str, str]]:
    out = []
    with open(log_path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                r = json.loads(line)
                for h in locate(r["body"], needle, "body"):
                    out.append((r["seq"], r["path"], h))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--host", default="127.0.0.1", help="loopback address to bind (default 127.0.0.1)")
    ap.add_argument("--port", type=int, default=8765, help="port; 0 = pick a free one (see --port-file)")
    ap.add_argument("--port-file", help="write the bound port here once listening")
    ap.add_argument("--flavor", choices=FLAVORS, default="auto", help="restrict to one API surface")
    ap.add_argument("--scenario", choices=SCENARIOS, default="text")
    ap.add_argument("--reply", default="FAKE-LLM-OK: done.", help="plain-text reply")
    ap.add_argument("--write-path", default="hello.txt", help="file the 'write' scenario creates")
    ap.add_argument("--write-content", default="hello from fake_llm\n")
    ap.add_argument("--script", metavar="STEPS",
                    help="scripted tool session: a JSON list of steps or @FILE (see the module docstring); "
                         "implies --scenario script")
    ap.add_argument("--resume", action="store_true",
                    help="--script counts only tool results added after the first request that offers tools "
                         "(one server per turn of a resumed session)")
    ap.add_argument("--model", default="fake-model", help="model id used when the request has none")
    ap.add_argument("--latency", type=float, default=0.0, help="seconds to sleep before each reply")
    ap.add_argument("--reject-system-role", action="store_true",
                    help="anthropic: answer 400 to messages with role 'system' (as a gateway without the "
                         "mid-conversation-system beta would), to test Claude Code's fallback")
    ap.add_argument("--log", help="JSONL request log (appended)")
    ap.add_argument("--locate", metavar="NEEDLE",
                    help="don't serve: print where NEEDLE occurs in the request bodies in --log")
    a = ap.parse_args(argv)
    if a.locate:
        if not a.log:
            ap.error("--locate needs --log")
        hits = locate_in_log(a.log, a.locate)
        for seq, path, h in hits:
            print(f"#{seq} {path} {h}")
        return 0 if hits else 1
    try:
        script = load_script(a.script) if a.script else None
    except (OSError, ValueError) as exc:
        ap.error(str(exc))
    srv = FakeLLM(host=a.host, port=a.port, flavor=a.flavor, scenario=a.scenario, reply=a.reply,
                  write_path=a.write_path, write_content=a.write_content, log_path=a.log,
                  model=a.model, latency=a.latency, reject_system_role=a.reject_system_role,
                  script=script, resume=a.resume)
    if a.port_file:
        Path(a.port_file).write_text(str(srv.port))
    print(f"fake_llm listening on {srv.base_url} flavor={a.flavor} scenario={srv.cfg.scenario}", file=sys.stderr,
          flush=True)
    try:
        srv.httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
