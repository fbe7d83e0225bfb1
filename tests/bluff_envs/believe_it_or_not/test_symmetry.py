"""The ranks of Believe It or Not are interchangeable (``game.symmetry``, bluff_envs.symmetry):
a deal with its ranks relabelled, played with the actions relabelled, shows every player the
relabelled observations and ends with the same rewards. That proves the relabelling moves every
field that names a rank, and nothing else.

A play is built card by card with its ranks in the canonical order 2 … A
(bluff_envs.play_builder), an order no relabelling keeps: the relabelled game builds the same
play in its own order, and the two games are compared between plays."""

from __future__ import annotations

import numpy as np
import pytest

import bluff_envs
from bluff_envs.believe_it_or_not.actions import ADD0, DONE
from bluff_envs.cards import card_str
from bluff_envs.records import deck_ids_for
from bluff_envs.symmetry import Relabelling


def relabelled_deck(cards, sigma):
    return [card_str(int(sigma[c >> 2]) * 4 + (c & 3)) for c in cards]


@pytest.mark.parametrize("options", [{}, {"num_players": 3}, {"num_players": 2, "deck": 52, "num_decks": 2},
                                     {"num_players": 5, "discard_quads": True, "max_cards_per_play": 3}])
def test_a_relabelled_deal_plays_the_relabelled_game(options):
    original, relabelled = (bluff_envs.make("believe_it_or_not", raw=True, **options) for _ in range(2))
    symmetry = original.unwrapped.game.symmetry
    assert symmetry is not None and symmetry.count == np.prod(np.arange(1, len(original.unwrapped.game.ranks) + 1))
    rng = np.random.default_rng(7)
    compared = 0
    for game in range(8):
        cards = deck_ids_for(original, game)
        sigma = symmetry.permutations(rng.integers(symmetry.count))[0]
        obs_src, action_src = (x[0] for x in symmetry.sources(sigma[None]))
        to_relabelled = np.argsort(action_src)  # original action -> the relabelled game's
        original.reset(seed=game, options={"deck": [card_str(c) for c in cards]})
        relabelled.reset(seed=game, options={"deck": relabelled_deck(cards, sigma)})
        building = original.unwrapped.game.layout["building"]
        play = []  # the ranks of the play under way in the original game
        for agent in original.agent_iter():
            seen, reward, done, truncated, _ = original.last()
            if not play:  # between plays both games stand at the same decision
                assert relabelled.agent_selection == agent
                shown, reward2, done2, truncated2, _ = relabelled.last()
                assert (reward2, done2, truncated2) == (reward, done, truncated)
            if done or truncated:
                original.step(None)
                relabelled.step(None)
                continue
            if not play:
                assert not seen["observation"][building].any()
                np.testing.assert_array_equal(shown["observation"], seen["observation"][obs_src])
                np.testing.assert_array_equal(shown["action_mask"], seen["action_mask"][action_src])
                other = original.agents[(original.agents.index(agent) + 1) % len(original.agents)]
                np.testing.assert_array_equal(relabelled.observe(other)["observation"],
                                              original.observe(other)["observation"][obs_src])
                compared += 1
            action = int(rng.choice(np.flatnonzero(seen["action_mask"])))
            original.step(action)
            if ADD0 <= action < DONE:
                play.append(action - ADD0)
            elif action == DONE:  # the same play, its cards added in the relabelled game's order
                for rank in sorted(int(sigma[r]) for r in play):
                    relabelled.step(ADD0 + rank)
                relabelled.step(DONE)
                play = []
            else:
                relabelled.step(int(to_relabelled[action]))
        assert relabelled.agents == original.agents == []
    assert compared > 200


def test_permutations_are_numbered_one_to_one():
    r = Relabelling([1, 2, 3, 5], 6, [0, 6], 14, [2], 9)
    sigma = r.permutations(np.arange(r.count))
    assert r.count == 24 and len({tuple(row) for row in sigma}) == 24
    assert (sigma[0] == np.arange(6)).all()  # 0: the identity
    assert (sigma[:, [0, 4]] == [0, 4]).all() and (np.sort(sigma[:, [1, 2, 3, 5]], axis=1) == [1, 2, 3, 5]).all()
    obs = np.arange(14.0)[None].repeat(24, 0)
    masks = np.ones((24, 9), bool)
    moved, _, action_src = r.relabel(obs, masks, sigma)
    for row, s in zip(moved, sigma):  # what label l held now sits at sigma[l], in both blocks
        for label in range(6):
            assert row[s[label]] == label and row[6 + s[label]] == 6 + label
        assert (row[12:] == [12, 13]).all()
    assert (action_src[:, :2] == [0, 1]).all() and (action_src[:, 8] == 8).all()


@pytest.mark.parametrize("args, message", [
    (([1, 1], 4, [0], 4, [0], 4), "must be distinct"),
    (([0, 5], 4, [0], 4, [0], 4), "must be distinct indices below 4"),
    (([0, 1], 4, [0, 2], 8, [0], 4), "observation blocks at \\[0, 2\\] \\(width 4\\) overlap"),
    (([0, 1], 4, [0], 8, [2], 4), "action blocks at \\[2\\] \\(width 4\\) overlap or leave 0..4"),
])
def test_a_malformed_relabelling_is_refused(args, message):
    with pytest.raises(ValueError, match=message):
        Relabelling(*args)


@pytest.mark.parametrize("options", [{}, {"num_players": 3}, {"num_players": 6, "num_decks": 2}])
def test_the_kernel_relabels_as_the_reference_does(options):
    symmetry = bluff_envs.make("believe_it_or_not", raw=True, **options).unwrapped.game.symmetry
    rng = np.random.default_rng(3)
    rows = 40
    obs = rng.random((rows, symmetry.observation_size)).astype(np.float32)
    masks = (rng.random((rows, symmetry.num_actions)) < 0.5).astype(np.int8)
    k = np.concatenate([[0, symmetry.count - 1], rng.integers(symmetry.count, size=rows - 2)])
    reference = symmetry.relabel(obs, masks, symmetry.permutations(k))
    for got, want in zip(symmetry.relabel_numbered(obs, masks, k), reference):
        np.testing.assert_array_equal(got, want)
        assert got.dtype == want.dtype
    with pytest.raises(ValueError, match=f"permutation numbers must lie in 0..{symmetry.count - 1}"):
        symmetry.relabel_numbered(obs[:1], masks[:1], [symmetry.count])
    with pytest.raises(ValueError, match="one number per row"):
        symmetry.relabel_numbered(obs[:2], masks[:2], [0])
