"""Every game folder follows the module design of docs/adding-a-game.md (``module_design.py``):
no import circle, no forwarding methods, no mixins. Tiny, the sixth-game template, too."""

from __future__ import annotations

from pathlib import Path

import pytest

import deckzoo.envs as E

from .module_design import forwarding_methods, import_cycles, mixin_bases

TINY = Path(__file__).with_name("tiny")


def folders():
    out = [pytest.param(TINY, id="tiny-template")]
    for name in sorted(E.registry.games()):
        package = E.registry.games()[name].__module__.rpartition(".")[0]
        folder = Path(__import__(package, fromlist=["_"]).__file__).parent
        out.append(pytest.param(folder, id=name))
    return out


@pytest.mark.parametrize("folder", folders())
def test_a_game_folder_has_no_import_circle_forward_or_mixin(folder):
    assert import_cycles(folder) == []
    assert forwarding_methods(folder) == []
    assert mixin_bases(folder) == []


def test_the_checks_find_what_they_look_for(tmp_path):
    (tmp_path / "rules.py").write_text(
        "from . import text\nfrom .saved import check_state\nfrom .turn import TurnMixin\n"
        "class S(TurnMixin):\n"
        "    def render(self, observer=None):\n        '''doc'''\n"
        "        return text.render(self, observer)\n"
        "    @classmethod\n    def _check_dict(cls, game, d):\n        check_state(game, d)\n"
        "    def legal(self):\n        return text.names(self) + 1\n"
        "    _say = text.say\n    layout = text\n"
    )
    (tmp_path / "text.py").write_text("from .rules import S\n")
    (tmp_path / "saved.py").write_text("")
    (tmp_path / "turn.py").write_text("class TurnMixin:\n    pass\n")
    assert import_cycles(tmp_path) == [["rules", "text", "rules"]]
    assert forwarding_methods(tmp_path) == ["rules.S.render", "rules.S._check_dict", "rules.S._say"]
    assert mixin_bases(tmp_path) == ["rules.S(TurnMixin)"]
