"""Rule-based players of Believe It or Not (docs/rules.md §2), from the acting player's public view only.

Every heuristic reads the decoded view (``view`` or ``self.decode(observation)``, fields of
``bluff_envs.believe_it_or_not.view.build_layout``) and the action mask; none looks at the
environment. A play is built over several steps ("add r" … "done"): at its first step the
player decides the whole play (its *plan*, cards per rank), then adds those ranks in the
canonical order 2 … A and says "done".

=================  ===================================================================
spec               style
=================  ===================================================================
honest             leads the rank it holds most of, with all those cards; as a responder
                   adds all its cards of the round's rank when it has any, otherwise
                   believes; never bluffs (in this game nobody is ever forced to); says
                   "don't believe" only to claims that are impossible from the cards it knows
counter            plays like ``honest``; says "don't believe" to impossible claims and to
                   claims whose probability of being false (hypergeometric over the cards
                   whose place it does not know, weighed by how likely such a play is) is
                   above a threshold; otherwise believes or adds, whichever risks less
bluffer            sheds cards: every play carries one card more than it honestly could
                   (the rank it holds fewest of), and without the round's rank it still adds
                   a one-card bluff; never bluffs away its last cards (that play is always
                   worth checking); says "don't believe" only to impossible or nearly
                   certain bluffs
always_challenge   plays like ``honest``; says "don't believe" whenever it may (a diagnostic)
never_challenge    plays like ``honest``; never says "don't believe", even to impossible claims
                   (a diagnostic; it loses to random players, who bluff nearly every play)
=================  ===================================================================

Every heuristic believes a play that emptied its maker's hand when it cannot add to it: by
§2.5 a false last play goes back to its maker whichever call turns it up, so "believe" never
costs more than "don't believe" there.

Which cards a player knows (the basis of "impossible" and of the probability): his own hand,
the cards he put into this round's pile (``my_cards_in_pile``), the cards known to be out of
play (``out_of_play_known``) and each opponent's ``known_cards``. A claim of ``c`` cards of
rank ``R`` is impossible when fewer than ``c`` copies of ``R`` can be anywhere but in those
known places.

A play is decided at its first step (a leader's first "add" after naming the rank, a
responder's "respond" decision) and nothing is kept between calls: every later step decides
the plan again from the observation. That gives the same plan, since while a play is built the
hand in the view is still the whole hand (the cards chosen so far are in ``building`` as well,
and leave ``hand`` only at "done") and nothing else the plan reads has changed;
:meth:`Table.as_decided` is the table as it was at the first step. A play consistent with no
plan (someone else chose its cards so far) is finished as it stands.

Randomness: a decision's only randomness is one uniform draw ``u`` in [0, 1): :meth:`act`
draws it from the agent's generator (one per decision, used or not) and hands it to
:meth:`decide`, which is deterministic. No heuristic here uses it yet; the interface is the one
``agents.batched.believe_it_or_not`` twins, many rows at a time.
"""

from __future__ import annotations

from math import comb

import numpy as np

from agents.base import Agent, GameInfo
from agents.registry import register
from bluff_envs.believe_it_or_not.actions import ADD0, BELIEVE, BUILD, DISBELIEVE, DONE, NAME, NAME0, RESPOND
from bluff_envs.cards import NUM_RANKS

GAME = "believe_it_or_not"
PLAY = "play"  # what respond() returns to start a play of its own: the plan is plan(table)


class Table:
    """The acting player's public view of Believe It or Not, in the terms the heuristics use.

    Seats are relative, as in the observation: 0 is me, 1 the player to my left, …
    """

    __slots__ = ("n", "copies", "deck_size", "ranks", "phase", "hand", "building", "rank", "pile_size",
                 "maker", "claim_count", "hand_sizes", "known", "mine_in_pile", "out_known", "out_size",
                 "maker_record")

    def __init__(self, view: dict[str, np.ndarray], game: GameInfo):
        c = game.config
        self.n = n = game.num_players
        self.copies = 4 * c.num_decks
        self.deck_size = c.deck * c.num_decks
        self.ranks = range(c.lowest_rank, NUM_RANKS)
        self.phase = int(np.argmax(view["phase"]))
        self.hand = view["hand"].astype(int)
        self.building = view["building"].astype(int)
        self.rank = int(np.argmax(view["round_rank"])) if view["round_rank"].any() else -1
        self.pile_size = int(view["pile_size"][0])
        self.maker = int(np.argmax(view["last_play_by"])) if view["last_play_by"].any() else -1
        self.claim_count = int(view["last_play_size"][0])
        self.hand_sizes = view["hand_sizes"].astype(int)
        self.known = view["known_cards"].reshape(n - 1, NUM_RANKS).astype(int)
        self.mine_in_pile = view["my_cards_in_pile"].astype(int)
        self.out_known = view["out_of_play_known"].astype(int)
        self.out_size = int(view["out_of_play_size"][0])
        # how the maker's plays fared when recent calls turned them up: (honest, false)
        calls = view["calls"].reshape(-1, 3 * n + 4)
        mine = calls[:, n + 4 + self.maker] > 0.5 if self.maker >= 0 else np.zeros(len(calls), bool)
        self.maker_record = (int(calls[mine, n + 2].sum()), int(calls[mine, n + 3].sum()))

    def as_decided(self) -> Table:
        """The table as it was when the play under way was decided: the same but with nothing
        chosen yet, in the phase of that decision (a leader decides at his first step of
        BUILD, the pile still empty; a responder in RESPOND). The hand is the same: the view
        takes a play's cards out of it only at "done"."""
        table = object.__new__(Table)
        for name in Table.__slots__:
            setattr(table, name, getattr(self, name))
        table.building = np.zeros_like(self.building)
        table.phase = RESPOND if self.pile_size > 0 else BUILD
        return table

    @property
    def is_lead(self) -> bool:
        """Whether the play under consideration is the first of its round (the maker chose
        its rank himself)."""
        return self.pile_size == self.claim_count

    @property
    def maker_went_out(self) -> bool:
        return self.maker > 0 and self.hand_sizes[self.maker] == 0

    def copies_unplaced(self, rank: int) -> int:
        """Copies of ``rank`` that may be in the most recent play: not in my hand, not among
        my pile cards, not known to be out of play, not certainly held by an opponent (the
        maker included: what he is sure to hold still is not in his play)."""
        return (self.copies - self.hand[rank] - self.mine_in_pile[rank] - self.out_known[rank]
                - int(self.known[:, rank].sum()))  # fmt: skip

    def claim_impossible(self) -> bool:
        return self.claim_count > self.copies_unplaced(self.rank)

    def maker_holding(self) -> list[float]:
        """P(the maker held k cards of the round's rank before his play), k = 0, 1, …

        The copies whose place I do not know are taken to lie at random among all the cards I
        have not seen (the opponents' unseen cards, the others' cards in the pile, the unseen
        cards out of play): hypergeometric. A leader named the rank himself, so for him the
        distribution is conditioned on holding at least one."""
        c, maker = self.claim_count, self.maker
        unseen_hands = (self.hand_sizes[1:] - self.known.sum(axis=1)).clip(0)
        draws = int(unseen_hands[maker - 1]) + c  # his play came out of his unseen cards
        pile_unseen = self.pile_size - int(self.mine_in_pile.sum())
        out_unseen = max(self.out_size - int(self.out_known.sum()), 0)
        population = int(unseen_hands.sum()) + pile_unseen + out_unseen
        successes = min(self.copies_unplaced(self.rank), population)
        holding = hypergeometric(population, successes, min(draws, population))
        if self.is_lead and len(holding) > 1 and holding[0] < 1.0:
            holding = [0.0] + [p / (1.0 - holding[0]) for p in holding[1:]]
        return holding

    def claim_false_probability(
        self, bluff_without: float = 0.25, extra_bluff: float = 0.1, bluff_sizes=(0.6, 0.25, 0.1, 0.05)
    ) -> float:
        """P(the most recent play is false), by Bayes' rule over ``x``, the cards of the round's
        rank its maker held (:meth:`maker_holding`), given that he put down ``claim_count``
        cards: holding none he played at all (rather than believe or not) with probability
        ``bluff_without``, a bluff of ``k`` cards with probability ``bluff_sizes[k-1]``;
        holding some he played them all (or the cap), with ``k`` extra cards with probability
        ``extra_bluff × bluff_sizes[k-1]``. Both bluff chances are doubled for each of his
        plays that the recent calls (``calls``) found false, halved for each found honest.
        The play is false when ``x < claim_count``."""
        if self.claim_impossible():
            return 1.0
        c = self.claim_count
        # a maker caught bluffing lately bluffs more likely, one found honest less
        honest, false = self.maker_record
        weight = 2.0 ** (false - honest)
        bluff_without, extra_bluff = min(0.95, bluff_without * weight), min(0.95, extra_bluff * weight)

        def size(k):
            return bluff_sizes[k - 1] if k <= len(bluff_sizes) else 0.0

        false = true = 0.0
        for x, prior in enumerate(self.maker_holding()):
            if x == 0:
                false += prior * bluff_without * size(c)
            elif x < c:
                false += prior * extra_bluff * size(c - x)
            else:
                true += prior * (1.0 - extra_bluff) * (1.0 if x == c else 0.5)
        return false / (false + true) if false + true > 0 else 0.0


def hypergeometric(population: int, successes: int, draws: int) -> list[float]:
    """P(X = k) for k = 0 … min(successes, draws), X ~ Hypergeometric(population, successes, draws)."""
    total = comb(population, draws)
    failures = population - successes
    return [comb(successes, k) * comb(failures, draws - k) / total for k in range(min(successes, draws) + 1)]


class BelieveItOrNotHeuristic(Agent):
    """Shared machinery: read the view, plan a whole play, add its ranks in canonical order.

    Subclasses decide :meth:`plan` (cards per rank for a play), :meth:`lead_rank` and
    :meth:`respond` (believe, disbelieve, or ``PLAY``: start a play of :meth:`plan`).
    """

    FIELDS = ("phase", "hand", "building", "round_rank", "pile_size", "last_play_size", "last_play_by",
              "hand_sizes", "known_cards", "my_cards_in_pile", "out_of_play_known", "out_of_play_size", "calls")

    def __init__(self, game: GameInfo, seed: int | None = None):
        super().__init__(game, seed)
        c = game.config
        self.cap = c.max_cards_per_play if c.max_cards_per_play is not None else c.deck * c.num_decks

    def act(self, observation, view=None) -> int:
        # one uniform draw per decision, whether or not the decision needs it, so that the
        # batched form (agents.batched.believe_it_or_not), handed one draw per row, is its twin
        return self.decide(observation, float(self.rng.random()), view)

    def decide(self, observation, u: float, view=None) -> int:
        """The action for ``observation`` given the uniform draw ``u`` in [0, 1) (unused by
        every heuristic here). Nothing is kept from one call to the next."""
        table = Table(self.decode(observation) if view is None else view, self.game)
        mask = observation["action_mask"]
        if table.phase == NAME:
            action = NAME0 + self.lead_rank(table)
        else:
            if table.phase == RESPOND:
                choice = self.respond(table) if table.hand.any() else self.call(table)
            else:
                choice = PLAY  # a play under way: go on with it
            action = self._next_addition(table) if choice == PLAY else choice
        if not mask[action]:  # never expected; stay legal whatever happens
            action = int(np.flatnonzero(mask)[-1 if mask[DONE] else 0])
        return int(action)

    # -- playing --------------------------------------------------------------------------

    def _next_addition(self, table: Table) -> int:
        """The next step of the play decided at its first step (:meth:`Table.as_decided`):
        its next rank in canonical order, or "done". A play that plan cannot complete any more
        (its cards so far were chosen otherwise) is finished as it stands."""
        building = table.building
        plan = self.plan(table.as_decided())
        if not self._continues(plan, table):
            plan = building
        for rank in range(NUM_RANKS):
            if building[rank] < plan[rank]:
                return ADD0 + rank
        return DONE

    def _continues(self, plan: np.ndarray | None, table: Table) -> bool:
        """Whether ``plan`` can still be completed from the cards chosen so far (ranks are
        added in order 2 … A, so nothing may be missing below the highest rank chosen)."""
        if plan is None or not plan.any() or (table.building > plan).any() or (plan > table.hand).any():
            return False
        if plan.sum() > self.cap:
            return False
        if not table.building.any():
            return True
        highest = int(np.flatnonzero(table.building)[-1])
        return bool((plan[:highest] == table.building[:highest]).all())

    def lead_rank(self, table: Table) -> int:
        """The rank to name when leading: the one I hold most of (ties: the higher rank)."""
        held = table.hand
        return max(table.ranks, key=lambda r: (held[r], r))

    def plan(self, table: Table) -> np.ndarray:
        """Cards per rank to play now: at least one, at most the cap."""
        return self.honest_plan(table)

    def honest_plan(self, table: Table) -> np.ndarray:
        """All my cards of the round's rank (up to the cap); without any, the single card of
        the rank I hold fewest of."""
        plan = np.zeros(NUM_RANKS, int)
        held = table.hand[table.rank]
        if held:
            plan[table.rank] = min(held, self.cap)
        else:
            plan[self.spare_cards(table, plan, 1)[0]] += 1
        return plan

    def spare_cards(self, table: Table, plan: np.ndarray, k: int) -> list[int]:
        """Up to ``k`` cards of my hand not yet in ``plan``, one entry per card: the ranks I
        hold fewest of first (the cards least useful for honest plays later)."""
        spare = table.hand - plan
        order = sorted((r for r in range(NUM_RANKS) if spare[r] > 0), key=lambda r: (spare[r], r))
        picked = []
        for r in order:
            take = min(int(spare[r]), k - len(picked))
            picked.extend([r] * take)
            if len(picked) == k:
                break
        return picked

    # -- responding -----------------------------------------------------------------------

    def respond(self, table: Table):
        """BELIEVE, DISBELIEVE, or PLAY: add a play of :meth:`plan` to the pile (the hand
        holds cards)."""
        if table.claim_impossible():
            return DISBELIEVE
        if table.hand[table.rank]:
            return PLAY
        return self.call(table)

    def call(self, table: Table) -> int:
        """Believe or not, when not adding."""
        return DISBELIEVE if table.claim_impossible() else BELIEVE


@register(GAME, "honest")
class Honest(BelieveItOrNotHeuristic):
    """Truthful always; adds its cards of the round's rank, else believes; says "don't
    believe" to impossible claims only."""


@register(GAME, "counter")
class Counter(BelieveItOrNotHeuristic):
    """Plays like ``honest``. Says "don't believe" to impossible claims and to claims false with
    probability (:meth:`Table.claim_false_probability`) above ``threshold``; with cards of the
    round's rank to add instead, only above ``threshold_holding``, since adding honestly risks
    nothing now. Otherwise adds when it can, and believes when it cannot."""

    threshold = 0.5  # without the rank: "believe" and "don't believe" risk the pile equally here
    threshold_holding = 0.65

    def respond(self, table: Table):
        if table.claim_impossible():
            return DISBELIEVE
        if table.maker_went_out:
            return PLAY if table.hand[table.rank] else BELIEVE
        false = table.claim_false_probability()
        if table.hand[table.rank]:
            return DISBELIEVE if false > self.threshold_holding else PLAY
        return DISBELIEVE if false > self.threshold else BELIEVE

    def call(self, table: Table) -> int:
        if table.claim_impossible():
            return DISBELIEVE
        if table.maker_went_out:
            return BELIEVE
        return DISBELIEVE if table.claim_false_probability() > self.threshold else BELIEVE


@register(GAME, "bluffer")
class Bluffer(BelieveItOrNotHeuristic):
    """Sheds cards: each play holds ``extra`` more cards than its honest part (the ranks it holds
    fewest of), and without the round's rank it still adds a bluff of ``extra`` cards. A play
    that would empty its hand is kept honest (it would be checked), and without an honest part
    such a play is not made: it believes instead. Says "don't believe" only to impossible
    claims and claims false with probability at least ``threshold``."""

    extra = 1
    threshold = 0.9

    def plan(self, table: Table) -> np.ndarray:
        plan = np.zeros(NUM_RANKS, int)
        plan[table.rank] = min(int(table.hand[table.rank]), self.cap)
        room = min(self.extra, self.cap - int(plan.sum()))
        for rank in self.spare_cards(table, plan, room):
            plan[rank] += 1
        if plan.sum() == table.hand.sum() and plan[table.rank] < plan.sum():
            return self.honest_plan(table)  # going out on a bluff: certainly checked
        return plan

    def respond(self, table: Table):
        if table.claim_impossible():
            return DISBELIEVE
        if table.maker_went_out and not table.hand[table.rank]:
            return BELIEVE
        if table.claim_false_probability() >= self.threshold:
            return DISBELIEVE
        plan = self.plan(table)
        if plan[table.rank] == 0 and plan.sum() >= table.hand.sum():
            return BELIEVE  # a bluff with my last cards would be checked
        return PLAY

    def call(self, table: Table) -> int:
        if table.claim_impossible() or (not table.maker_went_out and table.claim_false_probability() >= self.threshold):
            return DISBELIEVE
        return BELIEVE


@register(GAME, "always_challenge")
class AlwaysChallenge(BelieveItOrNotHeuristic):
    """Plays like ``honest`` when leading; answers every play with "don't believe"."""

    def respond(self, table: Table):
        return DISBELIEVE

    def call(self, table: Table) -> int:
        return DISBELIEVE


@register(GAME, "never_challenge")
class NeverChallenge(BelieveItOrNotHeuristic):
    """Plays like ``honest`` but never says "don't believe", not even to an impossible claim
    (a diagnostic: what challenging is worth). It loses to random players, whose plays are
    nearly all bluffs: without the round's rank, or with no cards, it must believe them and
    take the pile."""

    def respond(self, table: Table):
        return PLAY if table.hand[table.rank] else BELIEVE

    def call(self, table: Table) -> int:
        return BELIEVE
