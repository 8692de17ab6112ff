#!/usr/bin/env bash
# Install the real agent programs the e2e tests run (pinned to the versions they were
# verified with) into one folder: npm agents under $DIR/npm, Hermes in a venv $DIR/hermes,
# pipx and uv (test_tool_installs.py installs memhooks with them) in a venv $DIR/tools.
#   bash tests/e2e/install_agents.sh [DIR]     (default: $MEMHOOKS_E2E_AGENTS or /tmp/memhooks-e2e-agents)
# Needs node/npm and python3 -m venv; reaches only the npm registry and PyPI. ~2 GB.
set -euo pipefail
DIR="${1:-${MEMHOOKS_E2E_AGENTS:-/tmp/memhooks-e2e-agents}}"
mkdir -p "$DIR"
npm install -g --no-fund --no-audit --prefix "$DIR/npm" \
  @anthropic-ai/claude-code@2.1.197 @openai/codex@0.171.0 @google/gemini-cli@0.61.0 \
  @github/copilot@1.0.102 opencode-ai@1.18.33
python3 -m venv "$DIR/hermes"
"$DIR/hermes/bin/pip" install -q hermes-agent==0.19.0
python3 -m venv "$DIR/tools"
"$DIR/tools/bin/pip" install -q pipx==1.18.4 uv==0.13.9
echo "agents installed in $DIR"
