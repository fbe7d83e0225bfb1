"""The rules of I Doubt It (RULES.md §1) as a plain state machine.

No PettingZoo and no tensors here: the state, the legal actions, ``apply`` and the outcome.
``apply`` returns the *events* of the action, which the view turns into what each player knows.
"""

from __future__ import annotations

from typing import NamedTuple

from bluff_envs.cards import NUM_RANKS, RANKS, DeckSpec, card_str, deal
from bluff_envs.challenge_window import ChallengeWindow
from bluff_envs.i_doubt_it.config import IDoubtItConfig
from bluff_envs.seats import seats_after

# Actions: "add <rank>" for each rank 2..A, then done / doubt / pass.
DONE, DOUBT, PASS = NUM_RANKS, NUM_RANKS + 1, NUM_RANKS + 2
ACTION_NAMES = tuple(f"add {r}" for r in RANKS) + ("done", "doubt", "pass")
ACE = NUM_RANKS - 1
DOUBT_OR_PASS = (DOUBT, PASS)  # one object, so the adapter can reuse its mask

# Phases: whose decision it is.
PLAY, DOUBT_WINDOW = 0, 1
PHASE_NAMES = ("play", "doubt window")

# Events returned by apply(); the view reads them.
ADDED, CLAIMED, RESOLVED = 0, 1, 2


class Claim(NamedTuple):
    """A play on the pile: "N <rank>" by ``player``. ``cards`` are known only to him."""

    player: int
    cards: list[int]
    rank: int


class Resolution(NamedTuple):
    """How a claim ended, all public: the doubt decisions and, if turned up, the cards."""

    claim_player: int
    count: int
    decisions: tuple[bool, ...] | None  # by seat order from the claimer's left; None: checked at once
    deciders: tuple[int, ...]
    doubter: int | None  # the official doubter
    revealed: tuple[int, ...] | None  # rank counts of the cards turned up
    honest: bool | None
    taker: int | None
    winner: int | None


class IDoubtIt:
    """The game: validated options and what follows from them."""

    name = "i_doubt_it_v0"
    action_names = ACTION_NAMES

    def __init__(self, **options):
        from bluff_envs.i_doubt_it.view import IDoubtItView, build_layout

        self.config = c = IDoubtItConfig.from_options(**options)
        self.num_players = c.num_players
        self.deck = DeckSpec(lowest_rank=0, num_decks=c.num_decks)
        self.cap = c.max_cards_per_play if c.max_cards_per_play is not None else self.deck.size
        self.layout = build_layout(c)
        self._view_class = IDoubtItView

    def new_state(self, cards: list[int], rng=None) -> IDoubtItState:
        return IDoubtItState(self, cards)

    def new_view(self, state: IDoubtItState):
        return self._view_class(self, state)


class IDoubtItState:
    def __init__(self, game: IDoubtIt, cards: list[int]):
        c = game.config
        self.game = game
        self.num_players = n = c.num_players
        self.cap = game.cap
        self.step_rank = -1 if c.rank_order == "descending" else 1
        self.hands: list[list[list[int]]] = [[[] for _ in range(NUM_RANKS)] for _ in range(n)]
        for p, dealt in enumerate(deal(cards, n)):
            for card in dealt:
                self.hands[p][card >> 2].append(card)
        self.hand_sizes = [sum(map(len, h)) for h in self.hands]
        self.held_ranks: list[tuple[int, ...] | None] = [None] * n  # cache of _ranks_held()
        self.pile: list[int] = []
        self.phase = PLAY
        self.current_player = 0
        self.required_rank = ACE  # player 0 must name Aces
        self.chosen = [0] * NUM_RANKS  # the play being built, by rank
        self.chosen_count = 0
        self.lowest_addable = 0  # canonical order: never a rank below the last one added
        self.first_added = 0
        self.claim: Claim | None = None
        self.window: ChallengeWindow | None = None
        self.turns = 0  # completed plays
        self.winner: int | None = None
        self.is_over = False
        self.truncated = False

    # -- rules ----------------------------------------------------------------------------

    def legal_actions(self) -> list[int] | tuple[int, ...]:
        if self.phase == DOUBT_WINDOW:
            return DOUBT_OR_PASS
        if not self.chosen_count:  # the first card of a play: any rank held
            return self._ranks_held()
        actions = []
        if self.chosen_count < self.cap:
            hand, chosen = self.hands[self.current_player], self.chosen
            actions = [r for r in self._ranks_held() if r >= self.lowest_addable and len(hand[r]) > chosen[r]]
        actions.append(DONE)
        return actions

    def _ranks_held(self) -> tuple[int, ...]:
        """The ranks the current player holds, kept until his hand changes."""
        p = self.current_player
        held = self.held_ranks[p]
        if held is None:
            held = self.held_ranks[p] = tuple(r for r, cards in enumerate(self.hands[p]) if cards)
        return held

    def apply(self, action: int):
        if self.phase == DOUBT_WINDOW:
            next_seat = self.window.decide(action == DOUBT)
            if next_seat is None:
                return (self._resolve(),)
            self.current_player = next_seat
            return ()
        if action != DONE:
            if not self.chosen_count:
                self.first_added = action
            self.chosen[action] += 1
            self.chosen_count += 1
            self.lowest_addable = action
            return ((ADDED, self.current_player, action),)
        return self._discard()

    def _discard(self):
        p = self.current_player
        hand = self.hands[p]
        cards = []
        chosen = self.chosen
        for r in range(self.first_added, self.lowest_addable + 1):  # the ranks added, in order
            k = chosen[r]
            if k:
                held = hand[r]
                cards += held[-k:]
                del held[-k:]
        self.chosen = [0] * NUM_RANKS
        self.chosen_count = 0
        self.lowest_addable = 0
        self.hand_sizes[p] -= len(cards)
        self.held_ranks[p] = None
        self.pile.extend(cards)
        self.claim = Claim(p, cards, self.required_rank)
        claimed = (CLAIMED, p, len(cards), self.required_rank)
        if self.hand_sizes[p] == 0 and self.game.config.last_play_checked:
            return (claimed, self._resolve())  # the others would certainly doubt it
        self.window = ChallengeWindow(p, seats_after(p, [True] * self.num_players))
        self.phase = DOUBT_WINDOW
        self.current_player = self.window.current
        return (claimed,)

    def _resolve(self):
        claim, window = self.claim, self.window
        doubter = window.official if window is not None else None
        checked = window is None or doubter is not None
        revealed = honest = taker = None
        if checked:
            counts = [0] * NUM_RANKS
            for card in claim.cards:
                counts[card >> 2] += 1
            revealed = tuple(counts)
            honest = counts[claim.rank] == len(claim.cards)
            taker = claim.player if not honest else doubter
        if self.hand_sizes[claim.player] == 0 and (honest or not checked):
            self.winner = claim.player
        if taker is not None:
            hand = self.hands[taker]
            for card in self.pile:
                hand[card >> 2].append(card)
            self.hand_sizes[taker] += len(self.pile)
            self.held_ranks[taker] = None
            self.pile = []
        resolution = Resolution(
            claim.player,
            len(claim.cards),
            tuple(window.decisions) if window is not None else None,
            tuple(window.deciders) if window is not None else (),
            doubter,
            revealed,
            honest,
            taker,
            self.winner,
        )
        self.window = None
        self.phase = PLAY
        self.turns += 1
        self.required_rank = (self.required_rank + self.step_rank) % NUM_RANKS
        self.current_player = (claim.player + 1) % self.num_players
        if self.winner is not None:
            self.is_over = True
        elif self.turns >= self.game.config.max_turns:
            self.is_over = self.truncated = True
        return (RESOLVED, resolution)

    def returns(self) -> list[float]:
        n = self.num_players
        if self.winner is None:
            return [0.0] * n
        return [1.0 if p == self.winner else -1.0 / (n - 1) for p in range(n)]

    # -- text -----------------------------------------------------------------------------

    def hand_cards(self, player: int) -> list[int]:
        return sorted(card for held in self.hands[player] for card in held)

    def render_text(self, viewer: int) -> str:
        lines = [f"I Doubt It · turn {self.turns} · phase: {PHASE_NAMES[self.phase]}"]
        if self.is_over:
            lines[0] += " · over"
            if self.winner is not None:
                lines.append(f"player_{self.winner} went out and wins")
            else:
                lines.append("truncated at max_turns")
        sizes = "  ".join(f"player_{p}: {s}" for p, s in enumerate(self.hand_sizes))
        lines.append(f"hand sizes  {sizes}")
        lines.append(f"pile: {len(self.pile)} cards face down")
        if self.phase == DOUBT_WINDOW:
            c = self.claim
            lines.append(f"claim under doubt: player_{c.player} says {len(c.cards)} x {RANKS[c.rank]}")
        else:
            lines.append(f"next play names: {RANKS[self.required_rank]}")
        hand = " ".join(card_str(c) for c in self.hand_cards(viewer))
        lines.append(f"player_{viewer} holds: {hand or '(nothing)'}")
        if self.phase == PLAY and self.chosen_count and viewer == self.current_player:
            building = " ".join(f"{k}x{RANKS[r]}" for r, k in enumerate(self.chosen) if k)
            lines.append(f"play being built: {building}")
        return "\n".join(lines)
