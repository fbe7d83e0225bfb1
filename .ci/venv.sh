#!/usr/bin/env bash
# Create or reuse the local virtual environment .venv and install bluff_envs into it with the
# extras the project's commands need. Sourced by tests/run.sh, experiments/quick.sh and .ci/run.
# Re-installs only when pyproject.toml changed since the last install.
set -euo pipefail
BLUFF_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BLUFF_VENV="${BLUFF_VENV:-$BLUFF_ROOT/.venv}"
extras="${BLUFF_EXTRAS:-train,dev,ray}"
python="${PYTHON:-python3}"
if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
  echo "bluff_envs needs Python >= 3.11; set PYTHON=/path/to/python3.11" >&2
  exit 1
fi
if [ ! -x "$BLUFF_VENV/bin/python" ]; then
  echo "creating $BLUFF_VENV"
  "$python" -m venv "$BLUFF_VENV"
fi
stamp="$BLUFF_VENV/.bluff-installed"  # "<pyproject hash> <extras installed>"
hash="$(sha256sum "$BLUFF_ROOT/pyproject.toml" | cut -c1-16)"
had_hash="" had_extras=""
if [ -f "$stamp" ]; then read -r had_hash had_extras < "$stamp" || true; fi
missing=""
for extra in ${extras//,/ }; do
  case ",${had_extras:-}," in *",$extra,"*) ;; *) missing=1 ;; esac
done
if [ "${had_hash:-}" != "$hash" ] || [ -n "$missing" ]; then
  echo "installing bluff_envs[$extras] into $BLUFF_VENV (first time: a few minutes)"
  "$BLUFF_VENV/bin/python" -m pip install -q --upgrade pip
  # torch first and pinned: on these machines 2.13.0 is a CPU build on local disk, while any
  # other version would download gigabytes
  "$BLUFF_VENV/bin/python" -m pip install -q "torch==2.13.0"
  before="$("$BLUFF_VENV/bin/python" -m pip freeze --exclude-editable 2>/dev/null || true)"
  "$BLUFF_VENV/bin/python" -m pip install -q -e "$BLUFF_ROOT[$extras]"
  after="$("$BLUFF_VENV/bin/python" -m pip freeze --exclude-editable)"
  # one environment for both commands: adding extras (the test command's dev and ray) must not
  # move a package another command already runs with
  if [ "${had_hash:-}" = "$hash" ] && [ -n "$before" ]; then
    moved="$(comm -23 <(sort <<<"$before") <(sort <<<"$after") | cut -d= -f1 | sort -u)"
    if [ -n "$moved" ]; then
      echo "installing bluff_envs[$extras] changed packages the other commands run with:" $moved >&2
      exit 1
    fi
  fi
  echo "$hash $extras" > "$stamp"
fi
export PATH="$BLUFF_VENV/bin:$PATH"
