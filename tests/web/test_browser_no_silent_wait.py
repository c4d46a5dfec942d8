"""No silent wait (issue 32), tested the way it was found: whole games at the real table,
every page read at every step.

A Classic game with two computer seats (Blue and Green) and Red on a phone is played from
the claims to a win. Whenever the table waits — for Red, or for the people at the board to
copy a computer's step and press Confirm, also when the next seat is a computer too (the
46 silent waits of one game night: every claim, every setup placement, ends of turn) —
My view of Red, the table view and /virtual must each say it: the awaited seat by name and,
for a computer's step (a phase's moves, issue 32.2), who played it, where, what the board
must show and what to press. Then the
winner, the seed and the link to /dice. A RISK Strike game with a computer seat is played
for a few turns the same way and then ended by the host: every page says so, also after a
reload.

The awaited seat and the held step come from the table itself (`ComputerSeats.public()`
and the rules' `awaiting_players`), their words from the catalogues; each page must also
say the table's own sentences (`table.waits`, worded by `saying.py`)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from pi_app.computer.simple_bot import SimpleBot
from pi_app.computer.strike_bot import StrikeBot
from pi_app.rules import awaiting_players, is_strike
from pi_app.rules.strike import waiting_for
from pi_app.table.loop import NewGameSpec
from pi_app.table_api import Viewer

from .browsing import ARTIFACTS, shot
from .saying import words_of
from .test_browser_game_night import CLASSIC, pages, press, say, until

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PLACES = {"me": "#state-sentence", "view": "#banner", "virtual": "#v-state"}
STRIKE = NewGameSpec("strike", ("red", "blue"), {"reaction_seconds": 600})
# the page shows the message of `rev` (or a later one) and says every one of `parts`
SAYS = """([selector, parts, rev]) => {
  const node = document.querySelector(selector);
  return Number(document.body.dataset.seq) >= rev && !!node
    && parts.every((p) => node.textContent.includes(p));
}"""


@pytest.fixture(autouse=True)
def _browser(chromium):
    pages.chromium = chromium


def moment(table) -> tuple[int, Any, dict, dict, dict | None]:
    """(revision, state, the public `waits`, Red's `waits`, the computer's held step), all
    of one published snapshot (read again until they agree)."""
    service = table.app.extensions["riskboard"].table
    while True:
        public, red = service.view(Viewer("spectator")), service.view(Viewer("player", "red"))
        state, hold = table.loop.call(lambda core: (core.state.copy(),
                                                    core.computers.public()["holding"]))
        if public["seq"] == red["seq"] == table.mark()[1]:
            return public["seq"], state, public["table"]["waits"], red["table"]["waits"], hold


def expect(pages_: dict, rev: int, said: dict[str, list[str]], step: str) -> None:
    """Each page shows revision `rev` and says `said[page]`."""
    for name, parts in said.items():
        page = pages_[name]
        try:
            page.wait_for_function(SAYS, arg=[PLACES[name], parts, rev], timeout=30000)
        except Exception as e:
            now = page.evaluate("s => (document.querySelector(s) || {}).textContent",
                                PLACES[name])
            raise AssertionError(f"{step}: the {name} page does not say {parts!r}: "
                                 f"{now!r}") from e


def held_words(lang: str, hold: dict, state) -> list[str]:
    """A held step in words, from the table's hold: each seat that played it (the claims of
    consecutive computer seats are one step), each territory its moves name, each territory
    the board must show with its armies and owner, and what to press."""
    moves = hold.get("moves") or []
    assert moves, hold
    who = [say(lang, "log.computer.who", player=say(lang, f"colour.{p}"))
           for p in dict.fromkeys(m["player"] for m in moves)]
    places = [say(lang, f"territory.{m[k]}") for m in moves
              for k in ("territory", "source", "target") if m.get(k)]
    board = [say(lang, "computer.board_part", territory=say(lang, f"territory.{t}"),
                 n=state.armies[t], owner=say(lang, f"colour.{state.owner[t]}"))
             for t in dict.fromkeys(hold["territories"])]
    return [*who, *dict.fromkeys(places), *board, say(lang, "vboard.button.confirm")]


def check_moment(pages_: dict, table, lang: str, seen: Counter) -> dict:
    """Every page says what the table waits for now; the public `waits` it read."""
    rev, state, public, red, hold = moment(table)
    step = f"{public['step']}@{rev}"
    said = {"me": [words_of(lang, s) for s in red["says"]["seat"]],
            "view": [words_of(lang, s) for s in public["says"]["banner"]],
            "virtual": [words_of(lang, s) for s in public["says"]["line"]]}
    if public["hand"] == "table":
        # the silent wait: the table holds a computer's step until Confirm
        assert hold is not None and public["seats"] == [hold["player"]], (step, public, hold)
        words = held_words(lang, hold, state)
        for name in said:  # (an eliminated Red's phone says that it was)
            if name != "me" or "red" not in state.eliminated:
                said[name] = [*said[name], *words]
        seen["held"] += 1
        nxt = (waiting_for(state) if is_strike(state) else awaiting_players(state))
        if nxt and nxt[0] not in hold["players"]:  # the turn has passed: silent before
            seen["held, the turn passed"] += 1
            if nxt[0] in ("blue", "green"):
                seen["held, the next seat a computer"] += 1
    elif public["hand"] == "seat":
        seats = waiting_for(state) if is_strike(state) else awaiting_players(state)
        assert public["seats"] == seats and "red" in seats, (step, public)
        if seats != ["red"]:
            return public  # a computer answers the same window by itself: no still moment
        name = say(lang, "colour.red")
        said["view"].append(name)
        said["virtual"].append(name)
        assert red["you"], step
        seen["red"] += 1
    elif public["status"] == "over":
        seen["over"] += 1
    else:
        return public  # a computer deciding at once: it moves on by itself
    expect(pages_, rev, said, step)
    return public


def red_plays(table, state) -> None:
    bot: Any = StrikeBot() if is_strike(state) else SimpleBot()
    table.play("red", bot.choose(state, "red").to_dict())


def test_a_classic_game_with_two_computer_seats_has_no_silent_wait_on_any_page(tables):
    table = tables(CLASSIC, seed=b"\x03")
    assert table.state().phase == "claim"
    table.loop.call(lambda core: core.host_action(
        "computer", {"seats": {"blue": "easy", "green": "easy"}}))
    seen: Counter = Counter()
    lang = "en"
    with pages(table, lang, "red") as (me, view, virtual):
        opened = {"me": me, "view": view, "virtual": virtual}
        for _ in range(20000):
            public = check_moment(opened, table, lang, seen)
            if public["status"] == "over":
                break
            before = table.mark()
            if public["hand"] == "table":
                press(table, "confirm")
            elif public["hand"] == "seat":
                red_plays(table, table.state())
            # a computer deciding at once (a defence, a move-in): it plays by itself
            until(me, lambda b=before: table.mark() != b)
        else:
            raise AssertionError("the game never ended")
        state = table.state()
        seed = table.loop.call(lambda core: core.dice_record())["seed"]
        winner = say(lang, f"colour.{state.winner}")
        rev = table.mark()[1]
        expect(opened, rev, {"me": [seed], "view": [say(lang, "banner.won", player=winner), seed],
                             "virtual": [say(lang, "vboard.won", player=winner), seed]}, "won")
        for name, page in opened.items():
            link = page.locator(f"{PLACES[name]} a[data-dice-link]")
            assert link.get_attribute("href") == "/dice"
        shot(view, "no-silent-wait-classic-won")
    (ARTIFACTS / "no-silent-wait-classic.txt").write_text(str(dict(seen)), "utf-8")
    # the game had the waits that were silent: held steps, also with a computer next
    assert seen["held"] >= 20 and seen["held, the turn passed"] >= 10, seen
    assert seen["held, the next seat a computer"] >= 1, seen
    assert seen["red"] >= 20 and seen["over"] == 1, seen


def test_a_strike_game_with_a_computer_seat_says_every_wait_then_its_end_by_the_host(tables):
    table = tables(STRIKE, seed=b"\x04")
    table.loop.call(lambda core: core.host_action("computer", {"seats": {"blue": "normal"}}))
    seen: Counter = Counter()
    lang = "ko"
    with pages(table, lang, "red") as (me, view, virtual):
        opened = {"me": me, "view": view, "virtual": virtual}
        while table.state().turn < 6 and table.state().winner is None:
            public = check_moment(opened, table, lang, seen)
            before = table.mark()
            if public["hand"] == "seat":
                red_plays(table, table.state())
            until(me, lambda b=before: table.mark() != b)
        assert seen["red"] >= 10, seen
        seed = table.loop.call(lambda core: core.host_action("end_game", {}))["seed"]
        ended = say(lang, "over.ended_by_host")
        public = check_moment(opened, table, lang, seen)
        assert public["status"] == "over" and seen["over"] == 1
        expect(opened, table.mark()[1], {name: [ended, seed] for name in PLACES}, "ended")
        assert me.locator("#strike-actions button").count() == 0
        for page in (me, view):
            page.reload()
            page.wait_for_selector("#conn.ok")
        expect(opened, table.mark()[1], {name: [ended, seed] for name in PLACES}, "reloaded")
        assert me.locator("#strike-actions button").count() == 0
        shot(me, "no-silent-wait-strike-ended-ko")
