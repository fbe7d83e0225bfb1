"""``bluff behaviour``'s statistics with deal-bootstrap intervals: claims by stage, and uncertain
challenge decisions split by whose claim they answered (``--by maker``)."""

from __future__ import annotations

import pytest

from agents.arena.behaviour import MAKER_SHARES, behaviour, by_maker, maker_tables, stages_with_intervals
from agents.arena.evaluate import play_games
from bluff_envs.behaviour import claims_by_stage, module_for
from bluff_envs.records import GameRecord


@pytest.fixture(scope="module")
def results():
    """Believe It or Not at honest, counter, bluffer, random: 6 deals, every seating."""
    return play_games("believe_it_or_not", {}, [["honest", "counter", "bluffer", "random"]], 6, seed=3)


def test_the_split_adds_up_to_the_uncertain_calls_the_behaviour_counts(results):
    split = by_maker([r.record for r in results])
    rates = behaviour(results, seed=0).rates
    assert sorted(split) == ["bluffer", "counter", "honest", "random"]
    for spec, makers in split.items():
        assert list(makers)[-1] == "all" and spec not in makers  # nobody answers his own play
        total = makers["all"]
        assert total["challenges"] == rates[spec]["uncertain_challenges"]
        assert total["accuracy"] == rates[spec]["uncertain_challenge_accuracy"]
        for count in ("answers", "bluffs", "challenges", "right", "wrong", "certain_answers"):
            assert sum(row[count] for maker, row in makers.items() if maker != "all") == total[count]
    honest = [row for makers in split.values() for maker, row in makers.items() if maker in ("honest", "counter")]
    assert len(honest) >= 4 and all(row["bluffs"] == 0 < row["answers"] for row in honest)  # they never bluff
    assert split["random"]["bluffer"]["bluffs"] > 0 and split["random"]["all"]["challenges"] > 0


def test_every_share_has_a_deal_bootstrap_interval_around_it(results):
    split = by_maker([r.record for r in results], seed=4)
    assert split == by_maker([r.record for r in results], seed=4)  # reproducible
    shown = 0
    for makers in split.values():
        for row in makers.values():
            for key, _, part, whole in MAKER_SHARES:
                if row[whole]:
                    assert row[key] == pytest.approx(row[part] / row[whole])
                    assert row[f"{key}_low"] <= row[key] + 1e-12 and row[key] <= row[f"{key}_high"] + 1e-12
                    shown += 1
                else:
                    assert row[key] is None and row[f"{key}_low"] is None
    assert shown > 20
    # more often right than the base rate exactly when bluffs are challenged more than true claims
    row = split["random"]["all"]
    assert (row["accuracy"] > row["bluff_rate"]) == (row["bluffs_challenged"] > row["true_claims_challenged"])


def test_the_tables_show_a_row_per_maker_and_no_decisions_plainly(results):
    split = by_maker([r.record for r in results])
    text = maker_tables({**split, "never_challenge": {}})
    assert "### random" in text and "| maker | uncertain answers | bluffs (base rate) |" in text
    row = split["random"]["bluffer"]
    assert f"| bluffer | {row['answers']} | {row['bluff_rate']:.3f} [" in text
    assert "### never_challenge\n\nNo challenge decisions." in text


def test_a_game_without_challenges_has_no_split():
    tarneeb = GameRecord("tarneeb", {}, 0, [], ["rule_based"] * 4, [], [0.0] * 4, 0, False)
    assert by_maker([tarneeb]) == {} and by_maker([]) == {}


def test_claims_by_stage_get_an_interval_per_share_that_resamples_deals(results):
    records = [r.record for r in results]
    module = module_for("believe_it_or_not")
    by_stage, intervals = stages_with_intervals(records, module, seed=2)
    assert by_stage == claims_by_stage(records, module)
    assert {s: list(stages) for s, stages in by_stage.items()} == {
        s: list(stages) for s, stages in claims_by_stage(records, module).items()}  # the game's order
    assert (by_stage, intervals) == stages_with_intervals(records, module, seed=2)
    checked = 0
    for spec, stages in by_stage.items():
        for stage, c in stages.items():
            wholes = {"bluffs": c["claims"], **{k: c["bluffs"] if k.startswith("bluff ") else c["claims"] - c["bluffs"]
                                                for k in c if k.startswith(("bluff ", "true "))}}
            for key, whole in wholes.items():
                if not whole:
                    assert key not in intervals[spec][stage]
                    continue
                low, high = intervals[spec][stage][key]
                share = c[key] / whole
                assert low - 1e-12 <= share <= high + 1e-12
                checked += 1
    assert checked > 30
    one_deal = [r.record for r in results if r.deal == results[0].deal]
    assert stages_with_intervals(one_deal, module)[1] == {}  # nothing to resample: the tables show Wilson's
    row = by_maker(one_deal)["random"]["all"]
    assert row["accuracy"] is not None and row["accuracy_low"] is None
    assert f"| all | {row['answers']} | {row['bluff_rate']:.3f} ({row['bluffs']}/{row['answers']}) |" in maker_tables(
        {"random": {"all": row}})
