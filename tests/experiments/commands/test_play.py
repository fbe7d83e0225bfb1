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
    assert "add " not in result.output.split("your move")[0]  # others' cards going down are not shown
    assert 'player_0 puts 1 card face down: "1 A"' in result.output  # but their claims are


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


def transcript(monkeypatch, args) -> str:
    """A whole game in which the person always takes the lowest-numbered legal action."""
    def lowest(self):
        return min(self.env.unwrapped.legal_actions())

    monkeypatch.setattr(play_module.HumanSeat, "act", lowest)
    result = CliRunner().invoke(command, args)
    assert result.exit_code == 0, result.output[-2000:]
    return result.output


def test_an_i_doubt_it_game_tells_every_doubt_and_its_outcome(monkeypatch):
    text = transcript(monkeypatch, ARGS)  # the lowest action in a doubt window is "doubt"
    assert 'player_1 says "I doubt it"' in text
    assert "the cards turned up are" in text and ("the claim was true" in text and "the claim was a bluff" in text)
    assert "takes the pile" in text
    assert "went out and wins" in text


def test_a_tarneeb_deal_tells_every_trick_and_the_deal_score(monkeypatch):
    text = transcript(monkeypatch, ["tarneeb", "-o", "episode=deal", "--opponents", "rule_based", "--seed", "2"])
    assert text.count("takes it (tricks this deal: your side") == 13
    assert "deal over: players 0+2 score" in text
    assert "bids" in text and "passes" in text


def test_short_answers_and_the_rank_order_hint():
    from experiments.commands.play import parse_answer

    names = ["add 2", "add 10", "done", "play 8C", "bid 7 H", "bid 8 H", "trump H"]
    assert parse_answer("8C", names, [3]) == (3, None)
    assert parse_answer("10", names, [1]) == (None, "'10' is not an action of this game (actions are 0 to 6)")  # numbers are ids
    assert parse_answer("add 10", names, [1, 2]) == (1, None)
    action, why = parse_answer("H", names, [4, 5, 6])
    assert action is None and "could be bid 7 H or bid 8 H or trump H" in why
    action, why = parse_answer("add 2", names, [1, 2])
    assert action is None and "rank order" in why and "is not legal now" in why


def test_legal_actions_wrap_between_actions_only(monkeypatch):
    from experiments.commands.play import wrapped

    monkeypatch.setattr("shutil.get_terminal_size", lambda fallback=None: __import__("os").terminal_size((44, 20)))
    text = wrapped("legal actions:", [f"[{a}] play {a}C" for a in range(10)])
    lines = text.splitlines()
    assert len(lines) > 1 and all(len(line) <= 44 for line in lines)
    assert all("[" in line and line.rstrip().endswith("C") for line in lines)  # no item is cut

