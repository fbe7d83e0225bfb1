"""Named slices of an observation vector, so that code and readers share one layout."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import numpy as np


class ObservationLayout(Mapping):
    """An ordered mapping ``name -> slice`` with each field's scale.

    Every feature is stored divided by its scale so that observations stay in ``[0, 1]``;
    :meth:`decode` multiplies back, giving counts as whole numbers again. A field with no upper
    bound (a match score) is *squashed* instead: ``v`` is stored as ``v / (v + scale)``, which is
    strictly increasing on ``[0, ∞)``, so every value stays distinct (nothing is clipped).
    """

    def __init__(self) -> None:
        self._slices: dict[str, slice] = {}
        self._scales: dict[str, float] = {}
        self._docs: dict[str, str] = {}
        self._squashed: set[str] = set()
        self._decoder: tuple[np.ndarray, np.ndarray] | None = None  # built on first decode
        self.size = 0

    def add(
        self, name: str, size: int, scale: float | np.ndarray = 1.0, doc: str = "", *, squash: bool = False
    ) -> int:
        """Append a field of ``size`` entries; returns its offset. ``scale`` is one number for
        the whole field, or one per entry for a field that mixes counts and flags; with
        ``squash`` the field holds ``v / (v + scale)`` for unbounded counts ``v >= 0``."""
        if name in self._slices:
            raise ValueError(f"duplicate observation field {name!r}")
        offset = self.size
        self._slices[name] = slice(offset, offset + size)
        self._scales[name] = float(scale) if np.ndim(scale) == 0 else np.asarray(scale, np.float64)
        self._docs[name] = doc
        if squash:
            self._squashed.add(name)
        self.size += size
        return offset

    def __getitem__(self, name: str) -> slice:
        return self._slices[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._slices)

    def __len__(self) -> int:
        return len(self._slices)

    def scale(self, name: str) -> float | np.ndarray:
        return self._scales[name]

    def doc(self, name: str) -> str:
        return self._docs[name]

    def is_squashed(self, name: str) -> bool:
        return name in self._squashed

    def decode(self, observation: np.ndarray, fields=None) -> dict[str, np.ndarray]:
        """Each field of an observation (or only ``fields``), back in its natural units (counts,
        one-hots): one array operation for the whole vector, then slices of it."""
        if self._decoder is None or len(self._decoder[0]) != self.size:
            scale = np.ones(self.size)
            squashed = np.zeros(self.size, bool)
            for name, sl in self._slices.items():
                scale[sl] = self._scales[name]
                squashed[sl] = name in self._squashed
            self._decoder = (scale, scale != 1.0, squashed if squashed.any() else None)
        scale, scaled, squashed = self._decoder
        values = observation * scale
        if squashed is not None:  # x = v / (v + s)  <=>  v = s * x / (1 - x)
            values = np.where(squashed, values / np.maximum(1.0 - observation, 1e-30), values)
        values = np.where(scaled, np.rint(values), values)
        return {name: values[self._slices[name]] for name in (self._slices if fields is None else fields)}

    def describe(self) -> str:
        """One line per field: name, index range, scale and meaning."""
        rows = []
        for name, sl in self._slices.items():
            scale = self._scales[name]
            if name in self._squashed:
                scaled = f" (v / (v + {scale:g}))"
            elif np.ndim(scale):
                scaled = " (÷ per entry)"
            else:
                scaled = f" (÷{scale:g})" if scale != 1.0 else ""
            rows.append(f"{name:<22} [{sl.start}:{sl.stop}]{scaled}  {self._docs[name]}")
        return "\n".join(rows)
