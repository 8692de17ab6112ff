"""Round-trip edits of a YAML config (Hermes' ``config.yaml``): comments, key order and
the file's indentation survive; only the keys we touch change."""

from __future__ import annotations

import io

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.util import load_yaml_guess_indent

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class YamlError(ValueError):
    """Text that is not YAML, or not a mapping: ``reason``, 1-based ``line``/``column``
    when known."""

    def __init__(self, reason: str, line: int | None = None, column: int | None = None) -> None:
        self.reason = reason
        self.line = line
        self.column = column
        super().__init__(reason if line is None else f"{reason} at line {line}, column {column}")


def load(text: str | None) -> tuple[Any, Any]:
    """(document, dumper) for ``text`` (None: an empty mapping). Raises YamlError."""
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 4096  # never fold a long hook command over two lines
    if not text or not text.strip():
        yaml.indent(mapping=2, sequence=4, offset=2)
        return CommentedMap(), yaml
    _, sequence, offset = load_yaml_guess_indent(text)  # the sequences' indent and dash offset
    yaml.indent(mapping=mapping_indent(text), sequence=sequence or 2, offset=offset or 0)
    try:
        data = yaml.load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = (mark.line + 1, mark.column + 1) if mark is not None else (None, None)
        raise YamlError(str(exc.problem or exc), *where) from None
    except YAMLError as exc:
        raise YamlError(str(exc)) from None
    if data is None:
        data = CommentedMap()
    if not isinstance(data, dict):
        raise YamlError("the YAML document is not a mapping", 1, 1)
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
    return CommentedMap()
