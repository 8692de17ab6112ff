"""Hypothesis strategies for memhooks/v2 hook data (the plain form the parser produces).

``hooks()`` draws valid frontmatter data; ``yaml_text()`` turns it into hook file text
(JSON is YAML 1.2, so a JSON frontmatter is an exact, unambiguous rendering).
By default text is drawn from letters, digits, punctuation, symbols and spaces —
what YAML accepts in a quoted scalar; ``ANY`` draws from all of Unicode for tests that
never go through YAML (merge, budget).
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

from memhooks.protocol.merge import query_text
from memhooks.protocol.text import normalize

YAML_SAFE = st.characters(categories=("L", "N", "P", "S", "Zs"))
ANY = st.characters(exclude_categories=("Cs",))


def words(alphabet: st.SearchStrategy[str], max_size: int = 12) -> st.SearchStrategy[str]:
    """Non-blank text (blank text is an error for names, roles and queries)."""
    return st.text(alphabet, min_size=1, max_size=max_size).filter(lambda s: s.strip() != "")


def unit() -> st.SearchStrategy[float]:
    return st.floats(min_value=0.0, max_value=1.0, allow_nan=False)


def json_values(alphabet: st.SearchStrategy[str]) -> st.SearchStrategy[Any]:
    text = st.text(alphabet, max_size=12)
    scalars = (
        st.none()
        | st.booleans()
        | st.integers(-(10**12), 10**12)
        | st.floats(allow_nan=False, allow_infinity=False)
        | text
    )
    return st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(text, inner, max_size=3),
        max_leaves=6,
    )


def backends(alphabet: st.SearchStrategy[str]) -> st.SearchStrategy[dict[str, Any]]:
    namespace = st.dictionaries(st.text(alphabet, max_size=8), json_values(alphabet), max_size=3)
    return st.dictionaries(words(alphabet, 8), namespace, max_size=3)


def cues(kind_key: str, alphabet: st.SearchStrategy[str]) -> st.SearchStrategy[Any]:
    structured = st.fixed_dictionaries(
        {"name": words(alphabet)}, optional={kind_key: words(alphabet), "salience": unit()}
    )
    return words(alphabet) | structured


def queries(alphabet: st.SearchStrategy[str]) -> st.SearchStrategy[Any]:
    structured = st.fixed_dictionaries(
        {"query": words(alphabet, 40)},
        optional={
            "priority": unit(),
            "when": st.fixed_dictionaries(
                {}, optional={"roles": st.lists(st.sampled_from(ROLES), max_size=3)}
            ),
            "entities": st.lists(cues("type", alphabet), max_size=3),
            "resources": st.lists(cues("kind", alphabet), max_size=3),
            "tags": st.lists(words(alphabet), max_size=3),
            "backends": backends(alphabet),
        },
    )
    return words(alphabet, 40) | structured


#: A small role vocabulary, so that generated queries and active roles actually meet.
ROLES = ("reviewer", "architect", "ops", "Reviewer")


def _structural(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def hooks(
    alphabet: st.SearchStrategy[str] = YAML_SAFE, *, inherits: bool = False
) -> st.SearchStrategy[dict[str, Any]]:
    """Valid hook data without duplicates inside any list (queries unique by
    normalized text, cues by structure, tags/exclude by exact string). With
    ``inherits`` the hook may carry ``inherits: true|false``."""
    optional: dict[str, st.SearchStrategy[Any]] = {
        "scope": words(alphabet),
        "sensitivity": words(alphabet),
        "recall_queries": st.lists(
            queries(alphabet), max_size=4, unique_by=lambda q: normalize(query_text(q))
        ),
        "entities": st.lists(cues("type", alphabet), max_size=3, unique_by=_structural),
        "resources": st.lists(cues("kind", alphabet), max_size=3, unique_by=_structural),
        "tags": st.lists(words(alphabet), max_size=3, unique=True),
        "exclude": st.lists(words(alphabet), max_size=3, unique=True),
        "backends": backends(alphabet),
    }
    if inherits:
        optional["inherits"] = st.booleans()
    return st.fixed_dictionaries({"schema": st.just("memhooks/v2")}, optional=optional)


def bodies(alphabet: st.SearchStrategy[str] = YAML_SAFE) -> st.SearchStrategy[str]:
    """Markdown bodies: lines of text, possibly blank, LF-separated."""
    return st.lists(st.text(alphabet, max_size=30), max_size=4).map("\n".join)


def yaml_text(data: dict[str, Any], body: str) -> str:
    return "---\n" + json.dumps(data, ensure_ascii=False) + "\n---\n" + body
