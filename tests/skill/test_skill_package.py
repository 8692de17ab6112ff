"""The Agent Skill shipped in the package: its frontmatter follows the Agent Skills format
the hosts read, it links only to files that exist, and it covers every diagnostic code.
(Its command examples run in tests/docs/test_doc_examples.py.)"""

from __future__ import annotations

import re

from ruamel.yaml import YAML

from memhooks.catalogue import CATALOGUE
from memhooks.install import command
from memhooks.install.skill import files

SKILL = files()


def _frontmatter() -> dict[str, object]:
    text = SKILL["SKILL.md"]
    assert text.startswith("---\n")
    return YAML(typ="safe", pure=True).load(text.split("---\n", 2)[1])  # type: ignore[no-any-return]


def test_frontmatter_is_an_agent_skill_named_memhooks() -> None:
    meta = _frontmatter()
    assert meta["name"] == "memhooks"  # lowercase, hyphens; must equal the folder name
    description = meta["description"]
    assert isinstance(description, str) and 1 <= len(description) <= 1024
    assert "/memhooks init" in description
    # OpenCode accepts only string values in `metadata`; the marker makes the copy ours
    metadata = meta["metadata"]
    assert isinstance(metadata, dict) and all(isinstance(v, str) for v in metadata.values())
    assert command.MARKER in str(metadata)
    assert set(meta) <= {
        "name",
        "description",
        "license",
        "compatibility",
        "metadata",
        "allowed-tools",
    }


def test_references_named_in_the_skill_exist() -> None:
    named = set()
    for text in SKILL.values():
        named |= set(re.findall(r"`(references/[\w/.-]+\.md)`", text))
        named |= {
            f"references/backends/{n}"
            for n in re.findall(r"`(\w+\.md)`", text)
            if f"references/backends/{n}" in SKILL
        }
    assert named and named <= set(SKILL), named - set(SKILL)
    assert {rel for rel in SKILL if rel != "SKILL.md"} <= named | {"references/format.md"}


def test_one_page_per_backend() -> None:
    from memhooks.backends.registry import BACKENDS

    assert {f"references/backends/{name}.md" for name in BACKENDS} <= set(SKILL)


def test_troubleshooting_covers_every_diagnostic_code() -> None:
    page = SKILL["references/troubleshooting.md"]
    rows = set(re.findall(r"^\| (MH\d{3}) \|", page, flags=re.MULTILINE))
    assert rows == set(CATALOGUE)


def test_the_skill_stays_concise() -> None:
    assert len(SKILL["SKILL.md"].splitlines()) <= 200
