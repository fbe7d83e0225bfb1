"""Seven Spades (Johan Wästlund, 2002): race to a row of spades, claiming and challenging.

Rules: ``docs/rules.md`` §3. Players ``player_0 … player_{n-1}`` act in index order; player 0
draws first. Drawing is part of the environment's transition: whenever a turn ends, the next
player still in draws the top card of the stock at once (only he sees it) and is asked what to
do with it. If the stock is empty when a player must draw, the game is a draw.

Options (keyword arguments of ``env`` / ``raw_env``)
-----------------------------------------------------
{options table}

More than five players per deck is a ``ValueError`` (docs/rules.md §3.1): the default is the fewest
decks that avoid it.

Actions (``Discrete(5)``, the same for every agent)
---------------------------------------------------
======  ===============  ====================================================================
action  name             meaning
======  ===============  ====================================================================
0       discard          put the drawn card face up on the discard pile (always legal in play)
1       claim            claim the drawn card is a spade: face down at the end of my row; the
                         challenge window follows. Legal while my row holds fewer than
                         target−1 cards.
2       claim face up    the final spade: legal only when my row holds target−1 cards and the
                         drawn card really is a spade; it goes face up and I win at once. At
                         target−1 a face-down claim is not allowed (docs/rules.md §3.6: "he may
                         only claim a card that really is a spade, and he puts it face up"), so
                         with any other card only "discard" is legal.
3       challenge        in the challenge window: challenge the claim
4       pass             in the challenge window: let the claim stand
======  ===============  ====================================================================

After a face-down claim every other player still in is asked in turn, from the claimer's left;
nobody sees the others' decisions until the window closes (then they are all public). The
official challenger is the one nearest to the claimer's left. The card is turned up: not a
spade, the claimer is out; a spade, the official challenger is out and the spade stays face up
in the claimer's row, counting. A player who is out loses his row (it leaves the game) and is
never asked again; he stays an agent until the episode ends.

Observation
-----------
``Dict(observation=Box(0, 1, float32), action_mask=Box(0, 1, int8))``. Counts are divided by
their largest value (copies of a card = num_decks, target, deck size, max_turns), so every entry
is in [0, 1]; ``env.unwrapped.observation_layout`` names the slices and ``.decode(obs)`` restores
the counts. Seats are relative: 0 is the observer, 1 the player to his left, and so on.
Card ids are rank × 4 + suit (ranks 2…A, suits C D H S).

==============  ========================================================================
field           content
==============  ========================================================================
drawn           one-hot, 52: the card I drew and still hold (zeros unless I am deciding)
my_row          52: my face-down cards (I know them; nobody else does)
phase           one-hot: play (the drawer decides), challenge window
claimer         the claim under challenge: the claimer by relative seat (zeros otherwise)
row_lengths     n: cards in each row (0 for players who are out)
face_up_spades  n: spades face up in each row (challenged true claims, the final spade)
in_game         n: who is still in
seen            52: every card turned face up so far: discarded, turned up by a challenge,
                or the final spade
discard_spades  spades on the discard pile
discard_others  other cards on the discard pile
stock           cards left in the stock
turns           completed turns / max_turns
history         the last 4 challenge windows, newest first: claimer (n), challengers (n),
                official challenger (n), turned up a spade, turned up a non-spade
==============  ========================================================================

Together these let a memoryless policy count cards: the cards whose place I do not know are
the deck less ``seen``, ``my_row`` and ``drawn``. ``observation_layout.describe()`` prints the
index ranges; for 4 players the vector has 234 entries.

Rewards
-------
The winner (reaching ``target`` with the final face-up spade, or the last player left in):
+1; every other player −1/(n−1). An empty stock when a player must draw: a draw, 0 for all.
Truncation at ``max_turns``: 0 for all.

Version history
---------------
v0: first release.
"""

from bluff_envs.aec import CardGameEnv, wrap
from bluff_envs.options import table
from bluff_envs.seven_spades import SevenSpades, SevenSpadesConfig

if __doc__:  # the options table, from the one declaration of the options (absent under -OO)
    __doc__ = __doc__.replace("{options table}", table(SevenSpadesConfig.OPTIONS))


class raw_env(CardGameEnv):
    metadata = {
        "name": "seven_spades_v0",
        "render_modes": ["human", "ansi", "rgb_array"],
        "is_parallelizable": False,
        "render_fps": 1,
    }
    game_class = SevenSpades


def env(**options):
    return wrap(raw_env(**options))
