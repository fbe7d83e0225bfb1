"""What each player of I Doubt It knows, kept up to date from the rules' events.

The view never looks at another player's hand: it learns only from public events, from each
player's own actions and from his own hand. That is what makes the observations leak-free.

Speed: all players' observations live in one array, one row each. The public part is kept
once, in absolute seats (``public``), and copied into a player's row, when he is observed,
through a precomputed gather that turns absolute seats into his relative seats.
"""

from __future__ import annotations

import numpy as np

from bluff_envs.cards import NUM_RANKS
from bluff_envs.i_doubt_it.actions import DOUBT_WINDOW, PLAY
from bluff_envs.i_doubt_it.config import IDoubtItConfig
from bluff_envs.i_doubt_it.events import ADDED, CLAIMED, Resolution
from bluff_envs.layout import ObservationLayout

HISTORY = 4  # most recent plays kept in the observation
_PHASES = np.eye(2, dtype=np.float32)  # one-hot rows: play, doubt window
_DISCARD = np.array([[-1.0], [-1.0], [1.0]], np.float32)  # hand, building, my_cards_in_pile
# fields holding seats (one entry per relative seat, 0 = me, 1 = my left, …) within a record
_SEAT_FIELDS = ("hand_sizes", "last_doubts")


def record_size(n: int) -> int:
    return 2 * n + 4  # claimer one-hot, count, doubted, honest, bluff, doubter one-hot


def build_layout(c: IDoubtItConfig) -> ObservationLayout:
    n, copies, size = c.num_players, 4 * c.num_decks, 52 * c.num_decks
    lay = ObservationLayout()
    # private: what only this player knows (hand, building, my_cards_in_pile stay together)
    lay.add("hand", NUM_RANKS, copies, "my cards by rank 2..A")
    lay.add("building", NUM_RANKS, copies, "cards chosen so far for my play, by rank")
    lay.add("my_cards_in_pile", NUM_RANKS, copies, "cards I put into the pile and that are still there")
    lay.add(
        "known_cards",
        (n - 1) * NUM_RANKS,
        copies,
        "for each opponent (relative seats 1..n-1) the cards he certainly holds, by rank: seen "
        "going into his hand (turned up to him, or mine in a pile he took), less any he may have "
        "discarded face down since",
    )
    # public: the same for everybody, seats relative to the viewer
    lay.add("phase", 2, doc="one-hot: play, doubt window")
    lay.add("required_rank", NUM_RANKS, doc="one-hot: the rank the current or next play must name")
    lay.add("claim_rank", NUM_RANKS, doc="one-hot: the rank named by the latest claim (history[0])")
    lay.add("pile_size", 1, size, "cards face down in the pile")
    lay.add("turns", 1, c.max_turns, "completed plays so far")
    lay.add("hand_sizes", n, size, "every player's hand size, by relative seat (0 = me, 1 = my left, …)")
    lay.add("last_doubts", n, doc="who said 'I doubt it' when the last window closed, by relative seat")
    record_scale = np.ones(record_size(n))
    record_scale[n] = size  # the count; the rest are flags and one-hots
    lay.add(
        "history",
        HISTORY * record_size(n),
        np.tile(record_scale, HISTORY),
        f"the last {HISTORY} plays, newest first, each: claimer one-hot by relative seat (n), "
        "count, doubted, honest, bluff, official doubter one-hot by relative seat (n)",
    )
    return lay


def public_gather(lay: ObservationLayout, n: int) -> np.ndarray:
    """For each viewer, where each public entry of his row comes from in the absolute vector."""
    start = lay["phase"].start
    width = lay.size - start
    gather = np.tile(np.arange(width), (n, 1))
    seat_blocks = [lay[name].start - start for name in _SEAT_FIELDS]
    rs = record_size(n)
    for k in range(HISTORY):
        base = lay["history"].start - start + k * rs
        seat_blocks += [base, base + n + 4]  # claimer and doubter one-hots
    for v in range(n):
        for block in seat_blocks:
            gather[v, block : block + n] = block + (v + np.arange(n)) % n
    return gather


class IDoubtItView:
    """Every player's observation of one game, updated by :meth:`record` from the events of
    ``state`` (read only for each player's own hand and the public counts)."""

    def __init__(self, game, state):
        c = game.config
        self.state = state
        self.n = n = c.num_players
        self.copies = 4 * c.num_decks
        self.inv_copies = 1.0 / self.copies
        self.inv_size = 1.0 / (52 * c.num_decks)
        self.inv_turns = 1.0 / c.max_turns
        lay = game.layout
        self.hand_sl, self.building_sl, self.mine_sl = lay["hand"], lay["building"], lay["my_cards_in_pile"]
        self.building0 = lay["building"].start
        # offsets inside the absolute public vector
        p0 = lay["phase"].start
        self.public_sl = slice(p0, lay.size)
        self.phase = lay["phase"].start - p0
        self.phase_sl = slice(self.phase, self.phase + 2)
        self.required = lay["required_rank"].start - p0
        self.claim_rank = lay["claim_rank"].start - p0
        self.pile_size = lay["pile_size"].start - p0
        self.turns = lay["turns"].start - p0
        self.hand_sizes = lay["hand_sizes"].start - p0
        self.doubts = lay["last_doubts"].start - p0
        self.rs = rs = record_size(n)
        self.h0 = h = lay["history"].start - p0
        self.h_shift_to = slice(h + rs, h + HISTORY * rs)
        self.h_shift_from = slice(h, h + (HISTORY - 1) * rs)
        self.gather = public_gather(lay, n)
        self.public = np.zeros(lay.size - p0, np.float32)
        # known_cards of seat p, and the pile shares, in every other viewer's row, as flat
        # indices into the observation array (one fancy index is cheaper than two)
        rows, size, ranks = np.arange(n), lay.size, np.arange(NUM_RANKS)
        self.viewers_of = [rows[rows != p] for p in range(n)]
        self.known_at, self.mine_at = [], []
        for p in range(n):
            viewers = self.viewers_of[p]
            starts = viewers * size + lay["known_cards"].start + ((p - viewers) % n - 1) * NUM_RANKS
            self.known_at.append((starts[:, None] + ranks).ravel())
            self.mine_at.append((viewers[:, None] * size + lay["my_cards_in_pile"].start + ranks).ravel())
        self.known_of = [False] * n  # does anybody know a card of this seat's hand?
        self.claimer_known = None  # the others' knowledge of the claimer's hand before his play
        self.obs = np.zeros((n, lay.size), np.float32)
        self.flat = self.obs.reshape(-1)  # the same memory
        self.rows = list(self.obs)  # and again, row by row
        pub = self.public
        pub[self.phase + PLAY] = 1.0
        pub[self.required + state.required_rank] = 1.0
        for p in range(n):
            self._refresh_hand(p)
        self.version = 0  # of the public vector; rows are refreshed when observed
        self.published = [-1] * n

    def observation(self, player: int) -> np.ndarray:
        row = self.rows[player]
        if self.published[player] != self.version:  # copy the public part in only when looked at
            row[self.public_sl] = self.public[self.gather[player]]
            self.published[player] = self.version
        return row.copy()

    def record(self, events) -> None:
        first = events[0]
        if first[0] == ADDED:  # private to the player building his play: nothing to publish
            self.obs[first[1], self.building0 + first[2]] += self.inv_copies
            return
        for event in events:
            if event[0] == CLAIMED:
                self._claimed(event[1], event[2], event[3])
            else:
                self._resolved(event[1])
        self.version += 1

    # -- events ---------------------------------------------------------------------------

    def _refresh_hand(self, p: int) -> None:
        """A player's own hand: he may always look at it."""
        self.obs[p, self.hand_sl] = [len(h) * self.inv_copies for h in self.state.hands[p]]
        self.public[self.hand_sizes + p] = self.state.hand_sizes[p] * self.inv_size

    def _claimed(self, p: int, count: int, rank: int) -> None:
        pub = self.public
        # the cards just discarded (exactly "building") leave the hand and join my pile share:
        # hand, building and my_cards_in_pile are consecutive, so this is one operation
        trio = self.obs[p, : 3 * NUM_RANKS].reshape(3, NUM_RANKS)
        trio += _DISCARD * trio[1]
        pub[self.hand_sizes + p] = self.state.hand_sizes[p] * self.inv_size
        pub[self.phase_sl] = _PHASES[DOUBT_WINDOW]
        pub[self.claim_rank : self.claim_rank + NUM_RANKS] = 0.0
        pub[self.claim_rank + rank] = 1.0
        pub[self.pile_size] = len(self.state.pile) * self.inv_size
        pub[self.h_shift_to] = pub[self.h_shift_from]
        h = self.h0
        pub[h : h + self.rs] = 0.0
        pub[h + p] = 1.0
        pub[h + self.n] = count * self.inv_size
        # what the others are sure he holds: any `count` of his cards may be the ones discarded
        self.claimer_known = None
        if self.known_of[p]:
            at = self.known_at[p]
            self.claimer_known = known = self.flat[at]
            left = np.maximum(known - count * self.inv_copies, 0.0)
            self.flat[at] = left
            self.known_of[p] = bool(left.any())

    def _resolved(self, res: Resolution) -> None:
        obs, pub, state, n = self.obs, self.public, self.state, self.n
        pub[self.phase_sl] = _PHASES[PLAY]
        pub[self.required : self.required + NUM_RANKS] = 0.0
        pub[self.required + state.required_rank] = 1.0
        pub[self.turns] = state.turns * self.inv_turns
        if res.decisions is not None:
            pub[self.doubts : self.doubts + n] = 0.0
            for seat, doubted in zip(res.deciders, res.decisions):
                if doubted:
                    pub[self.doubts + seat] = 1.0
        if res.revealed is None:
            return
        h = self.h0 + n
        pub[h + 1] = 1.0 if res.doubter is not None else 0.0
        pub[h + 2 + (0 if res.honest else 1)] = 1.0
        if res.doubter is not None:
            pub[h + 4 + res.doubter] = 1.0
        taker = res.taker
        if taker is None:
            return
        # everyone now sees which cards left the discarder's hand, and where the pile went
        revealed = np.array(res.revealed * (n - 1), np.float32) * self.inv_copies
        d, flat = res.claim_player, self.flat
        if self.claimer_known is not None:
            left = np.maximum(self.claimer_known - revealed, 0.0)
            flat[self.known_at[d]] = left
            self.known_of[d] = bool(left.any())
        gained = flat[self.mine_at[taker]] + revealed
        if d != taker:  # the discarder knew his own cards already: they are in his pile share
            k = d if d < taker else d - 1  # his row among the taker's viewers
            gained[k * NUM_RANKS : (k + 1) * NUM_RANKS] -= revealed[:NUM_RANKS]
        flat[self.known_at[taker]] += gained
        self.known_of[taker] = True
        obs[:, self.mine_sl] = 0.0
        pub[self.pile_size] = 0.0
        self._refresh_hand(taker)
