"""The docs' pages read as the tests read them: their sql blocks, and the reference pages' signatures.

Pure text parsing, shared by the tests that run the pages against a server
(tests/docs/) and those that check the parsing itself (tests/unit/test_docs_pages.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from conftest import ROOT

PAGES = sorted(
    [ROOT / "README.md", *(ROOT / "docs").glob("*.md"), *(ROOT / "docs" / "examples").glob("*.md"),
     *(ROOT / "docs" / "reference").glob("*.md")])
FEDERATION = ROOT / "docs" / "federation.md"
FENCE = re.compile(r"^```(sql[^\n]*)\n(.*?)^```", re.MULTILINE | re.DOTALL)
NORUN = re.compile(r"sql norun: *(\S.*)")
RUN_ON = re.compile(r"<!-- run on: (each owner|aggregator|aggregation server [12]|analyst) -->\s*\Z")


@dataclass(frozen=True)
class Block:
    line: int
    sql: str
    norun: str | None  # the reason it is not run
    run_on: str | None  # docs/federation.md: "each owner", "aggregator"; secure aggregation: "aggregation server 1", "... 2", "analyst"


def blocks(text: str) -> list[Block]:
    out = []
    for m in FENCE.finditer(text):
        info = m.group(1).strip()
        norun = NORUN.fullmatch(info)
        assert info == "sql" or norun, f"a sql fence says {info!r}: either ```sql or ```sql norun: <reason>"
        where = RUN_ON.search(text[:m.start()][-200:])
        out.append(Block(text.count("\n", 0, m.start()) + 1, m.group(2),
                         norun.group(1) if norun else None, where.group(1) if where else None))
    return out


def without_comments(text: str) -> str:
    return re.sub(r"--[^\n]*", "", text)


def page_id(p: Path) -> str:
    return str(p.relative_to(ROOT))


def runnable(page: Path) -> list[Block]:
    return [b for b in blocks(page.read_text(encoding="utf-8")) if b.norun is None]


# ---- docs/reference/: one page per public SQL function ------------------------------

REFERENCE = ROOT / "docs" / "reference"

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


def pages() -> dict[str, str]:
    return {p.stem: p.read_text(encoding="utf-8") for p in sorted(REFERENCE.glob("*.md")) if p.name != "README.md"}
