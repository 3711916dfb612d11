"""What a new user runs into with the ``deckzoo`` command (main(argv) in-process): damaged or
crafted replay files given to ``deckzoo replay`` and ``deckzoo play --replay``, and a ``--save``
that cannot be written, are each one line on stderr with exit status 2, never a traceback;
escape codes hidden in a replay's text reach the terminal written out, not obeyed."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import deckzoo.envs as E
from deckzoo.agents.cli_args import terminal_safe
from deckzoo.agents.tools.replay import new_record
from deckzoo.envs.core.errors import ConfigError

from .helpers import one_line
from .helpers import run_cli as run

MOVES = 6  # recorded moves of the test game (a 2-player Go Big game is far longer)


def _record(**changes) -> dict:
    """A 2-player Go Big replay of ``MOVES`` random moves, as ``play`` saves one, with
    ``changes`` (a key given as None is removed)."""
    game = E.game_class("gobig")(2)
    state = game.new_state(3)
    record = new_record(game, 3, 0, ["human", "random"], [11, 12])
    rng = np.random.default_rng(0)
    for _ in range(MOVES):
        a = int(rng.choice(state.legal_actions()))
        state.apply(a)
        record["actions"].append(a)
    for key, value in changes.items():
        if value is None:
            record.pop(key)
        else:
            record[key] = value
    return record


def _json(**changes) -> str:
    return json.dumps(_record(**changes))


def _illegal_after_the_end() -> str:
    """Every move of a whole game, then one more."""
    game = E.game_class("gobig")(2)
    state = game.new_state(3)
    actions = []
    while not state.is_terminal():
        actions.append(int(state.legal_actions()[0]))
        state.apply(actions[-1])
    return _json(actions=[*actions, actions[-1]])


# name -> (the file's content, or "folder" / "missing"; a fragment of the error line)
MALFORMED = {
    "empty": ("", "is not JSON"),
    "blank": ("  \n\t\n", "is not JSON"),
    "not_json": ("{not json", "is not JSON"),
    "cut_short": (_json()[:40], "is not JSON"),
    "a_list": ("[1, 2]", "a replay is a JSON object, got list"),
    "a_string": ('"gobig"', "a replay is a JSON object, got str"),
    "null": ("null", "a replay is a JSON object, got NoneType"),
    "empty_object": ("{}", "missing key(s) game, config, seed, actions"),
    "no_game": (_json(game=None), "missing key(s) game"),
    "no_config": (_json(config=None), "missing key(s) config"),
    "no_seed": (_json(seed=None), "missing key(s) seed"),
    "no_actions": (_json(actions=None), "missing key(s) actions"),
    "game_a_number": (_json(game=42), "'game' must be a game name, got 42"),
    "game_unknown": (_json(game="chess"), "unknown env 'chess'"),
    "game_other_version": (_json(game="gobig_v7"), "gobig is at version"),
    "config_a_list": (_json(config=[2]), "'config' must be a JSON object, got [2]"),
    "config_unknown_option": (_json(config={"num_players": 2, "tempo": 3}), "'tempo'"),
    "config_players": (_json(config={"num_players": 42}), "'num_players' must be in 2..6"),
    "config_players_text": (_json(config={"num_players": "two"}), "'num_players' must be an int"),
    "seed_text": (_json(seed="abc"), "'seed' must be a whole number in 0..2**63-1, got 'abc'"),
    "seed_negative": (_json(seed=-1), "'seed' must be a whole number"),
    "seed_huge": (_json(seed=2**70), "got 1180591620717411303424"),
    "seed_float": (_json(seed=1.5), "got 1.5"),
    "seed_bool": (_json(seed=True), "got True"),
    "seed_nan": (_json().replace('"seed": 3', '"seed": NaN'), "it holds NaN"),
    "config_infinity": ('{"game":"gobig","config":{"num_players":Infinity}}', "holds Infinity"),
    "number_of_5000_digits": (_json().replace('"seed": 3', '"seed": ' + "7" * 5000), "digits"),
    "actions_text": (_json(actions="0 1 2"), "'actions' must be a list of action ids"),
    "actions_with_text": (_json(actions=[0, "draw"]), "got 'draw' at position 1"),
    "actions_with_float": (_json(actions=[1.5]), "got 1.5 at position 0"),
    "actions_with_bool": (_json(actions=[True]), "got True at position 0"),
    "action_out_of_range": (_json(actions=[999]), "illegal action 999"),
    "action_huge": (_json(actions=[2**70]), "illegal action 1180591620717411303424"),
    "action_negative": (_json(actions=[-1]), "illegal action -1"),
    "actions_past_the_end": (_illegal_after_the_end(), "illegal action"),
    "deep_nesting": ('{"game": "gobig", "config": ' + "[" * 100_000, "nested too deeply"),
    "binary": (bytes(range(255, -1, -1)), "not UTF-8 text (byte 0xff at offset 0)"),
    "human_seat_out_of_range": (_json(human_seat=7), "'human_seat' must be a seat 0..1, got 7"),
    "human_seat_text": (_json(human_seat="me"), "'human_seat' must be a seat"),
    "seats_too_few": (_json(seats=["random"]), "'seats' must list 2 strings"),
    "seats_not_text": (_json(seats=[{}, 3]), "'seats' must list 2 strings"),
    "labels_a_dict": (_json(labels={"0": "a"}), "'labels' must list 2 strings"),
    "keyed_chance_text": (_json(keyed_chance="yes"), "'keyed_chance' must be true or false"),
    "a_folder": ("folder", "is a folder"),
    "missing": ("missing", "no such file"),
}


def _write(tmp_path: Path, name: str, content) -> Path:
    path = tmp_path / f"{name}.json"
    if content == "folder":
        path.mkdir()
    elif isinstance(content, bytes):
        path.write_bytes(content)
    elif content != "missing":
        path.write_text(content)
    return path


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_a_malformed_replay_file_is_one_line(tmp_path, capsys, monkeypatch, name):
    content, needle = MALFORMED[name]
    path = _write(tmp_path, name, content)
    html = tmp_path / "page.html"
    for argv in (["replay", str(path), "--html", str(html)], ["play", "--replay", str(path)]):
        rc, _, err = run(argv, capsys, stdin="a\n", monkeypatch=monkeypatch)
        line = one_line(rc, err, f"deckzoo {argv[0]}: ", str(path), needle)
        assert len(line) < 400, line  # the file's content is not quoted at length
    assert not html.exists()


def test_the_malformed_files_differ_from_a_good_one(tmp_path, capsys, monkeypatch):
    """The record every malformed file is made from replays with both commands (so each failure
    above is the damage), and so does one saved with a byte order mark."""
    assert len(MALFORMED) >= 34
    for name, text in (("good", _json()), ("bom", "\ufeff" + _json())):
        path = _write(tmp_path, name, text)
        rc, out, err = run(["replay", str(path)], capsys)
        assert rc == 0 and f"{MOVES} moves" in out and err == "", err
        rc, out, err = run(["play", "--replay", str(path)], capsys, "a\n", monkeypatch)
        assert rc == 0 and f"move {MOVES}/{MOVES}" in out and err == "", err


# ---- escape codes in a replay's text -------------------------------------------------------------
# Clear the screen, set the window title (OSC ... BEL), CSI as one C1 character, DEL and NUL.
EVIL = "\x1b[2J\x1b[H\x1b]0;owned\x07\x9b31m\x7f\x00"
CONTROLS = [chr(c) for c in (*range(0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0))]


def test_terminal_safe_writes_out_every_control_but_tab_and_newline():
    text = "".join(CONTROLS) + "\t\n ok \u00e9\u2665"
    safe = terminal_safe(text)
    assert not any(c in safe for c in CONTROLS) and safe.endswith("\t\n ok \u00e9\u2665")
    assert safe.startswith("\\x00\\x01") and "\\x1b" in safe and "\\x9f" in safe
    assert terminal_safe("a\nb\r", one_line=True) == "a\\x0ab\\x0d"


def test_escape_codes_in_a_replay_are_printed_written_out(tmp_path, capsys, monkeypatch):
    """The arena's labels name the seats in ``play --replay``; crafted ones, and a crafted file
    name, reach the terminal as visible text."""
    path = tmp_path / f"game{EVIL[:4]}.json"
    path.write_text(json.dumps(_record(labels=[f"me{EVIL}", f"bot{EVIL}"], human_seat=0)))
    rc, out, err = run(["play", "--replay", str(path)], capsys, "\n" * MOVES, monkeypatch)
    assert rc == 0 and err == ""
    assert not any(c in out for c in CONTROLS), repr(out[:300])
    assert "player_1 (bot\\x1b[2J\\x1b[H\\x1b]0;owned\\x07\\x9b31m\\x7f\\x00)" in out
    assert "game\\x1b[2J.json" in out


def test_an_error_quoting_a_file_is_one_line_without_escape_codes(tmp_path, capsys, monkeypatch):
    """Whatever an error message quotes (a name from a file, with newlines and escape codes), it
    is printed as one line with the controls written out."""
    import deckzoo.agents.tools.replay as R

    def crafted(path):
        raise ConfigError(f"replay {path}: unknown seat name 'x{EVIL}\ny'")

    monkeypatch.setattr(R, "load_replay", crafted)
    rc, _, err = run(["replay", "any.json"], capsys)
    line = one_line(rc, err, "unknown seat name 'x\\x1b[2J", "\\x0ay'")
    assert not any(c in line for c in CONTROLS)


# ---- a --save or --html that cannot be written -----------------------------------------------
def test_an_unwritable_save_is_one_line_before_the_game_starts(tmp_path, capsys, monkeypatch):
    a_file = tmp_path / "notes.txt"
    a_file.write_text("x")
    (tmp_path / "folder").mkdir()
    for save, why in (
        (a_file / "game.json", f"{str(a_file)!r} is a file, not a folder"),
        (a_file / "sub" / "game.json", "is a file, not a folder"),
        (tmp_path / "folder", "it is a folder"),
    ):
        argv = ["play", "gobig", "--players", "2", "--opponents", "random", "--save", str(save)]
        rc, out, err = run(argv, capsys, stdin="0\n" * 50 + "quit\n", monkeypatch=monkeypatch)
        one_line(rc, err, f"cannot save the game to {str(save)!r}", why, "--no-save")
        assert out == ""  # nothing was played
    ok = tmp_path / "new" / "deeper" / "game.json"
    argv = ["play", "gobig", "--players", "2", "--opponents", "random", "--save", str(ok)]
    assert run(argv, capsys, stdin="quit\n", monkeypatch=monkeypatch)[0] == 0
    assert json.loads(ok.read_text())["finished"] is False


def test_a_save_that_fails_after_the_game_is_one_line(tmp_path, capsys, monkeypatch):
    """A disk that fills during the game: the check before it passed, the write fails."""
    import pathlib

    def full(self, *args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pathlib.Path, "write_text", full)
    save = tmp_path / "game.json"
    argv = ["play", "gobig", "--players", "2", "--opponents", "random", "--save", str(save)]
    rc, _, err = run(argv, capsys, stdin="quit\n", monkeypatch=monkeypatch)
    one_line(rc, err, f"cannot save the game to {str(save)!r}", "No space left on device")


def test_an_unwritable_replay_page_is_one_line(tmp_path, capsys):
    good = _write(tmp_path, "good", _json())
    a_file = tmp_path / "notes.txt"
    a_file.write_text("x")
    for html in (a_file / "page.html", tmp_path):
        rc, _, err = run(["replay", str(good), "--html", str(html)], capsys)
        one_line(rc, err, f"cannot write {str(html)!r}")


# ---- --version -----------------------------------------------------------------------------------
def test_version_is_the_installed_distributions(capsys):
    from importlib import metadata

    rc, out, err = run(["--version"], capsys)
    assert rc == 0 and err == "" and out == f"deckzoo {metadata.version('deckzoo')}\n"


def test_version_without_an_installed_distribution(monkeypatch, tmp_path):
    """Imported from a tree that was never installed: the checkout's pyproject.toml's version,
    marked; with no pyproject.toml beside the package either, "unknown"."""
    from importlib import metadata

    from deckzoo.agents import cli

    installed = metadata.version("deckzoo")  # this checkout's, installed editable

    def not_installed(name):
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "version", not_installed)
    assert cli.version() == f"{installed} (not installed)"
    monkeypatch.setattr(cli, "__file__", str(tmp_path / "agents" / "cli.py"))
    assert cli.version() == "unknown (not installed)"
