"""The two errors every deckzoo user meets.

Both subclass ``ValueError`` so that generic code catching bad values keeps working, while
callers who care can tell a rules violation (``IllegalActionError``) from a bad
configuration (``ConfigError``). ``did_you_mean`` adds the suggestion that every
"unknown name" error ends with.
"""

import difflib


class IllegalActionError(ValueError):
    """An action that is out of range, of the wrong type, or masked out.

    Raised *before* anything changes, so the state is exactly as it was.
    """

    def __init__(self, action, legal_actions, reason: str = "", names=None):
        self.action = action
        self.legal_actions = [int(a) for a in legal_actions]
        shown = self.legal_actions[:40]
        if names is not None:
            listed = ", ".join(f"{a} ({names(a)})" for a in shown)
        else:
            listed = ", ".join(str(a) for a in shown)
        if len(self.legal_actions) > len(shown):
            listed += f", ... ({len(self.legal_actions)} in all)"
        why = f": {reason}" if reason else ""
        super().__init__(f"illegal action {action!r}{why}; legal actions are [{listed}]")

    def __reduce__(self):
        # copies and pickles (process pools, Ray's workers and its error handling) keep the
        # message and the fields without calling __init__ again
        return _rebuilt_illegal_action, (str(self), self.action, self.legal_actions)


def _rebuilt_illegal_action(message: str, action, legal_actions) -> IllegalActionError:
    err = IllegalActionError.__new__(IllegalActionError)
    ValueError.__init__(err, message)
    err.action, err.legal_actions = action, legal_actions
    return err


class ConfigError(ValueError):
    """A game or environment option that is unknown or out of range; raised at construction."""


def closest(name: str, known):
    """The closest of ``known`` to a mistyped ``name`` (difflib's ratio of at least 0.6, ignoring
    case), or None when none is close.

    ``known`` is an iterable of names, or a mapping from the names to compare with to the name to
    give back (so ``"gobgi"`` can be compared with the game ``"gobig"`` and answered with its env
    name ``"gobig_v0"``). Every error about an unknown env, agent, game option or config key
    suggests it, so a typo costs one look rather than a read of the list.
    """
    shown = dict(known) if hasattr(known, "keys") else {k: k for k in known}
    lowered = {str(k).lower(): v for k, v in shown.items()}
    close = difflib.get_close_matches(str(name).lower(), list(lowered), n=1)
    return lowered[close[0]] if close else None


def did_you_mean(name: str, known, quote: bool = False) -> str:
    """``"; did you mean X?"`` with X the ``closest`` of ``known`` (in quotes if ``quote``), or
    ``""`` when none is close: the tail of an "unknown name" error."""
    best = closest(name, known)
    if best is None:
        return ""
    return f"; did you mean {best!r}?" if quote else f"; did you mean {best}?"
