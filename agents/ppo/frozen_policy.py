"""A trained policy frozen into numpy arrays: fast to run, cheap to ship, no torch needed.

Opponent snapshots in the self-play pool and ``ppo:<checkpoint>`` agents both play through
:class:`FrozenPolicy`. For one observation at a time a small numpy MLP is several times faster
than a torch forward pass, and its weights are a few hundred kilobytes of plain arrays, so
snapshots travel to subprocess environments cheaply and checkpoints play without PyTorch.

Its decisions (:meth:`FrozenPolicy.act` for one observation, :meth:`FrozenPolicy.act_rows` for
a batch) run through the kernels of :mod:`agents.ppo.policy_kernels`, row by row in a fixed
order of float32 operations, so that a batch on the vector engine chooses exactly what the
same rows would choose one at a time, given the same draws.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

import numpy as np

from agents.ppo import policy_kernels as kernels
from agents.training.features import Features
from agents.training.focus import apply_focus

ACTIVATIONS = ("tanh", "relu")


class FrozenPolicy:
    """The actor half of an SB3 ``MlpPolicy``: hidden layers, then action logits.

    ``weights[i]`` has shape ``(in, out)`` (already transposed from torch's ``(out, in)``), the
    last pair being the action head. :meth:`act` masks illegal actions exactly as sb3-contrib's
    ``MaskableCategorical`` does, so the deterministic choice is the one ``MaskablePPO.predict``
    would make.
    """

    def __init__(self, weights: list[np.ndarray], biases: list[np.ndarray], activation: str = "tanh",
                 focus: tuple[np.ndarray, np.ndarray] | None = None, features: Features | None = None):
        if activation not in ACTIVATIONS:
            raise ValueError(f"activation {activation!r} is not supported; use one of {ACTIVATIONS}")
        if len(weights) != len(biases) or not weights:
            raise ValueError("a frozen policy needs one bias per weight matrix and at least one layer")
        self.weights = [np.ascontiguousarray(w, np.float32) for w in weights]
        self.biases = [np.ascontiguousarray(b, np.float32) for b in biases]
        _check_layers(self.weights, self.biases)
        self.activation = activation
        # focus features (agents.training.focus) computed from the observation before the MLP
        self.focus = None if focus is None or not len(focus[0]) else tuple(np.asarray(f, np.int64) for f in focus)
        # then derived features (agents.training.features), appended after the focus features
        self.features = features
        added = (0 if self.focus is None else len(self.focus[0])) + (0 if features is None else features.size)
        self.observation_size = self.weights[0].shape[0] - added
        self.num_actions = self.weights[-1].shape[1]
        self._packed = kernels.pack(self.weights, self.biases)

    # -- running --------------------------------------------------------------------------

    def inputs(self, observation: np.ndarray) -> np.ndarray:
        """What the MLP reads: the observation(s), then the focus and derived features."""
        x = raw = np.asarray(observation, np.float32)
        if self.focus is not None:
            x = apply_focus(x, *self.focus)
        if self.features is not None:
            x = np.concatenate([x, self.features(raw)], axis=-1)
        return np.ascontiguousarray(x, np.float32)

    def logits(self, observation: np.ndarray) -> np.ndarray:
        """Unmasked action logits for one observation (or a batch, rows = observations)."""
        x = self.inputs(observation)
        rows = x.reshape(-1, x.shape[-1])
        out = np.empty((len(rows), self.num_actions), np.float32)
        kernels.logits(rows, *self._packed, self.activation == "relu", out)
        return out.reshape(*x.shape[:-1], self.num_actions)

    def act_rows(self, observations: np.ndarray, masks: np.ndarray, u: np.ndarray | None = None) -> np.ndarray:
        """Actions (int64 ``[B]``) for the rows ``observations`` ``[B, obs]`` and ``masks``
        ``[B, actions]``: the most likely legal action, or with the draws ``u`` (``[B]`` in
        [0, 1)) the one the masked softmax gives each draw; ``-1`` for a row with no legal action."""
        x = self.inputs(observations)
        masks = np.ascontiguousarray(masks)
        if x.ndim != 2 or masks.shape != (len(x), self.num_actions):
            raise ValueError(f"act_rows needs observations [B, {self.observation_size}] and masks [B, {self.num_actions}], "
                             f"got {np.shape(observations)} and {masks.shape}")
        sample = u is not None
        draws = np.ascontiguousarray(u, np.float64) if sample else np.zeros(len(x))
        if draws.shape != (len(x),):
            raise ValueError(f"act_rows needs one draw per row ({len(x)}), got {draws.shape}")
        out = np.empty(len(x), np.int64)
        kernels.choose(x, masks, draws, sample, *self._packed, self.activation == "relu", out)
        return out

    def act(self, observation: np.ndarray, mask: np.ndarray, rng: np.random.Generator | None = None) -> int:
        """The legal action with the highest logit, or (given ``rng``: one draw) one sampled
        from the masked softmax, as the policy does while it trains."""
        return self.decide(observation, mask, None if rng is None else float(rng.random()))

    def decide(self, observation: np.ndarray, mask: np.ndarray, u: float | None) -> int:
        """:meth:`act` with its draw given: ``u`` in [0, 1) samples, ``None`` is greedy."""
        rows = np.asarray(observation, np.float32)[None]
        return int(self.act_rows(rows, np.asarray(mask)[None], None if u is None else np.array([u]))[0])

    def tempered(self, temperature: float) -> FrozenPolicy:
        """This policy with its logits divided by ``temperature`` (the last layer scaled): the
        same most likely action, a flatter (above 1) or sharper (below 1) mixed strategy."""
        scale = np.float32(1.0 / temperature)
        return FrozenPolicy(self.weights[:-1] + [self.weights[-1] * scale], self.biases[:-1] + [self.biases[-1] * scale],
                            self.activation, self.focus, self.features)

    def with_observation(self, size: int) -> FrozenPolicy:
        """This policy reading observations of ``size`` entries, for a game whose observation
        appends fields to the one it was trained on (an observation-only option, e.g. Believe It
        or Not's ``call_record``): the new entries (after its own, before its focus and derived
        features) enter through zero weights, so every logit is exactly what it was."""
        extra = size - self.observation_size
        if extra < 0:
            raise ValueError(f"a policy of {self.observation_size} observation entries cannot read {size}")
        if not extra:
            return self
        first = self.weights[0]
        at = self.observation_size
        first = np.concatenate([first[:at], np.zeros((extra, first.shape[1]), np.float32), first[at:]])
        return FrozenPolicy([first, *self.weights[1:]], self.biases, self.activation, self.focus, self.features)

    # -- conversions ----------------------------------------------------------------------

    @classmethod
    def from_sb3(cls, policy, activation: str) -> FrozenPolicy:
        """Freeze the actor of a (Maskable)ActorCriticPolicy whose features extractor is a
        flatten or a :class:`~agents.ppo.focus_extractor.FocusExtractor`."""
        state = {k: v.detach().cpu().numpy() for k, v in policy.state_dict().items()}
        return cls.from_state_dict(state, activation, getattr(policy.features_extractor, "features", None))

    @classmethod
    def from_state_dict(cls, state: Mapping[str, np.ndarray], activation: str,
                        features: Features | None = None) -> FrozenPolicy:
        """From SB3 ``MlpPolicy`` parameter arrays (``mlp_extractor.policy_net.<i>.weight`` …,
        ``action_net.weight``, and ``features_extractor.left``/``right`` with focus features),
        and the derived ``features`` the policy was trained with."""
        layers = sorted(
            int(key.split(".")[2]) for key in state if key.startswith("mlp_extractor.policy_net.") and key.endswith(".weight")
        )
        weights = [state[f"mlp_extractor.policy_net.{i}.weight"].T for i in layers] + [state["action_net.weight"].T]
        biases = [state[f"mlp_extractor.policy_net.{i}.bias"] for i in layers] + [state["action_net.bias"]]
        focus = None
        if "features_extractor.left" in state:
            focus = (state["features_extractor.left"], state["features_extractor.right"])
        return cls(weights, biases, activation, focus, features)

    def to_arrays(self) -> dict[str, np.ndarray]:
        """Named arrays for ``np.savez``; :meth:`from_arrays` restores the policy."""
        arrays = {"activation": np.array(self.activation)}
        for i, (w, b) in enumerate(zip(self.weights, self.biases)):
            arrays[f"w{i}"], arrays[f"b{i}"] = w, b
        if self.focus is not None:
            arrays["focus_left"], arrays["focus_right"] = self.focus
        if self.features is not None:
            arrays["features"] = np.array(json.dumps(self.features.to_dict()))
        return arrays

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, np.ndarray]) -> FrozenPolicy:
        return cls(*_split(arrays))

    def __getstate__(self):
        return self.to_arrays()

    def __setstate__(self, arrays):
        self.__init__(*_split(arrays))

    def __repr__(self) -> str:
        sizes = [self.observation_size] + [w.shape[1] for w in self.weights]
        focus = "" if self.focus is None else f", {len(self.focus[0])} focus features"
        features = "" if self.features is None else f", {self.features!r}"
        return f"FrozenPolicy({'-'.join(map(str, sizes))}, {self.activation}{focus}{features})"


def _check_layers(weights: list[np.ndarray], biases: list[np.ndarray]) -> None:
    """Shapes that chain, and finite numbers: a damaged policy fails when loaded, not at its
    first decision."""
    width = None
    for i, (w, b) in enumerate(zip(weights, biases)):
        if w.ndim != 2 or b.shape != (w.shape[1],) or (width is not None and w.shape[0] != width):
            raise ValueError(
                f"layer {i} of the policy has weights {w.shape} and biases {b.shape}, which do not chain "
                f"(expected ({width if width is not None else 'in'}, out) and (out,))"
            )
        if not (np.isfinite(w).all() and np.isfinite(b).all()):
            raise ValueError(f"layer {i} of the policy holds NaN or infinite weights")
        width = w.shape[1]


def _split(arrays):
    count = sum(1 for key in arrays if key.startswith("w"))
    needed = ["activation", *(f"{k}{i}" for i in range(count) for k in "wb")]
    missing = [key for key in needed if key not in arrays]
    if missing or not count:
        raise ValueError(f"policy arrays lack {', '.join(missing) or 'every layer (w0, b0, …)'}")
    weights = [np.asarray(arrays[f"w{i}"]) for i in range(count)]
    biases = [np.asarray(arrays[f"b{i}"]) for i in range(count)]
    focus = (np.asarray(arrays["focus_left"]), np.asarray(arrays["focus_right"])) if "focus_left" in arrays else None
    features = Features.from_dict(json.loads(str(arrays["features"]))) if "features" in arrays else None
    return weights, biases, str(arrays["activation"]), focus, features
