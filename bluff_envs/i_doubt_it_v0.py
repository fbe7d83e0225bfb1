"""I Doubt It (Cheat): shed your hand by discarding face down, truthfully or not.

Rules: ``docs/rules.md`` §1. Players ``player_0 … player_{n-1}`` act in index order; player 0
names Aces first and each play names the next rank (``rank_order``).

Options (keyword arguments of ``env`` / ``raw_env``)
-----------------------------------------------------
{options}

Actions (``Discrete(16)``, the same for every agent)
----------------------------------------------------
=========  ==========  ===================================================================
action     name        meaning
=========  ==========  ===================================================================
0 … 12     add 2…A     put one more card of that rank into the play being built; ranks are
                       added in order 2 … A, so a rank below the last one added is masked
13         done        discard the cards chosen (at least one) face down, claiming
                       "N <required rank>"
14         doubt       in the doubt window: say "I doubt it"
15         pass        in the doubt window: let the play stand
=========  ==========  ===================================================================

The play is built in consecutive steps by the same agent. After "done" every other player is
asked in turn, from the discarder's left, whether he doubts; nobody sees the others' decisions
until the window closes.

Observation
-----------
``Dict(observation=Box(0, 1, float32), action_mask=Box(0, 1, int8))``. Counts are divided by
the number of copies of a rank (4 × num_decks) or by the deck size, so every entry is in
[0, 1]; ``env.unwrapped.observation_layout`` names the slices and ``.decode(obs)`` restores the
counts. Seats are relative: 0 is the observer, 1 the player to his left, and so on.

======================  ===================================================================
field                   content
======================  ===================================================================
phase                   one-hot: play, doubt window
hand                    my cards by rank
building                the cards chosen so far for my play
required_rank           one-hot: the rank the current or next play names
claim_seat / _count /   the latest claim: who, how many, which rank
claim_rank
pile_size               cards face down in the pile
my_cards_in_pile        my own cards still in the pile
hand_sizes              every hand size, by relative seat
known_cards             per opponent, cards seen going into his hand and not seen leaving it
last_doubts             who doubted when the last window closed
history                 the last 4 plays: claimer, count, doubted, honest, bluff, doubter
turns                   completed plays / max_turns
======================  ===================================================================

Rewards
-------
The first player to go out: +1; every other player −1/(n−1). Truncation at ``max_turns``: 0.

Version history
---------------
v0: first release.
"""

from bluff_envs import options as opt
from bluff_envs.aec import CardGameEnv, wrap
from bluff_envs.i_doubt_it import IDoubtIt, IDoubtItConfig

if __doc__:  # the options table, from the one declaration of the options (None under -OO)
    __doc__ = __doc__.replace("{options}", opt.table(IDoubtItConfig.OPTIONS))


class raw_env(CardGameEnv):
    metadata = {
        "name": "i_doubt_it_v0",
        "render_modes": ["human", "ansi", "rgb_array"],
        "is_parallelizable": False,
        "render_fps": 1,
    }
    game_class = IDoubtIt


def env(**options):
    return wrap(raw_env(**options))
