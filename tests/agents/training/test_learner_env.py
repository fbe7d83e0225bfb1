"""The learner-seat environment: rewards, masks, seats and opponents, on scripted games."""

from __future__ import annotations

import numpy as np
import pytest

import bluff_envs
from agents.base import Agent, GameInfo
from agents.training.learner_env import LearnerEnv
from agents.training.pool import OpponentPool
from tests.agents.training.league_pool import league_pool, random_policy
from tests.agents.training.scripted import Script, ScriptedAgent, play_learner, stock
from bluff_envs.records import deck_for
from tests.helpers import deck_of

# I Doubt It, 4 players, no cap on a play: player 1 sheds twelve cards as "12 Kings" (nobody
# doubts) and goes out with his 9 when the sequence reaches 9s, two plays later, checked at once.
SHEDDER = ["2C", "2D", "2H", "2S", "3C", "3D", "3H", "3S", "4C", "4D", "4H", "4S", "9S"]
PASS3 = ("pass",) * 3
SHEDDING_GAME = (
    "add A", "done", *PASS3,  # player 0: one Ace
    *["add 2"] * 4, *["add 3"] * 4, *["add 4"] * 4, "done", *PASS3,  # player 1: "12 Kings"
    "add Q", "done", *PASS3,  # player 2: a Queen
    "add J", "done", *PASS3,  # player 3: a Jack
    "add 10", "done", *PASS3,  # player 0: a 10
    "add 9", "done",  # player 1: his last card, a 9, turned up at once: he wins
)


def shedding_deck() -> list[str]:
    fixed = {0: ["AS", "10C"], 1: SHEDDER, 2: ["QC"], 3: ["JC"]}
    taken = {c for hand in fixed.values() for c in hand}
    rest = [c for c in stock() if c not in taken]
    hands = []
    for seat in range(4):
        need = 13 - len(fixed[seat])
        hands.append(fixed[seat] + rest[:need])
        rest = rest[need:]
    return deck_of(*hands)


def scripted_env(game: str, names, options=None, **settings) -> tuple[LearnerEnv, Script]:
    env = LearnerEnv(game, options, ["random"], seed=0, **settings)
    script = Script(env.game, *names)
    env.set_opponents([ScriptedAgent(env.game, script)])
    return env, script


def test_the_learner_who_goes_out_gets_the_win_on_its_last_play():
    env, script = scripted_env("i_doubt_it", SHEDDING_GAME, {"max_cards_per_play": None})
    env.reset(options={"deck": shedding_deck(), "seat": 1})
    results = play_learner(env, script)
    assert len(results) == 1 + 13 + 1 + 1 + 1 + 2  # window, "12 Kings", three windows, last play
    assert [r for r, _, _ in results[:-1]] == [0.0] * (len(results) - 1)
    assert results[-1] == (1.0, True, False)


@pytest.mark.parametrize("seat", [0, 2, 3])
def test_a_game_ended_by_another_player_still_pays_the_learner(seat):
    # the learner's last decision comes before the winner's last play: the -1/3 must reach it
    env, script = scripted_env("i_doubt_it", SHEDDING_GAME, {"max_cards_per_play": None})
    env.reset(options={"deck": shedding_deck(), "seat": seat})
    results = play_learner(env, script)
    assert [r for r, _, _ in results[:-1]] == [0.0] * (len(results) - 1)
    assert results[-1] == (pytest.approx(-1 / 3), True, False)


def test_a_bluff_caught_by_the_opponent_loses_at_once():
    # Seven Spades, 2 players: the learner claims the 2 of hearts, the opponent challenges
    env, script = scripted_env("seven_spades", ["claim", "challenge"], {"num_players": 2})
    env.reset(options={"deck": stock("2H"), "seat": 0})
    assert play_learner(env, script) == [(-1.0, True, False)]


def test_a_wrong_challenge_loses_the_learner_the_game():
    env, script = scripted_env("seven_spades", ["claim", "challenge"], {"num_players": 2})
    env.reset(options={"deck": stock("AS"), "seat": 1})
    assert play_learner(env, script) == [(-1.0, True, False)]


def test_truncation_is_not_termination():
    env, script = scripted_env("i_doubt_it", ("add A", "done", *PASS3), {"max_turns": 1})
    env.reset(options={"deck": shedding_deck(), "seat": 3})
    assert play_learner(env, script) == [(0.0, False, True)]


def test_rewards_add_up_to_the_seat_s_result_and_come_only_at_the_end():
    env = LearnerEnv("i_doubt_it", opponents=["random"], seed=3)
    rng = np.random.default_rng(3)
    for _ in range(3):
        env.reset()
        rewards, done = [], False
        while not done:
            _, reward, terminated, truncated, info = env.step(rng.choice(np.flatnonzero(env.action_masks())))
            rewards.append(reward)
            done = terminated or truncated
        final = env.raw._cumulative_rewards[env.raw.possible_agents[env.seat]]
        assert sum(rewards) == pytest.approx(final) and final != 0
        assert all(r == 0 for r in rewards[:-1])
        assert info["selfplay"]["reward"] == final and info["selfplay"]["seat"] == env.seat


def test_the_learner_sees_only_its_own_decisions_with_its_own_mask():
    env = LearnerEnv("i_doubt_it", opponents=["random"], seed=1)
    observation, info = env.reset(options={"seat": 2})
    rng = np.random.default_rng(1)
    for _ in range(300):
        raw = env.raw
        assert raw.agent_selection == "player_2"
        expected = raw.observe("player_2")
        assert np.array_equal(observation, expected["observation"])
        assert np.array_equal(env.action_masks(), expected["action_mask"]) and env.action_masks().any()
        assert np.array_equal(info["action_mask"], expected["action_mask"])
        observation, _, terminated, truncated, info = env.step(rng.choice(np.flatnonzero(env.action_masks())))
        if terminated or truncated:
            observation, info = env.reset(options={"seat": 2})


def test_seats_rotate_from_episode_to_episode():
    env = LearnerEnv("i_doubt_it", opponents=["random"], first_seat=2, seed=0)
    seats = []
    for _ in range(5):
        env.reset()
        seats.append(env.seat)
    assert seats == [2, 3, 0, 1, 2]
    fixed = LearnerEnv("seven_spades", opponents=["random"], seat=1, seed=0)
    for _ in range(3):
        fixed.reset()
        assert fixed.seat == 1


def finish(env, rng) -> dict:
    """Play the learner at random to the end of the episode; the last info."""
    while True:
        _, _, terminated, truncated, info = env.step(rng.choice(np.flatnonzero(env.action_masks())))
        if terminated or truncated:
            return info


def test_opponents_are_drawn_from_the_pool_payload_per_seat():
    pool = OpponentPool(["random", "honest"], "uniform")
    env = LearnerEnv("i_doubt_it", opponents=pool.payload(), seed=5)
    rng = np.random.default_rng(5)
    met = []
    for _ in range(4):
        env.reset()
        met += finish(env, rng)["selfplay"]["opponents"]
    assert len(met) == 4 * 3 and set(met) == {"random", "honest"}
    env.set_opponents({"probabilities": [0.0, 1.0]})  # same members, new odds
    env.reset()
    assert finish(env, rng)["selfplay"]["opponents"] == ["honest"] * 3


def test_one_opponent_for_the_whole_table_when_not_drawn_per_seat():
    env = LearnerEnv("i_doubt_it", opponents=["random", "honest"], per_seat=False, seed=2)
    rng = np.random.default_rng(2)
    for _ in range(3):
        env.reset()
        assert len(set(finish(env, rng)["selfplay"]["opponents"])) == 1


@pytest.mark.parametrize("per_seat", [True, False])
def test_a_table_drawn_seats_the_whole_game_in_turn_after_the_learner(per_seat):
    pool = OpponentPool(["honest"], "uniform", tables=[["never_challenge", "always_challenge"]])
    env = LearnerEnv("i_doubt_it", opponents=pool.payload(), per_seat=per_seat, seed=3)
    rng = np.random.default_rng(3)
    tables = 0
    for _ in range(12):
        env.reset()
        me = env.seat
        seated = {s: env._seat_agents[f"player_{s}"].name for s in range(4) if s != me}
        met = finish(env, rng)["selfplay"]["opponents"]
        if met == ["table:never_challenge+always_challenge"]:
            tables += 1
            after = [seated[(me + j) % 4] for j in (1, 2, 3)]
            assert after == ["never_challenge", "always_challenge", "never_challenge"]
        else:
            assert met == ["honest"] * 3 and set(seated.values()) == {"honest"}
    assert 0 < tables < 12


class LastLegal(Agent):
    """Always the legal action with the highest index (in Tarneeb: bid 13, then play on)."""

    name = "last_legal"

    def act(self, observation, view=None) -> int:
        return int(np.flatnonzero(observation["action_mask"])[-1])


def tarneeb_deal_played_out(deck) -> tuple[list[float], list[int]]:
    """Every seat's reward and decision count in one deal where everybody plays LastLegal."""
    raw = bluff_envs.make("tarneeb", raw=True, episode="deal")
    raw.reset(options={"deck": deck})
    player = LastLegal(GameInfo.of(raw), 0)
    decisions = [0] * 4
    while not (raw.terminations[raw.agent_selection] or raw.truncations[raw.agent_selection]):
        decisions[int(raw.agent_selection[-1])] += 1
        raw.step(player.act(raw.observe(raw.agent_selection)))
    return [raw._cumulative_rewards[f"player_{s}"] for s in range(4)], decisions


@pytest.mark.parametrize(("seat", "partner", "learner_seats"), [(0, "self", {0, 2}), (1, "self", {1, 3}), (0, "pool", {0}), (3, "last_legal", {3})])
def test_a_tarneeb_partnership_shares_one_reward(seat, partner, learner_seats, monkeypatch):
    from agents import registry

    monkeypatch.setitem(registry._HEURISTICS.setdefault("tarneeb", {}), "last_legal", LastLegal)
    deck = deck_for(bluff_envs.make("tarneeb", raw=True), 42)
    rewards, decisions = tarneeb_deal_played_out(deck)
    assert rewards[0] == rewards[2] == -rewards[1] == -rewards[3] != 0
    env = LearnerEnv("tarneeb", {"episode": "deal"}, ["last_legal"], partner=partner, seed=0)
    env.reset(options={"deck": deck, "seat": seat})
    me = LastLegal(env.game, 0)
    total, steps, done = 0.0, 0, False
    while not done:
        assert int(env.raw.agent_selection[-1]) in learner_seats
        _, reward, terminated, truncated, info = env.step(me.act({"observation": None, "action_mask": env.action_masks()}))
        total, steps, done = total + reward, steps + 1, terminated or truncated
    assert steps == sum(decisions[s] for s in learner_seats)
    assert total == pytest.approx(rewards[seat]) and info["selfplay"]["reward"] == pytest.approx(rewards[seat])
    assert len(info["selfplay"]["opponents"]) == 4 - len(learner_seats) - (partner not in ("self", "pool"))


def test_potential_shaping_adds_up_to_the_game_reward_less_the_first_potential():
    # phi = -0.02 per card in my hand, gamma 1: the shaped rewards telescope to reward - phi(start)
    env = LearnerEnv("i_doubt_it", opponents=["honest"], shaping={"hand_sizes[0]": -0.02}, seed=4)
    rng = np.random.default_rng(4)
    observation, _ = env.reset()
    start = -0.02 * env.game.layout.decode(observation)["hand_sizes"][0]
    assert start == pytest.approx(-0.26)  # 13 cards
    rewards, done = [], False
    while not done:
        _, reward, terminated, truncated, info = env.step(rng.choice(np.flatnonzero(env.action_masks())))
        rewards.append(reward)
        done = terminated or truncated
    assert sum(rewards) == pytest.approx(info["selfplay"]["reward"] - start)
    assert any(r != 0 for r in rewards[:-1])  # progress is rewarded before the end


@pytest.mark.parametrize("draw", ["newest", "all"])
def test_at_the_exploiters_table_the_learner_is_rewarded_with_its_copies_mean(draw):
    """``exploiter_tables`` in the reference env, as in the vector one (tests/agents/training/
    test_vector_learner.py): about that share of the games seats the newest exploiter (``all``:
    any of them) in one other seat and the learner's newest snapshot in the rest; there the
    learner's rewards add up to minus the exploiter's over n - 1, the mean of its copies'."""
    info = GameInfo.of(bluff_envs.make("believe_it_or_not", raw=True))
    n = info.num_players
    pool = league_pool(info)
    env = LearnerEnv("believe_it_or_not", {}, pool.payload(), seed=3, exploiter_tables=0.5, exploiter_table_draw=draw)
    exploiters = {"exploiter@1", "exploiter@2"} if draw == "all" else {"exploiter@2"}
    seated, tables, others = set(), 0, 0
    for _ in range(80):
        env.reset()
        lineup = {name: agent.name for name, agent in env._seat_agents.items()}
        summed, done = 0.0, False
        while not done:
            _, reward, terminated, truncated, step_info = env.step(int(np.flatnonzero(env.action_masks())[0]))
            summed += reward
            done = terminated or truncated
        final = [env.raw._cumulative_rewards[a] for a in env.agent_names]
        me, played = step_info["selfplay"]["seat"], step_info["selfplay"]
        assert played["reward"] == pytest.approx(final[me])  # the game's own, as always
        if "exploiter_table" in played:
            tables += 1
            seat = played["exploiter_table"]["seat"]
            assert played["exploiter_table"]["reward"] == pytest.approx(final[seat])
            assert lineup.pop(env.agent_names[seat]) in exploiters
            seated.add(env._seat_agents[env.agent_names[seat]].name)
            assert set(lineup.values()) == {"snapshot@30"} and len(lineup) == n - 2
            assert summed == pytest.approx(-final[seat] / (n - 1))
            assert summed == pytest.approx(np.mean(np.delete(final, seat)))
            assert played["opponents"] == []
        else:
            others += 1
            assert summed == pytest.approx(final[me])
            assert played["opponents"]
    assert 0.3 < tables / (tables + others) < 0.7, (tables, others)
    assert seated == exploiters


def test_exploiter_tables_wait_for_an_exploiter_and_refuse_partnerships_in_the_reference_env():
    info = GameInfo.of(bluff_envs.make("believe_it_or_not", raw=True))
    pool = OpponentPool(["honest"], "uniform")
    pool.add_snapshot(random_policy(info, 1), 10)  # no exploiter yet: every game is drawn from the pool
    env = LearnerEnv("believe_it_or_not", {}, pool.payload(), seed=1, exploiter_tables=0.9)
    for _ in range(10):
        env.reset()
        assert env._exploiter is None and {a.name for a in env._seat_agents.values()} <= {"honest", "snapshot@10"}
    with pytest.raises(ValueError, match="partnership game"):
        LearnerEnv("tarneeb", {}, ["rule_based"], exploiter_tables=0.3)
    with pytest.raises(ValueError, match="'newest' or 'all'"):
        LearnerEnv("seven_spades", {}, ["honest"], exploiter_table_draw="oldest")
    with pytest.raises(ValueError, match="below 1"):
        LearnerEnv("seven_spades", {}, ["honest"], exploiter_tables=1.0)
