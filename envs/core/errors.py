"""The two errors every deckzoo user meets.

Both subclass ``ValueError`` so that generic code catching bad values keeps working, while
callers who care can tell a rules violation (``IllegalActionError``) from a bad
configuration (``ConfigError``).
"""


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
