"""Mutation sampling: would the tests notice a broken rule?

Every small change the operators below can make to the code under test is listed
(deterministically), a sample of N is drawn with a seed, and each is applied to a temporary
copy of the worktree (the working tree itself is never written) where the fast tests of that
file's room run (`-m "not slow and not browser" -x`, with a time limit per mutant). A mutant
is *caught* when those tests fail (or time out, or no longer import), *survived* when they
pass. A survivor that cannot change behaviour (an *equivalent* mutant) is judged by a person,
with a one-line reason, in `tools/mutants_equivalent.json`; it is listed apart and left out
of the score: caught / (caught + survived and not judged equivalent).

Operators (stdlib `ast`; each replaces the text of one node, so the rest of the file, its
comments and line numbers stay as they were):
  compare   a comparison flipped: == !=, < >=, > <=, in / not in, is / is not
  boundary  < <=, > >=
  negate    the test of an if / while / conditional expression negated; `not x` -> `x`
  and_or    `and` <-> `or`
  constant  an int n -> n + 1 and n - 1; True <-> False; a string compared against -> another
  arith     + <-> -, * -> //, // -> *, % -> // (also in `x += n`)
  delete    one simple statement (call, assignment, raise, return, break, continue) -> pass
  return    `return <value>` -> `return None`
Not mutated: docstrings, type annotations, `if TYPE_CHECKING:` blocks, asserts, f-strings,
other string constants (messages), logging calls, module-level statement deletion.

Run it from the worktree (2 shared cores: nice it):

    nice -n 10 .venv/bin/python tools/mutants.py --seed 3407 -n 60
    .venv/bin/python tools/mutants.py --list --paths pi_app/rules/setup.py   # the mutants
    .venv/bin/python tools/mutants.py --show '<key>'                          # one, as a diff

`--json FILE` writes every result; `--paths` limits the files sampled from (default: the
rules, dice, journal and session code); `--match TEXT...` keeps only the mutants whose key
holds one of the texts (before sampling: `-n 1000 --match ::_claim::` runs every mutant of
a function); `--tests` overrides the room's tests. To show that a new test kills the mutant
it was written for: `--match '<key>' --tests tests/<file>.py::<test>`.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import difflib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PATHS = ("pi_app/rules", "pi_app/dice.py", "pi_app/journal.py", "pi_app/session.py")
EQUIVALENT_FILE = ROOT / "tools" / "mutants_equivalent.json"
MARKERS = "not slow and not browser"
# A test a mutant makes hang fails after this long (pytest-timeout), not the suite's 120 s:
# the slowest fast test takes about 15 s on a loaded 2-core machine.
PER_TEST_TIMEOUT_S = 60

# The room of each file: the fast tests that hold it (the first prefix that matches).
ROOMS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("pi_app/rules/strike/", ("tests/strike", "tests/test_session_strike.py")),
    ("pi_app/rules/variants/", ("tests/variants", "tests/rules")),
    ("pi_app/rules/board.py", ("tests/rules", "tests/test_data_files.py")),
    ("pi_app/rules/odds.py", ("tests/test_odds.py", "tests/test_cli_odds.py", "tests/rules")),
    ("pi_app/rules/", ("tests/rules", "tests/variants", "tests/strike",
                       "tests/test_rules_version.py")),
    ("pi_app/dice.py", ("tests/test_dice.py", "tests/test_dice_doc.py",
                        "tests/rules/test_physical_dice.py")),
    ("pi_app/journal.py", ("tests/test_journal.py", "tests/test_session.py",
                           "tests/test_crash_resume.py", "tests/test_new_game_transaction.py")),
    ("pi_app/session.py", ("tests/test_session.py", "tests/test_session_strike.py",
                           "tests/test_rules_version.py", "tests/test_journal.py",
                           "tests/test_crash_resume.py", "tests/test_new_game_transaction.py")),
)
# Left out of the temporary copy: big, or written by runs.
COPY_IGNORE = shutil.ignore_patterns(".git", ".venv", "node_modules", "__pycache__",
                                     ".pytest_cache", ".hypothesis", ".ruff_cache",
                                     "test-artifacts", "*.egg-info")

COMPARE_FLIP = {ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Lt: ast.GtE, ast.GtE: ast.Lt,
                ast.Gt: ast.LtE, ast.LtE: ast.Gt, ast.In: ast.NotIn, ast.NotIn: ast.In,
                ast.Is: ast.IsNot, ast.IsNot: ast.Is}
BOUNDARY = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt}
ARITH = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult,
         ast.Mod: ast.FloorDiv}
LOGGERS = {"log", "logger", "_log", "LOG", "LOGGER", "logging"}


@dataclasses.dataclass(frozen=True)
class Mutant:
    """One change to one file: the text at [start, end) replaced by `replacement`."""

    path: str  # relative to the root, with forward slashes
    line: int
    start: int  # character offsets into the file's text
    end: int
    operator: str
    original: str
    replacement: str
    scope: str  # the enclosing function or class (dotted), or "<module>"
    key: str = ""  # stable id: path, scope, operator, change, and an index among equals

    def apply(self, source: str) -> str:
        """The file's text with this mutant in it."""
        return source[:self.start] + self.replacement + source[self.end:]

    def describe(self) -> str:
        """A one-line summary for the report."""
        return (f"{self.path}:{self.line} [{self.scope}] {self.operator}: "
                f"{_short(self.original)} -> {_short(self.replacement)}")

    def diff(self, source: str) -> str:
        """A unified diff of the file with this mutant applied."""
        return "".join(difflib.unified_diff(
            source.splitlines(keepends=True), self.apply(source).splitlines(keepends=True),
            f"a/{self.path}", f"b/{self.path}", n=2))


def _short(text: str, width: int = 70) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[:width - 3] + "..."


class _Offsets:
    """Line/column (ast's utf-8 byte columns) to character offsets in a text."""

    def __init__(self, source: str) -> None:
        self.source = source
        # ast counts lines at "\n" only (splitlines would also break at \x0c, \u2028, ...)
        self.lines = [line + "\n" for line in source.split("\n")]
        self.lines[-1] = self.lines[-1][:-1]
        self.starts = [0]
        for line in self.lines:
            self.starts.append(self.starts[-1] + len(line))

    def at(self, line: int, col: int) -> int:
        text = self.lines[line - 1].encode("utf-8")[:col].decode("utf-8")
        return self.starts[line - 1] + len(text)

    def span(self, node: ast.AST) -> tuple[int, int]:
        return (self.at(node.lineno, node.col_offset),
                self.at(node.end_lineno, node.end_col_offset))  # type: ignore[arg-type]


def _is_docstring(node: ast.stmt, parent_body: Sequence[ast.stmt]) -> bool:
    return bool(parent_body) and parent_body[0] is node and (
            isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str))


def _is_type_checking(test: ast.expr) -> bool:
    return ((isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
            or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"))


def _is_log_call(node: ast.stmt) -> bool:
    if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)):
        return False
    func = node.value.func
    return (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
            and func.value.id in LOGGERS)


class _Finder:
    """Walks a module and lists every mutant the operators make."""

    def __init__(self, path: str, source: str) -> None:
        self.path = path
        self.source = source
        self.offsets = _Offsets(source)
        self.found: list[Mutant] = []
        self.scope: list[str] = []

    # -- the walk ------------------------------------------------------------------------
    def run(self) -> list[Mutant]:
        tree = ast.parse(self.source)
        self._body(tree.body, module=True)
        return self.found

    def _body(self, body: Sequence[ast.stmt], module: bool = False) -> None:
        for stmt in body:
            if _is_docstring(stmt, body):
                continue
            self._stmt(stmt, module)

    def _function_body(self, body: Sequence[ast.stmt]) -> None:
        last = body[-1]
        if isinstance(last, ast.Return) and (last.value is None or (
                isinstance(last.value, ast.Constant) and last.value.value is None)):
            body = body[:-1]  # deleting a function's final `return None` changes nothing
        if body:
            self._body(body)

    def _stmt(self, node: ast.stmt, module: bool) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for default in [*node.args.defaults, *node.args.kw_defaults]:
                if default is not None:
                    self._expr(default)
            self.scope.append(node.name)
            self._function_body(node.body)
            self.scope.pop()
            return
        if isinstance(node, ast.ClassDef):
            self.scope.append(node.name)
            self._body(node.body, module=module)
            self.scope.pop()
            return
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            self._body(node.orelse, module)
            return
        if isinstance(node, ast.Assert | ast.Import | ast.ImportFrom | ast.Global
                      | ast.Nonlocal | ast.Pass):
            return
        if _is_log_call(node):
            return
        if isinstance(node, ast.If | ast.While):
            self._negate(node.test)
        if (not module and isinstance(node, ast.Expr | ast.Assign | ast.AugAssign
                                      | ast.AnnAssign | ast.Raise | ast.Return
                                      | ast.Break | ast.Continue | ast.Delete)):
            self._add(node, "delete", "pass")
        if isinstance(node, ast.Return) and node.value is not None and not (
                isinstance(node.value, ast.Constant) and node.value.value is None):
            self._add(node, "return", "return None")
        if isinstance(node, ast.AugAssign) and type(node.op) in ARITH:
            self._augassign(node)
        for field, value in ast.iter_fields(node):
            if field in ("annotation", "returns", "decorator_list", "type_params"):
                continue
            if field in ("body", "orelse", "finalbody"):
                if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                    self._body(value, module)
                continue
            if field == "handlers":
                for handler in value:
                    self._body(handler.body, module)
                continue
            if field == "cases":
                for case in value:
                    self._body(case.body, module)
                continue
            for child in value if isinstance(value, list) else [value]:
                if isinstance(child, ast.expr):
                    self._expr(child)

    def _expr(self, node: ast.expr) -> None:
        if isinstance(node, ast.JoinedStr):
            return
        if isinstance(node, ast.Compare):
            self._compare(node)
        elif isinstance(node, ast.BoolOp):
            swapped = ast.Or() if isinstance(node.op, ast.And) else ast.And()
            self._add(node, "and_or", _paren(ast.BoolOp(op=swapped, values=node.values)))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            self._add(node, "negate", _paren(node.operand))
        elif isinstance(node, ast.IfExp):
            self._negate(node.test)
        elif isinstance(node, ast.BinOp) and type(node.op) in ARITH and not (
                _is_text(node.left) or _is_text(node.right)):
            op = ARITH[type(node.op)]()
            self._add(node, "arith", _paren(ast.BinOp(left=node.left, op=op, right=node.right)))
        elif isinstance(node, ast.Constant):
            self._constant(node)
        elif isinstance(node, ast.Lambda):
            self._expr(node.body)
            return
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self._expr(child)
            elif isinstance(child, ast.keyword):
                self._expr(child.value)
            elif isinstance(child, ast.comprehension):
                for sub in [child.iter, *child.ifs]:
                    self._expr(sub)

    # -- the operators --------------------------------------------------------------------
    def _negate(self, test: ast.expr) -> None:
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            return  # `not x` -> `x` is made by _expr already
        self._add(test, "negate", _paren(ast.UnaryOp(op=ast.Not(), operand=test)))

    def _compare(self, node: ast.Compare) -> None:
        for i, op in enumerate(node.ops):
            for name, table in (("compare", COMPARE_FLIP), ("boundary", BOUNDARY)):
                if type(op) in table:
                    ops = list(node.ops)
                    ops[i] = table[type(op)]()
                    self._add(node, name, _paren(ast.Compare(
                        left=node.left, ops=ops, comparators=node.comparators)))
        for side in [node.left, *node.comparators]:
            if isinstance(side, ast.Constant) and isinstance(side.value, str):
                self._add(side, "constant", repr(side.value + "_mutant"))

    def _constant(self, node: ast.Constant) -> None:
        value = node.value
        if isinstance(value, bool):
            self._add(node, "constant", repr(not value))
        elif isinstance(value, int):
            for changed in (value + 1, value - 1):
                self._add(node, "constant", _paren(ast.Constant(changed)))

    def _augassign(self, node: ast.AugAssign) -> None:
        start = self.offsets.at(node.lineno, node.col_offset)
        end = self.offsets.at(node.end_lineno, node.end_col_offset)  # type: ignore[arg-type]
        swapped = ast.AugAssign(target=node.target, op=ARITH[type(node.op)](), value=node.value)
        self._add_span(node.lineno, start, end, "arith", ast.unparse(swapped))

    def _add(self, node: ast.AST, operator: str, replacement: str) -> None:
        start, end = self.offsets.span(node)
        self._add_span(node.lineno, start, end, operator, replacement)  # type: ignore[attr-defined]

    def _add_span(self, line: int, start: int, end: int, operator: str,
                  replacement: str) -> None:
        original = self.source[start:end]
        if original == replacement:
            return
        self.found.append(Mutant(self.path, line, start, end, operator, original, replacement,
                                 ".".join(self.scope) or "<module>"))


def _is_text(node: ast.expr) -> bool:
    """A string literal or f-string: `+` joins text there, and `-` would only raise."""
    return isinstance(node, ast.JoinedStr) or (
        isinstance(node, ast.Constant) and isinstance(node.value, str))


def _paren(node: ast.expr) -> str:
    return f"({ast.unparse(node)})"


def mutants_of(path: str, source: str) -> list[Mutant]:
    """Every mutant of one file's text, in file order, each with its stable key.

    A change whose replacement parses to the same expression as the original is dropped,
    and so is a second change of the same text into the same replacement."""
    seen: set[tuple[int, int, str]] = set()
    counts: dict[str, int] = {}
    out: list[Mutant] = []
    for m in _Finder(path, source).run():
        if (m.start, m.end, m.replacement) in seen or _same_expression(m):
            continue
        seen.add((m.start, m.end, m.replacement))
        base = f"{m.path}::{m.scope}::{m.operator}::{_short(m.original, 200)} -> " \
               f"{_short(m.replacement, 200)}"
        counts[base] = counts.get(base, 0) + 1
        out.append(dataclasses.replace(m, key=f"{base}#{counts[base]}"))
    return out


def _same_expression(m: Mutant) -> bool:
    if m.operator in ("delete", "return"):
        return False
    try:
        before = ast.parse(f"({m.original})", mode="eval")
        after = ast.parse(f"({m.replacement})", mode="eval")
    except SyntaxError:
        return False
    return ast.dump(before) == ast.dump(after)


def compiles(path: str, text: str) -> bool:
    """Whether a mutated file's text is still Python."""
    try:
        compile(text, path, "exec")
    except SyntaxError:
        return False
    return True


def source_files(root: Path, paths: Sequence[str]) -> list[str]:
    """The Python files under `paths` (files or folders, relative to root), sorted."""
    found: set[str] = set()
    for p in paths:
        full = root / p
        files = [full] if full.is_file() else sorted(full.rglob("*.py"))
        for f in files:
            if "__pycache__" not in f.parts:
                found.add(f.relative_to(root).as_posix())
    return sorted(found)


def all_mutants(root: Path, paths: Sequence[str]) -> list[Mutant]:
    """Every mutant of every file under `paths`, in a fixed order."""
    out: list[Mutant] = []
    for rel in source_files(root, paths):
        out += mutants_of(rel, (root / rel).read_text(encoding="utf-8"))
    return out


def sample(mutants: Sequence[Mutant], n: int, seed: int) -> list[Mutant]:
    """`n` mutants drawn with `seed` (all of them if there are fewer), in file order."""
    if n >= len(mutants):
        return list(mutants)
    picked = set(random.Random(seed).sample(range(len(mutants)), n))
    return [m for i, m in enumerate(mutants) if i in picked]


def room_tests(path: str, rooms: Sequence[tuple[str, tuple[str, ...]]] = ROOMS) -> tuple[str, ...]:
    """The tests of the room `path` belongs to."""
    for prefix, tests in rooms:
        if path.startswith(prefix):
            return tests
    raise SystemExit(f"no room of tests is known for {path}; pass --tests")


@dataclasses.dataclass
class Result:
    """What the tests said about one mutant."""

    mutant: Mutant
    verdict: str  # caught | timeout | survived | equivalent | invalid (not Python: a bug here)
    detail: str = ""  # the first failing test, or the judged reason
    seconds: float = 0.0


class Workspace:
    """A temporary copy of the tree in which one file at a time is mutated, then restored."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._tmp = tempfile.TemporaryDirectory(prefix="mutants-")
        self.path = Path(self._tmp.name) / "tree"
        shutil.copytree(root, self.path, ignore=COPY_IGNORE, symlinks=True)

    def close(self) -> None:
        """Remove the copy."""
        self._tmp.cleanup()

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def run_tests(self, tests: Sequence[str], timeout: float,
                  mutant: Mutant | None = None) -> tuple[str, str, float]:
        """Run `tests` in the copy (with `mutant` applied); (outcome, detail, seconds) with
        outcome passed | failed | timeout."""
        target = original = None
        if mutant is not None:
            target = self.path / mutant.path
            original = target.read_text(encoding="utf-8")
            _write_source(target, mutant.apply(original))
        env = dict(os.environ, PYTHONPATH=str(self.path), PYTHONHASHSEED="0")
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # the copy's unmutated modules stay cached
        cmd = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
               "-p", "no:xdist", "-p", "no:randomly", "-m", MARKERS, "-rfE",
               f"--timeout={PER_TEST_TIMEOUT_S}", *tests]
        began = time.monotonic()
        try:
            outcome, output, code = _run_group(cmd, self.path, env, timeout)
        finally:
            if target is not None and original is not None:
                _write_source(target, original)
        seconds = time.monotonic() - began
        if outcome == "timeout":
            return "timeout", f"no answer in {timeout:.0f} s", seconds
        if code == 0:
            return "passed", "", seconds
        return "failed", _first_failure(output, code), seconds


def _write_source(path: Path, text: str) -> None:
    """Write a module's text and drop its cached bytecode: a cache is trusted on the
    source's size and mtime in whole seconds, which a mutant written in the same second as
    another of the same length would share."""
    for cached in path.parent.glob(f"__pycache__/{path.stem}.*.pyc"):
        cached.unlink()
    path.write_text(text, encoding="utf-8")


def _run_group(cmd: Sequence[str], cwd: Path, env: dict[str, str],
               timeout: float) -> tuple[str, str, int]:
    """Run `cmd` in its own process group; on time-out the whole group (the tests' own
    children too) is killed. (finished | timeout, output, exit code)."""
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        output, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return "timeout", "", -1
    except BaseException:  # interrupted: the tests of this mutant stop with the tool
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise
    return "finished", output, proc.returncode


def _first_failure(output: str, code: int) -> str:
    for line in output.splitlines():
        if line.startswith(("FAILED ", "ERROR ")):
            return _short(line, 110)
    tail = [ln for ln in output.splitlines() if ln.strip()]
    return _short(f"exit {code}: {tail[-1] if tail else ''}", 110)


def load_equivalent(path: Path) -> dict[str, str]:
    """The mutants judged equivalent: {key: one-line reason}."""
    if not path.exists():
        return {}
    return dict(json.loads(path.read_text(encoding="utf-8"))["equivalent"])


def run(root: Path, mutants: Sequence[Mutant], timeout: float, equivalent: dict[str, str],
        tests: Sequence[str] | None = None, rooms=ROOMS, echo=print) -> list[Result]:
    """Run each mutant against its room's tests in a copy of `root`; the results."""
    results: list[Result] = []
    with Workspace(root) as ws:
        rooms_needed = sorted({tuple(tests) if tests else room_tests(m.path, rooms)
                               for m in mutants})
        for room in rooms_needed:
            outcome, detail, _ = ws.run_tests(room, timeout)
            if outcome != "passed":
                raise SystemExit(f"the unmutated tests do not pass ({' '.join(room)}): {detail}")
        for i, m in enumerate(mutants, 1):
            if not compiles(m.path, m.apply((root / m.path).read_text(encoding="utf-8"))):
                results.append(Result(m, "invalid", "the mutated file does not compile"))
                echo(f"[{i}/{len(mutants)}] invalid    {m.describe()}")
                continue
            outcome, detail, seconds = ws.run_tests(
                tuple(tests) if tests else room_tests(m.path, rooms), timeout, m)
            if outcome == "passed":
                verdict, detail = (("equivalent", equivalent[m.key]) if m.key in equivalent
                                   else ("survived", ""))
            else:
                verdict = "timeout" if outcome == "timeout" else "caught"
            results.append(Result(m, verdict, detail, seconds))
            echo(f"[{i}/{len(mutants)}] {verdict:10} {m.describe()}"
                 + (f"\n      {detail}" if detail else ""))
    return results


def score(results: Sequence[Result]) -> tuple[int, int, float]:
    """(caught, counted, percent): timeouts are caught; equivalent mutants are not counted."""
    caught = sum(r.verdict in ("caught", "timeout") for r in results)
    counted = caught + sum(r.verdict == "survived" for r in results)
    return caught, counted, (100.0 * caught / counted if counted else 100.0)


def report(results: Sequence[Result], root: Path) -> str:
    """The summary: counts, score, and every survivor and equivalent mutant."""
    caught, counted, percent = score(results)
    lines = [f"{len(results)} mutants: {caught} caught "
             f"({sum(r.verdict == 'timeout' for r in results)} by time-out), "
             f"{counted - caught} survived, "
             f"{sum(r.verdict == 'equivalent' for r in results)} equivalent (not counted)",
             f"score: {caught}/{counted} = {percent:.1f} %"]
    for verdict in ("survived", "equivalent"):
        chosen = [r for r in results if r.verdict == verdict]
        if chosen:
            lines.append(f"\n{verdict}:")
        for r in chosen:
            lines.append(f"  {r.mutant.key}" + (f"\n      because: {r.detail}"
                                                if r.detail else ""))
            if verdict == "survived":
                source = (root / r.mutant.path).read_text(encoding="utf-8")
                lines += ["      " + ln for ln in r.mutant.diff(source).splitlines()]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (see the module's docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=0, help="the sampling seed")
    parser.add_argument("-n", type=int, default=60, help="how many mutants to sample")
    parser.add_argument("--paths", nargs="+", default=list(DEFAULT_PATHS),
                        help="files or folders to sample from, relative to the root")
    parser.add_argument("--match", nargs="+", default=[],
                        help="only the mutants whose key holds one of these (before sampling)")
    parser.add_argument("--tests", nargs="+", help="tests to run instead of the room's")
    parser.add_argument("--timeout", type=float, default=300,
                        help="seconds the tests may take per mutant (then: caught, timeout)")
    parser.add_argument("--root", type=Path, default=ROOT, help="the tree to copy and mutate")
    parser.add_argument("--equivalent", type=Path, default=EQUIVALENT_FILE,
                        help="JSON of the mutants judged equivalent")
    parser.add_argument("--list", action="store_true", help="list the sample and stop")
    parser.add_argument("--show", metavar="KEY", help="print one mutant's diff and stop")
    parser.add_argument("--json", type=Path, help="write every result here")
    args = parser.parse_args(argv)
    # a SIGTERM unwinds like Ctrl-C: the running tests are stopped, the copy removed
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    root = args.root.resolve()
    everything = [m for m in all_mutants(root, args.paths)
                  if not args.match or any(text in m.key for text in args.match)]
    if args.show:
        for m in everything:
            if m.key == args.show:
                print(m.diff((root / m.path).read_text(encoding="utf-8")))
                return 0
        print(f"no mutant {args.show!r}", file=sys.stderr)
        return 1
    chosen = sample(everything, args.n, args.seed)
    print(f"{len(everything)} mutants in {len(source_files(root, args.paths))} files"
          + (f" matching {' or '.join(map(repr, args.match))}" if args.match else "")
          + f"; sampled {len(chosen)} with seed {args.seed}")
    if args.list:
        print("\n".join(f"  {m.key}" for m in chosen))
        return 0
    results = run(root, chosen, args.timeout, load_equivalent(args.equivalent), args.tests)
    print()
    print(report(results, root))
    if args.json:
        args.json.write_text(json.dumps([{
            "key": r.mutant.key, "line": r.mutant.line, "verdict": r.verdict,
            "detail": r.detail, "seconds": round(r.seconds, 1)} for r in results], indent=1)
            + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
