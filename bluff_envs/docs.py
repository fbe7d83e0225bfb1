"""The parts of ``docs/rules.md`` that come from the code, so that they cannot drift.

``docs/rules.md`` holds the rules in prose; between marker lines

    <!-- generated: <game> <part> -->
    …
    <!-- end generated -->

it holds tables written by :func:`block` from the game itself: its ``options`` (name, default,
allowed), its ``actions`` (id and name) and its ``observation`` layout at default options (field,
index range, scale, meaning). :func:`update` rewrites every block of a text;
``python -m bluff_envs.docs`` rewrites the file, and a test checks that it is up to date.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from bluff_envs.registry import game_module

PATH = Path(__file__).resolve().parents[1] / "docs" / "rules.md"
_BLOCK = re.compile(r"(<!-- generated: (\w+) (\w+) -->\n)(.*?)(<!-- end generated -->)", re.S)


def block(game: str, part: str) -> str:
    """One generated table, as markdown."""
    raw = game_module(game).raw_env()
    if part == "options":
        rows = [(o.name, o.default_text, o.allowed) for o in type(raw.game.config).OPTIONS]
        return _table(("option", "default", "allowed"), rows)
    if part == "actions":
        return _table(("action", "name"), [(str(a), name) for a, name in enumerate(raw.action_names)])
    if part == "observation":
        layout = raw.observation_layout
        rows = []
        for name, sl in layout.items():
            scale = layout.scale(name)
            if layout.is_squashed(name):
                shown = f"v / (v + {scale:g})"
            elif hasattr(scale, "__len__"):
                shown = "per entry"
            else:
                shown = "" if scale == 1.0 else f"÷ {scale:g}"
            rows.append((name, f"{sl.start}–{sl.stop - 1}", shown, layout.doc(name)))
        return f"{layout.size} entries at default options.\n\n" + _table(("field", "entries", "scale", "meaning"), rows)
    raise ValueError(f"unknown generated part {part!r}; parts: options, actions, observation")


def update(text: str) -> str:
    """``text`` with every generated block rewritten from the code."""
    return _BLOCK.sub(lambda m: m.group(1) + block(m.group(2), m.group(3)) + "\n" + m.group(5), text)


def _table(headings, rows) -> str:
    cells = [[c.replace("|", "\\|") for c in row] for row in rows]
    lines = ["| " + " | ".join(headings) + " |", "|" + "|".join("---" for _ in headings) + "|"]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in cells])


__all__ = ["PATH", "block", "update"]

if __name__ == "__main__":
    PATH.write_text(update(PATH.read_text()))
    print(f"wrote {PATH}", file=sys.stderr)
