"""What each player of Believe It or Not knows, kept up to date from the rules' events.

The view never looks at another player's hand: it learns only from public events, from each
player's own actions and from his own hand. That is what makes the observations leak-free.

Two kinds of storage keep it cheap:

* fields only one player can know and that change with his own actions (his hand, his play
  being built, his cards in the pile, what he knows went out of play) live directly in his row
  of one ``(n × size)`` array;
* everything kept by absolute seat (the public record, and what each viewer knows of each
  opponent's hand) lives in one flat ``source`` vector. A row's tail is a fixed gather from it
  (``source[gather[p]]``: the seats rotated so that the viewer is seat 0), refreshed only when
  that player is observed after a change, so an event costs a few scalar writes whatever the
  number of players.
"""

from __future__ import annotations

import numpy as np

from bluff_envs.believe_it_or_not.actions import ADD0, BUILD, NAME, NAME0, RESPOND
from bluff_envs.believe_it_or_not.config import BelieveItOrNotConfig
from bluff_envs.believe_it_or_not.events import ADDED, NAMED, PLAYED, Call
from bluff_envs.cards import NUM_RANKS
from bluff_envs.layout import ObservationLayout
from bluff_envs.symmetry import Relabelling

HISTORY = 4  # most recent calls kept in the observation
_RANK_ONE_HOT = np.eye(NUM_RANKS, dtype=np.float32)

# Public fields with one entry per seat, shown relative to the viewer (and so are the caller,
# maker and taker one-hots of each record in "calls").
_PER_SEAT = ("pile_by_player", "last_play_by", "hand_sizes", "out", "empty_handed")

# With the option ``call_record``: each player's record of calls over the whole game, one
# field per count, by relative seat, appended after every other field (a policy trained
# without them reads the observation's first ``size`` entries, unchanged). The last calls
# above forget; these counts do not. In this order: his plays a call turned up and found
# honest, found false; the Believe and the Don't believe calls he made.
RECORD_FIELDS = ("plays_found_honest", "plays_found_false", "believe_calls", "disbelieve_calls")
RECORD_SCALE = 4.0  # squashed: a count v is stored as v / (v + 4)


# the fields indexed by rank (known_cards: one block per opponent); nothing else names a rank,
# so relabelling the ranks (bluff_envs.symmetry) moves these and only these
RANK_FIELDS = ("hand", "building", "my_cards_in_pile", "out_of_play_known", "known_cards", "round_rank",
               "last_revealed")


def rank_symmetry(layout: ObservationLayout, ranks, num_actions: int) -> Relabelling:
    """The relabellings of the deck's ``ranks``: the game is the same game under any of them."""
    blocks = [start for name in RANK_FIELDS
              for start in range(layout[name].start, layout[name].stop, NUM_RANKS)]
    return Relabelling(ranks, NUM_RANKS, blocks, layout.size, (NAME0, ADD0), num_actions)


def build_layout(c: BelieveItOrNotConfig) -> ObservationLayout:
    n, copies, size = c.num_players, 4 * c.num_decks, c.deck * c.num_decks
    cap = min(c.max_cards_per_play or size, size)
    lay = ObservationLayout()
    # private to the viewer, kept in his row
    lay.add("hand", NUM_RANKS, copies, "my cards by rank 2..A")
    lay.add("building", NUM_RANKS, copies, "cards chosen so far for my play, by rank")
    lay.add("my_cards_in_pile", NUM_RANKS, copies, "cards I put into this round's pile, by rank")
    lay.add(
        "out_of_play_known",
        NUM_RANKS,
        copies,
        "cards known to be out of play, by rank: turned up or mine in a pile that went out, and "
        "complete sets put out face up",
    )
    # gathered from the source vector
    lay.add(
        "known_cards",
        (n - 1) * NUM_RANKS,
        copies,
        "for each opponent (relative seats 1..n-1) the cards he certainly holds, by rank: seen "
        "going into his hand (turned up to him, or mine in a pile he took), less any he may have "
        "played face down since",
    )
    lay.add("phase", 3, doc="one-hot: name (lead: name the rank), build (adding cards), respond")
    lay.add("round_rank", NUM_RANKS, doc="one-hot: the rank named for this round (all zero until named)")
    lay.add("pile_size", 1, size, "cards face down in the middle this round")
    lay.add("pile_by_player", n, size, "cards each player put into this round's pile, by relative seat")
    lay.add("last_play_size", 1, cap, "cards in the most recent play, the one a call turns up")
    lay.add("last_play_by", n, doc="one-hot: who made the most recent play, by relative seat")
    lay.add("out_of_play_size", 1, size, "cards out of play (piles nobody took, complete sets)")
    lay.add("hand_sizes", n, size, "every player's hand size, by relative seat (0 = me, 1 = my left, …)")
    lay.add("out", n, doc="players who have left the game, by relative seat")
    lay.add("empty_handed", n, doc="players still in with no cards (they can only believe or not)")
    lay.add("last_revealed", NUM_RANKS, copies, "the cards turned up by the last call, by rank")
    lay.add(
        "calls",
        HISTORY * (3 * n + 4),
        doc=f"the last {HISTORY} calls, newest first, each: caller one-hot (n), believe, disbelieve, "
        "honest, false, maker one-hot (n), taker one-hot (n; all zero: out of play); by relative seat",
    )
    lay.add("call_counts", HISTORY, cap, "cards turned up by each of those calls")
    lay.add("call_piles", HISTORY, size, "pile size at each of those calls")
    lay.add("turns", 1, c.max_turns, "completed plays so far")
    if c.call_record:
        what = ("plays a call turned up and found honest", "plays a call turned up and found false",
                "Believe calls he made", "Don't believe calls he made")
        for name, doc in zip(RECORD_FIELDS, what):
            lay.add(name, n, RECORD_SCALE, f"each player's {doc} this game, by relative seat "
                    f"(squashed: v / (v + {RECORD_SCALE:g}))", squash=True)
    return lay


class Encoding:
    """What every view of one game shares, worked out once per game: where each field lives
    in a row and in the source, the gather indices, and constant operands."""

    def __init__(self, game):
        c = game.config
        self.n = n = c.num_players
        lay = game.layout
        size = game.deck.size
        self.inv_size = 1.0 / size
        self.inv_cap = 1.0 / min(game.cap, size)
        self.inv_turns = 1.0 / c.max_turns
        self.inv_copies = 1.0 / game.copies
        self.row_size = lay.size
        self.tail_start = lay["known_cards"].start
        # the source: the public record by absolute seat (laid out as the tail of a row from
        # "phase" on, except that the calls are a ring of records, see _gathers), then
        # knowledge[seat, viewer, rank]: what each viewer knows of that seat's hand
        start = lay["phase"].start
        self.public_size = public = lay.size - start
        self.source_size = public + n * n * NUM_RANKS
        self.p = {name: sl.start - start for name, sl in lay.items() if sl.start >= start}
        self.record_size = 3 * n + 6  # a ring record: caller (n), 4 flags, maker (n), taker (n), count, pile
        self.gathers = [list(rows) for rows in self._gathers(lay, n, public)]
        # numpy ops with Python float operands are slow: keep every operand a float32 array
        self.zeros = np.zeros((n, NUM_RANKS), np.float32)
        self.per_card = [np.full((n, NUM_RANKS), k / game.copies, np.float32) for k in range(game.cap + 1)]
        for array in (self.zeros, *self.per_card):
            array.flags.writeable = False  # shared by every view of the game

    def _gathers(self, lay: ObservationLayout, n: int, public: int) -> np.ndarray:
        """gathers[head][v]: for each entry of viewer v's tail, its index in the source, when the
        newest call is in ring slot ``head``."""
        rs, ring = self.record_size, self.p["calls"]
        out = []
        for head in range(HISTORY):
            rows = []
            for v in range(n):
                seat_of = [(v + j) % n for j in range(n)]  # the seat viewer v calls j
                known = [public + (s * n + v) * NUM_RANKS + r for s in seat_of[1:] for r in range(NUM_RANKS)]
                record = list(range(public))  # the public record, seats still absolute
                for name in _PER_SEAT + RECORD_FIELDS:
                    if name not in self.p:
                        continue
                    at = self.p[name]
                    record[at : at + n] = [at + s for s in seat_of]
                for i in range(HISTORY):  # i = 0: the newest call
                    slot = ring + ((head - i) % HISTORY) * rs
                    at = ring + i * (3 * n + 4)
                    record[at : at + 3 * n + 4] = (
                        [slot + s for s in seat_of]
                        + [slot + n + f for f in range(4)]
                        + [slot + n + 4 + s for s in seat_of]
                        + [slot + 2 * n + 4 + s for s in seat_of]
                    )
                    record[self.p["call_counts"] + i] = slot + 3 * n + 4
                    record[self.p["call_piles"] + i] = slot + 3 * n + 5
                rows.append(known + record)
            out.append(rows)
        return np.array(out, np.intp)


class BelieveItOrNotView:
    """Every player's observation of one game, updated by :meth:`record` from the events of
    ``state`` (read only for each player's own hand and the public counts)."""

    def __init__(self, game, state):
        self.state = state
        self.enc = enc = game.encoding
        self.n = n = enc.n
        self.inv_size, self.inv_cap, self.inv_turns = enc.inv_size, enc.inv_cap, enc.inv_turns
        self.inv_copies = enc.inv_copies
        lay = game.layout
        self.obs = obs = np.zeros((n, lay.size), np.float32)
        # views into each player's row, made once
        self.rows = list(obs)
        self.hand_row = [obs[v, lay["hand"]] for v in range(n)]
        self.building_row = [obs[v, lay["building"]] for v in range(n)]
        self.mine_row = [obs[v, lay["my_cards_in_pile"]] for v in range(n)]
        self.tail_row = [obs[v, enc.tail_start :] for v in range(n)]
        self.mine_all = obs[:, lay["my_cards_in_pile"]]
        self.out_known_all = obs[:, lay["out_of_play_known"]]

        self.source = np.zeros(enc.source_size, np.float32)
        self.public = self.source[: enc.public_size]
        self.known_of = list(self.source[enc.public_size :].reshape(n, n, NUM_RANKS))  # [seat][viewer, rank]
        self.p = p = enc.p
        self.gathers = enc.gathers
        self.head = 0  # the ring slot of the newest call
        self.gather = self.gathers[0]
        self.phase_at, self.rank_at, self.by_at = p["phase"], p["round_rank"], p["last_play_by"]
        self.hand_sizes_at, self.empty_at = p["hand_sizes"], p["empty_handed"]
        self.pile_by_at, self.out_at = p["pile_by_player"], p["out"]
        self.pile_size_at, self.last_size_at, self.turns_at = p["pile_size"], p["last_play_size"], p["turns"]
        self.pile_by = self.public[self.pile_by_at : self.pile_by_at + n]
        self.revealed_at = p["last_revealed"]
        self.record_size = enc.record_size
        self.zeros, self.per_card = enc.zeros, enc.per_card

        self.maker_known = None  # the others' knowledge of the maker's hand before his play
        self.last_play = None  # the most recent play, by rank (scaled): what a call turns up
        self.last_by = None
        self.version = 0  # bumped by every change to the source
        self.seen = [-1] * n  # the version each row's tail was last gathered at

        self.phase = NAME
        self.public[self.phase_at + NAME] = 1.0
        self.building_counts = [[0] * NUM_RANKS for _ in range(n)]  # the play being built
        # with call_record: the counts of RECORD_FIELDS, [field][seat], and where each field starts
        self.record_at = [p[name] for name in RECORD_FIELDS] if RECORD_FIELDS[0] in p else None
        self.record_counts = [[0] * n for _ in RECORD_FIELDS]
        for seat in range(n):
            self._refresh_hand(seat)

    def observation(self, player: int) -> np.ndarray:
        if self.seen[player] != self.version:
            self.tail_row[player][:] = self.source[self.gather[player]]
            self.seen[player] = self.version
        return self.rows[player].copy()

    def record(self, events) -> None:
        for event in events:  # the rules send one event per action
            kind = event[0]
            if kind == ADDED:
                seat, r = event[1], event[2]
                chosen = self.building_counts[seat]
                chosen[r] += 1
                self.building_row[seat][r] = chosen[r] * self.inv_copies
                if self.phase != BUILD:  # a responder started his play
                    self._set_phase(BUILD)
            elif kind == NAMED:
                self.public[self.rank_at + event[2]] = 1.0
                self._set_phase(BUILD)
            elif kind == PLAYED:
                self._played(event[1], event[2])
            else:
                self._called(event[1])

    # -- events ---------------------------------------------------------------------------

    def _set_phase(self, phase: int) -> None:
        self.public[self.phase_at + self.phase] = 0.0
        self.public[self.phase_at + phase] = 1.0
        self.phase = phase
        self.version += 1

    def _refresh_hand(self, seat: int) -> None:
        """A player's own hand: he may always look at it."""
        state, inv = self.state, self.inv_copies
        self.hand_row[seat][:] = [len(h) * inv for h in state.hands[seat]]
        size = state.hand_sizes[seat]
        self.public[self.hand_sizes_at + seat] = size * self.inv_size
        self.public[self.empty_at + seat] = 1.0 if size == 0 and state.in_game[seat] else 0.0
        self.version += 1

    def _played(self, seat: int, count: int) -> None:
        public, state = self.public, self.state
        hand, building, mine = self.hand_row[seat], self.building_row[seat], self.mine_row[seat]
        np.subtract(hand, building, out=hand)  # building holds exactly the cards just played
        np.add(mine, building, out=mine)
        self.last_play = building.copy()
        building.fill(0.0)
        self.building_counts[seat] = [0] * NUM_RANKS
        size = state.hand_sizes[seat]
        public[self.hand_sizes_at + seat] = size * self.inv_size
        if size == 0:
            public[self.empty_at + seat] = 1.0
        public[self.pile_by_at + seat] = state.pile_by_player[seat] * self.inv_size
        public[self.pile_size_at] = len(state.pile) * self.inv_size
        public[self.last_size_at] = count * self.inv_cap
        if self.last_by is not None:
            public[self.by_at + self.last_by] = 0.0
        public[self.by_at + seat] = 1.0
        self.last_by = seat
        public[self.turns_at] = state.turns * self.inv_turns
        public[self.phase_at + BUILD] = 0.0
        public[self.phase_at + RESPOND] = 1.0
        self.phase = RESPOND
        # what the others are sure he holds: any `count` of his cards may be the ones played
        known = self.known_of[seat]
        self.maker_known = known.copy()
        np.subtract(known, self.per_card[count], out=known)
        np.maximum(known, self.zeros, out=known)
        self.version += 1

    def _called(self, call: Call) -> None:
        public, state = self.public, self.state
        # the call turns up the most recent play: the maker's own record of it is now public
        revealed = self.last_play
        maker, taker = call.maker, call.taker
        # now everyone knows which cards left the maker's hand
        np.subtract(self.maker_known, revealed, out=self.maker_known)
        np.maximum(self.maker_known, self.zeros, out=self.known_of[maker])
        # each viewer learns where his own cards in the pile and the cards turned up went
        mine = self.mine_all
        gained = mine + revealed
        gained[maker] = mine[maker]  # the maker's share of the pile already holds them
        if taker is None:
            np.add(self.out_known_all, gained, out=self.out_known_all)
        else:
            known = self.known_of[taker]
            np.add(known, gained, out=known)
            known[taker] = 0.0  # nobody keeps knowledge of himself here
            for r in call.quads:  # complete sets, face up: every copy is out of play
                known[:, r] = 0.0
                self.out_known_all[:, r] = 1.0
            self._refresh_hand(taker)
        mine.fill(0.0)
        public[self.revealed_at : self.revealed_at + NUM_RANKS] = revealed
        public[self.pile_size_at] = 0.0
        self.pile_by.fill(0.0)
        public[self.last_size_at] = 0.0
        public[self.by_at + self.last_by] = 0.0
        self.last_by = None
        public[self.rank_at + call.rank] = 0.0
        public[self.p["out_of_play_size"]] = (len(state.out_of_play) + len(state.quads)) * self.inv_size
        for seat in call.left:
            public[self.out_at + seat] = 1.0
            public[self.empty_at + seat] = 0.0
        public[self.phase_at + RESPOND] = 0.0
        public[self.phase_at + NAME] = 1.0
        self.phase = NAME
        self._record_call(call)
        self.version += 1

    def _record_call(self, call: Call) -> None:
        """Write the call into the next ring slot, which becomes the newest."""
        n, public = self.n, self.public
        self.head = head = (self.head + 1) % HISTORY
        self.gather = self.gathers[head]
        at = self.p["calls"] + head * self.record_size
        public[at : at + self.record_size] = 0.0
        public[at + call.caller] = 1.0
        public[at + n + (0 if call.believed else 1)] = 1.0
        public[at + n + (2 if call.honest else 3)] = 1.0
        public[at + n + 4 + call.maker] = 1.0
        if call.taker is not None:
            public[at + 2 * n + 4 + call.taker] = 1.0
        public[at + 3 * n + 4] = call.count * self.inv_cap
        public[at + 3 * n + 5] = call.pile_size * self.inv_size
        if self.record_at is not None:
            for field, seat in ((0 if call.honest else 1, call.maker), (2 if call.believed else 3, call.caller)):
                counts = self.record_counts[field]
                counts[seat] += 1
                public[self.record_at[field] + seat] = counts[seat] / (counts[seat] + RECORD_SCALE)
