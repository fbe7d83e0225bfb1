"""``results.jsonl``: a tournament's games, appended one line per game as they finish.

Each line is a JSON object: ``game_id``, its place in the schedule (``lineup``, ``deal``,
``seating``) and the full :class:`~bluff_envs.records.GameRecord`. Lines are written whole and
flushed, so a killed run leaves at most a torn last line, which :meth:`ResultsFile.finished`
cuts off; the games in the file are never played again.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from bluff_envs.records import GameRecord
from agents.arena.stats import GameResult


class ResultsFile:
    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)

    def finished(self) -> dict[str, dict[str, Any]]:
        """Every complete line by game id (the first, should an id occur twice). A torn last
        line left by an interrupted write is removed from the file."""
        lines: dict[str, dict[str, Any]] = {}
        if not self.path.exists():
            return lines
        data = self.path.read_bytes()
        good = 0  # bytes up to the end of the last complete line
        raws = data.splitlines(keepends=True)
        for number, raw in enumerate(raws, 1):
            try:
                line = json.loads(raw) if raw.endswith(b"\n") else None
            except json.JSONDecodeError:
                line = None
            if line is None:
                if number < len(raws):
                    raise ValueError(f"{self.path}:{number}: a damaged line before the last one; not resuming")
                break  # the torn last line of an interrupted write
            problem = _foreign(line)
            if problem:
                raise ValueError(f"{self.path}:{number}: {problem}; not resuming (move the file away to start over)")
            lines.setdefault(line["game_id"], line)
            good += len(raw)
        if good < len(data):
            with self.path.open("r+b") as f:
                f.truncate(good)
        return lines

    def append(self, lines: list[dict[str, Any]]) -> None:
        text = "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines)
        with self.path.open("a") as f:
            f.write(text)
            f.flush()

    def games(self, game_ids=None) -> list[GameResult]:
        """The finished games sorted by id (only those in ``game_ids``, if given)."""
        lines = self.finished()
        ids = sorted(lines if game_ids is None else set(game_ids) & set(lines))
        return [GameResult(i, lines[i]["deal"], GameRecord.from_dict(lines[i])) for i in ids]


def _foreign(line: Any) -> str | None:
    """Why a complete line is not one of a tournament's game lines (None if it is)."""
    if not isinstance(line, dict):
        return f"a line is a JSON {type(line).__name__}, not a game"
    for key, kind in (("game_id", str), ("deal", int), ("lineup", int), ("seating", int)):
        if not isinstance(line.get(key), kind) or isinstance(line.get(key), bool):
            return f"a line without a valid {key!r}, not one of this tournament's games"
    try:
        GameRecord.from_dict(line)
    except ValueError as error:
        return str(error)
    return None

