"""``deckzoo play GAME --players P --opponents heuristic [--seat S] [--replay FILE]``.

A person plays one seat against agents in the terminal. After every move the table is shown as
that seat sees it: the engine's ``view(seat)`` (never the full state, which holds the other
hands), rendered by the state's ``render_view(player)`` (a game's own layout, or the generic one
of ``deckzoo.envs.core.render``). On the person's turn the legal actions are listed as
``id: name``; an action is chosen by its id, by its name (case-insensitive) or by an unambiguous
start of its name.
Anything else is answered with a hint and asked again; ``help`` lists the actions again,
``quit`` (or end of input, Ctrl-D / Ctrl-C) stops cleanly.

Every game is saved as JSON (game, config, seed, the agents' specs and seeds, the person's seat
and every action id), so ``--replay FILE`` can step through it again: Enter shows the next move,
``a`` plays to the end, ``q`` stops; ``--reveal`` shows the full state (all hands) instead of
the person's view.

All text goes through ``out`` and all input comes from ``input_fn`` so that tests (and other
front ends) drive a game through plain functions.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from deckzoo.envs import registry
from deckzoo.envs.core.errors import ConfigError

from .registry import make_agent

HELP = "type an action id or name; 'help' lists the actions again, 'quit' stops"


# ---- rendering --------------------------------------------------------------------------------
def render_for(state, player: int) -> str:
    """The table as ``player`` sees it: ``render_view``, built from ``view(player)`` only."""
    return state.render_view(player)


# ---- choosing ---------------------------------------------------------------------------------
def parse_choice(text: str, legal: list[int], name_of: Callable[[int], str]) -> tuple[int | None, str]:
    """The action meant by ``text`` among ``legal``, or ``(None, why)``."""
    t = text.strip().lower()
    if not t:
        return None, "empty input; " + HELP
    if t.lstrip("-").isdigit():
        a = int(t)
        if a in legal:
            return a, ""
        return None, f"{a} is not a legal action now; legal ids: {', '.join(map(str, legal))}"
    names = {a: name_of(a).lower() for a in legal}
    exact = [a for a, nm in names.items() if nm == t]
    if len(exact) == 1:
        return exact[0], ""
    starts = [a for a, nm in names.items() if nm.startswith(t)]
    if len(starts) == 1:
        return starts[0], ""
    if len(starts) > 1:
        return None, f"{text.strip()!r} is ambiguous: " + ", ".join(f"{a}: {name_of(a)}" for a in starts)
    return None, f"no legal action is called {text.strip()!r}; " + HELP


def list_actions(state, legal: list[int]) -> str:
    return "\n".join(f"  {a:>4}: {state.action_name(a)}" for a in legal)


# ---- a game -----------------------------------------------------------------------------------
def _read(input_fn, prompt: str) -> str | None:
    try:
        return input_fn(prompt)
    except (EOFError, KeyboardInterrupt):
        return None


def play_game(game_name: str, players: int | None = None, opponents: str = "heuristic", seat: int = 0,
              seed: int | None = None, options: dict | None = None, input_fn: Callable[[str], str] = input,
              out: Callable[[str], None] = print, save: str | Path | None = None) -> dict:
    """Play one game with a person in ``seat``; returns the game record (also saved to ``save``).

    ``opponents`` is one agent spec for every other seat or a comma-separated spec per other
    seat, in seat order. The record has ``finished`` False when the person quit early.
    """
    import deckzoo.envs as E

    game = E.game_class(game_name)(players, **(options or {}))
    n = game.num_players
    if not 0 <= seat < n:
        raise ConfigError(f"play: 'seat' must be in 0..{n - 1}, got {seat}")
    specs = [s.strip() for s in opponents.split(",") if s.strip()] or ["heuristic"]
    if len(specs) == 1:
        specs = specs * (n - 1)
    if len(specs) != n - 1:
        raise ConfigError(f"play: give one opponent spec or {n - 1} of them, got {len(specs)}")
    if seed is None:
        seed = int(np.random.SeedSequence().entropy % 2**63)
    seeds = [int(x) for x in np.random.default_rng(seed).integers(2**63, size=n)]
    agents, seat_specs = {}, []
    it = iter(specs)
    for p in range(n):
        if p == seat:
            seat_specs.append("human")
        else:
            spec = next(it)
            agents[p] = make_agent(spec, game.name, seeds[p])
            seat_specs.append(spec)
    record = {"game": game.name, "config": game.config(), "seed": seed, "human_seat": seat,
              "seats": seat_specs, "agent_seeds": seeds, "actions": [], "finished": False}
    state = game.new_state(seed)
    out(f"{game.name}: {n} players, you are player_{seat}; seed {seed}")
    out(f"seats: {', '.join(f'player_{p}={s}' for p, s in enumerate(seat_specs))}")
    out(render_for(state, seat))
    quit_ = False
    while not state.is_terminal():
        p = state.current_player
        if p == seat:
            legal = [int(a) for a in state.legal_actions()]
            out(f"\nyour move (player_{seat}):")
            out(list_actions(state, legal))
            while True:
                text = _read(input_fn, "> ")
                if text is None or text.strip().lower() in ("quit", "exit", "q"):
                    quit_ = True
                    break
                if text.strip().lower() in ("help", "?", "h"):
                    out(list_actions(state, legal))
                    continue
                a, why = parse_choice(text, legal, state.action_name)
                if a is not None:
                    break
                out(why)
            if quit_:
                out("\nstopped; the game so far is saved" if save else "\nstopped")
                break
            who = "you"
        else:
            a = int(agents[p].act(state.for_player(p)))
            who = f"player_{p} ({seat_specs[p]})"
        name = state.action_name(a)
        state.apply(a)
        record["actions"].append(a)
        out(f"\n{who}: {name}")
        out(render_for(state, seat))
    if state.is_terminal():
        record["finished"] = True
        record["scores"] = np.asarray(state.scores()).tolist()
        record["winners"] = sorted(int(w) for w in state.winners())
        out("\ngame over")
        out("scores: " + ", ".join(f"player_{p}{' (you)' if p == seat else ''} {s:g}"
                                   for p, s in enumerate(record["scores"])))
        won = seat in record["winners"]
        out(f"winners: {', '.join(f'player_{w}' for w in record['winners'])}" + (" - you win!" if won else ""))
    if save is not None:
        path = Path(save)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(record, indent=1))
        out(f"saved to {path}")
    return record


def replay(path: str | Path, input_fn: Callable[[str], str] = input, out: Callable[[str], None] = print,
           reveal: bool = False) -> int:
    """Step through a saved game; returns the number of moves shown."""
    import deckzoo.envs as E

    record = json.loads(Path(path).read_text())
    game = E.game_class(record["game"])(**record["config"])
    state = game.new_state(record["seed"])
    seat = record.get("human_seat", 0)

    def show():
        out(state.render() if reveal else render_for(state, seat))

    out(f"replay of {path}: {record['game']}, {game.num_players} players, seed {record['seed']}, "
        f"{len(record['actions'])} moves; Enter = next, a = to the end, q = stop")
    show()
    auto = False
    shown = 0
    for i, a in enumerate(record["actions"]):
        if not auto:
            text = _read(input_fn, f"[{i + 1}/{len(record['actions'])}] ")
            if text is None or text.strip().lower() in ("q", "quit", "exit"):
                return shown
            auto = text.strip().lower() == "a"
        p = state.current_player
        who = "you" if p == seat else f"player_{p} ({record['seats'][p]})"
        out(f"\n{who}: {state.action_name(a)}")
        state.apply(a)
        shown += 1
        show()
    if state.is_terminal():
        out("\n" + state.game_over_line())
    return shown


# ---- CLI --------------------------------------------------------------------------------------
def run(args) -> int:
    from .arena_cli import parse_option

    try:
        if args.replay:
            replay(args.replay, reveal=args.reveal)
            return 0
        if not args.game:
            print("deckzoo play: give a GAME (or --replay FILE)")
            return 2
        options = dict(parse_option(o) for o in (args.option or []))
        save = None if args.no_save else (args.save or Path("deckzoo_games") /
                                          f"{args.game}-{time.strftime('%Y%m%d-%H%M%S')}.json")
        play_game(args.game, args.players, args.opponents, args.seat, args.seed, options, save=save)
    except ConfigError as e:
        print(f"deckzoo play: {e}")
        return 2
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser("play", help="play one seat against agents in the terminal",
                       description=__doc__.split("\n\n")[1])
    p.add_argument("game", nargs="?", help=f"game or env name: {', '.join(registry.games())}")
    p.add_argument("--players", type=int, default=None, help="seats (default: the game's default)")
    p.add_argument("--opponents", default="heuristic",
                   help="agent spec for every other seat, or one per other seat, comma-separated")
    p.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    p.add_argument("--seed", type=int, default=None, help="deal seed (default: random, printed)")
    p.add_argument("--option", action="append", metavar="KEY=VALUE", help="a game option (repeatable)")
    p.add_argument("--save", default=None, help="where to save the game (default deckzoo_games/GAME-TIME.json)")
    p.add_argument("--no-save", action="store_true", help="do not save the game")
    p.add_argument("--replay", default=None, metavar="FILE", help="step through a saved game instead")
    p.add_argument("--reveal", action="store_true", help="with --replay: show every hand")
    p.set_defaults(func=run)
