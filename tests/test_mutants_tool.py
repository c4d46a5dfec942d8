"""tools/mutants.py, the mutation sampler, on a tiny fixture module: which mutants its
operators make (and which they leave alone), stable keys, a seeded sample, and a run that
tells caught from survived from judged equivalent without writing the tree it copies."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import sys
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parent.parent / "tools" / "mutants.py"


def load_tool():
    spec = importlib.util.spec_from_file_location("mutants_tool", TOOL)
    module = importlib.util.module_from_spec(spec)
    sys.modules["mutants_tool"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


mutants = load_tool()

# Every operator has one target here, and every place the tool must leave alone is here too:
# the docstrings, annotations, the TYPE_CHECKING block, the log call, the f-string and the
# message string.
SHAPES = '''"""Module docstring."""
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from os import PathLike

LIMIT = 3


def shapes(a: int, b: int, flag: bool, log) -> int:
    """Function docstring."""
    log.info("event=shapes a=%d", a)
    total = 0
    if a < b and flag:
        total += a
    if a in (1, 2) or not flag:
        raise ValueError(f"bad {a}")
    if b == "x":
        return "message text"
    return total * LIMIT
'''


def changes(source: str) -> set[tuple[str, str, str]]:
    return {(m.operator, m.original, m.replacement)
            for m in mutants.mutants_of("shapes.py", source)}


def test_each_operator_makes_its_mutant():
    made = changes(SHAPES)
    for expected in [
        ("compare", "a < b", "(a >= b)"),
        ("boundary", "a < b", "(a <= b)"),
        ("compare", "a in (1, 2)", "(a not in (1, 2))"),
        ("compare", 'b == "x"', "(b != 'x')"),
        ("constant", '"x"', "'x_mutant'"),
        ("and_or", "a < b and flag", "(a < b or flag)"),
        ("negate", "a < b and flag", "(not (a < b and flag))"),
        ("negate", "not flag", "(flag)"),
        ("constant", "3", "(4)"),
        ("constant", "3", "(2)"),
        ("constant", "0", "(1)"),
        ("arith", "total += a", "total -= a"),
        ("arith", "total * LIMIT", "(total // LIMIT)"),
        ("delete", "total += a", "pass"),
        ("delete", 'raise ValueError(f"bad {a}")', "pass"),
        ("return", "return total * LIMIT", "return None"),
    ]:
        assert expected in made, expected


def test_docstrings_annotations_logging_and_messages_are_left_alone():
    made = changes(SHAPES)
    originals = {original for _, original, _ in made}
    assert not any("docstring" in o for o in originals)
    assert not any("log.info" in o or "event=shapes" in o for o in originals)
    assert not any("PathLike" in o or o in ("int", "bool") for o in originals)
    assert not any("bad {a}" in o and not o.startswith("raise") for o in originals)
    assert '"message text"' not in originals
    assert ("delete", "LIMIT = 3", "pass") not in made  # module-level statements stay


def test_every_mutant_compiles_and_changes_only_its_own_span():
    found = mutants.mutants_of("shapes.py", SHAPES)
    assert len({m.key for m in found}) == len(found)
    for m in found:
        text = m.apply(SHAPES)
        assert mutants.compiles("shapes.py", text), m.key
        assert text[:m.start] == SHAPES[:m.start]
        assert text[m.start + len(m.replacement):] == SHAPES[m.end:]
        assert SHAPES[m.start:m.end] == m.original


def test_spans_stay_right_past_odd_line_breaks_and_wide_characters():
    # \x0c and \u2028 break lines for str.splitlines but not for Python's parser
    source = ('LABEL = "전투 \u2028 戦闘"  # \x0c\n'
              'def f(x):\n    """Doc."""\n    return x < 3 and "é" == LABEL\n')
    found = mutants.mutants_of("odd.py", source)
    assert ("compare", "x < 3", "(x >= 3)") in {(m.operator, m.original, m.replacement)
                                               for m in found}
    for m in found:
        assert source[m.start:m.end] == m.original
        assert mutants.compiles("odd.py", m.apply(source)), m.key


def test_keys_do_not_move_when_unrelated_lines_do():
    before = [m.key for m in mutants.mutants_of("shapes.py", SHAPES)]
    moved = SHAPES.replace("LIMIT = 3\n", "LIMIT = 3\nOTHER_NAME = 'unrelated'\n\n")
    after = [m.key for m in mutants.mutants_of("shapes.py", moved)]
    assert before == after


def test_the_sample_is_fixed_by_its_seed():
    found = mutants.mutants_of("shapes.py", SHAPES)
    one = [m.key for m in mutants.sample(found, 5, seed=7)]
    assert one == [m.key for m in mutants.sample(found, 5, seed=7)]
    assert len(one) == 5
    assert any([m.key for m in mutants.sample(found, 5, seed=s)] != one for s in range(8, 12))
    assert mutants.sample(found, len(found) + 1, seed=7) == found


def test_a_file_maps_to_its_rooms_tests():
    assert mutants.room_tests("pi_app/rules/strike/engine.py")[0] == "tests/strike"
    assert "tests/variants" in mutants.room_tests("pi_app/rules/variants/mission.py")
    assert "tests/test_journal.py" in mutants.room_tests("pi_app/journal.py")
    with pytest.raises(SystemExit):
        mutants.room_tests("pi_app/web/app.py")


# A tiny project: a rule module and its tests, which catch some mutants and miss others.
RULE = '''"""A fixture rule for the mutation tool's test."""
import time

PAUSE = 0


def defender_wins(attack: int, defence: int) -> bool:
    """Ties go to the defender."""
    time.sleep(PAUSE * 600)
    return attack <= defence


def dice_for(armies: int) -> int:
    """One die at least, three at most."""
    if armies < 1:
        return 1
    return min(3, armies)
'''
RULE_TESTS = '''from rule import defender_wins, dice_for


def test_ties_go_to_the_defender():
    assert defender_wins(4, 4)
    assert not defender_wins(5, 4)


def test_three_dice_at_most():
    assert dice_for(9) == 3
    assert dice_for(1) == 1
'''


def tree_digest(root: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def fixture_project(tmp_path: Path) -> tuple[Path, dict]:
    project = tmp_path / "project"
    project.mkdir()
    (project / "rule.py").write_text(RULE, encoding="utf-8")
    (project / "test_rule.py").write_text(RULE_TESTS, encoding="utf-8")
    return project, {(m.operator, m.original, m.replacement): m
                     for m in mutants.mutants_of("rule.py", RULE)}


def test_a_run_tells_caught_from_survived_from_equivalent_and_leaves_the_tree_alone(
        tmp_path):
    project, found = fixture_project(tmp_path)
    flip = found["compare", "attack <= defence", "(attack > defence)"]  # the tests see it
    untested = found["constant", "1", "(2)"]  # `return 1` for no armies: no test asks
    same = found["boundary", "armies < 1", "(armies <= 1)"]  # min(3, 1) is 1 anyway
    verdicts = tmp_path / "equivalent.json"
    verdicts.write_text(json.dumps({"equivalent": {same.key: "min(3, 1) is also 1"}}),
                        encoding="utf-8")
    before = tree_digest(project)

    results = mutants.run(project, [flip, untested, same], timeout=300,
                          equivalent=mutants.load_equivalent(verdicts),
                          tests=["test_rule.py"], echo=lambda line: None)

    assert [r.verdict for r in results] == ["caught", "survived", "equivalent"]
    assert "test_ties_go_to_the_defender" in results[0].detail
    assert results[2].detail == "min(3, 1) is also 1"
    assert mutants.score(results) == (1, 2, 50.0)
    summary = mutants.report(results, project)
    assert untested.key in summary and "-        return 1" in summary
    assert tree_digest(project) == before


def test_a_mutant_that_hangs_is_stopped_counted_caught_and_taken_out_again(tmp_path):
    project, found = fixture_project(tmp_path)
    hang = found["constant", "0", "(1)"]  # PAUSE = 1: the tests would sleep ten minutes
    with mutants.Workspace(project) as ws:
        outcome, _, _ = ws.run_tests(["test_rule.py"], 2, hang)
        assert outcome == "timeout"
        assert (ws.path / "rule.py").read_text(encoding="utf-8") == RULE
    assert mutants.score([mutants.Result(hang, "timeout")]) == (1, 1, 100.0)
