"""`bluff play`: a person (here a script) takes a seat and finishes a game."""

from __future__ import annotations

from click.testing import CliRunner

from experiments.commands import play as play_module
from experiments.commands.play import command

ARGS = ["i_doubt_it", "-o", "num_players=3", "--opponents", "honest,counter", "--seat", "1", "--seed", "4"]


def scripted_answers(monkeypatch) -> list[str]:
    """The answers a player who always takes the lowest-numbered legal action would type,
    found by playing the same seeded game once with that policy."""
    answers = []

    def lowest(self):
        action = min(self.env.unwrapped.legal_actions())
        answers.append(self.env.unwrapped.action_name(action))
        return action

    monkeypatch.setattr(play_module.HumanSeat, "act", lowest)
    result = CliRunner().invoke(command, ARGS)
    assert result.exit_code == 0, result.output
    monkeypatch.undo()
    return answers


def test_scripted_input_finishes_a_game(monkeypatch):
    answers = scripted_answers(monkeypatch)
    # numbers or names, with junk and an illegal move first, which must be refused and asked again
    typed = ["what", "14"] + [a if i % 2 else str(play_module_number(a)) for i, a in enumerate(answers)]
    result = CliRunner().invoke(command, ARGS, input="\n".join(typed) + "\n")
    assert result.exit_code == 0, result.output[-2000:]
    assert "'what' is not an action of this game" in result.output
    assert "'doubt' (14) is not legal now" in result.output
    assert "game over:" in result.output and "(you)" in result.output
    assert result.output.count("your move") == len(answers) + 2


def test_the_table_shows_only_what_the_seat_may_see(monkeypatch):
    answers = scripted_answers(monkeypatch)
    result = CliRunner().invoke(command, ARGS, input="\n".join(answers) + "\n")
    assert "player_1 holds" in result.output
    assert "player_0 holds" not in result.output.split("game over")[0]
    assert "puts down a card" not in result.output  # others' cards going down are not shown one by one
    assert "player_0: done" in result.output  # but their claims are


def test_several_actions_can_be_typed_at_once(monkeypatch):
    answers = scripted_answers(monkeypatch)
    typed = [", ".join(answers[:3])] + answers[3:]
    result = CliRunner().invoke(command, ARGS, input="\n".join(typed) + "\n")
    assert result.exit_code == 0 and "game over:" in result.output
    assert result.output.count("your move") == len(answers) - 2


def test_q_quits():
    result = CliRunner().invoke(command, ARGS, input="q\n")
    assert result.exit_code == 0 and "you left the table" in result.output


def test_bad_opponents_are_refused():
    result = CliRunner().invoke(command, ["i_doubt_it", "--opponents", "honest,honest"])
    assert result.exit_code != 0 and "2 opponents for the 3 other seats" in result.output
    result = CliRunner().invoke(command, ["i_doubt_it", "--opponents", "wizard"])
    assert result.exit_code != 0 and "unknown agent 'wizard'" in result.output


def play_module_number(name: str) -> int:
    import bluff_envs

    return bluff_envs.make("i_doubt_it", raw=True).unwrapped.action_names.index(name)
