#!/usr/bin/env bash
# Create the separate virtual environment holding the peer library `apologies`,
# used only by benchmarks/peer_apologies.py (never a dependency of pardon).
#
# Usage: bash benchmarks/setup_peer_env.sh
#   PEER_VENV  venv location (default: .peer-venv in the repo root); a relative
#              path is resolved against the repo root, whatever the cwd.
set -euo pipefail

# The peer's latest release, 0.4.3, needs Python 3.12 or later; where none is found, 0.4.2 (the
# release before, for Python 3.11) is installed instead, and the benchmarks report the version
# they ran against.
APOLOGIES_VERSION="0.4.3"
FALLBACK_VERSION="0.4.2"
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PEER_VENV="${PEER_VENV:-.peer-venv}"
case "$PEER_VENV" in
    /*) ;;
    *) PEER_VENV="$REPO_ROOT/$PEER_VENV" ;;
esac

PYTHON=""
for candidate in python3.13 python3.12 "$HOME"/.pyenv/versions/3.13*/bin/python3 "$HOME"/.pyenv/versions/3.12*/bin/python3; do
    if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c "import sys; assert sys.version_info >= (3, 12)" 2>/dev/null; then
        PYTHON="$candidate"
        break
    fi
done
if [ -z "$PYTHON" ]; then
    echo "no Python 3.12 or later: installing apologies $FALLBACK_VERSION, the release before $APOLOGIES_VERSION" >&2
    APOLOGIES_VERSION="$FALLBACK_VERSION"
    if command -v python3.11 >/dev/null 2>&1; then PYTHON=python3.11; else PYTHON=python3; fi
fi

installed() {
    "$PEER_VENV/bin/python" -c "from importlib.metadata import version; import apologies; print(version('apologies'))" 2>/dev/null
}

if [ -x "$PEER_VENV/bin/python" ] && [ "$(installed)" = "$APOLOGIES_VERSION" ]; then
    echo "peer venv ready: $PEER_VENV (apologies $APOLOGIES_VERSION)" >&2
    exit 0
fi

rm -rf "$PEER_VENV"  # another version, or half made
"$PYTHON" -m venv "$PEER_VENV"
"$PEER_VENV/bin/python" -m pip install --quiet --upgrade pip
"$PEER_VENV/bin/python" -m pip install --quiet "apologies==$APOLOGIES_VERSION"
"$PEER_VENV/bin/python" -c "import apologies" >/dev/null
echo "peer venv ready: $PEER_VENV (apologies $APOLOGIES_VERSION)" >&2
