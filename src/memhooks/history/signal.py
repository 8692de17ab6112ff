"""Whether a commit says why its lines are the way they are: the low-signal rule.

One home for the rule (issue 20): a **low-signal** commit stays in the store and
searchable, but never fills a tool-time delivery; where it owns lines, line-level recall
shows the lines' *previous* owner too. :func:`reshapes` widens that second use to
refactors, cleanups and performance changes, whose lines keep their reason with the
commit before them (issue 20 item 3: "perf: simplify retry" hides the decision it undid).

:func:`low_signal` returns the first rule that matches, as its reason, else None:

``merge``
    more than one parent, or git's and GitHub's merge subjects (``Merge branch 'x'``,
    ``Merge pull request #12 from …``, ``Merge remote-tracking branch``, ``Merge tag``).
``bot``
    the author is a bot: a name or e-mail with GitHub's ``[bot]`` suffix for app accounts
    (``dependabot[bot]``, ``renovate[bot]``, ``pre-commit-ci[bot]``; docs.github.com,
    "About apps"), or a known bot account (:data:`BOTS`).
``dependency``
    a dependency or vendored-code update: Dependabot's ``Bump X from A to B`` / ``Bump the
    G group …`` (docs.github.com, "About Dependabot version updates"), Renovate's
    ``Update dependency X to vN`` (docs.renovatebot.com), Conventional Commits ``deps``
    scopes (``chore(deps): …``), pre-commit.ci's ``pre-commit autoupdate``, and header
    syncs from another tree (``uapi: update bpf.h``, ``Update kernel headers``: 10 % of
    the iproute2 history).
``version``
    a release or version bump: a subject made only of version numbers and release words
    (``v6.1.0``, ``version bump``, ``Bump version to 2.31.0``, ``Release v2.6.24``,
    ``Update snapshot``).
``formatting``
    a formatting or spelling change: listed in the project's ``.git-blame-ignore-revs``
    (git-blame(1) ``--ignore-revs-file``; the caller says so: ``blame_ignored``), a
    Conventional Commits ``style`` type, or a subject made of formatting words and
    fillers only (``whitespace cleanup``, ``Fix linting issues``, ``Style fix.``,
    ``spelling fixes``, ``Run black``).
``trivial``
    a one-line message (no body) that names no reason: GitHub's web-editor defaults
    (``Update README.md``, ``Create ci.yml``, ``Delete x``, ``Rename a to b``, ``Add files
    via upload``), a single word (``cleanup``, ``blah``, ``sidebar``), or a few words of
    chore or progress vocabulary only (``readme update``, ``empty commit``, ``try this``,
    ``basics working``); or one made only of a version-control tool's bookkeeping — words
    that name no change (``(Logical change 1.3)``, ``Initial revision``, ``Import
    changeset``: BitKeeper's and CVS's import defaults) or a patch imported by name
    (``Import patch tc-delay-schedluer``, ``Import patch iproute-typo.patch``): iproute2's
    "(Logical change 1.3)" added 31,144 lines to 137 files and owns thousands of them
    today, yet says nothing of any one.

Measured on the shared bundles (tests/history/data/signal.json holds real commits of
both): low-signal are 1,212 of requests' 4,877 non-merge commits (25 %) and 638 of
iproute2's 6,493 (10 %, 405 of them kernel-header syncs), and none of the 84 commits that
later iproute2 commits cite (shared/bench/iproute2/tasks.jsonl).

The input is what ``git log`` or ``git blame --porcelain`` gives: the ``subject`` (the
first line, git's ``%s``), the ``body`` (the rest of the message; ``""`` when there is
none or it is not known — blame gives only the summary), the author's ``author`` name
and ``email``, and how many ``parents`` the commit has. Pure: no I/O, no git.
"""

from __future__ import annotations

import re

from .layout import LAYOUT
from .reasons import BOT, DEPENDENCY, FORMATTING, MERGE, TRIVIAL, VERSION
from .unchanged import says_unchanged, tagged

#: Bot accounts that commit under a plain name (lower case).
BOTS = frozenset(
    {"dependabot", "renovate", "renovate-bot", "greenkeeper", "pyup-bot", "pyup.io bot",
     "snyk-bot", "pre-commit-ci", "github-actions", "allcontributors", "imgbot",
     "weblate", "transifex"}
)  # fmt: skip

_MERGE = re.compile(
    r"^merge (?:branch|branches|pull request|remote-tracking branch|tag|commit|"
    r"(?:[\w.-]+/)*[\w.-]+ into|'[^']*'|\"[^\"]*\")|^merge$|^auto merged$",
    re.IGNORECASE,
)
_DEPENDENCY = re.compile(
    r"^(?:\[pre-commit\.ci\] )?pre-commit autoupdate\b"
    r"|^bump (?:the \S+ group\b|\S+ from \S+ to \S+|https?://\S+)"
    r"|^(?:chore|build|ci|fix)\((?:deps|deps-dev|dependencies)\)!?:"
    r"|^(?:deps|dependencies)(?:\([^)]*\))?!?:"
    r"|^update dependency \S+ to \S+"
    r"|^(?:update|upgrade|bump|vendor)(?:d|s)? (?!version\b|release\b)[\w.-]+"
    r" (?:to|from [\w.-]+ to) v?\d[\w.-]*$"
    r"|^update (?:\S+ )?(?:dependency|dependencies|requirements)$"
    r"|^(?:[\w/.-]+: )?(?:update|sync|import|refresh)(?:d|s)?"
    r"(?: the)?(?: kernel| uapi| linux)? (?:headers?|header files|[\w/.-]+\.h)\b"
    r"|^(?:[\w/.-]+: )?(?:kernel |uapi )?headers? update\b",
    re.IGNORECASE,
)


def _vocabulary(words: str) -> frozenset[str]:
    return frozenset(words.split())


_VERSION_TOKEN = re.compile(r"^v{0,2}\d+(?:[.-]\d+)+(?:[.-]?(?:rc|dev|a|b|alpha|beta|post)\d*)*$")
_RELEASE_WORDS = _vocabulary(
    "release released releasing version versions bump bumped bumping prepare preparing "
    "prep for to the new tag tagged snapshot snapshots update updated number v history "
    "changelog notes final stable and add adds added with"
)
# GitHub's web editor names the file: a dot, a slash, or an upper-case name (README).
_WEB_EDITOR = re.compile(
    r"^(?i:update|create|delete|add|rename) [\w./-]*(?:\.\w+|/|[A-Z]{2,}\w*)"
    r"(?: to [\w./-]+)?$|^(?i:add files via upload)$"
)
_FORMAT_WORDS = LAYOUT | _vocabulary(
    "format formatting formatted reformat reformatted reformatting black isort ruff "
    "prettier clang-format gofmt rustfmt pep8 pep-8 flake8 pyflakes pylint lint linting "
    "linter checkpatch style styling typo typos spelling misspelling misspellings grammar "
    "pre-commit"
)
_FILLER = _vocabulary(
    "fix fixes fixed fixing cleanup cleanups clean up remove removed removing run ran apply "
    "applied with the a an some minor more code in of to and for issue issues error errors "
    "trailing coding small various corrected correct cosmetic"
)
_CHORE_WORDS = _vocabulary(
    "update updated updates fix fixes fixed cleanup cleanups minor small typo typos tweak "
    "tweaks misc wip more stuff change changes docs doc readme history changelog authors "
    "todo test tests empty commit oops whoops try this better why not again the a some it "
    "things basic basics working works work progress"
)
# A version-control tool's own words: an import or a check-in that names no change.
_BOOKKEEPING_WORDS = _vocabulary(
    "logical change changes changeset changesets import imported importing patch patches "
    "initial revision revisions commit commits checkin check-in repository repo create "
    "created snapshot sync synced"
)
_IMPORTED_PATCH = re.compile(r"^import(?:ed)? (?:patch|changeset|diff) [\w.+-]+$")
_PATCH_FILE = re.compile(r"^[\w.+-]+\.(?:diff|patch)$")
_PR_SUFFIX = re.compile(r"\s*\((?:#\d+(?:, ?#\d+)*)\)$")
_PREFIX = re.compile(r"^[\w/.+-]+: ")
_WORD = re.compile(r"[\w'+-]+(?:\.[\w'+-]+)*")
_CONVENTIONAL_STYLE = re.compile(r"^style(?:\([^)]*\))?!?:", re.IGNORECASE)
_RESHAPE = re.compile(
    r"^(?:refactor|perf|style|chore)(?:\([^)]*\))?!?:"
    r"|\b(?:refactor\w*|clean ?up\w*|simplif\w*|restructur\w*|reorganiz\w*|tidy|tidies"
    r"|de-?duplicat\w*|optimi[sz]\w*|speed up|move[sd]?|moving|renam\w*|split\w*)\b",
    re.IGNORECASE,
)
_RENAME = re.compile(r"\brenam\w*\b", re.IGNORECASE)
# a typing or lint pass over many files: requests' "Add inline types to Requests
# (#7272)" owned the guard a decision wrote (newcomer trial, rough20)
_TYPING = re.compile(
    r"\b(?:(?:inline |static )?type (?:hints?|annotations?|checking)|inline types"
    r"|typ(?:e|ing) stubs|annotat(?:e|es|ed|ing)|lint(?:s|er|ers|ing)?|mypy|pyright|ruff"
    r"|flake8|pylint)\b",
    re.IGNORECASE,
)


def low_signal(
    subject: str,
    body: str = "",
    *,
    author: str = "",
    email: str = "",
    parents: int = 1,
    blame_ignored: bool = False,
) -> str | None:
    """The reason (one of :data:`.reasons.REASONS`) a commit is low-signal, or None when it may say
    why its lines are so. See the module docstring for the rules and their sources."""
    text = _PR_SUFFIX.sub("", " ".join(subject.split()))
    lowered = text.lower()
    if parents > 1 or _MERGE.match(lowered):
        return MERGE
    if _is_bot(author, email):
        return BOT
    if _DEPENDENCY.match(lowered):
        return DEPENDENCY
    bare = _PREFIX.sub("", lowered, count=1)
    words = _WORD.findall(bare)
    if _is_version(words):
        return VERSION
    if blame_ignored or _CONVENTIONAL_STYLE.match(lowered) or _is_formatting(words):
        return FORMATTING
    if not _says_more(body) and _is_trivial(text, words):
        return TRIVIAL
    return None


def reshapes(subject: str, body: str = "") -> bool:
    """Whether a commit with this ``subject`` and message ``body`` (what follows the
    subject line) reshapes code rather than deciding what it does: a Conventional
    Commits ``refactor``/``perf``/``style``/``chore`` type, or words such as refactor,
    cleanup, simplify, optimize, move, rename, split, or a typing or lint pass (inline
    types, type hints, annotations, mypy, ruff, lint) in the subject; or a body that says
    the commit changes nothing the code does (:mod:`.unchanged`). Line-level recall
    shows the previous owner of such a commit's lines as well (issue 20 item 3); a
    low-signal commit (:func:`low_signal`) is treated so too. What the commit did to the
    lines asked may say otherwise: one that only added words to them is no reshape there
    (:mod:`memhooks.lines.delta`), unless it relabels code (:func:`relabels`)."""
    text = " ".join(subject.split())
    return bool(
        _RESHAPE.search(text) or _TYPING.search(text) or tagged(text) or says_unchanged(body)
    )


def relabels(subject: str) -> bool:
    """Whether a commit with this ``subject`` relabels code: a typing or lint pass (inline
    types, type hints, annotations, mypy, ruff, lint) or a rename — the words it adds to
    lines are annotations or new names (requests' "HTTPDigestAuth - Renamed thread local
    attribute" made ``self.nonce_count`` ``self._thread_local.nonce_count``), so adding
    words does not make it a change of what they do."""
    text = " ".join(subject.split())
    return bool(_TYPING.search(text) or _RENAME.search(text))


def _is_bot(author: str, email: str) -> bool:
    name = author.strip().lower()
    return "[bot]" in name or "[bot]" in email.lower() or name in BOTS


def _is_version(words: list[str]) -> bool:
    versions = [w for w in words if _VERSION_TOKEN.match(w)]
    rest = [w for w in words if not _VERSION_TOKEN.match(w)]
    if not rest:
        return bool(versions)
    # "version bump", "Update snapshot": release words alone say the same; a version
    # number allows one other word first (the project's name: "Iproute2 v2.6.20-070313",
    # not "Add Python 3.6").
    unknown = [w for w in rest if w not in _RELEASE_WORDS]
    if versions:
        return not unknown or unknown == words[:1]
    return not unknown and bool({"version", "release", "snapshot"} & set(rest))


def _is_formatting(words: list[str]) -> bool:
    found = False
    for word in words:
        if word in _FORMAT_WORDS:
            found = True
        elif word not in _FILLER:
            return False
    return found


def _says_more(body: str) -> bool:
    """Whether ``body`` holds a line besides trailers (``Signed-off-by:``, ``Cc:``...) and
    a tool's bookkeeping (BitKeeper's ``(Logical change 1.180)`` under an imported patch)."""
    for line in body.splitlines():
        line = line.strip()
        if line and not _TRAILER.match(line) and not _says_nothing(line.lower()):
            return True
    return False


_TRAILER = re.compile(r"^[A-Za-z][\w-]*:\s|^\(cherry picked from commit", re.IGNORECASE)


def _is_trivial(text: str, words: list[str]) -> bool:
    if _WEB_EDITOR.match(text):
        return True
    if not words:
        return True  # "." or "-": no word at all
    if len(words) == 1:
        return True
    if _says_nothing(text.lower()):
        return True
    return len(words) <= 3 and all(word in _CHORE_WORDS for word in words)


def _says_nothing(lowered: str) -> bool:
    """Whether a line of a message (lower case) holds no content word: only a
    version-control tool's bookkeeping, version numbers and patch files, or a patch
    imported by name."""
    bare = lowered.strip("() ")
    if _IMPORTED_PATCH.match(bare):
        return True
    words = _WORD.findall(bare)
    return any(w in _BOOKKEEPING_WORDS for w in words) and all(
        w in _BOOKKEEPING_WORDS
        or _VERSION_TOKEN.match(w)
        or _PATCH_FILE.match(w)
        or w.replace(".", "").isdigit()
        for w in words
    )
