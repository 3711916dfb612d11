"""The viewer in a real browser (headless Chromium): replay pages of every game stepped with the
keyboard and checked against the engine, screenshots, and whole games played on ``deckzoo serve``
by clicking legal actions.

Screenshots go to a temporary folder; with ``DECKZOO_SCREENSHOTS=docs/viewer`` (``make
screenshots``) they refresh the pictures in docs/viewer.md.
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

import deckzoo.envs as E
from deckzoo.agents.tools.replay import final_state, replay_states
from deckzoo.agents.tools.viewer.frames import read_frames, replay_data
from deckzoo.agents.tools.viewer.page import replay_page

from .browser import screenshot
from .helpers import GAME_NAMES, check_reproduces, hand_names, recorded_game
from .server import Running

pytestmark = pytest.mark.xdist_group("browser")

# One read of everything the tests compare, in a single round trip to the browser.
READ_PAGE = """
const cards = (zone) => zone ? [...zone.querySelectorAll('.card')].map(
  (c) => [c.dataset.name, Number(c.dataset.count), c.dataset.back === '1']) : [];
const last = document.querySelector('#last-action [data-name]');
return {
  step: Number(document.body.dataset.step),
  seats: [...document.querySelectorAll('.seat')].map((s) => ({
    score: Number(s.querySelector('.score').dataset.score), active: s.classList.contains('active'),
    hand: cards(s.querySelector('.zone[data-zone="hand"]'))})),
  last: last && [last.dataset.seat === undefined ? null : Number(last.dataset.seat),
                 last.dataset.name],
  legal: [...document.querySelectorAll('#legal .action')].map((a) => Number(a.dataset.action)),
};
"""


def own_hand_hidden(state, p: int) -> bool:
    """Whether seat ``p`` may not see its own hand now (Wizard's Foresight round)."""
    return bool(getattr(state, "own_hand_hidden", lambda p: False)(p))


def screenshot_at(game_name: str) -> float:
    """How far into the recorded game the screenshot is taken (``SCREENSHOT_AT`` in the game's
    testing.py; half way by default)."""
    return E.registry.testing_fact(game_name, "SCREENSHOT_AT", 0.5)


def press(driver, key: str, times: int = 1) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    if times > 0:
        ActionChains(driver).send_keys(key * times).perform()


def goto(driver, shown: int, target: int, starts: list[int]) -> int:
    """Step from ``shown`` to ``target`` with the keyboard: round jumps (PageDown) while they
    stay at or before it, then the arrow key (each key costs a round trip to the browser)."""
    from selenium.webdriver.common.keys import Keys

    jumps = [i for i in starts if shown < i <= target]
    press(driver, Keys.PAGE_DOWN, len(jumps))
    press(driver, Keys.ARROW_RIGHT, target - (jumps[-1] if jumps else shown))
    return target


def face_up(hand) -> Counter:
    return Counter({name: count for name, count, back in hand if not back})


def screenshot_dir(tmp_path) -> Path:
    target = os.environ.get("DECKZOO_SCREENSHOTS")
    path = Path(target) if target else tmp_path
    path.mkdir(parents=True, exist_ok=True)
    return path


def check_not_blank(path: Path) -> None:
    from PIL import Image

    with Image.open(path) as img:
        rgb = img.convert("RGB")
        assert rgb.size[0] >= 1000 and rgb.size[1] >= 700
        colors = rgb.getcolors(maxcolors=1 << 20)
        most = max(count for count, _ in colors)
        assert len(colors) > 200, f"{path}: only {len(colors)} colours"
        assert most < 0.85 * rgb.size[0] * rgb.size[1], f"{path}: one colour covers most of it"


@pytest.mark.parametrize("game_name", GAME_NAMES)
def test_replay_page_matches_the_engine(browser, tmp_path, game_name):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    record = recorded_game(game_name)
    states = [s.clone() for s, _ in replay_states(record)]
    n = states[0].game.num_players
    page = tmp_path / f"{game_name}.html"
    page.write_text(replay_page(record), encoding="utf-8")
    browser.get(page.as_uri())
    last = len(states) - 1
    frames = read_frames(replay_data(record))
    starts = [i for i in range(1, len(frames)) if frames[i]["round"] != frames[i - 1]["round"]]
    press(browser, Keys.PAGE_DOWN)  # round starts: where the round label changes
    assert browser.execute_script(READ_PAGE)["step"] == (starts[0] if starts else last)
    press(browser, Keys.HOME)
    assert browser.execute_script(READ_PAGE)["step"] == 0
    shown = 0
    for target in sorted({1, 2, last // 3, (2 * last) // 3, last - 1, last}):
        shown = goto(browser, shown, target, starts)
        seen = browser.execute_script(READ_PAGE)
        state = states[target]
        assert seen["step"] == target
        for p in range(n):
            assert face_up(seen["seats"][p]["hand"]) == hand_names(state, p), (target, p)
            assert seen["seats"][p]["score"] == pytest.approx(float(state.scores()[p]))
        before = states[target - 1]
        action = record["actions"][target - 1]
        assert seen["last"] == [before.current_player, before.action_name(action)]
        assert seen["legal"] == ([] if state.is_terminal() else state.legal_actions().tolist())
    press(browser, Keys.ARROW_LEFT, 2)
    assert browser.execute_script(READ_PAGE)["step"] == last - 2
    # One seat's own view: its hand face up (bar Wizard's Foresight), the others' as backs plus
    # what everyone knows of them.
    middle = last // 2
    press(browser, Keys.HOME)
    goto(browser, 0, middle, starts)
    Select(browser.find_element(By.ID, "observer")).select_by_value("2")  # player_1's view
    seen = browser.execute_script(READ_PAGE)
    state = states[middle]
    if not own_hand_hidden(state, 1):
        assert face_up(seen["seats"][1]["hand"]) == hand_names(state, 1)
    for q in (0, 2) if n > 2 else (0,):
        assert not face_up(seen["seats"][q]["hand"]) - hand_names(state, q)
        assert sum(c for _, c, _ in seen["seats"][q]["hand"]) == state.view(1)["hand_sizes"][q]
    Select(browser.find_element(By.ID, "observer")).select_by_value("0")
    browser.find_element(By.TAG_NAME, "body").click()  # give the keys back to the page
    press(browser, Keys.HOME)
    goto(browser, 0, int(screenshot_at(game_name) * last), starts)
    shot = screenshot_dir(tmp_path) / f"{game_name}.png"
    screenshot(browser, shot)
    check_not_blank(shot)


def wait_for(driver, script: str, *args, timeout: float = 60.0):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.02).until(
        lambda d: d.execute_script(script, *args)
    )


@pytest.mark.parametrize("game_name,players", [("gobig", 3), ("wizard", 6)])
def test_play_a_whole_game_in_the_browser(browser, browser_downloads, game_name, players):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    server = Running()
    try:
        browser.get(server.url + "/")
        wait_for(browser, "return document.body.dataset.ready === '1'")
        Select(browser.find_element(By.ID, "game")).select_by_value(game_name)
        Select(browser.find_element(By.ID, "players")).select_by_value(str(players))
        Select(browser.find_element(By.ID, "seat")).select_by_value("1")
        browser.find_element(By.ID, "seed").send_keys("21")
        browser.find_element(By.ID, "start").click()
        rng = np.random.default_rng(0)
        clicks = 0
        while True:
            step = wait_for(
                browser,
                "const b = document.body.dataset;"
                "return b.gameId && !b.busy && (b.over === '1' ? 'over' : b.step)",
            )
            if step == "over":
                break
            if clicks == 0:  # the replay would give the hidden cards away before the end
                assert not browser.find_element(By.ID, "download").is_displayed()
            buttons = browser.find_elements(By.CSS_SELECTOR, "#legal button.action")
            assert buttons, "no legal action to click"
            buttons[int(rng.integers(len(buttons)))].click()
            clicks += 1
            wait_for(browser, "return document.body.dataset.step !== arguments[0]", step)
        gid = browser.execute_script("return document.body.dataset.gameId")
        assert "game over - winners" in browser.find_element(By.ID, "legal").text
        browser.find_element(By.ID, "download").click()
        path = Path(browser_downloads) / f"{game_name}-{gid}.json"
        deadline = time.monotonic() + 30
        while not path.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        record = json.loads(path.read_text())
        session = server.lobby.sessions[gid]
        assert record["finished"] and record["human_seat"] == 1 and record["seed"] == 21
        assert record["config"]["num_players"] == players
        assert sum(1 for s, _ in replay_states(record) if s.current_player == 1) == clicks
        assert final_state(record) == session.state  # the replay is the game, to the last bit
        check_reproduces(record)  # and the heuristic opponents' moves come out again
        browser.find_element(By.ID, "new-game").click()  # abandons the game on the server
        deadline = time.monotonic() + 30
        while gid in server.lobby.sessions and time.monotonic() < deadline:
            time.sleep(0.05)
        assert gid not in server.lobby.sessions
    finally:
        server.close()
