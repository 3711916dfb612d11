"""deckzoo play GAME [--players P] [--opponents heuristic] [--seat S]; deckzoo play --replay FILE

A person plays one seat against agents in the terminal. At each of the person's decisions the
screen is redrawn: the table as that seat sees it (the game's own player view, built from what
the seat may know: its hand, the table and the other seats' public information, with the card
names the action list uses), the moves made since the person's last decision, and the legal
actions as "id: name". An action is chosen by its id, by its name (case-insensitive), by an
unambiguous start of its name, or of its name without the first word ("7h" for "play 7h (7)");
suit symbols may be typed as letters (c, d, h, s for clubs, diamonds, hearts, spades). Anything
else is answered with a hint and asked again; "help" lists the actions again, "quit" (or end of
input, Ctrl-D / Ctrl-C) stops cleanly.

Every game is saved as JSON (game, config, seed, the agents' specs and seeds, the person's seat
and every action id), so --replay FILE steps through it again: Enter shows the next move, "a"
plays to the end, "q" stops; --reveal shows every hand instead of the person's view.

All text goes through ``out`` and all input comes from ``input_fn`` so that tests (and other
front ends) drive a game through plain functions.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from deckzoo.envs import registry
from deckzoo.envs.core.errors import ConfigError, IllegalActionError

from ..cli_args import add_option_argument, count_arg, seed_arg, terminal_safe
from ..registry import make_agent
from .replay import load_replay, new_record, replay_game

HELP = "type an action id or name; 'help' lists the actions again, 'quit' stops"
# Suit symbols in card names and the letters a person types for them.
SUIT_LETTERS = {"\u2663": "c", "\u2666": "d", "\u2665": "h", "\u2660": "s"}
CLEAR = "\033[2J\033[H"  # clear the terminal, cursor home
RULE = "-" * 72  # between screens when the output is not a terminal
RECENT_MOVES = 40  # at most this many moves since the person's last decision are listed


# ---- rendering --------------------------------------------------------------------------------
def render_for(state, player: int) -> str:
    """The table as ``player`` sees it: ``render_view``, built from ``view(player)`` only (a
    game's own layout, or the generic one of ``deckzoo.envs.core.render``)."""
    return state.render_view(player)


# ---- choosing ---------------------------------------------------------------------------------
def _plain(text: str) -> str:
    """Lower case, suit symbols as letters: what a person can type."""
    text = text.strip().lower()
    for symbol, letter in SUIT_LETTERS.items():
        text = text.replace(symbol, letter)
    return " ".join(text.split())


def parse_choice(
    text: str, legal: list[int], name_of: Callable[[int], str]
) -> tuple[int | None, str]:
    """The action meant by ``text`` among ``legal``, or ``(None, why)``."""
    t = _plain(text)
    if not t:
        return None, "empty input; " + HELP
    if t.lstrip("-").isdigit():
        a = int(t)
        if a in legal:
            return a, ""
        return None, f"{a} is not a legal action now; legal ids: {', '.join(map(str, legal))}"
    names = {a: _plain(name_of(a)) for a in legal}
    exact = [a for a, nm in names.items() if nm == t]
    if len(exact) == 1:
        return exact[0], ""
    for candidates in (
        [a for a, nm in names.items() if nm.startswith(t)],
        [a for a, nm in names.items() if nm.partition(" ")[2].startswith(t)],
    ):
        if len(candidates) == 1:
            return candidates[0], ""
        if len(candidates) > 1:
            listed = ", ".join(f"{a}: {name_of(a)}" for a in candidates)
            return None, f"{text.strip()!r} is ambiguous: {listed}"
    return None, f"no legal action is called {text.strip()!r}; " + HELP


def list_actions(state, legal: list[int]) -> str:
    return "\n".join(f"  {a:>4}: {state.action_name(a)}" for a in legal)


# ---- a game -----------------------------------------------------------------------------------
def _read(input_fn, prompt: str) -> str | None:
    try:
        return input_fn(prompt)
    except (EOFError, KeyboardInterrupt):
        return None


def _recent(moves: list[str]) -> list[str]:
    if not moves:
        return []
    shown = moves[-RECENT_MOVES:]
    more = [f"  ... {len(moves) - len(shown)} earlier moves"] if len(moves) > len(shown) else []
    return ["", "moves since your last decision:", *more, *(f"  {m}" for m in shown)]


def play_game(
    game_name: str,
    players: int | None = None,
    opponents: str = "heuristic",
    seat: int = 0,
    seed: int | None = None,
    options: dict | None = None,
    input_fn: Callable[[str], str] = input,
    out: Callable[[str], None] = print,
    save: str | Path | None = None,
    clear: bool = False,
) -> dict:
    """Play one game with a person in ``seat``; returns the game record (also saved to ``save``).

    ``opponents`` is one agent spec for every other seat or a comma-separated spec per other
    seat, in seat order. The screen is redrawn at each of the person's decisions (``clear``:
    with the terminal's clear-screen code, else below a rule). The record has ``finished``
    False when the person quit early. A ``save`` that cannot be written is refused before the
    game starts (``ConfigError``).
    """
    import deckzoo.envs as E

    game = E.game_class(game_name)(players, **(options or {}))
    n = game.num_players
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise ConfigError(f"play: 'seat' must be in 0..{n - 1}, got {seat!r}")
    specs = [s.strip() for s in opponents.split(",") if s.strip()] or ["heuristic"]
    if len(specs) == 1:
        specs = specs * (n - 1)
    if len(specs) != n - 1:
        raise ConfigError(f"play: give one opponent spec or {n - 1} of them, got {len(specs)}")
    if save is not None:
        _check_writable(Path(save))
    if seed is None:
        seed = int(np.random.SeedSequence().entropy % 2**63)
    elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise ConfigError(f"play: 'seed' must be a whole number in 0..2**63-1, got {seed!r}")
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
    record = new_record(game, seed, seat, seat_specs, seeds)
    state = game.new_state(seed)
    title = (
        f"{game.name}: {n} players, you are player_{seat}; seed {seed}\n"
        f"seats: {', '.join(f'player_{p}={s}' for p, s in enumerate(seat_specs))}"
    )
    moves: list[str] = []  # since the person's last decision
    while not state.is_terminal():
        p = state.current_player
        if p == seat:
            legal = [int(a) for a in state.legal_actions()]
            out(
                "\n".join(
                    [
                        CLEAR if clear else RULE,
                        title,
                        "",
                        render_for(state, seat),
                        *_recent(moves),
                        f"\nyour move (player_{seat}):",
                        list_actions(state, legal),
                    ]
                )
            )
            moves = []
            a = _ask_move(state, legal, input_fn, out)
            if a is None:
                out("\nstopped; the game so far is saved" if save else "\nstopped")
                break
            who = "you"
        else:
            a = int(agents[p].act(state.for_player(p)))
            who = f"player_{p} ({seat_specs[p]})"
        moves.append(f"{who}: {state.action_name(a)}")
        state.apply(a)
        record["actions"].append(a)
    if state.is_terminal():
        record["finished"] = True
        record["scores"] = np.asarray(state.scores()).tolist()
        record["winners"] = sorted(int(w) for w in state.winners())
        out(
            "\n".join(
                [CLEAR if clear else RULE, title, "", render_for(state, seat), *_recent(moves)]
            )
        )
        _show_result(record, seat, out)
    if save is not None:
        path = Path(save)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(record, indent=1))
        except OSError as e:  # checked before the game, so only a change since (disk full)
            raise ConfigError(f"cannot save the game to {str(path)!r}: {e.strerror or e}") from None
        out(f"saved to {path}")
    return record


def _check_writable(path: Path) -> None:
    """Before the game starts: the game can be saved to ``path`` (its folders are made, and it
    is opened for writing and left as it was), so that nobody plays a whole game to lose it."""
    why = "it is a folder" if path.is_dir() else None
    existed = path.exists()
    above = next((p for p in path.parents if p.exists()), None)  # the first that exists
    if above is not None and not above.is_dir():
        why = f"{str(above)!r} is a file, not a folder"
    if why is None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(path, "a"):
                pass
        except OSError as e:
            why = e.strerror or str(e)
    if why is not None:
        raise ConfigError(
            f"cannot save the game to {str(path)!r}: {why} (give another --save FILE or --no-save)"
        )
    if not existed:
        path.unlink()


def _ask_move(state, legal: list[int], input_fn, out) -> int | None:
    """The person's move, asked until the answer names a legal one; None when they quit."""
    while True:
        text = _read(input_fn, "> ")
        if text is None or text.strip().lower() in ("quit", "exit", "q"):
            return None
        if text.strip().lower() in ("help", "?", "h"):
            out(list_actions(state, legal))
            continue
        a, why = parse_choice(text, legal, state.action_name)
        if a is not None:
            return a
        out(why)


def _show_result(record: dict, seat: int, out) -> None:
    """The end of a finished game: every seat's score and the winners."""
    out("\ngame over")
    out(
        "scores: "
        + ", ".join(
            f"player_{p}{' (you)' if p == seat else ''} {s:g}"
            for p, s in enumerate(record["scores"])
        )
    )
    won = seat in record["winners"]
    out(
        f"winners: {', '.join(f'player_{w}' for w in record['winners'])}"
        + (" - you win!" if won else "")
    )


# ---- replay -----------------------------------------------------------------------------------
def load_record(path: str | Path):
    """A saved game, checked: ``(record, game, states)`` where ``states[i]`` is the position
    before move i (and the last one after every move). Any problem raises ``ConfigError``
    naming the file and what is wrong (``replay.load_replay``, then every move played)."""
    record = load_replay(path)
    game = replay_game(record)
    # a duplicate board's game drew its chance from keyed streams (Game.new_state)
    state = game.new_state(record["seed"], keyed_chance=record.get("keyed_chance", False))
    states = [state.clone()]
    for i, a in enumerate(record["actions"]):
        try:
            state.apply(a)
        except IllegalActionError as e:
            raise ConfigError(
                f"replay {str(path)!r}: move {i + 1} ({a!r}) cannot be played: {e}"
            ) from None
        states.append(state.clone())
    return record, game, states


def replay(
    path: str | Path,
    input_fn: Callable[[str], str] = input,
    out: Callable[[str], None] = print,
    reveal: bool = False,
    clear: bool = False,
) -> int:
    """Step through a saved game; returns the number of moves shown.

    The file's text (its seats' names, and anything else from it that reaches the screen) is
    printed through ``terminal_safe``: a crafted replay cannot send the terminal escape codes."""
    record, game, states = load_record(path)
    seat = record.get("human_seat")  # None: nobody's seat (the table as player_0 sees it)
    view = 0 if seat is None else seat
    actions = record["actions"]
    names = record.get("labels") or record.get("seats") or ["?"] * game.num_players

    def show(i: int, last: str | None) -> None:
        s = states[i]
        table = s.render() if reveal else render_for(s, view)
        head = (
            f"replay of {path}: {game.name}, {game.num_players} players, "
            f"seed {record['seed']}, move {i}/{len(actions)}"
        )
        text = "\n".join([head, "", table, *([] if last is None else ["", f"last move: {last}"])])
        out(f"{CLEAR if clear else RULE}\n{terminal_safe(text)}")

    out(terminal_safe(f"replay of {path}: Enter = next move, a = to the end, q = stop"))
    show(0, None)
    auto = False
    for i, a in enumerate(actions):
        if not auto:
            text = _read(input_fn, f"[{i + 1}/{len(actions)}] ")
            if text is None or text.strip().lower() in ("q", "quit", "exit"):
                return i
            auto = text.strip().lower() == "a"
        before = states[i]
        p = before.current_player
        who = "you" if p == seat else f"player_{p} ({names[p]})"
        show(i + 1, f"{who}: {before.action_name(a)}")
    last = states[-1]
    if last.is_terminal():
        out("\n" + last.game_over_line())
    return len(actions)


# ---- CLI --------------------------------------------------------------------------------------
def run(args) -> int:
    clear = sys.stdout.isatty()
    if args.replay:
        if args.game:
            raise ConfigError("give a GAME to play or --replay FILE, not both")
        replay(args.replay, reveal=args.reveal, clear=clear)
        return 0
    if args.reveal:
        raise ConfigError(
            "--reveal only applies to --replay FILE (a game in play never shows other hands)"
        )
    if args.no_save and args.save:
        raise ConfigError("--save and --no-save contradict each other; give one")
    if not args.game:
        raise ConfigError("give a GAME to play (e.g. deckzoo play gobig) or --replay FILE")
    options = dict(args.option or [])
    save = (
        None
        if args.no_save
        else (
            args.save
            or Path("deckzoo_games") / f"{args.game}-{time.strftime('%Y%m%d-%H%M%S')}.json"
        )
    )
    play_game(
        args.game,
        args.players,
        args.opponents,
        args.seat,
        args.seed,
        options,
        save=save,
        clear=clear,
    )
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser(
        "play",
        help="play one seat against agents in the terminal",
        description=__doc__.split("\n\n")[1].replace("\n", " "),
    )
    p.add_argument("game", nargs="?", help=f"game or env name: {', '.join(registry.games())}")
    p.add_argument(
        "--players", type=count_arg(1), default=None, help="seats (default: the game's default)"
    )
    p.add_argument(
        "--opponents",
        default="heuristic",
        help="agent spec for every other seat, or one per other seat, comma-separated "
        "(the kinds deckzoo arena --help lists)",
    )
    p.add_argument("--seat", type=count_arg(0), default=0, help="your seat (default 0)")
    p.add_argument(
        "--seed", type=seed_arg, default=None, help="deal seed (default: random, printed)"
    )
    add_option_argument(p)
    p.add_argument(
        "--save",
        default=None,
        metavar="FILE",
        help="where to save the game (default deckzoo_games/GAME-TIME.json)",
    )
    p.add_argument("--no-save", action="store_true", help="do not save the game")
    p.add_argument(
        "--replay", default=None, metavar="FILE", help="step through a saved game instead"
    )
    p.add_argument("--reveal", action="store_true", help="with --replay: show every hand")
    p.set_defaults(func=run)
