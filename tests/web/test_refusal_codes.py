"""Refusals a person reads on the host, dice and virtual pages carry a stable code and the
parameters the page's words are filled with; the English sentence stays in `message` (and
`fields`) for API users and the CLI.

A refused new game names each bad field by code (`problems`), and every code the server can
give has words in all four catalogues whose placeholders the answer's parameters fill."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pi_app.web import create_app
from pi_app.web.limits import PinGuard, RateLimiter
from pi_app.web.pages import LANGUAGES

from .conftest import PIN, host

ROOT = Path(__file__).resolve().parents[2]
WORDS = {lang: json.loads((ROOT / "pi_app" / "web" / "i18n" / f"{lang}.json").read_text("utf-8"))
         for lang in LANGUAGES}
PLACEHOLDER = re.compile(r"\{(\w+)\}")
RGB = ["red", "blue", "green"]

# (request body, bad field, its code, the parameters the page words it with)
NEW_GAME_PROBLEMS = [
    ({"variant": "risk2210", "players": RGB}, "variant", "variant_unknown",
     {"given": '"risk2210"', "choices": ["classic", "mission", "capital", "two-player",
                                         "allied", "strike"]}),
    ({"variant": "classic", "players": ["red", "red", "blue"]}, "players", "players_colours",
     {"choices": ["red", "blue", "green", "yellow", "black", "pink"]}),
    ({"variant": "two-player", "players": RGB}, "players", "players_exactly",
     {"variant": "two-player", "min": 2, "max": 2, "chosen": 3}),
    ({"variant": "classic", "players": ["red", "blue"]}, "players", "players_between",
     {"variant": "classic", "min": 3, "max": 6, "chosen": 2}),
    ({"variant": "classic", "players": RGB, "house_rules": [1]}, "house_rules",
     "house_rules_not_object", {}),
    ({"variant": "strike", "players": ["red", "blue"], "house_rules": {"fortify": "adjacent"}},
     "house_rules.fortify", "rule_unknown", {"rule": "fortify", "variant": "strike"}),
    ({"variant": "classic", "players": RGB, "house_rules": {"physical_dice": "yes"}},
     "house_rules.physical_dice", "rule_bool", {"rule": "physical_dice", "given": '"yes"'}),
    ({"variant": "classic", "players": RGB, "house_rules": {"fortify": "diagonal"}},
     "house_rules.fortify", "rule_choice",
     {"rule": "fortify", "given": '"diagonal"', "choices": ["connected", "adjacent"]}),
    ({"variant": "strike", "players": ["red", "blue"],
      "house_rules": {"reaction_seconds": 601}}, "house_rules.reaction_seconds", "rule_int",
     {"rule": "reaction_seconds", "given": "601", "low": 0, "high": 600}),
    ({"variant": "two-player", "players": ["red", "blue"],
      "house_rules": {"two_player_placement": [0, 1]}}, "house_rules.two_player_placement",
     "rule_pair", {"rule": "two_player_placement", "given": "[0, 1]", "first": "own",
                   "second": "neutral", "low": 0, "high": 10}),
    ({"variant": "classic", "players": RGB, "faces": [3, 4, 5]}, "faces",
     "faces_not_physical", {}),
    ({"variant": "classic", "players": RGB, "house_rules": {"physical_dice": True},
      "faces": [7]}, "faces", "faces_bad", {"max": 60}),
]


def fills(key: str, params: dict) -> None:
    """`key` has words in every language, and `params` fills each of their placeholders."""
    for lang, words in WORDS.items():
        assert key in words, f"{lang} has no {key}"
        assert set(PLACEHOLDER.findall(words[key])) <= set(params), (lang, key, params)


@pytest.mark.parametrize(("body", "field", "code", "params"), NEW_GAME_PROBLEMS,
                         ids=[case[2] for case in NEW_GAME_PROBLEMS])
def test_each_new_game_problem_has_a_code_its_parameters_and_an_english_sentence(
        client, table, body, field, code, params):
    before = table.game_id
    res = client.post("/api/host/new_game", headers=host(), json=body)
    assert res.status_code == 400
    error = res.get_json()["error"]
    assert error["problems"][field] == {"code": code, "params": params}
    assert set(error["problems"]) == set(error["fields"]) == {field}
    assert error["fields"][field] in error["message"]
    assert not re.search(r"\{\w+\}", error["fields"][field]), "English is a whole sentence"
    fills(f"problem.{code}", params)
    fills(f"error.{error['code']}", error.get("params", {}))
    assert table.game_id == before, "a refused new game changes nothing"


def test_every_problem_code_the_server_can_give_is_tested():
    source = (ROOT / "pi_app" / "web" / "variants.py").read_text("utf-8")
    declared = set(re.findall(r'Problem\(\s*"(\w+)"', source))
    declared |= set(re.findall(r'"players_exactly" if .* else "(\w+)"', source))
    declared |= {f"rule_{kind}" for kind in re.findall(r'RuleField\("\w+", "(\w+)"', source)}
    assert declared == {case[2] for case in NEW_GAME_PROBLEMS}


def test_a_form_with_several_bad_fields_names_each_by_code(client):
    res = client.post("/api/host/new_game", headers=host(), json={
        "variant": "two-player", "players": RGB, "house_rules": {"setup": "claim"}})
    error = res.get_json()["error"]
    assert error["code"] == "bad_new_game"
    assert {name: p["code"] for name, p in error["problems"].items()} == {
        "players": "players_exactly", "house_rules.setup": "rule_unknown"}
    fills("error.bad_new_game", {})


def test_a_rate_limited_request_says_how_long_to_wait(tmp_path, served_table):
    app = create_app(served_table(), host_pin=PIN, data_dir=tmp_path / "d",
                     read_rate=(0.01, 3))
    client = app.test_client()
    answers = [client.get("/api/dice") for _ in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    error = answers[-1].get_json()["error"]
    assert error["code"] == "rate_limited"
    wait = error["params"]["wait"]
    assert isinstance(wait, int) and 1 <= wait <= 101  # one request refills in 100 s
    assert f"wait {wait} s" in error["message"]
    fills("error.rate_limited", error["params"])


@pytest.fixture
def pin_client(app):
    """The app with the PIN limits on a stopped clock (nothing refills during the test)."""
    c = app.extensions["riskboard"]
    c.pin_limit = RateLimiter(5 / 60, 5, clock=lambda: 1000.0)
    c.pin_total = RateLimiter(30 / 60, 30, clock=lambda: 1000.0)
    c.pin_guard = PinGuard(c.pin_limit, c.pin_total)
    return app.test_client()


def test_wrong_pins_are_refused_with_the_seconds_to_wait(pin_client):
    def ask(address: str, pin: str):
        return pin_client.get("/api/host/check", headers=host(pin),
                              environ_base={"REMOTE_ADDR": address}).get_json()["error"]

    assert ask("127.0.0.1", "00000000")["code"] == "bad_pin"
    for n in range(4):
        ask("127.0.0.1", f"1111111{n}")
    device = ask("127.0.0.1", PIN)
    assert device["code"] == "rate_limited"
    assert 12 <= device["params"]["wait"] <= 13  # five a minute: one forgiven every 12 s
    fills("error.rate_limited", device["params"])
    for n in range(30):
        ask(f"127.0.1.{n}", f"2222{n:04d}")
    table = ask("127.0.2.1", "33333333")
    assert table["code"] == "pin_guessing" and table["params"]["wait"] >= 1
    assert f"Wait {table['params']['wait']} s" in table["message"]
    fills("error.pin_guessing", table["params"])


def test_seat_refusals_name_the_seat(client):
    taken = client.post("/api/host/new_game", headers=host(),
                        json={"variant": "classic", "players": RGB})
    assert taken.status_code == 200
    unknown = client.get("/api/host/seats/pink/code", headers=host()).get_json()["error"]
    assert unknown == {"code": "unknown_seat", "message": "No seat 'pink' in this game.",
                       "params": {"colour": "pink"}}
    fills("error.unknown_seat", unknown["params"])


def test_every_refusal_code_of_the_web_and_the_table_has_words():
    codes = set()
    for path in [*(ROOT / "pi_app" / "web").glob("*.py"), *(ROOT / "pi_app" / "table").glob("*.py"),
                 ROOT / "pi_app" / "web" / "limits.py"]:
        text = path.read_text("utf-8")
        codes |= set(re.findall(r'ApiError\(\d+, "(\w+)"', text))
        codes |= set(re.findall(r'CommandRejected\(\s*"(\w+)"', text))
        codes |= set(re.findall(r'PinVerdict\(False, \d+, "(\w+)"', text))
        codes |= {f"bad_{group}" for group in ("variant", "players", "house_rules", "faces",
                                               "new_game")}
    assert len(codes) > 40
    for code in sorted(codes):
        fills(f"error.{code}", {"wait", "colour"} if code in (
            "rate_limited", "pin_guessing", "seat_taken", "unknown_seat", "code_rate_limited",
            "code_guessing") else {})
