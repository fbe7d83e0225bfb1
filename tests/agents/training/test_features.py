"""Derived features: Tarneeb's card-play features say what the rule_based player works out from
the same observation, and the SB3 policy and the frozen numpy policy compute them alike."""

from __future__ import annotations

import numpy as np
import pytest

import bluff_envs
from agents import GameInfo
from agents.heuristics.tarneeb import Seen, losers, suit_ranks, trick_key
from agents.registry import make_agent
from agents.training.features import Features, make_features
from agents.training.features.tarneeb import CARDS, SUITS
from agents.ppo.frozen_policy import FrozenPolicy


def positions(count: int, seed: int = 3, **options):
    """(observation, decoded view) of the acting players along rule_based games of Tarneeb."""
    env = bluff_envs.make("tarneeb", raw=True, **options)
    game = GameInfo.of(env)
    players = [make_agent("rule_based", game, seed + i) for i in range(4)]
    env.reset(seed=seed)
    rows = []
    while len(rows) < count:
        if any(env.terminations.values()):
            env.reset(seed=seed + len(rows))
        agent = env.agent_selection
        obs = env.observe(agent)
        rows.append((obs["observation"], game.layout.decode(obs["observation"])))
        env.step(int(players[env.possible_agents.index(agent)].act(obs)))
    return game, rows


def split(row: np.ndarray) -> dict[str, np.ndarray]:
    """The card_play features by name (the order of CardPlay's docstring)."""
    names = ["trump", "follows", "master", "wins", "lowest", "cheapest_winner"]
    out = {name: row[i * CARDS : (i + 1) * CARDS] for i, name in enumerate(names)}
    rest = row[6 * CARDS :]
    suit_names = ["length", "unseen", "opponent_shown_out", "partner_shown_out", "losers", "estimate", "led", "trump_suit"]
    out.update({name: rest[i * SUITS : (i + 1) * SUITS] for i, name in enumerate(suit_names)})
    out["leading"], out["partner_winning"], out["in_trick"], out["trumps_out"], out["our_contract"] = rest[8 * SUITS :]
    return out


@pytest.mark.parametrize("options", [{}, {"variant": "egyptian"}], ids=["lebanese", "egyptian"])
def test_card_play_features_say_what_the_heuristic_works_out(options):
    game, rows = positions(600, **options)
    features = make_features("tarneeb", game.layout, ["card_play"])
    levels = 35 if game.config.egyptian else 7
    batch = features(np.asarray([obs for obs, _ in rows]))
    assert batch.shape == (len(rows), features.size) and batch.dtype == np.float32
    checked_follows = checked_leads = 0
    for (obs, view), row in zip(rows, batch):
        np.testing.assert_array_equal(row, features(obs))  # one observation as a batch of many
        f, seen = split(row), Seen(view, levels)
        hand = suit_ranks(seen.hand)
        assert list(f["length"] * 13) == pytest.approx([len(r) for r in hand])
        assert list(f["losers"] * 3) == pytest.approx([losers(r) for r in hand])
        if seen.phase != 3:
            assert not f["wins"].any() and not f["trump"].any() and not f["led"].any()
            continue
        trump = seen.trump_suit
        for card in range(CARDS):
            mine = card in seen.hand
            assert f["master"][card] == (mine and seen.is_master(card))
            assert f["trump"][card] == (mine and card & 3 == trump)
            assert f["lowest"][card] == (mine and card >> 2 == min(hand[card & 3]))
        assert f["trumps_out"] == (trump is not None and bool(seen.unseen[trump::4].any()))
        assert f["our_contract"] == (seen.declarer in (0, 2))
        if not seen.trick:
            assert f["leading"] == 1 and not f["wins"].any() and not f["led"].any()
            checked_leads += 1
            continue
        led = seen.trick[0][1] & 3
        keys = [trick_key(card, led, trump) for _, card in seen.trick]
        best = max(range(len(keys)), key=keys.__getitem__)
        winners = [c for c in seen.hand if trick_key(c, led, trump) > keys[best]]
        assert list(np.flatnonzero(f["wins"])) == sorted(winners)
        cheapest = [min(winners, key=lambda c: trick_key(c, led, trump))] if winners else []
        assert list(np.flatnonzero(f["cheapest_winner"])) == cheapest
        assert f["partner_winning"] == (seen.trick[best][0] == 2)
        assert f["in_trick"] * 3 == pytest.approx(len(seen.trick))
        assert list(np.flatnonzero(f["led"])) == [led] and f["leading"] == 0
        assert list(np.flatnonzero(f["follows"])) == [c for c in seen.hand if c & 3 == led]
        checked_follows += 1
    assert checked_follows > 50 and checked_leads > 10


def test_features_rebuild_from_their_plain_data_and_refuse_unknown_sets():
    env = bluff_envs.make("tarneeb", raw=True)
    layout = GameInfo.of(env).layout
    features = make_features("tarneeb", layout, ["card_play"])
    again = Features.from_dict(features.to_dict())
    x = np.asarray([obs for obs, _ in positions(40)[1]])
    np.testing.assert_array_equal(again(x), features(x))
    assert make_features("tarneeb", layout, []) is None
    with pytest.raises(ValueError, match="tarneeb has no feature set 'masters' \\(it has: card_play\\)"):
        make_features("tarneeb", layout, ["masters"])


def test_the_frozen_policy_computes_what_the_sb3_policy_does_with_features():
    import torch
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    from agents.ppo.focus_extractor import FocusExtractor

    env = bluff_envs.make("tarneeb", raw=True)
    layout = GameInfo.of(env).layout
    features = make_features("tarneeb", layout, ["card_play"])
    torch.manual_seed(0)
    policy = MaskableActorCriticPolicy(
        env.observation_space("player_0")["observation"], env.action_space("player_0"), lambda _: 1e-3,
        net_arch={"pi": [32], "vf": [8]}, activation_fn=torch.nn.Tanh, features_extractor_class=FocusExtractor,
        features_extractor_kwargs={"left": [], "right": [], "features": features.to_dict()},
    )
    frozen = FrozenPolicy.from_sb3(policy, "tanh")
    assert frozen.observation_size == layout.size and frozen.features is not None and frozen.focus is None
    x = np.asarray([obs for obs, _ in positions(50)[1]])
    with torch.no_grad():
        expected = policy.action_net(policy.mlp_extractor.forward_actor(policy.extract_features(torch.as_tensor(x))))
    np.testing.assert_allclose(frozen.logits(x), expected.numpy(), rtol=1e-4, atol=1e-5)
    again = FrozenPolicy.from_arrays(frozen.to_arrays())  # as checkpoints and snapshots store it
    np.testing.assert_allclose(again.logits(x), frozen.logits(x))
    assert "card_play" in repr(again)


def test_a_tarneeb_run_with_features_resumes_and_its_checkpoint_plays_as_trained(tmp_path):
    from agents.ppo import checkpoint
    from agents.training.config import config_from_dict
    from agents.ppo.train import Trainer

    config = config_from_dict({
        "game": {"name": "tarneeb", "options": {"episode": "deal"}},
        "total_steps": 512,
        "num_envs": 2,
        "ppo": {"n_steps": 128, "batch_size": 128, "n_epochs": 1},
        "network": {"pi": [16], "vf": [16], "features": ["card_play"]},
        "opponents": {"fixed": ["rule_based"], "snapshot_every": 256},  # snapshots play with the features too
        "eval": {"every": 0, "deals": 1, "opponents": ["rule_based"]},
        "checkpoint": {"every": 256},
        "warm_start": {"teacher": "rule_based", "decisions": 200, "epochs": 1, "dagger_rounds": 1},
    })
    Trainer(config, tmp_path, resume=False, echo=lambda line: None).run()
    final = Trainer(config.replace(total_steps=768), tmp_path, resume=True, echo=lambda line: None).run()
    assert checkpoint.read_metadata(final)["num_timesteps"] >= 768
    assert checkpoint.read_metadata(final)["network"]["features"] == ["card_play"]
    env = bluff_envs.make("tarneeb", raw=True, episode="deal")
    agent = make_agent(f"ppo:{final}@greedy", GameInfo.of(env), 0)
    assert agent.policy.features is not None
    builder = Trainer(config.replace(total_steps=768), tmp_path / "rebuilt", resume=False, echo=lambda line: None)
    model = builder._new_model(builder._make_vec_env(builder.seeds.envs(0, 2)))
    checkpoint.restore(model, final)
    env.reset(seed=11)
    for _ in range(60):
        if any(env.terminations.values()):
            break
        obs = env.observe(env.agent_selection)
        expected, _ = model.predict(obs["observation"], action_masks=obs["action_mask"].astype(bool), deterministic=True)
        assert agent.act(obs) == int(expected)
        env.step(int(expected))


def random_play(env, steps: int, seed: int, reset_seed: int):
    """(observation, decoded view) of the acting player at every decision of random legal play."""
    rng = np.random.default_rng(seed)
    env.reset(seed=reset_seed)
    for step in range(steps):
        if not env.agents:
            env.reset(seed=step)
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        obs = env.observe(agent)
        yield obs, env.unwrapped.public_view(agent)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("options", [{}, {"num_players": 3}, {"num_players": 5, "num_decks": 2}],
                         ids=["4p", "3p", "5p-2-decks"])
def test_doubt_features_say_what_the_i_doubt_it_heuristics_work_out(options):
    """At every doubt window along random games: the claim is impossible exactly when the
    heuristics' count says so (``Table.claim_impossible``, and the behaviour statistics'
    ``provably_false``), and its probability of being false is ``counter``'s."""
    from agents.heuristics.i_doubt_it import Table
    from bluff_envs.i_doubt_it.behaviour import provably_false

    env = bluff_envs.make("i_doubt_it", raw=True, **options)
    game = GameInfo.of(env)
    features = make_features("i_doubt_it", game.layout, ["doubt"])
    again = Features.from_dict(features.to_dict())
    windows = impossible = uncertain = 0
    rows = []
    for obs, view in random_play(env, 2500, seed=1, reset_seed=5):
        rows.append(obs["observation"])
        if view["phase"][1] > 0.5:
            row = features(obs["observation"])
            table = Table(view, game)
            assert row[0] == 1 and row[1] * table.copies == pytest.approx(table.claim_count)
            assert bool(row[7]) == table.claim_impossible()
            assert bool(row[6]) == provably_false(view, game.num_players, table.copies)
            assert row[9] == pytest.approx(table.claim_false_probability(), abs=1e-6)
            windows += 1
            impossible += bool(row[7])
            uncertain += 0 < row[9] < 1
    assert windows > 500 and impossible > 20 and uncertain > 100
    batch = np.asarray(rows)
    np.testing.assert_array_equal(again(batch), features(batch))
    assert features(batch).shape == (len(rows), features.size)


@pytest.mark.parametrize("options", [{}, {"num_players": 3, "deck": 36}, {"num_players": 5, "num_decks": 2}],
                         ids=["4p", "3p-36", "5p-2-decks"])
def test_doubt_features_say_what_the_believe_it_or_not_heuristics_work_out(options):
    """At every response along random games of Believe It or Not: impossible exactly when
    ``Table.claim_impossible``, the probability of a false play ``counter``'s, the play's size,
    whether it led the round and whether its maker went out with it."""
    from agents.heuristics.believe_it_or_not import RESPOND, Table

    env = bluff_envs.make("believe_it_or_not", raw=True, **options)
    game = GameInfo.of(env)
    features = make_features("believe_it_or_not", game.layout, ["doubt"])
    again = Features.from_dict(features.to_dict())
    responses = impossible = uncertain = 0
    rows = []
    for obs, view in random_play(env, 3000, seed=2, reset_seed=7):
        rows.append(obs["observation"])
        row = features(obs["observation"])
        table = Table(view, game)
        if table.maker < 0 or table.rank < 0:
            assert not row.any()
        elif table.phase == RESPOND:
            assert row[0] == 1 and row[1] * table.copies == pytest.approx(table.claim_count)
            assert bool(row[4]) == table.claim_impossible()
            assert row[6] == pytest.approx(table.claim_false_probability(), abs=1e-6)
            assert bool(row[7]) == table.is_lead and bool(row[9]) == table.maker_went_out
            responses += 1
            impossible += bool(row[4])
            uncertain += 0 < row[6] < 1
    assert responses > 500 and impossible > 20 and uncertain > 100
    batch = np.asarray(rows)
    np.testing.assert_array_equal(again(batch), features(batch))


@pytest.mark.parametrize("options", [{}, {"num_players": 3}], ids=["4p", "3p"])
def test_record_features_weigh_counters_rule_by_the_makers_whole_record(options):
    """At every response along random games of Believe It or Not with ``call_record``: the
    maker's plays found honest and false (his entries of the record fields), the share found
    false, and ``counter``'s probability with his whole record in place of the recent calls."""
    from agents.heuristics.believe_it_or_not import RESPOND, Table

    env = bluff_envs.make("believe_it_or_not", raw=True, call_record=True, **options)
    game = GameInfo.of(env)
    features = make_features("believe_it_or_not", game.layout, ["record"])
    responses = caught = 0
    for obs, view in random_play(env, 3000, seed=3, reset_seed=8):
        row = features(obs["observation"])
        table = Table(view, game)
        if table.maker < 0 or table.rank < 0:
            assert not row.any()
            continue
        if table.phase != RESPOND:
            continue
        record = game.layout.decode(obs["observation"], ["plays_found_honest", "plays_found_false"])
        honest, false = (int(round(record[name][table.maker])) for name in ("plays_found_honest", "plays_found_false"))
        stored = obs["observation"][game.layout["plays_found_false"]][table.maker]
        assert row[1] == pytest.approx(stored) and row[2] == pytest.approx(false / max(honest + false, 1))
        table.maker_record = (honest, false)
        assert row[3] == pytest.approx(table.claim_false_probability(), abs=1e-6)
        responses += 1
        caught += false > 0 and honest > 0
    assert responses > 500 and caught > 100
    with pytest.raises(ValueError, match="no field 'plays_found_honest'"):
        make_features("believe_it_or_not", GameInfo.of(bluff_envs.make("believe_it_or_not", raw=True)).layout, ["record"])


@pytest.mark.parametrize("options", [{}, {"num_players": 2}, {"num_players": 5, "num_decks": 2, "target": 5}],
                         ids=["4p", "2p", "5p-2-decks-target-5"])
def test_doubt_features_say_what_the_seven_spades_heuristics_work_out(options):
    """Along random games of Seven Spades: the unplaced spades and cards, the heuristics'
    conditions on rows at target−1 and on the recent challenges, and in every window whether
    the claim is impossible and ``counter``'s probability that it is false."""
    from agents.heuristics.seven_spades import Table

    env = bluff_envs.make("seven_spades", raw=True, **options)
    game = GameInfo.of(env)
    features = make_features("seven_spades", game.layout, ["doubt"])
    again = Features.from_dict(features.to_dict())
    windows = 0
    rows = []
    for obs, view in random_play(env, 2500, seed=3, reset_seed=9):
        rows.append(obs["observation"])
        row = features(obs["observation"])
        t = Table(view, game)
        cards, spades = t.unplaced()
        challenged, recent = t.recent_challenges()
        best = t.opponents_best()
        assert row[4] * 13 * t.decks == pytest.approx(spades, abs=1e-4)
        assert row[5] * 52 * t.decks == pytest.approx(cards, abs=1e-4)
        assert bool(row[6]) == (t.my_row_length >= t.target - 1) and bool(row[8]) == t.drawn_spade
        assert bool(row[7]) == (best >= t.target - 1 and t.my_row_length < best)
        assert bool(row[10]) == (recent == len(t.history) and challenged == 0)
        if t.in_window:
            assert row[0] == 1 and bool(row[1]) == t.claim_impossible()
            assert row[2] == pytest.approx(t.claim_false_probability(), abs=1e-6)
            assert bool(row[3]) == (t.row_lengths[t.claimer] >= t.target - 1)
            windows += 1
        else:
            assert not row[:4].any()
    assert windows > 300
    batch = np.asarray(rows)
    np.testing.assert_array_equal(again(batch), features(batch))


def test_pace_features_weigh_a_row_against_its_owners_draws():
    """Seven Spades' pace: a claimer who claims every draw is surprising in proportion to how
    unlikely an honest row that long is (Binomial(draws, 1/4)); a drawer sees the same for his
    own row if he claims; outside their phases the features are 0."""
    from agents.training.features.seven_spades import honest_tail
    from tests.bluff_envs.seven_spades.stocks import table
    from tests.helpers import act

    assert honest_tail(4, 0) == 1.0 and honest_tail(3, 4) == 0.0
    assert honest_tail(1, 1) == pytest.approx(0.25) and honest_tail(3, 3) == pytest.approx(0.25**3)
    assert honest_tail(4, 2) == pytest.approx(1 - 0.75**4 - 4 * 0.25 * 0.75**3)
    # three players, no spade among the first cards: player 0 claims everything, 1 and 2 discard
    env = table("2H", "3C", "4D", "5H", "6C", "7D", "8H", "9C", "10D", num_players=3)
    features = make_features("seven_spades", GameInfo.of(env).layout, ["pace"])
    observe = lambda agent: features(env.observe(agent)["observation"])  # noqa: E731
    row = observe("player_0")  # drawer, row 0, first draw: a claim would make 1 of 1
    assert row[:2].tolist() == [0, 0] and row[2] == pytest.approx(0.25)
    assert row[3] == pytest.approx(-np.log(0.25) / np.log(1000))
    tails = []
    for draw in range(1, 4):
        act(env, "claim")  # player 0's row: draw cards of `draw` draws
        window = observe(env.agent_selection)  # player 1 decides first
        assert env.agent_selection == "player_1"
        assert window[0] == pytest.approx(honest_tail(draw, draw)) and window[2:].tolist() == [0, 0]
        assert window[1] == pytest.approx(min(-np.log(honest_tail(draw, draw)) / np.log(1000), 1.0))
        tails.append(window[0])
        act(env, "pass")
        act(env, "pass")
        for _ in range(2):  # players 1 and 2 discard; as drawers with an empty row, a claim makes 1 of `draw`
            mine = observe(env.agent_selection)
            assert mine[2] == pytest.approx(honest_tail(draw, 1))
            act(env, "discard")
    assert tails[0] > tails[1] > tails[2] and tails[2] == pytest.approx(1 / 64)
