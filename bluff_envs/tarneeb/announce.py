"""What happened, in words: the narrator of ``bluff play``. Everything in Tarneeb but the hands
is public, so every call, card, trick and deal score is told (the viewer's own hand is in the
table drawn before each of his decisions)."""

from __future__ import annotations

from bluff_envs.cards import card_str
from bluff_envs.tarneeb.actions import ACTION_NAMES, PASS, STRAINS
from bluff_envs.tarneeb.events import CALLED, DEAL_SCORED, DEALT, DOUBLED, PLAYED, TRICK_WON, TRUMP_NAMED


class Announcer:
    def __init__(self, game):
        self.game = game
        self.trick: list[str] = []
        self.tricks = [0, 0]  # won this deal, by partnership (players 0+2, 1+3)

    def lines(self, events, state, viewer: int) -> list[str]:
        out = []
        for event in events:
            kind = event[0]
            if kind == CALLED:
                _, player, action = event
                out.append(f"player_{player} passes" if action == PASS else f"player_{player} {ACTION_NAMES[action].replace('bid', 'bids', 1)}")
            elif kind == TRUMP_NAMED:
                out.append(f"player_{event[1]} names the trump: {_strain(event[2])}")
            elif kind == DOUBLED:
                out.append(f"player_{event[1]} {'doubles the contract' if event[2] else 'does not double'}")
            elif kind == PLAYED:
                self.trick.append(f"player_{event[1]} {card_str(event[2])}")
            elif kind == TRICK_WON:
                winner = event[1]
                self.tricks[winner % 2] += 1
                mine, theirs = self.tricks[viewer % 2], self.tricks[1 - viewer % 2]
                out.append(f"trick: {', '.join(self.trick)}; player_{winner} takes it "
                           f"(tricks this deal: your side {mine}, the opponents {theirs})")
                self.trick = []
            elif kind == DEAL_SCORED:
                a, b = event[1]
                line = f"deal over: players 0+2 score {a:+d}, players 1+3 score {b:+d}"
                if self.game.config.episode == "game":
                    line += f"; match {state.scores[0]} to {state.scores[1]} (target {self.game.config.target_score})"
                out.append(line)
            elif kind == DEALT:
                self.tricks = [0, 0]
                out.append(f"a new deal: player_{state.dealer} deals")
        return out


def _strain(strain: int) -> str:
    return "no trump" if STRAINS[strain] == "NT" else STRAINS[strain]
