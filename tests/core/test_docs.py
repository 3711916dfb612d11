"""Each game's docs page prints its observation and global-state tables from the code
(deckzoo.envs.layout_docs)."""

from pathlib import Path

import pytest

from deckzoo.envs import registry
from deckzoo.envs.layout_docs import BLOCK, STATE_BLOCK, notes_of, page, refresh

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", registry.env_names())
def test_observation_table_matches_the_layout(name):
    path = page(ROOT, name)
    assert path.exists(), f"{name} has no rules page {path}"
    text = path.read_text()
    blocks = list(BLOCK.finditer(text))
    assert blocks, f"{path.name} has no generated observation table (see envs/layout_docs.py)"
    states = list(STATE_BLOCK.finditer(text))
    assert states, f"{path.name} has no generated global-state table (see envs/layout_docs.py)"
    assert refresh(text, registry.game_class(name)) == text, (
        f"{path.name}: a layout table differs from the code; run `make layout-tables`"
    )
    for block in blocks + states:
        empty = [piece for piece, note in notes_of(block.group(3)).items() if not note]
        assert not empty, f"{path.name}: describe the pieces {empty}"


def test_every_rules_page_is_a_registered_game():
    pages = {p.stem for p in (ROOT / "docs" / "rules").glob("*.md")}
    assert pages == set(registry.games())
