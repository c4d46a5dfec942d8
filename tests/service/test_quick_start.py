"""A quick command line and a quick serve (issue 15 item 4): each subcommand imports only
what it uses; serve answers its pages while the table is still starting."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections import Counter
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest

from pi_app import cli
from pi_app.rules.odds import battle_odds, one_roll
from pi_app.table.starting import StartingTable
from pi_app.table_api import CommandRejected
from pi_app.version import installed_version
from pi_app.web import create_app


def modules_after(code: str) -> set[str]:
    """The modules a fresh interpreter has loaded after running `code`."""
    out = subprocess.run(
        [sys.executable, "-c", code + "\nimport sys, json\n"
         "print(json.dumps(sorted(sys.modules)), file=sys.stderr)"],
        capture_output=True, text=True, check=True)
    return set(json.loads(out.stderr.strip().splitlines()[-1]))


HEAVY = {"pi_app.rules", "flask", "sqlite3", "gpiozero", "waitress", "pi_app.journal"}


def test_odds_loads_neither_the_rules_engine_nor_the_web_nor_sqlite():
    loaded = modules_after("from pi_app.cli import main\nmain(['odds', '10', '10', '--json'])")
    assert "pi_app.cli.odds" in loaded
    assert not HEAVY & loaded, HEAVY & loaded
    assert not {m for m in loaded if m.startswith("pi_app.cli.") and m != "pi_app.cli.odds"}


def test_help_loads_no_subcommand_module():
    loaded = modules_after("from pi_app.cli import main\ntry:\n    main(['--help'])\n"
                           "except SystemExit:\n    pass")
    assert not {m for m in loaded if m.startswith("pi_app.cli.")}
    assert not HEAVY & loaded


def test_each_subcommand_is_listed_with_its_own_help_line():
    parser = cli.build_parser()  # every module, registered in full
    action = parser._subparsers._group_actions[0]  # type: ignore[union-attr]
    helps = {a.dest: a.help for a in action._choices_actions}
    assert helps == {name: line for name, (_, line) in cli.SUBCOMMANDS.items()}
    modules = {p.stem for p in Path(cli.__file__).parent.glob("*.py")
               if "def register(" in p.read_text(encoding="utf-8")}
    assert modules == {module for module, _ in cli.SUBCOMMANDS.values()}


def test_a_subcommand_still_gets_its_own_options_and_help(capsys):
    with pytest.raises(SystemExit):
        cli.main(["serve", "--help"])
    assert "--autoplay" in capsys.readouterr().out


def test_odds_on_its_own_equal_the_rules_engines():
    from pi_app.cli.odds import battle_odds_function

    assert battle_odds_function()(10, 10).to_dict() == battle_odds(10, 10).to_dict()


@pytest.mark.parametrize(("attack", "defence"), list(product((1, 2, 3), (1, 2))))
def test_one_roll_counts_every_roll(attack, defence):
    counts: Counter[tuple[int, int]] = Counter()
    for faces in product(range(1, 7), repeat=attack + defence):
        a = sorted(faces[:attack], reverse=True)
        d = sorted(faces[attack:], reverse=True)
        lost = sum(1 for x, y in zip(a, d) if x <= y)
        counts[(lost, min(attack, defence) - lost)] += 1
    total = 6 ** (attack + defence)
    assert one_roll(attack, defence) == {k: Fraction(n, total) for k, n in counts.items()}


def test_pages_answer_while_the_table_starts_and_the_api_waits_for_it(tmp_path):
    table = StartingTable(wait_s=30)
    client = create_app(table, host_pin="135790", data_dir=tmp_path).test_client()
    assert client.get("/").status_code == 200  # no table needed for the page
    answers = {}
    asking = threading.Thread(
        target=lambda: answers.update(status=client.get("/api/status").get_json()))
    asking.start()
    asking.join(0.3)
    assert asking.is_alive()  # waits for the table rather than failing

    class Table:
        def status(self):
            return {"loop": {"running": True}}

    table.attach(Table())
    asking.join(10)
    # asked from this machine: the table's whole status, and which riskboard it is
    assert answers["status"] == {"loop": {"running": True}, "version": installed_version()}


def test_a_table_that_cannot_start_is_a_503_with_a_sentence(tmp_path):
    table = StartingTable(wait_s=30)
    client = create_app(table, host_pin="135790", data_dir=tmp_path).test_client()
    table.fail("it could not start (no such board profile 'x')")
    answer = client.get("/api/status")
    assert answer.status_code == 503
    assert "The table is not ready: it could not start (no such board profile 'x')." in \
        answer.get_data(as_text=True)
    with pytest.raises(CommandRejected):
        table.status()



def test_the_journals_seats_are_adopted_once_the_table_is_up(tmp_path):
    from pi_app.cli.serve import adopt_journaled_seats

    table = StartingTable(wait_s=30)
    app = create_app(table, host_pin="135790", data_dir=tmp_path)  # must not wait
    stored = []

    class Service:
        def seat_tokens(self):
            return {"red": "journaled-red-token", "blue": "journaled-blue-token"}

        def store_seat_tokens(self, tokens):
            stored.append(tokens)

    adopt_journaled_seats(app, Service(), tmp_path)
    seats = app.extensions["riskboard"].seats
    assert seats.unclaimed_token("red") == "journaled-red-token"
    new = seats.reissue("blue")
    assert stored == [{"red": "journaled-red-token", "blue": new}]  # journaled first
