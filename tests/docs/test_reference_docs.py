"""docs/reference/ has one page per public SQL function, true to the installed signatures (issue 12, point 8).

Public functions: those of schemas madnb and madnb_privacy whose names do not
start with an underscore, as a fresh install creates them (pg_proc).  A page is
docs/reference/<schema>.<name>.md in the format of the others: its first sql
block (```sql norun: signature) lists every overload with argument names, types
and defaults and the result type, as PostgreSQL has them; then Arguments,
Returns, Errors and Example, whose sql block calls the function.  The examples
run, in a fresh database per page after the setup the page names, with every
other page's SQL: tests/docs/test_docs_examples.py.
"""

from __future__ import annotations

import re
from typing import Any

import psycopg

from docs_pages import Signature, page_signatures, pages, parse_arguments

SCHEMAS = ("madnb", "madnb_privacy")
SECTIONS = ("## Arguments", "## Returns", "## Errors", "## Example")
SIGNATURE_FENCE = "```sql norun: signature\n"


def sql_blocks(text: str) -> list[str]:
    """Every sql block, run or not (```sql, ```sql norun: <reason>)."""
    return re.findall(r"^```sql(?: norun: [^\n]+)?\n(.*?)^```", text, re.DOTALL | re.MULTILINE)


def installed_functions(db: psycopg.Connection[Any]) -> dict[str, set[Signature]]:
    rows = db.execute(
        "SELECT n.nspname || '.' || p.proname, pg_catalog.pg_get_function_arguments(p.oid), "
        "pg_catalog.pg_get_function_result(p.oid) "
        "FROM pg_catalog.pg_proc AS p JOIN pg_catalog.pg_namespace AS n ON n.oid = p.pronamespace "
        "WHERE n.nspname = ANY(%s) AND p.proname !~ '^_'",
        [list(SCHEMAS)],
    ).fetchall()
    out: dict[str, set[Signature]] = {}
    for name, args, result in rows:
        out.setdefault(name, set()).add((parse_arguments(args), result))
    return out


def test_every_public_function_has_a_reference_page_listing_each_overloads_signature(db):
    functions = installed_functions(db)
    assert "madnb.train" in functions and "madnb.create_nb_classify_view" in functions
    docs = pages()
    missing = sorted(set(functions) - set(docs))
    assert not missing, f"public functions without a page in docs/reference/: {missing}"
    for name, overloads in sorted(functions.items()):
        blocks = sql_blocks(docs[name])
        assert blocks and SIGNATURE_FENCE in docs[name], f"{name}.md has no signature block (```sql norun: signature)"
        documented = page_signatures(blocks[0], name)
        assert documented == overloads, (
            f"{name}.md: the signature block does not list the installed overloads\n"
            f"installed, not on the page: {sorted(overloads - documented)}\n"
            f"on the page, not installed: {sorted(documented - overloads)}")


def test_every_reference_page_names_an_installed_function_and_has_the_templates_sections(db):
    functions = installed_functions(db)
    for name, text in pages().items():
        assert name in functions, f"docs/reference/{name}.md names no installed function (a stale page?)"
        assert text.startswith(f"# {name}\n"), f"{name}.md must start with its title '# {name}'"
        positions = [text.find("\n" + s + "\n") for s in SECTIONS]
        assert all(p > 0 for p in positions) and positions == sorted(positions), (
            f"{name}.md needs the sections {SECTIONS} in that order")
        errors = text.split("\n## Errors\n", 1)[1].split("\n## ", 1)[0]
        assert "| SQLSTATE | when |" in errors, f"{name}.md: Errors is a table | SQLSTATE | when |"
        rows = [r for r in re.findall(r"^\|([^|]*)\|", errors, re.MULTILINE) if r.strip() not in ("SQLSTATE", "---")]
        assert rows and all(re.fullmatch(r"[0-9A-Z]{5}|—", r.strip()) for r in rows), (
            f"{name}.md: each row of Errors starts with a SQLSTATE (or — when the function raises none)")
        example = text.split("\n## Example\n", 1)[1]
        assert sql_blocks(example), f"{name}.md has no sql block under Example"
        assert name + "(" in "\n".join(sql_blocks(example)), f"{name}.md: its example does not call {name}"


