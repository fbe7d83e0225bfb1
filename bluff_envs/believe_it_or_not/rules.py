"""The rules of Believe It or Not (docs/rules.md §2) as a plain state machine.

No PettingZoo and no tensors here: the state, the legal actions, ``apply`` and the outcome.
``apply`` returns the *events* of the action (:mod:`bluff_envs.believe_it_or_not.events`), which
the view turns into what each player knows.

A round: the leader names a rank ("name <rank>") and builds his play card by card ("add <rank>"
… "done"); each following player either adds a play of his own (his first "add" starts it) or
calls "believe" / "disbelieve", which turns up the most recent play and ends the round.
"""

from __future__ import annotations

from typing import NamedTuple

from bluff_envs.believe_it_or_not.actions import (
    ADD0, BELIEVE, BUILD, CALLS, DONE, NAME, NAME0, PHASE_NAMES, RESPOND,
)
from bluff_envs.believe_it_or_not.events import ADDED, CALLED, NAMED, PLAYED, Call
from bluff_envs.cards import NUM_RANKS, RANKS, card_str, deal
from bluff_envs.play_builder import PlayBuilder
from bluff_envs.seats import next_seat


class Play(NamedTuple):
    """A play put face down in the middle: "N <round rank>" by ``player``.

    ``cards`` and ``counts`` (by rank) are known only to him until a call turns them up."""

    player: int
    cards: list[int]
    counts: tuple[int, ...]


class BelieveItOrNotState:
    """One game in progress: hands, the pile, whose decision it is; ``legal_actions`` and
    ``apply`` are the rules. Reading it is for the environment, tests and tools, never agents.

    ``game`` is the :class:`~bluff_envs.believe_it_or_not.game.BelieveItOrNot` it is played by."""

    def __init__(self, game, cards: list[int]):
        self.game = game
        self.num_players = n = game.num_players
        self.cap = game.cap
        self.max_turns = game.config.max_turns
        self.hands: list[list[list[int]]] = [[[] for _ in range(NUM_RANKS)] for _ in range(n)]
        for p, dealt in enumerate(deal(cards, n)):
            for card in dealt:
                self.hands[p][card >> 2].append(card)
        self.hand_sizes = [sum(map(len, h)) for h in self.hands]
        self.in_game = [True] * n
        self.players_in = n
        self.pile: list[int] = []  # face down in the middle, this round
        self.pile_by_player = [0] * n  # public: how many cards each put into the pile
        self.out_of_play: list[int] = []  # piles believed honest, face down
        self.quads: list[int] = []  # complete sets put out of play face up
        self.phase = NAME
        self.current_player = self.leader = 0  # player 0 leads the first round
        self.round_rank = -1  # not named yet
        # the play under way; a responder may start one or call instead
        self.building = PlayBuilder(self.hands, game.ranks, game.cap, ADD0, DONE, then=CALLS)
        self.last_play: Play | None = None
        self.last_call: Call | None = None
        self.turns = 0  # completed plays
        self.loser: int | None = None
        self.is_over = False
        self.truncated = False

    # -- rules ----------------------------------------------------------------------------

    def legal_actions(self) -> tuple[int, ...]:
        """The actions open to the current player, as a tuple that is the same object for the
        same situation (so that the adapter can reuse its mask)."""
        phase, p = self.phase, self.current_player
        if phase == NAME:
            return self.game.name_actions
        if phase == RESPOND:  # start a play of his own, or call
            return self.building.opening(p)
        return self.building.legal(p)

    def apply(self, action: int):
        """Carry out a legal action; returns its events (one) for the view."""
        phase = self.phase
        if ADD0 <= action < DONE:  # in BUILD, or a responder starting his play
            r = action - ADD0
            self.building.add(r)
            self.phase = BUILD
            return ((ADDED, self.current_player, r),)
        if action == DONE:
            return self._play()
        if phase == NAME:
            self.round_rank = action - NAME0
            self.phase = BUILD
            return ((NAMED, self.current_player, self.round_rank),)
        return self._call(action == BELIEVE)

    def _play(self):
        p = self.current_player
        cards, counts = self.building.take(p)
        self.hand_sizes[p] -= len(cards)
        self.pile.extend(cards)
        self.pile_by_player[p] += len(cards)
        self.last_play = Play(p, cards, counts)
        self.turns += 1
        self.phase = RESPOND
        self.current_player = next_seat(p, self.in_game)
        if self.turns >= self.max_turns:
            self.is_over = self.truncated = True
        return ((PLAYED, p, len(cards), counts),)

    def _call(self, believed: bool):
        caller, play = self.current_player, self.last_play
        maker, counts = play.player, play.counts
        honest = counts[self.round_rank] == len(play.cards)
        # the §2.4 table: who takes the pile, and whether the caller leads the next round
        if believed:
            taker, caller_leads = (None, True) if honest else (caller, False)
        else:
            taker, caller_leads = (caller, False) if honest else (maker, True)
        going_out = self.hand_sizes[maker] == 0
        left = []
        if going_out:
            if honest:  # §2.5: his last play was checked and found honest: he leaves
                self._leave(maker, left)
            else:  # §2.5: checked and found false: he takes the pile and stays in
                taker = maker
        pile_size = len(self.pile)
        quads = ()
        if taker is None:
            self.out_of_play.extend(self.pile)
        else:
            quads = self._take_pile(taker)
        self.pile = []
        self.pile_by_player = [0] * self.num_players
        leader = None
        if self.players_in > 1:
            leader = caller if caller_leads else next_seat(caller, self.in_game)
            # §2.5: an empty-handed player due to lead leaves, and the lead passes to his left
            while self.hand_sizes[leader] == 0:
                self._leave(leader, left)
                if self.players_in == 1:
                    leader = None
                    break
                leader = next_seat(leader, self.in_game)
        if leader is None:
            # §2.6: the one player still in loses; if he holds no cards either, nobody holds
            # cards any more (the last hands emptied together, or quads emptied his): a draw
            last = self.in_game.index(True)
            self.loser = last if self.hand_sizes[last] else None
            self.is_over = True
        else:
            self.phase = NAME
            self.current_player = self.leader = leader
        self.last_call = call = Call(
            caller, believed, maker, self.round_rank, len(play.cards), counts, honest, taker, pile_size, quads,
            tuple(left), leader, self.loser,
        )  # fmt: skip
        self.round_rank = -1
        self.last_play = None
        return ((CALLED, call),)

    def _take_pile(self, taker: int) -> tuple[int, ...]:
        """Add the pile to the taker's hand; with discard_quads put his complete sets out."""
        hand = self.hands[taker]
        for card in self.pile:
            hand[card >> 2].append(card)
        self.hand_sizes[taker] += len(self.pile)
        self.building.hand_changed(taker)
        if not self.game.config.discard_quads:
            return ()
        copies = self.game.copies
        quads = tuple(r for r in self.game.ranks if len(hand[r]) == copies)
        for r in quads:
            self.quads.extend(hand[r])
            hand[r] = []
        self.hand_sizes[taker] -= copies * len(quads)
        return quads

    def _leave(self, player: int, left: list[int]) -> None:
        self.in_game[player] = False
        self.players_in -= 1
        left.append(player)

    def returns(self) -> list[float]:
        n = self.num_players
        if self.loser is None:
            return [0.0] * n
        return [-1.0 if p == self.loser else 1.0 / (n - 1) for p in range(n)]

    # -- text -----------------------------------------------------------------------------

    def hand_cards(self, player: int) -> list[int]:
        return sorted(card for held in self.hands[player] for card in held)

    def render_text(self, viewer: int) -> str:
        lines = [f"Believe It or Not · turn {self.turns} · phase: {PHASE_NAMES[self.phase]}"]
        if self.is_over:
            lines[0] += " · over"
            if self.loser is not None:
                lines.append(f"player_{self.loser} is the last one holding cards and loses")
            elif not self.truncated:
                lines.append("nobody holds cards any more: a draw")
            else:
                lines.append("truncated at max_turns")
        seats = []
        for p, size in enumerate(self.hand_sizes):
            status = "" if self.in_game[p] else " (out)"
            seats.append(f"player_{p}: {size}{status}")
        lines.append("hand sizes  " + "  ".join(seats))
        out = len(self.out_of_play) + len(self.quads)
        quads = " ".join(card_str(c) for c in sorted(self.quads))
        lines.append(f"out of play: {out} cards" + (f" (face up: {quads})" if quads else ""))
        call = self.last_call
        if call is not None:
            verb = "believed" if call.believed else "did not believe"
            verdict = "honest" if call.honest else "false"
            shown = " ".join(f"{k}x{RANKS[r]}" for r, k in enumerate(call.revealed) if k)
            to = f"player_{call.taker} takes {call.pile_size}" if call.taker is not None else "out of play"
            lines.append(
                f"last call: player_{call.caller} {verb} player_{call.maker}: {shown} ({verdict}); pile {to}"
            )
        if self.phase == NAME:
            lines.append(f"player_{self.current_player} leads a new round")
        else:
            lines.append(f"round rank: {RANKS[self.round_rank]} · pile: {len(self.pile)} cards face down")
            if self.last_play is not None:
                lp = self.last_play
                lines.append(f"most recent play: player_{lp.player} says {len(lp.cards)} x {RANKS[self.round_rank]}")
        hand = " ".join(card_str(c) for c in self.hand_cards(viewer))
        lines.append(f"player_{viewer} holds: {hand or '(nothing)'}")
        building = self.building
        if self.phase == BUILD and building.count and viewer == self.current_player:
            shown = " ".join(f"{k}x{RANKS[r]}" for r, k in enumerate(building.chosen) if k)
            lines.append(f"play being built: {shown}")
        return "\n".join(lines)
