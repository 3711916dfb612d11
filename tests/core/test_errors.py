"""IllegalActionError survives copies and pickles (process pools and Ray send errors between
processes, and Ray copies them while it reports a failed training step)."""

import copy
import pickle

from deckzoo.envs.core.errors import IllegalActionError


def test_illegal_action_error_copies_and_pickles():
    err = IllegalActionError(7, [1, 2], "masked out", names=lambda a: f"a{a}")
    for other in (copy.copy(err), copy.deepcopy(err), pickle.loads(pickle.dumps(err))):
        assert type(other) is IllegalActionError and isinstance(other, ValueError)
        assert (
            str(other)
            == str(err)
            == "illegal action 7: masked out; legal actions are [1 (a1), 2 (a2)]"
        )
        assert other.action == 7 and other.legal_actions == [1, 2]
