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
    assert first.agent == "player_0" and first.env.unwrapped.game_state.turns == 0  # seen before it is applied
    assert [first.action] + [s.action for s in walk] == record.actions


def test_a_record_that_does_not_match_its_outcome_is_refused(record):
    wrong = GameRecord.from_dict({**record.to_dict(), "rewards": list(reversed(record.rewards))})
    with pytest.raises(ReplayError, match="rewards"):
        replay(wrong)
    short = GameRecord.from_dict({**record.to_dict(), "actions": record.actions[:-3], "steps": record.steps - 3})
    with pytest.raises(ReplayError, match="ends after"):
        replay(short)


def test_the_deck_of_a_seed_is_the_deck_reset_deals(record):
    import bluff_envs

    env = bluff_envs.make("i_doubt_it", raw=True)
    env.reset(seed=42)
    hands_by_seed = [env.unwrapped.game_state.hand_cards(p) for p in range(4)]
    env.reset(seed=0, options={"deck": deck_for(env, 42)})
    assert [env.unwrapped.game_state.hand_cards(p) for p in range(4)] == hands_by_seed


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


@pytest.mark.parametrize(
    "change, words",
    [
        ({"actions": [1, "2"]}, "actions=.* is not a list of action ids"),
        ({"actions": [True]}, "actions=.* is not a list of action ids"),
        ({"steps": 3}, "steps=3 is not the number of actions"),
        ({"seed": "x"}, "seed='x' is not an integer or null"),
        ({"rewards": "win"}, "rewards='win' is not a list of numbers"),
        ({"truncated": 0}, "truncated=0 is not true or false"),
    ],
)
def test_a_malformed_record_is_refused_when_read(record, change, words):
    with pytest.raises(ValueError, match=words):
        GameRecord.from_dict({**record.to_dict(), **change})


def test_a_record_is_a_json_object_with_every_field(record):
    with pytest.raises(ValueError, match="a game record is a JSON object, not list"):
        GameRecord.from_dict([1, 2])
    data = record.to_dict()
    del data["deck"]
    with pytest.raises(ValueError, match="game record lacks deck"):
        GameRecord.from_dict(data)


def test_out_of_range_and_illegal_recorded_actions_are_replay_errors(record):
    from bluff_envs.records import replay_rules

    wild = GameRecord.from_dict({**record.to_dict(), "actions": [99] + record.actions[1:]})
    with pytest.raises(ReplayError, match="action 0 of the record is 99, outside the game's actions 0..15"):
        replay(wild)
    illegal = GameRecord.from_dict({**record.to_dict(), "actions": [14] + record.actions[1:]})  # "doubt" first
    with pytest.raises(ReplayError, match="action 0 of the record is not legal there"):
        replay(illegal)
    with pytest.raises(ReplayError, match="not legal there"):
        list(replay_rules(illegal))


@pytest.mark.parametrize(
    "content, words",
    [
        (b"\xff\xfe not text", "is not UTF-8 text"),
        (b'{"game_id": "x"}\n', ":1: game record lacks"),
        (b"[1, 2]\n", ":1: a game record is a JSON object"),
    ],
)
def test_bluff_replay_of_a_damaged_file_is_a_clear_error(tmp_path, content, words):
    path = tmp_path / "results.jsonl"
    path.write_bytes(content)
    result = CliRunner().invoke(replay_command, [str(path)])
    assert result.exit_code == 1 and words in result.output and "Traceback" not in result.output


@pytest.mark.parametrize(
    "line, words",
    [
        (b'{"game_id": "L000-D000000-S00"}\n', "a line without a valid 'deal'"),
        (b'"just a string"\n', "a line is a JSON str, not a game"),
    ],
)
def test_a_foreign_line_in_results_stops_a_resume_with_its_line_number(record, tmp_path, line, words):
    import json

    from experiments.tournament.results import ResultsFile

    good = json.dumps({"game_id": "L000-D000000-S01", "lineup": 0, "deal": 0, "seating": 1, **record.to_dict()})
    path = tmp_path / "results.jsonl"
    path.write_bytes(good.encode() + b"\n" + line + good.encode() + b"\n")
    with pytest.raises(ValueError, match=f"results.jsonl:2: {words}"):
        ResultsFile(path).finished()

