"""The ``bluff`` command line. Subcommands live in their own modules and load on first use."""

from __future__ import annotations

import importlib
import importlib.util

import click

# name -> "module:click command", so `bluff --help` stays fast and each piece stays separate
COMMANDS = {
    "list": ("experiments.commands.list:command", "Games, their options and action tables."),
    "tournament": ("experiments.commands.tournament:command", "Hold a tournament from a YAML config."),
    "replay": ("experiments.commands.replay:command", "Print a recorded game move by move."),
    "behaviour": ("experiments.commands.behaviour:command", "Claims by stage: bluffs and how the table answered them."),
    "play": ("experiments.commands.play:command", "Take a seat against agents in the terminal."),
    "watch": ("experiments.commands.watch:command", "Watch agents play a game, in the terminal or into a GIF/MP4."),
    "train": ("experiments.commands.train:command", "Self-play training with MaskablePPO from a YAML config."),
    "run": ("experiments.commands.run:command", "Run a whole experiment: train, hold tournaments, write the report."),
    "robustness": ("experiments.commands.robustness:command", "An agent against the standard fields of its game."),
    "exploit": ("experiments.commands.exploit:command", "Train best responses to an agent: its approximate exploitability."),
    "transfer": ("experiments.commands.transfer:command", "Exploiters trained before against an agent: transfer exploitability."),
    "average": ("experiments.commands.average:command", "One policy from several checkpoints: the mean of their weights."),
}


class LazyGroup(click.Group):
    def list_commands(self, ctx):
        return [name for name in COMMANDS if self._available(name)]

    def get_command(self, ctx, name):
        if name not in COMMANDS or not self._available(name):
            return None
        module, attr = COMMANDS[name][0].split(":")
        return getattr(importlib.import_module(module), attr)

    @staticmethod
    def _available(name):
        module = COMMANDS[name][0].split(":")[0]
        try:
            return importlib.util.find_spec(module) is not None
        except ModuleNotFoundError:
            return False

    def format_commands(self, ctx, formatter):
        rows = [(name, COMMANDS[name][1]) for name in self.list_commands(ctx)]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="bluff_envs")
def cli():
    """bluff_envs: card games of bluffing and challenging for multi-agent RL."""


def main():
    cli()


if __name__ == "__main__":
    main()
