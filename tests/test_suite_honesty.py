"""No test in the suite is one that cannot fail (issue 21.8).

An AST scan of every test file (and of the test files the suite writes for child pytest
runs, found as string literals holding `def test_`) flags the shapes of an assertion that
holds whatever the code does:

- `assert <constant>` (`assert True`, `assert 1`, `assert "text"`);
- `<anything> or True` (or any truthy constant), which is always true;
- a comparison of an expression with itself (`assert x == x`) where no call could give
  two different answers;
- a non-strict lower bound of zero (`x >= 0`, `0 <= x <= n`): counts, lengths, durations
  and probabilities never go below zero, so such a range usually covers every outcome
  (`0 <= wins <= games` was one). Where the bound is the point of the test (a float that
  must not leave [0, 1]), the line says why with a `# honest: <reason>` comment;
- an assertion under `if C:` that asserts `C` again: it only runs when it passes;
- an assertion inside `try` whose handler swallows `AssertionError` (or every exception).

A shape that is honest in its place is allowed below, with the reason, or by a
`# honest: <reason>` comment on its line or the line above it.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

TESTS = Path(__file__).resolve().parent
HONEST = "# honest:"

# (file, the assertion's source text) -> why it is honest there
ALLOWED = {
    ("test_suite_timeout.py", "assert True"):
        "the body of the child test that must still pass after a hung one: the point is "
        "that it runs, and the run's '1 failed, 1 passed' is what is asserted",
}


@dataclass(frozen=True)
class Finding:
    """One assertion that cannot fail: where, what and why."""

    file: str
    line: int
    source: str
    reason: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.reason}: {self.source}"


def _truthy_constant(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and bool(node.value)


def _has_call(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Call | ast.Await) for n in ast.walk(node))


def _zero(node: ast.AST) -> bool:
    return (isinstance(node, ast.Constant) and not isinstance(node.value, bool)
            and isinstance(node.value, int | float) and node.value == 0)


# Names of what is never below zero: a bare floor of zero on them cannot fail.
NEVER_NEGATIVE = ("count", "len", "size", "seconds", "elapsed", "duration", "wins", "total",
                  "commands", "turns", "games")


def _last_name(node: ast.AST) -> str:
    if isinstance(node, ast.Call):
        return _last_name(node.func)
    if isinstance(node, ast.Subscript):
        key = node.slice
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            return key.value
        return _last_name(node.value)
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return ""


def _zero_floor(compare: ast.Compare) -> bool:
    """A non-strict floor of zero that covers every outcome: a range `0 <= x <= n`, or
    `x >= 0` / `0 <= x` on a length, a count or a duration."""
    operands = [compare.left, *compare.comparators]
    for i, op in enumerate(compare.ops):
        left, right = operands[i], operands[i + 1]
        if isinstance(op, ast.LtE) and _zero(left):
            bounded, ranged = right, i + 1 < len(compare.ops)
        elif isinstance(op, ast.GtE) and _zero(right):
            bounded, ranged = left, i > 0
        else:
            continue
        if ranged or any(word in _last_name(bounded).lower() for word in NEVER_NEGATIVE):
            return True
    return False


def _conjuncts(node: ast.AST) -> list[str]:
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
        return [ast.dump(v) for v in node.values]
    return [ast.dump(node)]


def _swallows_assertions(handler: ast.ExceptHandler) -> bool:
    if any(isinstance(n, ast.Raise) for n in ast.walk(handler)):
        return False
    caught = handler.type
    if caught is None:
        return True
    names = [n.id for n in ast.walk(caught) if isinstance(n, ast.Name)]
    return any(name in ("AssertionError", "Exception", "BaseException") for name in names)


class _Scanner(ast.NodeVisitor):
    def __init__(self, file: str, source: str) -> None:
        self.file, self.source = file, source
        self.lines = source.splitlines()
        self.findings: list[Finding] = []
        self._ifs: list[ast.expr] = []
        self._guarded = 0  # inside a try that swallows assertions
        self._asserting = 0  # inside an assert statement

    def _flag(self, node: ast.AST, reason: str) -> None:
        text = ast.get_source_segment(self.source, node) or ""
        first, last = node.lineno, getattr(node, "end_lineno", node.lineno) or node.lineno
        # the mark on the assertion's lines or on the line just above it
        if any(HONEST in line for line in self.lines[max(0, first - 2):last]):
            return
        if (self.file, text.strip()) in ALLOWED:
            return
        self.findings.append(Finding(self.file, first, " ".join(text.split())[:120], reason))

    def visit_If(self, node: ast.If) -> None:
        self.visit(node.test)
        self._ifs.append(node.test)
        for child in node.body:
            self.visit(child)
        self._ifs.pop()
        for child in node.orelse:
            self.visit(child)

    def visit_Try(self, node: ast.Try) -> None:
        swallowing = any(_swallows_assertions(h) for h in node.handlers)
        self._guarded += swallowing
        for child in node.body:
            self.visit(child)
        self._guarded -= swallowing
        for child in [*node.handlers, *node.orelse, *node.finalbody]:
            self.visit(child)

    def visit_Assert(self, node: ast.Assert) -> None:
        test = node.test
        if isinstance(test, ast.Constant):
            self._flag(node, "asserts a constant")
        if (isinstance(test, ast.Compare) and len(test.ops) == 1 and not _has_call(test)
                and ast.dump(test.left) == ast.dump(test.comparators[0])):
            self._flag(node, "compares an expression with itself")
        if self._guarded:
            self._flag(node, "its AssertionError is swallowed by the try around it")
        asserted = set(_conjuncts(test))
        if any(asserted <= set(_conjuncts(condition)) for condition in self._ifs):
            self._flag(node, "runs only under an `if` that already holds it")
        self._asserting += 1
        self.generic_visit(node)
        self._asserting -= 1

    def visit_BoolOp(self, node: ast.BoolOp) -> None:
        if isinstance(node.op, ast.Or) and any(
                (_truthy_constant(v) if self._asserting else
                 isinstance(v, ast.Constant) and v.value is True) for v in node.values):
            self._flag(node, "`or` with a true constant is always true")
        self.generic_visit(node)

    def visit_Compare(self, node: ast.Compare) -> None:
        if self._asserting and _zero_floor(node):
            self._flag(node, "a floor of zero covers every outcome (a count, a length, a "
                             "duration, a probability)")
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        # a test file the suite writes for a child pytest run is scanned too
        if isinstance(node.value, str) and "def test_" in node.value:
            try:
                child = ast.parse(_dedent(node.value))
            except SyntaxError:
                return
            inner = _Scanner(self.file, _dedent(node.value))
            inner.visit(child)
            self.findings.extend(
                Finding(f.file, node.lineno + f.line - 1, f.source, f.reason)
                for f in inner.findings)


def _dedent(text: str) -> str:
    import textwrap

    return textwrap.dedent(text)


def scan_source(file: str, source: str) -> list[Finding]:
    """Every assertion in `source` (a test file's text) that cannot fail."""
    scanner = _Scanner(file, source)
    scanner.visit(ast.parse(source))
    return scanner.findings


def scan_suite(root: Path = TESTS) -> list[Finding]:
    """Every assertion that cannot fail in the test files under `root`."""
    findings: list[Finding] = []
    for path in sorted(root.rglob("*.py")):
        if path.name == Path(__file__).name:
            continue  # its own examples are the shapes it finds, on purpose
        findings.extend(scan_source(str(path.relative_to(root)), path.read_text()))
    return findings


def test_no_assertion_in_the_suite_holds_whatever_the_code_does():
    findings = scan_suite()
    assert not findings, "assertions that cannot fail:\n" + "\n".join(map(str, findings))


def test_the_scan_finds_each_kind_of_assertion_that_cannot_fail():
    source = '''
def test_kinds(x, wins, games, reserve, label):
    assert True
    assert x or True
    flag = run() or True
    assert x == x
    assert 0 <= wins <= games
    assert len(x) >= 0
    assert reserve >= 0
    name = label or "default"
    if wins > 2:
        assert wins > 2
    try:
        assert wins == 3
    except AssertionError:
        pass
'''
    found = [(f.line, f.reason.split()[0]) for f in scan_source("example.py", source)]
    assert [line for line, _ in found] == [3, 4, 5, 6, 7, 8, 12, 14]


def test_the_scan_passes_honest_assertions():
    source = '''
import textwrap

def test_fine(x, wins, games, render):
    assert wins == 2
    assert 0 < x < 1
    assert render(1) == render(1)  # a call may answer differently: determinism checks
    assert 0.0 <= x <= 1.0  # honest: unclamped, floats left [0, 1]
    if wins > 2:
        assert games > 3
    try:
        assert wins == 3
    except KeyError:
        pass
    child = textwrap.dedent("""
        def test_child():
            assert wins == 3
    """)
'''
    assert scan_source("example.py", source) == []


def test_the_scan_reads_the_test_files_the_suite_writes_for_child_runs():
    source = '''
BODY = """
def test_child():
    assert 1
"""
'''
    assert [(f.line, f.reason) for f in scan_source("example.py", source)] == [
        (4, "asserts a constant")]
    allowed = 'CHILD = """\ndef test_after_it():\n    assert True\n"""\n'
    assert scan_source("test_suite_timeout.py", allowed) == []
