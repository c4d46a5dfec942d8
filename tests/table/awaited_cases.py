"""Every case of what the table waits for, as the pages receive it (issue 32.7): the JSON
fixture tests/js/awaited.json, which node's tests render in every language
(tests/js/awaited.test.mjs). For each variant, a bot game (test_awaiting's) from its start to
its win, one case per distinct decision (its step and what it says to its seat): the public
object and the views of the awaited seat and of another seat; then the table's own states
(a computer's held step, paused, a game won and one the host ended, no game, a trade-down).

Regenerate it after a change to `pi_app.table.awaiting`:
`.venv/bin/python -m tests.table.awaited_cases` (test_awaited_fixture fails while it is stale).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pi_app.rules import is_strike
from pi_app.table.awaiting import Held, TableFacts
from pi_app.table.kinds import waits as awaiting

from .test_awaiting import VARIANTS, claiming, played, rules_await

FIXTURE = Path(__file__).resolve().parents[1] / "js" / "awaited.json"


SAID = ("status", "step", "says", "decide", "tap", "over", "no_attack")


def _said(view: dict[str, Any]) -> dict[str, Any]:
    """What of a view the pages put in words."""
    return {k: view[k] for k in SAID}


def _views(state: Any, aw: Any, everyone: bool = False) -> dict[str, Any]:
    """The object as the public, the first awaited seat and one other seat read it (or with
    `everyone`, every seat)."""
    seats = list(aw.seats)
    views: dict[str, Any] = {"public": _said(aw.view(None))}
    hands = getattr(state, "hands", {}) or {}
    others = [p for p in state.players if p not in seats] if state else []
    for p in state.players if everyone else [*seats[:1], *others[:1]]:
        views[p] = _said(aw.view(p, list(hands.get(p, []))))
    return views


def _decision_key(views: dict[str, Any]) -> tuple[Any, ...]:
    def keys(sentences: Any) -> tuple[str, ...]:
        return tuple(s.get("key", "") for s in sentences or () if isinstance(s, dict))
    return tuple((who, view["step"], keys(view["says"]["seat"]), keys(view["says"]["banner"]),
                  (view.get("decide") or {}).get("ask", {}).get("key"))
                 for who, view in sorted(views.items()))


def game_cases() -> list[dict[str, Any]]:
    """One case per distinct decision of each variant's bot game, and its end."""
    cases = []
    for variant in VARIANTS:
        seen: set[tuple[Any, ...]] = set()
        last = None
        for state in played(variant):
            last = state
            if state.winner is not None:
                break
            aw = awaiting(state, TableFacts())
            views = _views(state, aw)
            key = _decision_key(views)
            if key in seen:
                continue
            seen.add(key)
            cases.append({"case": f"{variant} {aw.step} #{len(seen)}", "seats": rules_await(state),
                          "strike": is_strike(state), "views": views})
        assert last is not None and last.winner is not None
        won = awaiting(last, TableFacts(status="finished", seed="ab" * 32))
        cases.append({"case": f"{variant} won", "views": _views(last, won)})
    return cases


def table_cases() -> list[dict[str, Any]]:
    """The table's own states, beside the engine's decisions."""
    cases = []
    state = claiming()
    free = next(t for t, o in state.owner.items() if o is None)
    state.current_player = "green"
    state.owner[free], state.armies[free] = "blue", 1
    held = Held("blue", (free,), None, ({"type": "claim", "player": "blue", "territory": free},))
    computers = {"blue": "normal", "green": "normal"}
    cases.append(("a computer's claim held", state, TableFacts(computers=computers, held=held)))
    placing = claiming()
    moves = ({"type": "place", "player": "blue", "territory": "yakutsk", "count": 3},
             {"type": "place", "player": "blue", "territory": "irkutsk", "count": 2})
    placed = ({"player": "blue", "territory": "yakutsk", "n": 3},
              {"player": "blue", "territory": "irkutsk", "n": 2})
    cases.append(("a computer's placements held", placing, TableFacts(
        computers={"blue": "normal"}, held=Held("blue", ("yakutsk", "irkutsk"), 5, moves, placed))))
    cases.append(("a computer deciding", claiming(), TableFacts(computers={"red": "easy"})))
    cases.append(("the computer paused", claiming(), TableFacts(computers={"red": "easy"},
                                                                   computers_paused=True)))
    cases.append(("a paused game", claiming(), TableFacts(paused=True)))
    cases.append(("ended by the host", claiming(), TableFacts(status="abandoned", seed="cd" * 32)))
    out = claiming()
    out.eliminated.append("green")
    cases.append(("eliminated", out, TableFacts(eliminated_by={"green": "red"})))
    down = claiming()
    down.phase = "attack"
    down.hands["red"] = ["alaska", "alberta", "brazil", "peru", "wild-1", "wild-2"]
    down.pending = {"kind": "trade_down", "player": "red"}
    cases.append(("a trade-down", down, TableFacts()))
    made = [{"case": name, "views": _views(s, awaiting(s, facts), everyone=True)}
            for name, s, facts in cases]
    made.append({"case": "no game", "views": {"public": _said(
        awaiting(None, TableFacts(status=None)).view(None))}})
    return made


def fixture_text() -> str:
    """The fixture as committed: one case a line, so a change shows as a diff of cases."""
    cases = game_cases() + table_cases()
    lines = [json.dumps(c, sort_keys=True, ensure_ascii=False) for c in cases]
    return "[\n" + ",\n".join(lines) + "\n]\n"


if __name__ == "__main__":
    made = fixture_text()
    FIXTURE.write_text(made, "utf-8")
    print(f"{FIXTURE}: {made.count(chr(10)) - 1} cases")
