"""The diagnostic catalogue: every ``MHnnn`` code with its severity, title and help.

Codes and titles are the reference engine's catalogue (``shared/spec/reference-engine.md``
section (j)); MH023 is unused there and here. MH031 (a maintenance write or lock failed)
is ours: the reference reports those as plain ``error:`` text without a code. MH032
(``memhooks history import`` cannot read the git history), MH033 (an invisible or
control character in a recall query or an exclusion) MH034 (a plain chat transcript
``memhooks transcripts import --chat`` cannot read) MH035 (lines ``memhooks why`` was
asked about that the file does not have), MH036 (a hook over the size limit, which the
reference reports as MH000 with invalid files), MH037 (a memory store or state file a
command cannot open or write), MH038 (a ``MEMHOOKS_*`` variable that is no setting),
MH044 (a command line a command does not take: the reference prints clap's usage
errors without a code), MH045 (a line ``memhooks memories import`` cannot take) and
MH046 (an optional extra a command needs, not installed) are ours too. A new code is a
new row here (claim it on the team board first); :class:`memhooks.errors.Diagnostic`
reads it.
"""

from __future__ import annotations

ERROR = "error"
WARNING = "warning"

#: code -> (severity, SARIF rule title, what to do about it)
CATALOGUE: dict[str, tuple[str, str, str]] = {
    "MH000": (
        ERROR,
        "Invalid MemHooks file",
        "fix the file so it is UTF-8 Markdown that starts with a `---` YAML frontmatter block",
    ),
    "MH001": (
        ERROR,
        "Unsupported schema",
        "set `schema: memhooks/v2` (run `memhooks migrate` for memhooks/v1 files)",
    ),
    "MH002": (
        WARNING,
        "Unknown top-level field",
        "remove the field or move provider-native settings under `backends.<provider>`",
    ),
    "MH003": (
        ERROR,
        "Missing recall query",
        "give every recall query non-blank text, as a string or under `query:`",
    ),
    "MH004": (
        ERROR,
        "Invalid query priority",
        "use a number from 0.0 to 1.0, or leave `priority` out",
    ),
    "MH005": (
        WARNING,
        "Unknown recall-query field",
        "remove the field or move it under the query's `backends.<provider>`",
    ),
    "MH006": (ERROR, "Empty role", "remove blank entries from `when.roles`"),
    "MH007": (
        WARNING,
        "Unknown routing condition",
        "only `when.roles` is understood; other conditions are kept but ignored",
    ),
    "MH008": (
        ERROR,
        "Invalid entity",
        "give every entity a non-blank `name` (or write it as a plain string)",
    ),
    "MH009": (
        ERROR,
        "Invalid entity salience",
        "use a number from 0.0 to 1.0, or leave `salience` out",
    ),
    "MH010": (
        WARNING,
        "Duplicate query",
        "remove one copy; the later copy overrides the earlier one",
    ),
    "MH011": (WARNING, "Duplicate entity", "remove the repeated entity"),
    "MH012": (
        WARNING,
        "Recall/exclude conflict",
        "a query that is also excluded can never be recalled; remove one of them",
    ),
    "MH013": (WARNING, "No hooks found", "run `memhooks init` to enable the project"),
    "MH014": (WARNING, "Unknown entity field", "entities understand `name`, `type` and `salience`"),
    "MH015": (WARNING, "Duplicate resource", "remove the repeated resource"),
    "MH016": (
        ERROR,
        "Provider field in core",
        "move the field under `backends.<provider>` (e.g. `backends.hindsight`), or run `memhooks migrate`",
    ),
    "MH017": (
        ERROR,
        "Provider query field in core",
        "move the field under the query's `backends.<provider>`, or run `memhooks migrate`",
    ),
    "MH018": (
        ERROR,
        "Empty backend namespace",
        "name the provider, e.g. `backends: {mem0: {...}}`",
    ),
    "MH019": (
        ERROR,
        "Invalid backend namespace",
        "a provider namespace must be a mapping, e.g. `mem0: {top_k: 8}`",
    ),
    "MH020": (
        ERROR,
        "Invalid resource",
        "give every resource a non-blank `name` (or write it as a plain string)",
    ),
    "MH021": (
        ERROR,
        "Invalid resource salience",
        "use a number from 0.0 to 1.0, or leave `salience` out",
    ),
    "MH022": (
        WARNING,
        "Unknown resource field",
        "resources understand `name`, `kind` and `salience`",
    ),
    "MH024": (ERROR, "Path does not exist", "check the path (and MEMHOOKS_ROOT, if set)"),
    "MH025": (
        ERROR,
        "Malformed recall query",
        "see the file reference for the shape of a recall query",
    ),
    "MH026": (
        ERROR,
        "Malformed entity",
        "an entity is a string or a mapping with string `name`/`type` and numeric `salience`",
    ),
    "MH027": (
        ERROR,
        "Malformed resource",
        "a resource is a string or a mapping with string `name`/`kind` and numeric `salience`",
    ),
    "MH028": (ERROR, "Invalid configuration", "fix the setting named in the message"),
    "MH029": (
        ERROR,
        "Unsafe filesystem path",
        "replace the symlink or special file with a regular file",
    ),
    "MH030": (ERROR, "Hook discovery failed", "check that the project tree is readable"),
    "MH031": (
        ERROR,
        "Hook write failed",
        "check that the hook's directory is writable and the disk has space, then run the command again",
    ),
    "MH032": (
        ERROR,
        "Git history unavailable",
        "run it in a git work tree with commits, with git installed and on PATH",
    ),
    "MH033": (
        ERROR,
        "Hidden character in a query",
        "delete the character: a reader does not see it, the model and the search do",
    ),
    "MH034": (
        ERROR,
        "Invalid chat transcript",
        (
            "write one JSON object a line with `role` (user or assistant) and `text`; `time`, "
            "`files` and `session` are optional (docs/transcripts.md)"
        ),
    ),
    "MH035": (
        ERROR,
        "No such lines",
        "give LINE or FIRST-LAST within the file's lines, counted from 1, or no lines for the whole file",
    ),
    "MH036": (
        ERROR,
        "Hook file too large",
        "keep hooks small: they hold retrieval cues, not memories",
    ),
    "MH037": (
        ERROR,
        "Store file unusable",
        "point the setting the message names at a usable file, or move the file away",
    ),
    "MH038": (
        WARNING,
        "Unknown setting",
        "check the name against the settings table (docs, `memhooks.settings`), or unset it",
    ),
    "MH039": (
        ERROR,
        "Memory backend unavailable",
        "check the backend's server and settings: `memhooks backends check`",
    ),
    "MH040": (
        ERROR,
        "Invalid hook command line",
        "reinstall the hooks with `memhooks agents install`, or fix the command in the host's config",
    ),
    "MH041": (
        ERROR,
        "Unreadable hook payload",
        (
            "the host must send its hook event as one UTF-8 JSON object on stdin; pass"
            " --agent NAME for a host memhooks does not recognise"
        ),
    ),
    "MH042": (
        ERROR,
        "Hook call failed",
        "an unexpected error: report it with this line (the host went on without memhooks)",
    ),
    "MH043": (
        WARNING,
        "Hook deadline reached",
        "raise MEMHOOKS_HOOK_TIMEOUT_MS, or find what is slow (a loaded machine, a slow backend)",
    ),
    "MH044": (
        ERROR,
        "Invalid command line",
        "`memhooks COMMAND --help` says what the command takes",
    ),
    "MH045": (
        ERROR,
        "Invalid memory line",
        (
            "write one JSON object a line with a non-blank `text`; the other fields are"
            " optional, as `memhooks memories export` writes them (docs/cli.md); nothing of"
            " the file was imported"
        ),
    ),
    "MH046": (
        ERROR,
        "Optional extra missing",
        "install the extra the message names into the environment memhooks runs in, then run the command again",
    ),
}

GENERIC_TITLE = "MemHooks diagnostic"
