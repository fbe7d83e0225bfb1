"""Game records: everything needed to replay a game exactly, as JSON.

A :class:`GameRecord` holds the game and its options, the reset seed, the whole deck (card
strings, top card first), the agent spec of every seat, the actions taken and the outcome.
:func:`replay` rebuilds the environment with ``reset(seed=record.seed, options={"deck": deck})``,
applies the actions and checks that the outcome is the recorded one; :func:`replay_steps`
walks through a record one decision at a time (for ``bluff replay`` and offline analysis).
The seed is kept next to the deck because a game may draw later deals from the environment's
generator (Tarneeb plays several deals in one episode).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, NamedTuple

from gymnasium.utils import seeding

import bluff_envs
from bluff_envs.cards import card_str


class ReplayError(ValueError):
    """A record that does not replay to its recorded outcome."""


@dataclass
class GameRecord:
    """One finished game. ``steps`` counts the decisions, i.e. ``len(actions)``."""

    game: str  # e.g. "i_doubt_it"
    options: dict[str, Any]
    seed: int | None
    deck: list[str]
    seats: list[str]  # agent spec per seat, player_0 first
    actions: list[int]
    rewards: list[float]  # final reward per seat
    steps: int
    truncated: bool
    agent_seeds: list[int] | None = None  # the seed each seat's agent was given

    def to_dict(self) -> dict[str, Any]:
        """Plain data (the lists and the options copied), as ``dataclasses.asdict`` gives it,
        without its deep copy of every action: a record is lists of numbers and strings."""
        out = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, list) else dict(value) if isinstance(value, dict) else value
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameRecord:
        """From :meth:`to_dict`'s output; keys that are not record fields are ignored (a line of
        a tournament's ``results.jsonl`` carries its game id next to the record)."""
        if not isinstance(data, dict):
            raise ValueError(f"a game record is a JSON object, not {type(data).__name__}")
        names = {f.name for f in fields(cls)}
        missing = sorted(n for n in names - set(data) if n != "agent_seeds")
        if missing:
            raise ValueError(f"game record lacks {', '.join(missing)}")
        record = cls(**{k: v for k, v in data.items() if k in names})
        problems = record.problems()
        if problems:
            raise ValueError("game record: " + "; ".join(problems[:5]))
        return record

    def problems(self) -> list[str]:
        """What is malformed in this record's fields (types, counts), as short messages."""
        def ints(values):
            return isinstance(values, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in values)

        checks = [
            ("game", isinstance(self.game, str), "a game name"),
            ("options", isinstance(self.options, dict), "a mapping of game options"),
            ("seed", self.seed is None or (isinstance(self.seed, int) and not isinstance(self.seed, bool)), "an integer or null"),
            ("deck", isinstance(self.deck, list) and all(isinstance(c, str) for c in self.deck), "a list of card strings"),
            ("seats", isinstance(self.seats, list) and all(isinstance(s, str) for s in self.seats), "a list of agent specs"),
            ("actions", ints(self.actions), "a list of action ids"),
            ("rewards", isinstance(self.rewards, list) and all(isinstance(r, (int, float)) and not isinstance(r, bool)
                                                               for r in self.rewards), "a list of numbers"),
            ("steps", isinstance(self.steps, int) and isinstance(self.actions, list) and self.steps == len(self.actions),
             "the number of actions"),
            ("truncated", isinstance(self.truncated, bool), "true or false"),
            ("agent_seeds", self.agent_seeds is None or ints(self.agent_seeds), "a list of seeds or null"),
        ]
        out = []
        for name, ok, allowed in checks:
            if not ok:
                shown = repr(getattr(self, name))
                out.append(f"{name}={shown if len(shown) <= 40 else shown[:37] + '...'} is not {allowed}")
        return out

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        return cls.from_dict(json.loads(text))

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_dict(), indent=1) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        return cls.from_json(Path(path).read_text())

    @property
    def winners(self) -> list[int]:
        """Seats with the best reward, or none when all rewards are equal (a draw)."""
        best = max(self.rewards)
        if best == min(self.rewards):
            return []
        return [s for s, r in enumerate(self.rewards) if r == best]


def deck_for(env, seed: int | None) -> list[str]:
    """The deck ``env.reset(seed=seed)`` would deal, as card strings (any of our envs)."""
    return [card_str(c) for c in deck_ids_for(env, seed)]


def deck_ids_for(env, seed: int | None) -> list[int]:
    """:func:`deck_for` as card ids."""
    rng, _ = seeding.np_random(seed)
    return list(env.unwrapped.game.deck.shuffled(rng))


def reset_to(env, record: GameRecord) -> None:
    env.reset(seed=record.seed, options={"deck": list(record.deck)})


class ReplayStep(NamedTuple):
    """One decision of a replayed game, seen just before it is applied."""

    index: int  # 0-based position in ``record.actions``
    agent: str  # "player_k"
    seat: int
    action: int
    name: str  # e.g. "add K"
    env: Any  # the raw environment, in the state the decision was taken in


def replay_steps(record: GameRecord, render_mode: str | None = None) -> Iterator[ReplayStep]:
    """Rebuild the game and yield each recorded decision before applying it; when the
    generator is exhausted the game has been replayed to its end and its outcome checked
    (:class:`ReplayError` otherwise). The env is the raw environment with full state, for
    offline analysis; do not step it yourself."""
    env = bluff_envs.make(record.game, raw=True, render_mode=render_mode, **record.options)
    reset_to(env, record)
    seat = {agent: i for i, agent in enumerate(env.possible_agents)}
    totals = [0.0] * len(env.possible_agents)
    truncated = False
    names = env.unwrapped.action_names
    index = 0
    for agent in env.agent_iter():
        _, reward, terminated, trunc, _ = env.last(observe=False)
        totals[seat[agent]] += reward
        if terminated or trunc:
            truncated = truncated or trunc
            env.step(None)
            continue
        if index == len(record.actions):
            raise ReplayError(f"the record ends after {index} actions but the game goes on ({agent} to act)")
        action = _recorded_action(record, index, names)
        yield ReplayStep(index, agent, seat[agent], action, names[action], env)
        try:
            env.step(action)
        except ValueError as error:
            raise ReplayError(f"action {index} of the record is not legal there: {error}") from None
        index += 1
    if index != len(record.actions):
        raise ReplayError(f"the game ended after {index} actions; the record has {len(record.actions)}")
    if totals != [float(r) for r in record.rewards] or truncated != record.truncated:
        raise ReplayError(
            f"replay ended with rewards {totals} (truncated={truncated}); the record says "
            f"{record.rewards} (truncated={record.truncated})"
        )


class RulesStep(NamedTuple):
    """One decision of a game replayed on its rules alone, seen just before it is applied."""

    index: int
    seat: int
    action: int
    name: str
    state: Any  # the game's rules state (full information); do not change it


def replay_rules(record: GameRecord) -> Iterator[RulesStep]:
    """Like :func:`replay_steps`, on the game's rules state alone: no observations are encoded,
    which makes offline analysis of many records several times faster. The state is built
    as ``reset(seed=record.seed, options={"deck": deck})`` builds it, and the outcome is
    checked at the end (:class:`ReplayError`)."""
    game = bluff_envs.make(record.game, raw=True, **record.options).unwrapped.game
    rng, _ = seeding.np_random(record.seed)
    state = game.new_state(game.deck.parse(list(record.deck)), rng)
    names = game.action_names
    for index, action in enumerate(record.actions):
        if state.is_over:
            raise ReplayError(f"the game ended after {index} actions; the record has {len(record.actions)}")
        action = _recorded_action(record, index, names)
        if action not in state.legal_actions():
            raise ReplayError(f"action {index} of the record ({action}, {names[action]}) is not legal there")
        yield RulesStep(index, state.current_player, action, names[action], state)
        state.apply(action)
    if not state.is_over:
        raise ReplayError(f"the record ends after {len(record.actions)} actions but the game goes on")
    returns = [float(r) for r in state.returns()]
    if returns != [float(r) for r in record.rewards] or bool(state.truncated) != record.truncated:
        raise ReplayError(
            f"replay ended with rewards {returns} (truncated={state.truncated}); the record says "
            f"{record.rewards} (truncated={record.truncated})"
        )


def _recorded_action(record: GameRecord, index: int, names) -> int:
    action = record.actions[index]
    if not 0 <= action < len(names):
        raise ReplayError(f"action {index} of the record is {action}, outside the game's actions 0..{len(names) - 1}")
    return action


def replay(record: GameRecord) -> list[float]:
    """Replay a record to its end; returns the rewards, which match the record's (or
    :class:`ReplayError`)."""
    for _ in replay_steps(record):
        pass
    return list(record.rewards)


def moves(record: GameRecord) -> Iterator[tuple[int, str, str, str]]:
    """``(step, agent, action name, ansi text of the table before the action)`` for each
    decision, the text drawn from the acting player's seat."""
    for step in replay_steps(record, render_mode="ansi"):
        yield step.index, step.agent, step.name, step.env.render()


def read_records(path: str | Path) -> Iterator[tuple[str | None, GameRecord]]:
    """``(game id, record)`` from a ``results.jsonl`` (one per line) or one record JSON file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{path} is not UTF-8 text, so not a record file") from None
    if path.suffix == ".jsonl":
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
            except json.JSONDecodeError:
                raise ValueError(f"{path}:{number}: not a JSON line (an interrupted write?)") from None
            try:
                yield _game_id(data), GameRecord.from_dict(data)
            except ValueError as error:
                raise ValueError(f"{path}:{number}: {error}") from None
    else:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise ValueError(f"{path}: not a JSON record ({error})") from None
        try:
            yield _game_id(data), GameRecord.from_dict(data)
        except ValueError as error:
            raise ValueError(f"{path}: {error}") from None


def _game_id(data: Any) -> str | None:
    game_id = data.get("game_id") if isinstance(data, dict) else None
    return game_id if isinstance(game_id, str) or game_id is None else str(game_id)
