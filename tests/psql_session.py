"""psql sessions as the docs quote them: the psql binary, a session split into statements and quoted output, compared.

Used by the tests that run the README's and the docs' SQL in psql
(tests/install/test_python_api.py, tests/docs/, tests/models/test_new_user_edges.py).
"""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import pytest

from madnb._cluster import find_bindir


def psql() -> str:
    exe = shutil.which("psql") or str(find_bindir() / "psql")
    if not Path(exe).exists():
        pytest.skip("psql is not available")
    return exe


def split_session(sql_text: str) -> list[tuple[str, list[str]]]:
    """(statement, quoted output lines) for every statement of the session.

    Quoted output is the run of comment lines right after a statement that look
    like psql's output (a table or ``(n rows)``), without their ``-- `` prefix.
    """
    chunks: list[tuple[str, list[str]]] = []
    stmt: list[str] = []
    lines = sql_text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        stmt.append(line)
        i += 1
        if line.split("--", 1)[0].rstrip().endswith(";"):
            quoted: list[str] = []
            while i < len(lines) and lines[i].startswith("--") and (quoted or lines[i].startswith("--  ")):
                quoted.append(lines[i][3:] if lines[i].startswith("-- ") else lines[i][2:])
                i += 1
            chunks.append(("\n".join(stmt), quoted))
            stmt = []
    assert not "".join(stmt).strip(), f"unterminated statement in the README: {stmt}"
    return chunks


def same_output(shown: list[str], quoted: list[str]) -> bool:
    """psql's output as quoted: headers and text exactly, floats to 1e-12 (and so column widths loosely)."""
    if shown == quoted:
        return True
    if len(shown) != len(quoted):
        return False
    for a, b in zip(shown, quoted):
        if set(a) <= set("-+") and set(b) <= set("-+"):  # the rule under the header: widths follow the values
            if a.count("+") != b.count("+"):
                return False
            continue
        ca, cb = a.split("|"), b.split("|")
        if len(ca) != len(cb):
            return False
        for x, y in zip(ca, cb):
            if x.strip() == y.strip():
                continue
            try:
                if not math.isclose(float(x), float(y), rel_tol=1e-12, abs_tol=1e-15):
                    return False
            except ValueError:
                return False
    return True
