"""Every agent host memhooks can install into. Adding one: a module and a line here."""

from __future__ import annotations

from . import (
    claude_code,
    cline,
    codex,
    copilot_cli,
    copilot_vscode,
    cursor,
    gemini_cli,
    hermes,
    kiro,
    opencode,
    windsurf,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .base import Installer

INSTALLERS: dict[str, Installer] = {
    "claude-code": claude_code,
    "codex": codex,
    "gemini-cli": gemini_cli,
    "copilot-cli": copilot_cli,
    "copilot-vscode": copilot_vscode,
    "cursor": cursor,
    "windsurf": windsurf,
    "kiro": kiro,
    "opencode": opencode,
    "cline": cline,
    "hermes": hermes,
}
