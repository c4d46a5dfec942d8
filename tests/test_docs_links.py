"""The docs stand alone (issue 22.6): every reference a clone's reader follows resolves inside
the clone. Checked in every Markdown file, the docstrings and comments of every Python file,
and every JSON, TOML, YAML and shell file (data "source" notes, page words):

- a Markdown link to a relative target names a file or folder that exists (from the linking
  file's folder), and its ``#anchor``, if any, is a heading of the target;
- a path starting ``docs/`` names a file under the repository's docs/ folder;
- a Markdown file named in capitals (``RULES.md``, ``hardware/README.md``) outside code
  blocks exists beside the file that names it, in a folder above it, or from the root;
- a section cited as ``docs/RULES.md §2.6`` or ``docs/MAP_AND_CARDS.md §3`` is a numbered
  heading of that file.
"""

from __future__ import annotations

import ast
import io
import os
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SKIPPED_DIRS = {".git", ".venv", "build", "node_modules", "test-artifacts", "__pycache__",
                ".hypothesis", ".pytest_cache", ".ruff_cache", ".mypy_cache"}
TEXT_SUFFIXES = {".md", ".py", ".json", ".toml", ".yaml", ".yml", ".sh"}

MD_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
DOCS_PATH = re.compile(r"(?<![\w./-])docs/[\w./-]*[\w/]")
CAPS_MD = re.compile(r"(?<![\w./-])((?:\.\./|[\w.-]+/)*[A-Z][A-Z0-9_]*\.md)\b")
SECTION = re.compile(r"(?<![\w./-])(docs/[\w./-]+\.md),? §\s?(\d+(?:\.\d+)?)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)
# Paths that name another project's files, as (file, path): not ours to resolve.
ELSEWHERE = {("docs/STYLE.md", "docs/Protocol.md")}  # Klipper's protocol document


def repo_files() -> Iterator[Path]:
    """The repository's text files a reader may open (not the venv, builds or artifacts)."""
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in SKIPPED_DIRS and not d.endswith(".egg-info")]
        for name in files:
            path = Path(folder, name)
            if path.suffix in TEXT_SUFFIXES and path != Path(__file__).resolve():
                yield path  # (not this file: its examples are broken on purpose)


FILES = sorted(repo_files())


def slug(heading: str) -> str:
    """GitHub's anchor for a Markdown heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def headings(path: Path) -> list[str]:
    """The headings of a Markdown file, outside code blocks."""
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    return [m.group(1) for m in re.finditer(r"^#{1,6}\s+(.+?)\s*#*$", text, flags=re.M)]


def where(path: Path, text: str, index: int) -> str:
    return f"{path.name}:{text.count(chr(10), 0, index) + 1}"


def prose_of_python(source: str) -> str:
    """Only the docstrings and comments of a Python file (code is blanked, lines kept): a
    string in code such as ``ROOT / "DICE.md"`` is a path being built, not a reference."""
    lines = source.splitlines()
    kept = [""] * len(lines)
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (isinstance(body, list) and body and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)):
            doc = body[0]
            for number in range(doc.lineno - 1, doc.end_lineno or doc.lineno):
                kept[number] = lines[number]
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            row, col = token.start
            kept[row - 1] = " " * col + token.string
    return "\n".join(kept)


def broken_references(path: Path, root: Path = ROOT) -> list[str]:
    """Every reference in ``path`` (a file of the repository at ``root``) that does not
    resolve, as 'file:line: reference'."""
    text = path.read_text(encoding="utf-8", errors="replace")
    if path.suffix == ".py":
        if ".md" not in text and "docs/" not in text:
            return []  # every reference below names a .md file or a docs/ path (and parsing
            # the other four in five Python files took most of this check's seconds)
        text = prose_of_python(text)
    problems = []
    # Markdown's code blocks (file trees, commands) name files as they stand in a listing.
    prose = FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    if path.suffix == ".md":
        for m in MD_LINK.finditer(prose):
            target = m.group(1)
            if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith("//"):
                continue  # http:, mailto:... (the network is not the repository's)
            file_part, _, anchor = target.partition("#")
            resolved = (path.parent / file_part).resolve() if file_part else path
            if not resolved.exists():
                problems.append(f"{where(path, prose, m.start())}: link {target}")
            elif anchor and resolved.suffix == ".md" and anchor not in {
                    slug(h) for h in headings(resolved)}:
                problems.append(f"{where(path, prose, m.start())}: anchor {target}")
    own = path.relative_to(root).as_posix()
    for m in DOCS_PATH.finditer(text):
        if (own, m.group(0)) not in ELSEWHERE and not (root / m.group(0)).exists():
            problems.append(f"{where(path, text, m.start())}: {m.group(0)}")
    for m in CAPS_MD.finditer(prose if path.suffix == ".md" else text):
        name = m.group(1)
        if name.startswith("docs/"):
            continue  # checked above, as a docs/ path
        folders = [folder for folder in (path.parent, *path.parent.parents)
                   if folder.is_relative_to(root)]
        if not any((folder / name).exists() for folder in folders):
            problems.append(f"{where(path, text, m.start())}: {name}")
    for m in SECTION.finditer(text):
        doc, number = root / m.group(1), m.group(2)
        if doc.exists() and not any(h.startswith((f"{number} ", f"{number}. "))
                                    for h in headings(doc)):
            problems.append(f"{where(path, text, m.start())}: {m.group(1)} §{number}")
    return problems


def test_the_checker_sees_the_whole_repository() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in FILES}
    for needed in ("README.md", "docs/RULES.md", "docs/ARCHITECTURE.md",
                   "pi_app/rules/odds.py", "pi_app/data/map.json", "firmware_bridge/link.py"):
        assert needed in names
    assert not any(name.startswith(".venv/") for name in names)


@pytest.mark.parametrize("doc", ["RULES.md", "MAP_AND_CARDS.md", "STYLE.md", "ARCHITECTURE.md"])
def test_the_rule_book_map_style_and_architecture_are_in_the_repository(doc: str) -> None:
    assert (ROOT / "docs" / doc).stat().st_size > 1000


def test_every_reference_in_the_repository_resolves() -> None:
    problems = [problem for path in FILES for problem in broken_references(path)]
    assert problems == [], "\n".join(problems)


def test_the_checker_catches_what_a_clone_would_miss(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "pi_app").mkdir()
    (tmp_path / "pi_app" / "DICE.md").write_text("# Dice\n", encoding="utf-8")
    rules = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    (tmp_path / "docs" / "RULES.md").write_text(rules, encoding="utf-8")
    sample = tmp_path / "docs" / "sample.md"
    sample.write_text(
        "See [the rules](RULES.md), [nothing](NOPE.md), [a section](RULES.md#26-attack)\n"
        "and [a missing one](RULES.md#no-such-heading), [away](https://example.org/x.md).\n"
        "```\n[in a code block](ignored.md)\n```\n"
        "docs/RULES.md §2.6 and docs/RULES.md §9.9 and docs/MISSING.md and pi_app/DICE.md;\n"
        "OTHER.md is named in capitals.\n", encoding="utf-8")
    found = [p.split(": ", 1)[1] for p in broken_references(sample, tmp_path)]
    assert found == ["link NOPE.md", "anchor RULES.md#no-such-heading", "docs/MISSING.md",
                     "NOPE.md", "OTHER.md", "docs/RULES.md §9.9"]


def test_in_python_only_docstrings_and_comments_count(tmp_path: Path) -> None:
    module = tmp_path / "module.py"
    module.write_text(
        '"""Follows GONE.md §1."""\n\n'
        'PATH = "docs/BUILT_AT_RUN_TIME.md"  # the rules: see LOST.md\n\n\n'
        'def f():\n    """Cites docs/NOWHERE.md."""\n    return "NOT_A_REFERENCE.md"\n',
        encoding="utf-8")
    found = [p.split(": ", 1)[1] for p in broken_references(module, tmp_path)]
    assert found == ["docs/NOWHERE.md", "GONE.md", "LOST.md"]
