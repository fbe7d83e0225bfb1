"""Output for a terminal and for a file: progress bars and rich tables on a terminal; when the
output is piped, no progress frames (a plain line now and then) and full-width tables.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from typing import Any, TextIO


def is_terminal(stream: TextIO | None = None) -> bool:
    stream = sys.stdout if stream is None else stream
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


class LineProgress:
    """What tqdm shows, as a plain line at most every ``every`` seconds (and at the end), for
    logs and pipes: no carriage returns, no redrawn frames."""

    def __init__(self, total: int, initial: int = 0, desc: str = "", unit: str = "it", every: float = 30.0,
                 stream: TextIO | None = None):
        self.total, self.n, self.desc, self.unit, self.every = total, initial, desc, unit, every
        self.stream = sys.stderr if stream is None else stream
        self.started = self.last = time.monotonic()
        self.initial = initial

    def update(self, count: int = 1) -> None:
        self.n += count
        now = time.monotonic()
        if now - self.last >= self.every:
            self.last = now
            self._line(now)

    def _line(self, now: float) -> None:
        rate = (self.n - self.initial) / max(now - self.started, 1e-9)
        left = (self.total - self.n) / rate if rate > 0 else float("nan")
        eta = f", about {left:.0f} s left" if left == left and self.n < self.total else ""
        print(f"{self.desc}: {self.n:,}/{self.total:,} {self.unit}s ({rate:,.1f} {self.unit}s/s{eta})",
              file=self.stream, flush=True)

    def __enter__(self) -> LineProgress:
        return self

    def __exit__(self, *exc) -> None:
        if self.n > self.initial:
            self._line(time.monotonic())


def progress(total: int, initial: int = 0, desc: str = "", unit: str = "it", enabled: bool = True):
    """A tqdm bar on a terminal, a :class:`LineProgress` when stderr is a file or a pipe, or
    nothing at all (``enabled=False``); each has ``update(n)`` and is a context manager."""
    if not enabled:
        return LineProgress(total, initial, desc, unit, every=float("inf"), stream=_Null())
    if is_terminal(sys.stderr):
        from tqdm import tqdm

        return tqdm(total=total, initial=initial, unit=unit, desc=desc, dynamic_ncols=True, smoothing=0.05)
    return LineProgress(total, initial, desc, unit)


class _Null:
    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass


def print_table(title: str, headings: Sequence[tuple[str, str]], rows: Sequence[Sequence[str]], console: Any = None) -> None:
    """A table: rich on a terminal (or on the ``console`` given), markdown at full width when
    stdout is a file or a pipe (never a cell cut short). ``headings``: (name, "left"/"right")."""
    if console is None and not is_terminal():
        print(markdown_table(title, headings, rows), flush=True)
        return
    from rich.console import Console
    from rich.table import Table

    console = console or Console()
    table = Table(title=title)
    for heading, justify in headings:
        table.add_column(heading, justify=justify, no_wrap=heading == headings[0][0])
    for row in rows:
        table.add_row(*row)
    console.print(table)


def markdown_table(title: str, headings: Sequence[tuple[str, str]], rows: Sequence[Sequence[str]]) -> str:
    lines = [f"{title}", "", "| " + " | ".join(h for h, _ in headings) + " |",
             "|" + "|".join("---:" if j == "right" else "---" for _, j in headings) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)
