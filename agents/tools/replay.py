"""Replay files, and ``deckzoo replay FILE.json --html OUT.html``.

A replay is one game as JSON: enough to rebuild every position exactly, since a state is fixed by
its game configuration, its seed and the actions taken. ``deckzoo play`` saves one per game,
``deckzoo arena --save-games N`` the first N games of each pairing, ``deckzoo serve`` offers one
for download; ``deckzoo play --replay FILE`` steps through it in the terminal and ``deckzoo
replay FILE --html OUT`` writes it as one self-contained web page (``agents/tools/viewer``).

Keys: ``game`` (name), ``config`` (``game.config()``), ``seed``, ``actions`` (every action id in
order), ``seats`` (the agent spec of each seat, ``"human"`` for a person), ``agent_seeds``,
``finished``, and when finished ``scores`` and ``winners``; optionally ``human_seat`` and
``labels`` (the arena's name for each seat's agent). Replaying needs only the first four;
``seats`` and ``agent_seeds`` let the agents' own moves be re-derived (each agent is seeded and
sees only its seat's view, so the same seed and the same positions give the same choices).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from deckzoo.envs.core.errors import ConfigError, IllegalActionError
from deckzoo.envs.core.game import Game, State

from ..cli_args import count_arg

REQUIRED = ("game", "config", "seed", "actions")
SEEDS = 2**63  # seeds are in 0..2**63-1 (what numpy's generators take)


class _NotJSONConstant(ValueError):
    """NaN or Infinity in a file: Python's json reads them, but no saved game holds them."""


def _refuse_constant(name: str):
    raise _NotJSONConstant(name)


def load_replay(path: str | Path) -> dict:
    """The replay in ``path``, checked (``check_replay``); anything wrong with the file, however
    it is damaged (not there, binary, not JSON, nested or numbered past what Python reads, the
    wrong shape), is a one-line ``ConfigError`` naming the file."""
    where = f"replay {str(path)!r}"
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise ConfigError(f"{where}: no such file") from None
    except IsADirectoryError:
        raise ConfigError(f"{where}: is a folder, not a saved game") from None
    except OSError as e:
        raise ConfigError(f"cannot read {where}: {e.strerror or e}") from None
    try:
        text = data.decode("utf-8-sig")  # a byte order mark, as some editors save, is no harm
    except UnicodeDecodeError as e:
        raise ConfigError(
            f"{where} is not JSON: not UTF-8 text (byte {data[e.start]:#04x} at offset {e.start})"
        ) from None
    try:
        record = json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as e:
        raise ConfigError(f"{where} is not JSON: {e}") from None
    except _NotJSONConstant as e:
        raise ConfigError(f"{where}: not a saved game (it holds {e})") from None
    except RecursionError:
        raise ConfigError(f"{where}: not a saved game (JSON nested too deeply)") from None
    except ValueError as e:  # an integer of more digits than Python converts from text
        raise ConfigError(f"{where}: not a saved game ({str(e).partition(':')[0]})") from None
    check_replay(record, where)
    return record


def _short(value) -> str:
    """A value from a file as an error line shows it: its repr, cut (a file may hold megabytes)."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_replay(record, where: str = "replay") -> Game:
    """Check a replay's shape and build its game; ``ConfigError`` naming what is wrong. What it
    accepts, ``replay_states`` and the viewers read without failing: a recorded action that is
    illegal where it stands is found only by playing it (``replay_states`` names its step)."""
    if not isinstance(record, dict):
        raise ConfigError(f"{where}: a replay is a JSON object, got {type(record).__name__}")
    missing = [k for k in REQUIRED if k not in record]
    if missing:
        raise ConfigError(f"{where}: missing key(s) {', '.join(missing)}")
    name, config, seed, actions = (record[k] for k in REQUIRED)
    if not isinstance(name, str):
        raise ConfigError(f"{where}: 'game' must be a game name, got {_short(name)}")
    if not isinstance(config, dict):
        raise ConfigError(f"{where}: 'config' must be a JSON object, got {_short(config)}")
    if not _is_int(seed) or not 0 <= seed < SEEDS:
        raise ConfigError(
            f"{where}: 'seed' must be a whole number in 0..2**63-1, got {_short(seed)}"
        )
    if not isinstance(actions, list):
        raise ConfigError(f"{where}: 'actions' must be a list of action ids, got {_short(actions)}")
    bad = next((i for i, a in enumerate(actions) if not _is_int(a)), None)
    if bad is not None:
        raise ConfigError(
            f"{where}: 'actions' must be a list of action ids (whole numbers), got "
            f"{_short(actions[bad])} at position {bad}"
        )
    try:
        game = replay_game(record)
    except (ConfigError, TypeError, ValueError) as e:  # the game checks its own options
        raise ConfigError(f"{where}: 'game'/'config': {e}") from None
    _check_optional(record, game.num_players, where)
    return game


def _check_optional(record: dict, n: int, where: str) -> None:
    """The keys a replay may have that the viewers read: the person's seat, each seat's agent
    spec and label (a list of ``n`` strings), and the chance streams of a duplicate board."""
    seat = record.get("human_seat")
    if seat is not None and (not _is_int(seat) or not 0 <= seat < n):
        raise ConfigError(f"{where}: 'human_seat' must be a seat 0..{n - 1}, got {_short(seat)}")
    for key in ("seats", "labels"):
        names = record.get(key)
        if names is not None and (
            not isinstance(names, list)
            or len(names) != n
            or not all(isinstance(x, str) for x in names)
        ):
            raise ConfigError(f"{where}: {key!r} must list {n} strings, got {_short(names)}")
    if not isinstance(record.get("keyed_chance", False), bool):
        raise ConfigError(
            f"{where}: 'keyed_chance' must be true or false, got {_short(record['keyed_chance'])}"
        )


def replay_game(record: dict) -> Game:
    import deckzoo.envs as E

    return E.game_class(record["game"])(**record["config"])


def replay_states(record: dict) -> Iterator[tuple[State, int | None]]:
    """``(state, action)`` before each recorded action, then ``(final state, None)``.

    The same state object is advanced in place; clone it to keep a position. A recorded action
    that is illegal where it stands raises ``ConfigError`` naming its step.
    """
    # a duplicate board's game drew its chance from keyed streams (Game.new_state)
    state = replay_game(record).new_state(
        record["seed"], keyed_chance=record.get("keyed_chance", False)
    )
    for i, a in enumerate(record["actions"]):
        yield state, a
        try:
            state.apply(a)
        except IllegalActionError as e:
            raise ConfigError(f"replay step {i}: {e}") from e
    yield state, None


def final_state(record: dict) -> State:
    for state, action in replay_states(record):
        if action is None:
            return state
    raise AssertionError("unreachable")


def new_record(
    game: Game, seed: int, human_seat: int | None, seats: list[str], agent_seeds: list
) -> dict:
    """The replay of a game about to be played by a person (``play``, ``serve``): its actions are
    appended as they are taken, and ``finish_record`` closes it."""
    return {
        "game": game.name,
        "config": game.config(),
        "seed": seed,
        "human_seat": human_seat,
        "seats": seats,
        "agent_seeds": agent_seeds,
        "actions": [],
        "finished": False,
    }


def finish_record(record: dict, state: State) -> dict:
    """Mark ``record`` finished with the final scores and winners of ``state`` if it is over."""
    record["finished"] = state.is_terminal()
    if state.is_terminal():
        record["scores"] = np.asarray(state.scores()).tolist()
        record["winners"] = sorted(int(w) for w in state.winners())
    return record


def save_replay(record: dict, path: str | Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=1))
    return path


def arena_replay(game: Game, task_result: dict) -> dict:
    """The replay of one arena game (``evaluation.arena.play_task``'s result with its actions)."""
    record = {
        "game": game.name,
        "config": game.config(),
        "seed": task_result["seed"],
        "seats": list(task_result["specs"]),
        "labels": list(task_result["seats"]),
        "agent_seeds": list(task_result["agent_seeds"]),
        "actions": list(task_result["actions"]),
        "arena_index": task_result["index"],
    }
    if task_result.get("keyed_chance"):
        record["keyed_chance"] = True
    record["finished"] = True
    record["scores"], record["winners"] = task_result["scores"], task_result["winners"]
    return record


def write_arena_replays(result, directory: str | Path) -> list[Path]:
    """Write the replay of every arena game that kept its actions (``ArenaConfig.save_games``)
    into ``directory``; those records lose the actions and name their file under ``replay``."""
    import deckzoo.envs as E

    game = E.game_class(result.game_name)(result.num_players, **result.config.options)
    paths = []
    for rec in result.records:
        if "actions" not in rec:
            continue
        path = save_replay(
            arena_replay(game, rec), Path(directory) / f"{game.name}-{rec['index']:05d}.json"
        )
        del rec["actions"], rec["agent_seeds"]
        rec["replay"] = path.name
        paths.append(path)
    return paths


# ---- CLI ----------------------------------------------------------------------------------
def run(args) -> int:
    """Errors are ``ConfigError`` lines naming the file (the command prints them, status 2)."""
    from .viewer.page import replay_page

    record = load_replay(args.file)
    try:
        html = replay_page(record, step=args.step)
    except ConfigError as e:  # an illegal recorded action: the step is in the message
        raise ConfigError(f"replay {args.file!r}: {e}") from None
    out = Path(args.html or Path(args.file).with_suffix(".html"))
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(html, encoding="utf-8")
    except OSError as e:
        raise ConfigError(f"cannot write {str(out)!r}: {e.strerror or e}") from None
    print(f"{out} written ({len(record['actions'])} moves; open it in a browser)")
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser(
        "replay",
        help="write a saved game as a self-contained HTML replay viewer",
        description="A replay file holds one game: its configuration, seed and every action, so "
        "every position can be rebuilt. deckzoo play saves one per game, deckzoo arena "
        "--save-games N the first N games of each pairing, and deckzoo serve offers one for "
        "download. This writes it as one self-contained web page (deckzoo play --replay FILE "
        "steps through it in the terminal).",
    )
    p.add_argument("file", help="a replay file (from deckzoo play, arena --save-games or serve)")
    p.add_argument(
        "--html",
        default=None,
        metavar="OUT",
        help="the page to write (default: FILE with the suffix .html)",
    )
    p.add_argument(
        "--step", type=count_arg(0), default=0, help="the step the page opens at (default 0)"
    )
    p.set_defaults(func=run)
