"""One SeedSequence per run: distinct streams per use, and training never starts from an
evaluation deal's seed."""

from agents.arena.schedule import schedule
from agents.training.seeds import RunSeeds, eval_deal_seeds, periodic_eval_seed


def test_every_use_gets_its_own_seed_and_the_same_run_gets_the_same_seeds():
    seeds = RunSeeds(7)
    used = [seeds.model(), seeds.warm_start(0), seeds.warm_start(1), seeds.warm_start_env(),
            *seeds.envs(0, 8), *seeds.envs(4096, 8)]
    assert len(set(used)) == len(used)
    again = RunSeeds(7)
    assert again.model() == seeds.model() and again.envs(0, 8) == seeds.envs(0, 8)
    assert RunSeeds(8).model() != seeds.model()


def test_evaluation_deals_are_the_ones_the_schedule_deals_and_training_avoids_them():
    deal_seeds = eval_deal_seeds(2024, deals=5, final_deals=20)
    final = {t.deal_seed for t in schedule("i_doubt_it", {}, [("a", "b")], 20, 2024)}
    periodic = {t.deal_seed for t in schedule("i_doubt_it", {}, [("a", "b")], 5, periodic_eval_seed(2024))}
    assert deal_seeds == final | periodic and not final & periodic
    natural = RunSeeds(3).envs(0, 4)
    dodged = RunSeeds(3, avoid={natural[1]}).envs(0, 4)
    assert dodged[1] != natural[1] and dodged[0] == natural[0] and dodged[2:] == natural[2:]
