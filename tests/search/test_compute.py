"""Model calls on every core take turns; on one core each they run side by side. The real judge is measured
taking its turn: while another call holds the models, it waits."""
import threading
import time

import pytest
import torch

from search import compute


@pytest.fixture
def restore_threads(monkeypatch):
    monkeypatch.setattr(compute, "_taking_turns", compute._taking_turns)  # put back after the test
    before = torch.get_num_threads()
    yield
    torch.set_num_threads(before)


def overlapping(calls: int = 4) -> int:
    """The most model calls (each held in compute.turn for 50 ms) that were ever inside at once."""
    inside, most, lock = [0], [0], threading.Lock()

    def call():
        with compute.turn():
            with lock:
                inside[0] += 1
                most[0] = max(most[0], inside[0])
            time.sleep(0.05)
            with lock:
                inside[0] -= 1

    threads = [threading.Thread(target=call) for _ in range(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return most[0]


def test_calls_on_every_core_take_turns_and_on_one_run_side_by_side(restore_threads):
    assert compute.configure(2) == 2 and torch.get_num_threads() == 2
    assert overlapping() == 1
    assert compute.configure(1) == 1
    assert overlapping() > 1
    assert compute.configure(0) >= 1  # every core this process may use


def test_the_judge_waits_for_its_turn(restore_threads):
    from checks.judge import AnswerabilityJudge

    judge = AnswerabilityJudge.load()
    compute.configure(2)
    started = threading.Event()

    def hold():
        with compute.turn():
            started.set()
            time.sleep(0.5)

    holder = threading.Thread(target=hold)
    holder.start()
    started.wait()
    asked = time.perf_counter()
    judge.score("Who discovered penicillin?", ["Alexander Fleming: He discovered penicillin in 1928."])
    waited = time.perf_counter() - asked
    holder.join()
    assert waited >= 0.4  # it began only when the other call let go of the models


def test_in_onnx_runtime_no_threads_chosen_means_one_a_call_side_by_side(restore_threads):
    assert compute.configure(0, "onnx") == 1 and torch.get_num_threads() == 1
    assert overlapping() > 1
    assert compute.configure(2, "onnx") == 2 and overlapping() == 1  # a number given is kept
