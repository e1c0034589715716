"""The docs' pages, read without a server: every runnable sql block is complete, the reference index is whole, signatures parse."""

from __future__ import annotations

import re

from conftest import ROOT
from docs_pages import PAGES, REFERENCE, page_id, page_signatures, pages, parse_arguments, runnable, without_comments


def test_the_pages_have_runnable_sql_examples_and_say_why_the_others_are_not_run():
    found = {page_id(p): runnable(p) for p in PAGES}
    assert found["README.md"] and found["docs/models.md"] and found["docs/privacy.md"]
    for page, bs in found.items():
        for b in bs:
            code = without_comments(b.sql)
            assert "..." not in code and "…" not in code, f"{page}:{b.line}: a placeholder in a runnable block"


def test_the_reference_index_links_every_page_and_the_readme_links_the_index():
    index = (REFERENCE / "README.md").read_text(encoding="utf-8")
    linked = set(re.findall(r"\]\(([^)#]+)\.md\)", index))
    assert linked == set(pages()), (
        f"not in the index: {sorted(set(pages()) - linked)}; linked but absent: {sorted(linked - set(pages()))}")
    assert "(docs/reference/README.md)" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_a_page_signature_naming_a_missing_argument_default_or_type_is_read_as_different():
    # tests/docs/test_reference_docs.py compares what it reads: a page that drops a default or changes a type differs
    good = page_signatures("madnb.evaluate(model text, source text, label text DEFAULT NULL) RETURNS jsonb", "madnb.evaluate")
    installed = {(parse_arguments("model text, source text, label text DEFAULT NULL::text"), "jsonb")}
    assert good == installed
    for wrong in ("madnb.evaluate(model text, source text, label text) RETURNS jsonb",
                  "madnb.evaluate(model text, source text, label name DEFAULT NULL) RETURNS jsonb",
                  "madnb.evaluate(model text, source text, label text DEFAULT NULL) RETURNS json"):
        assert page_signatures(wrong, "madnb.evaluate") != installed, wrong
