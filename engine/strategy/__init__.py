"""What judges plays beyond their score.

- :mod:`~engine.strategy.leaves`: leave values (what the tiles kept are worth), shipped per
  game in ``leavedata/`` with their provenance;
- :mod:`~engine.strategy.equity`: ranking turns (plays, exchanges, the pass) by score plus
  leave value, and each game's end rules once the bag is empty;
- :mod:`~engine.strategy.players`: engine players (``greedy``, ``random``, ``equity``);
- :mod:`~engine.strategy.selfplay`: seeded games between players;
- :mod:`~engine.strategy.train_leaves`: leave values learned by self-play;
- :mod:`~engine.strategy.abtest`: mirrored pairs between two players, with a 95% interval.

Everything here asks the search seam (:mod:`engine.search`) for plays; nothing here knows
which generator answers.
"""
