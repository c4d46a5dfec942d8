"""The bot's quick decisions are the plain rule, counted once per decision (issue 15.3).

Each reference below is the bot's rule written the plain way, re-counting the board for
every candidate (as the bot did before it counted once per decision). On states from
random legal play of every variant the bot must choose exactly what the reference
chooses, so `riskboard simulate` plays the same games for the same seed.
"""

from __future__ import annotations

import random

import pytest

from pi_app.computer.simple_bot import SimpleBot, blitz_or_roll
from pi_app.computer.strategy import Strategist
from pi_app.dice import SeededSource
from pi_app.rules import HouseRules, apply, legal_commands, new_game, waiting_for
from pi_app.rules.board import load_map
from pi_app.rules.legal import connected_through_own

BOARD = load_map()
NEIGHBOURS, CONTINENT_OF, MEMBERS = BOARD.neighbours, BOARD.continent_of, BOARD.members
COLOURS = ["red", "blue", "green", "yellow", "black", "pink"]
GAMES = [("classic", 4), ("classic", 6), ("capital", 4), ("mission", 3), ("allied", 2),
         ("two-player", 2)]


def reference_attack(bot, state, player, only=None):
    owner, armies = state.owner, state.armies
    best = None
    hqs = set(state.hq.values()) if state.hq_revealed else ()
    for s, o in owner.items():
        if o != player or armies[s] < 3:
            continue
        a = armies[s]
        for t in NEIGHBOURS[s]:
            d_owner = owner[t]
            if d_owner == player or a - armies[t] < bot.edge:
                continue
            if only is not None and d_owner != only:
                continue
            missing = sum(1 for m in MEMBERS[CONTINENT_OF[t]] if owner[m] != player)
            score = a - armies[t] + (6 if missing <= 2 else 0)
            if sum(1 for v in owner.values() if v == d_owner) <= 3:
                score += 8
            if t in hqs:
                score += 6
            if best is None or score > best[0]:
                best = (score, s, t)
    return None if best is None else blitz_or_roll(state, player, best[1], best[2], 2)


def reference_claim(state, player):
    owner = state.owner
    best, best_score = "", -1e9
    for t, o in owner.items():
        if o is not None:
            continue
        members = MEMBERS[CONTINENT_OF[t]]
        mine = sum(1 for m in members if owner[m] == player)
        theirs = sum(1 for m in members if owner[m] not in (None, player))
        near = sum(1 for n in NEIGHBOURS[t] if owner[n] == player)
        score = 3 * mine - 2 * theirs + near - len(members) / 4
        if score > best_score:
            best, best_score = t, score
    return best


def reference_fortify_source(state, player):
    owner, armies = state.owner, state.armies
    best_src, most = None, 1
    for t, o in owner.items():
        if o == player and armies[t] > most and all(owner[n] == player
                                                    for n in NEIGHBOURS[t]):
            best_src, most = t, armies[t]
    return best_src


def reference_reach(state, player, source):
    seen, frontier = {source}, [source]
    while frontier:
        for nxt in BOARD.adjacency[frontier.pop()]:
            if nxt not in seen and state.owner[nxt] == player:
                seen.add(nxt)
                frontier.append(nxt)
    return seen - {source}


def reference_fortify(state, player, prefer):
    """The fortify both bots wrote out on their own before they shared one (issue s3-tidy
    item 2): the biggest interior stack moves to the reachable front territory that
    `prefer` ranks highest, or one step toward the front if none is reachable."""
    owner, armies = state.owner, state.armies
    source = reference_fortify_source(state, player)
    if source is None:
        return None
    if state.house_rules.fortify == "adjacent":
        reach = list(NEIGHBOURS[source])
    else:
        reach = list(reference_reach(state, player, source))
    fronts = [t for t in reach if any(owner[n] != player for n in NEIGHBOURS[t])] or reach
    if not fronts:
        return None
    target = max(fronts, key=lambda t: (prefer(t), t))
    return {"type": "fortify", "player": player, "source": source, "target": target,
            "count": armies[source] - 1}


def positions(variant, players, seed, steps=700, house_rules=None):
    """(state, player) after each of `steps` random legal commands."""
    chooser = random.Random(seed)
    rng = SeededSource(seed)
    state = new_game(variant, COLOURS[:players], house_rules or HouseRules(), rng).state
    for _ in range(steps):
        if state.winner is not None:
            return
        player = waiting_for(state)
        yield state, player
        apply(state, chooser.choice(legal_commands(state, player)), rng)


@pytest.mark.parametrize(("variant", "players"), GAMES, ids=[f"{v}-{n}" for v, n in GAMES])
def test_the_bot_chooses_what_the_plain_recounting_rule_chooses(variant, players):
    bot = SimpleBot()
    compared = 0
    for state, player in positions(variant, players, seed=f"{variant}{players}"):
        for army in {player, state.variant_data.get("army")} - {None}:
            ours = bot._attack(state, army)
            theirs = reference_attack(bot, state, army)
            assert (ours and ours.to_dict()) == (theirs and theirs.to_dict())
            for enemy in state.players:
                ours = bot._attack(state, army, only=enemy)
                theirs = reference_attack(bot, state, army, only=enemy)
                assert (ours and ours.to_dict()) == (theirs and theirs.to_dict())
        if state.phase == "claim":
            assert bot._claim(state, player) == reference_claim(state, player)
        move = bot._fortify(state, player)
        source = reference_fortify_source(state, player)
        assert (move.source if move else None) == source
        for territory in state.territories_of(player)[:3]:
            assert connected_through_own(state, player, territory) == reference_reach(
                state, player, territory)
        compared += 1
    assert compared > 300


@pytest.mark.parametrize("fortify", ["connected", "adjacent"])
@pytest.mark.parametrize(("variant", "players"), GAMES[:4], ids=[f"{v}-{n}" for v, n in GAMES[:4]])
def test_both_bots_fortify_by_the_one_plain_rule(variant, players, fortify):
    """SimpleBot and the computer's Strategist share the interior-stack fortify: the same
    source and reach, each with its own liking for the target (most armies; most threat
    against fewest armies)."""
    simple, hard = SimpleBot(), Strategist("hard")
    moves = 0
    for state, player in positions(variant, players, seed=f"fortify{variant}{players}",
                                   house_rules=HouseRules(fortify=fortify)):
        ours = simple._fortify(state, player)
        assert (ours and ours.to_dict()) == reference_fortify(
            state, player, lambda t, s=state: s.armies[t])
        ours = hard._fortify(state, player)
        assert (ours and ours.to_dict()) == reference_fortify(
            state, player, lambda t, s=state, p=player: hard._threat(s, p, t) - s.armies[t])
        moves += ours is not None
    assert moves > 20, "the positions must hold interior stacks to move"
