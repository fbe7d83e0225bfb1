"""An optional warm start: behaviour cloning of a teacher agent before self-play.

PPO from a random policy spends most of a short budget rediscovering the basics (play the named
rank when you hold it, go out with an honest play, …). With ``warm_start`` in the config, the
learner first watches a teacher (any agent spec, typically a heuristic) play its seat against
the opponent pool, then fits its policy to the teacher's choices (cross-entropy over the legal
actions) and its value function to the returns that followed (the same discounted, possibly
shaped, rewards PPO will see). Self-play then starts from roughly the teacher's strength and
has to improve on it; everything after is ordinary MaskablePPO.

A clone that agrees with its teacher on 95 % of choices can still play much worse than the
teacher: its mistakes lead it into positions the teacher never reached, where it knows even
less. ``dagger_rounds`` (DAgger, Ross, Gordon and Bagnell 2011) fixes that: in each round the
current clone plays (its most likely legal action), the teacher says what it would have done in
every position the clone reached, and the clone is refitted on all the examples gathered so far.

``copy_weights`` fine-tunes instead: the teacher is a ``ppo:`` checkpoint of the same network
(or one that reads fewer derived feature sets: the new ones enter through zero weights), its
actor's weights become the learner's (the policy plays exactly as the teacher), and the
teacher's games fit only the value function, which a checkpoint of the frozen format does not
carry. That is how a population step starts from an agent, e.g. to train it further against
its exploiters.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from agents.registry import make_agent
from agents.ppo.frozen_policy import FrozenPolicy
from agents.training.learner_env import LearnerEnv
from agents.training.vector_learner import VectorLearnerEnv


@dataclass
class Demonstrations:
    observations: np.ndarray  # (N, observation size) float32
    masks: np.ndarray  # (N, actions) bool
    actions: np.ndarray  # (N,) int64
    returns: np.ndarray  # (N,) float32, discounted from each decision to the episode's end
    games: int


def discounted(rewards: list[float], gamma: float) -> list[float]:
    """The return from each step of an episode to its end."""
    running, tail = 0.0, []
    for reward in reversed(rewards):
        running = reward + gamma * running
        tail.append(running)
    return tail[::-1]


def collect(env: LearnerEnv | VectorLearnerEnv, teacher_spec: str, decisions: int, gamma: float, seed: int,
            actor: FrozenPolicy | None = None) -> Demonstrations:
    """The teacher's choices in the learner's seat(s) for at least ``decisions`` decisions
    (whole games). The teacher also plays them, unless ``actor`` is given: then the actor's
    most likely legal action is played, and the teacher's choice is only recorded."""
    if isinstance(env, VectorLearnerEnv):
        return collect_batched(env, teacher_spec, decisions, gamma, seed, actor)
    teacher = make_agent(teacher_spec, env.game, seed)
    observations, masks, actions, returns = [], [], [], []
    games = 0
    observation, _ = env.reset(seed=seed)
    while len(actions) < decisions:
        rewards = []
        while True:
            mask = env.action_masks().copy()
            action = int(teacher.act({"observation": observation, "action_mask": mask}))
            observations.append(observation)
            masks.append(mask)
            actions.append(action)
            played = action if actor is None else actor.act(observation, mask)
            observation, reward, terminated, truncated, _ = env.step(played)
            rewards.append(reward)
            if terminated or truncated:
                break
        games += 1
        returns.extend(discounted(rewards, gamma))
        observation, _ = env.reset()
    return Demonstrations(
        np.asarray(observations, np.float32),
        np.asarray(masks, bool),
        np.asarray(actions, np.int64),
        np.asarray(returns, np.float32),
        games,
    )


def collect_batched(env: VectorLearnerEnv, teacher_spec: str, decisions: int, gamma: float, seed: int,
                    actor: FrozenPolicy | None = None) -> Demonstrations:
    """:func:`collect` in the games of a vector learner environment, all at once: the teacher
    (its batched form, one draw per decision from ``seed``'s generator) decides in every game
    at every step; games still in play when enough decisions are gathered are left out."""
    from agents.batched import batched_agent, has_batched_form
    from agents.training.vector_learner import RowByRow

    game = env.game
    teacher = batched_agent(teacher_spec, game) if has_batched_form(teacher_spec, game.name) else RowByRow(
        make_agent(teacher_spec, game, seed))
    rng = np.random.default_rng(seed)
    env.seed(seed)
    observation = env.reset()
    B = env.num_envs
    playing: list[list[tuple]] = [[] for _ in range(B)]  # (observation, mask, action, reward) so far
    observations, masks, actions, returns = [], [], [], []
    games = 0
    while len(actions) < decisions:
        mask = env.action_masks().copy()
        chosen = teacher.act(observation, mask, rng.random(B))
        played = chosen if actor is None else actor.act_rows(observation, mask)
        following, rewards, dones, _ = env.step(played)
        for i in range(B):
            playing[i].append((observation[i], mask[i], int(chosen[i]), float(rewards[i])))
        for i in np.flatnonzero(dones).tolist():
            episode, playing[i] = playing[i], []
            observations += [step[0] for step in episode]
            masks += [step[1] for step in episode]
            actions += [step[2] for step in episode]
            returns += discounted([step[3] for step in episode], gamma)
            games += 1
        observation = following
    return Demonstrations(
        np.asarray(observations, np.float32),
        np.asarray(masks, bool),
        np.asarray(actions, np.int64),
        np.asarray(returns, np.float32),
        games,
    )


def clone(policy, data: Demonstrations, *, epochs: int, batch_size: int, learning_rate: float, vf_coef: float,
          entropy_coef: float, seed: int, fit_policy: bool = True) -> dict[str, float]:
    """Fit a MaskableActorCriticPolicy to the demonstrations; returns the final accuracy, the
    policy's mean entropy and the value error. ``entropy_coef`` keeps the clone from becoming
    certain of every choice, so that PPO still explores around the teacher. With
    ``fit_policy=False`` only the value function learns (the actor's weights stay as they are)."""
    import torch

    generator = np.random.default_rng(seed)
    value_parts = (policy.mlp_extractor.value_net, policy.value_net)
    learning = policy.parameters() if fit_policy else [p for part in value_parts for p in part.parameters()]
    optimizer = torch.optim.Adam(learning, lr=learning_rate)
    policy.set_training_mode(True)
    n = len(data.actions)
    obs = torch.as_tensor(data.observations)
    acts = torch.as_tensor(data.actions)
    masks = data.masks
    rets = torch.as_tensor(data.returns)
    for _ in range(epochs):
        order = generator.permutation(n)
        for start in range(0, n, batch_size):
            idx = order[start : start + batch_size]
            values, log_prob, entropy = policy.evaluate_actions(obs[idx], acts[idx], action_masks=masks[idx])
            value_loss = torch.nn.functional.mse_loss(values.flatten(), rets[idx])
            loss = vf_coef * value_loss
            if fit_policy:
                loss = loss - log_prob.mean() - entropy_coef * entropy.mean()
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            optimizer.step()
    policy.set_training_mode(False)
    with torch.no_grad():
        sample = slice(0, min(n, 20_000))
        distribution = policy.get_distribution(obs[sample], action_masks=masks[sample])
        chosen = distribution.distribution.probs.argmax(dim=1)
        accuracy = float((chosen == acts[sample]).float().mean())
        entropy = float(distribution.entropy().mean())
        value_error = float(torch.nn.functional.mse_loss(policy.predict_values(obs[sample]).flatten(), rets[sample]))
    return {"accuracy": accuracy, "entropy": entropy, "value_mse": value_error}


def warm_start(model, make_env: Callable[[], LearnerEnv | VectorLearnerEnv], teacher: str, decisions: int, epochs: int, batch_size: int,
               learning_rate: float, entropy_coef: float, seed: Callable[[int], int], say: Callable[[str], None],
               dagger_rounds: int = 0, freeze: Callable[[], FrozenPolicy] | None = None,
               copy_from: FrozenPolicy | None = None, symmetry=None) -> dict[str, float]:
    """Collect the teacher's games and clone them into ``model.policy``; then, for each of
    ``dagger_rounds``, let the clone (``freeze()``: the policy as it stands) play ``decisions``
    more decisions with the teacher's labels, and refit on everything gathered. ``seed(k)`` is
    the seed of round ``k`` (0: the first collection and fit). With ``copy_from`` (the
    teacher's own policy, see :func:`teacher_policy`) the actor takes its weights and the
    games fit only the value function. With ``symmetry`` (``learner.symmetric``) every example
    is shown relabelled, as the learner will see its decisions (:func:`relabelled`)."""
    if dagger_rounds and freeze is None:
        raise ValueError("dagger_rounds needs freeze, to let the clone play")
    if copy_from is not None and dagger_rounds:
        raise ValueError("dagger_rounds has nothing to correct when the teacher's weights are copied; use 0")
    started = time.perf_counter()
    if copy_from is not None:
        set_actor(model.policy, copy_from)
    env = make_env()
    data = collect(env, teacher, decisions, model.gamma, seed(0))
    if symmetry is not None:
        data = relabelled(data, symmetry, seed(0))
    fit_options = {"epochs": epochs, "batch_size": batch_size, "learning_rate": learning_rate,
                   "vf_coef": model.vf_coef, "entropy_coef": entropy_coef, "fit_policy": copy_from is None}
    collected = time.perf_counter() - started
    fit = clone(model.policy, data, seed=seed(0), **fit_options)
    say(
        f"warm start: {'copied the weights of ' + teacher + ', fitted its value' if copy_from is not None else 'cloned ' + teacher} "
        f"from {len(data.actions):,} decisions in {data.games:,} games "
        f"({collected:.0f}s to play, {time.perf_counter() - started - collected:.0f}s to fit): "
        f"agrees on {fit['accuracy']:.1%} of its choices (entropy {fit['entropy']:.2f}), value error {fit['value_mse']:.3f}"
    )
    for round_ in range(1, dagger_rounds + 1):
        began = time.perf_counter()
        actor = freeze()
        own = collect(env, teacher, decisions, model.gamma, seed(round_), actor=actor)
        if symmetry is not None:
            own = relabelled(own, symmetry, seed(round_))
        # how often the clone, where its own play led, already chose what the teacher would
        sample = slice(0, 5000)
        agreed = float(np.mean(actor.act_rows(own.observations[sample], own.masks[sample]) == own.actions[sample]))
        data = Demonstrations(*(np.concatenate([getattr(data, f), getattr(own, f)]) for f in ("observations", "masks", "actions", "returns")),
                              data.games + own.games)
        fit = clone(model.policy, data, seed=seed(round_), **fit_options)
        say(
            f"warm start, DAgger round {round_}: the clone agreed with {teacher} on {agreed:.1%} of its own "
            f"{len(own.actions):,} decisions; refitted on {len(data.actions):,}: agrees on {fit['accuracy']:.1%} "
            f"({time.perf_counter() - began:.0f}s)"
        )
        fit["dagger_agreement"] = agreed
    return {**fit, "decisions": len(data.actions), "games": data.games}


def relabelled(data: Demonstrations, symmetry, seed: int) -> Demonstrations:
    """Every example relabelled by its own relabelling of ``symmetry`` (drawn from ``seed``):
    the observation and mask as that relabelling shows them, the action moved with them."""
    numbers = np.random.default_rng(seed).integers(symmetry.count, size=len(data.actions))
    shown, legal, back = symmetry.relabel_numbered(data.observations, data.masks, numbers)
    actions = np.argsort(back, axis=1)[np.arange(len(data.actions)), data.actions]  # where each action went
    return Demonstrations(shown, legal, actions, data.returns, data.games)


# -- fine-tuning from a checkpoint ----------------------------------------------------------


def teacher_policy(spec: str, game) -> tuple[FrozenPolicy, dict]:
    """The frozen policy and the metadata of the checkpoint a ``ppo:`` spec names (as trained,
    whatever the spec's play mode); ``ValueError`` if it does not fit ``game``."""
    from agents.base import play_mode
    from agents.ppo import checkpoint
    from agents.ppo.agent import checkpoint_file

    if not spec.startswith("ppo:"):
        raise ValueError(f"copying weights needs a ppo: teacher, not {spec!r}")
    file = checkpoint_file(play_mode(spec[len("ppo:"):]).location)
    meta = checkpoint.read_metadata(file)
    checkpoint.check_compatible(meta, game, source=f"checkpoint {file}")  # the same observation, or fields appended
    return checkpoint.read_policy(file).with_observation(game.layout.size), meta


def copied_policy(spec: str, game, network) -> FrozenPolicy:
    """The actor of the ``ppo:`` checkpoint ``spec``, to copy into a learner with the config's
    ``network`` section; ``ValueError`` naming every difference of layers, activation, focus or
    features (then its weights would not fit, or would read other inputs).

    One difference is allowed: the config may add feature sets after the teacher's (its
    ``features`` a prefix of the config's). The new inputs come last, so the copy reads them
    through zero weights: it plays exactly as the teacher, and training learns what they are
    worth (see :func:`widened`)."""
    policy, meta = teacher_policy(spec, game)
    trained = meta.get("network") or {}
    wanted = {"pi": list(network.pi), "activation": network.activation,
              "focus": {k: list(v) for k, v in network.focus.items()}, "features": list(network.features)}
    had = list(trained.get("features") or [])
    added = wanted["features"][len(had):] if wanted["features"][: len(had)] == had else None
    differences = [f"{key} {trained.get(key, '<absent>')!r} (this config: {value!r})"
                   for key, value in wanted.items()
                   if trained.get(key, "<absent>") != value and not (key == "features" and added)]
    if differences:
        raise ValueError(f"the teacher {spec} was trained with another network ({'; '.join(differences)})")
    return widened(policy, game, wanted["features"]) if added else policy


def widened(policy: FrozenPolicy, game, names: list[str]) -> FrozenPolicy:
    """``policy`` reading the feature sets ``names`` (its own, then more), the new inputs through
    zero weights: the same logits for every observation."""
    from agents.training.features import make_features

    features = make_features(game.name, game.layout, names)
    extra = features.size - (0 if policy.features is None else policy.features.size)
    first = np.concatenate([policy.weights[0], np.zeros((extra, policy.weights[0].shape[1]), np.float32)])
    return FrozenPolicy([first, *policy.weights[1:]], policy.biases, policy.activation, policy.focus, features)


def set_actor(policy, frozen: FrozenPolicy) -> None:
    """Load a frozen policy's layers into a MaskableActorCriticPolicy's actor
    (``mlp_extractor.policy_net`` and ``action_net``); ``ValueError`` if the shapes differ."""
    import torch

    linear = [m for m in policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)] + [policy.action_net]
    shapes = [tuple(m.weight.shape[::-1]) for m in linear]
    if shapes != [w.shape for w in frozen.weights]:
        raise ValueError(f"the teacher's layers {[w.shape for w in frozen.weights]} do not fit this network's {shapes}")
    with torch.no_grad():
        for module, w, b in zip(linear, frozen.weights, frozen.biases):
            module.weight.copy_(torch.as_tensor(w.T))
            module.bias.copy_(torch.as_tensor(b))
