"""The memhooks/v2 protocol core: parse, validate, merge, resolve, plan, budget (its
modules), and the two facts every one of them and the root search share, here so that
finding the root (:mod:`.root`, on every hook call that looks for it) loads no parser."""

#: The hook file's name in every folder (seed 000).
HOOK_NAME = "MEMHOOKS.md"
#: MH029's message: what a hook or lock path must be (``shared/spec/reference-engine.md``
#: (c) step 6).
UNSAFE = "hook and lock paths must be regular files, not symlinks or special files"
