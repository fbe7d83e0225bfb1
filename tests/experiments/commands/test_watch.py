"""`bluff watch` and the rgb_array pictures: PettingZoo's RecordVideo records every game."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

import bluff_envs
from experiments.commands.watch import command

TINY = {"i_doubt_it": {"num_players": 2, "max_turns": 6}, "believe_it_or_not": {"num_players": 2, "max_turns": 6},
        "seven_spades": {"num_players": 2, "max_turns": 6}, "tarneeb": {"max_turns": 12}}


@pytest.mark.parametrize("game", list(TINY))
def test_the_rgb_array_picture_is_a_fixed_size_image(game):
    env = bluff_envs.make(game, render_mode="rgb_array", **TINY[game])
    env.reset(seed=0)
    frame = env.render()
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    assert env.render().shape == frame.shape and not np.array_equal(env.render(), np.zeros_like(frame))


@pytest.mark.parametrize("game", list(TINY))
def test_pettingzoos_record_video_records_a_tiny_episode(game, tmp_path):
    pytest.importorskip("moviepy")
    from pettingzoo.utils.wrappers import RecordVideo

    env = RecordVideo(bluff_envs.make(game, render_mode="rgb_array", **TINY[game]), str(tmp_path), episode_trigger=lambda e: True)
    env.reset(seed=1)
    rng = np.random.default_rng(0)
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    env.close()
    videos = list(tmp_path.glob("*.mp4"))
    assert videos and videos[0].stat().st_size > 0


def test_bluff_watch_plays_a_game_in_the_terminal_and_into_a_gif(tmp_path):
    result = CliRunner().invoke(command, ["i_doubt_it", "--agents", "honest,counter,bluffer", "-o", "num_players=3",
                                          "--seed", "3"])
    assert result.exit_code == 0, result.output[-2000:]
    assert "player_0 (honest): add" in result.output and "the cards turned up are" in result.output
    assert "game over:" in result.output
    gif = tmp_path / "game.gif"
    result = CliRunner().invoke(command, ["seven_spades", "--agents", "counter", "--seed", "1", "--gif", str(gif)])
    assert result.exit_code == 0, result.output[-2000:]
    from PIL import Image

    with Image.open(gif) as image:
        assert image.n_frames > 3
