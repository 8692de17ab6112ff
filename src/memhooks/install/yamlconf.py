"""Round-trip edits of a YAML config (Hermes' ``config.yaml``): comments, key order and
the file's indentation survive; only the keys we touch change."""

from __future__ import annotations

import io

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def load(text: str | None) -> tuple[Any, Any]:
    """(document, dumper) for ``text`` (None: an empty mapping)."""
    from ruamel.yaml import YAML
    from ruamel.yaml.comments import CommentedMap
    from ruamel.yaml.util import load_yaml_guess_indent

    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 4096  # never fold a long hook command over two lines
    if not text or not text.strip():
        yaml.indent(mapping=2, sequence=4, offset=2)
        return CommentedMap(), yaml
    _, sequence, offset = load_yaml_guess_indent(text)  # the sequences' indent and dash offset
    yaml.indent(mapping=mapping_indent(text), sequence=sequence or 2, offset=offset or 0)
    data = yaml.load(text)
    if data is None:
        data = CommentedMap()
    if not isinstance(data, dict):
        raise ValueError("the YAML document is not a mapping")  # noqa: TRY004  reported as a config error
    return data, yaml


def mapping_indent(text: str) -> int:
    """Spaces of the first nested mapping key (not a list item), default 2."""
    for line in text.splitlines():
        stripped = line.lstrip(" ")
        if stripped and stripped != line and not stripped.startswith(("-", "#")):
            return len(line) - len(stripped)
    return 2


def dump(data: Any, yaml: Any) -> str:
    out = io.StringIO()
    yaml.dump(data, out)
    return out.getvalue()


def mapping() -> Any:
    from ruamel.yaml.comments import CommentedMap

    return CommentedMap()
