"""docs/reference/ has one page per public SQL function, true to the installed signatures (issue 12, point 8).

Public functions: those of schemas madnb and madnb_privacy whose names do not
start with an underscore, as a fresh install creates them (pg_proc).  A page is
docs/reference/<schema>.<name>.md in the format of the others: its first sql
block (```sql norun: signature) lists every overload with argument names, types
and defaults and the result type, as PostgreSQL has them; then Arguments,
Returns, Errors and Example, whose sql block calls the function.  The examples
run, in a fresh database per page after the setup the page names, with every
other page's SQL: tests/test_docs_examples.py.
"""

from __future__ import annotations

import re
from typing import Any

import psycopg

from conftest import ROOT

REFERENCE = ROOT / "docs" / "reference"
SCHEMAS = ("madnb", "madnb_privacy")
SECTIONS = ("## Arguments", "## Returns", "## Errors", "## Example")
SIGNATURE_FENCE = "```sql norun: signature\n"

Signature = tuple[tuple[tuple[str, str, str | None], ...], str]


def split_top_level(text: str) -> list[str]:
    """Split on commas outside parentheses, brackets and quotes."""
    parts, depth, quote, cur = [], 0, "", ""
    for ch in text:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        cur += ch
    if cur.strip():
        parts.append(cur)
    return [p.strip() for p in parts]


def normalise_default(expr: str | None) -> str | None:
    """A default without its casts (PostgreSQL writes NULL::double precision[] for NULL)."""
    if expr is None:
        return None
    return re.sub(r"::[a-z ]+(\[\])?", "", expr.strip()).lower()


def parse_arguments(text: str) -> tuple[tuple[str, str, str | None], ...]:
    """(name, type, default) of each argument of an argument list as pg_get_function_arguments writes it."""
    out = []
    for arg in split_top_level(" ".join(text.split())):
        m = re.fullmatch(r'("[^"]+"|[a-z_][a-z0-9_]*) (.+?)(?: DEFAULT (.+))?', arg)
        assert m, f"cannot read argument {arg!r}"
        out.append((m.group(1), m.group(2), normalise_default(m.group(3))))
    return tuple(out)


def page_signatures(block: str, qualified: str) -> set[Signature]:
    """Every ``schema.name(args) RETURNS type`` of a page's signature block."""
    found: set[Signature] = set()
    start = 0
    while (i := block.find(qualified + "(", start)) >= 0:
        j, depth = i + len(qualified), 0
        for j in range(i + len(qualified), len(block)):
            depth += {"(": 1, ")": -1}.get(block[j], 0)
            if depth == 0:
                break
        m = re.match(r"\s*RETURNS\s+([^\n;]+)", block[j + 1:])
        assert m, f"{qualified}: no RETURNS after {block[i:j + 1]!r}"
        found.add((parse_arguments(block[i + len(qualified) + 1:j]), " ".join(m.group(1).split())))
        start = j + 1
    return found


def sql_blocks(text: str) -> list[str]:
    """Every sql block, run or not (```sql, ```sql norun: <reason>)."""
    return re.findall(r"^```sql(?: norun: [^\n]+)?\n(.*?)^```", text, re.DOTALL | re.MULTILINE)


def pages() -> dict[str, str]:
    return {p.stem: p.read_text(encoding="utf-8") for p in sorted(REFERENCE.glob("*.md")) if p.name != "README.md"}


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


def test_the_reference_index_links_every_page_and_the_readme_links_the_index():
    index = (REFERENCE / "README.md").read_text(encoding="utf-8")
    linked = set(re.findall(r"\]\(([^)#]+)\.md\)", index))
    assert linked == set(pages()), (
        f"not in the index: {sorted(set(pages()) - linked)}; linked but absent: {sorted(linked - set(pages()))}")
    assert "(docs/reference/README.md)" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_a_page_signature_naming_a_missing_argument_default_or_type_is_read_as_different():
    # the check above compares what it reads: a page that drops a default or changes a type differs
    good = page_signatures("madnb.evaluate(model text, source text, label text DEFAULT NULL) RETURNS jsonb", "madnb.evaluate")
    installed = {(parse_arguments("model text, source text, label text DEFAULT NULL::text"), "jsonb")}
    assert good == installed
    for wrong in ("madnb.evaluate(model text, source text, label text) RETURNS jsonb",
                  "madnb.evaluate(model text, source text, label name DEFAULT NULL) RETURNS jsonb",
                  "madnb.evaluate(model text, source text, label text DEFAULT NULL) RETURNS json"):
        assert page_signatures(wrong, "madnb.evaluate") != installed, wrong

