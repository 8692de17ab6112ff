"""Split a ``MEMHOOKS.md`` file into its YAML frontmatter and Markdown body.

Rules (``shared/spec/reference-engine.md`` (b), tightened by issue 2):

* The file is UTF-8; a UTF-8 BOM is tolerated (the reference rejects it) and kept for
  round-trip writes. Invalid bytes are MH000 naming the byte offset.
* Line endings LF, CRLF and lone CR are all accepted; the first one found is the file's
  style, which maintenance writes keep.
* The first line must be ``---`` (surrounding spaces/tabs allowed). The frontmatter ends
  at the first later line that is ``---`` at column 1, optionally followed by spaces or
  tabs. An indented ``---`` (inside a block scalar) or one inside a value never ends it.
* A hook larger than :data:`MAX_HOOK_BYTES` is MH036 before anything is parsed.

A :class:`Document` keeps every part verbatim so that
``document.text == bom + head + yaml_raw + close + body`` reproduces the decoded file.
"""

from __future__ import annotations

from ..errors import fail

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re

#: Largest hook file accepted, in bytes (256 KiB). Real hooks are a few hundred bytes.
MAX_HOOK_BYTES = 256 * 1024

#: Compiled on first use: a hook read from the parsed-hook cache is never split, and the
#: agent hook must not load :mod:`re` for nothing.
_PATTERNS: list[re.Pattern[str]] = []


def _patterns() -> list[re.Pattern[str]]:
    if not _PATTERNS:
        import re

        _PATTERNS.extend(
            re.compile(p) for p in (r"[^\r\n]*(?:\r\n|\r|\n|$)", r"[ \t]*---[ \t]*", r"---[ \t]*")
        )
    return _PATTERNS


BOM = "\ufeff"


class Document:
    """A hook file split into verbatim parts.

    Attributes: ``bom`` (bool), ``newline`` (``"\\n"``, ``"\\r\\n"`` or ``"\\r"``),
    ``head`` (opening fence line with its line ending), ``yaml_raw`` (frontmatter lines as
    written), ``close`` (closing fence line with its ending, possibly without one at EOF),
    ``body`` (everything after, verbatim), ``yaml`` (``yaml_raw`` with LF endings, what the
    YAML parser reads) and ``yaml_line`` (1-based file line of the first YAML line).
    """

    __slots__ = ("body", "bom", "close", "head", "newline", "yaml", "yaml_line", "yaml_raw")

    def __init__(
        self, bom: bool, newline: str, head: str, yaml_raw: str, close: str, body: str
    ) -> None:
        self.bom = bom
        self.newline = newline
        self.head = head
        self.yaml_raw = yaml_raw
        self.close = close
        self.body = body
        self.yaml = to_lf(yaml_raw)
        self.yaml_line = 2

    @property
    def text(self) -> str:
        """The whole file again, BOM included."""
        return (BOM if self.bom else "") + self.head + self.yaml_raw + self.close + self.body

    def with_yaml(self, yaml_lf: str) -> str:
        """The file text with the frontmatter replaced by ``yaml_lf`` (LF endings),
        converted to this file's line-ending style; head, body and BOM stay verbatim."""
        raw = yaml_lf if self.newline == "\n" else yaml_lf.replace("\n", self.newline)
        return (BOM if self.bom else "") + self.head + raw + self.close + self.body


def to_lf(text: str) -> str:
    """Convert CRLF and lone CR line endings to LF."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def decode(data: bytes, path: str) -> str:
    """Decode hook bytes as UTF-8, keeping a leading BOM character.

    Raises DiagnosticError MH036 for files over :data:`MAX_HOOK_BYTES`, MH000 for invalid
    UTF-8 (the message names the byte offset; line/column point at the bad byte).
    """
    check_size(len(data), path)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line = before.count(b"\n") + 1
        column = len(before) - (before.rfind(b"\n") + 1) + 1
        raise fail(
            "MH000",
            f"hook is not valid UTF-8: byte 0x{data[exc.start]:02x} at byte offset {exc.start}",
            path,
            line,
            column,
            help="save the file as UTF-8",
        ) from None


def check_size(size: int, path: str) -> None:
    """Raise DiagnosticError MH036 when ``size`` bytes is over :data:`MAX_HOOK_BYTES`
    (its own code: the file is not invalid, it is too large to read as a hook)."""
    if size > MAX_HOOK_BYTES:
        raise fail(
            "MH036", f"hook is {size} bytes; the limit is {MAX_HOOK_BYTES} bytes", path, 1, 1
        )


def split(text: str, path: str) -> Document:
    """Split decoded hook text into a :class:`Document`.

    Raises DiagnosticError MH000 when the text does not start with a ``---`` line or the
    frontmatter is never closed.
    """
    bom = text.startswith(BOM)
    if bom:
        text = text[1:]
    line_re, open_re, close_re = _patterns()
    lines = line_re.findall(text)
    if lines and lines[-1] == "":
        lines.pop()
    if not lines or not open_re.fullmatch(_strip_eol(lines[0])):
        raise fail("MH000", "MEMHOOKS.md must begin with YAML frontmatter (`---`)", path, 1, 1)
    newline = _eol(lines[0]) or "\n"
    for index in range(1, len(lines)):
        if close_re.fullmatch(_strip_eol(lines[index])):
            return Document(
                bom,
                newline,
                lines[0],
                "".join(lines[1:index]),
                lines[index],
                "".join(lines[index + 1 :]),
            )
    raise fail(
        "MH000",
        "unterminated YAML frontmatter; expected closing `---`",
        path,
        len(lines),
        1,
        help="add a line `---` after the frontmatter",
    )


def _strip_eol(line: str) -> str:
    return line.rstrip("\r\n")


def _eol(line: str) -> str:
    stripped = _strip_eol(line)
    return line[len(stripped) :]
