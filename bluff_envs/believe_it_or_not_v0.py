"""Believe It or Not (Верю — не верю): get rid of your cards; the last one holding cards loses.

Rules: ``docs/rules.md`` §2. Players ``player_0 … player_{n-1}`` act in index order; all cards
are dealt and player 0 leads the first round.

Options (keyword arguments of ``env`` / ``raw_env``)
-----------------------------------------------------
{options}

Actions (``Discrete(29)``, the same for every agent)
----------------------------------------------------
=========  ============  ================================================================
action     name          meaning
=========  ============  ================================================================
0 … 12     name 2…A      the leader names the round's rank (ranks outside the deck in use
                         are masked out)
13 … 25    add 2…A       put one more card of that rank into the play being built; ranks
                         are added in order 2 … A, so a rank below the last one added is
                         masked. A responder's first "add" starts his play.
26         done          put the cards chosen (1 … max_cards_per_play) face down on the
                         pile, claiming "N <round rank>"
27         believe       turn up the most recent play, believing it
28         disbelieve    turn up the most recent play: "don't believe"
=========  ============  ================================================================

A round: the leader names a rank, then builds his play card by card and says "done". The next
player still in then responds: "believe", "disbelieve", or starts a play of his own with
"add" (a player with no cards can only believe or disbelieve). A play is built by the same
agent in consecutive steps.

A call turns up only the most recent play and ends the round (docs/rules.md §2.4):

=============  ===============  =========================  ==================================
call           play turned up   the pile goes              the next round is led by
=============  ===============  =========================  ==================================
believe        honest           out of play, face down     the believer
believe        false            to the believer            the player to the believer's left
disbelieve     false            to the player who made it  the doubter
disbelieve     honest           to the doubter             the player to the doubter's left
=============  ===============  =========================  ==================================

Going out (§2.5): a player whose play emptied his hand leaves the game when that play is
turned up and honest. If it is turned up and false he takes the pile himself, whichever call
turned it up (§2.5 overrides the table for the believer's row; the lead still follows the
table). If the next player adds instead, he stays in with no cards and can only believe or
disbelieve; taking a pile brings him back; an empty-handed player due to lead leaves, and the
lead passes to his left. With ``discard_quads`` a player who has taken a pile puts every
complete set (all 4 × num_decks copies of a rank) out of play, face up.

Observation
-----------
``Dict(observation=Box(0, 1, float32), action_mask=Box(0, 1, int8))``. Counts are divided by
the number of copies of a rank (4 × num_decks), by the deck size or by the play cap, so every
entry is in [0, 1]; ``env.unwrapped.observation_layout`` names the slices (``.describe()``
prints them) and ``.decode(obs)`` restores the counts. Ranks always use 13 entries (2 … A),
even with a 36-card deck. Seats are relative: 0 is the observer, 1 the player to his left, …

=================== ============================================================================
field               content
=================== ============================================================================
hand                my cards by rank
building            the cards chosen so far for my play
my_cards_in_pile    my own cards in this round's pile
out_of_play_known   cards known to be out of play: turned up, mine, complete sets
known_cards         per opponent, the cards he certainly holds: seen going to him (turned up
                    to him, or mine in a pile he took), less what he may have played since
phase               one-hot: name, build, respond
round_rank          one-hot: the rank named for this round (zero until named)
pile_size           cards face down in the middle
pile_by_player      cards each player put into this round's pile
last_play_size      cards in the most recent play (÷ cap)
last_play_by        one-hot: who made it
out_of_play_size    cards out of play (piles nobody took, complete sets)
hand_sizes          every hand size
out                 players who have left the game
empty_handed        players still in with no cards
last_revealed       the cards turned up by the last call
calls               the last 4 calls, newest first: caller, believe/disbelieve, honest/false,
                    maker, taker (all zero: out of play)
call_counts         cards turned up by each of those calls (÷ cap)
call_piles          pile size at each of those calls
turns               completed plays / max_turns
=================== ============================================================================

With ``call_record=True`` four fields follow, each a count per player (relative seats) over
the whole game, squashed as v / (v + 4) (``decode`` restores the counts); nothing before them
changes, so a policy trained without them reads them through zero weights
(``agents.ppo.checkpoint.check_compatible``). The last four calls are all the fields above
remember of who bluffs; these keep every player's record:

=================== ============================================================================
plays_found_honest  his plays that a call turned up and found honest
plays_found_false   his plays that a call turned up and found false
believe_calls       the Believe calls he made
disbelieve_calls    the Don't believe calls he made
=================== ============================================================================

A player's own cards, his play being built and his share of the pile are known only to him;
everything else above is public or follows from public events and his own actions, so a
player with perfect memory would know it too.

Symmetry
--------
Every rank plays the same part, so relabelling the ranks changes nothing: a deal with its
ranks permuted, played with the actions permuted, shows every player the permuted observations
and ends with the same rewards (tested). ``env.unwrapped.game.symmetry``
(:class:`bluff_envs.symmetry.Relabelling`) numbers the permutations of the deck's ranks and
moves the fields above that are indexed by rank (``hand``, ``building``, ``my_cards_in_pile``,
``out_of_play_known``, ``known_cards``, ``round_rank``, ``last_revealed``) and the "name" and
"add" actions. One thing no relabelling keeps: a play's cards are added in the order 2 … A,
so the relabelled game builds the same play in its own order.

Rewards
-------
When only one player is still in (§2.6) he is the loser: −1; every other player +1/(n−1).
If he holds no cards either (the last hands emptied together, or ``discard_quads`` emptied
the last taker's hand), nobody holds cards any more and the game is a draw: 0 for all.
Truncation at ``max_turns`` completed plays (a play is complete at its "done"): 0 for all.

Version history
---------------
v0: first release; the observation-only option ``call_record`` (default off: the observation
is unchanged) added later.
"""

from bluff_envs import options as opt
from bluff_envs.aec import CardGameEnv, wrap
from bluff_envs.believe_it_or_not import BelieveItOrNot, BelieveItOrNotConfig

if __doc__:  # the options table, from the one declaration of the options (None under -OO)
    __doc__ = __doc__.replace("{options}", opt.table(BelieveItOrNotConfig.OPTIONS))


class raw_env(CardGameEnv):
    metadata = {
        "name": "believe_it_or_not_v0",
        "render_modes": ["human", "ansi", "rgb_array"],
        "is_parallelizable": False,
        "render_fps": 1,
    }
    game_class = BelieveItOrNot


def env(**options):
    return wrap(raw_env(**options))
