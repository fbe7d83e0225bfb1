"""What happened, in words, as one player may know it: the narrator of ``bluff play``.

Reads the rules' events of one action (``env.unwrapped.last_events``): claims and how each
ended (who doubted, the cards turned up, whether the claim was true, who took the pile, who
went out) are public; the cards a player picks for his play are his alone.
"""

from __future__ import annotations

from bluff_envs.cards import RANKS, counts_text
from bluff_envs.i_doubt_it.events import CLAIMED, RESOLVED


class Announcer:
    def __init__(self, game):
        self.game = game

    def lines(self, events, state, viewer: int) -> list[str]:
        out = []
        for event in events:
            if event[0] == CLAIMED:
                _, player, count, rank = event
                out.append(f"player_{player} puts {count} card{'s' * (count != 1)} face down: \"{count} {RANKS[rank]}\"")
            elif event[0] == RESOLVED:
                out.extend(self._resolved(event[1]))
        return out

    @staticmethod
    def _resolved(res) -> list[str]:
        if res.decisions is None:
            head = f"player_{res.claim_player}'s last play is turned up at once"
        elif res.doubter is None:
            return [f"nobody doubts: the {res.count} card{'s' * (res.count != 1)} stay face down"] + (
                [f"player_{res.winner} has no cards left and wins"] if res.winner is not None else [])
        else:
            others = [s for s, d in zip(res.deciders, res.decisions) if d and s != res.doubter]
            also = f" (also doubted: {', '.join(f'player_{s}' for s in others)})" if others else ""
            head = f"player_{res.doubter} says \"I doubt it\"{also}"
        verdict = "true" if res.honest else "a bluff"
        lines = [f"{head}: the cards turned up are {counts_text(res.revealed)}: the claim was {verdict}"]
        if res.taker is not None:
            lines.append(f"player_{res.taker} takes the pile")
        if res.winner is not None:
            lines.append(f"player_{res.winner} went out and wins")
        return lines
