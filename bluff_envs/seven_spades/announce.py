"""What happened, in words, as one player may know it: the narrator of ``bluff play``.

Reads the rules' events of one action (``env.unwrapped.last_events``) and tells what is
public, plus what only the viewer himself saw (the card he drew). Nothing else.
"""

from __future__ import annotations

from bluff_envs.cards import card_str
from bluff_envs.seven_spades.events import CLAIMED, DISCARDED, DREW, FINAL, RESOLVED


class Announcer:
    def __init__(self, game):
        self.game = game

    def lines(self, events, state, viewer: int) -> list[str]:
        out = []
        for event in events:
            kind = event[0]
            if kind == DREW and event[1] == viewer:
                out.append(f"you draw {card_str(event[2])}")
            elif kind == DISCARDED:
                out.append(f"player_{event[1]} discards {card_str(event[2])} face up")
            elif kind == CLAIMED:
                who = "you" if event[1] == viewer else f"player_{event[1]}"
                out.append(f"{who} {'claim' if who == 'you' else 'claims'} a spade, face down")
            elif kind == FINAL:
                out.append(f"player_{event[1]} plays the final spade {card_str(event[2])} face up and wins")
            elif kind == RESOLVED:
                out.extend(self._resolved(event[1]))
        return out

    @staticmethod
    def _resolved(res) -> list[str]:
        if res.challenger is None:
            return ["nobody challenges: the claim stands"]
        card = card_str(res.card)
        if res.spade:
            lines = [f"player_{res.challenger} challenges player_{res.claimer}: the card is {card}, a spade; "
                     f"player_{res.challenger} is out and the spade stays in the row, face up"]
        else:
            lines = [f"player_{res.challenger} challenges player_{res.claimer}: the card is {card}, not a spade; "
                     f"player_{res.claimer} is out"]
        if res.winner is not None:
            lines.append(f"player_{res.winner} is the last player left and wins")
        return lines
