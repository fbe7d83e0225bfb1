"""Options of Tarneeb (RULES.md §4), validated once into a frozen config."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bluff_envs import options as opt

GAME = "tarneeb"
VARIANTS = ("lebanese", "egyptian")
BIDDINGS = ("rounds", "single_round")
ALL_PASS_RULES = ("redeal", "dealer_bids_7")
SCORINGS = ("standard", "tricks")
EPISODES = ("game", "deal")
MAX_TARGET = 500
TURNS_PER_POINT = 100  # the default max_turns is this many decisions per point of target_score
DEFAULT_TARGET = {"lebanese": 31, "egyptian": 41}

# options that exist in one variant only (RULES.md §4, "Egyptian Tarneeb")
LEBANESE_ONLY = ("bidding", "allow_no_trump", "scoring")
EGYPTIAN_ONLY = ("allow_double", "double_multiplier")


@dataclass(frozen=True)
class TarneebConfig:
    variant: str = "lebanese"
    bidding: str = "rounds"
    all_pass: str = "redeal"
    allow_no_trump: bool = False
    first_lead_trump: bool = False
    scoring: str = "standard"
    target_score: int = 31
    episode: str = "game"
    redeal_weak_hands: bool = False
    allow_double: bool = False
    double_multiplier: int = 2
    max_turns: int = 3100

    # name, default, allowed values: what `bluff list` prints
    OPTIONS = (
        ("variant", "'lebanese'", "'lebanese' or 'egyptian' (bids name a strain; doubling)"),
        ("bidding", "'rounds'", "'rounds' (until three pass) or 'single_round'; Lebanese only"),
        ("all_pass", "'redeal'", "'redeal' (same dealer deals again) or 'dealer_bids_7'"),
        ("allow_no_trump", "False", "True or False (declarer may name no trump); Lebanese only"),
        ("first_lead_trump", "False", "True or False (the first lead must be a trump if possible)"),
        ("scoring", "'standard'", "'standard' or 'tricks' (failed contract: -bid, opponents their tricks); Lebanese only"),
        ("target_score", "31 Lebanese, 41 Egyptian", f"an integer from 1 to {MAX_TARGET}"),
        ("episode", "'game'", "'game' (deals until the target; reward +1/-1) or 'deal' (one deal)"),
        ("redeal_weak_hands", "False", "True or False (throw in a deal where a hand is worthless)"),
        ("allow_double", "True (Egyptian)", "True or False (declarer may double his contract); Egyptian only"),
        ("double_multiplier", "2 (Egyptian)", "an integer from 2 to 4 (4 is a known variant); Egyptian only"),
        ("max_turns", "100 x target_score", "an integer >= 1 (decisions of all kinds before truncation)"),
    )

    @property
    def egyptian(self) -> bool:
        return self.variant == "egyptian"

    @classmethod
    def from_options(cls, **options: Any) -> TarneebConfig:
        opt.reject_unknown(GAME, options, [name for name, _, _ in cls.OPTIONS])
        variant = opt.choice("variant", options.get("variant", "lebanese"), VARIANTS)
        foreign = EGYPTIAN_ONLY if variant == "lebanese" else LEBANESE_ONLY
        given = [name for name in foreign if name in options]
        if given:
            other = "egyptian" if variant == "lebanese" else "lebanese"
            raise ValueError(
                f"option(s) {', '.join(given)} belong to variant='{other}' only and cannot be used "
                f"with variant='{variant}'"
            )
        egyptian = variant == "egyptian"
        target = opt.integer("target_score", options.get("target_score", DEFAULT_TARGET[variant]), 1, MAX_TARGET)
        return cls(
            variant=variant,
            bidding=opt.choice("bidding", options.get("bidding", "rounds"), BIDDINGS),
            all_pass=opt.choice("all_pass", options.get("all_pass", "redeal"), ALL_PASS_RULES),
            allow_no_trump=opt.flag("allow_no_trump", options.get("allow_no_trump", False)),
            first_lead_trump=opt.flag("first_lead_trump", options.get("first_lead_trump", False)),
            scoring=opt.choice("scoring", options.get("scoring", "standard"), SCORINGS),
            target_score=target,
            episode=opt.choice("episode", options.get("episode", "game"), EPISODES),
            redeal_weak_hands=opt.flag("redeal_weak_hands", options.get("redeal_weak_hands", False)),
            allow_double=opt.flag("allow_double", options.get("allow_double", egyptian)),
            double_multiplier=opt.integer("double_multiplier", options.get("double_multiplier", 2), 2, 4),
            # a game of heuristics to 31 takes about 300 decisions (5 deals): 100 x target leaves
            # room for long games while a policy that always passes cannot run forever
            max_turns=opt.integer("max_turns", options.get("max_turns", TURNS_PER_POINT * target), 1),
        )
