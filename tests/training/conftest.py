"""Fixtures shared by the training tests."""

from __future__ import annotations

import pytest


@pytest.fixture
def one_torch_thread():
    """torch on one thread for the test (restored after): the small networks of these tests run
    far slower with more threads on a 2-core machine shared with another test worker."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)
