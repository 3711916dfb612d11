"""One simulated Ray cluster for every test here: a head and a second node of one CPU each
(``ray.cluster_utils.Cluster``: separate raylets on this machine), started once per session,
with this process connected as the driver. The tests are one xdist group, so they share it."""

from __future__ import annotations

import time

import pytest


@pytest.fixture(scope="session")
def cluster():
    import ray
    from ray.cluster_utils import Cluster

    if ray.is_initialized():
        ray.shutdown()
    t0 = time.perf_counter()
    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    c.add_node(num_cpus=1)
    c.wait_for_nodes(timeout=180)
    ray.init(address=c.address)
    print(f"\nRay cluster of 2 nodes started in {time.perf_counter() - t0:.1f} s")
    yield c
    ray.shutdown()
    c.shutdown()


def alive_nodes() -> list[dict]:
    import ray

    return [n for n in ray.nodes() if n["Alive"]]
