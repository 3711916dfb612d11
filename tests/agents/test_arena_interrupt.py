"""`deckzoo arena` stopped by signals: two SIGINTs in a row (an impatient Ctrl-C, or
`timeout -s INT`, which signals the process and then its group) still leave the finished games,
their summary and the printed table; and an --out folder that cannot be written is refused
before the first game, in one line."""

from __future__ import annotations

import csv
import json
import os
import select
import signal
import subprocess
import sys
import time

import pytest

from deckzoo.agents.cli import main
from deckzoo.agents.evaluation import arena, report

GAMES = 2000  # far more than are played before the signals: the run is always cut short


def _rows(path) -> int:
    """Finished games in games.csv so far (it gets each game as it finishes)."""
    try:
        with open(path, newline="") as f:
            return max(sum(1 for _ in csv.reader(f)) - 1, 0)
    except FileNotFoundError:
        return 0


def _wait_for_line(proc, text: str, deadline: float) -> list[str]:
    """stderr lines up to the first holding ``text`` (the process keeps running meanwhile)."""
    lines = []
    while not lines or text not in lines[-1]:
        assert time.monotonic() < deadline, f"no {text!r} on stderr: {lines}"
        ready, _, _ = select.select([proc.stderr], [], [], 1.0)
        if ready:
            line = proc.stderr.readline()
            assert line, f"stderr ended before {text!r}: {lines}"
            lines.append(line)
    return lines


@pytest.mark.parametrize("workers", [1, 2])
def test_two_sigints_keep_the_finished_games_summary_and_table(tmp_path, workers):
    """The second SIGINT comes once the first has stopped play, while the results are being
    summarised, printed and written (signals sent back to back reach Python as one)."""
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "deckzoo.agents.cli", "arena", "gobig"]
    cmd += ["--agents", "ismcts:2,random", "--players", "2", "--games", str(GAMES)]
    cmd += ["--workers", str(workers), "--no-progress", "--out", str(out)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 180  # a guard against a hang, not a timing assertion
        while _rows(out / "games.csv") < 3:
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "no game finished within 180 s"
            time.sleep(0.1)
        proc.send_signal(signal.SIGINT)
        early = _wait_for_line(proc, "interrupted: keeping", deadline)
        proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=180)
        stderr = "".join(early) + stderr
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr
    summary = json.loads((out / "summary.json").read_text())
    played = summary["games_played"]
    assert summary["interrupted"] and 3 <= played < GAMES
    assert _rows(out / "games.csv") == played
    assert len(json.loads((out / "games.json").read_text())["records"]) == played
    assert "(interrupted)" in (out / "summary.md").read_text()
    assert f"2 players, {played} games (interrupted)" in stdout  # the table was printed
    assert f"keeping {played} finished games" in stderr


def _never_play(*args, **kwargs):
    raise AssertionError("a game was started")


def _arena_args(out) -> list[str]:
    return ["arena", "gobig", "--agents", "random", "--games", "4", "--no-progress", "--out", out]


def test_an_out_folder_that_cannot_be_created_is_refused_before_any_game(
    tmp_path, capsys, monkeypatch
):
    monkeypatch.setattr(arena, "run_arena", _never_play)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    assert main(_arena_args(str(blocker / "out"))) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "--out" in err and "cannot be created or written" in err


def test_an_out_folder_that_cannot_be_written_is_refused_before_any_game(
    tmp_path, capsys, monkeypatch
):
    """With --force the earlier results go, but a games.csv that is a folder cannot."""
    monkeypatch.setattr(arena, "run_arena", _never_play)
    (tmp_path / "games.csv").mkdir()
    assert main([*_arena_args(str(tmp_path)), "--force"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "cannot be created or written" in err


def test_the_signal_handlers_are_restored_after_a_run(tmp_path, capsys):
    before = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    assert main(_arena_args(str(tmp_path / "out"))) == 0
    assert {sig: signal.getsignal(sig) for sig in before} == before
    assert _rows(tmp_path / "out" / "games.csv") == 4
    capsys.readouterr()


def test_a_signal_during_the_wrap_up_is_ignored(tmp_path, capsys, monkeypatch):
    """Once play has ended, SIGINT no longer interrupts: the results are still written."""
    real = report.print_summary

    def print_then_signal(result, console=None):
        os.kill(os.getpid(), signal.SIGINT)
        real(result, console)

    monkeypatch.setattr(report, "print_summary", print_then_signal)
    assert main(_arena_args(str(tmp_path / "out"))) == 0
    assert json.loads((tmp_path / "out" / "summary.json").read_text())["games_played"] == 4
    capsys.readouterr()
