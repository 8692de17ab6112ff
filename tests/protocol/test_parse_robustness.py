"""Any frontmatter, however broken, gives diagnostics — never an exception — and a hook
that validates always yields a plan with a JSON form (issue 2: "never a traceback")."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from memhooks.protocol.hookfile import parse_text
from memhooks.protocol.merge import resolve_chain
from memhooks.protocol.plan import build_plan

#: YAML and memhooks fragments; random sequences of them reach the odd corners of the
#: parser (complex keys, anchors, tags, directives, control characters, non-finite numbers).
FRAGMENTS = (
    "schema: memhooks/v2\n", "recall_queries:\n", "entities:\n", "resources:\n", "backends:\n",
    "  mem0: ", "  - ", "  - name: ", "query: ", "priority: ", "salience: ", "when: ", "roles: ",
    "x_future: ", "inherits: ", "tags: ", "exclude: ", "scope: ", "{", "}", "[", "]", ", ", ": ",
    "? ", "&a ", "*a", "!!str ", "!t ", "- ", "\n", "  ", "\t", "'", '"', "\\", "#", "|", ">",
    "---", "...", "%YAML 1.2\n", "a", "1", "017", "1e3", ".nan", "-.inf", "null", "~", "true",
    "é", "\x00", "\x85", "\ufeff", "@", "`", "<<: ", "? [", "? {", "? - ", "? ? ", "]\n: ", "}\n: ",
    "recall_queries: [{query: q, ", "entities: [{name: n, ", "when: {roles: [r], ", "}]\n",
)  # fmt: skip


@settings(derandomize=True, database=None, deadline=None, max_examples=1000)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=30))
def test_any_frontmatter_gives_diagnostics_or_a_json_plan(fragments: list[str]) -> None:
    hook = parse_text("---\n" + "".join(fragments) + "\n---\n", "MEMHOOKS.md")
    for diagnostic in hook.diagnostics:
        assert diagnostic.code.startswith("MH") and diagnostic.line is not None
    if hook.valid:
        assert hook.data is not None
        plan = build_plan(
            resolve_chain([("MEMHOOKS.md", hook.data, hook.guidance)]), "/", "/", ["reviewer"]
        )
        json.dumps(plan, allow_nan=False)
