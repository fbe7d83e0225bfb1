"""The rules of Tarneeb (docs/rules.md §4), Lebanese and Egyptian, as a plain state machine.

No PettingZoo and no tensors here: the state, the legal actions, ``apply`` and the outcome.
``apply`` returns the *events* of the action, which the view turns into what each player knows.
A state lives for a whole episode: with ``episode="game"`` it deals again after each deal until
a partnership reaches the target.
"""

from __future__ import annotations

from collections import deque
from typing import NamedTuple

from bluff_envs.cards import NUM_SUITS, RANKS, SUITS, card_str, deal
from bluff_envs.tarneeb.actions import (
    ACTION_NAMES,
    BIDDING,
    CARD0,
    DOUBLE,
    DOUBLE_OR_NOT,
    DOUBLING,
    NO_TRUMP,
    PASS,
    PHASE_NAMES,
    PLAY,
    TRUMP,
    TRUMP0,
)
from bluff_envs.tarneeb.events import CALLED, DEAL_SCORED, DEALT, DOUBLED, PLAYED, TRICK_WON, TRUMP_NAMED
from bluff_envs.tarneeb.scoring import egyptian_score, game_winner, lebanese_score

NUM_PLAYERS = 4
NUM_TRICKS = 13
WHOLE_HAND = 4  # playable(): any card of the hand


def team_of(player: int) -> int:
    """Partnership 0 is players 0 and 2, partnership 1 players 1 and 3."""
    return player & 1


def is_weak_hand(cards) -> bool:
    """A worthless hand (docs/rules.md §4.8): no ace, no king in a suit of two or more cards, no
    queen in a suit of three or more, and no jack in a suit of four or more."""
    by_suit = [[] for _ in range(NUM_SUITS)]
    for card in cards:
        by_suit[card & 3].append(card >> 2)
    for ranks in by_suit:
        n = len(ranks)
        if 12 in ranks or (11 in ranks and n >= 2) or (10 in ranks and n >= 3) or (9 in ranks and n >= 4):
            return False
    return True


def trick_winner(cards, leader: int, trump: int) -> int:
    """The seat winning a trick of ``cards`` (in play order, led by ``leader``): the highest
    trump, or if none the highest card of the suit led. ``trump`` is a suit or NO_TRUMP."""
    led = cards[0] & 3
    best, best_key = 0, -1
    for i, card in enumerate(cards):
        suit = card & 3
        key = 100 + card if suit == trump else (card if suit == led else -1)
        if key > best_key:
            best, best_key = i, key
    return (leader + best) % NUM_PLAYERS


class Contract(NamedTuple):
    declarer: int
    bid: int  # tricks, 7..13
    strain: int | None  # 0..3 a suit, NO_TRUMP; None until the Lebanese declarer names it
    doubled: bool


class TarneebState:
    """One episode: a whole game (``episode="game"``) or a single deal (``episode="deal"``).

    ``game`` is the game it belongs to (``bluff_envs.tarneeb.game.Tarneeb``): its config and
    its tables of the bid ladder. ``cards`` is the first deal's deck (card ids, top first) or a
    list of decks, used one per deal (redeals included) before further decks are shuffled from
    ``rng``.
    """

    def __init__(self, game, cards, rng):
        self.game = game
        self.config = game.config
        self.rng = rng
        self.decks = deque(cards if cards and isinstance(cards[0], list) else [cards])
        self.scores = [0, 0]  # match score by partnership
        self.dealer = NUM_PLAYERS - 1
        self.deals = 0  # deals played to the end
        self.redeals = 0  # deals thrown in (all passed, or a worthless hand)
        self.turns = 0  # decisions of every kind, for max_turns
        self.max_turns = self.config.max_turns
        self.last_deal_score: tuple[int, int] | None = None  # by partnership
        self.winner: int | None = None  # the partnership that won the game
        self.is_over = False
        self.truncated = False
        self._deal()

    # -- dealing --------------------------------------------------------------------------

    def _next_deck(self) -> list[int]:
        if self.decks:
            return self.decks.popleft()
        return self.rng.permutation(52).tolist()  # the same as DeckSpec().shuffled(rng), faster

    def _deal(self) -> None:
        """Deal the next deck (dealt one card at a time from player 0); a deal with a worthless
        hand is thrown in and dealt again by the same dealer when the option says so."""
        cards = self._next_deck()
        hands = deal(cards, NUM_PLAYERS)
        while self.config.redeal_weak_hands and any(map(is_weak_hand, hands)):
            self.redeals += 1
            cards = self._next_deck()
            hands = deal(cards, NUM_PLAYERS)
        self.dealt = cards  # the deck of this deal, for the players' views of their own hands
        # each hand as one sorted tuple of play actions per suit
        self.hand_suits = []
        for held in hands:
            suits = ([], [], [], [])
            for card in sorted(held):
                suits[card & 3].append(CARD0 + card)
            self.hand_suits.append([tuple(s) for s in suits])
        self._hand_actions = [None] * NUM_PLAYERS  # cache: every card of a hand, as actions
        self.calls: list[tuple[int, int]] = []  # (player, action) in order
        self.passed = [False] * NUM_PLAYERS  # Lebanese: out of the bidding; Egyptian: last call
        self.high = -1  # level of the highest bid so far
        self.high_bidder: int | None = None
        self.passes_in_row = 0
        self.contract: Contract | None = None
        self.trump = NO_TRUMP
        self.lead_trump_first = False
        self.trick: list[int] = []  # cards of the current trick, in play order
        self.leader = (self.dealer + 1) % NUM_PLAYERS
        self.led_suit = -1
        self.tricks: list[tuple[int, tuple[int, ...], int]] = []  # (leader, cards, winner)
        self.tricks_won = [0, 0]  # by partnership, this deal
        self.phase = BIDDING
        self.current_player = (self.dealer + 1) % NUM_PLAYERS

    def hand_cards(self, player: int) -> list[int]:
        return sorted(a - CARD0 for suit in self.hand_suits[player] for a in suit)

    def hand_actions(self, player: int) -> tuple[int, ...]:
        held = self._hand_actions[player]
        if held is None:
            s = self.hand_suits[player]
            held = self._hand_actions[player] = s[0] + s[1] + s[2] + s[3]
        return held

    # -- rules ----------------------------------------------------------------------------

    def playable(self) -> int:
        """In the play phase, which of the current player's cards may be played: those of one
        suit (0..3) or ``WHOLE_HAND``. He must follow the suit led if he can; with
        ``first_lead_trump`` the first lead of a deal is a trump if he holds one."""
        held = self.hand_suits[self.current_player]
        if self.trick:
            return self.led_suit if held[self.led_suit] else WHOLE_HAND
        if self.lead_trump_first and not self.tricks and held[self.trump]:
            return self.trump
        return WHOLE_HAND

    def legal_actions(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == PLAY:
            suit = self.playable()
            if suit == WHOLE_HAND:
                return self.hand_actions(self.current_player)
            return self.hand_suits[self.current_player][suit]
        if phase == BIDDING:
            if self.high < 0 and len(self.calls) == 3 and self.config.all_pass == "dealer_bids_7":
                return self.game.forced_bids
            return self.game.calls_after[self.high + 1]
        if phase == TRUMP:
            return self.game.trump_calls
        return DOUBLE_OR_NOT

    def apply(self, action: int):
        self.turns += 1
        if self.phase == PLAY:
            events = self._play(action)
        elif self.phase == BIDDING:
            events = self._call(action)
        elif self.phase == TRUMP:
            events = self._name_trump(action - TRUMP0)
        else:
            events = self._double(action == DOUBLE)
        if self.turns >= self.max_turns and not self.is_over:
            self.is_over = self.truncated = True
        return events

    def _call(self, action: int):
        p = self.current_player
        self.calls.append((p, action))
        events = [(CALLED, p, action)]
        c = self.config
        if action == PASS:
            self.passed[p] = True
            self.passes_in_row += 1
        else:
            self.high = self.game.level_of(action)
            self.high_bidder = p
            self.passes_in_row = 0
            self.passed[p] = False
        spoken = len(self.calls)
        if c.egyptian:
            if self.high >= 0 and self.passes_in_row == 3:
                return self._auction_won(events)
            if self.high < 0 and spoken == NUM_PLAYERS:
                return self._all_passed(events)
            self.current_player = (p + 1) % NUM_PLAYERS
            return events
        if c.bidding == "single_round":
            if spoken < NUM_PLAYERS:
                self.current_player = (p + 1) % NUM_PLAYERS
                return events
            return self._auction_won(events) if self.high >= 0 else self._all_passed(events)
        out = sum(self.passed)
        if out == NUM_PLAYERS:
            return self._all_passed(events)
        if out == NUM_PLAYERS - 1 and self.high >= 0:
            return self._auction_won(events)
        q = (p + 1) % NUM_PLAYERS
        while self.passed[q]:
            q = (q + 1) % NUM_PLAYERS
        self.current_player = q
        return events

    def _all_passed(self, events):
        """Everybody passed: the same dealer deals again (``dealer_bids_7`` never gets here)."""
        self.redeals += 1
        self._deal()
        events.append((DEALT,))
        return events

    def _auction_won(self, events):
        game, declarer = self.game, self.high_bidder
        strain = game.bid_strain(self.high)
        self.contract = Contract(declarer, game.bid_tricks(self.high), strain, False)
        self.current_player = declarer
        if strain is None:
            self.phase = TRUMP
        elif self.config.allow_double:
            self.trump = strain
            self.phase = DOUBLING
        else:
            self._start_play(strain)
        return events

    def _name_trump(self, strain: int):
        self.contract = self.contract._replace(strain=strain)
        self._start_play(strain)
        return ((TRUMP_NAMED, self.contract.declarer, strain),)

    def _double(self, doubled: bool):
        self.contract = self.contract._replace(doubled=doubled)
        self._start_play(self.contract.strain)
        return ((DOUBLED, self.contract.declarer, doubled),)

    def _start_play(self, strain: int) -> None:
        self.trump = strain
        self.lead_trump_first = self.config.first_lead_trump and strain != NO_TRUMP
        self.phase = PLAY
        self.leader = self.current_player = self.contract.declarer

    def _play(self, action: int):
        p = self.current_player
        card = action - CARD0
        suit = card & 3
        held = self.hand_suits[p]
        cards = held[suit]
        i = cards.index(action)
        held[suit] = cards[:i] + cards[i + 1 :]
        self._hand_actions[p] = None
        trick = self.trick
        trick.append(card)
        position = len(trick) - 1
        if position == 0:
            self.led_suit = suit
        elif position == NUM_PLAYERS - 1:
            return self._gather(p, card)
        self.current_player = (p + 1) & 3
        return ((PLAYED, p, card, self.led_suit, position),)

    def _gather(self, p: int, card: int):
        """The fourth card: the trick goes to its winner, who leads the next."""
        events = [(PLAYED, p, card, self.led_suit, NUM_PLAYERS - 1)]
        trick = self.trick
        winner = trick_winner(trick, self.leader, self.trump)
        self.tricks.append((self.leader, tuple(trick), winner))
        self.tricks_won[team_of(winner)] += 1
        self.trick = []
        self.led_suit = -1
        self.leader = self.current_player = winner
        events.append((TRICK_WON, winner))
        if len(self.tricks) == NUM_TRICKS:
            self._score_deal(events)
        return events

    def _score_deal(self, events) -> None:
        c, contract = self.config, self.contract
        side = team_of(contract.declarer)
        taken = self.tricks_won[side]
        if c.egyptian:
            mine, theirs = egyptian_score(contract.bid, taken, c.double_multiplier if contract.doubled else 1)
        else:
            mine, theirs = lebanese_score(contract.bid, taken, c.scoring)
        deal_score = [0, 0]
        deal_score[side], deal_score[1 - side] = mine, theirs
        self.last_deal_score = (deal_score[0], deal_score[1])
        self.deals += 1
        events.append((DEAL_SCORED, self.last_deal_score))
        if c.episode == "deal":
            self.is_over = True
            return
        self.scores[0] += deal_score[0]
        self.scores[1] += deal_score[1]
        self.winner = game_winner(self.scores, c.target_score)
        if self.winner is not None:
            self.is_over = True
            return
        self.dealer = (self.dealer + 1) % NUM_PLAYERS
        self._deal()
        events.append((DEALT,))

    def returns(self) -> list[float]:
        if self.truncated:
            return [0.0] * NUM_PLAYERS
        if self.config.episode == "deal":
            if self.last_deal_score is None:
                return [0.0] * NUM_PLAYERS
            a, b = self.last_deal_score
            return [(a - b) / 26.0, (b - a) / 26.0] * 2
        if self.winner is None:
            return [0.0] * NUM_PLAYERS
        return [1.0 if team_of(p) == self.winner else -1.0 for p in range(NUM_PLAYERS)]

    # -- text -----------------------------------------------------------------------------

    def render_text(self, viewer: int) -> str:
        c = self.config
        head = f"Tarneeb ({c.variant}) · deal {self.deals + 1} · dealer player_{self.dealer}"
        head += f" · phase: {PHASE_NAMES[self.phase]}"
        lines = [head + (" · over" if self.is_over else "")]
        if c.episode == "game":
            lines.append(
                f"score  players 0+2: {self.scores[0]}  players 1+3: {self.scores[1]}  (target {c.target_score})"
            )
        if self.calls:
            lines.append("bidding: " + ", ".join(f"player_{p} {ACTION_NAMES[a]}" for p, a in self.calls))
        if self.contract is not None:
            k = self.contract
            text = f"contract: player_{k.declarer} bid {k.bid}"
            if k.strain is not None:
                text += " no trump" if k.strain == NO_TRUMP else f", trump {SUITS[k.strain]}"
            if k.doubled:
                text += ", doubled"
            lines.append(text)
        if self.phase == PLAY or self.tricks:
            lines.append(f"tricks  players 0+2: {self.tricks_won[0]}  players 1+3: {self.tricks_won[1]}")
        if self.trick:
            shown = ", ".join(
                f"player_{(self.leader + i) % NUM_PLAYERS} {card_str(card)}" for i, card in enumerate(self.trick)
            )
            lines.append(f"trick: {shown}")
        if self.is_over:
            if self.truncated:
                lines.append("truncated at max_turns")
            elif self.last_deal_score is not None:
                a, b = self.last_deal_score
                lines.append(f"last deal  players 0+2: {a:+d}  players 1+3: {b:+d}")
            if self.winner is not None:
                lines.append(f"players {self.winner}+{self.winner + 2} win the game")
        else:
            lines.append(f"to act: player_{self.current_player}")
        suits = []
        for s in reversed(range(NUM_SUITS)):
            ranks = [RANKS[(a - CARD0) >> 2] for a in reversed(self.hand_suits[viewer][s])]
            suits.append(f"{SUITS[s]}: {' '.join(ranks) or '-'}")
        lines.append(f"player_{viewer} holds  " + "  ".join(suits))
        return "\n".join(lines)
