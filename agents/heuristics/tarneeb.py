"""A rule-based Tarneeb player (docs/rules.md §4), from the acting player's public view only.

It reads the decoded view (``view`` or ``self.decode(observation)``, fields of
``bluff_envs.tarneeb.view.build_layout``) and the action mask; never the environment.

===========  =====================================================================================
spec         what it does
===========  =====================================================================================
rule_based   **Bidding** from an estimate of the tricks its partnership can take with each trump:
             losing-trick count (per suit, the missing A, K, Q among its top three cards) plus
             what an average partner adds: ``15 - losers``, a little more for each trump beyond
             five; no trump (where offered) from quick tricks and long suits with stoppers. It
             bids the lowest legal bid (Egyptian: in its best strain) not above that estimate,
             and passes when the estimate is too low or its partner holds the highest bid; a hand
             without a loser bids 13 at once. A dealer forced to bid bids the lowest he may.
             **Trump**: the strain of its best estimate (its strongest suit; no trump only when
             clearly better). **Double** (Egyptian): when the estimate beats the contract by two.
             **Play**: it follows cheaply when its partner is winning the trick; otherwise wins as
             cheaply as it can (the lowest winning card, or the lowest trump that wins when it
             cannot follow; before the last seat, a master of the suit led if it holds one), and
             gives its lowest card when it cannot win. On lead it cashes
             masters (the highest card left in a suit) where no opponent can ruff; a declaring
             side holding the master trump draws trumps first; otherwise it leads low from its
             longest side suit. Discards come from its weakest side suit, never a trump.
===========  =====================================================================================
"""

from __future__ import annotations

import numpy as np

from agents.base import Agent, GameInfo
from agents.registry import register
from bluff_envs.tarneeb.actions import (
    BIDDING,
    CARD0,
    DOUBLE,
    NO_DOUBLE,
    NO_TRUMP,
    PASS,
    PLAY,
    TRUMP,
    TRUMP0,
    bid_strain,
    bid_tricks,
    first_bid,
    num_levels,
)

GAME = "tarneeb"
ACE, KING, QUEEN, JACK = 12, 11, 10, 9
AVERAGE_PARTNER = 15.0  # partnership tricks ~ 15 - my losers (an average partner holds ~9)


def suit_ranks(cards) -> list[list[int]]:
    """Ranks held in each suit, highest first."""
    by_suit = [[], [], [], []]
    for card in sorted(cards, reverse=True):
        by_suit[card & 3].append(card >> 2)
    return by_suit


def losers(ranks: list[int]) -> int:
    """Losing-trick count of one suit: of its first (at most) three cards, those not matched by
    the A, K, Q in turn (a singleton king is a loser, Kx one loser, Qxx two)."""
    n = min(len(ranks), 3)
    return n - sum(1 for honour in (ACE, KING, QUEEN)[:n] if honour in ranks)


def suit_estimate(hand: list[list[int]], trump: int) -> float:
    """Tricks a partnership can expect with ``trump``: from losers and trump length."""
    lost = sum(losers(ranks) for ranks in hand)
    length = len(hand[trump])
    return AVERAGE_PARTNER - lost + 0.5 * max(0, length - 5) - (1.0 if length < 4 else 0.0)


def no_trump_estimate(hand: list[list[int]]) -> float:
    """Tricks without trumps: quick tricks, long-suit tricks where the suit has a stopper, an
    average partner's share; heavily discounted when a suit is unguarded."""
    quick, long, unguarded = 0.0, 0.0, 0
    for ranks in hand:
        n = len(ranks)
        if ACE in ranks:
            quick += 1 + (1 if KING in ranks else 0.5 if QUEEN in ranks else 0)
        elif KING in ranks and n >= 2:
            quick += 1 if QUEEN in ranks else 0.5
        stopped = ACE in ranks or (KING in ranks and n >= 2) or (QUEEN in ranks and n >= 3)
        unguarded += not stopped
        if stopped:
            long += max(0, n - 4)
    return quick + long + 3.5 - 2.5 * unguarded


class Seen:
    """The acting player's public view of Tarneeb, in the terms the rules below reason with.

    Seats are relative, as in the observation: 0 is me, 1 the next player, 2 my partner, 3 the
    player before me.
    """

    def __init__(self, view: dict[str, np.ndarray], levels: int):
        self.phase = int(np.argmax(view["phase"]))
        self.hand = [int(c) for c in np.flatnonzero(view["hand"])]
        self.bids = view["bids"].reshape(4, levels)
        self.declarer = int(np.argmax(view["declarer"])) if view["declarer"].any() else None
        strain = view["contract_strain"]
        self.trump = int(np.argmax(strain)) if strain.any() else None
        tricks = view["contract_tricks"]
        self.contract_tricks = int(np.argmax(tricks)) + 7 if tricks.any() else None
        trick = view["trick"].reshape(4, 52)
        self.trick: list[tuple[int, int]] = []  # (relative seat, card) in play order
        if view["trick_leader"].any():
            leader = int(np.argmax(view["trick_leader"]))
            for i in range(4):
                seat = (leader + i) % 4
                if not trick[seat].any():
                    break
                self.trick.append((seat, int(np.argmax(trick[seat]))))
        played = view["played"].reshape(4, 52).any(axis=0)
        self.unseen = np.ones(52, bool)  # cards neither mine nor played: in the others' hands
        self.unseen[played] = False
        self.unseen[self.hand] = False
        self.shown_out = view["shown_out"].reshape(4, 4) > 0.5

    @property
    def trump_suit(self) -> int | None:
        """The trump suit during play, ``None`` without trumps."""
        return None if self.trump is None or self.trump == NO_TRUMP else self.trump

    def is_master(self, card: int) -> bool:
        """No card of its suit still out is higher."""
        return not self.unseen[card + 4 :: 4].any()

    def opponents_may_ruff(self, suit: int) -> bool:
        trump = self.trump_suit
        if trump is None or suit == trump or not self.unseen[trump::4].any():
            return False
        return bool(self.shown_out[1, suit] or self.shown_out[3, suit])


def trick_key(card: int, led: int, trump: int | None) -> int:
    """Larger wins: a trump over anything, else the suit led by rank, else nothing."""
    suit = card & 3
    if suit == trump:
        return 100 + card
    return card if suit == led else -1


@register(GAME, "rule_based")
class RuleBased(Agent):
    """Bids from a trick estimate, names its strongest suit, plays sensible cards."""

    def __init__(self, game: GameInfo, seed: int | None = None):
        super().__init__(game, seed)
        c = game.config
        self.egyptian = c.egyptian
        self.no_trump_offered = c.egyptian or c.allow_no_trump
        self.levels = num_levels(c.egyptian)
        self.bid0 = first_bid(c.egyptian)

    FIELDS = ("phase", "hand", "bids", "declarer", "contract_strain", "contract_tricks", "trick_leader",
              "trick", "played", "shown_out")

    def act(self, observation, view=None) -> int:
        mask = observation["action_mask"]
        legal = np.flatnonzero(mask)
        if len(legal) == 0:
            raise ValueError("rule_based asked to act with no legal action (all-zero action_mask)")
        seen = Seen(self.decode(observation) if view is None else view, self.levels)
        if seen.phase == PLAY:
            return self.play(seen, [int(a) - CARD0 for a in legal])
        if seen.phase == BIDDING:
            return self.bid(seen, mask)
        if seen.phase == TRUMP:
            strain = self.best_strain(seen.hand)[0]
            return TRUMP0 + strain if mask[TRUMP0 + strain] else int(legal[0])
        return self.double(seen, mask)

    # -- bidding --------------------------------------------------------------------------

    def best_strain(self, cards) -> tuple[int, float]:
        """The strain to play in, and the tricks it promises the partnership."""
        hand = suit_ranks(cards)
        strength = [suit_estimate(hand, s) for s in range(4)]
        # ties go to the longer suit, then the one with the better honours
        best = max(range(4), key=lambda s: (strength[s], len(hand[s]), hand[s][:1]))
        if self.no_trump_offered:
            no_trump = no_trump_estimate(hand)
            if no_trump >= strength[best] + 1:
                return NO_TRUMP, no_trump
        return best, strength[best]

    def bid(self, seen: Seen, mask: np.ndarray) -> int:
        bids = [int(a) for a in np.flatnonzero(mask) if a != PASS]
        strain, estimate = self.best_strain(seen.hand)
        mine = [a for a in bids if self._strain_of(a) in (None, strain)]
        if not mask[PASS]:  # a dealer who must bid
            return min(mine) if mine else bids[0]
        if sum(losers(ranks) for ranks in suit_ranks(seen.hand)) == 0 and strain != NO_TRUMP:
            grand = [a for a in mine if self._tricks_of(a) == 13]  # every trick is mine: bid 13
            if grand:
                return min(grand)
        if seen.declarer == 2:  # partner holds the highest bid: let it stand
            return PASS
        most = min(13, int(np.floor(estimate)))
        affordable = [a for a in mine if self._tricks_of(a) <= most]
        return min(affordable) if affordable else PASS

    def double(self, seen: Seen, mask: np.ndarray) -> int:
        bid = seen.contract_tricks or 13
        estimate = self.best_strain(seen.hand)[1]
        return DOUBLE if mask[DOUBLE] and estimate >= bid + 2 else NO_DOUBLE

    def _tricks_of(self, action: int) -> int:
        return bid_tricks(action - self.bid0, self.egyptian)

    def _strain_of(self, action: int) -> int | None:
        return bid_strain(action - self.bid0, self.egyptian)

    # -- play -----------------------------------------------------------------------------

    def play(self, seen: Seen, legal: list[int]) -> int:
        if len(legal) == 1:
            return CARD0 + legal[0]
        card = self.lead(seen, legal) if not seen.trick else self.follow(seen, legal)
        return CARD0 + card

    def lead(self, seen: Seen, legal: list[int]) -> int:
        trump = seen.trump_suit
        declaring = seen.declarer in (0, 2)
        trumps = [c for c in legal if c & 3 == trump]
        if declaring and trumps and seen.unseen[trump::4].any() and seen.is_master(max(trumps)):
            return max(trumps)  # draw the opponents' trumps with the top one
        masters = [c for c in legal if c & 3 != trump and seen.is_master(c) and not seen.opponents_may_ruff(c & 3)]
        if masters:
            return max(masters)
        side = [c for c in legal if c & 3 != trump]
        if not side:
            return max(legal)
        by_suit = suit_ranks(side)
        longest = max(range(4), key=lambda s: (len(by_suit[s]), by_suit[s][:1]))
        return min(c for c in side if c & 3 == longest)

    def follow(self, seen: Seen, legal: list[int]) -> int:
        trump = seen.trump_suit
        led = seen.trick[0][1] & 3
        keys = [trick_key(card, led, trump) for _, card in seen.trick]
        best = max(range(len(keys)), key=keys.__getitem__)
        winner_seat, best_key = seen.trick[best][0], keys[best]
        last_to_play = len(seen.trick) == 3
        if winner_seat == 2 and (last_to_play or self._holds(seen, seen.trick[best][1], led)):
            return self.cheapest(legal, led, trump)
        winning = [c for c in legal if trick_key(c, led, trump) > best_key]
        if winning:
            if not last_to_play:
                masters = [c for c in winning if c & 3 == led and seen.is_master(c)]
                if masters and not seen.opponents_may_ruff(led):
                    return min(masters)
            return min(winning, key=lambda c: trick_key(c, led, trump))
        return self.cheapest(legal, led, trump)

    def _holds(self, seen: Seen, card: int, led: int) -> bool:
        """Whether partner's winning card will stand against the one player still to come after
        me (relative seat 1): it is the master of its suit, and if not a trump he cannot ruff."""
        trump = seen.trump_suit
        if card & 3 == trump or trump is None:
            return seen.is_master(card)
        return seen.is_master(card) and not (seen.shown_out[1, led] and seen.unseen[trump::4].any())

    @staticmethod
    def cheapest(legal: list[int], led: int, trump: int | None) -> int:
        """The card that costs least: the lowest of the suit led, or a discard from the weakest
        side suit (its lowest card), a trump only when nothing else is left."""
        follow = [c for c in legal if c & 3 == led]
        if follow:
            return min(follow)
        side = [c for c in legal if c & 3 != trump] or legal
        return min(side, key=lambda c: (c >> 2, len([x for x in side if x & 3 == c & 3])))
