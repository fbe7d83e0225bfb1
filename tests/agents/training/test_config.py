"""Training configs (MaskablePPO and RLlib): strict loading, every problem at once naming its
key, the ranges, and every shipped config loads."""

from __future__ import annotations

import math
import os
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from agents.rllib import config as rllib
from agents.rllib.config import is_rllib_config
from agents.training.config import config_from_dict, load_config
from agents.training.config_loader import ConfigError
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


def problems(data, load=config_from_dict) -> list[str]:
    with pytest.raises(ConfigError) as caught:
        load(data)
    return caught.value.problems


@pytest.fixture
def two_cores(monkeypatch):
    monkeypatch.setattr(os, "cpu_count", lambda: 2)


def test_a_minimal_config_takes_every_default():
    config = config_from_dict(MINIMAL)
    assert config.total_steps == 1000 and config.ppo.n_steps == 64 and config.ppo.gamma == 0.995
    assert config.opponents.fixed == ("random",) and config.learner.seat == "rotate"
    assert config_from_dict(config.to_dict()) == config  # the resolved config reloads as itself
    assert config.replace(total_steps=5).total_steps == 5 and config.replace(total_steps=5).ppo == config.ppo


def test_integers_are_fine_for_numbers_and_read_as_floats():
    config = config_from_dict(with_(ppo__gamma=1, ppo__ent_coef=0, learner={"shaping": {"hand_sizes[0]": -1}}))
    assert config.ppo.gamma == 1.0 and isinstance(config.ppo.gamma, float) and isinstance(config.ppo.ent_coef, float)
    assert config.learner.shaping == {"hand_sizes[0]": -1.0} and isinstance(config.learner.shaping["hand_sizes[0]"], float)
    assert config.to_dict()["ppo"]["gamma"] == 1.0


def test_replace_checks_the_types_too():
    with pytest.raises(ValueError):
        config_from_dict(MINIMAL).replace(total_steps="many")


# (changes, the one problem expected: its start)
BAD = [
    ({"ppo__lerning_rate": 0.1}, "ppo.lerning_rate: unknown key; allowed: learning_rate, n_steps, "),
    ({"totl_steps": 5}, "totl_steps: unknown key; allowed: game, total_steps, seed, "),
    ({"total_steps": "many"}, "total_steps: wrong type: str 'many'; allowed: an integer from 1 to 10000000000"),
    ({"total_steps": 0}, "total_steps: out of range: int 0; allowed: an integer from 1 to"),
    ({"ppo__n_epochs": 2.5}, "ppo.n_epochs: wrong type: float 2.5; allowed: an integer"),
    ({"ppo__target_kl": "small"}, "ppo.target_kl: wrong type: str 'small'; allowed: a finite number > 0 or null"),
    ({"network__pi": [64, "wide"]}, "network.pi[1]: wrong type: str 'wide'; allowed: an integer from 1 to 65536"),
    ({"network__pi": "wide"}, "network.pi: wrong type: str 'wide'; allowed: a list of at most 64 entries, each entry"),
    ({"network__activation": "gelu"}, "network.activation: not one of the choices: str 'gelu'; allowed: one of 'tanh', 'relu'"),
    ({"network__focus": {"claim_rank": ["hands"]}}, "network.focus: the observation has no field 'hands'"),
    ({"network__focus": {"claim_rank": ["phase"]}}, "network.focus: 'phase' has 2 entries, not a multiple of the 13 of 'claim_rank'"),
    ({"network__focus": {"claim_rank": "hand"}}, "network.focus.claim_rank: wrong type: str 'hand'; allowed: a list of observation field names"),
    ({"network__features": ["card_play"]}, "network.features: i_doubt_it has no feature set 'card_play' (it has: doubt)"),
    ({"game": {"name": "tarneeb"}, "network__features": ["card_play", "card_play"]}, "network.features: a feature set is named twice"),
    ({"opponents__sampling": "best"}, "opponents.sampling: not one of the choices: str 'best'; allowed: one of 'uniform', 'latest', 'pfsp'"),
    ({"opponents__fixed": ["nobody"]}, "opponents.fixed[0]: unknown agent 'nobody' for i_doubt_it"),
    ({"opponents__fixed": []}, "opponents.fixed: empty: list []; allowed: a non-empty list of agent specs"),
    ({"opponents__fixed": ["random", "random"]}, "opponents.fixed: lists an agent twice: ['random', 'random']"),
    ({"opponents__tables": [["honest", "nobody"]]}, "opponents.tables[0][1]: unknown agent 'nobody' for i_doubt_it"),
    ({"opponents__tables": [[]]}, "opponents.tables[0]: empty: list []; allowed: a non-empty list, each entry an agent spec"),
    ({"opponents__tables": "honest"}, "opponents.tables: wrong type: str 'honest'; allowed: a list of tables"),
    ({"opponents__tables": [["honest"], ["honest"]]}, "opponents.tables: lists a table twice: [['honest'], ['honest']]"),
    ({"opponents__latest_share": 1.5}, "opponents.latest_share: out of range: float 1.5; allowed: a finite number from 0 to 1"),
    ({"opponents__self_play_share": 0.99}, "opponents.self_play_share: out of range: float 0.99; allowed: a finite number from 0 to 0.95"),
    ({"opponents__sampling": "latest", "opponents__self_play_share": 0.5}, "opponents.self_play_share: 0.5 with sampling 'latest'; allowed: 0 with 'latest'"),
    ({"opponents__table_share": 0.2}, "opponents.table_share: 0.2 without tables; allowed: 0, or a share with opponents.tables"),
    ({"opponents__tables": [["honest"]], "opponents__table_share": 0.5, "opponents__self_play_share": 0.5},
     "opponents.table_share: 0.5 with self_play_share 0.5; allowed: the two together below 1"),
    ({"opponents__table_share": 0.96}, "opponents.table_share: out of range: float 0.96; allowed: a finite number from 0 to 0.95"),
    ({"eval__opponents": ["ppo:/no/such.zip"]}, "eval.opponents[0]: no checkpoint at /no/such.zip"),
    ({"eval__opponents": []}, "eval.opponents: empty: list []; allowed: a non-empty list"),
    ({"warm_start__teacher": "nobody"}, "warm_start.teacher: unknown agent 'nobody'"),
    ({"league__exploiter_teachers": ["honest", "nobody"]}, "league.exploiter_teachers[1]: unknown agent 'nobody'"),
    ({"warm_start__teacher": "honest", "warm_start__copy_weights": True},
     "warm_start.copy_weights: true with teacher 'honest'; allowed: true only with a ppo: teacher"),
    ({"warm_start__copy_weights": True}, "warm_start.copy_weights: true with teacher None; allowed: true only with a ppo:"),
    ({"warm_start__teacher": "ppo:zoo/i_doubt_it_league_seed0", "warm_start__copy_weights": True},
     "warm_start.copy_weights: the teacher ppo:zoo/i_doubt_it_league_seed0 was trained with another network (pi [128, 128] "
     "(this config: [256, 256]); focus {'claim_rank': ['hand', 'my_cards_in_pile', 'known_cards'], 'required_rank': "
     "['hand']} (this config: {}); features ['doubt'] (this config: []))"),
    ({"warm_start__teacher": "ppo:zoo/i_doubt_it_league_seed0", "warm_start__copy_weights": True,
      "warm_start__dagger_rounds": 1, "network": {"pi": [128, 128], "focus": {"claim_rank": ["hand", "my_cards_in_pile", "known_cards"],
                                                                          "required_rank": ["hand"]}, "features": ["doubt"]}},
     "warm_start.dagger_rounds: 1 with copy_weights (the copy plays as its teacher, DAgger has nothing to correct)"),
    ({"learner__seat": 4}, "learner.seat: out of range: int 4; allowed: 'rotate' or a seat from 0 to 3"),
    ({"learner__seat": "left"}, "learner.seat: not allowed: str 'left'; allowed: an integer from 0 to 64 or 'rotate'"),
    ({"learner__shaping": {"hand_size": -1}}, "learner.shaping: shaping field 'hand_size' is not an observation field"),
    ({"learner__shaping": {"hand_sizes[0]": "-1"}}, "learner.shaping.hand_sizes[0]: wrong type: str '-1'; allowed: a finite number"),
    ({"learner__shaping": {3: 1.0}}, "learner.shaping.3: not a valid key (int 3); allowed: a non-empty string"),
    ({"game": {"name": "i_doubt_it", "options": {"num_players": 12}}}, "game.options: option num_players=12 is out of range"),
    ({"game": {"name": "poker"}}, "game.name: unknown game 'poker'"),
    ({"game": {"options": {}}}, "game.name: missing; allowed: a game name: i_doubt_it, "),
    ({"game": "i_doubt_it"}, "game: wrong type: str 'i_doubt_it'; allowed: a mapping with keys name, options"),
    ({"ppo": None}, "ppo: empty; allowed: a mapping with keys learning_rate, "),
    ({"ppo__batch_size": 4096}, "ppo.batch_size: 4096 is larger than a rollout (ppo.n_steps 64 x num_envs 8 = 512); allowed: at most 512"),
    ({"vec_env": "ray"}, "vec_env: not one of the choices: str 'ray'; allowed: one of 'dummy', 'subproc'"),
    # strict types: no string read as a number, a bool is not an integer nor a number, a number is not a bool
    ({"ppo__n_steps": "64"}, "ppo.n_steps: wrong type: str '64'; allowed: an integer from 1 to 1000000"),
    ({"ppo__n_steps": True}, "ppo.n_steps: wrong type: bool true; allowed: an integer"),
    ({"ppo__n_steps": 64.0}, "ppo.n_steps: wrong type: float 64.0; allowed: an integer"),
    ({"ppo__gamma": "0.99"}, "ppo.gamma: wrong type: str '0.99'; allowed: a finite number from 0 to 1"),
    ({"ppo__ent_coef": False}, "ppo.ent_coef: wrong type: bool false; allowed: a finite number >= 0"),
    ({"ppo__normalize_advantage": 1}, "ppo.normalize_advantage: wrong type: int 1; allowed: true or false"),
    ({"opponents__per_seat": "yes"}, "opponents.per_seat: wrong type: str 'yes'; allowed: true or false"),
    ({"num_envs": [8]}, "num_envs: wrong type: list [8]; allowed: an integer from 1 to 4096"),
    ({"checkpoint__average_last": 1}, "checkpoint.average_last: 1; allowed: 0 (the last checkpoint is the final agent) "
                                      "or at least 2 checkpoints to average"),
    ({"checkpoint__average_last": 4, "checkpoint__every": 100}, "checkpoint.average_last: 4, more than the "
                                                                "checkpoint.keep 3 that stay; allowed: at most 3"),
    ({"checkpoint__average_last": 3, "checkpoint__every": 200}, "checkpoint.average_last: 3, but 1,000 steps in rollouts "
                                                                "of 512 with a checkpoint every 200 write 2; allowed: at most 2"),
    ({"checkpoint__average_last": 101}, "checkpoint.average_last: out of range: int 101; allowed: an integer from 0 to 100"),
    ({"league__exploiter_tables": 0.3}, "league.exploiter_tables: 0.3 without exploiters (league.every: 0, no "
                                        "league.known_exploiters); allowed: 0, or a league.every above 0, or known "
                                        "exploiters"),
    ({"league__known_exploiters": ["counter"]}, "league.known_exploiters[0]: 'counter' is not a checkpoint that samples "
                                                "from its policy; allowed: ppo:<checkpoint or run> (a temperature may "
                                                "follow, never @greedy)"),
    ({"league__exploiter_tables": 0.96}, "league.exploiter_tables: out of range: float 0.96; allowed: a finite number "
                                         "from 0 to 0.95"),
]


@pytest.mark.parametrize(("changes", "problem"), BAD, ids=[f"bad{i}" for i in range(len(BAD))])
def test_a_bad_config_is_rejected_naming_the_key(changes, problem):
    found = problems(with_(**changes))
    assert len(found) == 1 and found[0].startswith(problem), found


# ranges that were wrong before: (changes, key, what the message says is allowed)
SEED = "an integer from 0 to 4294967295"
RANGES = [
    ({"seed": -1}, "seed", SEED), ({"seed": 2**32}, "seed", SEED), ({"seed": 10**30}, "seed", SEED),
    ({"seed": True}, "seed", SEED), ({"seed": "7"}, "seed", SEED), ({"seed": 7.0}, "seed", SEED),
    ({"eval__seed": -5}, "eval.seed", SEED), ({"eval__seed": 2**32}, "eval.seed", SEED),
    ({"ppo__learning_rate": 0}, "ppo.learning_rate", "a finite number > 0"),
    ({"ppo__learning_rate": -3e-4}, "ppo.learning_rate", "a finite number > 0"),
    ({"ppo__learning_rate": math.inf}, "ppo.learning_rate", "a finite number > 0"),
    ({"ppo__learning_rate": math.nan}, "ppo.learning_rate", "a finite number > 0"),
    ({"warm_start__learning_rate": 0.0}, "warm_start.learning_rate", "a finite number > 0"),
    ({"ppo__gamma": -0.01}, "ppo.gamma", "a finite number from 0 to 1"),
    ({"ppo__gamma": 1.01}, "ppo.gamma", "a finite number from 0 to 1"),
    ({"ppo__gamma": math.nan}, "ppo.gamma", "a finite number from 0 to 1"),
    ({"ppo__gae_lambda": -0.5}, "ppo.gae_lambda", "a finite number from 0 to 1"),
    ({"ppo__gae_lambda": 2}, "ppo.gae_lambda", "a finite number from 0 to 1"),
    ({"ppo__clip_range": 0}, "ppo.clip_range", "a finite number > 0"),
    ({"ppo__clip_range": math.inf}, "ppo.clip_range", "a finite number > 0"),
    ({"ppo__target_kl": 0}, "ppo.target_kl", "a finite number > 0 or null"),
    ({"ppo__target_kl": -0.01}, "ppo.target_kl", "a finite number > 0 or null"),
    ({"ppo__target_kl": math.inf}, "ppo.target_kl", "a finite number > 0 or null"),
    ({"ppo__max_grad_norm": 0}, "ppo.max_grad_norm", "a finite number > 0"),
    ({"ppo__max_grad_norm": math.nan}, "ppo.max_grad_norm", "a finite number > 0"),
    ({"ppo__ent_coef": -0.01}, "ppo.ent_coef", "a finite number >= 0"),
    ({"ppo__ent_coef": math.inf}, "ppo.ent_coef", "a finite number >= 0"),
    ({"ppo__vf_coef": -1}, "ppo.vf_coef", "a finite number >= 0"),
    ({"ppo__vf_coef": math.nan}, "ppo.vf_coef", "a finite number >= 0"),
    ({"network__pi": [0]}, "network.pi[0]", "an integer from 1 to 65536"),
    ({"network__pi": [64, -1]}, "network.pi[1]", "an integer from 1 to 65536"),
    ({"network__vf": [0, 64]}, "network.vf[0]", "an integer from 1 to 65536"),
    ({"eval__deals": 10**8}, "eval.deals", "an integer from 1 to 10000000"),
    ({"eval__final_deals": 10**8}, "eval.final_deals", "an integer from 0 to 10000000"),
    ({"total_steps": 10**11}, "total_steps", "an integer from 1 to 10000000000"),
    ({"ppo__n_steps": 10**7}, "ppo.n_steps", "an integer from 1 to 1000000"),
    ({"num_envs": 10**5}, "num_envs", "an integer from 1 to 4096"),
    ({"warm_start__decisions": 10**10}, "warm_start.decisions", "an integer from 1 to 1000000000"),
    ({"opponents__max_snapshots": 10**9}, "opponents.max_snapshots", "an integer from 0 to 10000"),
    ({"checkpoint__every": 0}, "checkpoint.every", "an integer from 1 to 10000000000"),
]


@pytest.mark.parametrize(("changes", "key", "allowed"), RANGES, ids=[f"range{i}" for i in range(len(RANGES))])
def test_values_out_of_range_are_refused(changes, key, allowed):
    found = problems(with_(**changes))
    assert len(found) == 1 and found[0].startswith(f"{key}: ") and found[0].endswith(f"allowed: {allowed}"), found


@pytest.mark.parametrize("changes", [
    {"seed": 0}, {"seed": 2**32 - 1}, {"eval__seed": 2**32 - 1}, {"ppo__gamma": 0}, {"ppo__gamma": 1},
    {"ppo__gae_lambda": 1.0}, {"ppo__target_kl": None}, {"ppo__target_kl": 0.02}, {"ppo__ent_coef": 0},
    {"eval__deals": 10**7}, {"network__pi": []},
    # rollouts of 512 steps, a checkpoint every 400: at 512, 1024 and the end, 1536; all kept
    {"total_steps": 1536, "checkpoint__average_last": 3, "checkpoint__every": 400, "checkpoint__keep": 0},
    {"total_steps": 1536, "checkpoint__average_last": 3, "checkpoint__every": 400, "checkpoint__keep": 3},
])
def test_values_at_the_ends_of_their_ranges_are_fine(changes):
    config = config_from_dict(with_(**changes)).to_dict()
    for key, value in changes.items():
        section, _, name = key.partition("__")
        assert (config[section][name] if name else config[section]) == value


@pytest.mark.parametrize(("total", "rollout", "every"), [
    (1000, 512, 400), (1536, 512, 400), (2048, 512, 1024), (5000, 512, 700), (4096, 1024, 256), (100, 512, 50),
    (2_000_000, 8192, 500_000),
])
def test_scheduled_checkpoints_counts_the_rollout_ends_on_schedule(total, rollout, every):
    from agents.training.config import on_schedule, scheduled_checkpoints

    config = config_from_dict(with_(total_steps=total, ppo__n_steps=rollout // 8, ppo__batch_size=64,
                                    checkpoint__every=every))
    ends = range(rollout, -(-total // rollout) * rollout + 1, rollout)  # every rollout's end; the last is the run's
    assert scheduled_checkpoints(config) == sum(on_schedule(config, s) for s in ends)
    assert on_schedule(config, ends[-1]) and not on_schedule(config, 0)


def test_evaluation_workers_are_at_most_the_machines_cores(two_cores):
    assert config_from_dict(with_(eval__workers=2)).eval.workers == 2
    found = problems(with_(eval__workers=3))
    assert found == ["eval.workers: more workers than this machine's 2 cores: int 3; "
                     "allowed: an integer from 1 to 2 (this machine's cores)"]


@pytest.mark.parametrize("partner", ["pool", "honest"])
def test_a_partner_is_an_error_for_a_game_without_partnerships(partner):
    found = problems(with_(learner={"partner": partner}))
    assert found == [f"learner.partner: {partner!r}, but i_doubt_it has no partnerships; allowed: 'self'"]


@pytest.mark.parametrize("partner", ["self", "pool", "rule_based"])
def test_a_partner_is_fine_for_tarneeb(partner):
    config = config_from_dict(with_(game={"name": "tarneeb", "options": {"episode": "deal"}}, learner={"partner": partner}))
    assert config.learner.partner == partner


def test_a_mixture_is_no_warm_start_teacher():
    found = problems(with_(warm_start={"teacher": "mix:honest+counter"}))
    assert found == ["warm_start.teacher: 'mix:honest+counter' is a mixture; allowed: a single agent spec (random, a "
                     "heuristic, ppo:<checkpoint>)"]


def test_exploiter_tables_are_an_error_for_a_partnership_game():
    found = problems(with_(game={"name": "tarneeb"}, league={"every": 500, "exploiter_tables": 0.3}))
    assert found == ["league.exploiter_tables: 0.3, but tarneeb is played in partnerships (its exploiter holds a whole "
                     "side); allowed: 0"]
    assert config_from_dict(with_(league={"every": 500, "exploiter_tables": 0.3})).league.exploiter_tables == 0.3
    both = with_(league={"every": 500, "exploiter_tables": 0.3}, engine="reference")  # both learner envs have it
    assert config_from_dict(both).league.exploiter_tables == 0.3


def test_every_problem_is_reported_at_once():
    found = problems(with_(ppo__lerning_rate=0.1, ppo__n_step=8))
    assert sorted(p.split(":")[0] for p in found) == ["ppo.lerning_rate", "ppo.n_step"]
    found = problems(with_(seed=-1, ppo__gamma=2, network__pi=[0], opponents__fixed=["nobody"],
                           eval__opponents=["honest", "sneaky"], learner={"seat": 9}, colour="red"))
    assert sorted(p.split(":")[0] for p in found) == sorted([
        "seed", "colour", "ppo.gamma", "network.pi[0]", "learner.seat", "opponents.fixed[0]", "eval.opponents[1]"])


def test_checks_of_meaning_skip_the_parts_whose_shape_is_wrong():
    # num_envs refused: the batch is not compared with a rollout made of the default
    assert [p.split(":")[0] for p in problems(with_(num_envs="8", ppo__batch_size=4096))] == ["num_envs"]
    # the options refused: no game is built, so nothing is checked against a game of the wrong size
    found = problems(with_(game={"name": "i_doubt_it", "options": []}, learner={"seat": 3}))
    assert [p.split(":")[0] for p in found] == ["game.options"]


def test_a_resolved_config_is_plain_data_in_the_order_of_the_fields():
    data = config_from_dict(with_(network__pi=[32, 16])).to_dict()
    assert list(data) == ["game", "total_steps", "seed", "num_envs", "engine", "vec_env", "torch_threads", "learner", "ppo",
                          "network", "opponents", "eval", "checkpoint", "warm_start", "league"]
    assert data["network"]["pi"] == [32, 16] and data["opponents"]["fixed"] == ["random"]
    assert yaml.safe_load(yaml.safe_dump(data, sort_keys=False)) == data


# -- files -----------------------------------------------------------------------------------


def write(tmp_path, text: str | bytes, name: str = "config.yaml") -> Path:
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return path


def test_problems_of_the_file_come_with_the_rest(tmp_path):
    path = write(tmp_path, "game: {name: i_doubt_it}\ntotal_steps: 10\nppo: {n_steps: 8, n_steps: 16, lerning_rate: 1}\n"
                           "total_steps: 20\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert caught.value.problems[:3] == [
        "total_steps: given twice (lines 2 and 4); allowed: each key once",
        "ppo.n_steps: given twice (both on line 3); allowed: each key once",
        "ppo.lerning_rate: unknown key; allowed: learning_rate, n_steps, batch_size, n_epochs, gamma, gae_lambda, "
        "clip_range, ent_coef, vf_coef, max_grad_norm, target_kl, normalize_advantage",
    ]
    assert str(caught.value).startswith(f"{path}: invalid training config, 4 problems:\n  total_steps: given twice")


@pytest.mark.parametrize(("text", "problem"), [
    (b"game: {name: i_doubt_it}\ntotal_steps: 10\nseed: \xff\xfe\n",
     "the file: not UTF-8 text (byte 0xff at line 3, column 7); allowed: UTF-8 text"),
    (b"\xfe\xff\x00g\x00a\x00m\x00e", "the file: not UTF-8 text (byte 0xfe at line 1, column 1)"),
    ("game: {name: i_doubt_it\ntotal_steps: 10\n", "the file: not valid YAML ("),
    ("game:\n\t- 1\n", "the file: not valid YAML ("),
    ("a: 1\n---\nb: 2\n", "the file: not valid YAML ("),
    ("- 1\n- 2\n", "the top level: wrong type: list [1, 2]; allowed: a mapping with keys game, total_steps, "),
    ("# nothing here\n", "the top level: empty; allowed: a mapping with keys game, total_steps, "),
    ("just words\n", "the top level: wrong type: str 'just words'; allowed: a mapping"),
    ("game: &g {name: i_doubt_it, options: *g}\ntotal_steps: 5\n", "the file: a YAML alias refers to a value that contains it"),
    ("a: " + "[" * 60 + "]" * 60 + "\n", "the file: nested more than 50 levels deep; allowed: at most 50 levels"),
    ("a: " + "[" * 100_000 + "]" * 100_000 + "\n", "the file: "),
    ("total_steps: " + "9" * 5000 + "\n", "the file: a value cannot be read ("),
])
def test_a_file_that_gives_no_config_is_one_clear_problem(tmp_path, text, problem):
    with pytest.raises(ConfigError) as caught:
        load_config(write(tmp_path, text))
    assert len(caught.value.problems) == 1 and caught.value.problems[0].startswith(problem), caught.value.problems
    assert str(caught.value).startswith(str(tmp_path / "config.yaml")) and len(str(caught.value)) < 1000


def test_a_missing_a_directory_or_a_huge_file_is_named(tmp_path):
    for path, problem in [(tmp_path / "none.yaml", "the file: not found"), (tmp_path, "the file: is a directory"),
                          (write(tmp_path, "#" * (2 << 20)), "the file: too large (2097152 bytes)")]:
        with pytest.raises(ConfigError) as caught:
            load_config(path)
        assert caught.value.problems[0].startswith(problem) and str(path) in str(caught.value)


# the classic "billion laughs": 9 ** 9 strings in 340 bytes
BOMB = "a: &a [lol,lol,lol,lol,lol,lol,lol,lol,lol]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{','.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8))


def bomb_below_the_limit() -> str:
    """A few hundred bytes that expand to some 9,000 values, every one of them wrong."""
    return ("x: &x [1,1,1,1,1,1,1,1,1,1]\ny: &y [*x,*x,*x,*x,*x,*x,*x,*x,*x,*x]\n"
            "game: {name: i_doubt_it}\ntotal_steps: 10\n"
            "network: {focus: {" + ", ".join(f"f{i}: *y" for i in range(8)) + "}}\n")


@pytest.mark.parametrize("text", [BOMB, bomb_below_the_limit()], ids=["billion_laughs", "below_the_limit"])
def test_an_alias_bomb_fails_fast_with_a_short_message(tmp_path, text):
    import time

    assert len(text) < 500
    path = write(tmp_path, text)
    load_config_once = time.perf_counter()
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert time.perf_counter() - load_config_once < 0.5
    assert len(str(caught.value)) < 5500 and all(len(p) <= 400 for p in caught.value.problems)


def test_a_message_lists_fifty_problems_then_counts_the_rest():
    bad = with_(learner={"shaping": {f"k{i}": "x" for i in range(200)}})
    with pytest.raises(ConfigError) as caught:
        config_from_dict(bad)
    assert len(caught.value.problems) == 200  # every problem, ...
    lines = str(caught.value).splitlines()  # ... the first fifty in the message
    assert lines[0] == "training config: invalid training config, 200 problems:"
    assert lines[1] == "  learner.shaping.k0: wrong type: str 'x'; allowed: a finite number"
    assert len(lines) == 52 and lines[-1] == "  … and 150 more"


def test_a_message_of_long_problems_is_cut_short_too():
    with pytest.raises(ConfigError) as caught:
        config_from_dict(with_(eval__opponents=[f"{'z' * 300}{i}" for i in range(100)]))
    assert len(caught.value.problems) == 100 and all(len(p) <= 400 for p in caught.value.problems)
    assert len(str(caught.value)) < 5500 and str(caught.value).splitlines()[-1].startswith("  … and ")


def test_values_shown_in_messages_are_cut():
    (found,) = problems(with_(seed="x" * 10_000))
    assert found.startswith("seed: wrong type: str 'xxxx") and "…" in found and len(found) < 200
    (found,) = problems(with_(game={"name": "y" * 10_000}))
    assert found.startswith("game.name: unknown game 'yyyy") and len(found) <= 400
    (found,) = problems(with_(num_envs={"a" * 500: list(range(1000))}))
    assert found.startswith("num_envs: wrong type: mapping {'aaa") and len(found) < 200


def test_a_config_error_is_a_value_error_that_pickles():
    import pickle

    error = pickle.loads(pickle.dumps(ConfigError(["seed: out of range: int -1; allowed: 0"], "x.yaml", "training config")))
    assert isinstance(error, ValueError) and error.problems == ["seed: out of range: int -1; allowed: 0"]
    assert str(error) == "x.yaml: invalid training config:\n  seed: out of range: int -1; allowed: 0"


# -- the shipped configs ----------------------------------------------------------------------

# the MaskablePPO configs (those saying `algorithm: rllib` belong to agents.rllib)
# <recipe>_continued, _shaped, _strong, _selfplay, _tables, _symmetric, _entropy, _slow, _third,
# _fourth, _fifth, _sixth, _seventh, _record, _mixed (and stacked, e.g. _symmetric_continued): a step that goes on from another recipe's agents (in the zoo)
STEPS = ("_answers", "_mostly", "_strong", "_shaped", "_mixed", "_record", "_seventh", "_sixth", "_fifth", "_fourth", "_third", "_entropy", "_slow", "_continued", "_selfplay", "_tables", "_symmetric")
SHIPPED = sorted(p for p in (ROOT / "experiments" / "train").glob("*.yaml") if not is_rllib_config(p))
SHIPPED_RLLIB = sorted(p for p in (ROOT / "experiments" / "train").glob("*.yaml") if is_rllib_config(p))


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_every_shipped_training_config_loads(path):
    config = load_config(path)
    assert config.game.name == base_name(path.stem.removeprefix("league_").removeprefix("population_"))
    assert path.stem.startswith(("league_", "population_")) == bool(config.league.every)
    assert config.eval.final_deals * games_per_deal(config) >= 2000  # the bars' sample size
    assert config_from_dict(config.to_dict()) == config


def base_name(stem: str) -> str:
    """A name without its step suffixes (``tarneeb_selfplay`` -> ``tarneeb``): the game's recipe."""
    while stem.endswith(STEPS):
        stem = next(stem.removesuffix(step) for step in STEPS if stem.endswith(step))
    return stem


def games_per_deal(config) -> int:
    """The final evaluation's games per deal: every line-up in its distinct seat rotations."""
    import bluff_envs
    from agents import GameInfo
    from agents.training.evaluate import lineups

    game = GameInfo.of(bluff_envs.make(config.game.name, raw=True, **config.game.options))
    return sum(len({tuple(seats[k:] + seats[:k]) for k in range(len(seats))})
               for seats in lineups(game, "learner", config.eval.opponents))


def test_there_is_a_training_config_for_every_game():
    import bluff_envs

    stems = {p.stem for p in SHIPPED}
    assert {s for s in stems if not s.startswith("population_") and base_name(s) == s} == (
        set(bluff_envs.GAMES) | {f"league_{g}" for g in bluff_envs.GAMES})
    assert {base_name(s) for s in stems} <= stems
    assert {base_name(s.removeprefix("population_")) for s in stems if s.startswith("population_")} <= set(bluff_envs.GAMES)


@pytest.mark.parametrize("path", [p for p in SHIPPED if load_config(p).warm_start.copy_weights], ids=lambda p: p.stem)
def test_a_step_goes_on_from_a_zoo_agent_of_a_shipped_recipe(path):
    """A step (``warm_start.copy_weights``) starts from an entry of the zoo, whose recipe is shipped
    and plays the same game: what it goes on from can be trained again from the repository."""
    from agents.base import play_mode
    from agents.ppo import zoo

    teacher = load_config(path).warm_start.teacher
    assert teacher.startswith("ppo:zoo/"), f"{path.name}: a step's teacher is a zoo entry, not {teacher}"
    where = play_mode(teacher.removeprefix("ppo:")).location.removeprefix("zoo/")
    if where.startswith(f"{zoo.MIXTURES}/"):  # a member of a mixture or blend entry: its record says
        member = zoo.ZOO / where
        meta = zoo.info(member.parent.with_suffix(".json"))
        assert member.name in {m["file"] for m in meta["members"]}, f"{path.name}: {teacher} is no member"
    else:
        meta = zoo.info(zoo.ZOO / f"{where}.zip")
    assert (ROOT / meta["recipe"]).exists() and meta["game"] == load_config(path).game.name


def test_bluff_train_reports_a_bad_config_before_any_work(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: {name: i_doubt_it}\ntotal_steps: 10\nppo: {n_step: 8, gamma: 2}\n")
    result = CliRunner().invoke(cli, ["train", str(bad), "--out", str(tmp_path / "run")])
    assert result.exit_code == 2 and "ppo.n_step: unknown key" in result.output and "ppo.gamma: out of range" in result.output
    assert not (tmp_path / "run").exists()
    missing = CliRunner().invoke(cli, ["train", str(tmp_path / "none.yaml")])
    assert missing.exit_code == 2 and "the file: not found" in missing.output


# -- RLlib training configs (agents.rllib.config: no Ray needed to check them) ---------------------

RLLIB = {"algorithm": "rllib", "game": {"name": "i_doubt_it"}, "total_steps": 400, "opponents": ["honest", "random"],
         "ppo": {"train_batch_size": 200, "minibatch_size": 100}}


def rllib_with(**changes):
    data = {key: dict(value) if isinstance(value, dict) else value for key, value in RLLIB.items()}
    for dotted, value in changes.items():
        section, _, key = dotted.partition("__")
        if key:
            data.setdefault(section, {})[key] = value
        else:
            data[section] = value
    return data


@pytest.mark.parametrize("path", SHIPPED_RLLIB, ids=lambda p: p.stem)
def test_every_shipped_rllib_config_loads(path):
    config = rllib.load_config(path)
    assert config.algorithm == "rllib" and rllib.config_from_dict(config.to_dict()) == config


RLLIB_BAD = [
    ({"ppo__n_steps": 10}, "ppo.n_steps: unknown key; allowed: learning_rate, train_batch_size, "),
    ({"opponents": ["nobody"]}, "opponents[0]: unknown agent 'nobody'"),
    ({"game": {"name": "i_doubt_it", "options": {"num_players": 99}}}, "game.options: option num_players=99"),
    ({"total_steps": 0}, "total_steps: out of range: int 0; allowed: an integer from 1 to"),
    ({"ppo__train_batch_size": 100, "ppo__minibatch_size": 200}, "ppo.minibatch_size: 200 is larger than ppo.train_batch_size 100"),
    ({"algorithm": "ppo"}, "algorithm: not one of the choices: str 'ppo'; allowed: 'rllib'"),
    ({"eval": {"deals": 10, "opponents": []}}, "eval.opponents: empty, but eval.deals is 10"),
    ({"seed": 2**32}, f"seed: out of range: int 4294967296; allowed: {SEED}"),
    ({"seed": "0"}, f"seed: wrong type: str '0'; allowed: {SEED}"),
    ({"eval__seed": -1}, f"eval.seed: out of range: int -1; allowed: {SEED}"),
    ({"ppo__learning_rate": 0}, "ppo.learning_rate: out of range: int 0; allowed: a finite number > 0"),
    ({"ppo__gamma": 1.5}, "ppo.gamma: out of range: float 1.5; allowed: a finite number from 0 to 1"),
    ({"ppo__gae_lambda": -1}, "ppo.gae_lambda: out of range: int -1; allowed: a finite number from 0 to 1"),
    ({"ppo__clip_range": math.inf}, "ppo.clip_range: out of range: float inf; allowed: a finite number > 0"),
    ({"ppo__max_grad_norm": 0}, "ppo.max_grad_norm: out of range: int 0; allowed: a finite number > 0"),
    ({"ppo__ent_coef": -0.5}, "ppo.ent_coef: out of range: float -0.5; allowed: a finite number >= 0"),
    ({"ppo__vf_coef": math.nan}, "ppo.vf_coef: out of range: float nan; allowed: a finite number >= 0"),
    ({"network__hiddens": [0]}, "network.hiddens[0]: out of range: int 0; allowed: an integer from 1 to 65536"),
    ({"eval__deals": 10**8}, "eval.deals: out of range: int 100000000; allowed: an integer from 0 to 10000000"),
    ({"ray__address": ""}, "ray.address: empty: str ''; allowed: a non-empty string or null"),
]


@pytest.mark.parametrize(("changes", "problem"), RLLIB_BAD, ids=[f"rllib{i}" for i in range(len(RLLIB_BAD))])
def test_a_bad_rllib_config_is_rejected_naming_the_key(changes, problem):
    found = problems(rllib_with(**changes), rllib.config_from_dict)
    assert len(found) == 1 and found[0].startswith(problem), found


def test_rllib_evaluation_workers_are_at_most_the_machines_cores(two_cores):
    assert rllib.config_from_dict(rllib_with(eval__workers=2)).eval.workers == 2
    assert problems(rllib_with(eval__workers=3), rllib.config_from_dict)[0].startswith("eval.workers: more workers than")


def test_every_problem_of_an_rllib_config_is_reported_at_once(tmp_path):
    path = write(tmp_path, yaml.safe_dump(rllib_with(ppo__gamma=2, seed=-1, opponents=["nobody"], colour="red")))
    with pytest.raises(ConfigError) as caught:
        rllib.load_config(path)
    assert sorted(p.split(":")[0] for p in caught.value.problems) == ["colour", "opponents[0]", "ppo.gamma", "seed"]
    assert str(caught.value).startswith(f"{path}: invalid RLlib training config, 4 problems:")


@pytest.mark.parametrize("text", [BOMB.encode(), b"algorithm: rllib\nx: \xff\n", b"algorithm: [rllib\n"])
def test_is_rllib_config_says_no_to_a_file_it_cannot_read(tmp_path, text):
    assert not is_rllib_config(write(tmp_path, text))
    assert not is_rllib_config(tmp_path / "missing.yaml")


@pytest.mark.parametrize(("text", "problem"), [
    ("a: " + "[" * 3000 + "]" * 3000 + "\n", "the file: nested more than 50 levels deep"),
    (BOMB, "the file: more than 10000 values (YAML aliases expanded)"),
    ("game: {name: i_doubt_it, name: tarneeb}\ntotal_steps: 5\n", "game.name: given twice (both on line 1)"),
])
def test_without_libyaml_the_pure_python_parser_is_guarded_too(tmp_path, monkeypatch, text, problem):
    from agents.training import config_loader

    monkeypatch.setattr(config_loader, "_FAST_LOADER", config_loader._Loader)
    with pytest.raises(ConfigError) as caught:
        load_config(write(tmp_path, text))
    assert caught.value.problems[0].startswith(problem), caught.value.problems


def test_the_league_exploiter_teacher_of_earlier_versions_reads_as_a_list():
    """Run directories written before ``league.exploiter_teachers`` still load (and resume)."""
    base = {"game": {"name": "seven_spades", "options": {"num_players": 3}}, "total_steps": 1000}
    assert config_from_dict({**base, "league": {"exploiter_teacher": "honest"}}).league.exploiter_teachers == ("honest",)
    assert config_from_dict({**base, "league": {"exploiter_teacher": None}}).league.exploiter_teachers == ()
