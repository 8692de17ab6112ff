"""Load a hook's frontmatter for editing and write it back changing only what was edited.

A maintenance write must preserve what people wrote (issue 3): comments, key order,
quoting, indentation, the Markdown body byte for byte, the line-ending style and a BOM.
ruamel's round-trip dumper keeps comments, order and quoting, and :func:`indentation`
gives it the file's own mapping/sequence indentation. For everything the dumper still
normalises (``key:   value`` spacing, ``~``, ``True``, ``[ a ]``, a plain scalar folded over
two lines, mixed indentation styles, whitespace-only lines) :func:`render` does a
three-way merge (:func:`.textmerge.merge`): it dumps the *unedited* tree too, diffs that against the *edited* dump,
and applies only those differences to the original text. Lines the edit did not touch
therefore stay byte-identical. A hunk that touches a line the dumper would normalise
takes the dumper's form of those lines. The merged text must read back to exactly the
edited dump, otherwise the plain edited dump is used; either way the result is re-split
and re-read before it is returned.

Known limits (semantics and comments are kept; bytes can differ):

* lines inside or right next to an edited region that ruamel normalises are written in
  ruamel's form (e.g. ``tags: [ a ]`` becomes ``tags: [a, b]`` when ``b`` is added);
* a frontmatter mixing line endings gets the file's first line ending throughout when it
  is edited (an unedited file is returned unchanged);
* new nodes use the first block indentation found in the file (``recall_queries``
  first), so a file mixing styles gets that style for what is added.
"""

from __future__ import annotations

import io
from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from ..errors import DiagnosticError, fail
from ..protocol import HOOK_NAME, yamlcore, yamlio
from ..protocol.frontmatter import Document, split
from .textmerge import merge

#: (mapping, sequence, offset) used when the file shows no block nesting: the style of
#: the file reference (``recall_queries:`` / ``  - query: ...``).
DEFAULT_INDENT = (2, 4, 2)

#: What ``memhooks init`` says to whoever edits the root hook: YAML comments, which no
#: agent is sent (issue 22 item 5: the Markdown body it used to write went to the model as
#: guidance with every prompt, ~330 characters about editing hooks, nothing about the
#: project).
INIT_COMMENT = (
    "# Recall cues for {project}: questions memhooks asks memory before an agent works\n"
    '# here and below. Add them with `memhooks note --query "..."` (or under\n'
    "# recall_queries:), each short and concrete. Text after the closing --- is sent to\n"
    "# the agent as guidance with its recalls: keep it to what every change here must\n"
    "# know, or leave it out.\n"
)


def load_hook(text: str, path: str) -> tuple[Document, CommentedMap]:
    """Split hook ``text`` and load its frontmatter as an editable round-trip mapping.

    Raises DiagnosticError MH000 when the text has no frontmatter, the YAML is invalid
    or its top level is not a mapping. Schema rules are not checked here: validate first.
    """
    document = split(text, path)
    return document, load_tree(document, path)


def load_tree(document: Document, path: str) -> CommentedMap:
    """The frontmatter of ``document`` as a CommentedMap (see :func:`load_hook`)."""
    tree = yamlio.load(document.yaml, path, document.yaml_line)
    if not isinstance(tree, CommentedMap):
        raise fail(
            "MH000", "YAML frontmatter must be a mapping of fields", path, document.yaml_line, 1
        )
    return tree


class Snapshot:
    """What :func:`render` needs of the frontmatter as it was before an edit: its
    ``indent`` (see :func:`indentation`) and ``baseline`` (its dump at that indent).
    Taken before the tree is edited, it spares parsing the original text again."""

    __slots__ = ("baseline", "indent")

    def __init__(self, document: Document, unedited: Any) -> None:
        self.indent = indentation(document.yaml, unedited)
        self.baseline = dump(unedited, self.indent)


def render(
    document: Document,
    tree: CommentedMap,
    path: str = HOOK_NAME,
    before: Snapshot | None = None,
) -> str:
    """The full file text of ``document`` with its frontmatter replaced by ``tree``.

    Returns ``document.text`` itself when ``tree`` dumps like the original frontmatter.
    BOM, opening/closing fence lines, line-ending style and body are kept verbatim.
    ``before``: the :class:`Snapshot` of the unedited tree (else the original text is
    parsed again for it). Raises DiagnosticError MH000 (with ``path``) if the edit cannot
    be written back so that it reads as the same data, e.g. a value that would end the
    frontmatter early.
    """
    return render_read_back(document, tree, path, before)[0]


def render_read_back(
    document: Document,
    tree: CommentedMap,
    path: str = HOOK_NAME,
    before: Snapshot | None = None,
) -> tuple[str, Any]:
    """:func:`render`, plus the frontmatter tree read back from the rendered text (the
    check that it reads as ``tree``), or None when the text is ``document.text``."""
    original = document.yaml
    if before is None:
        before = Snapshot(document, yamlio.load(original, path, document.yaml_line))
    indent, baseline = before.indent, before.baseline
    edited = dump(tree, indent)
    if edited == baseline:
        return document.text, None
    expected = _fingerprint(tree)
    candidates = (
        merge(original, baseline, edited, touching=False),
        merge(original, baseline, edited, touching=True),
        edited,
    )
    for candidate in candidates:
        if candidate is not None:
            again = _read_back(document, candidate, edited, expected, indent)
            if again is not None:
                return document.with_yaml(candidate), again
    raise fail(
        "MH000", "the edited frontmatter would not read back as written; nothing was changed", path
    )


def dump(tree: Any, indent: tuple[int, int, int] = DEFAULT_INDENT) -> str:
    """ruamel's round-trip dump of ``tree`` (LF endings) with the given indentation."""
    yaml = yamlio.new_yaml()
    mapping, sequence, offset = indent
    yaml.indent(mapping=mapping, sequence=sequence, offset=offset)
    out = io.StringIO()
    yaml.dump(tree, out)
    return out.getvalue()


def indentation(yaml_lf: str, tree: Any) -> tuple[int, int, int]:
    """The (mapping, sequence, offset) indentation the frontmatter ``yaml_lf`` uses.

    ``offset`` is the dash's column and ``sequence`` the item content's column, both
    relative to the parent key; ``mapping`` is a nested mapping's indent. The first block
    sequence under ``recall_queries`` wins, then the first one anywhere; missing parts
    come from :data:`DEFAULT_INDENT`.
    """
    lines = yaml_lf.split("\n")
    found: dict[str, int] = {}
    if isinstance(tree, CommentedMap) and "recall_queries" in tree:
        _sequence_indent(lines, tree, "recall_queries", found)
    _walk(lines, tree, found)
    mapping, sequence, offset = DEFAULT_INDENT
    return (
        found.get("mapping", mapping),
        found.get("sequence", sequence),
        found.get("offset", offset),
    )


def _walk(lines: list[str], node: Any, found: dict[str, int]) -> None:
    if len(found) == 3 or not isinstance(node, (CommentedMap, CommentedSeq)):
        return
    keys = list(node) if isinstance(node, CommentedMap) else range(len(node))
    for key in keys:
        child = node[key]
        if isinstance(node, CommentedMap) and not node.fa.flow_style():
            if isinstance(child, CommentedSeq):
                _sequence_indent(lines, node, key, found)
            elif (
                isinstance(child, CommentedMap)
                and child
                and not child.fa.flow_style()
                and "mapping" not in found
            ):
                parent_col = node.lc.key(key)[1]
                child_col = child.lc.key(next(iter(child)))[1]
                if child_col > parent_col:
                    found["mapping"] = child_col - parent_col
        _walk(lines, child, found)


def _sequence_indent(
    lines: list[str], parent: CommentedMap, key: Any, found: dict[str, int]
) -> None:
    seq = parent[key]
    if "sequence" in found or not isinstance(seq, CommentedSeq) or not seq or seq.fa.flow_style():
        return
    key_col = parent.lc.key(key)[1]
    line, content_col = seq.lc.item(0)
    before = lines[line][:content_col].rstrip(" ")
    if not before.endswith("-"):
        return  # e.g. `- - a` nested dashes; leave it to a later sequence
    dash_col = len(before) - 1
    if dash_col >= key_col and content_col - dash_col >= 2:
        found["offset"] = dash_col - key_col
        found["sequence"] = content_col - key_col


def _read_back(
    document: Document, candidate: str, edited: str, expected: Any, indent: tuple[int, int, int]
) -> Any:
    """The tree ``candidate`` loads to when it survives the file split unchanged and
    loads to data equal to ``expected`` whose dump is ``edited`` (so comments match as
    well); else None."""
    try:
        again = split(document.with_yaml(candidate), "<rendered>")
        if again.yaml != candidate:
            return None
        tree = yamlio.load(candidate, "<rendered>", again.yaml_line)
    except DiagnosticError:
        return None
    if _fingerprint(tree) == expected and dump(tree, indent) == edited:
        return tree
    return None


def _fingerprint(tree: Any) -> str:
    """The data of a tree as comparable text (``repr`` keeps int/bool/float apart and
    makes NaN equal to itself)."""
    try:
        return repr(yamlcore.to_plain(tree))
    except yamlcore.NotJson:
        return repr(tree)


def new_hook_text(project: str | None = None) -> str:
    """A brand-new hook (LF, no BOM): ``schema: memhooks/v2`` and ``inherits: true``.

    With ``project`` (the root directory's name) it is the root hook ``memhooks init``
    writes, whose comments say how to add cues (:data:`INIT_COMMENT`: nothing the agent is
    sent); without it, the local hook ``memhooks event`` creates. Neither has a body.
    """
    keys = "schema: memhooks/v2\ninherits: true\n---\n"
    if project is None:
        return "---\n" + keys
    return "---\n" + INIT_COMMENT.format(project=project.replace("\n", " ")) + keys
