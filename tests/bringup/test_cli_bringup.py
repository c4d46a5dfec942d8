"""`riskboard bringup --print-steps` lists the steps with the actions the board in use needs
and the power check against the config's supply."""

from __future__ import annotations

from pi_app.cli import main


def test_print_steps_gives_one_touch_per_territory_and_the_power_check(capsys, tmp_path):
    config = tmp_path / "riskboard.toml"
    config.write_text('[board]\nprofile = "classic-42-nfc"\n[leds]\nbrightness = 0.3\n'
                      "supply_amps = 4.0\n", "utf-8")
    assert main(["bringup", "--print-steps", "--config", str(config)]) == 0
    out = capsys.readouterr().out
    # 42 sensor touches, 42 LED holds (every territory one stretch of the chain), 6 tokens,
    # 12 markers; power: white at 0.3 is sent as level round(76.5) = 76, so
    # 135 x 3 x 76/255 x 20 mA + 135 x 1 mA idle = 2549 mA, within 4 A less 15 % = 3400 mA
    assert " 3. sensors       " in out and "(42 touches)" in out
    assert "(42 touches, 13 phone taps)" in out
    assert "Total: 102 touches of the board" in out
    assert "draw about 2549 mA; the supply allows 3400 mA (fits)" in out


def test_a_bad_profile_is_named_with_or_without_print_steps(capsys, tmp_path):
    config = tmp_path / "riskboard.toml"
    config.write_text("", "utf-8")
    missing = str(tmp_path / "none.toml")
    assert main(["bringup", "--print-steps", "--profile", missing]) == 1
    assert "does not exist" in capsys.readouterr().err
    assert main(["bringup", "--sim", "--config", str(config), "--profile", missing]) == 1
    assert "does not exist" in capsys.readouterr().err
