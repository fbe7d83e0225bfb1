"""Whole studies from one experiment file: train agents, hold tournaments, write one report.

``bluff run <experiment.yaml>`` (:mod:`experiments.commands.run`) drives it; :mod:`.config` validates
the file, :mod:`.run` does the work resumably, :mod:`.report` writes the report.
"""
