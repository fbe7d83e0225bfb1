"""The rules of I Doubt It (docs/rules.md §1) as a plain state machine.

No PettingZoo and no tensors here: the state, the legal actions, ``apply`` and the outcome.
``apply`` returns the *events* of the action (:mod:`bluff_envs.i_doubt_it.events`), which the
view turns into what each player knows.
"""

from __future__ import annotations

from typing import NamedTuple

from bluff_envs.cards import NUM_RANKS, RANKS, card_str, deal
from bluff_envs.challenge_window import ChallengeWindow
from bluff_envs.i_doubt_it.actions import ADD0, DONE, DOUBT, DOUBT_OR_PASS, DOUBT_WINDOW, PHASE_NAMES, PLAY
from bluff_envs.i_doubt_it.events import ADDED, CLAIMED, RESOLVED, Resolution
from bluff_envs.play_builder import PlayBuilder
from bluff_envs.seats import seats_after

ACE = NUM_RANKS - 1


class Claim(NamedTuple):
    """A play on the pile: "N <rank>" by ``player``. ``cards`` are known only to him."""

    player: int
    cards: list[int]
    rank: int


class IDoubtItState:
    """One game in progress: hands, the pile, whose decision it is; ``legal_actions`` and
    ``apply`` are the rules. Reading it is for the environment, tests and tools, never agents.

    ``game`` is the :class:`~bluff_envs.i_doubt_it.game.IDoubtIt` it is played by."""

    def __init__(self, game, cards: list[int]):
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
        self.pile: list[int] = []
        self.phase = PLAY
        self.current_player = 0
        self.required_rank = ACE  # player 0 must name Aces
        self.building = PlayBuilder(self.hands, game.deck.ranks, game.cap, ADD0, DONE)  # the play under way
        self.claim: Claim | None = None
        self.window: ChallengeWindow | None = None
        self.turns = 0  # completed plays
        self.winner: int | None = None
        self.is_over = False
        self.truncated = False

    # -- rules ----------------------------------------------------------------------------

    def legal_actions(self) -> tuple[int, ...]:
        """The actions open to the current player, as a tuple that is the same object for the
        same situation (so that the adapter can reuse its mask)."""
        if self.phase == DOUBT_WINDOW:
            return DOUBT_OR_PASS
        return self.building.legal(self.current_player)

    def apply(self, action: int):
        """Carry out a legal action; returns its events for the view."""
        if self.phase == DOUBT_WINDOW:
            next_seat = self.window.decide(action == DOUBT)
            if next_seat is None:
                return (self._resolve(),)
            self.current_player = next_seat
            return ()
        if action != DONE:
            rank = action - ADD0
            self.building.add(rank)
            return ((ADDED, self.current_player, rank),)
        return self._discard()

    def _discard(self):
        p = self.current_player
        cards, _ = self.building.take(p)
        self.hand_sizes[p] -= len(cards)
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
            self.building.hand_changed(taker)
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
        building = self.building
        if self.phase == PLAY and building.count and viewer == self.current_player:
            shown = " ".join(f"{k}x{RANKS[r]}" for r, k in enumerate(building.chosen) if k)
            lines.append(f"play being built: {shown}")
        return "\n".join(lines)
