"""Check 12: the Pico resets mid-game (its RUN pin, as a brown-out or a knock on the cable
does): its USB port leaves the box and comes back, and the service under systemd links
again by itself, in the same process, and hears the board again."""

from __future__ import annotations

import time
from typing import Any

from tools.pibox.errors import CheckFailed
from tools.pibox.game import Game, leds_show_owners, position
from tools.pibox.run import Run
from tools.pibox.web import link_status, wait_link


def selected(game: Game, source: str | None, timeout: float) -> dict[str, Any]:
    """The spectator view once the table's selection has `source` as its source."""
    deadline = time.monotonic() + timeout
    view = game.view()
    while (view["table"].get("selection") or {}).get("source") != source:
        if time.monotonic() > deadline:
            raise CheckFailed(f"the table's selection did not become {source} within "
                              f"{timeout:.0f} s (it is {view['table'].get('selection')}; "
                              f"refusal: {view['table'].get('refusal')})")
        time.sleep(0.2)
        view = game.view()
    return view


def check_12_pico_reset(run: Run) -> str:
    """12. Mid-game the Pico resets: /dev/riskboard-pico goes and comes back; the service
    (same process, no restart) links to the Pico's new boot, the game is where it was, a
    touch on a territory is heard (it lights a selection, which Cancel drops), and the LEDs
    show every owner."""
    assert run.pico is not None and run.game is not None and run.strip is not None
    box, game = run.box, run.game
    pid, restarts = box.main_pid(), box.unit("NRestarts")
    before = position(box, game.view())
    link = link_status()
    epoch, resets = link.get("epoch"), link.get("stats", {}).get("pico_resets", 0)
    start = time.monotonic()
    gone, back = run.pico.reset()
    if not (gone and back):
        raise CheckFailed(f"the Pico's port did not {'come back' if gone else 'go'} on a "
                          f"reset; the emulator: {run.pico.log(6)}")
    link = wait_link(other_than_epoch=epoch)
    if not link.get("connected") or link.get("epoch") == epoch:
        raise CheckFailed(f"the service did not link to the Pico's new boot within 300 s: "
                          f"{link.get('state')}, {link.get('last_error')}; journal: "
                          f"{box.journal(10)}")
    relinked = time.monotonic() - start
    if box.main_pid() != pid or box.unit("NRestarts") != restarts:
        raise CheckFailed("the service restarted over a Pico reset; journal: "
                          f"{box.journal(10)}")
    if position(box, game.view()) != before:
        raise CheckFailed("the game moved over a Pico reset")
    view = game.view()
    # A territory the player on the move may fortify from (the table's own aims), else
    # their strongest: a touch there lights it as the selection's source.
    aims = ((view["table"].get("waits") or {}).get("aims") or {}).get("fortify") or {}
    mine = next(iter(aims), None) or max(
        (t for t, owner in view["owner"].items() if owner == view["current_player"]),
        key=lambda t: view["armies"][t])
    channel = run.profile.sensors[mine].channel
    run.pico.touch(channel)
    heard = selected(game, mine, 120)  # the touch lit a selection (fortify: "from")
    run.strip.press(run.profile.controls["cancel"])  # and Cancel drops it, as a player would
    dropped = selected(game, None, 120)
    if position(box, dropped) != before:
        raise CheckFailed("a touch and Cancel after the Pico reset changed the game")
    leds_show_owners(run.strip, dropped, dict(run.profile.territory_leds))
    return (f"the port went and came back; the service (pid {pid}, no restart) linked to the "
            f"new boot (epoch {epoch} -> {link.get('epoch')}, Pico resets counted "
            f"{resets} -> {link.get('stats', {}).get('pico_resets')}) {relinked:.0f} s after "
            f"the reset; a touch on {mine} was heard (the table's selection, seq {view['seq']} -> "
            f"{heard['seq']}) and Cancel dropped it; every territory lit in its owner's "
            f"colour")
