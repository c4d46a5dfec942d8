"""README.md stays true: its Python examples run, and its two commands are the real ones."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_python_examples_in_the_readme_run():
    blocks = re.findall(r"```python\n(.*?)```", README, flags=re.S)
    assert blocks, "README should show the rules API in a python block"
    for block in blocks:
        namespace: dict[str, object] = {}
        exec(compile(block, "README.md", "exec"), namespace)
    state = namespace["state"]
    assert state.phase == "claim"  # the comment in the example says so


def test_the_two_commands_are_make_targets_and_ci_runs_the_test_one():
    commands = re.findall(r"^\| [^|]+ \| `(make [a-z]+)` \|$", README, flags=re.M)
    assert commands == ["make run", "make test"]
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    for command in commands:
        assert re.search(rf"^{command.split()[1]}:", makefile, flags=re.M), command
    assert "make test" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_every_cli_subcommand_in_the_readme_exists():
    from pi_app.cli import build_parser

    parser = build_parser()
    subcommands = set(parser._subparsers._group_actions[0].choices)  # type: ignore[union-attr]
    options = {option for action in parser._actions for option in action.option_strings}
    named = set(re.findall(r"`riskboard ([a-z-]+)", README))
    assert named, "README should list the command line"
    words = {n for n in named if not n.startswith("-")}
    assert words <= subcommands, words - subcommands
    assert named - words <= options, (named - words) - options  # `riskboard --version`
