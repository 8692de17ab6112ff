"""Secret scrubbing: every text capture stores (memories *and* its own state) passes here first.

A secret is replaced by ``[REDACTED:<kind>]``; for ``name=value`` assignments and
connection strings only the value goes, so the memory still says *which* setting
changed. The rules are data (:data:`RULES`), applied in order: whole blocks (private
keys) before tokens with a recognisable shape, before assignments to secret-looking
names. What is not caught: secrets with no recognisable shape outside an assignment
(a bare 20-character password in prose), and encodings of secrets (base64 of a
``.env``). Capture therefore also stores only short excerpts, never whole outputs.
"""

from __future__ import annotations

import re

from .lazy import Lazy

#: Names whose assigned value is a secret (``password=…``, ``"api_key": "…"``, ``TOKEN: …``).
_SECRET_NAME = (
    r"(?:[A-Za-z0-9_.-]*?(?:password|passwd|passphrase|pwd|secret|token|api[_-]?key|apikey"
    r"|access[_-]?key|private[_-]?key|client[_-]?secret|auth[_-]?key|credentials?|signing[_-]?key"
    r"|encryption[_-]?key|session[_-]?key|webhook[_-]?url|dsn))"
)

#: (kind, hints, pattern, group holding the secret or 0 for the whole match). Order matters.
#: A rule runs only on text containing one of its space-separated ``hints`` (lower case).
RULES: tuple[tuple[str, str, str, int], ...] = (
    (
        "private-key",
        "private key",
        r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----.*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\Z)",
        0,
    ),
    ("jwt", "eyj", r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}", 0),
    # scheme://user:password@host — keep scheme, user and host.
    ("connection-string", "@", r"\b[a-zA-Z][a-zA-Z0-9+.-]{1,20}://[^\s:/@'\"]*:([^\s@'\"/]+)@", 1),
    ("anthropic-key", "sk-ant-", r"\bsk-ant-[A-Za-z0-9_-]{20,}", 0),
    ("openai-key", "sk-", r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}", 0),
    ("stripe-key", "_live_ _test_", r"\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}", 0),
    (
        "aws-access-key",
        "akia asia agpa aida aroa anpa aipa",
        r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|AIPA)[A-Z0-9]{16}\b",
        0,
    ),
    (
        "github-token",
        "gho_ ghp_ ghu_ ghs_ ghr_ github_pat_",
        r"\b(?:gh[opusr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})",
        0,
    ),
    ("gitlab-token", "glpat-", r"\bglpat-[A-Za-z0-9_-]{20,}", 0),
    ("slack-token", "xox", r"\bxox[abposr]-[A-Za-z0-9-]{10,}", 0),
    ("slack-webhook", "hooks.slack.com", r"https://hooks\.slack\.com/services/[A-Za-z0-9/_-]+", 0),
    ("google-api-key", "aiza", r"\bAIza[0-9A-Za-z_-]{35}\b", 0),
    ("npm-token", "npm_", r"\bnpm_[A-Za-z0-9]{36}\b", 0),
    ("pypi-token", "pypi-", r"\bpypi-[A-Za-z0-9_-]{50,}", 0),
    ("huggingface-token", "hf_", r"\bhf_[A-Za-z0-9]{30,}\b", 0),
    ("sendgrid-key", "sg.", r"\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}", 0),
    ("digitalocean-token", "_v1_", r"\bdo[opr]_v1_[a-f0-9]{64}\b", 0),
    (
        "azure-key",
        "accountkey sharedaccess",
        r"(?i)\b(?:AccountKey|SharedAccessKey|SharedAccessSignature)=([^;\s'\"]+)",
        1,
    ),
    ("bearer-token", "bearer basic", r"(?i)\b(?:bearer|basic)\s+([A-Za-z0-9._~+/=-]{16,})", 1),
    # ?token=…, &api_key=…, &sig=… in URLs.
    (
        "url-secret",
        "=",
        r"(?i)[?&](?:access_token|token|api_key|apikey|key|sig|signature|secret|password|auth)=([^&\s'\"#]+)",
        1,
    ),
    # NAME=value, NAME: value, "name": "value", --password value (assignments and flags).
    (
        "secret-assignment",
        "pass pwd secret token key credential dsn",
        r"(?i)(?:\b" + _SECRET_NAME + r"[\"']?\s*(?:=|:|\s-?>)\s*|--" + _SECRET_NAME + r"[= ])"
        r"(\"[^\"\n]{3,}\"|'[^'\n]{3,}'|[^\s\"',;}{]{3,})",
        1,
    ),
    (
        "netrc-password",
        "password",
        r"(?im)^\s*(?:machine\s+\S+\s+login\s+\S+\s+)?password\s+(\S+)",
        1,
    ),
)

_COMPILED = {kind: Lazy(pattern, re.DOTALL) for kind, _hints, pattern, _group in RULES}
#: Values after a secret name that are references, not secrets (``${TOKEN}``, ``os.environ[...]``).
_REFERENCE = Lazy(
    r"(?i)^[\"']?(?:\$\{?[A-Za-z_]|%[A-Za-z_]|os\.environ|process\.env|env\(|getenv|<[^>]*>|\[REDACTED|\*+[\"']?$|x{3,}|null|none|true|false|\"\"|'')",
)


def scrub(text: str) -> tuple[str, int]:
    """``(text with secrets replaced, how many were replaced)``. Never raises."""
    count = 0
    lowered = text.lower()
    for kind, hints, _pattern, group in RULES:
        if not any(h in lowered for h in hints.split()):
            continue  # most texts hold no secret: no regex is compiled or run for them
        compiled = _COMPILED[kind].compiled

        def replace(match: re.Match[str], kind: str = kind, group: int = group) -> str:
            nonlocal count
            secret = match.group(group)
            if group and (not secret or _REFERENCE.match(secret)):
                return match.group(0)
            count += 1
            marker = f"[REDACTED:{kind}]"
            if group == 0:
                return marker
            start, end = match.span(group)
            offset = match.start()
            whole = match.group(0)
            return whole[: start - offset] + marker + whole[end - offset :]

        text = compiled.sub(replace, text)
        lowered = text.lower()
    return text, count


def clean(text: str) -> str:
    """:func:`scrub` without the count."""
    return scrub(text)[0]
