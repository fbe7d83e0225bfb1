"""Experiments: the ``bluff`` command line (:mod:`experiments.commands`), tournaments with run directories and reports, studies (``bluff run``), and the YAML configs."""
