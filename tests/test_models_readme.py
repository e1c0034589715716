"""The README's "Models from ordinary columns" block runs in psql and shows what it says (issue 12)."""

from __future__ import annotations

import re
import subprocess

import madnb
from conftest import ROOT, data_file
from test_python_api import psql, same_output, split_session


def readme_models_block() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Models from ordinary columns", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sql\n(.*?)```", section, re.DOTALL)
    assert len(blocks) == 1
    return blocks[0]


def test_the_readme_models_block_runs_in_psql_and_shows_what_it_says(empty_db, tmp_path):
    data_file("adult_train.csv")
    url, _ = empty_db
    madnb.install(url)
    chunks = split_session(readme_models_block())
    assert sum(1 for _, q in chunks if q) >= 2
    path = tmp_path / "models.sql"
    path.write_text("".join(f"\\echo @@{n}@@\n{stmt}\n" for n, (stmt, _) in enumerate(chunks)), encoding="utf-8")
    # the README runs in psql from the repository's folder (its \copy paths are relative to it)
    res = subprocess.run([psql(), "-X", "-v", "ON_ERROR_STOP=1", "-d", url, "-f", str(path)],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert res.returncode == 0, res.stderr
    outputs = re.split(r"^@@(\d+)@@\n", res.stdout, flags=re.MULTILINE)[1:]
    shown = {int(outputs[k]): outputs[k + 1].rstrip("\n").split("\n") for k in range(0, len(outputs), 2)}
    for n, (stmt, quoted) in enumerate(chunks):
        if quoted:
            got = [line.rstrip() for line in shown[n] if line.strip()]
            want = [line.rstrip() for line in quoted]
            assert same_output(got, want), (
                f"{stmt}\npsql shows:\n" + "\n".join(got) + "\nREADME says:\n" + "\n".join(want))
