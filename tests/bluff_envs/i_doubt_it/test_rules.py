"""docs/rules.md §1 scenario by scenario: a fixed deal, a few named actions, the expected outcome."""

import numpy as np
import pytest

from bluff_envs import i_doubt_it_v0
from tests.helpers import act, deck_of, legal_names, view

P0 = ["AS", "AH", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC"]
P1 = ["KS", "KH", "KD", "KC", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D"]
P2 = ["QS", "QH", "QD", "JD", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H"]
P3 = ["AD", "AC", "JS", "JH", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S"]


def table(**options):
    env = i_doubt_it_v0.raw_env(**options)
    env.reset(options={"deck": deck_of(P0, P1, P2, P3)})
    return env


def known(env, viewer, seat):
    """Cards ``viewer`` knows ``seat`` holds, as {rank: count}."""
    n = env.game.num_players
    rel = (seat - int(viewer[-1])) % n
    rows = view(env, viewer)["known_cards"].reshape(n - 1, 13)[rel - 1]
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    return {ranks[r]: int(k) for r, k in enumerate(rows) if k}


def hand_sizes(env):
    return list(env.game_state.hand_sizes)


def required(env, agent="player_0"):
    return int(np.argmax(view(env, agent)["required_rank"]))


def test_player_0_names_aces_and_the_window_goes_round_from_his_left():
    env = table()
    assert required(env) == 12  # Aces
    act(env, "add A", "add A", "done")
    assert env.agent_selection == "player_1" and legal_names(env) == ["doubt", "pass"]
    act(env, "pass")
    assert env.agent_selection == "player_2"
    act(env, "pass")
    assert env.agent_selection == "player_3"


def test_honest_play_doubted_the_doubter_takes_the_pile():
    env = table()
    act(env, "add A", "add A", "done", "doubt", "pass", "pass")
    assert hand_sizes(env) == [11, 15, 13, 13]
    assert env.game_state.pile == []
    assert env.agent_selection == "player_1"  # play continues to the discarder's left
    assert required(env) == 11  # Kings
    # the two aces turned up are now known to all to be in player_1's hand
    assert known(env, "player_2", 1) == {"A": 2}
    assert known(env, "player_3", 1) == {"A": 2}
    assert known(env, "player_0", 1) == {"A": 2}


def test_false_play_doubted_the_discarder_takes_the_pile():
    env = table()
    act(env, "add 2", "done", "doubt", "pass", "pass")
    assert hand_sizes(env) == [13, 13, 13, 13]
    assert env.agent_selection == "player_1"
    assert required(env) == 11
    assert known(env, "player_1", 0) == {"2": 1}
    history = view(env, "player_2")["history"][: 2 * 4 + 4]
    # player_2 sees the latest play: player_0 (relative seat 2), 1 card, doubted, a bluff
    assert history[2] == 1 and history[4] == 1 and history[5] == 1 and history[6] == 0 and history[7] == 1


def test_several_doubters_the_nearest_to_the_left_is_official_and_only_he_takes():
    env = table()
    act(env, "add A", "add A", "done", "pass", "doubt", "doubt")
    assert hand_sizes(env) == [11, 13, 15, 13]
    # every decision is public once the window closes
    assert list(view(env, "player_0")["last_doubts"]) == [0, 0, 1, 1]


def test_a_doubt_is_hidden_until_the_window_closes():
    observations = []
    for first in ("doubt", "pass"):
        env = table()
        act(env, "add A", "done", first)
        observations.append(env.observe("player_2")["observation"])
    assert np.array_equal(*observations)


def test_nobody_doubts_the_cards_stay_face_down():
    env = table()
    act(env, "add 2", "add 3", "done", "pass", "pass", "pass")
    assert hand_sizes(env) == [11, 13, 13, 13]
    assert len(env.game_state.pile) == 2
    assert env.agent_selection == "player_1" and required(env) == 11
    assert view(env, "player_0")["my_cards_in_pile"][:2].tolist() == [1, 1]
    assert not view(env, "player_1")["my_cards_in_pile"].any()


@pytest.mark.parametrize(
    "order, expected",
    [
        ("descending", ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "A", "K"]),
        ("ascending", ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]),
    ],
)
def test_the_rank_sequence_wraps(order, expected):
    env = table(rank_order=order)
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    named = []
    for _ in expected:
        named.append(ranks[required(env, env.agent_selection)])
        act(env, legal_names(env)[0], "done", "pass", "pass", "pass")
    assert named == expected


def test_the_sequence_continues_after_a_doubt():
    env = table()
    act(env, "add 2", "done", "doubt", "pass", "pass")  # Aces, doubted
    assert required(env) == 11  # Kings next, as after an undoubted play


def _down_to_one_card(env, last_card_rank):
    """player_0 discards all but one card; the others discard one card each; all pass."""
    keep = {"10": "10C", "9": "9C"}[last_card_rank]
    for rank in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "A", "A"]:
        if keep == "10C" and rank == "10" or keep == "9C" and rank == "9":
            continue
        act(env, f"add {rank}")
    act(env, "done", "pass", "pass", "pass")
    for _ in range(3):  # players 1..3 name K, Q, J
        act(env, legal_names(env)[0], "done", "pass", "pass", "pass")
    assert hand_sizes(env)[0] == 1 and required(env) == 8  # player_0 must name 10s


def test_last_play_checked_honest_wins_at_once():
    env = table(max_cards_per_play=None)
    _down_to_one_card(env, "10")
    act(env, "add 10", "done")
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": 1.0, "player_1": -1 / 3, "player_2": -1 / 3, "player_3": -1 / 3}


def test_last_play_checked_false_takes_the_pile_and_play_continues():
    env = table(max_cards_per_play=None)
    _down_to_one_card(env, "9")
    pile = len(env.game_state.pile)
    act(env, "add 9", "done")
    assert not any(env.terminations.values())
    assert hand_sizes(env)[0] == pile + 1
    assert env.agent_selection == "player_1" and required(env) == 7  # 9s next


def test_last_play_unchecked_nobody_doubts_he_wins():
    env = table(max_cards_per_play=None, last_play_checked=False)
    _down_to_one_card(env, "9")
    act(env, "add 9", "done")
    assert env.agent_selection == "player_1" and legal_names(env) == ["doubt", "pass"]
    act(env, "pass", "pass", "pass")
    assert env.rewards["player_0"] == 1.0 and all(env.terminations.values())


def test_last_play_unchecked_doubted_honest_he_wins_and_the_doubter_takes():
    env = table(max_cards_per_play=None, last_play_checked=False)
    _down_to_one_card(env, "10")
    act(env, "add 10", "done", "pass", "doubt", "pass")
    assert env.rewards["player_0"] == 1.0 and env.game_state.winner == 0
    assert hand_sizes(env)[2] > 12


def test_last_play_unchecked_doubted_false_he_takes_the_pile():
    env = table(max_cards_per_play=None, last_play_checked=False)
    _down_to_one_card(env, "9")
    act(env, "add 9", "done", "doubt", "pass", "pass")
    assert not any(env.terminations.values()) and hand_sizes(env)[0] > 1


def test_the_cap_and_the_canonical_order():
    env = table()
    act(env, "add 2", "add 3")
    assert "add 2" not in legal_names(env)  # a rank below the last one added is masked
    act(env, "add 4", "add 5")
    assert legal_names(env) == ["done"]  # 4 cards: the default cap
    env = table(max_cards_per_play=2)
    act(env, "add A", "add A")
    assert legal_names(env) == ["done"]
    env = table()
    assert "done" not in legal_names(env)  # at least one card
    assert "add K" not in legal_names(env)  # player_0 holds no King


def test_turned_up_cards_become_known_the_rest_stays_hidden():
    env = table()
    act(env, "add A", "add A", "done", "pass", "pass", "pass")  # two aces stay face down
    act(env, "add K", "done", "pass", "doubt", "pass")  # player_1's honest King, player_3 doubts
    assert hand_sizes(env) == [11, 12, 13, 16]
    # player_2 saw only the King turned up: he knows nothing of the aces
    assert known(env, "player_2", 3) == {"K": 1}
    # player_0 put the aces there himself, so he knows where they went
    assert known(env, "player_0", 3) == {"K": 1, "A": 2}
    assert known(env, "player_1", 3) == {"K": 1}


def test_a_known_card_may_be_discarded_face_down():
    env = table()
    act(env, "add A", "add A", "done", "doubt", "pass", "pass")  # player_1 takes two aces
    assert known(env, "player_2", 1) == {"A": 2}
    act(env, "add K", "done", "pass", "pass", "pass")  # player_1 discards one unseen card
    assert known(env, "player_2", 1) == {"A": 1}  # one ace is certainly still there


def test_truncation_at_max_turns():
    env = table(max_turns=2)
    act(env, "add 2", "done", "pass", "pass", "pass")
    act(env, "add 2", "done", "pass", "pass", "pass")
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert set(env.rewards.values()) == {0.0}


def test_every_agent_gets_its_final_reward_then_a_none_step():
    env = table(max_cards_per_play=None)
    _down_to_one_card(env, "10")
    act(env, "add 10", "done")
    seen = {}
    for agent in env.agent_iter():
        _, reward, term, _, _ = env.last()
        assert term
        seen[agent] = reward
        env.step(None)
    assert seen["player_0"] == 1.0 and sum(seen.values()) == pytest.approx(0.0)
