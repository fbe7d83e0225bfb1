"""Rule-based players of I Doubt It (docs/rules.md §1), from the acting player's public view only.

Every heuristic reads the decoded view (``view`` or ``self.decode(observation)``, fields of
``bluff_envs.i_doubt_it.view.build_layout``) and the action mask; none looks at the
environment. A play is built over several steps ("add r" … "done"): the player decides the
whole play (its *plan*, cards per rank) from the table as it was at the play's first step, then
adds those ranks in the canonical order 2 … A and says "done". Nothing is remembered from one
step to the next: the cards chosen so far (``building``) are still in ``hand`` until "done", so
every step sees the table of the first step again and recomputes the plan from it.

=================  ===================================================================
spec               style
=================  ===================================================================
honest             plays all its cards of the named rank when it has any; otherwise bluffs
                   with a single card, of the rank it will have to name last; doubts only
                   claims that are impossible from the cards it knows
counter            plays like ``honest``; doubts when the claim is impossible, or when the
                   probability that it is false (hypergeometric over the cards whose place it
                   does not know, weighed by how likely such a claim is) is above a threshold
bluffer            sheds cards: half of its plays of the named rank (at random) carry one
                   more card, the one it needs last; never bluffs a play that would be turned
                   up anyway; doubts only impossible or nearly certain bluffs
always_challenge   plays like ``honest``; doubts every claim (a diagnostic)
never_challenge    plays like ``honest``; never doubts (a diagnostic)
=================  ===================================================================

Which cards a player knows (the basis of "impossible" and of the probability):

* his own hand and the cards he himself put into the pile (``my_cards_in_pile``);
* each opponent's ``known_cards`` (seen going into his hand, less what he may have discarded).

A claim of ``c`` cards of rank ``R`` is impossible when fewer than ``c`` copies of ``R`` can be
anywhere but in those known places.

Randomness: a decision's only randomness is one uniform draw ``u`` in [0, 1): :meth:`act`
draws it from the agent's generator (one per decision, used or not) and hands it to
:meth:`decide`, which is deterministic. Only ``bluffer`` uses it: its play is one of two plans,
honest and shed, both computed from the table at the play's first step. While they agree on
the next action it takes that action; at the first step where they differ it sheds when ``u``
falls below ``shed_chance``; after that the cards already chosen show which plan it follows
(only one of them still fits), and it follows that one. So a whole play sheds with
probability ``shed_chance``, as if decided once at its start. A play that fits no plan (cards
added by someone else) is finished as it stands ("done"). ``agents.batched.i_doubt_it`` makes
the same choice for the same observation and ``u``, many rows at a time.
"""

from __future__ import annotations

from math import comb

import numpy as np

from agents.base import Agent, GameInfo
from agents.registry import register
from bluff_envs.cards import NUM_RANKS
from bluff_envs.i_doubt_it.actions import ADD0, DONE, DOUBT, DOUBT_WINDOW, PASS

GAME = "i_doubt_it"


class Table:
    """The acting player's public view of I Doubt It, in the terms the heuristics reason with.

    Seats are relative, as in the observation: 0 is me, 1 the player to my left, …
    """

    __slots__ = ("n", "copies", "deck_size", "rank_step", "in_window", "hand", "building", "required",
                 "claim_rank", "claimer", "claim_count", "hand_sizes", "known", "mine_in_pile")

    def __init__(self, view: dict[str, np.ndarray], game: GameInfo):
        c = game.config
        self.n = n = game.num_players
        self.copies = 4 * c.num_decks
        self.deck_size = 52 * c.num_decks
        self.rank_step = -1 if c.rank_order == "descending" else 1  # from one play to the next
        self.in_window = bool(view["phase"][DOUBT_WINDOW] > 0.5)
        self.hand = view["hand"].astype(int)
        self.building = view["building"].astype(int)
        self.required = int(np.argmax(view["required_rank"]))
        self.claim_rank = int(np.argmax(view["claim_rank"]))
        history = view["history"]
        self.claimer = int(np.argmax(history[:n]))  # newest play's claimer (relative seat)
        self.claim_count = int(round(history[n]))
        self.hand_sizes = view["hand_sizes"].astype(int)
        self.known = view["known_cards"].reshape(n - 1, NUM_RANKS).astype(int)
        self.mine_in_pile = view["my_cards_in_pile"].astype(int)

    def at_play_start(self) -> Table:
        """The table as it was at the first step of the play under way: the cards chosen so far
        are still in ``hand`` (they leave it at "done"), so only ``building`` differs."""
        start = object.__new__(Table)
        for name in Table.__slots__:
            setattr(start, name, getattr(self, name))
        start.building = np.zeros_like(self.building)
        return start

    def copies_unplaced(self, rank: int) -> int:
        """Copies of ``rank`` that may be in the claimer's latest play: not in my hand, not
        among my own pile cards, not certainly held by any opponent (the claimer included:
        what he is sure to hold still is not in his play)."""
        return self.copies - self.hand[rank] - self.mine_in_pile[rank] - int(self.known[:, rank].sum())

    def claim_impossible(self) -> bool:
        return self.claim_count > self.copies_unplaced(self.claim_rank)

    def claimer_holding(self) -> list[float]:
        """P(the claimer held k cards of the claimed rank before his play), k = 0, 1, …

        The copies whose place I do not know are taken to lie at random among the cards
        the opponents hold and I have not seen (hypergeometric). Face-down pile cards are
        left out: they were mostly claimed as ranks named recently, and the rank named now
        was last named a whole round of ranks ago.
        """
        rank, c = self.claim_rank, self.claim_count
        unseen = (self.hand_sizes[1:] - self.known.sum(axis=1)).clip(0)
        unseen[self.claimer - 1] += c  # his play came out of his unseen cards
        population = int(unseen.sum())
        draws = int(unseen[self.claimer - 1])
        successes = min(self.copies_unplaced(rank), population)
        return hypergeometric(population, successes, draws)

    def claim_false_probability(self, extra_card: float = 0.1) -> float:
        """P(the claim is false), by Bayes' rule over ``x``, the cards of the claimed rank the
        claimer held (:meth:`claimer_holding`), given the number ``c`` he put down. How a
        player makes a claim: holding none of the rank he must bluff, with one card; holding
        some he puts them all down (or as many as he may), and with probability
        ``extra_card`` one more card of another rank. So a claim is false when ``x = 0`` (and
        ``c = 1``) or when ``x = c - 1`` plus an extra card, true when ``x >= c``."""
        if self.claim_impossible():
            return 1.0
        c = self.claim_count
        holding = self.claimer_holding()
        false = (holding[0] if c == 1 else 0.0) + (extra_card * holding[c - 1] if 1 <= c - 1 < len(holding) else 0.0)
        true = (1.0 - extra_card) * sum(holding[c:])
        return false / (false + true) if false + true > 0 else 1.0

    def turns_until_named(self, rank: int) -> int:
        """How many of my own turns until I must name ``rank`` (13 for the rank I name now):
        the later, the more useless a card of that rank is to me."""
        # n plays pass between two of my turns (nobody leaves before the game ends)
        for k in range(1, NUM_RANKS + 1):
            if (self.required + k * self.n * self.rank_step) % NUM_RANKS == rank:
                return k
        return NUM_RANKS


def hypergeometric(population: int, successes: int, draws: int) -> list[float]:
    """P(X = k) for k = 0 … min(successes, draws), X ~ Hypergeometric(population, successes, draws)."""
    total = comb(population, draws)
    failures = population - successes
    return [comb(successes, k) * comb(failures, draws - k) / total for k in range(min(successes, draws) + 1)]


class IDoubtItHeuristic(Agent):
    """Shared machinery: read the view, plan a whole play, add its ranks in canonical order.

    Subclasses decide :meth:`plans` and :meth:`plan` (cards per rank for the play) and
    :meth:`doubts`. Nothing is kept between decisions: the plan is recomputed at every step
    of a play, from the table at the play's first step (:meth:`Table.at_play_start`).
    """

    def __init__(self, game: GameInfo, seed: int | None = None):
        super().__init__(game, seed)
        c = game.config
        self.cap = c.max_cards_per_play if c.max_cards_per_play is not None else 52 * c.num_decks
        self.last_play_checked = c.last_play_checked

    FIELDS = ("phase", "hand", "building", "required_rank", "claim_rank", "history", "hand_sizes",
              "known_cards", "my_cards_in_pile")

    def act(self, observation, view=None) -> int:
        # one uniform draw per decision, whether or not the decision needs it, so that the
        # batched form (agents.batched.i_doubt_it), handed one draw per row, is its exact twin
        return self.decide(observation, float(self.rng.random()), view)

    def decide(self, observation, u: float, view=None) -> int:
        """The action for ``observation`` given the uniform draw ``u`` in [0, 1): the only
        randomness of a decision (``bluffer`` sheds when ``u`` falls below ``shed_chance`` at
        the step where its honest and shed plans part; the others ignore it)."""
        table = Table(self.decode(observation) if view is None else view, self.game)
        if table.in_window:
            action = DOUBT if self.doubts(table) else PASS
        else:
            action = self._next_addition(table, u)
        mask = observation["action_mask"]
        if not mask[action]:  # never expected; a legal action is the contract
            action = int(np.flatnonzero(mask)[0])
        return int(action)

    # -- playing --------------------------------------------------------------------------

    def _next_addition(self, table: Table, u: float) -> int:
        start = table.at_play_start()
        # the plans that can still be completed from the cards chosen so far; none: a play
        # not built from any of them (cards added for us), finished as it stands
        live = [plan for plan in self.plans(start) if self._continues(plan, table)]
        if not live:
            return DONE
        steps = {self._next_step(plan, table.building) for plan in live}
        if len(steps) == 1:  # they agree (or only one is left): no choice to make
            return steps.pop()
        return self._next_step(self.plan(start, u), table.building)

    @staticmethod
    def _next_step(plan: np.ndarray, building: np.ndarray) -> int:
        """The next rank of ``plan`` to add, in canonical order; "done" when it is complete."""
        for rank in range(NUM_RANKS):
            if building[rank] < plan[rank]:
                return ADD0 + rank
        return DONE

    def _continues(self, plan: np.ndarray, table: Table) -> bool:
        """Whether ``plan`` can still be completed from the cards chosen so far (ranks are
        added in order 2 … A, so nothing may be missing below the highest rank chosen)."""
        if (table.building > plan).any() or (plan > table.hand).any() or plan.sum() > self.cap:
            return False
        chosen = np.flatnonzero(table.building)
        if not len(chosen):
            return True
        highest = int(chosen[-1])
        return bool((plan[:highest] == table.building[:highest]).all())

    def plans(self, start: Table) -> tuple[np.ndarray, ...]:
        """Every plan this player may follow in a play begun at ``start`` (distinct plans,
        each at least one card, at most the cap)."""
        return (self.honest_plan(start),)

    def plan(self, start: Table, u: float) -> np.ndarray:
        """The plan for a play begun at ``start`` that the draw ``u`` picks (one of :meth:`plans`)."""
        return self.honest_plan(start)

    def honest_plan(self, table: Table) -> np.ndarray:
        """All my cards of the named rank; without any, the single card I need last."""
        plan = np.zeros(NUM_RANKS, int)
        held = table.hand[table.required]
        if held:
            plan[table.required] = min(held, self.cap)
        else:
            plan[self.least_needed(table, plan, 1)[0]] += 1
        return plan

    def least_needed(self, table: Table, plan: np.ndarray, k: int) -> list[int]:
        """Up to ``k`` ranks of cards in my hand (not yet in ``plan``), those I must name
        last first, one entry per card."""
        spare = table.hand - plan
        order = sorted((r for r in range(NUM_RANKS) if spare[r] > 0), key=table.turns_until_named, reverse=True)
        picked = []
        for r in order:
            take = min(int(spare[r]), k - len(picked))
            picked.extend([r] * take)
            if len(picked) == k:
                break
        return picked

    # -- doubting -------------------------------------------------------------------------

    def doubts(self, table: Table) -> bool:
        """Whether to say "I doubt it" to the claim under doubt."""
        return table.claim_impossible()


@register(GAME, "honest")
class Honest(IDoubtItHeuristic):
    """Truthful whenever it can; a one-card bluff when it must; doubts impossible claims only."""


@register(GAME, "counter")
class Counter(IDoubtItHeuristic):
    """Plays like ``honest``; doubts impossible claims, claims that would let the claimer go out,
    and any claim whose probability of being false
    (:meth:`Table.claim_false_probability`) is above ``threshold``. The threshold is high
    because a wrong doubt costs the doubter the whole pile while a right one costs only the
    claimer (and so helps every other player as much as the doubter)."""

    threshold = 0.8

    def doubts(self, table: Table) -> bool:
        if table.claim_impossible():
            return True
        if table.hand_sizes[table.claimer] == 0:
            return True  # he goes out unless somebody doubts (last_play_checked=False)
        return table.claim_false_probability() > self.threshold


@register(GAME, "bluffer")
class Bluffer(IDoubtItHeuristic):
    """Sheds cards: with probability ``shed_chance`` a play of the named rank carries one extra
    card, the one it needs last (a one-card bluff when it holds none of the rank). A play that
    would empty its hand is kept honest when it is turned up anyway (``last_play_checked``).
    Doubts rarely: impossible claims and claims false with probability at least ``threshold``."""

    threshold = 0.95
    shed_chance = 0.5

    def plans(self, start: Table) -> tuple[np.ndarray, ...]:
        honest, shed = self.honest_plan(start), self.shed_plan(start)
        return (honest,) if shed is None else (honest, shed)

    def plan(self, start: Table, u: float) -> np.ndarray:
        """The shed plan when there is one and ``u < shed_chance``; the honest one otherwise."""
        shed = self.shed_plan(start)
        return shed if shed is not None and u < self.shed_chance else self.honest_plan(start)

    def shed_plan(self, table: Table) -> np.ndarray | None:
        """The honest play of the named rank with one more card, the one it needs last; None
        when it cannot shed (no card of the rank, the cap reached, nothing else to add, or a
        play that would empty its hand and is turned up anyway)."""
        plan = self.honest_plan(table)
        if not (plan[table.required] and plan.sum() < self.cap):
            return None
        extra = self.least_needed(table, plan, 1)
        if not extra:
            return None
        plan[extra[0]] += 1
        if self.last_play_checked and plan.sum() == table.hand.sum():
            return None  # going out on a bluff is turned up at once
        return plan

    def doubts(self, table: Table) -> bool:
        return table.claim_impossible() or table.claim_false_probability() >= self.threshold


@register(GAME, "always_challenge")
class AlwaysChallenge(IDoubtItHeuristic):
    """Plays like ``honest``; doubts every claim."""

    def doubts(self, table: Table) -> bool:
        return True


@register(GAME, "never_challenge")
class NeverChallenge(IDoubtItHeuristic):
    """Plays like ``honest``; never doubts."""

    def doubts(self, table: Table) -> bool:
        return False
