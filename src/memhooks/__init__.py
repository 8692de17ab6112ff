"""memhooks: directory-scoped memory recall routing for AI coding agents."""

__version__ = "0.1.0"
