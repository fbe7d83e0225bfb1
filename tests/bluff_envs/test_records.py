"""Game records: JSON round trip, exact replay, and `bluff replay`."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from bluff_envs.records import GameRecord, ReplayError, deck_for, moves, replay, replay_steps
from experiments.commands.replay import command as replay_command
from agents.arena.match import play_game
from agents.arena.schedule import schedule


@pytest.fixture(scope="module")
def record() -> GameRecord:
    task = schedule("i_doubt_it", {"num_players": 4}, [("honest", "counter", "bluffer", "random")], 1, seed=3)[1]
    return play_game(task)


def test_a_recorded_game_replays_identically(record):
    assert replay(record) == record.rewards
    again = GameRecord.from_json(record.to_json())
    assert again == record
    assert replay(again) == record.rewards
    assert len(record.actions) == record.steps and sorted(record.deck) == sorted(set(record.deck))


def test_replay_walks_every_decision_with_full_state(record):
    walk = replay_steps(record)
    first = next(walk)
    assert first.agent == "player_0" and first.env.unwrapped.state.turns == 0  # seen before it is applied
    assert [first.action] + [s.action for s in walk] == record.actions


def test_a_record_that_does_not_match_its_outcome_is_refused(record):
    wrong = GameRecord.from_dict({**record.to_dict(), "rewards": list(reversed(record.rewards))})
    with pytest.raises(ReplayError, match="rewards"):
        replay(wrong)
    short = GameRecord.from_dict({**record.to_dict(), "actions": record.actions[:-3]})
    with pytest.raises(ReplayError, match="ends after"):
        replay(short)


def test_the_deck_of_a_seed_is_the_deck_reset_deals(record):
    import bluff_envs

    env = bluff_envs.make("i_doubt_it", raw=True)
    env.reset(seed=42)
    hands_by_seed = [env.unwrapped.state.hand_cards(p) for p in range(4)]
    env.reset(seed=0, options={"deck": deck_for(env, 42)})
    assert [env.unwrapped.state.hand_cards(p) for p in range(4)] == hands_by_seed


def test_moves_show_the_acting_players_table(record):
    first = next(moves(record))
    step, agent, name, text = first
    assert (step, agent) == (0, "player_0") and name.startswith("add") and "player_0 holds" in text


def test_bluff_replay_prints_a_record_move_by_move(record, tmp_path):
    path = tmp_path / "game.json"
    record.save(path)
    result = CliRunner().invoke(replay_command, [str(path), "--quiet"])
    assert result.exit_code == 0, result.output
    assert f"ended after {record.steps} decisions" in result.output
    assert result.output.count("\n[") == record.steps


def test_bluff_replay_picks_a_game_of_a_results_file(record, tmp_path):
    import json

    path = tmp_path / "results.jsonl"
    path.write_text("".join(json.dumps({"game_id": f"G{i}", **record.to_dict()}) + "\n" for i in range(2)))
    ok = CliRunner().invoke(replay_command, [str(path), "--game-id", "G1"])
    assert ok.exit_code == 0 and "I Doubt It" in ok.output
    missing = CliRunner().invoke(replay_command, [str(path), "--game-id", "nope"])
    assert missing.exit_code != 0 and "no game 'nope'" in missing.output


def test_replay_on_the_rules_alone_walks_the_same_decisions(record):
    from bluff_envs.records import replay_rules

    on_rules = [(s.seat, s.action) for s in replay_rules(record)]
    with_env = [(s.seat, s.action) for s in replay_steps(record)]
    assert on_rules == with_env
    wrong = GameRecord.from_dict({**record.to_dict(), "truncated": not record.truncated})
    with pytest.raises(ReplayError, match="truncated"):
        list(replay_rules(wrong))
