"""The replay leak tests' one check (test_native.py on a stand-in PyTorch, test_gpu_torch.py on the
real one)."""
import sys

from cuperm import _fast


def replay_references_hold(calls, objects, reps, settle=lambda: None):
    """Runs each call twice (the general path, then a replay: the exchange API learns the dtype),
    then reps rounds of all of them. True when the objects, the fast path's cache entries and their
    parts have the references they had before those rounds; settle() runs before each count."""
    for call in calls:
        call(), call()
    entries = [*_fast.transposes.values(), *_fast.contractions.values()]
    watched = [*objects, *entries, *(part for entry in entries for part in entry)]
    settle()
    before = [sys.getrefcount(o) for o in watched]
    for _ in range(reps):
        for call in calls:
            call()
    settle()
    return [sys.getrefcount(o) for o in watched] == before
