"""Named slices of an observation: scales, per-entry scales, squashed fields, decoding."""

import numpy as np
import pytest

from bluff_envs.layout import ObservationLayout


def layout():
    lay = ObservationLayout()
    lay.add("flags", 2, doc="two flags")
    lay.add("counts", 3, 4, "counts of at most 4")
    lay.add("mixed", 2, np.array([1.0, 10.0]), "a flag and a count")
    lay.add("score", 1, 31, "an unbounded score", squash=True)
    return lay


def test_fields_are_consecutive_slices_with_their_offsets():
    lay = layout()
    assert list(lay) == ["flags", "counts", "mixed", "score"]
    assert lay["counts"] == slice(2, 5) and lay.size == 8
    with pytest.raises(ValueError, match="duplicate observation field 'flags'"):
        lay.add("flags", 1)


def test_decode_restores_counts_flags_and_squashed_scores():
    lay = layout()
    for score in (0, 1, 31, 82, 128, 10_000):
        obs = np.array([1, 0, 0.25, 0.5, 1.0, 1, 0.7, score / (score + 31)], np.float32)
        values = lay.decode(obs)
        assert list(values["flags"]) == [1, 0]
        assert list(values["counts"]) == [1, 2, 4]
        assert list(values["mixed"]) == [1, 7]
        assert values["score"][0] == score
    only = lay.decode(np.zeros(8, np.float32), ["counts"])
    assert list(only) == ["counts"]


def test_squashing_keeps_every_score_distinct_and_below_one():
    stored = np.float32([v / (v + 31) for v in range(0, 5000)])
    assert (np.diff(stored) > 0).all() and stored.max() < 1.0


def test_describe_names_every_field_and_its_scale():
    text = layout().describe()
    assert "counts" in text and "(÷4)" in text and "(÷ per entry)" in text and "(v / (v + 31))" in text
