"""``memhooks mcp``: memhooks as Model Context Protocol tools, for hosts without usable
hooks (or users who prefer tools).

:mod:`.tools` holds the tools as plain functions (no SDK needed); :mod:`.server`
registers them with the official ``mcp`` SDK (the optional ``mcp`` extra) and serves
them over stdio. Nothing here is imported by the agent hook.
"""
