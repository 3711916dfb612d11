"""The arena's games as tasks: who sits where, with which seeds, in which boards.

``game_tasks(cfg)`` is the whole run of an ``ArenaConfig`` as a list of self-contained tasks
(plain dicts), which ``arena.play_task`` plays one at a time and ``arena.play_batched_tasks`` many
at once; any backend that can run a function on a dict plays the same games, and
``comparable(record)`` drops a record's timings, the only fields that differ between backends.

Seating. With as many specs as players, game ``g`` rotates the line-up by ``g`` seats, so every
agent sits in every seat equally often over ``P`` consecutive games. With fewer specs the last
one fills the remaining seats (``heuristic,random`` at 4 players = one heuristic, three random).
With more specs than players, every combination of ``P`` specs is played in every rotation, in
turn. ``schedule_length`` says how many games make one full cycle; use a multiple for balance.

Rotation alone keeps the *order* round the table fixed: at 4 players A is always followed by B,
and B by C. In games where a seat acts on what the seat before it just did (Go Big: the next
player has the first shot at a display), that order favours some agents over others, and
``rotate`` cannot tell such an advantage from skill: at Go Big's leaderboard table the search was
level with the heuristic seated right after it, and far ahead of it seated right before it.
``seating="orders"`` goes through every order of each table ((P-1)! orders round the table, each
in its P rotations: 24 line-ups at 4 players), so every agent also follows every other equally
often; each block of P games still seats every agent in every seat once.

Seeding. One ``numpy.random.SeedSequence(seed)`` is spawned into one child per game; a game's
deal seed and its agents' seeds come from its child only, so every game is reproducible on its
own and results do not depend on the number of worker processes or on their scheduling
(agents with a wall-clock budget, ``ismcts:0.5s``, are the exception: they search as far as time
allows).

Duplicate boards. ``duplicate=True`` plays the games in *boards*: board ``b`` takes one table of
the cycle (in turn) and plays one deal seed in every line-up of it (``rotate``: its P rotations;
``orders``: every order, each rotated), with the same seed for each seat's agent, and with the
game's keyed chance (``Game.new_state(seed, keyed_chance=True)``): every chance event is the same
in the board's games as long as the same events occur, so the luck of the cards is shared and
each board is one paired comparison (``agents/evaluation/boards.py``; docs/agents.md, "Duplicate
boards"). Records gain ``board``; ``games`` and ``first_game`` must be whole boards
(``board_size``).
"""

from __future__ import annotations

import itertools
import json

import numpy as np

from deckzoo.envs.core.errors import ConfigError

from .config import ArenaConfig, parse_agents

SEATINGS = ("rotate", "orders")


def schedule(num_agents: int, players: int, seating: str = "rotate") -> list[list[int]]:
    """Line-ups (agent index per seat) that one cycle of games goes through; see the module doc."""
    return [lineup for table in _tables(num_agents, players, seating) for lineup in table]


def _tables(num_agents: int, players: int, seating: str) -> list[list[list[int]]]:
    """The cycle's line-ups grouped by table (the agents seated, whatever their seats)."""
    if num_agents < 1:
        raise ConfigError("the arena needs at least one agent")
    check_seating(seating)
    if num_agents <= players:
        base = list(range(num_agents)) + [num_agents - 1] * (players - num_agents)
        tables = [base]
    else:
        tables = [list(c) for c in itertools.combinations(range(num_agents), players)]
    out = []
    for t in tables:
        orders = [t]
        if seating == "orders":  # the first seat fixed, the rest in every distinct order
            orders = [[t[0], *rest] for rest in dict.fromkeys(itertools.permutations(t[1:]))]
        out.append([o[r:] + o[:r] for o in orders for r in range(players)])
    return out


def check_seating(seating: str) -> None:
    if seating not in SEATINGS:
        raise ConfigError(f"arena: 'seating' must be one of {', '.join(SEATINGS)}, got {seating!r}")


def schedule_length(num_agents: int, players: int, seating: str = "rotate") -> int:
    return len(schedule(num_agents, players, seating))


def board_size(num_agents: int, players: int, seating: str = "rotate") -> int:
    """Games in one duplicate board: the line-ups of one table."""
    return len(_tables(num_agents, players, seating)[0])


def resolve_game(cfg: ArenaConfig):
    """The game (engine) of ``cfg``: its game class at its players and options."""
    import deckzoo.envs as E

    game_cls = E.game_class(cfg.game)
    game = game_cls(cfg.players, **cfg.options)
    return game


TIMINGS = (
    "seconds",
    "think_seconds",
    "max_think_seconds",
    "think_cpu_seconds",
    "max_think_cpu_seconds",
)


def comparable(record: dict) -> dict:
    """A game record without its timings: equal for the same game whatever ran it."""
    return {k: v for k, v in record.items() if k not in TIMINGS}


def game_tasks(cfg: ArenaConfig, num_players: int | None = None) -> list[dict]:
    """Every game of ``cfg`` as a self-contained task for ``play_task``: what any backend plays.

    One builder for both kinds of run: an ordinary game is a board of one. Board ``b`` is one
    child of ``SeedSequence(seed)`` (a deal seed and one agent seed per seat), played in each of
    its line-ups: with duplicate boards every line-up of table ``b mod len(tables)``, with keyed
    chance; otherwise the one line-up ``b`` of the cycle (``schedule``)."""
    if num_players is None:
        num_players = resolve_game(cfg).num_players
    agents = parse_agents(cfg.agents)
    tables = _tables(len(agents), num_players, cfg.seating)
    if cfg.duplicate:
        boards = tables
        pairings = list(range(len(tables)))
    else:
        boards = [[lineup] for table in tables for lineup in table]
        pairings = [k // len(tables[0]) for k in range(len(boards))]  # the table before rotation
    size = len(boards[0])
    first = cfg.first_game // size
    children = np.random.SeedSequence(cfg.seed).spawn(first + cfg.games // size)[first:]
    options_json = json.dumps(cfg.options, sort_keys=True)
    tasks = []
    saved: dict[int, int] = {}  # pairing -> games kept so far
    for b, child in enumerate(children, start=first):
        rng = np.random.default_rng(child)
        game_seed = int(rng.integers(2**63))
        agent_seeds = [int(x) for x in rng.integers(2**63, size=num_players)]
        pairing = pairings[b % len(boards)]
        for i, lineup in enumerate(boards[b % len(boards)]):
            save = saved.get(pairing, 0) < cfg.save_games
            saved[pairing] = saved.get(pairing, 0) + save
            index = b * size + i
            task = _task(
                cfg, agents, lineup, num_players, options_json, index, game_seed, agent_seeds, save
            )
            if cfg.duplicate:
                task.update(board=b, keyed_chance=True)
            tasks.append(task)
    return tasks


def _task(cfg, agents, lineup, num_players, options_json, index, seed, agent_seeds, save) -> dict:
    """One game for ``play_task``: who sits where, with which seeds, and whether it is kept."""
    return {
        "index": index,
        "seed": seed,
        "game": cfg.game,
        "players": num_players,
        "options_json": options_json,
        "seats": [agents[i][0] for i in lineup],
        "specs": [agents[i][1] for i in lineup],
        "agent_seeds": agent_seeds,
        "save": save,
    }


__all__ = [
    "SEATINGS",
    "TIMINGS",
    "board_size",
    "check_seating",
    "comparable",
    "game_tasks",
    "resolve_game",
    "schedule",
    "schedule_length",
]
