"""One local Ray instance (2 CPUs) for the whole session, started by the first test that needs it."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def ray_instance():
    ray = pytest.importorskip("ray")
    if not ray.is_initialized():
        ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)  # never a cluster left running
    yield ray
    ray.shutdown()
