"""What happened, in words, as one player may know it: the narrator of ``bluff play``.

Reads the rules' events of one action (``env.unwrapped.last_events``): the rank named, each
play's size, and how each round ended (the cards turned up, whether the play was honest, who
took the pile or where it went, complete sets put out, who left the game, the loser) are
public; the cards a player picks for his play are his alone.
"""

from __future__ import annotations

from bluff_envs.believe_it_or_not.events import CALLED, NAMED, PLAYED
from bluff_envs.cards import RANKS, counts_text


class Announcer:
    def __init__(self, game):
        self.game = game
        self.rank = None

    def lines(self, events, state, viewer: int) -> list[str]:
        out = []
        for event in events:
            kind = event[0]
            if kind == NAMED:
                self.rank = event[2]
                out.append(f"player_{event[1]} leads a round of {RANKS[event[2]]}")
            elif kind == PLAYED:
                _, player, count, _ = event
                rank = RANKS[self.rank] if self.rank is not None else "?"
                out.append(f"player_{player} puts {count} card{'s' * (count != 1)} face down: \"{count} {rank}\"")
            elif kind == CALLED:
                out.extend(self._called(event[1]))
        return out

    @staticmethod
    def _called(call) -> list[str]:
        says = "believes" if call.believed else "does not believe"
        verdict = "honest" if call.honest else "false"
        lines = [f"player_{call.caller} {says} player_{call.maker}: the cards turned up are "
                 f"{counts_text(call.revealed)}: the play was {verdict}"]
        if call.taker is None:
            lines.append(f"the pile of {call.pile_size} cards goes out of play, face down")
        else:
            lines.append(f"player_{call.taker} takes the pile of {call.pile_size} cards")
        if call.quads:
            lines.append(f"player_{call.taker} puts out every card of {', '.join(RANKS[r] for r in call.quads)}, face up")
        for player in call.left:
            lines.append(f"player_{player} has no cards and leaves the game")
        if call.loser is not None:
            lines.append(f"player_{call.loser} is the last one holding cards and loses")
        elif call.leader is None:
            lines.append("nobody holds cards any more: a draw")
        else:
            lines.append(f"player_{call.leader} leads the next round")
        return lines
