#!/usr/bin/env bash
# Create the separate virtual environment holding the peer library `apologies`,
# used only by benchmarks/peer_apologies.py (never a dependency of pardon).
#
# Usage: bash benchmarks/setup_peer_env.sh
#   PEER_VENV  venv location (default: .peer-venv in the repo root); a relative
#              path is resolved against the repo root, whatever the cwd.
set -euo pipefail

APOLOGIES_VERSION="0.4.2"
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PEER_VENV="${PEER_VENV:-.peer-venv}"
case "$PEER_VENV" in
    /*) ;;
    *) PEER_VENV="$REPO_ROOT/$PEER_VENV" ;;
esac

if [ -x "$PEER_VENV/bin/python" ] && "$PEER_VENV/bin/python" -c "import apologies" 2>/dev/null; then
    echo "peer venv ready: $PEER_VENV" >&2
    exit 0
fi

if command -v python3.11 >/dev/null 2>&1; then
    PYTHON=python3.11
else
    PYTHON=python3
fi

"$PYTHON" -m venv "$PEER_VENV"
"$PEER_VENV/bin/python" -m pip install --quiet --upgrade pip
"$PEER_VENV/bin/python" -m pip install --quiet "apologies==$APOLOGIES_VERSION"
"$PEER_VENV/bin/python" -c "import apologies" >/dev/null
echo "peer venv ready: $PEER_VENV" >&2
