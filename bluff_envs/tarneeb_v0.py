"""Tarneeb: a partnership trick-taking game with bidding, Lebanese or Egyptian.

Rules: ``docs/rules.md`` §4. Four players, ``player_0 … player_3``, in two partnerships:
players 0 and 2 against players 1 and 3. Turn order is the index order. The dealer of the first
deal is player 3, so player 0 speaks first; after each deal the dealer is the next player. A
deal thrown in (everybody passed, or with ``redeal_weak_hands`` a worthless hand) is dealt
again by the same dealer.

Options (keyword arguments of ``env`` / ``raw_env``)
-----------------------------------------------------
{options table}

Options of the other variant are errors (``ValueError``), as docs/rules.md says.

Actions (``Discrete(102)``, the same for every agent and both variants)
-----------------------------------------------------------------------
=========  ====================  ============================================================
action     name                  meaning
=========  ====================  ============================================================
0          pass                  pass in the bidding
1 … 7      bid 7 … bid 13        a Lebanese bid of that many tricks
8 … 42     bid 7 C … bid 13 NT   an Egyptian bid: tricks and strain, in ladder order
                                 (7 C, 7 D, 7 H, 7 S, 7 NT, 8 C, …), so a higher action is a
                                 higher bid
43 … 47    trump C … trump NT    the Lebanese declarer names the trump (NT only with
                                 ``allow_no_trump``)
48         double                the Egyptian declarer doubles his contract
49         no double             … or plays it undoubled
50 … 101   play 2C … play AS     play that card; card id = rank × 4 + suit (2C 2D 2H 2S 3C …)
=========  ====================  ============================================================

Masks follow the phase: bids above the highest so far (and pass, except for a dealer forced
to bid by ``all_pass="dealer_bids_7"``), the trump calls, double / no double, or the cards
that may be played: the suit led if the player holds it, else any card; with
``first_lead_trump`` the declarer's first lead is a trump if he has one. Once 13 is bid
(Lebanese) or 13 NT (Egyptian) the others can only pass.

Observation
-----------
``Dict(observation=Box(0, 1, float32), action_mask=Box(0, 1, int8))``; the length is 552
(Lebanese) or 664 (Egyptian). ``env.unwrapped.observation_layout`` names the slices (its
``describe()`` prints them) and ``.decode(obs)`` restores counts and scores. Seats are relative:
0 is the observer, 1 the player after him, 2 his partner, 3 the player before him. Cards are
indexed by card id as in the action table. Everything but the hands is public.

=================  ========================================================================
field              content
=================  ========================================================================
phase              one-hot: bidding, trump, double, play
hand               my cards
bids               by relative seat, every bid he made this deal (multi-hot over the
                   variant's bids: 7 … 13, or 7 C … 13 NT)
passed             by relative seat: Lebanese, he has passed (out of the bidding);
                   Egyptian, his latest call was a pass
contract_tricks    one-hot 7 … 13: highest bid so far; the contract after the bidding
contract_strain    one-hot C D H S NT: the trump (Egyptian: the highest bid's strain)
declarer           one-hot by relative seat: highest bidder so far; the declarer
doubled            the contract is doubled
trick_leader       one-hot by relative seat: who led the current trick
trick              by relative seat, the card he played to the current trick
played             by relative seat, every card he played this deal
shown_out          by relative seat, the suits he failed to follow this deal
tricks_won         tricks won this deal by my side, by the opponents (÷ 13)
score              match score v of my side, of the opponents, if positive, squashed as
                   v / (v + target): every score stays distinct, nothing is clipped
score_deficit      how far below zero each side's score is (squashed the same way)
target_score       the target (÷ 500)
dealer             one-hot by relative seat
=================  ========================================================================

Rewards
-------
``episode="game"`` (default): deals are played until a partnership's total reaches
``target_score`` (if both do in the same deal the higher total wins; if equal, play goes on);
each player of the winning partnership gets +1, the other two −1. ``episode="deal"``: one deal
(thrown-in deals are dealt again within the episode); each player gets (own side's deal score −
opponents' deal score) / 26. Deal scores follow docs/rules.md §4.6 / the Egyptian table
(``bluff_envs.tarneeb.scoring``). Partners always get the same reward. Truncation at
``max_turns``: 0 for everybody.

Fixed deals
-----------
``reset(options={"deck": [...]})`` gives the first deal's deck (52 card strings, top first,
dealt one card at a time from player 0). Every later deck — the next deals of a game and any
redeal — is shuffled from the generator seeded by ``reset(seed)``. ``"deck"`` may also be a list
of such decks, used in order, one per deal (redeals included), before shuffling takes over.

Version history
---------------
v0: first release.
"""

from bluff_envs.aec import CardGameEnv, wrap
from bluff_envs.options import table
from bluff_envs.tarneeb import Tarneeb, TarneebConfig

if __doc__:  # the options table, from the one declaration of the options (absent under -OO)
    __doc__ = __doc__.replace("{options table}", table(TarneebConfig.OPTIONS))


class raw_env(CardGameEnv):
    metadata = {
        "name": "tarneeb_v0",
        "render_modes": ["human", "ansi", "rgb_array"],
        "is_parallelizable": False,
        "render_fps": 1,
    }
    game_class = Tarneeb


def env(**options):
    return wrap(raw_env(**options))
