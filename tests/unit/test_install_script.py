"""The install script as madnb builds it, and the installer's refusal of a database that is not PostgreSQL: no server needed."""

from __future__ import annotations

import re

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
