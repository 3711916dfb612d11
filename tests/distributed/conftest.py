"""One simulated Ray cluster for every test here: a head and a second node of one CPU each
(``ray.cluster_utils.Cluster``: separate raylets on this machine), with this process connected
as the driver. The tests are one xdist group, so one worker runs them all; the cluster is started
once per process and stopped when the process exits (not by fixture teardown, which xdist may
run between two tests of one group when its queue runs dry)."""

from __future__ import annotations

import atexit
import time

import pytest

_CLUSTER = None


def _start():
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

    def stop():
        ray.shutdown()
        c.shutdown()

    atexit.register(stop)
    return c


@pytest.fixture(scope="session")
def cluster():
    global _CLUSTER
    if _CLUSTER is None:
        _CLUSTER = _start()
    return _CLUSTER


def alive_nodes() -> list[dict]:
    import ray

    return [n for n in ray.nodes() if n["Alive"]]
