"""What each player of Seven Spades knows, kept up to date from the rules' events.

The view never looks at the stock or at another player's face-down cards: it learns only from
public events (discards, row lengths, challenges and the cards they turn up) and from each
player's own draws and claims. That is what makes the observations leak-free.

Speed: the private fields (``drawn``, ``my_row``) are written straight into each player's row
of one ``(n, size)`` array. The public fields are kept once, in absolute seat order, in one
vector; a player's row copies them in (rotated to his relative seats, one ``take``) only when
he is observed after a public change. So an event costs a few scalar writes, whoever sees it.
"""

from __future__ import annotations

import numpy as np

from bluff_envs.cards import SPADES
from bluff_envs.layout import ObservationLayout
from bluff_envs.seven_spades.config import SevenSpadesConfig
from bluff_envs.seven_spades.events import CLAIMED, DISCARDED, DREW, FINAL, Resolution

HISTORY = 4  # most recent challenge windows kept in the observation
NUM_CARDS = 52
PRIVATE_FIELDS = ("drawn", "my_row")  # everything after them is public


def build_layout(c: SevenSpadesConfig) -> ObservationLayout:
    n, decks, target = c.num_players, c.num_decks, c.target
    lay = ObservationLayout()
    lay.add("drawn", NUM_CARDS, doc="one-hot by card id (rank*4+suit): the card I drew and still hold")
    lay.add("my_row", NUM_CARDS, decks, "my face-down cards by card id (claimed by me, known only to me)")
    lay.add("phase", 2, doc="one-hot: play (the drawer decides), challenge window")
    lay.add("claimer", n, doc="the claim under challenge: claimer one-hot by relative seat (0 = me, 1 = my left, …)")
    lay.add("row_lengths", n, target, "cards in each row, by relative seat (0 for players who are out)")
    lay.add("face_up_spades", n, target, "spades lying face up in each row, by relative seat")
    lay.add("in_game", n, doc="1 for each player still in, by relative seat")
    lay.add(
        "seen",
        NUM_CARDS,
        decks,
        "every card turned face up so far, by card id: discarded, turned up by a challenge, or "
        "played as the final spade",
    )
    lay.add("discard_spades", 1, 13 * decks, "spades on the discard pile")
    lay.add("discard_others", 1, 39 * decks, "cards other than spades on the discard pile")
    lay.add("stock", 1, NUM_CARDS * decks, "cards left in the stock")
    lay.add("turns", 1, c.max_turns, "completed turns (one draw each)")
    lay.add(
        "history",
        HISTORY * (3 * n + 2),
        doc=f"the last {HISTORY} challenge windows, newest first, each: claimer one-hot (n), "
        "challengers (n), official challenger one-hot (n), turned up a spade, turned up a "
        "non-spade (both zero: nobody challenged) — seats relative",
    )
    return lay


class ViewTables:
    """What every view of one game shares: offsets, seat rotations, the opening public vector."""

    def __init__(self, c: SevenSpadesConfig, lay: ObservationLayout):
        n = c.num_players
        self.n = n
        self.size = lay.size
        self.inv_decks = 1.0 / c.num_decks
        self.inv_target = 1.0 / c.target
        self.inv_spades = 1.0 / (13 * c.num_decks)
        self.inv_others = 1.0 / (39 * c.num_decks)
        self.inv_size = 1.0 / (NUM_CARDS * c.num_decks)
        self.inv_turns = 1.0 / c.max_turns
        self.public_start = p0 = lay["phase"].start
        self.public_sl = slice(p0, lay.size)
        # offsets inside the public vector
        o = {name: sl.start - p0 for name, sl in lay.items() if name not in PRIVATE_FIELDS}
        self.phase, self.claimer, self.seen = o["phase"], o["claimer"], o["seen"]
        self.row_lengths, self.face_up_spades, self.in_game = o["row_lengths"], o["face_up_spades"], o["in_game"]
        self.discard_spades, self.discard_others = o["discard_spades"], o["discard_others"]
        self.stock, self.turns = o["stock"], o["turns"]
        self.drawn0, self.my_row0 = lay["drawn"].start, lay["my_row"].start
        self.my_row_sl = lay["my_row"]
        self.record_size = rs = 3 * n + 2
        self.h0 = h = o["history"]
        self.h_shift_to = slice(h + rs, h + HISTORY * rs)
        self.h_shift_from = slice(h, h + (HISTORY - 1) * rs)
        self.h_newest = slice(h, h + rs)
        # rotation[v]: viewer v's public row, as positions in the absolute public vector
        seat_blocks = [o["claimer"], o["row_lengths"], o["face_up_spades"], o["in_game"]]
        seat_blocks += [h + k * rs + j * n for k in range(HISTORY) for j in range(3)]
        self.rotation = np.tile(np.arange(lay.size - p0), (n, 1))
        for v in range(n):
            for start in seat_blocks:
                self.rotation[v, start : start + n] = start + (v + np.arange(n)) % n
        self.rotations = list(self.rotation)  # one row per viewer, ready to index
        public = np.zeros(lay.size - p0, np.float32)
        public[o["phase"]] = 1.0
        public[o["in_game"] : o["in_game"] + n] = 1.0
        public[o["stock"]] = (NUM_CARDS * c.num_decks - 1) * self.inv_size  # player 0 has drawn
        self.opening_public = public


class SevenSpadesView:
    """Every player's observation of one game: :meth:`record` the events of each action,
    :meth:`observation` hands out a copy of one player's row."""

    def __init__(self, game, state):
        t = game.view_tables
        self.t = t
        self.state = state
        self.public = t.opening_public.copy()
        self.version = 0  # bumped on every public change
        self.row_version = [-1] * t.n  # the public version each player's row holds
        self.obs = np.zeros((t.n, t.size), np.float32)
        self.obs[state.current_player, t.drawn0 + state.drawn] = 1.0

    def observation(self, player: int) -> np.ndarray:
        row = self.obs[player]
        if self.row_version[player] != self.version:
            t = self.t
            self.public.take(t.rotations[player], out=row[t.public_sl])
            self.row_version[player] = self.version
        return row.copy()

    def record(self, events) -> None:
        t, obs, public = self.t, self.obs, self.public
        for event in events:
            kind = event[0]
            if kind == DREW:
                obs[event[1], t.drawn0 + event[2]] = 1.0
                state = self.state
                public[t.stock] = state.stock_size * t.inv_size
                public[t.turns] = state.turns * t.inv_turns
            elif kind == DISCARDED:
                card = event[2]
                obs[event[1], t.drawn0 + card] = 0.0
                public[t.seen + card] += t.inv_decks
                if card & 3 == SPADES:
                    public[t.discard_spades] += t.inv_spades
                else:
                    public[t.discard_others] += t.inv_others
            elif kind == CLAIMED:
                p, card = event[1], event[2]
                obs[p, t.drawn0 + card] = 0.0
                obs[p, t.my_row0 + card] += t.inv_decks
                public[t.row_lengths + p] = self.state.row_length[p] * t.inv_target
                public[t.phase] = 0.0
                public[t.phase + 1] = 1.0
                public[t.claimer + p] = 1.0
            elif kind == FINAL:
                p, card = event[1], event[2]
                obs[p, t.drawn0 + card] = 0.0
                public[t.seen + card] += t.inv_decks
                public[t.row_lengths + p] = self.state.row_length[p] * t.inv_target
                public[t.face_up_spades + p] = len(self.state.face_up[p]) * t.inv_target
            else:
                self._resolved(event[1])
        if self.state.is_over:  # no draw followed, but the turn count moved on
            public[t.turns] = self.state.turns * t.inv_turns
        self.version += 1

    def _resolved(self, res: Resolution) -> None:
        t, public = self.t, self.public
        claimer = res.claimer
        public[t.phase] = 1.0
        public[t.phase + 1] = 0.0
        public[t.claimer + claimer] = 0.0
        public[t.h_shift_to] = public[t.h_shift_from]
        public[t.h_newest] = 0.0
        h, n = t.h0, t.n
        public[h + claimer] = 1.0
        challenger = res.challenger
        if challenger is None:
            return
        for seat, challenged in zip(res.deciders, res.decisions):
            if challenged:
                public[h + n + seat] = 1.0
        public[h + 2 * n + challenger] = 1.0
        public[h + 3 * n + (0 if res.spade else 1)] = 1.0
        card = res.card
        public[t.seen + card] += t.inv_decks
        if res.spade:  # face up now: public, no longer the claimer's secret
            self.obs[claimer, t.my_row0 + card] -= t.inv_decks
            public[t.face_up_spades + claimer] = len(self.state.face_up[claimer]) * t.inv_target
        out = res.out
        public[t.in_game + out] = 0.0
        public[t.row_lengths + out] = 0.0
        public[t.face_up_spades + out] = 0.0
        self.obs[out, t.my_row_sl] = 0.0
