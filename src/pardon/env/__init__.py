"""Sorry! in the standard reinforcement-learning interfaces (needs the ``rl`` extra):

* :class:`pardon.env.aec.SorryAECEnv`: PettingZoo AEC, every seat an agent;
* :class:`pardon.env.single.SorryEnv`: Gymnasium, one agent against pardon's computer players;
* :class:`pardon.env.vector.SorryVectorEnv`: Gymnasium vectorised, many games over :mod:`pardon.batch`.

docs/batch.md describes the observations and the actions.
"""
