#!/usr/bin/env bash
# Idempotent setup for a fresh Debian machine (or any machine with PostgreSQL):
#  - as root: the Debian packages madnb needs (PL/Python, PGXS headers);
#  - .venv in the project root with madnb installed in editable mode.
# --test (make test): also what only the tests need, as root: Chromium (a test opens the HTML report in it).
set -euo pipefail
TEST=0
[ "${1:-}" = "--test" ] && TEST=1
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}

pg_major() {
    local d
    for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
        basename "$(dirname "$d")"; return
    done
    echo ""
}

MAJOR=$(pg_major)
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    [ -n "$MAJOR" ] || MAJOR=15
    want=()
    for pkg in "postgresql-$MAJOR" "postgresql-plpython3-$MAJOR" "postgresql-server-dev-$MAJOR"; do
        dpkg -s "$pkg" >/dev/null 2>&1 || want+=("$pkg")
    done
    if [ ${#want[@]} -gt 0 ]; then
        echo "setup: installing ${want[*]}"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${want[@]}" >/dev/null
    fi
    if [ "$TEST" = 1 ] && ! dpkg -s chromium >/dev/null 2>&1; then
        echo "setup: installing chromium (the tests open the HTML report in it)"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null
    fi
elif [ -n "$MAJOR" ] && [ ! -e "/usr/lib/postgresql/$MAJOR/lib/plpython3.so" ]; then
    echo "setup: PL/Python is missing: install postgresql-plpython3-$MAJOR (as root) and run again" >&2
    exit 1
fi

if [ ! -x .venv/bin/python ]; then
    echo "setup: creating .venv"
    "$PYTHON" -m venv .venv
fi
stamp=.venv/.madnb-installed
want_hash=$(cat pyproject.toml | sha256sum | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want_hash" ]; then
    echo "setup: installing madnb (editable) with test and bench extras into .venv"
    .venv/bin/python -m pip install -q --upgrade pip >/dev/null
    .venv/bin/python -m pip install -q -e '.[test,bench]'
    echo "$want_hash" > "$stamp"
fi
# make demo / make test run this first: say how long it took, apart from what follows
echo "setup: done in ${SECONDS} s"
