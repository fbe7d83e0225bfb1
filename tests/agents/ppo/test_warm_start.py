"""The warm start's demonstrations: the teacher's choices, in the positions the teacher reaches
or (DAgger) in those the clone's own play reaches."""

from __future__ import annotations

import numpy as np

from agents import make_agent
from agents.ppo.frozen_policy import FrozenPolicy
from agents.training.learner_env import LearnerEnv
from agents.ppo.warm_start import collect


def test_with_an_actor_the_clone_plays_and_the_teacher_only_labels():
    env = LearnerEnv("tarneeb", opponents=["rule_based"], seed=0)
    rng = np.random.default_rng(0)
    size, actions = env.observation_space.shape[0], env.action_space.n
    actor = FrozenPolicy([rng.normal(size=(size, 16)), rng.normal(size=(16, actions))], [np.zeros(16), np.zeros(actions)])
    by_teacher = collect(env, "rule_based", 150, 0.99, seed=4)
    by_actor = collect(env, "rule_based", 150, 0.99, seed=4, actor=actor)
    teacher = make_agent("rule_based", env.game, 0)  # stateless: asking again gives the same choice
    for data in (by_teacher, by_actor):
        labels = [teacher.act({"observation": o, "action_mask": m}) for o, m in zip(data.observations, data.masks)]
        assert list(data.actions) == labels and all(m[a] for m, a in zip(data.masks, data.actions))
    # the actor's own (random) play leads elsewhere, and it differs from the teacher's choices
    assert not np.array_equal(by_teacher.observations[:150], by_actor.observations[:150])
    played = [actor.act(o, m) for o, m in zip(by_actor.observations, by_actor.masks)]
    assert np.mean(np.array(played) != by_actor.actions) > 0.2
