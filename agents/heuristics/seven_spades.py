"""Rule-based players of Seven Spades (docs/rules.md §3), from the acting player's public view only.

Every heuristic reads the decoded view (``view`` or ``self.decode(observation)``, fields of
``bluff_envs.seven_spades.view.build_layout``) and the action mask; none looks at the
environment. On its turn a player holds the card it drew and decides: discard, claim (face
down) or, at ``target``−1 with a real spade, the final spade face up, which every heuristic
plays at once. In a challenge window it decides: challenge or pass.

=================  ===================================================================
spec               style
=================  ===================================================================
honest             claims only real spades, discards everything else; challenges only
                   impossible claims (every spade is accounted for)
counter            claims real spades; bluffs a non-spade only when it pays: no recent claim
                   was challenged (more than two players), or an opponent is about to win
                   and it is behind. Challenges impossible claims, and claims false with estimated
                   probability above a threshold (lower when the claimer would reach
                   target−1, higher when it is itself close to winning)
bluffer            races: claims every spade and bluffs non-spades while its row is short of
                   target−1, most of them at a table that lets claims stand, few at one
                   that challenges; challenges rarely: impossible claims, or near-certain
                   bluffs that would bring the claimer to target−1
always_challenge   plays like ``honest``; challenges every claim (a diagnostic)
never_challenge    plays like ``honest``; never challenges (a diagnostic)
always_claim       claims every card it draws while a face-down claim is allowed, the final
                   spade face up; challenges only impossible claims (a diagnostic: the pure
                   bluffer, whom a table must challenge)
=================  ===================================================================

What a player knows (the basis of "impossible" and of the probability): the cards turned face
up so far (``seen``), its own face-down cards (``my_row``) and the card in its hand
(``drawn``). Every other card is *unplaced*: in the stock, in someone's face-down row, or out
of the game face down. A claim is impossible when no spade is unplaced.

Randomness: a decision's only randomness is one uniform draw ``u`` in [0, 1): :meth:`act`
draws it from the agent's generator (one per decision, used or not) and hands it to
:meth:`decide`, which is deterministic. ``agents.batched.seven_spades`` makes the same choice
for the same observation and ``u``, many rows at a time.
"""

from __future__ import annotations

import numpy as np

from agents.base import Agent, GameInfo
from agents.registry import register
from bluff_envs.cards import SPADES
from bluff_envs.seven_spades.actions import CHALLENGE, CHALLENGE_WINDOW, CLAIM, CLAIM_FACE_UP, DISCARD, PASS

GAME = "seven_spades"
SPADE_IDS = np.arange(SPADES, 52, 4)


class Table:
    """The acting player's public view of Seven Spades, in the terms the heuristics reason with.

    Seats are relative, as in the observation: 0 is me, 1 the player to my left, …
    """

    __slots__ = ("n", "decks", "target", "in_window", "drawn", "my_row", "row_lengths", "face_up",
                 "in_game", "seen", "claimer", "history")

    def __init__(self, view: dict[str, np.ndarray], game: GameInfo):
        c = game.config
        self.n = n = game.num_players
        self.decks = c.num_decks
        self.target = c.target
        self.in_window = bool(view["phase"][CHALLENGE_WINDOW] > 0.5)
        drawn = np.flatnonzero(view["drawn"])
        self.drawn = int(drawn[0]) if len(drawn) else None
        self.my_row = view["my_row"]
        self.row_lengths = view["row_lengths"].astype(int)
        self.face_up = view["face_up_spades"].astype(int)
        self.in_game = view["in_game"] > 0.5
        self.seen = view["seen"]
        self.claimer = int(np.argmax(view["claimer"])) if self.in_window else None
        self.history = view["history"].reshape(-1, 3 * n + 2)

    # -- my own turn ----------------------------------------------------------------------

    @property
    def drawn_spade(self) -> bool:
        return self.drawn is not None and self.drawn & 3 == SPADES

    @property
    def my_row_length(self) -> int:
        return int(self.row_lengths[0])

    def opponents_best(self) -> int:
        """The longest row among the opponents still in."""
        return int(max(self.row_lengths[1:][self.in_game[1:]], default=0))

    # -- counting -------------------------------------------------------------------------

    def unplaced(self) -> tuple[int, int]:
        """(cards, spades) whose place I do not know."""
        drawn = np.zeros(52)
        if self.drawn is not None:
            drawn[self.drawn] = 1
        known = self.seen + self.my_row + drawn
        cards = 52 * self.decks - int(round(known.sum()))
        spades = 13 * self.decks - int(round(known[SPADE_IDS].sum()))
        return cards, spades

    def claim_impossible(self) -> bool:
        return self.unplaced()[1] == 0

    def standing_claims(self) -> int:
        """Face-down cards in the opponents' rows, the claim under challenge excepted."""
        others = self.row_lengths[1:] - self.face_up[1:]
        return max(int(others.sum()) - (1 if self.in_window else 0), 0)

    def claim_false_probability(self, bluff_rate: float = 0.35, standing_spades: float = 0.7,
                                weight: float = 3.0) -> float:
        """P(the claim under challenge is false).

        From the cards: the claimed card is one of the unplaced cards; those standing face
        down in other rows are taken to be spades with probability ``standing_spades``, the
        rest are spread at random, giving a prior ``p`` that the claimer drew a spade. A spade
        is always claimed, a non-spade with probability ``bluff_rate``: P(false) =
        (1−p)·b / ((1−p)·b + p). That estimate is then corrected by how the recently
        challenged claims turned out (history), as ``weight`` pseudo-observations.
        """
        cards, spades = self.unplaced()
        if spades == 0:
            return 1.0
        standing = self.standing_claims()
        free_cards = max(cards - standing, 1)
        p = min(max(spades - standing_spades * standing, 0.5) / free_cards, 1.0)
        estimate = (1 - p) * bluff_rate / ((1 - p) * bluff_rate + p)
        n = self.n
        true_claims = float(self.history[:, 3 * n].sum())
        false_claims = float(self.history[:, 3 * n + 1].sum())
        return (weight * estimate + false_claims) / (weight + true_claims + false_claims)

    def recent_challenges(self) -> tuple[int, int]:
        """(claims challenged, claims) among the recent challenge windows in the history."""
        n = self.n
        windows = self.history[self.history[:, :n].sum(axis=1) > 0]
        return int((windows[:, n : 2 * n].sum(axis=1) > 0).sum()), len(windows)


class SevenSpadesHeuristic(Agent):
    """Shared machinery: read the view, play the final spade whenever it can, else ask
    :meth:`claims` on its turn and :meth:`challenges` in a window."""

    def act(self, observation, view=None) -> int:
        # one uniform draw per decision, whether or not the decision needs it, so that the
        # batched form (agents.batched.seven_spades), handed one draw per row, is its exact twin
        return self.decide(observation, float(self.rng.random()), view)

    def decide(self, observation, u: float, view=None) -> int:
        """The action for ``observation`` given the uniform draw ``u`` in [0, 1): the only
        randomness of a decision (``bluffer`` bluffs when ``u`` falls below its bluff
        probability; the others ignore it)."""
        table = Table(self.decode(observation) if view is None else view, self.game)
        mask = observation["action_mask"]
        if table.in_window:
            action = CHALLENGE if self.challenges(table, u) else PASS
        elif mask[CLAIM_FACE_UP]:
            action = CLAIM_FACE_UP  # a real spade at target-1: it wins at once
        elif mask[CLAIM] and self.claims(table, u):
            action = CLAIM
        else:
            action = DISCARD
        if not mask[action]:  # never expected; a legal action is the contract
            action = int(np.flatnonzero(mask)[0])
        return int(action)

    def claims(self, table: Table, u: float) -> bool:
        """Whether to claim the drawn card face down (the mask allows it), given the draw ``u``."""
        return table.drawn_spade

    def challenges(self, table: Table, u: float) -> bool:
        """Whether to challenge the claim under challenge, given the draw ``u``."""
        return table.claim_impossible()


@register(GAME, "honest")
class Honest(SevenSpadesHeuristic):
    """Claims only real spades; challenges only impossible claims."""


@register(GAME, "counter")
class Counter(SevenSpadesHeuristic):
    """Counts cards. Challenges impossible claims and any claim false with probability above
    ``threshold`` (``closing_threshold`` when the claim brings the claimer to target−1, since
    his next spade would win; ``threshold + caution`` when its own row is at target−1, where
    being put out throws away a near win). Claims real spades; bluffs a non-spade only when it
    pays: an opponent is at target−1 and its own row is shorter, or (with more than two players
    in) none of the recent claims in the history was challenged."""

    threshold = 0.65
    closing_threshold = 0.5
    caution = 0.15

    def claims(self, table: Table, u: float) -> bool:
        if table.drawn_spade:
            return True
        best = table.opponents_best()
        if best >= table.target - 1 and table.my_row_length < best:
            return True  # he wins with his next spade: a caught bluff costs little more
        # a table that let every recent claim stand; with two players a caught bluff loses
        # the game, and an unchallenged history says nothing (any challenge ends it)
        challenged, windows = table.recent_challenges()
        return windows == len(table.history) and challenged == 0 and int(table.in_game.sum()) > 2

    def challenges(self, table: Table, u: float) -> bool:
        if table.claim_impossible():
            return True
        limit = self.threshold
        if table.row_lengths[table.claimer] >= table.target - 1:
            limit = self.closing_threshold
        if table.my_row_length >= table.target - 1:
            limit += self.caution
        return table.claim_false_probability() > limit


@register(GAME, "bluffer")
class Bluffer(SevenSpadesHeuristic):
    """Races to target−1: claims every spade and bluffs non-spades while a face-down claim is
    allowed, with probability ``bluff_rate`` × (1 − s)², where s is the share of recent claims
    that were challenged (history, with half a pseudo-claim each way; with only two players
    in, the history shows no challenges, since the first one ends the game, so s = ½). So it
    races flat out at a table that lets claims stand and holds back at one that challenges
    everything. Challenges impossible claims, and claims that would bring the claimer to
    target−1 when they are false with probability at least ``threshold``."""

    bluff_rate = 0.8
    threshold = 0.85

    def claims(self, table: Table, u: float) -> bool:
        if table.drawn_spade:
            return True
        return u < self.bluff_probability(table)

    def bluff_probability(self, table: Table) -> float:
        """The probability of claiming a non-spade face down: ``bluff_rate`` × (1 − s)²."""
        challenged, windows = table.recent_challenges()
        if int(table.in_game.sum()) == 2:
            challenged = windows = 0
        share = (challenged + 0.5) / (windows + 1.0)
        return self.bluff_rate * (1.0 - share) ** 2

    def challenges(self, table: Table, u: float) -> bool:
        if table.claim_impossible():
            return True
        closing = table.row_lengths[table.claimer] >= table.target - 1
        return closing and table.claim_false_probability() >= self.threshold


@register(GAME, "always_challenge")
class AlwaysChallenge(SevenSpadesHeuristic):
    """Plays like ``honest``; challenges every claim."""

    def challenges(self, table: Table, u: float) -> bool:
        return True


@register(GAME, "never_challenge")
class NeverChallenge(SevenSpadesHeuristic):
    """Plays like ``honest``; never challenges."""

    def challenges(self, table: Table, u: float) -> bool:
        return False


@register(GAME, "always_claim")
class AlwaysClaim(SevenSpadesHeuristic):
    """Claims every card it draws (face down while allowed; at target−1 only the real spade, face
    up); challenges only impossible claims. The pure bluffer: against a table that does not
    challenge its early claims it races to target−1 in as many draws."""

    def claims(self, table: Table, u: float) -> bool:
        return True
