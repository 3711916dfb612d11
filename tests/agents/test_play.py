"""``deckzoo play`` driven through its input stream: bad input, names, EOF, saving, replay."""

from __future__ import annotations

import io
import json
import re

import numpy as np
import pytest

from deckzoo.agents.cli import main
from deckzoo.agents.tools.play import parse_choice, play_game, render_for, replay
from deckzoo.envs import ConfigError
from deckzoo.envs.core.render import render_view
from deckzoo.envs.gobig.rules import GoBigGame

from .helpers import ENV_NAMES, make_game, positions


class Person:
    """Answers prompts from a script; ``None`` in the script (or its end) means end of input.
    The token ``FIRST`` answers with the first action id of the last listed actions."""

    def __init__(self, script, out_lines):
        self.script = list(script)
        self.out_lines = out_lines
        self.prompts = 0

    def __call__(self, prompt):
        self.prompts += 1
        if not self.script:
            raise EOFError
        answer = self.script.pop(0)
        if answer is None:
            raise EOFError
        if answer == "FIRST":  # read the listing like a person would
            block = "\n".join(self.out_lines).rsplit("your move", 1)[1]
            answer = re.search(r"^\s+(\d+): ", block, re.MULTILINE).group(1)
        return answer


def run_game(script, **kw):
    lines = []
    out = lambda s: lines.extend(str(s).split("\n"))
    person = Person(script, lines)
    record = play_game("gobig", input_fn=person, out=out, **kw)
    return record, lines, person


@pytest.mark.parametrize(
    "text,expected",
    [
        ("4", 4),
        (" 21 ", 21),
        ("play 1x5", 4),
        ("PLAY 1X5", 4),
        ("draw", 21),
        ("take", 22),
        ("9", None),
        ("-1", None),
        ("", None),
        ("play 1x", None),
        ("fold", None),
        ("1.5", None),
    ],
)
def test_parse_choice_table(text, expected):
    state = GoBigGame(2).new_state(0)
    legal = [4, 5, 11, 21, 22]
    a, why = parse_choice(text, legal, state.action_name)
    assert a == expected
    assert (why == "") == (expected is not None)


def test_bad_input_is_asked_again_then_names_and_ids_work():
    # Seat 0 starts (start_player=0); the hand dealt by seed 4 is listed, so we answer by the
    # listing: nonsense, an illegal id, an ambiguous prefix, empty input, then a real choice.
    record, lines, _ = run_game(
        ["nonsense", "99", "play", "", "help", "FIRST", "draw from deck", None],
        players=2,
        seed=4,
        options={"start_player": 0},
    )
    text = "\n".join(lines)
    assert "no legal action is called 'nonsense'" in text
    assert "99 is not a legal action now" in text
    assert "is ambiguous" in text
    assert "empty input" in text
    assert record["actions"][0] < 21 and record["actions"][1] == 21  # a play, then "draw from deck"
    assert not record["finished"] and "stopped" in text  # EOF ended it cleanly


def test_eof_at_the_first_prompt_exits_cleanly(tmp_path):
    record, _, _ = run_game([], players=3, seed=1, seat=2, save=tmp_path / "g.json")
    assert not record["finished"]
    saved = json.loads((tmp_path / "g.json").read_text())
    assert saved["human_seat"] == 2 and saved["actions"] == record["actions"]


def test_full_game_saved_and_replayed(tmp_path):
    path = tmp_path / "game.json"
    record, lines, _ = run_game(
        ["FIRST"] * 500, players=3, seed=7, opponents="heuristic,random", save=path
    )
    assert record["finished"] and "game over" in "\n".join(lines)
    assert record["seats"] == ["human", "heuristic", "random"]
    saved = json.loads(path.read_text())
    # The saved actions reproduce the game exactly.
    state = GoBigGame(**saved["config"]).new_state(saved["seed"])
    for a in saved["actions"]:
        state.apply(a)
    assert state.is_terminal() and state.scores().tolist() == saved["scores"]
    # Replay: Enter, Enter, then "a" plays to the end.
    shown = []
    n = replay(path, input_fn=Person(["", "", "a"], shown), out=lambda s: shown.append(s))
    assert n == len(saved["actions"]) and "game over" in shown[-1]
    # "q" stops after the first move; EOF at once shows nothing.
    assert replay(path, input_fn=Person(["", "q"], []), out=lambda s: None) == 1
    assert replay(path, input_fn=Person([], []), out=lambda s: None) == 0


def test_the_person_sees_only_their_view():
    """The table shown to a seat is the same for two states that differ only in hidden cards."""
    for env in ENV_NAMES:
        game = make_game(env)
        rng = np.random.default_rng(0)
        for state in positions(game, seed=3, count=4):
            seat = state.current_player
            other = state.determinize(seat, rng)
            assert render_for(state, seat) == render_for(other, seat)


def test_render_view_lists_seats():
    view = {
        "player": 1,
        "num_players": 2,
        "hand": [1, 2],
        "displays": [None, [3, 2]],
        "deck_size": 4,
        "nested": {"a": 1},
    }
    text = render_view(view)
    assert "player_1 (you): [3, 2]" in text and "player_0: -" in text and "deck_size: 4" in text
    assert "  a: 1" in text


def test_bad_arguments():
    with pytest.raises(ConfigError, match="seat"):
        play_game("gobig", players=2, seat=5, input_fn=lambda p: "", out=lambda s: None)
    with pytest.raises(ConfigError, match="opponent"):
        play_game(
            "gobig", players=4, opponents="random,random", input_fn=lambda p: "", out=lambda s: None
        )


def test_cli_play_through_stdin(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("bogus\nquit\n"))
    save = tmp_path / "x.json"
    assert (
        main(
            [
                "play",
                "gobig",
                "--players",
                "2",
                "--seed",
                "3",
                "--option",
                "start_player=0",
                "--save",
                str(save),
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "no legal action is called 'bogus'" in out and "stopped" in out
    assert json.loads(save.read_text())["actions"] == []
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # EOF straight away
    assert main(["play", "--replay", str(save)]) == 0
    assert main(["play", "nogame", "--no-save"]) == 2
