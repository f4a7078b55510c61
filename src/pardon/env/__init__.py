"""Sorry! in the standard reinforcement-learning interfaces (needs the ``rl`` extra):

* :class:`pardon.env.aec.SorryAECEnv`: PettingZoo AEC, every seat an agent;
* :class:`pardon.env.single.SorryEnv`: Gymnasium, one agent against pardon's computer players;
* :class:`pardon.env.vector.SorryVectorEnv`: Gymnasium vectorised, many games over :mod:`pardon.batch`.

Importing this package registers the Gymnasium ones: ``gymnasium.make("pardon/Sorry-v0")``
and ``gymnasium.make_vec("pardon/SorryVector-v0", num_envs=...)`` (or, without importing it
first, ``gymnasium.make("pardon.env:pardon/Sorry-v0")``).  docs/batch.md describes the
observations and the actions.
"""

from __future__ import annotations

import gymnasium

#: The Gymnasium ids: the single-agent environment, and the vectorised one (``make_vec``).
SINGLE_ID = "pardon/Sorry-v0"
VECTOR_ID = "pardon/SorryVector-v0"


def register() -> None:
    """Register the environments with Gymnasium, once (again would be warned about)."""
    if SINGLE_ID not in gymnasium.registry:
        gymnasium.register(SINGLE_ID, entry_point="pardon.env.single:SorryEnv")
    if VECTOR_ID not in gymnasium.registry:
        gymnasium.register(VECTOR_ID, vector_entry_point="pardon.env.vector:SorryVectorEnv")


register()
