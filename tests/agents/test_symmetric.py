"""``ppo:<path>@symmetric``: the policy after a relabelling of the ranks drawn per decision.
The draw picks the relabelling and the policy's sample alike in the reference agent and the
batched form; relabelling the position relabels the answer, so no rank is treated apart."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

import bluff_envs
from agents import GameInfo, make_agent
from agents.arena import match, vector_match
from agents.arena.schedule import schedule
from agents.base import play_mode
from agents.batched import batched_agent, has_batched_form
from agents.symmetric import SymmetrizedPolicy
from tests.agents.test_blend import BION, states

AGENT = "ppo:zoo/believe_it_or_not_population_seed0"
SYMMETRIC = f"{AGENT}@symmetric"


def test_both_forms_choose_alike_and_a_draw_picks_its_relabelling():
    obs, masks = states(300)
    agent, batched = make_agent(SYMMETRIC, BION, 0), batched_agent(SYMMETRIC, BION)
    assert has_batched_form(SYMMETRIC, "believe_it_or_not") and agent.name == SYMMETRIC
    assert isinstance(agent.policy, SymmetrizedPolicy)
    u = np.random.default_rng(0).random(len(obs))
    reference = [agent.decide({"observation": o, "action_mask": m}, x) for o, m, x in zip(obs, masks, u)]
    assert batched.act(obs, masks, u).tolist() == reference
    assert all(masks[i, a] for i, a in enumerate(reference))
    # the draw (k + r) / K is relabelling k, then the policy's own draw r
    symmetry, plain = BION.symmetry, make_agent(AGENT, BION).policy
    assert symmetry.count == 6_227_020_800  # 13!
    rng = np.random.default_rng(1)
    k, r = rng.integers(symmetry.count, size=len(obs)), rng.random(len(obs)) * 0.999
    shown, legal, back = symmetry.relabel(obs, masks, symmetry.permutations(k))
    expected = np.take_along_axis(back, plain.act_rows(shown, legal, r)[:, None], axis=1)[:, 0]
    chosen = batched.act(obs, masks, (k + r) / symmetry.count)
    assert (chosen == expected).mean() > 0.99  # float rounding of (k + r) / K may move a draw at a boundary
    # relabelling 0 is the identity: draws below 1 / K play the policy itself
    tiny = r / symmetry.count
    assert batched.act(obs, masks, tiny).tolist() == plain.act_rows(obs, masks, r).tolist()


def test_a_relabelled_position_gets_the_relabelled_answer():
    """The action frequencies at a position, relabelled, are those at the relabelled position:
    what the plain policy does not promise (it reads one input per rank)."""
    obs, masks = states(300)
    symmetry = BION.symmetry
    row = int(np.argmax(masks.sum(axis=1)))  # a decision with many choices
    tau = symmetry.permutations(np.array([123_456_789]))
    shown, legal, back = symmetry.relabel(obs[row:row + 1], masks[row:row + 1], tau)
    draws = np.random.default_rng(2).random(20_000)

    def frequencies(policy, o, m):
        chosen = policy.act_rows(np.repeat(o, len(draws), 0), np.repeat(m, len(draws), 0), draws)
        return np.bincount(chosen, minlength=masks.shape[1]) / len(draws)

    for spec, tolerance in ((SYMMETRIC, 0.02), (AGENT, None)):
        policy = make_agent(spec, BION).policy
        original = frequencies(policy, obs[row:row + 1], masks[row:row + 1])
        relabelled = frequencies(policy, shown, legal)[np.argsort(back[0])]  # back in the original's actions
        gap = np.abs(original - relabelled).max()
        if tolerance is not None:
            assert gap < tolerance
    assert gap > 0.05  # the plain policy answers the two positions differently


@pytest.mark.parametrize("spec, message", [
    (f"{AGENT}@symmetric@greedy", "@symmetric draws a relabelling per decision, so it samples"),
    (f"{AGENT}@greedy@symmetric", "so it samples"),
    (f"blend:{SYMMETRIC}+{AGENT}", r"play through the game's symmetry and without it .*allowed: all through it"),
    (f"{AGENT}@plain@symmetric", "@plain plays the network without the symmetry"),
    (f"{AGENT}@symmetric@symmetric", "@symmetric is given twice"),
    (f"{AGENT}@temperature=2@plain@temperature=3", "@temperature is given twice"),
])
def test_symmetric_play_that_cannot_be_is_refused(spec, message):
    with pytest.raises(ValueError, match=message):
        make_agent(spec, BION, 0)


def test_a_game_without_a_symmetry_refuses_it():
    info = GameInfo.of(bluff_envs.make("i_doubt_it", raw=True))
    assert info.symmetry is None
    with pytest.raises(ValueError, match=r"i_doubt_it has no symmetry \(games with one: believe_it_or_not\)"):
        make_agent("ppo:zoo/i_doubt_it_league_seed0@symmetric", info, 0)


def test_the_suffix_goes_before_or_after_a_temperature():
    assert play_mode("a/b.zip@symmetric@temperature=2") == play_mode("a/b.zip@temperature=2@symmetric") == \
        ("a/b.zip", False, 2.0, True, False)
    assert play_mode("a/b.zip@greedy@plain") == play_mode("a/b.zip@plain@greedy") == ("a/b.zip", True, 1.0, False, True)
    assert play_mode("a/b.zip@plain@greedy").suffix() == "@plain@greedy"
    assert play_mode("runs/snap@3@symmetric").location == "runs/snap@3"  # an '@' that is no suffix stays in the path
    assert play_mode("a/b.zip@symmetric").suffix() == "@symmetric"
    assert make_agent(f"{AGENT}@temperature=2@symmetric", BION, 0).name == f"{AGENT}@symmetric@temperature=2"
    with pytest.raises(ValueError, match="does not fit"):
        SymmetrizedPolicy(make_agent("ppo:zoo/i_doubt_it_league_seed0", GameInfo.of(
            bluff_envs.make("i_doubt_it", raw=True))).policy, BION.symmetry)


def test_symmetric_play_gives_the_reference_games_on_the_vector_engine():
    tasks = schedule("believe_it_or_not", {}, [(SYMMETRIC, AGENT, "counter", f"{SYMMETRIC}#copy")], 3, 5,
                     "rotations", "reference")
    assert vector_match.can_play(tasks)
    reference = [json.dumps(x, sort_keys=True) for x in match.play_batch(tasks)]
    vector = [dataclasses.replace(t, engine="vector") for t in tasks]
    records = vector_match.play_tasks(vector, vector_match.VectorTable(3))
    assert [json.dumps(match.result_line(t, r), sort_keys=True) for t, r in zip(vector, records)] == reference


def trained_symmetric(tmp_path, meta_change) -> str:
    """The zoo agent's network as a checkpoint whose metadata (changed by ``meta_change``) may say
    it was trained through the symmetry."""
    import zipfile

    from agents.ppo import checkpoint
    from agents.ppo.agent import checkpoint_file

    source = checkpoint_file(AGENT[len("ppo:"):])
    meta = checkpoint.read_metadata(source)
    meta_change(meta)
    out = tmp_path / "trained.zip"
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr(checkpoint.FOLDER + "metadata.json", json.dumps(meta))
        archive.writestr(checkpoint.FOLDER + "policy.npz", checkpoint.read_extra(source, "policy.npz"))
    return f"ppo:{out}"


@pytest.mark.parametrize("says", ["metadata", "config"])
def test_a_network_trained_through_the_symmetry_plays_through_it_unless_plain(tmp_path, says):
    """Its metadata's ``symmetric`` (or, written before that key, its config's
    ``learner.symmetric``) makes ``ppo:<path>`` play as ``@symmetric``; ``@plain`` plays the
    network alone, and greedy play needs ``@plain``."""
    def mark(meta):
        if says == "metadata":
            meta["symmetric"] = True
        else:
            meta.pop("symmetric", None)
            meta["config"] = {**meta.get("config", {}), "learner": {"symmetric": True}}

    spec = trained_symmetric(tmp_path, mark)
    obs, masks = states(200)
    u = np.random.default_rng(3).random(len(obs))
    default, explicit = make_agent(spec, BION, 0), make_agent(f"{spec}@symmetric", BION, 0)
    assert isinstance(default.policy, SymmetrizedPolicy) and default.name == spec
    assert default.policy.act_rows(obs, masks, u).tolist() == explicit.policy.act_rows(obs, masks, u).tolist()
    assert batched_agent(spec, BION).act(obs, masks, u).tolist() == default.policy.act_rows(obs, masks, u).tolist()
    plain, network = make_agent(f"{spec}@plain", BION, 0), make_agent(AGENT, BION, 0)
    assert not isinstance(plain.policy, SymmetrizedPolicy) and plain.name == f"{spec}@plain"
    assert plain.policy.act_rows(obs, masks, u).tolist() == network.policy.act_rows(obs, masks, u).tolist()
    assert make_agent(f"{spec}@plain@greedy", BION, 0).sample is False
    with pytest.raises(ValueError, match=r"trained through the game's symmetry .* ppo:<path>@plain@greedy"):
        make_agent(f"{spec}@greedy", BION, 0)
    # a blend of such networks plays the blend of the networks through the symmetry; with a plain member, refused
    blend = make_agent(f"blend:{spec}+{AGENT}@symmetric", BION, 0)
    assert isinstance(blend.policy, SymmetrizedPolicy)
    assert batched_agent(f"blend:{spec}+{AGENT}@symmetric", BION).act(obs, masks, u).tolist() == \
        blend.policy.act_rows(obs, masks, u).tolist()
    assert make_agent(f"blend:{spec}@plain+{AGENT}", BION, 0).policy.__class__.__name__ == "BlendedPolicy"
    with pytest.raises(ValueError, match="allowed: all through it"):
        make_agent(f"blend:{spec}+{AGENT}", BION, 0)


def test_a_blend_through_the_symmetry_draws_its_relabelling_first():
    """Relabelling ⌊u·K⌋ of the blend, then member and sample from the draw left (so an action's
    probability is the mean of the members' symmetrized policies): for a draw below 1 / K
    (relabelling 0, the identity) it plays the plain blend."""
    obs, masks = states(300)
    both = f"blend:{SYMMETRIC}+ppo:zoo/believe_it_or_not_population_seed1@symmetric"
    plain = make_agent(f"blend:{AGENT}+ppo:zoo/believe_it_or_not_population_seed1", BION, 0).policy
    r = np.random.default_rng(4).random(len(obs)) * 0.999
    chosen = make_agent(both, BION, 0).policy.act_rows(obs, masks, r / BION.symmetry.count)
    assert chosen.tolist() == plain.act_rows(obs, masks, r).tolist()


def test_a_symmetric_mark_that_is_no_bool_is_refused(tmp_path):
    spec = trained_symmetric(tmp_path, lambda meta: meta.update(symmetric="yes"))
    with pytest.raises(ValueError, match=r"metadata.json says symmetric: 'yes'; allowed: true .* or false"):
        make_agent(spec, BION, 0)
