"""A computer's moves at the table (issue 23.1): while a computer seat waits for its step to
be copied onto the board, the table view and My view mark the territories it holds, and each
of its moves (placements, attacks, conquests and moves) is said once in each of the three
logs: My view's, the table view's and /virtual's. The real table behind the real pages, in
headless Chromium at 360×640; expected words come from the catalogues."""

from __future__ import annotations

from collections import Counter

import pytest

from pi_app.table_api import Viewer

from .browsing import shot
from .real_table import reach
from .saying import words_of
from .test_browser_game_night import (
    CLASSIC,
    _events,
    pages,
    press,
    say,
    until,
    wait_text,
)

COMPUTERS = ("blue", "green")
PICKED = "() => [...document.querySelectorAll('#map g.tile.picked')].map((g) => g.dataset.id)"
# the announcement of a step whose result the log says itself: never a second line
ANNOUNCED_BY_RESULT = {"place": "placed", "attack": "battle", "blitz": "battle",
                       "fortify": "fortified", "move_in": "moved_in"}


@pytest.fixture(autouse=True)
def _browser(chromium):
    pages.chromium = chromium


def line(lang: str, ev: dict, page: str) -> str | None:
    """The log line `page` ("me", "view" or "virtual") gives a move's event, from the
    catalogue (None: not a move)."""
    def who(p: str) -> str:
        return say(lang, f"colour.{p}")

    def where(t: str) -> str:
        return say(lang, f"territory.{t}")

    kind = ev["type"]
    if kind == "placed":
        return say(lang, "log.placed", player=who(ev["player"]), n=ev.get("count") or 1,
                   territory=where(ev["territory"]))
    if kind == "battle":
        dice = ((len(ev["attack_dice"]), len(ev["defence_dice"])) if page != "virtual" else
                (" ".join(map(str, ev["attack_dice"])), " ".join(map(str, ev["defence_dice"]))))
        return say(lang, "log.battle", attacker=who(ev["attacker"]), to=where(ev["to"]),
                   **{"from": where(ev["from"])}, a=dice[0], d=dice[1],
                   al=ev["attacker_losses"], dl=ev["defender_losses"])
    if kind == "conquered":
        return say(lang, "log.conquered", player=who(ev["player"]), to=where(ev["to"]),
                   defender=who(ev["defender"]))
    if kind == "moved_in":
        return say(lang, "log.moved_in", player=who(ev["player"]), n=ev["count"],
                   to=where(ev["to"]))
    if kind == "fortified":
        return say(lang, "log.fortified", player=who(ev["player"]), n=ev["count"],
                   to=where(ev["to"]), **{"from": where(ev["from"])})
    return None


def announcement(lang: str, ev: dict) -> str:
    """A computer step's announcement line, as log-lines.js computerLine words it."""
    c = ev["command"]
    n = c["count"] if "count" in c else c.get("dice")
    return say(lang, f"log.computer.{c['type']}", n=n,
               player=say(lang, "log.computer.who", player=say(lang, f"colour.{ev['player']}")),
               to=say(lang, f"territory.{c.get('target') or c['territory']}") if (
                   c.get("target") or c.get("territory")) else "",
               territory=say(lang, f"territory.{c['territory']}") if c.get("territory") else "",
               **{"from": say(lang, f"territory.{c['source']}") if c.get("source") else ""})


def log_lines(page, name: str, lang: str, turns: list[tuple[int, str]], since: int) -> list[str]:
    """The lines of `page`'s log about `turns` (My view, table view: those turns' groups;
    /virtual: the lines of updates after `since`)."""
    if name == "virtual":
        return page.evaluate("s => [...document.querySelectorAll('#log li')]"
                             ".filter((li) => Number(li.dataset.seq) > s)"
                             ".map((li) => li.textContent)", since)
    titles = [say(lang, "log.turn", n=n, player=say(lang, f"colour.{p}")) for n, p in turns]
    return page.evaluate("""titles => [...document.querySelectorAll('#log > li.turn')]
        .filter((g) => titles.includes(g.querySelector('.turn-title').textContent))
        .flatMap((g) => [...g.querySelectorAll('ol > li')].map((li) => li.textContent))""",
                         titles)


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_computers_held_move_is_marked_and_each_move_is_logged_once_on_every_page(
        tables, lang):
    table = reach(tables, CLASSIC, lambda s: s.phase == "reinforce" and s.current_player == "red"
                  and s.turn >= 2 and len(s.hands["red"]) < 5)
    table.loop.call(lambda core: core.host_action(
        "computer", {"seats": {p: "normal" for p in COMPUTERS}}))
    since = table.mark()[1]
    with pages(table, lang, "red") as (me, view, virtual):
        table.bot_until(lambda s: s.current_player != "red")  # red's turn ends: blue plays
        holds = 0
        while table.state().current_player != "red" and table.state().winner is None:
            hold = table.loop.call(lambda core: core.computers.public()["holding"])
            state = table.state()
            if hold is None:
                if state.pending and state.pending["player"] == "red":  # red defends
                    table.play("red", {"type": "choose_defence",
                                       "dice": state.pending["max_dice"]})
                else:
                    before = table.mark()
                    until(me, lambda b=before: table.mark() != b or table.loop.call(
                        lambda core: core.computers.public()["holding"]) is not None)
                continue
            # the held step: its territories, and only they, are marked on both maps
            revision = table.mark()[1]
            for page in (me, view):
                page.wait_for_function("s => Number(document.body.dataset.seq) >= s",
                                       arg=revision, timeout=30000)
                assert sorted(page.evaluate(PICKED)) == sorted(set(hold["territories"])), (
                    hold, page.url)
            # the banner says the held step as the table words it (a phase's moves added up,
            # issue 32.2), and `announcement` words a move as the pages' log does
            # (log-lines.js computerLine), so its absence from the logs below means something
            said = table.app.extensions["riskboard"].table.view(Viewer("spectator"))[
                "table"]["waits"]["says"]["computer"]
            wait_text(view, "#banner", words_of(lang, said))
            held = [e for e in _events(table, since) if e["type"] == "computer_move"][-1]
            assert view.evaluate("async (ev) => (await import('/static/log-lines.js'))"
                                 ".computerLine(ev)", held) == announcement(lang, held)
            if holds == 2:
                shot(me, f"computer-hold-me-{lang}")
                shot(view, f"computer-hold-table-{lang}")
            holds += 1
            before = table.mark()
            press(table, "confirm")
            until(me, lambda b=before: table.mark() != b)
        assert holds >= 3
        events = _events(table, since)
        turns = [(e["turn"], e["player"]) for e in events if e["type"] == "turn_started"
                 and e["player"] in COMPUTERS]
        moves = [e for e in events if (e.get("player") or e.get("attacker")) in COMPUTERS]
        kinds = {e["type"] for e in moves}
        assert {"placed", "battle"} <= kinds and kinds & {"moved_in", "fortified"}, kinds
        revision = table.mark()[1]
        for name, page in (("me", me), ("view", view), ("virtual", virtual)):
            page.wait_for_function("s => Number(document.body.dataset.seq) >= s",
                                   arg=revision, timeout=30000)
            said = Counter(log_lines(page, name, lang, turns, since))
            expected = Counter(text for e in moves if (text := line(lang, e, name)))
            assert expected and {t: said[t] for t in expected} == dict(expected), name
            # a step whose result has its own line is not announced again
            announced = [e for e in events if e["type"] == "computer_move"
                         and e["command"]["type"] in ANNOUNCED_BY_RESULT]
            assert announced
            again = [announcement(lang, e) for e in announced]
            assert not [t for t in again if said[t]], name
        shot(virtual, f"computer-hold-virtual-{lang}")
