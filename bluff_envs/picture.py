"""The table as a picture: the ``rgb_array`` render mode of every game.

The picture is the game's own text view (the acting player's, as in ``ansi`` mode) drawn on a
card table: a fixed-size RGB array, so that the frames of an episode make a video
(PettingZoo's ``RecordVideo``) or a GIF (``bluff watch``). Pillow draws it; the monospaced font
is the DejaVu Sans Mono that matplotlib ships, or Pillow's own when that is missing.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

WIDTH, HEIGHT = 960, 540
MARGIN, FONT_SIZE, LINE = 24, 17, 24
FELT, INK, HEADER = (22, 92, 52), (245, 245, 235), (255, 214, 102)


@lru_cache(maxsize=1)
def _font():
    from PIL import ImageFont

    try:
        import matplotlib

        path = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSansMono.ttf"
        return ImageFont.truetype(str(path), FONT_SIZE)
    except (ImportError, OSError):
        return ImageFont.load_default()


def table_picture(text: str, caption: str = "") -> np.ndarray:
    """``text`` (lines) on the felt, the first line as a heading; ``uint8`` of shape
    ``(HEIGHT, WIDTH, 3)``. Lines too long for the width are wrapped, and lines beyond the
    height are cut with a last line that says so."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (WIDTH, HEIGHT), FELT)
    draw = ImageDraw.Draw(image)
    font = _font()
    per_line = max(10, int((WIDTH - 2 * MARGIN) / max(font.getlength("M"), 1)))
    lines = []
    for line in text.splitlines():
        while len(line) > per_line:
            lines.append(line[:per_line])
            line = "  " + line[per_line:]
        lines.append(line)
    room = (HEIGHT - 2 * MARGIN) // LINE - (1 if caption else 0)
    if len(lines) > room:
        lines = lines[: room - 1] + [f"… {len(lines) - room + 1} more lines"]
    for i, line in enumerate(lines):
        draw.text((MARGIN, MARGIN + i * LINE), line, fill=HEADER if i == 0 else INK, font=font)
    if caption:
        draw.text((MARGIN, HEIGHT - MARGIN - LINE), caption, fill=HEADER, font=font)
    return np.asarray(image, dtype=np.uint8)
