"""The throwaway-cluster commands: ``madnb sandbox`` and ``madnb demo`` (issue 17, points C11 and C12)."""

from __future__ import annotations

import math
import random
import re
import shlex
import signal
import subprocess
import sys
from collections import Counter

import psycopg
import pytest

import madnb
from madnb.demo import SPLIT_SEED, house_votes_rows


def start_sandbox() -> tuple[subprocess.Popen[str], list[str]]:
    """``madnb sandbox`` running, and what it printed up to its "stop with" line."""
    # SIGINT at its default in the child: a suite started in the background (nohup, a CI runner) ignores it, the
    # child would inherit that, Python would then never raise KeyboardInterrupt, and the Ctrl-C case would hang
    p = subprocess.Popen([sys.executable, "-m", "madnb.cli", "sandbox"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert p.stdout is not None
    printed = []
    for line in p.stdout:
        printed.append(line.rstrip("\n"))
        if line.startswith("stop with"):
            break
    else:
        p.wait(timeout=60)
        pytest.fail(f"madnb sandbox ended early: {printed}\n{p.stderr.read() if p.stderr else ''}")
    return p, printed


def psql_command_of(printed: list[str]) -> list[str]:
    return shlex.split(printed[printed.index("connect with:") + 1])


def stopped(p: subprocess.Popen[str]) -> str:
    """What the sandbox printed after its "stop with" line, once it has ended (with exit status 0)."""
    assert p.stdout is not None and p.stderr is not None
    out, err = p.stdout.read(), p.stderr.read()
    assert p.wait(timeout=120) == 0, err
    return out


@pytest.mark.parametrize("how", ["end of input", "Ctrl-C"])
def test_madnb_sandbox_prints_a_psql_command_to_a_database_with_madnb_and_removes_it_when_stopped(how):
    p, printed = start_sandbox()
    try:
        command = psql_command_of(printed)
        assert command[0].endswith("psql")
        shown = subprocess.run([*command, "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", "SELECT madnb.version()"],
                               capture_output=True, text=True, timeout=60)
        assert shown.returncode == 0, shown.stderr
        assert shown.stdout.strip() == madnb.__version__
        url = command[-1]
        with psycopg.connect(url) as conn:
            assert conn.execute("SELECT pg_catalog.current_database()").fetchone() == ("sandbox",)
        if how == "end of input":
            assert p.stdin is not None
            p.stdin.close()
        else:
            p.send_signal(signal.SIGINT)
        assert "sandbox stopped and removed" in stopped(p)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
        for f in (p.stdin, p.stdout, p.stderr):
            if f is not None:
                f.close()
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(url, connect_timeout=5)


# ---- madnb demo ----------------------------------------------------------------------


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "madnb.cli", *args], capture_output=True, text=True, timeout=300)


def expected_predictions() -> list[tuple[str, str]]:
    """(party, predicted party) of each test row of the demo's split, from the maths of naive Bayes.

    Categorical attributes with Laplace smoothing s = 1 over the values seen for
    the attribute in training; P(v | c) = (n_cv + 1) / (n_c,present + values seen),
    n_c,present being class c's rows that have the attribute; a missing value adds
    nothing; priors n_c / n.
    """
    rows = house_votes_rows()
    test_ids = set(random.Random(SPLIT_SEED).sample([r[0] for r in rows], k=round(len(rows) * 0.1)))
    train = [r for r in rows if r[0] not in test_ids]
    classes = sorted({party for _, party, _ in train})
    n_c = Counter(party for _, party, _ in train)
    seen = [{votes[i] for _, _, votes in train if votes[i] is not None} for i in range(16)]
    n_cv = Counter((party, i, v) for _, party, votes in train for i, v in enumerate(votes) if v is not None)
    present = Counter((party, i) for _, party, votes in train for i, v in enumerate(votes) if v is not None)
    out = []
    for _, party, votes in (r for r in rows if r[0] in test_ids):
        def score(c: str, votes: list[str | None] = votes) -> float:
            return math.log(n_c[c] / len(train)) + sum(
                math.log((n_cv[c, i, v] + 1) / (present[c, i] + len(seen[i])))
                for i, v in enumerate(votes) if v is not None and v in seen[i])
        out.append((party, max(classes, key=score)))
    return out


def printed_times(stdout: str) -> tuple[float, float, float, float, float]:
    m = re.search(r"^time: setup (\d+\.\d) s \+ demo (\d+\.\d) s \+ cleanup (\d+\.\d) s \+ starting Python (\d+\.\d) s "
                  r"\(make demo runs make setup first, which prints its own time\)\ndemo finished in (\d+\.\d) s$",
                  stdout, re.MULTILINE)
    assert m, stdout
    setup, demo, cleanup, python, total = map(float, m.groups())
    assert re.search(rf"^demo: {demo} s ", stdout, re.MULTILINE)
    assert total == pytest.approx(setup + demo + cleanup + python, abs=0.25)  # the parts add up (rounding)
    return setup, demo, cleanup, python, total


def test_the_demo_reports_setup_demo_and_cleanup_apart_and_shows_the_quick_starts_face_with_the_maths_numbers(empty_db):
    url, conn = empty_db
    want = expected_predictions()
    accuracy = sum(p == q for p, q in want) / len(want)
    for _ in range(2):  # a second run replaces the demo's own model
        out = run_cli("demo", "--dsn", url)
        assert out.returncode == 0, out.stderr
        assert re.search(r"^setup: \d+\.\d s \(madnb installed\)$", out.stdout, re.MULTILINE)
        printed_times(out.stdout)
        # the Quick start's face: train from columns, predict in a query, evaluate
        assert "SELECT madnb.train('madnb_demo_votes', 'madnb_demo.votes_train', 'party', exclude => ARRAY['id']);" in out.stdout
        assert "madnb_models.madnb_demo_votes_predict(t) AS predicted, count(*)" in out.stdout
        assert "SELECT madnb.evaluate('madnb_demo_votes', 'madnb_demo.votes_test');" in out.stdout
        for (party, predicted), count in sorted(Counter(want).items()):
            assert re.search(rf"^    {party} +{predicted} +{count}$", out.stdout, re.MULTILINE), (party, predicted, count)
        assert f"    accuracy {accuracy:.4f}, " in out.stdout
        assert f"accuracy on the test split: {sum(p == q for p, q in want)}/{len(want)} = {accuracy:.4f}" in out.stdout
    rows = conn.execute(
        "SELECT t.party, madnb_models.madnb_demo_votes_predict(t), p.nb_classification FROM madnb_demo.votes_test AS t "
        "JOIN madnb_demo.hv_predictions AS p ON p.key = t.id"
    ).fetchall()
    assert Counter((party, named) for party, named, _ in rows) == Counter(want)
    assert all(madlib == [named] for _, named, madlib in rows)  # both faces, one model
    assert conn.execute("SELECT count(*) FROM madnb.models WHERE name = 'madnb_demo_votes'").fetchone() == (1,)


def test_the_demo_refuses_a_named_model_of_its_name_that_it_did_not_train(empty_db):
    url, conn = empty_db
    madnb.install(url)
    conn.execute("CREATE TABLE mine (party text, v1 text)")
    conn.execute("INSERT INTO mine VALUES ('a', 'y'), ('b', 'n')")
    conn.execute("SELECT madnb.train('madnb_demo_votes', 'mine', 'party')")
    out = run_cli("demo", "--dsn", url)
    assert out.returncode == 1
    assert "madnb_demo_votes" in out.stderr and "not trained by madnb demo" in out.stderr
    assert conn.execute("SELECT source FROM madnb.models WHERE name = 'madnb_demo_votes'").fetchone() == ("public.mine",)
    assert conn.execute("SELECT pg_catalog.to_regnamespace('madnb_demo') IS NULL").fetchone() == (True,)


def test_the_demo_on_a_throwaway_cluster_times_the_clusters_start_and_madnbs_install_as_setup():
    out = run_cli("demo")
    assert out.returncode == 0, out.stderr
    m = re.search(r"^setup: (\d+\.\d) s \(throwaway cluster started in (\d+\.\d) s, madnb installed in (\d+\.\d) s\)$",
                  out.stdout, re.MULTILINE)
    assert m, out.stdout
    assert float(m.group(1)) == pytest.approx(float(m.group(2)) + float(m.group(3)), abs=0.15)
    cleanup = re.search(r"^throwaway cluster stopped and removed in (\d+\.\d) s$", out.stdout, re.MULTILINE)
    assert cleanup
    setup, _, printed_cleanup, _, _ = printed_times(out.stdout)
    assert (setup, printed_cleanup) == (float(m.group(1)), float(cleanup.group(1)))
    assert "madnb.evaluate('madnb_demo_votes'" in out.stdout
