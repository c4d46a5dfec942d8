"""The command line lists its subcommands and rejects unknown ones."""

import pytest

from pi_app.cli import build_parser, main


def test_no_subcommand_prints_help_and_exits_2(capsys):
    assert main([]) == 2
    assert "usage: riskboard" in capsys.readouterr().out


def test_unknown_subcommand_is_an_error():
    with pytest.raises(SystemExit) as exc:
        build_parser().parse_args(["no-such-command"])
    assert exc.value.code == 2
