"""The tools for people: ``deckzoo`` subcommands that a person plays or watches with.

* ``play``: play against agents in the terminal, or replay a saved game there;
* ``serve``: play against agents in the browser (``deckzoo serve``);
* ``replay`` and ``viewer``: replay files, and the self-contained replay page;
* ``demo``: the first command a new user runs.

Evaluation (the arena, its statistics and its reports) is another product, kept apart in
``deckzoo.agents.evaluation``.
"""
