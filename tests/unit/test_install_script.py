"""The install script as madnb builds it, and the installer's refusal of a database that is not PostgreSQL: no server needed."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
import sqlalchemy

import madnb
from conftest import ROOT
from madnb._install import InstallError


def test_control_file_and_package_agree_on_the_version():
    control = (ROOT / "madnb.control").read_text()
    assert re.search(r"default_version = '([^']+)'", control).group(1) == madnb.__version__


def test_the_generated_script_guards_against_psql_and_names_its_version():
    script = madnb.build_script()
    lines = script.splitlines()
    assert lines[0].startswith(f"-- madnb {madnb.__version__} ")
    assert '\\echo Use "CREATE EXTENSION madnb" to load this file. \\quit' in lines


def test_the_install_script_embeds_subpackages_of_madnb_pl_under_their_dotted_names(tmp_path):
    from madnb._build import read_sources

    pkg = tmp_path / "plpython" / "madnb_pl"
    (pkg / "sub").mkdir(parents=True)
    for rel in ("__init__.py", "top.py", "sub/__init__.py", "sub/leaf.py"):
        (pkg / rel).write_text(f"# {rel}\n", encoding="utf-8")
    (tmp_path / "sql").mkdir()
    (tmp_path / "migrations").mkdir()
    src = read_sources(tmp_path)
    assert src.python == {
        "madnb_pl": "# __init__.py\n",
        "madnb_pl.top": "# top.py\n",
        "madnb_pl.sub": "# sub/__init__.py\n",
        "madnb_pl.sub.leaf": "# sub/leaf.py\n",
    }
    assert src.packages() == ["madnb_pl", "madnb_pl.sub"]


def test_install_on_an_engine_or_url_of_another_database_says_postgresql_is_needed(tmp_path):
    for target in (sqlalchemy.create_engine(f"sqlite:///{tmp_path}/x.db"), f"sqlite:///{tmp_path}/x.db",
                   "mysql://someone@localhost/db"):
        with pytest.raises(InstallError, match=r"^madnb needs PostgreSQL: .*(sqlite|mysql)"):
            madnb.install(target)
    assert not (tmp_path / "x.db").exists()


def _code_strings(path: Path) -> list[str]:
    """The string constants of a module's code (f-string parts included), docstrings left out."""

    tree = ast.parse(path.read_text())
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)
    }
    return [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings]


def test_the_client_spells_no_model_object_name_and_reads_no_catalog_table():
    # a model's object names and its catalog row are the server's (madnb_pl.models.catalog): the
    # client asks for them (madnb.models, madnb._model_numbers) rather than writing them a second time
    # (a model's objects are its identifier + a suffix: "_class_priors", f"{model}_predict(...)")
    suffix_or_catalog = re.compile(r"^_(class_priors|feature_probs|numeric_stats|predict|explain)|madnb\._models")
    spelled = {
        f"{path.name}: {text!r}"
        for path in sorted(Path(madnb.__file__).parent.glob("*.py"))
        for text in _code_strings(path)
        if suffix_or_catalog.search(text)
    }
    assert spelled == set()
