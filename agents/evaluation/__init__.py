"""Evaluation: agents play each other, and the games say who is stronger and by how much.

It is one product, so it lives in one subpackage, from the games to the report:

* ``tasks``: a run's games as self-contained tasks (seating, seeding, duplicate boards);
  ``config``: the run's configuration (``ArenaConfig``) and result (``ArenaResult``);
* ``arena``: plays the tasks, on the scalar engine (``match``: one game) or on the batched
  engines (``batched``, with the agents' batched ``forms`` and Midgard's scalar ``lanes``), in
  this process, a process pool or on Ray (``ray_backend``); ``cli`` is ``deckzoo arena``;
* ``boards`` and ``confseq``: the paired statistics of duplicate boards and the stopping rule
  (``--until-separated``);
* ``stats``: win shares, Wilson intervals, ranks and ratings;
* ``report``: the printed table, the markdown summary, the chart and the result files.

The tools for people (play in the terminal, replays and the viewer, ``deckzoo serve``, the demo)
are another product: ``deckzoo.agents.tools``.
"""
