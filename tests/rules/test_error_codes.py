"""Every rejection code the board engine raises is documented and tested; doctests pass.

The board engine's modules are scanned (`pi_app/rules/*.py` and `pi_app/rules/variants/`);
RISK Strike (`pi_app/rules/strike/`) keeps its own code list and tests.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re
from pathlib import Path

import pi_app.rules
import pi_app.rules.variants
from pi_app.rules.errors import ERROR_CODES

RULES_DIR = Path(pi_app.rules.__file__).parent
CLASSIC_FILES = [*sorted(RULES_DIR.glob("*.py")), *sorted((RULES_DIR / "variants").glob("*.py"))]


def test_every_raised_code_is_documented_and_every_documented_code_is_raised():
    raised = set()
    for path in CLASSIC_FILES:
        raised |= set(re.findall(r'RuleError\(\s*"([a-z_]+)"', path.read_text("utf-8")))
    assert raised == set(ERROR_CODES)


def test_rules_doctests_pass():
    failures = 0
    for package in (pi_app.rules, pi_app.rules.variants):
        for info in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
            if not info.ispkg:
                failures += doctest.testmod(importlib.import_module(info.name)).failed
    failures += doctest.testmod(pi_app.rules).failed
    assert failures == 0


def test_every_code_has_a_test_expecting_it():
    tests_dir = Path(__file__).parent
    files = [*tests_dir.rglob("*.*"), *(tests_dir.parent / "variants").rglob("*.py")]
    texts = "\n".join(p.read_text("utf-8") for p in files
                      if p.suffix in (".py", ".json") and p.name != Path(__file__).name)
    texts += (tests_dir.parent / "test_simulate_cli.py").read_text("utf-8")
    untested = [code for code in ERROR_CODES if f'"{code}"' not in texts]
    assert untested == []


def test_a_refusal_travels_as_its_code_and_its_sentence():
    """RULES §8: an illegal command is rejected with a stable code and a sentence; that pair
    is what a refusal carries to the table and the pages (`RuleError.to_dict`)."""
    from pi_app.rules import RuleError

    refusal = RuleError("not_adjacent", "Alaska does not border Peru.")
    assert refusal.to_dict() == {"code": "not_adjacent", "message": "Alaska does not border Peru."}

