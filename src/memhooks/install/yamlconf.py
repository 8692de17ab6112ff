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
    if not text or not text.strip():
        yaml.indent(mapping=2, sequence=4, offset=2)
        return CommentedMap(), yaml
    data, indent, block_seq_indent = load_yaml_guess_indent(text)
    yaml.indent(
        mapping=indent or 2,
        sequence=(indent or 2) + (block_seq_indent or 0),
        offset=block_seq_indent or 0,
    )
    data = yaml.load(text)
    if data is None:
        data = CommentedMap()
    if not isinstance(data, dict):
        raise ValueError("the YAML document is not a mapping")  # noqa: TRY004  reported as a config error
    return data, yaml


def dump(data: Any, yaml: Any) -> str:
    out = io.StringIO()
    yaml.dump(data, out)
    return out.getvalue()


def mapping() -> Any:
    from ruamel.yaml.comments import CommentedMap

    return CommentedMap()
