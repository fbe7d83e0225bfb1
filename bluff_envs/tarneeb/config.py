"""Options of Tarneeb (docs/rules.md §4), declared once and validated into a frozen config."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bluff_envs import options as opt
from bluff_envs.options import Option

GAME = "tarneeb"
VARIANTS = ("lebanese", "egyptian")
BIDDINGS = ("rounds", "single_round")
ALL_PASS_RULES = ("redeal", "dealer_bids_7")
SCORINGS = ("standard", "tricks")
EPISODES = ("game", "deal")
MAX_TARGET = 500
TURNS_PER_POINT = 100  # the default max_turns is this many decisions per point of target_score
DEFAULT_TARGET = {"lebanese": 31, "egyptian": 41}

# options that exist in one variant only (docs/rules.md §4, "Egyptian Tarneeb")
LEBANESE_ONLY = ("bidding", "allow_no_trump", "scoring")
EGYPTIAN_ONLY = ("allow_double", "double_multiplier")


@dataclass(frozen=True)
class TarneebConfig:
    variant: str
    bidding: str
    all_pass: str
    allow_no_trump: bool
    first_lead_trump: bool
    scoring: str
    target_score: int
    episode: str
    redeal_weak_hands: bool
    allow_double: bool
    double_multiplier: int
    max_turns: int

    # in the order they are resolved: target_score and allow_double default from the variant,
    # max_turns from target_score. Every option is resolved in both variants (an option of the
    # other variant keeps its default); from_options refuses one that is given.
    OPTIONS = (
        Option(
            "variant", "lebanese", "'lebanese'", "'lebanese' or 'egyptian' (bids name a strain; doubling)",
            opt.choices(VARIANTS),
        ),
        Option(
            "bidding", "rounds", "'rounds'", "'rounds' (until three pass) or 'single_round'; Lebanese only",
            opt.choices(BIDDINGS),
        ),
        Option(
            "all_pass", "redeal", "'redeal'", "'redeal' (same dealer deals again) or 'dealer_bids_7'",
            opt.choices(ALL_PASS_RULES),
        ),
        Option(
            "allow_no_trump", False, "False",
            "True or False (declarer may name no trump); Lebanese only", opt.flags,
        ),
        Option(
            "first_lead_trump", False, "False", "True or False (the first lead must be a trump if possible)", opt.flags,
        ),
        Option(
            "scoring", "standard", "'standard'",
            "'standard' or 'tricks' (failed contract: -bid, opponents their tricks); Lebanese only",
            opt.choices(SCORINGS),
        ),
        Option(
            "target_score", lambda r: DEFAULT_TARGET[r["variant"]], "31 Lebanese, 41 Egyptian",
            f"an integer from 1 to {MAX_TARGET}", opt.integers(1, MAX_TARGET),
        ),
        Option(
            "episode", "game", "'game'", "'game' (deals until the target; reward +1/-1) or 'deal' (one deal)",
            opt.choices(EPISODES),
        ),
        Option(
            "redeal_weak_hands", False, "False", "True or False (throw in a deal where a hand is worthless)", opt.flags,
        ),
        Option(
            "allow_double", lambda r: r["variant"] == "egyptian", "True (Egyptian)",
            "True or False (declarer may double his contract); Egyptian only", opt.flags,
        ),
        Option(
            "double_multiplier", 2, "2 (Egyptian)", "an integer from 2 to 4 (4 is a known variant); Egyptian only",
            opt.integers(2, 4),
        ),
        # a game of heuristics to 31 takes about 300 decisions (5 deals): 100 x target leaves
        # room for long games while a policy that always passes cannot run forever
        Option(
            "max_turns", lambda r: TURNS_PER_POINT * r["target_score"], "100 x target_score",
            "an integer >= 1 (decisions of all kinds before truncation)", opt.integers(1),
        ),
    )

    @property
    def egyptian(self) -> bool:
        return self.variant == "egyptian"

    @classmethod
    def from_options(cls, **options: Any) -> TarneebConfig:
        opt.reject_unknown(GAME, options, [o.name for o in cls.OPTIONS])
        # the variant first: an option of the other variant is refused before anything else
        variant = cls.OPTIONS[0]
        chosen = variant.check(variant.name, options.get(variant.name, variant.default), {})
        foreign = EGYPTIAN_ONLY if chosen == "lebanese" else LEBANESE_ONLY
        given = [name for name in foreign if name in options]
        if given:
            other = "egyptian" if chosen == "lebanese" else "lebanese"
            raise ValueError(
                f"option(s) {', '.join(given)} belong to variant='{other}' only and cannot be used "
                f"with variant='{chosen}'"
            )
        return cls(**opt.resolve(GAME, cls.OPTIONS, options))
