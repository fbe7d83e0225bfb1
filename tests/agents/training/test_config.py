"""Training configs: strict loading (errors name the key), and every shipped config loads."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from agents.rllib.config import is_rllib_config
from agents.training.config import config_from_dict, load_config
from experiments.cli import cli

ROOT = Path(__file__).resolve().parents[3]
MINIMAL = {"game": {"name": "i_doubt_it"}, "total_steps": 1000, "ppo": {"n_steps": 64, "batch_size": 128}}


def with_(**changes):
    data = {key: dict(value) if isinstance(value, dict) else value for key, value in MINIMAL.items()}
    for dotted, value in changes.items():
        section, _, key = dotted.partition("__")
        if key:
            data.setdefault(section, {})[key] = value
        else:
            data[section] = value
    return data


def test_a_minimal_config_takes_every_default():
    config = config_from_dict(MINIMAL)
    assert config.total_steps == 1000 and config.ppo.n_steps == 64 and config.ppo.gamma == 0.995
    assert config.opponents.fixed == ("random",) and config.learner.seat == "rotate"
    assert config_from_dict(config.to_dict()) == config  # the resolved config reloads as itself


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"ppo__lerning_rate": 0.1}, "unknown key ppo.lerning_rate; keys of ppo are learning_rate, "),
        ({"totl_steps": 5}, "unknown key totl_steps"),
        ({"total_steps": "many"}, "total_steps must be an integer, not str 'many'"),
        ({"total_steps": 0}, "total_steps must be >= 1"),
        ({"ppo__n_epochs": 2.5}, "ppo.n_epochs must be an integer"),
        ({"ppo__learning_rate": 0}, "ppo.learning_rate must be > 0"),
        ({"ppo__target_kl": "small"}, "ppo.target_kl must be a number or null"),
        ({"network__pi": [64, "wide"]}, r"network.pi\[1\] must be an integer"),
        ({"network__activation": "gelu"}, "network.activation must be one of 'tanh', 'relu'"),
        ({"network__focus": {"claim_rank": ["hands"]}}, "network.focus: the observation has no field 'hands'"),
        ({"network__focus": {"claim_rank": ["phase"]}}, "network.focus: 'phase' has 2 entries, not a multiple of the 13 of 'claim_rank'"),
        ({"network__focus": {"claim_rank": "hand"}}, "network.focus.claim_rank must be a list of non-empty strings"),
        ({"network__features": ["card_play"]}, r"network.features: i_doubt_it has no feature set 'card_play' \(it has: none\)"),
        ({"game": {"name": "tarneeb"}, "network__features": ["card_play", "card_play"]}, "network.features: a feature set is named twice"),
        ({"opponents__sampling": "best"}, "opponents.sampling must be one of 'uniform', 'latest', 'pfsp'"),
        ({"opponents__fixed": ["nobody"]}, "opponents.fixed: unknown agent 'nobody' for i_doubt_it"),
        ({"eval__opponents": ["ppo:/no/such.zip"]}, "eval.opponents: no checkpoint at /no/such.zip"),
        ({"warm_start__teacher": "nobody"}, "warm_start.teacher: unknown agent 'nobody'"),
        ({"learner__seat": 4}, "learner.seat must be 'rotate' or a seat from 0 to 3, not 4"),
        ({"learner__shaping": {"hand_size": -1}}, "learner.shaping: shaping field 'hand_size' is not an observation field"),
        ({"game": {"name": "i_doubt_it", "options": {"num_players": 12}}}, "game: option num_players=12 is out of range"),
        ({"game": {"name": "poker"}}, "game: unknown game 'poker'"),
        ({"game": {"options": {}}}, "missing key game.name"),
        ({"ppo__batch_size": 4096}, "ppo.batch_size 4096 is larger than a rollout"),
        ({"vec_env": "ray"}, "vec_env must be one of 'dummy', 'subproc'"),
    ],
)
def test_a_bad_config_is_rejected_naming_the_key(changes, message):
    with pytest.raises(ValueError, match=message):
        config_from_dict(with_(**changes))


# the MaskablePPO configs (those saying `algorithm: rllib` belong to agents.rllib)
SHIPPED = sorted(p for p in (ROOT / "experiments" / "train").glob("*.yaml") if not is_rllib_config(p))


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_every_shipped_training_config_loads(path):
    config = load_config(path)
    assert config.game.name == path.stem
    assert config.eval.final_deals * len(lineup_seatings(config)) >= 2000  # the bars' sample size


def lineup_seatings(config) -> list:
    import bluff_envs
    from agents import GameInfo
    from agents.training.evaluate import lineup

    game = GameInfo.of(bluff_envs.make(config.game.name, raw=True, **config.game.options))
    seats = lineup(game, "learner", config.eval.opponents)
    return sorted({tuple(seats[k:] + seats[:k]) for k in range(len(seats))})


def test_there_is_a_training_config_for_every_game():
    import bluff_envs

    assert {p.stem for p in SHIPPED} == set(bluff_envs.GAMES)


def test_bluff_train_reports_a_bad_config_before_any_work(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: {name: i_doubt_it}\ntotal_steps: 10\nppo: {n_step: 8}\n")
    result = CliRunner().invoke(cli, ["train", str(bad), "--out", str(tmp_path / "run")])
    assert result.exit_code == 2 and "unknown key ppo.n_step" in result.output
    assert not (tmp_path / "run").exists()
    missing = CliRunner().invoke(cli, ["train", str(tmp_path / "none.yaml")])
    assert missing.exit_code == 2 and "cannot read training config" in missing.output
