"""The golden files' machinery: normalise what madnb sends to the server, compare with tests/golden/, regenerate.

Used by the golden tests of both faces (tests/sql_surface/test_golden_sql.py, the
tests of named models under tests/models/); tests/golden/README.md says what is
captured and how it is normalised.
"""

from __future__ import annotations

import difflib
import os
import re
from pathlib import Path
from typing import Any

import psycopg
import pytest

from helpers import statements_sent

GOLDEN = Path(__file__).resolve().parent / "golden"
REGEN = os.environ.get("MADNB_REGEN_GOLDEN") == "1"
REGEN_COMMAND = "make golden"  # regenerates every golden file (Makefile: the tests that write them)
DIFF_LINES = 60  # of each file's diff in a failure message


# Normalisation: what differs between two runs of the same call

# random suffixes madnb gives temporary (and kept statistics) tables: secrets.token_hex(4 or 6)
_RANDOM_SUFFIX = re.compile(r"\b(madnb_[a-z]+_|[a-z][a-z0-9_]*_)([0-9a-f]{12}|[0-9a-f]{8})\b")
_UUID = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b")
_TIMESTAMP = re.compile(r"\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}(?::?\d{2})?)?")
# keys of a statistics table's header (its comment) whose value is per release
_HEADER_KEYS = re.compile(r'("(?:created_at|id|release_id)": )("[^"]*"|\d+)')
# a private model table's comment names its release in the privacy ledger
_RELEASE = re.compile(r"\brelease \d+ of madnb\.privacy_ledger")


def normalise(texts: list[str]) -> list[str]:
    """Mask what varies between runs, keeping everything else (and the order) as generated."""
    seen: dict[str, int] = {}

    def suffix(m: re.Match[str]) -> str:
        n = seen.setdefault(m.group(2), len(seen) + 1)
        return f"{m.group(1)}<hex{n}>"

    out = []
    for t in texts:
        t = _RANDOM_SUFFIX.sub(suffix, t)
        t = _UUID.sub("<uuid>", t)
        t = _TIMESTAMP.sub("<timestamp>", t)
        t = _RELEASE.sub("release <release_id> of madnb.privacy_ledger", t)
        t = _HEADER_KEYS.sub(lambda m: f'{m.group(1)}"<{m.group(1)[1:-3]}>"', t)
        out.append(t)
    return out


def golden_text(call: str, statements: list[str], viewdefs: list[tuple[str, str]]) -> str:
    parts = [f"-- golden SQL of: {call}\n-- regenerate: {REGEN_COMMAND}\n"]
    for i, s in enumerate(statements, 1):
        parts.append(f"-- statement {i}\n{s.rstrip()}\n")
    for view, d in viewdefs:
        parts.append(f"-- view definition of {view} (pg_get_viewdef)\n{d.rstrip()}\n")
    return "\n".join(parts)


def check_golden(name: str, got: str) -> None:
    """Compare with tests/golden/<name>, or write it when regenerating."""
    path = GOLDEN / name
    if REGEN:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(got)
        return
    want = path.read_text() if path.exists() else ""
    if got != want:
        diff = list(difflib.unified_diff(
            want.splitlines(keepends=True), got.splitlines(keepends=True),
            fromfile=f"tests/golden/{name} (committed)", tofile=f"tests/golden/{name} (generated now)",
        ))
        if len(diff) > DIFF_LINES:
            diff = diff[:DIFF_LINES] + [f"... {len(diff) - DIFF_LINES} more diff lines (regenerate and run git diff)\n"]
        pytest.fail(
            f"tests/golden/{name} differs from what madnb generates now; if the change is intended, "
            f"regenerate with `{REGEN_COMMAND}` and commit the files (a reviewer reads their diff)\n{''.join(diff)}",
            pytrace=False,
        )


def capture(db: psycopg.Connection[Any], call: str) -> list[str]:
    return statements_sent(db, lambda: db.execute(call))
