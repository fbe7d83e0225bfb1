"""Behaviour statistics from records: known scenarios, and consistency over random games."""

from __future__ import annotations

import pytest

import bluff_envs
from bluff_envs.cards import RANKS
from bluff_envs.records import GameRecord, deck_for
from bluff_envs.behaviour import Claim, agent_counts, claims_by_stage, module_for, stage_key, stage_tables
from agents.arena.match import play_game
from agents.arena.schedule import schedule
from tests.bluff_envs.seven_spades.stocks import stock


def record_of(game, options, deck, actions, seats=None) -> GameRecord:
    """A finished game from a fixed deck and a list of action names."""
    env = bluff_envs.make(game, raw=True, **options)
    env.reset(seed=0, options={"deck": deck})
    ids = [env.unwrapped.action_names.index(a) for a in actions]
    for a in ids:
        env.step(a)
    rewards = [env._cumulative_rewards[a] for a in env.possible_agents]
    truncated = any(env.truncations.values())
    n = len(env.possible_agents)
    return GameRecord(game, options, 0, deck, seats or ["x"] * n, ids, rewards, len(ids), truncated)


def test_i_doubt_it_a_doubted_bluff_is_challenged_caught_and_a_right_doubt():
    env = bluff_envs.make("i_doubt_it", raw=True, num_players=3)
    deck = deck_for(env, 1)
    bluff_rank = next(card[:-1] for card in deck[0::3] if card[:-1] != "A")  # player 0 must name aces
    record = record_of("i_doubt_it", {"num_players": 3, "max_turns": 1}, deck,
                       [f"add {bluff_rank}", "done", "pass", "doubt"])
    player0, player1, player2 = module_for("i_doubt_it").count(record)
    assert (player0["plays"], player0["bluffs"], player0["bluffs_challenged"], player0["bluffs_caught"]) == (1, 1, 1, 1)
    assert (player1["windows"], player1["challenges"]) == (1, 0)
    assert (player2["windows"], player2["challenges"], player2["correct_challenges"]) == (1, 1, 1)


def test_seven_spades_a_challenged_bluff_decides_a_two_player_game():
    rest = [c for c in deck_for(bluff_envs.make("seven_spades", raw=True, num_players=2), 0) if c != "KH"]
    record = record_of("seven_spades", {"num_players": 2}, ["KH", *rest], ["claim", "challenge"])
    assert record.rewards == [-1.0, 1.0]
    claimer, challenger = module_for("seven_spades").count(record)
    assert (claimer["claims"], claimer["bluffs"], claimer["bluffs_caught"]) == (1, 1, 1)
    assert (challenger["challenges"], challenger["correct_challenges"]) == (1, 1)
    rates = module_for("seven_spades").rates(claimer)
    assert rates["bluff_rate"] == 1.0 and rates["challenge_rate"] is None


GAMES = [g for g in bluff_envs.available_games() if module_for(g) is not None]


@pytest.mark.parametrize("game", GAMES)
def test_counts_are_consistent_over_random_games(game):
    env = bluff_envs.make(game, raw=True)
    n = len(env.possible_agents)
    options = {"max_turns": 400} if game != "tarneeb" else {"target_score": 20}
    records = [play_game(t) for t in schedule(game, options, [("random",) * n], 2, seed=3)]
    module = module_for(game)
    totals = agent_counts(records, module)["random"]
    rates = module.rates(totals)
    assert set(rates) == {key for key, _ in module.COLUMNS} | set(getattr(module, "DETAILS", ()))
    assert all(v is None or v >= 0 for v in rates.values())
    if game == "tarneeb":
        assert totals["declared"] * 4 == totals["deals"] > 0 and totals["made"] <= totals["declared"]
    else:
        for key in ("bluffs_challenged", "bluffs_caught", "challenge_accuracy"):
            assert rates[key] is None or 0 <= rates[key] <= 1
        assert totals["bluffs"] > 0 and totals["challenges"] > 0


# -- certain and uncertain challenge decisions ----------------------------------------------


def aces_to_player_1(deck):
    """The deck with every ace dealt to player 1 of three (cards go round one at a time)."""
    deck = list(deck)
    targets = [i for i in range(1, len(deck), 3) if deck[i][:-1] != "A"]
    for i in [i for i, c in enumerate(deck) if c[:-1] == "A" and i % 3 != 1]:
        j = targets.pop()
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def test_i_doubt_it_a_claim_false_by_the_deciders_own_hand_is_certain():
    deck = aces_to_player_1(deck_for(bluff_envs.make("i_doubt_it", raw=True, num_players=3), 1))
    rank = deck[0][:-1]  # player 0 holds no ace but must name aces
    record = record_of("i_doubt_it", {"num_players": 3, "max_turns": 1}, deck, [f"add {rank}", "done", "pass", "doubt"])
    module = module_for("i_doubt_it")
    _, player1, player2 = module.count(record)
    # player 1 holds all four aces: the claim of one more is provably false
    assert (player1["certain_windows"], player1["certain_challenges"], player1["uncertain_windows"]) == (1, 0, 0)
    # player 2 sees no ace: he cannot tell, though the claim was a bluff and he doubted it
    assert (player2["certain_windows"], player2["uncertain_windows"], player2["uncertain_bluffs"],
            player2["uncertain_challenges"], player2["uncertain_correct_challenges"]) == (0, 1, 1, 1, 1)
    assert module.rates(player1)["certain_challenge_rate"] == 0.0
    assert module.rates(player1)["uncertain_challenge_rate"] is None
    r2 = module.rates(player2)
    assert (r2["uncertain_bluff_rate"], r2["uncertain_challenge_accuracy"]) == (1.0, 1.0)
    assert r2["uncertain_challenges"] == 1 and module.rates(player1)["uncertain_challenges"] == 0  # the calls behind it


def test_believe_it_or_not_a_play_larger_than_the_unseen_copies_is_certain():
    options = {"num_players": 3, "max_turns": 2}
    deck = deck_for(bluff_envs.make("believe_it_or_not", raw=True, num_players=3), 1)
    hand0, hand1 = [c[:-1] for c in deck[0::3]], [c[:-1] for c in deck[1::3]]
    assert hand0.count("7") == 3 and hand1.count("7") == 1 and "Q" in hand0
    lead = hand1[0]  # what player 1 plays when he leads the next round
    module = module_for("believe_it_or_not")
    # three sevens and a queen as four sevens: player 1 holds the fourth seven
    false = record_of("believe_it_or_not", options, deck,
                      ["name 7", "add 7", "add 7", "add 7", "add Q", "done", "disbelieve", f"name {lead}", f"add {lead}", "done"])
    player1 = module.count(false)[1]
    assert (player1["certain_windows"], player1["certain_challenges"], player1["uncertain_windows"]) == (1, 1, 0)
    assert module.rates(player1)["certain_challenge_rate"] == 1.0
    # one honest seven: two more are unaccounted for
    honest = record_of("believe_it_or_not", options, deck, ["name 7", "add 7", "done", "believe", f"name {lead}", f"add {lead}", "done"])
    player1 = module.count(honest)[1]
    assert (player1["certain_windows"], player1["uncertain_windows"], player1["uncertain_bluffs"],
            player1["uncertain_challenges"]) == (0, 1, 0, 0)
    rates = module.rates(player1)
    assert (rates["uncertain_bluff_rate"], rates["uncertain_challenge_rate"], rates["uncertain_challenge_accuracy"]) \
        == (0.0, 0.0, None)


def test_seven_spades_a_claim_after_every_spade_was_seen_is_certain():
    cards = deck_for(bluff_envs.make("seven_spades", raw=True, num_players=2), 0)
    spades, others = [c for c in cards if c.endswith("S")], [c for c in cards if not c.endswith("S")]
    module = module_for("seven_spades")
    # all thirteen spades discarded face up, then a claim: it cannot be a spade
    record = record_of("seven_spades", {"num_players": 2}, spades + others, ["discard"] * 13 + ["claim", "challenge"])
    challenger, claimer = module.count(record)  # 13 discards: player 1 claims
    assert claimer["claims"] == claimer["bluffs"] == 1
    assert (challenger["certain_windows"], challenger["certain_challenges"], challenger["uncertain_windows"]) == (1, 1, 0)
    # twelve seen: the thirteenth might be the claimed card
    deck = spades[:12] + others[:1] + spades[12:] + others[1:]
    record = record_of("seven_spades", {"num_players": 2}, deck, ["discard"] * 12 + ["claim", "challenge"])
    challenger = module.count(record)[1]
    assert (challenger["certain_windows"], challenger["uncertain_windows"], challenger["uncertain_bluffs"],
            challenger["uncertain_correct_challenges"]) == (0, 1, 1, 1)
    assert module.rates(challenger)["uncertain_challenge_accuracy"] == 1.0


CERTAINTY_GAMES = {"i_doubt_it": "windows", "believe_it_or_not": "responses", "seven_spades": "windows"}


@pytest.mark.parametrize("game", sorted(CERTAINTY_GAMES))
def test_certain_and_uncertain_windows_split_every_window(game):
    n = len(bluff_envs.make(game, raw=True).possible_agents)
    records = [play_game(t) for t in schedule(game, {"max_turns": 400}, [("random",) * n], 2, seed=5)]
    totals = agent_counts(records, module_for(game))["random"]
    assert totals[CERTAINTY_GAMES[game]] > 0
    assert totals["certain_windows"] + totals["uncertain_windows"] == totals[CERTAINTY_GAMES[game]]
    assert totals["certain_bluffs"] == totals["certain_windows"]  # a provably false claim is a bluff
    assert totals["uncertain_bluffs"] <= totals["uncertain_windows"]
    assert totals["uncertain_correct_challenges"] <= totals["uncertain_challenges"] <= totals["uncertain_windows"]
    assert totals["certain_challenges"] + totals["uncertain_challenges"] == totals["challenges"]
    assert module_for(game).rates(totals)["uncertain_challenges"] == totals["uncertain_challenges"] > 0


@pytest.mark.parametrize("game", sorted(CERTAINTY_GAMES))
def test_the_decisions_listed_are_the_windows_counted(game):
    """``count(record, decisions)`` lists each challenge decision once, with the counts' verdicts,
    and never a decision on the decider's own claim."""
    n = len(bluff_envs.make(game, raw=True).possible_agents)
    module = module_for(game)
    for record in (play_game(t) for t in schedule(game, {"max_turns": 400}, [("random",) * n], 2, seed=5)):
        decisions = []
        seats = module.count(record, decisions)
        assert seats == module.count(record)  # listing changes no count
        for seat, counts in enumerate(seats):
            mine = [d for d in decisions if d.seat == seat]
            assert len(mine) == counts[CERTAINTY_GAMES[game]]
            assert sum(d.certain for d in mine) == counts["certain_windows"]
            assert sum(d.challenged for d in mine) == counts["challenges"]
            uncertain = [d for d in mine if not d.certain]
            assert sum(d.bluff for d in uncertain) == counts["uncertain_bluffs"]
            assert sum(d.challenged and d.bluff for d in uncertain) == counts["uncertain_correct_challenges"]
        assert all(d.maker != d.seat for d in decisions)


# -- claims by stage ------------------------------------------------------------------------


def test_seven_spades_claims_are_staged_by_the_row_before_them():
    # player 0 claims a heart on an empty row (nobody challenges), then a real spade on a row of 1
    record = record_of("seven_spades", {"num_players": 2}, stock("2H", "3C", "AS"),
                       ["claim", "pass", "discard", "claim", "challenge"])
    assert list(module_for("seven_spades").claims(record)) == [
        Claim(0, "row 0", bluff=True, answer="stood"),
        Claim(0, "row 1", bluff=False, answer="challenged"),
    ]


def test_seven_spades_the_final_face_up_spade_is_no_claim():
    record = record_of("seven_spades", {"num_players": 2, "target": 2}, stock("2H", "3C", "AS"),
                       ["claim", "pass", "discard", "claim face up"])
    assert record.rewards == [1.0, -1.0]
    assert list(module_for("seven_spades").claims(record)) == [Claim(0, "row 0", bluff=True, answer="stood")]


def test_i_doubt_it_claims_are_staged_by_their_cards_and_going_out_apart():
    options = {"num_players": 2, "max_cards_per_play": None, "max_turns": 2}
    deck = deck_for(bluff_envs.make("i_doubt_it", raw=True, **options), 1)
    whole_hand = [f"add {r}" for r in sorted((card[:-1] for card in deck[1::2]), key=RANKS.index)]
    # player 0 must name aces: a two and a three are a bluff; player 1 then plays all 26 cards as kings
    plays = ["add 2", "add 3", "done", "doubt", *whole_hand, "done"]
    checked = record_of("i_doubt_it", options, deck, plays)
    assert list(module_for("i_doubt_it").claims(checked)) == [
        Claim(0, "2 cards", bluff=True, answer="doubted"),
        Claim(1, "going out", bluff=True, answer="checked"),  # no doubt window: turned up at once
    ]
    # without the check the others decide, as on any play: player 0 lets it stand and player 1 wins
    options = {**options, "last_play_checked": False}
    unchecked = record_of("i_doubt_it", options, deck, [*plays, "pass"])
    assert unchecked.rewards == [-1.0, 1.0]
    assert list(module_for("i_doubt_it").claims(unchecked))[1] == Claim(1, "going out", bluff=True, answer="stood")


def believe_it_or_not_round():
    """Three players: player 0 leads two true sevens, player 1 adds one card that is no seven,
    player 2 disbelieves it, takes nothing and leads a true card; the game ends there (max_turns=3)."""
    options = {"num_players": 3, "max_turns": 3}
    deck = deck_for(bluff_envs.make("believe_it_or_not", raw=True, num_players=3), 1)
    hand0, hand1, hand2 = ([card[:-1] for card in deck[p::3]] for p in range(3))
    assert hand0.count("7") >= 2
    other = next(r for r in hand1 if r != "7")
    lead = hand2[0]
    return record_of("believe_it_or_not", options, deck, ["name 7", "add 7", "add 7", "done", f"add {other}", "done",
                                                          "disbelieve", f"name {lead}", f"add {lead}", "done"])


def test_believe_it_or_not_claims_are_leads_and_adds_answered_by_the_next_player():
    assert list(module_for("believe_it_or_not").claims(believe_it_or_not_round())) == [
        Claim(0, "lead 2", bluff=False, answer="added"),
        Claim(1, "add 1", bluff=True, answer="disbelieved"),
        Claim(2, "lead 1", bluff=False, answer="unanswered"),  # the game was cut off at max_turns
    ]


def test_claims_by_stage_sums_every_seat_an_agent_held_in_the_games_order():
    record = believe_it_or_not_round()
    swapped = GameRecord(**{**record.to_dict(), "seats": ["b", "a", "b"]})
    record.seats = ["a", "b", "a"]
    by_stage = claims_by_stage([record, swapped], module_for("believe_it_or_not"))
    assert list(by_stage["a"]) == list(by_stage["b"]) == ["lead 1", "lead 2", "add 1"]  # leads first, by cards
    assert by_stage["a"] == {
        "lead 1": {"claims": 1, "bluffs": 0, "true unanswered": 1},  # seat 2 of the first game
        "lead 2": {"claims": 1, "bluffs": 0, "true added": 1},  # seat 0 of the first game
        "add 1": {"claims": 1, "bluffs": 1, "bluff disbelieved": 1},  # seat 1 of the second game
    }
    table = stage_tables({"a": by_stage["a"]}, module_for("believe_it_or_not").ANSWERS)
    assert "| add 1 | 1 | 1.000 (1/1) [0.207, 1.000] | 0.000 (0/1) [0.000, 0.793] | " in table
    assert "true claims unanswered" in table.splitlines()[2]  # an answer beyond the game's own gets a column
    given = stage_tables({"a": by_stage["a"]}, module_for("believe_it_or_not").ANSWERS,
                         {"a": {"add 1": {"bluffs": (0.5, 1.0)}}})
    assert "| add 1 | 1 | 1.000 (1/1) [0.500, 1.000] | 0.000 (0/1) [0.000, 0.793] | " in given  # Wilson where none


def test_stages_sort_by_kind_then_number():
    kinds = module_for("i_doubt_it").STAGE_KINDS
    stages = ["going out", "10 cards", "2 cards", "1 card"]
    assert sorted(stages, key=lambda s: stage_key(s, kinds)) == ["1 card", "2 cards", "10 cards", "going out"]
    assert sorted(["row 10", "row 2", "row 0"], key=lambda s: stage_key(s, ("row",))) == ["row 0", "row 2", "row 10"]
