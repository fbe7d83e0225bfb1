"""The robustness matrix: its standard fields for every game, and one small matrix played."""

from __future__ import annotations

import pytest

import bluff_envs
from agents.base import GameInfo
from agents.registry import heuristics
from agents.training.robustness import TOLERANCE, markdown, robustness_matrix, standard_fields


@pytest.mark.parametrize("game, seats", [("i_doubt_it", 3), ("believe_it_or_not", 3), ("seven_spades", 3), ("tarneeb", 2)])
def test_the_standard_fields_cover_the_heuristics_random_copies_and_the_agents_given(game, seats):
    info = GameInfo.of(bluff_envs.make(game, raw=True))
    fields = standard_fields(info, "ppo:me", earlier=["ppo:old"], others=["ppo:seed1"])
    assert all(len(field) == seats for field in fields.values())
    for h in heuristics(game):
        assert fields[f"{h} x{seats}"] == [h] * seats
    assert fields[f"random x{seats}"] == ["random"] * seats
    assert fields[f"self x{seats}"] == [f"ppo:me#copy{i + 1}" for i in range(seats)]
    assert f"ppo:old x{seats}" in fields and f"ppo:seed1 x{seats}" in fields
    if game != "tarneeb":
        assert "never + always challenge" in fields
        assert sorted(fields["never + always challenge"])[0] == "always_challenge"
        assert any(name.startswith("mixed ") for name in fields)


def test_a_matrix_is_played_on_common_fresh_deals_with_intervals():
    rows = robustness_matrix("seven_spades", {"num_players": 3}, "counter", deals=3, seed=4)
    assert len(rows) == len(standard_fields(GameInfo.of(bluff_envs.make("seven_spades", raw=True, num_players=3)), "counter"))
    seeds = {row.result.seed for row in rows}
    assert len(seeds) == 1 and seeds != {4}  # one deal seed for every field, derived, not the seed itself
    for row in rows:
        r = row.result
        assert r.games == 3 * 3 and r.win_interval[0] <= r.win_rate <= r.win_interval[1]
        assert row.to_dict()["holds_up"] == (r.win_rate >= r.parity - TOLERANCE)
    # against copies of itself an agent is at parity on average
    own = next(row for row in rows if row.field.startswith("self"))
    assert own.result.field == ["counter#copy1", "counter#copy2"]
    table = markdown(rows, "counter")
    assert table.count("\n| ") == len(rows) + 1 and "holds up" in table
