"""The rule-based Tarneeb player: legal, deterministic, better than random, and doing what its
docstring says in situations built by hand."""

import numpy as np
import pytest

import bluff_envs
from agents import GameInfo, agent_names, make_agent
from agents.heuristics.tarneeb import losers, suit_ranks
from bluff_envs.cards import parse_card
from tests.helpers import act, deck_of
from tests.bluff_envs.tarneeb.test_rules import MIXED, ONE_SUIT_EACH

# Dealt in turn from a sorted deck: everybody holds some of every suit.
#   player 0: AS 10S 6S 2S  JH 7H 3H  QD 8D 4D  KC 9C 5C
#   player 1: KS 9S 5S  AH 10H 6H 2H  JD 7D 3D  QC 8C 4C
#   player 2: QS 8S 4S  KH 9H 5H  AD 10D 6D 2D  JC 7C 3C
#   player 3: JS 7S 3S  QH 8H 4H  KD 9D 5D  AC 10C 6C 2C
IN_TURN = [f"{r}{s}" for s in "SHDC" for r in ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]]


def table(deck, **options):
    env = bluff_envs.make("tarneeb", raw=True, **options)
    env.reset(seed=0, options={"deck": deck})
    return env, make_agent("rule_based", GameInfo.of(env), seed=0)


def decide(env, agent) -> str:
    return env.action_name(agent.act(env.observe(env.agent_selection)))


def test_it_is_registered():
    assert "rule_based" in agent_names("tarneeb")


def test_losing_trick_count():
    ranks = suit_ranks([parse_card(c) for c in ["AS", "KS", "7S", "KH", "4H", "QD", "3D", "2D", "5C"]])
    assert [losers(r) for r in ranks] == [1, 2, 1, 1]  # clubs x, diamonds Qxx, hearts Kx, spades AKx


# -- bidding and trump ------------------------------------------------------------------------


def test_a_hand_without_a_loser_bids_13_and_names_its_longest_suit():
    env, agent = table(MIXED)  # player 0: AKQJ10 of spades, AK, AK, AKQJ of clubs
    assert decide(env, agent) == "bid 13"
    act(env, "bid 13", "pass", "pass", "pass")
    assert decide(env, agent) == "trump S"


def test_a_worthless_hand_passes():
    env, agent = table(MIXED)
    act(env, "pass", "pass", "pass")  # player 3 holds nothing above a six
    assert decide(env, agent) == "pass"


def test_a_dealer_forced_to_bid_bids_the_least():
    env, agent = table(MIXED, all_pass="dealer_bids_7")
    act(env, "pass", "pass", "pass")
    assert decide(env, agent) == "bid 7"


def test_it_leaves_its_partner_the_contract():
    strong = "AS KS QS JS 10S AH KH 2D 3D 4D 2C 3C 4C".split()  # six losers: worth 8 or 9
    rest = [c for c in IN_TURN if c not in strong]
    deck = deck_of(rest[0:13], rest[13:26], strong, rest[26:39])
    env, agent = table(deck)
    act(env, "pass", "bid 7")
    assert decide(env, agent) == "bid 8"  # over an opponent it bids
    env, agent = table(deck)
    act(env, "bid 7", "pass")
    assert decide(env, agent) == "pass"  # over its partner it does not


def test_egyptian_bids_name_its_best_strain_and_a_sure_contract_is_doubled():
    env, agent = table(ONE_SUIT_EACH, variant="egyptian")
    assert decide(env, agent) == "bid 13 S"  # every spade
    act(env, "bid 9 S", "pass", "pass", "pass")
    assert decide(env, agent) == "double"


# -- play -------------------------------------------------------------------------------------


def test_the_declaring_side_draws_trumps_with_the_master():
    env, agent = table(MIXED)
    act(env, "bid 7", "pass", "pass", "pass", "trump S")
    assert decide(env, agent) == "play AS"


def test_it_follows_cheaply_behind_a_winning_partner_and_low_when_it_cannot_win():
    env, agent = table(MIXED)
    act(env, "bid 7", "pass", "pass", "pass", "trump H", "play AD", "play QD")
    assert decide(env, agent) == "play 7D"  # partner's ace wins: the lowest diamond
    act(env, "play 7D")
    assert decide(env, agent) == "play 2D"  # nothing beats the ace: the lowest diamond


def test_it_wins_as_cheaply_as_it_can_in_the_last_seat():
    env, agent = table(IN_TURN)
    act(env, "bid 7", "pass", "pass", "pass", "trump S", "play 3H", "play 2H", "play 5H")
    assert decide(env, agent) == "play 8H"  # QH wins too, 8H is enough


def test_it_trumps_when_void_with_its_lowest_trump():
    env, agent = table(ONE_SUIT_EACH)
    act(env, "bid 7", "pass", "pass", "pass", "trump C", "play 2S", "play 2H", "play 2D")
    assert decide(env, agent) == "play 2C"  # player 3 holds every club: the trump suit


def test_it_discards_a_side_card_rather_than_a_trump():
    env, agent = table(ONE_SUIT_EACH)
    act(env, "bid 7", "pass", "pass", "pass", "trump H", "play AS")
    assert decide(env, agent) == "play 2H"  # player 1 holds only hearts: it must trump
    act(env, "play 2H")
    assert decide(env, agent) == "play 2D"  # player 2: partner is beaten, a diamond costs least


# -- legality, determinism, strength ----------------------------------------------------------

SITUATIONS = [
    {"episode": "deal"},
    {"episode": "deal", "variant": "egyptian"},
    {"episode": "deal", "bidding": "single_round", "all_pass": "dealer_bids_7", "allow_no_trump": True},
    {"episode": "deal", "first_lead_trump": True, "variant": "egyptian", "all_pass": "dealer_bids_7"},
]


@pytest.mark.parametrize("options", SITUATIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_it_returns_only_legal_actions(options):
    """Random deals; at every decision the player is asked too and must answer legally."""
    rng = np.random.default_rng(5)
    env = bluff_envs.make("tarneeb", raw=True, **options)
    info = GameInfo.of(env)
    agent = make_agent("rule_based", info, 0)
    asked = 0
    for deal in range(12):
        env.reset(seed=deal)
        for name in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            mask = obs["action_mask"]
            action = agent.act(obs)
            assert mask[action], f"rule_based chose {env.action_name(action)} in {options}"
            same = agent.act(obs, env.public_view(name))  # the decoded view gives the same answer
            assert same == action
            asked += 1
            legal = np.flatnonzero(mask)
            env.step(action if rng.random() < 0.5 else int(legal[rng.integers(len(legal))]))
    assert asked > 500


def _play_deals(specs, deals, options=None, seed=0):
    """Actions and seat rewards of ``deals`` deals with agents ``specs`` at seats 0..3."""
    env = bluff_envs.make("tarneeb", raw=True, episode="deal", **(options or {}))
    info = GameInfo.of(env)
    history, rewards = [], np.zeros(4)
    for deal in range(deals):
        agents = [make_agent(spec, info, seed + 4 * deal + p) for p, spec in enumerate(specs)]
        env.reset(seed=seed + deal)
        for name in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            if term or trunc:
                rewards[int(name[-1])] += reward
                env.step(None)
                continue
            history.append(agents[int(name[-1])].act(obs))
            env.step(history[-1])
    return history, rewards


def test_it_is_deterministic_under_a_seed():
    first = _play_deals(["rule_based", "random", "rule_based", "random"], 5, seed=3)
    again = _play_deals(["rule_based", "random", "rule_based", "random"], 5, seed=3)
    assert first[0] == again[0] and np.array_equal(first[1], again[1])


@pytest.mark.parametrize("variant", ["lebanese", "egyptian"])
def test_a_rule_based_partnership_beats_two_random_players(variant):
    options = {"variant": variant}
    _, even = _play_deals(["rule_based", "random", "rule_based", "random"], 30, options)
    _, odd = _play_deals(["random", "rule_based", "random", "rule_based"], 30, options, seed=100)
    per_deal = (even[0] + odd[1]) / 60  # one rule-based seat per deal; partners share rewards
    assert even[0] == even[2] and odd[1] == odd[3]
    assert per_deal > 0.3, per_deal
