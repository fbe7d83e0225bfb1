"""The learner against a field: counted apart from field agents of its own spec, every field
agent seated, the deals named."""

import bluff_envs
from agents import GameInfo
from agents.training.evaluate import LEARNER, evaluate, lineups


def test_the_learner_is_counted_apart_from_copies_of_itself():
    result = evaluate("i_doubt_it", {"num_players": 3}, "honest", ["honest", "honest"], deals=3, seed=5)
    assert result.games == 9  # 3 deals x 3 rotations, the learner in one seat of each
    assert set(result.field_standings) == {"honest"}
    assert result.field_standings["honest"]["seats"] == 18
    assert result.seed == 5 and result.deals == 3 and result.field == ["honest", "honest"]


def test_a_field_larger_than_the_seats_is_rotated_so_that_every_agent_plays():
    game = GameInfo.of(bluff_envs.make("i_doubt_it", raw=True, num_players=3))
    seats = lineups(game, "me", ["a", "b", "c"])
    assert seats == [["me", "a", "b"], ["me", "b", "c"], ["me", "c", "a"]]
    result = evaluate("i_doubt_it", {"num_players": 3}, "random", ["honest", "counter", "bluffer"], deals=1, seed=0)
    assert set(result.field_standings) == {"honest", "counter", "bluffer"}
    assert len({row["seats"] for row in result.field_standings.values()}) == 1  # each as often


def test_partners_of_the_learner_are_the_learner():
    game = GameInfo.of(bluff_envs.make("tarneeb", raw=True))
    assert lineups(game, "me" + LEARNER, ["rule_based"]) == [["me#learner", "rule_based", "me#learner", "rule_based"]]


def test_the_uncertain_accuracy_has_a_deal_bootstrap_interval():
    field = ["honest", "counter", "bluffer"]
    result = evaluate("believe_it_or_not", {"max_turns": 200}, "random", field, deals=4, seed=3)
    b = result.behaviour  # random disbelieves claims it cannot prove false: some of them bluffs
    assert b["uncertain_challenges"] > 0
    assert b["uncertain_challenge_accuracy_low"] <= b["uncertain_challenge_accuracy"] <= b["uncertain_challenge_accuracy_high"]
    again = evaluate("believe_it_or_not", {"max_turns": 200}, "random", field, deals=4, seed=3).behaviour
    assert again == b  # the bootstrap is seeded by the deals' seed
    one = evaluate("believe_it_or_not", {"max_turns": 200}, "random", field, deals=1, seed=3).behaviour
    assert one["uncertain_challenge_accuracy_low"] == one["uncertain_challenge_accuracy_high"]  # one deal: nothing to resample
    honest = result.field_standings["honest"]["behaviour"]  # honest only calls what it can prove false
    assert honest["uncertain_challenges"] == 0 and honest["uncertain_challenge_accuracy_low"] is None


def test_a_game_without_challenges_gets_no_accuracy_interval():
    result = evaluate("tarneeb", {"target_score": 11}, "random", ["rule_based"], deals=1, seed=0)
    assert "uncertain_challenge_accuracy_low" not in result.behaviour
