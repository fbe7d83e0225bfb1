"""What each player of Tarneeb knows, and may do, kept up to date from the rules' events.

Everything in Tarneeb is public except the hands: a player sees his own cards and, as they are
played, everybody's. The view learns only from the events and from each player's own hand,
which is what keeps the observations leak-free. All four observations live in one array, one
row each; a public event is one indexed write into that array for all rows at once.

The view also keeps each hand as action masks (whole hand, and each suit), so that the mask of
the player to act is looked up, not built, at every card: the rules say which of them applies
(``state.playable()``).
"""

from __future__ import annotations

import numpy as np

from bluff_envs.layout import ObservationLayout
from bluff_envs.tarneeb.actions import CARD0, PASS, PLAY, num_levels
from bluff_envs.tarneeb.config import MAX_TARGET, TarneebConfig
from bluff_envs.tarneeb.events import CALLED, DEAL_SCORED, DEALT, DOUBLED, PLAYED, TRICK_WON, TRUMP_NAMED
from bluff_envs.tarneeb.rules import NUM_PLAYERS, WHOLE_HAND

N = NUM_PLAYERS
_PHASES = np.eye(4, dtype=np.float32)
_TRICKS = np.eye(7, dtype=np.float32)
_STRAINS = np.eye(5, dtype=np.float32)


def build_layout(c: TarneebConfig) -> ObservationLayout:
    levels = num_levels(c.egyptian)
    ladder = "7 C, 7 D, 7 H, 7 S, 7 NT, 8 C, … 13 NT" if c.egyptian else "7 … 13"
    lay = ObservationLayout()
    lay.add("phase", 4, doc="one-hot: bidding, trump, double, play")
    lay.add("hand", 52, doc="my cards, by card id (2C 2D 2H 2S 3C … AS)")
    lay.add("bids", N * levels, doc=f"by relative seat, every bid he made this deal, multi-hot over the bids {ladder}")
    lay.add(
        "passed",
        N,
        doc="by relative seat: Lebanese, he has passed (and is out of the bidding); Egyptian, his latest call was a pass",
    )
    lay.add("contract_tricks", 7, doc="one-hot 7 … 13: the highest bid so far, the contract once bidding is over")
    lay.add(
        "contract_strain",
        5,
        doc="one-hot C D H S NT: the trump (Lebanese: once named; Egyptian: the strain of the highest bid so far)",
    )
    lay.add("declarer", N, doc="one-hot by relative seat: the highest bidder so far, then the declarer")
    lay.add("doubled", 1, doc="the declarer doubled the contract (Egyptian)")
    lay.add("trick_leader", N, doc="one-hot by relative seat: who led the current trick (zeros between tricks)")
    lay.add("trick", N * 52, doc="by relative seat, the card he played to the current trick")
    lay.add("played", N * 52, doc="by relative seat, every card he played this deal, the current trick included")
    lay.add("shown_out", N * 4, doc="by relative seat, the suits (C D H S) he failed to follow this deal")
    lay.add("tricks_won", 2, 13, "tricks won this deal by my side, by the opponents")
    lay.add(
        "score", 2, c.target_score, "match score of my side, of the opponents, if positive (squashed: v / (v + target))",
        squash=True,
    )
    lay.add(
        "score_deficit", 2, c.target_score,
        "how far below zero each side's match score is (squashed: v / (v + target))", squash=True,
    )
    lay.add("target_score", 1, MAX_TARGET, "the target score of the game")
    lay.add("dealer", N, doc="one-hot by relative seat: the dealer of this deal")
    return lay


class ViewTables:
    """Index tables of the layout, built once per game: for each seat, the flat positions of
    his blocks in every viewer's row (``obs.reshape(-1)``), so that a public event is one write."""

    def __init__(self, game, layout: ObservationLayout):
        c = game.config
        self.size = size = layout.size
        self.o = o = {name: sl.start for name, sl in layout.items()}
        self.sl = dict(layout.items())
        self.num_actions = len(game.action_names)
        viewers = np.arange(N)
        base = viewers * size  # start of each viewer's row in the flat array
        # rel[p][v]: where seat p sits as seen by viewer v (0 = himself, 1 = his left, …)
        rel = [(p - viewers) % N for p in range(N)]

        def per_viewer(p, field, width):
            """Flat index of seat p's block of ``field`` in every viewer's row."""
            return base + o[field] + rel[p] * width

        levels = game.num_levels
        self.bid_idx = [per_viewer(p, "bids", levels) for p in range(N)]
        self.passed_idx = [per_viewer(p, "passed", 1) for p in range(N)]
        self.declarer_idx = [per_viewer(p, "declarer", 1) for p in range(N)]
        self.leader_idx = [per_viewer(p, "trick_leader", 1) for p in range(N)]
        self.shown_idx = [[per_viewer(p, "shown_out", 4) + suit for suit in range(4)] for p in range(N)]
        self.dealer_idx = [per_viewer(p, "dealer", 1) for p in range(N)]
        # playing a card: off the player's own hand (0), into everyone's trick and played (1)
        self.play_idx = [
            [
                np.concatenate(
                    ([p * size + o["hand"] + card], per_viewer(p, "trick", 52) + card, per_viewer(p, "played", 52) + card)
                )
                for card in range(52)
            ]
            for p in range(N)
        ]
        self.play_values = np.array([0.0] + [1.0] * (2 * N), np.float32)
        # dealing: deck position i goes to player i % 4, into his own row only
        self.deal_idx = (np.arange(52) % N) * size + o["hand"]
        # match score, per side: [score mine, theirs, deficit mine, theirs] for each row
        self.score_sl = slice(o["score"], o["score"] + 4)
        assert o["score_deficit"] == o["score"] + 2
        self.score_scale = float(c.target_score)
        self.target_value = c.target_score / MAX_TARGET
        # tricks won this deal, side 0 has a and side 1 has b: the field in every row
        self.tricks_won = [
            [np.array([[a, b], [b, a], [a, b], [b, a]], np.float32) / 13 for b in range(14)] for a in range(14)
        ]
        self.tricks_won_sl = layout["tricks_won"]
        # the current trick and its leader, cleared together between tricks
        assert o["trick"] == o["trick_leader"] + N
        self.trick_sl = slice(o["trick_leader"], o["trick"] + N * 52)


class TarneebView:
    """Every player's observation of one game, and the acting player's mask: :meth:`record`
    the events of each action, :meth:`observation` hands out a copy of one player's row."""

    def __init__(self, game, state):
        t = self.tables = game.view_tables
        self.state = state
        self.game = game
        self.egyptian = game.config.egyptian
        self.obs = np.zeros((N, t.size), np.float32)
        self.flat = self.obs.reshape(-1)  # the same memory, for flat indexed writes
        self.o, self.sl = t.o, t.sl
        self.play_idx, self.play_values = t.play_idx, t.play_values
        self.leader_idx, self.shown_idx = t.leader_idx, t.shown_idx
        # card_masks[p][s]: p's cards of suit s as an action mask; [p][WHOLE_HAND]: all of them
        self.card_masks = np.zeros((N, 5, t.num_actions), np.int8)
        self.mask_rows = [list(rows) for rows in self.card_masks]  # the same memory, row by row
        self.call_masks: dict[tuple[int, ...], np.ndarray] = {}
        self.phase = -1
        self._new_deal()

    def observation(self, player: int) -> np.ndarray:
        return self.obs[player].copy()

    def legal_mask(self) -> np.ndarray:
        """The acting player's legal actions (``state.legal_actions()``) as an int8 mask. The
        array is the view's own and changes with the next event: copy it to keep it."""
        state = self.state
        if state.phase == PLAY:
            return self.mask_rows[state.current_player][state.playable()]
        legal = state.legal_actions()  # one of a few constant tuples outside the play
        mask = self.call_masks.get(legal)
        if mask is None:
            mask = self.call_masks[legal] = np.zeros(self.tables.num_actions, np.int8)
            mask[list(legal)] = 1
        return mask

    def record(self, events) -> None:
        for event in events:
            kind = event[0]
            if kind == PLAYED:  # the hot path, inline
                _, p, card, led, position = event
                flat = self.flat
                flat[self.play_idx[p][card]] = self.play_values
                if position == 0:
                    flat[self.leader_idx[p]] = 1.0
                elif card & 3 != led:
                    flat[self.shown_idx[p][led]] = 1.0
                rows = self.mask_rows[p]
                rows[card & 3][CARD0 + card] = 0
                rows[WHOLE_HAND][CARD0 + card] = 0
            elif kind == TRICK_WON:
                self._trick_won()
            elif kind == CALLED:
                self._called(event[1], event[2])
            elif kind == TRUMP_NAMED:
                self.obs[:, self.sl["contract_strain"]] = _STRAINS[event[2]]
            elif kind == DOUBLED:
                self.obs[:, self.o["doubled"]] = 1.0 if event[2] else 0.0
            elif kind == DEAL_SCORED:
                self._write_scores()
            elif kind == DEALT:
                self._new_deal()
        phase = self.state.phase
        if phase != self.phase:
            self.phase = phase
            self.obs[:, self.sl["phase"]] = _PHASES[phase]

    # -- events ---------------------------------------------------------------------------

    def _new_deal(self) -> None:
        """A fresh deal: each player sees his own new hand; the match score carries over."""
        obs, state, t = self.obs, self.state, self.tables
        obs[:] = 0.0
        dealt = np.asarray(state.dealt)
        self.flat[t.deal_idx + dealt] = 1.0
        masks = self.card_masks
        masks[:] = 0
        owners = np.arange(52) % N
        masks[owners, dealt & 3, CARD0 + dealt] = 1
        masks[owners, WHOLE_HAND, CARD0 + dealt] = 1
        self.flat[t.dealer_idx[state.dealer]] = 1.0
        obs[:, self.o["target_score"]] = t.target_value
        self._write_scores()
        self.phase = state.phase
        obs[:, self.sl["phase"]] = _PHASES[self.phase]

    def _write_scores(self) -> None:
        a, b = self.state.scores
        s = self.tables.score_scale  # squashed, not clipped: every score stays distinct
        row = [v / (v + s) for v in (max(a, 0), max(b, 0), max(-a, 0), max(-b, 0))]
        mirrored = [row[1], row[0], row[3], row[2]]
        self.obs[:, self.tables.score_sl] = (row, mirrored, row, mirrored)  # players 0 and 2 are side 0

    def _called(self, p: int, action: int) -> None:
        flat, t = self.flat, self.tables
        if action == PASS:
            flat[t.passed_idx[p]] = 1.0
            return
        game = self.game
        level = game.level_of(action)
        flat[t.bid_idx[p] + level] = 1.0
        obs = self.obs
        obs[:, self.sl["contract_tricks"]] = _TRICKS[game.bid_tricks(level) - 7]
        obs[:, self.sl["declarer"]] = 0.0
        flat[t.declarer_idx[p]] = 1.0
        if self.egyptian:
            flat[t.passed_idx[p]] = 0.0
            obs[:, self.sl["contract_strain"]] = _STRAINS[game.bid_strain(level)]

    def _trick_won(self) -> None:
        t = self.tables
        obs = self.obs
        obs[:, t.trick_sl] = 0.0
        a, b = self.state.tricks_won
        obs[:, t.tricks_won_sl] = t.tricks_won[a][b]
