"""What each player of I Doubt It knows, kept up to date from the rules' events.

The view never looks at another player's hand: it learns only from public events, from each
player's own actions and from his own hand. That is what makes the observations leak-free.
All players' observations live in one array, one row each, so that a public event is one
array operation for everybody.
"""

from __future__ import annotations

import numpy as np

from bluff_envs.cards import NUM_RANKS
from bluff_envs.i_doubt_it.config import IDoubtItConfig
from bluff_envs.i_doubt_it.rules import ADDED, CLAIMED, DOUBT_WINDOW, PLAY, Resolution
from bluff_envs.layout import ObservationLayout

HISTORY = 4  # most recent plays kept in the observation
_PHASES = np.eye(2, dtype=np.float32)
_RANK_ONE_HOT = np.eye(NUM_RANKS, dtype=np.float32)


def build_layout(c: IDoubtItConfig) -> ObservationLayout:
    n, copies, size = c.num_players, 4 * c.num_decks, 52 * c.num_decks
    lay = ObservationLayout()
    lay.add("phase", 2, doc="one-hot: play, doubt window")
    lay.add("hand", NUM_RANKS, copies, "my cards by rank 2..A")
    lay.add("building", NUM_RANKS, copies, "cards chosen so far for my play, by rank")
    lay.add("required_rank", NUM_RANKS, doc="one-hot: the rank the current or next play must name")
    lay.add("claim_rank", NUM_RANKS, doc="one-hot: the rank named by the latest claim (history[0])")
    lay.add("pile_size", 1, size, "cards face down in the pile")
    lay.add("my_cards_in_pile", NUM_RANKS, copies, "cards I put into the pile and that are still there")
    lay.add("hand_sizes", n, size, "every player's hand size, by relative seat (0 = me, 1 = my left, …)")
    lay.add(
        "known_cards",
        (n - 1) * NUM_RANKS,
        copies,
        "for each opponent (relative seats 1..n-1) the cards he certainly holds, by rank: seen "
        "going into his hand (turned up to him, or mine in a pile he took), less any he may have "
        "discarded face down since",
    )
    lay.add("last_doubts", n, doc="who said 'I doubt it' when the last window closed, by relative seat")
    record_scale = np.ones(2 * n + 4)
    record_scale[n] = size  # the count; the rest are flags and one-hots
    lay.add(
        "history",
        HISTORY * (2 * n + 4),
        np.tile(record_scale, HISTORY),
        f"the last {HISTORY} plays, newest first, each: claimer one-hot by relative seat (n), "
        "count, doubted, honest, bluff, official doubter one-hot (n); only the count is scaled",
    )
    lay.add("turns", 1, c.max_turns, "completed plays so far")
    return lay


class IDoubtItView:
    def __init__(self, game, state):
        c = game.config
        self.state = state
        self.n = n = c.num_players
        self.copies = 4 * c.num_decks
        self.inv_copies = 1.0 / self.copies
        self.inv_size = 1.0 / (52 * c.num_decks)
        self.inv_turns = 1.0 / c.max_turns
        lay = game.layout
        self.o = o = {name: sl.start for name, sl in lay.items()}
        self.phase_sl, self.hand_sl, self.building_sl = lay["phase"], lay["hand"], lay["building"]
        self.required_sl, self.claim_rank_sl = lay["required_rank"], lay["claim_rank"]
        self.mine_sl, self.known_sl, self.doubts_sl = lay["my_cards_in_pile"], lay["known_cards"], lay["last_doubts"]
        self.rows = rows = np.arange(n)
        # rel[p][v]: where seat p sits as seen by viewer v
        self.rel = [(p - rows) % n for p in range(n)]
        self.hand_size_cols = [o["hand_sizes"] + r for r in self.rel]
        # history: the newest record starts at h0; its claimer one-hot per claimer, ready to copy
        self.record_size = rs = 2 * n + 4
        self.h0 = h = lay["history"].start
        self.h_shift_to = slice(h + rs, h + HISTORY * rs)
        self.h_shift_from = slice(h, h + (HISTORY - 1) * rs)
        self.h_newest = slice(h, h + rs)
        self.records = []
        for p in range(n):
            record = np.zeros((n, rs), np.float32)
            record[rows, self.rel[p]] = 1.0
            self.records.append(record)
        # known_cards of seat p in every other viewer's row: rows and (rows x ranks) columns
        self.viewers_of = [np.array([v for v in range(n) if v != p]) for p in range(n)]
        self.known_cols = []
        for p in range(n):
            viewers = self.viewers_of[p]
            starts = o["known_cards"] + (self.rel[p][viewers] - 1) * NUM_RANKS
            self.known_cols.append(starts[:, None] + np.arange(NUM_RANKS)[None, :])
        self.claimer_known = None  # the others' knowledge of the claimer's hand before his play
        self.obs = obs = np.zeros((n, lay.size), np.float32)
        obs[:, self.phase_sl] = _PHASES[PLAY]
        obs[:, self.required_sl] = _RANK_ONE_HOT[state.required_rank]
        for p in range(n):
            self._refresh_hand(p)

    def observation(self, player: int) -> np.ndarray:
        return self.obs[player].copy()

    def record(self, events) -> None:
        for event in events:
            kind = event[0]
            if kind == ADDED:
                self.obs[event[1], self.o["building"] + event[2]] += self.inv_copies
            elif kind == CLAIMED:
                self._claimed(event[1], event[2], event[3])
            else:
                self._resolved(event[1])

    # -- events ---------------------------------------------------------------------------

    def _refresh_hand(self, p: int) -> None:
        """A player's own hand: he may always look at it."""
        self.obs[p, self.hand_sl] = [len(h) * self.inv_copies for h in self.state.hands[p]]
        self.obs[self.rows, self.hand_size_cols[p]] = self.state.hand_sizes[p] * self.inv_size

    def _claimed(self, p: int, count: int, rank: int) -> None:
        obs = self.obs
        mine = obs[p]
        building = mine[self.building_sl]  # exactly the cards just discarded
        mine[self.hand_sl] -= building
        mine[self.mine_sl] += building
        building[:] = 0.0
        obs[self.rows, self.hand_size_cols[p]] = self.state.hand_sizes[p] * self.inv_size
        obs[:, self.phase_sl] = _PHASES[DOUBT_WINDOW]
        obs[:, self.claim_rank_sl] = _RANK_ONE_HOT[rank]
        obs[:, self.o["pile_size"]] = len(self.state.pile) * self.inv_size
        # what the others are sure he holds: any `count` of his cards may be the ones discarded
        viewers, cols = self.viewers_of[p], self.known_cols[p]
        known = obs[viewers[:, None], cols]
        if known.any():
            self.claimer_known = known
            obs[viewers[:, None], cols] = np.maximum(known - count * self.inv_copies, 0.0)
        else:
            self.claimer_known = None
        obs[:, self.h_shift_to] = obs[:, self.h_shift_from]
        obs[:, self.h_newest] = self.records[p]
        obs[:, self.h0 + self.n] = count * self.inv_size

    def _resolved(self, res: Resolution) -> None:
        obs, rows, n, state = self.obs, self.rows, self.n, self.state
        obs[:, self.phase_sl] = _PHASES[PLAY]
        obs[:, self.required_sl] = _RANK_ONE_HOT[state.required_rank]
        obs[:, self.o["turns"]] = state.turns * self.inv_turns
        if res.decisions is not None:
            obs[:, self.doubts_sl] = 0.0
            for seat, doubted in zip(res.deciders, res.decisions):
                if doubted:
                    obs[rows, self.o["last_doubts"] + self.rel[seat]] = 1.0
        if res.revealed is None:
            return
        h = self.h0 + n
        obs[:, h + 1] = 1.0 if res.doubter is not None else 0.0
        obs[:, h + 2 + (0 if res.honest else 1)] = 1.0
        if res.doubter is not None:
            obs[rows, h + 4 + self.rel[res.doubter]] = 1.0
        taker = res.taker
        if taker is None:
            return
        # everyone now sees which cards left the discarder's hand, and where the pile went
        revealed = np.asarray(res.revealed, np.float32) * self.inv_copies
        d = res.claim_player
        if self.claimer_known is not None:
            viewers = self.viewers_of[d]
            obs[viewers[:, None], self.known_cols[d]] = np.maximum(self.claimer_known - revealed, 0.0)
        viewers = self.viewers_of[taker]
        gained = obs[viewers, self.mine_sl] + revealed
        if d != taker:  # the discarder knew his own cards already: they are in his pile share
            gained[viewers == d] -= revealed
        obs[viewers[:, None], self.known_cols[taker]] += gained
        obs[:, self.mine_sl] = 0.0
        obs[:, self.o["pile_size"]] = 0.0
        self._refresh_hand(taker)
