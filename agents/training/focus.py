"""Focus features: the per-rank fields of an observation read at the rank that matters now.

An MLP finds "how many Queens do I hold" hard to compute when the Queen is given as a one-hot
field (``claim_rank``) and the hand as thirteen counts: it needs a product of the two. The
heuristics do exactly this lookup (a claim of three Queens is impossible when I hold two and an
opponent is known to hold one). ``network.focus`` in a training config names the lookups::

    focus:
      claim_rank: [hand, my_cards_in_pile, known_cards]   # each read at the claimed rank
      required_rank: [hand]

Each per-rank field (width a multiple of the one-hot's, e.g. ``known_cards`` holds one row of
13 per opponent) contributes one feature per row: ``sum_r onehot[r] * row[r]``. The features
are appended to the observation, which the network still sees whole. They are computed from the
observation alone, so they add no information: they only make it easier to use.

The same index pairs run in torch (:class:`~agents.ppo.focus_extractor.FocusExtractor`,
inside the SB3 policy) and in numpy (:func:`apply_focus`, inside
:class:`~agents.ppo.frozen_policy.FrozenPolicy`, which plays without torch).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from bluff_envs.layout import ObservationLayout


def focus_pairs(layout: ObservationLayout, focus: Mapping[str, Sequence[str]]) -> tuple[np.ndarray, np.ndarray]:
    """Index arrays ``(left, right)`` of shape (features, width): feature ``k`` is
    ``sum_j obs[left[k, j]] * obs[right[k, j]]``. Unknown fields and widths that do not match
    are ValueErrors naming the field."""
    left, right = [], []
    for key, fields in focus.items():
        onehot = _field(layout, key)
        width = onehot.stop - onehot.start
        for name in fields:
            part = _field(layout, name)
            size = part.stop - part.start
            if size % width:
                raise ValueError(
                    f"focus: {name!r} has {size} entries, not a multiple of the {width} of {key!r}: "
                    "it cannot be read at that rank"
                )
            for start in range(part.start, part.stop, width):
                left.append(np.arange(onehot.start, onehot.stop))
                right.append(np.arange(start, start + width))
    if not left:
        return np.zeros((0, 1), np.int64), np.zeros((0, 1), np.int64)
    if len({len(row) for row in left}) > 1:
        raise ValueError("focus: every one-hot field must have the same width")
    return np.asarray(left, np.int64), np.asarray(right, np.int64)


def _field(layout: ObservationLayout, name: str) -> slice:
    try:
        return layout[name]
    except KeyError:
        raise ValueError(f"focus: the observation has no field {name!r}; it has {', '.join(layout)}") from None


def apply_focus(x: np.ndarray, left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """The observation(s) ``x`` (last axis = entries) with the focus features appended."""
    return np.concatenate([x, (x[..., left] * x[..., right]).sum(-1)], axis=-1)
