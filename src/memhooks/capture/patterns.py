"""Pattern detection for capture: which lines of output, files and comments are worth keeping.

Capture types a memory from *structured* signals first (a failing then passing command,
a configuration file, a comment added in an edit) and uses these patterns only to pick
lines inside them; nothing is typed from keywords alone. Which sentences state a
decision, a rule or a finding is :mod:`memhooks.statements` (shared with transcripts).
"""

from __future__ import annotations

from ..lazy import Lazy

#: Lines of command output that say what went wrong.
ERROR_LINE = Lazy(
    r"(?x)\b(?:[A-Z][A-Za-z]*(?:Error|Exception)|error|ERROR|Error|FAILED|FAIL|Failed|failed|failure"
    r"|Traceback|AssertionError|assert|panic|fatal|FATAL|denied|not\s+found|No\s+such|cannot|can't"
    r"|could\s+not|undefined|refused|timed?\s*out|exit\s+(?:code|status)\s+[1-9])\b|^\s*E\s{2,}\S"
    r"|^\s*(?:●|✕|×|✗)\s|\b(?:Expected|Received|Actual)(?:\s+value)?:"
)
#: Output that reports success when the host gave no exit code (and no failure count).
SUCCESS_LINE = Lazy(
    r"(?ix)\b[1-9]\d*\s+passed\b|\ball\s+tests?\s+passed\b|\bbuild\s+succeeded\b"
    r"|\bsuccessfully\b|\b0\s+(?:failed|errors?)\b|\bno\s+errors?\b|^\s*ok\s*$|\bTests:\s+\d+\s+passed"
)
#: A count of failures ("1 failed", "3 errors"): the line reports a failure whatever else it says.
FAILED_COUNT = Lazy(r"(?i)\b[1-9]\d*\s+(?:failed|failures?|errors?)\b")

#: Commands that never teach anything: listing, reading, navigating, inspecting.
TRIVIAL_COMMAND = Lazy(
    r"(?x)^(?:ls|dir|cd|pwd|echo|printf|cat|type|head|tail|less|more|wc|which|where|whoami|date|clear"
    r"|cls|exit|env|printenv|set|export|true|false|sleep|tree|stat|file|du|df|history|alias|source|\.)(?:\s|$)"
    r"|^git\s+(?:status|log|diff|show|branch|remote|stash\s+list|rev-parse|ls-files|blame|config\s+--get)\b"
    r"|^(?:npm|pnpm|yarn)\s+(?:list|ls|view|info|outdated|why)\b|^pip\d?\s+(?:list|show|freeze)\b"
    r"|--version$|^(?:grep|rg|ag|find|fd|sed\s+-n|awk)\b"
)

#: Files whose changes are configuration changes.
CONFIG_FILE = Lazy(
    r"(?ix)(?:^|/)(?:"
    r"\.env(?:\.[\w.-]+)?|[\w.-]+\.(?:toml|ini|cfg|conf|properties|ya?ml|tf|tfvars)"
    r"|Dockerfile[\w.-]*|docker-compose[\w.-]*|Containerfile|Makefile|Procfile|Justfile"
    r"|package\.json|tsconfig[\w.-]*\.json|[\w.-]*rc(?:\.json|\.js|\.cjs|\.mjs|\.ya?ml)?"
    r"|requirements[\w.-]*\.txt|constraints[\w.-]*\.txt|Pipfile|Gemfile|go\.mod|Cargo\.toml|pom\.xml"
    r"|build\.gradle(?:\.kts)?|settings\.json|\.gitignore|\.gitattributes|\.editorconfig|CODEOWNERS"
    r")$|(?:^|/)\.github/workflows/"
)
#: Files people write prose decisions into.
DOC_FILE = Lazy(r"(?i)\.(?:md|mdx|rst|adoc|txt)$|(?:^|/)(?:adr|decisions?)/")

#: A comment line of any common language: the comment text is group 1.
COMMENT = Lazy(r"^\s*(?:#+|//+|/\*+|\*+|--|<!--|;+|%+|\"\"\"|''')\s*(.*?)\s*(?:\*/|-->)?\s*$")
#: Inline comment after code (``x = 1  # because …``).
TRAILING_COMMENT = Lazy(r"\s(?:#|//)\s*(.+?)\s*$")
#: Markers that make a comment a rationale worth keeping.
RATIONALE = Lazy(
    r"(?ix)\b(?:because|decided|decision|workaround|hack|gotcha|caveat|important|warning|beware"
    r"|do\s+not|don'?t|never|always|must|why:|note:|root\s+cause|instead\s+of|rather\s+than"
    r"|deliberately|on\s+purpose|intentionally|required\s+by|see\s+(?:issue|\#\d+|https?://)"
    r"|so\s+that|otherwise|in\s+order\s+to|due\s+to|which\s+is\s+why|keep\s+in\s+mind)\b"
    r"|因为|注意|不要|必须|决定"
)
