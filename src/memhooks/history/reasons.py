"""Why a commit is low-signal: the reasons :func:`memhooks.history.signal.low_signal`
gives, as kept in a history memory's metadata and in the blame cache's notes of what a
commit said (:mod:`memhooks.lines.said`). Only the names: the rule that picks one needs
``re`` and a dozen compiled patterns, and line-level recall, which reads and sets
reasons on every edit, loads it only to judge a subject it has not seen.
"""

MERGE = "merge"
BOT = "bot"
DEPENDENCY = "dependency"
VERSION = "version"
FORMATTING = "formatting"
TRIVIAL = "trivial"
#: Every reason :func:`memhooks.history.signal.low_signal` returns, in the order its
#: rules are tried.
REASONS = (MERGE, BOT, DEPENDENCY, VERSION, FORMATTING, TRIVIAL)
