"""The rules of Seven Spades (docs/rules.md §3) as a plain state machine.

No PettingZoo and no tensors here: the state, the legal actions, ``apply`` and the outcome.
Drawing the top card of the stock is part of the transition: when a turn ends, the next player
draws at once (or the game ends in a draw on an empty stock), so every decision an agent makes
is about a card already in hand. ``apply`` returns the *events* of the action, which the view
turns into what each player knows.
"""

from __future__ import annotations

from bluff_envs.cards import SPADES, card_str
from bluff_envs.challenge_window import ChallengeWindow
from bluff_envs.seats import next_seat, seats_after
from bluff_envs.seven_spades.actions import (
    CHALLENGE,
    CHALLENGE_OR_PASS,
    CHALLENGE_WINDOW,
    CLAIM_FACE_UP,
    DISCARD,
    DISCARD_ONLY,
    DISCARD_OR_CLAIM,
    FINAL_SPADE,
    PHASE_NAMES,
    PLAY,
)
from bluff_envs.seven_spades.events import CLAIMED, DISCARDED, DREW, FINAL, RESOLVED, Resolution


class SevenSpadesState:
    """Where every card is, whose decision it is, and how the game stands.

    Every card is in exactly one place: the ``stock`` (from index ``top`` on), the ``drawn``
    card in the current player's hand, a row (``face_down`` or ``face_up``), the ``discard_pile``,
    or out of the game (``out_face_down`` / ``out_face_up``, the rows of players who are out).
    ``game`` is the game it belongs to (``bluff_envs.seven_spades.game.SevenSpades``), whose
    validated ``config`` it follows; ``cards`` the stock, top card first.
    """

    def __init__(self, game, cards: list[int]):
        c = game.config
        self.game = game
        self.num_players = n = c.num_players
        self.target = c.target
        self.final_length = c.target - 1  # a row this long may only take a face-up spade
        self.free_turn = c.free_turn
        self.max_turns = c.max_turns
        self.deck = list(cards)
        self.stock = self.deck  # top card first; never mutated, only `top` advances
        self.top = 0
        self.drawn: int | None = None
        self.face_down: list[list[int]] = [[] for _ in range(n)]
        self.face_up: list[list[int]] = [[] for _ in range(n)]
        self.row_length = [0] * n
        self.discard_pile: list[int] = []
        self.out_face_down: list[int] = []  # never seen by anyone but their owner
        self.out_face_up: list[int] = []  # turned up before leaving the game
        self.in_game = [True] * n
        self.players_in = n
        self.phase = PLAY
        self.window: ChallengeWindow | None = None
        self.turns = 0  # completed turns, one draw each
        self.winner: int | None = None
        self.is_over = False
        self.truncated = False
        self.current_player = 0
        self._draw(0)  # player 0 draws first

    @property
    def stock_size(self) -> int:
        return len(self.stock) - self.top

    # -- rules ----------------------------------------------------------------------------

    def legal_actions(self) -> tuple[int, ...]:
        if self.phase == CHALLENGE_WINDOW:
            return CHALLENGE_OR_PASS
        if self.row_length[self.current_player] == self.final_length:
            return FINAL_SPADE if self.drawn & 3 == SPADES else DISCARD_ONLY
        return DISCARD_OR_CLAIM

    def apply(self, action: int):
        if self.phase == CHALLENGE_WINDOW:
            window = self.window
            window.decide(action == CHALLENGE)
            if window.is_closed:
                return self._resolve()
            self.current_player = window.current
            return ()
        p, card = self.current_player, self.drawn
        self.drawn = None
        if action == DISCARD:
            self.discard_pile.append(card)
            return self._end_turn((DISCARDED, p, card), next_seat(p, self.in_game))
        self.row_length[p] += 1
        if action == CLAIM_FACE_UP:  # the final spade: no challenge, he wins at once
            self.face_up[p].append(card)
            self.winner = p
            return self._end_turn((FINAL, p, card), None)
        self.face_down[p].append(card)
        self.window = ChallengeWindow(p, seats_after(p, self.in_game))
        self.phase = CHALLENGE_WINDOW
        self.current_player = self.window.current
        return ((CLAIMED, p, card),)

    def _resolve(self):
        window = self.window
        claimer, challenger = window.claimer, window.official
        card = spade = loser = None
        if challenger is not None:
            card = self.face_down[claimer][-1]
            spade = card & 3 == SPADES
            if spade:  # the challenger is out; the spade stays face up and counts
                self.face_up[claimer].append(self.face_down[claimer].pop())
                loser = challenger
            else:  # the claimer is out, the card turned up leaves with his row
                self.out_face_up.append(self.face_down[claimer].pop())
                loser = claimer
            self._put_out(loser)
        if self.free_turn and spade is False:
            next_player = challenger  # his challenge succeeded: he takes the next turn
        else:
            next_player = next_seat(claimer, self.in_game)
        resolution = Resolution(
            claimer,
            tuple(window.deciders),
            tuple(window.decisions),
            challenger,
            card,
            spade,
            loser,
            self.winner,
        )
        self.window = None
        self.phase = PLAY
        return self._end_turn((RESOLVED, resolution), next_player)

    def _put_out(self, player: int) -> None:
        """The loser of a challenge is out; the cards of his row leave the game."""
        self.in_game[player] = False
        self.players_in -= 1
        self.out_face_down.extend(self.face_down[player])
        self.out_face_up.extend(self.face_up[player])
        self.face_down[player] = []
        self.face_up[player] = []
        self.row_length[player] = 0
        if self.players_in == 1:
            self.winner = self.in_game.index(True)

    def _end_turn(self, event, next_player: int | None):
        self.turns += 1
        if self.winner is not None:
            self.is_over = True
            return (event,)
        if self.top == len(self.stock):  # nobody can draw: the game is a draw
            self.is_over = True
            return (event,)
        if self.turns >= self.max_turns:
            self.is_over = self.truncated = True
            return (event,)
        return (event, self._draw(next_player))

    def _draw(self, player: int):
        card = self.stock[self.top]
        self.top += 1
        self.drawn = card
        self.current_player = player
        return (DREW, player, card)

    def returns(self) -> list[float]:
        n = self.num_players
        if self.winner is None:
            return [0.0] * n
        return [1.0 if p == self.winner else -1.0 / (n - 1) for p in range(n)]

    # -- text -----------------------------------------------------------------------------

    def render_text(self, viewer: int) -> str:
        lines = [
            f"Seven Spades · turn {self.turns} · target {self.target} · stock {self.stock_size}"
            f" · phase: {PHASE_NAMES[self.phase]}"
        ]
        if self.is_over:
            lines[0] += " · over"
            if self.winner is not None:
                how = "reached the target" if self.row_length[self.winner] >= self.target else "is the last one in"
                lines.append(f"player_{self.winner} {how} and wins")
            elif self.truncated:
                lines.append("truncated at max_turns")
            else:
                lines.append("the stock is empty: a draw")
        for p in range(self.num_players):
            if not self.in_game[p]:
                lines.append(f"player_{p}: out")
                continue
            up = [card_str(c) for c in self.face_up[p]]
            if p == viewer:
                down = [card_str(c) for c in self.face_down[p]]
            else:
                down = ["??"] * len(self.face_down[p])
            row = " ".join(up + down) or "(empty)"
            lines.append(f"player_{p}: row {self.row_length[p]}/{self.target}  {row}")
        top = card_str(self.discard_pile[-1]) if self.discard_pile else "(empty)"
        lines.append(f"discard pile: {len(self.discard_pile)} cards, top {top}")
        if self.phase == CHALLENGE_WINDOW:
            lines.append(f"claim under challenge: player_{self.window.claimer} says his last card is a spade")
        elif not self.is_over and viewer == self.current_player:
            lines.append(f"player_{viewer} drew {card_str(self.drawn)}")
        return "\n".join(lines)
