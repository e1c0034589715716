"""Helpers shared by the differential-privacy tests."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import psycopg


def use_seeded_noise(conn: psycopg.Connection[Any], seed: int) -> None:
    """Make this session's noise come from a seeded generator (PL/Python only: no SQL path exists)."""
    conn.execute("SELECT madnb._load_python()")
    conn.execute(
        "DO $$\nimport sys\n"
        f"sys.modules['madnb_pl.privacy.noise'].use_test_source(sys.modules['madnb_pl.privacy.noise'].seeded_source({int(seed)}))\n"
        "$$ LANGUAGE plpython3u"
    )


def use_secure_noise(conn: psycopg.Connection[Any]) -> None:
    conn.execute("SELECT madnb._load_python()")


@dataclass(frozen=True)
class Message:
    """A copy of a NOTICE or WARNING (psycopg's Diagnostic is only valid inside the handler)."""

    severity_nonlocalized: str | None
    message_primary: str | None
    message_detail: str | None
    message_hint: str | None


def notices(conn: psycopg.Connection[Any]) -> list[Message]:
    """A list that collects every NOTICE / WARNING the connection receives from now on."""
    seen: list[Message] = []
    conn.add_notice_handler(
        lambda d: seen.append(Message(d.severity_nonlocalized, d.message_primary, d.message_detail, d.message_hint))
    )
    return seen


def pl_calls(conn: psycopg.Connection[Any], funcname: str) -> int:
    """Calls of a PL function so far (the test cluster runs with track_functions = 'pl')."""
    conn.execute("SELECT pg_stat_force_next_flush()")
    conn.execute("SELECT pg_stat_clear_snapshot()")
    return int(
        conn.execute(
            "SELECT COALESCE(sum(calls), 0) FROM pg_stat_user_functions WHERE schemaname = 'madnb' AND funcname = %s",
            (funcname,),
        ).fetchone()[0]
    )


NOISE_FUNCTIONS = ("dp_laplace", "_dp_laplace_array")
"""madnb's PL functions that draw noise: the primitive, and the release's draw of many numbers at once."""


def noise_calls(conn: psycopg.Connection[Any]) -> int:
    """Calls so far of every function that draws noise (:data:`NOISE_FUNCTIONS`)."""
    return sum(pl_calls(conn, f) for f in NOISE_FUNCTIONS)


def ledger(conn: psycopg.Connection[Any]) -> list[tuple[Any, ...]]:
    return conn.execute(
        "SELECT source_name, epsilon, mechanism, parameters FROM madnb.privacy_ledger ORDER BY release_id"
    ).fetchall()


def keep_probability(count: int, epsilon: float, tau: int) -> float:
    """P(count + X >= tau) for X discrete Laplace with a = exp(-epsilon), from the pmf."""
    a = math.exp(-epsilon)
    k = tau - count
    if k <= 0:
        return 1 - a ** (1 - k) / (1 + a)  # 1 - P(X <= k - 1) = 1 - P(X >= 1 - k)
    return a**k / (1 + a)
