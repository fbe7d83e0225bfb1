"""Derived features: what a game's heuristics compute from an observation, handed to the network.

Some of what a good player reads off the table is a long chain of logic over the raw
observation: in Tarneeb, "this card of mine would win the trick as it stands" needs the led
suit, the trump, every card in the trick and the rank order. An MLP can only approximate such
chains, and a clone of the heuristic then makes its mistakes exactly there. ``network.features``
in a training config names feature sets of the game::

    network:
      features: [card_play]

Each set is a function of the observation alone (counts read through the layout's scales,
saved with the features), so it adds no information, only makes it easier to use. Each is
written twice: ``reference``, batched numpy, the readable specification, and ``__call__``, a
numba kernel row by row (frozen opponents ask for a few rows at a time, where numpy's per-call
cost dominated training), tested equal to it (tests/agents/training/test_feature_kernels.py).
The same code runs inside the SB3 policy while training
(:class:`~agents.ppo.focus_extractor.FocusExtractor`) and inside
:class:`~agents.ppo.frozen_policy.FrozenPolicy`, which plays checkpoints without torch. A
:class:`Features` object carries the field offsets it reads, so a frozen policy can rebuild it
from its saved arrays alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from agents.training.features import believe_it_or_not, i_doubt_it, seven_spades, tarneeb

# game -> feature set name -> class built from the observation's field slices
FEATURE_SETS: dict[str, dict[str, type]] = {
    "tarneeb": {"card_play": tarneeb.CardPlay},
    "i_doubt_it": {"doubt": i_doubt_it.Doubt},
    "believe_it_or_not": {"doubt": believe_it_or_not.Doubt, "record": believe_it_or_not.Record},
    "seven_spades": {"doubt": seven_spades.Doubt, "pace": seven_spades.Pace},
}


class Features:
    """The feature sets ``names`` of ``game``, reading the fields at ``fields`` (name -> slice).

    ``features(x)`` maps observations ``x`` (one, or a batch as rows) to the derived features
    only; :attr:`size` is how many there are.
    """

    def __init__(self, game: str, names: Sequence[str], fields: Mapping[str, slice],
                 scales: Mapping[str, float] | None = None):
        offered = FEATURE_SETS.get(game, {})
        for name in names:
            if name not in offered:
                known = ", ".join(offered) if offered else "none"
                raise ValueError(f"features: {game} has no feature set {name!r} (it has: {known})")
        if len(set(names)) != len(names):
            raise ValueError(f"features: a feature set is named twice: {list(names)}")
        self.game = game
        self.names = tuple(names)
        self.fields = {name: slice(sl.start, sl.stop) for name, sl in fields.items()}
        try:
            self.scales = {name: float(v) for name, v in (scales or {}).items()}  # the fields' scalar scales
            self.sets = [offered[name](self.fields, self.scales) for name in self.names]
        except KeyError as missing:
            raise ValueError(f"features: the observation has no field {missing} that {game}'s feature sets read") from None
        self.size = sum(s.size for s in self.sets)

    def __call__(self, x: np.ndarray) -> np.ndarray:
        x = np.asarray(x, np.float32)
        batch = x.reshape(-1, x.shape[-1])
        out = np.concatenate([s(batch) for s in self.sets], axis=1).astype(np.float32, copy=False)
        return out.reshape(*x.shape[:-1], self.size)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON) from which :meth:`from_dict` rebuilds these features."""
        return {"game": self.game, "names": list(self.names),
                "fields": {name: [sl.start, sl.stop] for name, sl in self.fields.items()},
                "scales": dict(self.scales)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Features:
        return cls(data["game"], data["names"], {name: slice(*bounds) for name, bounds in data["fields"].items()},
                   data.get("scales"))

    def __repr__(self) -> str:
        return f"Features({self.game}: {', '.join(self.names)}; {self.size})"


def make_features(game: str, layout, names: Sequence[str]) -> Features | None:
    """The feature sets ``names`` for ``game`` with observation ``layout``; ``None`` for none."""
    if not names:
        return None
    scales = {name: layout.scale(name) for name in layout}
    return Features(game, names, dict(layout.items()), {k: v for k, v in scales.items() if np.ndim(v) == 0})
