"""What the rules of Tarneeb tell the view after each action.

``state.apply`` returns a sequence of events, each a tuple led by its code:

* ``(DEALT,)``: a new deal (the state holds it: ``dealt``, ``dealer``);
* ``(CALLED, player, action)``: a pass or a bid;
* ``(TRUMP_NAMED, declarer, strain)``: the Lebanese declarer named the trump;
* ``(DOUBLED, declarer, doubled)``: the Egyptian declarer doubled, or not;
* ``(PLAYED, player, card, suit led, position in the trick)``;
* ``(TRICK_WON, winner)``: the fourth card went down and the trick was gathered;
* ``(DEAL_SCORED, deal score by partnership)``: the thirteenth trick scored the deal.
"""

from __future__ import annotations

DEALT, CALLED, TRUMP_NAMED, DOUBLED, PLAYED, TRICK_WON, DEAL_SCORED = range(7)
