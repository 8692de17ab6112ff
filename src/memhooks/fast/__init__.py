"""Speed shims: code that bends the standard library to keep the agent hook's start
cheap. Each is listed, with what it saves, the benchmark case that shows it and the test
that holds it equal to the standard way, in this folder's ``README.md`` — the ledger.
Code that bends the standard library lives here or nowhere."""
