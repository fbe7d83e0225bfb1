"""Every seed of a training run, derived once from the run's seed by one ``SeedSequence``.

Each use of randomness is a child named by a purpose (the model's initialisation, the warm
start, each environment of each session), so no two uses share a stream and adding a use
never moves another. Evaluations draw their deals from the evaluation seed instead: the final
evaluation from ``eval.seed`` itself (the seed a headline number names), the periodic ones from
one other set of deals derived from it (so the learning curve compares checkpoints on common
deals, and the final number comes from deals no periodic evaluation has seen). The integer
seeds that training's games start from are checked against every evaluation deal seed, so no
evaluation replays a deal training was dealt.
"""

from __future__ import annotations

from agents.arena.schedule import derive_seed

TRAINING = 0  # the domain of every training seed (evaluation deal seeds come from eval.seed)
MODEL, WARM_START, WARM_START_ENV, ENVS, SYMMETRY = range(5)
PERIODIC_EVAL = 1  # eval.seed's child for the periodic evaluations' deals


class RunSeeds:
    """The seeds of one run. ``avoid``: evaluation deal seeds that training must not start from."""

    def __init__(self, seed: int, avoid: set[int] | frozenset[int] = frozenset()):
        self.seed = int(seed)
        self.avoid = frozenset(avoid)

    def _training(self, *keys: int) -> int:
        bump = 0
        while True:  # a collision with an evaluation deal (about 1 in 10^6 runs) takes the next
            value = derive_seed(self.seed, TRAINING, *keys, bump)
            if value not in self.avoid:
                return value
            bump += 1

    def model(self) -> int:
        """The policy's initialisation and SB3's generators."""
        return self._training(MODEL)

    def warm_start(self, round_: int = 0) -> int:
        """The teacher and the fit of the warm start (round 0) and of each DAgger round."""
        return self._training(WARM_START, round_)

    def warm_start_env(self) -> int:
        """The games the warm start collects its demonstrations in."""
        return self._training(WARM_START_ENV)

    def warm_start_envs(self, count: int) -> list[int]:
        """The first game of each of the ``count`` games of a vector warm start."""
        return [self._training(WARM_START_ENV, i) for i in range(count)]

    def envs(self, steps_done: int, count: int) -> list[int]:
        """The first game of each training environment of the session that starts at
        ``steps_done`` (a resumed run deals new games, not the first ones again)."""
        return [self._training(ENVS, steps_done, i) for i in range(count)]

    def symmetry(self, steps_done: int) -> int:
        """The relabellings the learner sees in the session that starts at ``steps_done``
        (``learner.symmetric``)."""
        return self._training(SYMMETRY, steps_done)


def periodic_eval_seed(eval_seed: int) -> int:
    """The deals of every periodic evaluation: one set, other than the final evaluation's."""
    return derive_seed(eval_seed, PERIODIC_EVAL)


def eval_deal_seeds(eval_seed: int, deals: int, final_deals: int) -> frozenset[int]:
    """Every deal seed a run's evaluations use (as ``agents.arena.schedule`` derives them)."""
    periodic = periodic_eval_seed(eval_seed)
    return frozenset([derive_seed(periodic, 0, d) for d in range(deals)]
                     + [derive_seed(eval_seed, 0, d) for d in range(max(deals, final_deals))])
