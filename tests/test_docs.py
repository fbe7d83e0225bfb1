"""The documentation in the repository matches the code it describes."""

import re
from pathlib import Path

import bluff_envs
from bluff_envs import docs

ROOT = Path(__file__).resolve().parents[1]


def test_the_generated_tables_of_the_rules_are_up_to_date():
    text = docs.PATH.read_text()
    assert docs.update(text) == text, "docs/rules.md is out of date: run python -m bluff_envs.docs"
    for game in bluff_envs.available_games():
        for part in ("options", "actions", "observation"):
            assert f"<!-- generated: {game} {part} -->" in text


def test_the_rules_are_referred_to_where_they_are():
    for module in bluff_envs.GAMES.values():
        source = (ROOT / (module.replace(".", "/") + ".py")).read_text()
        assert "docs/rules.md" in source and "shared/" not in source, module
    readme = (ROOT / "README.md").read_text()
    assert "docs/rules.md" in readme and not re.search(r"shared/RULES", readme)
