"""Where games are played: a local pool of worker processes, this process, or
any executor with ``map`` (a Dask cluster: mcts.play.cluster.DaskExecutor)."""
from __future__ import annotations

import multiprocessing as mp
import os
import signal

from mcts.play import bot_game
from mcts.searcher.search import _end_with_parent


def _pool_worker_init(parent: int):
    """Set up a process of the tournament's pool.

    A bot may run a root-parallel search (``ismcts:workers=2``): its workers
    are forked from this process, so it must not be daemonic (multiprocessing
    refuses children of daemonic processes). The games and their results are
    the same as when one process plays them. Ctrl-C is the parent's to handle:
    it ends the pool (SIGTERM), and a search's workers end with the process
    that started them (mcts.searcher.search). A parent killed outright (SIGKILL) ends its
    workers the same way, quietly: a worker left alone would finish its game
    and print a BrokenPipeError traceback sending the result to no one."""
    mp.current_process().daemon = False
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _end_with_parent(parent)


def _run_one(args):
    game_id, deal_seed, rotation, seats, variant, board = args
    row = bot_game.play_game(seats, deal_seed, variant, board, game=game_id)
    row.update({"game": game_id, "deal": game_id // len(seats), "rotation": rotation})
    return row


def play_games(todo: list, workers: int = 1, scheduler=None, fn=None):
    """Yield the result of every item in `todo` (by default games as tuples that
    `_run_one` takes), in any order.

    The one place where games are dispatched: `scheduler.map(fn, todo)` when a
    scheduler is given (any concurrent.futures-style executor, or a Dask
    cluster: mcts.play.cluster.DaskExecutor), else a local fork pool of `workers`
    processes, else this process. `fn` plays one item (default `_run_one`;
    self-play's games give positions, mcts.learning.selfplay); it must be a module-level
    function so that it can be sent to the workers."""
    fn = _run_one if fn is None else fn
    if scheduler is not None:
        yield from scheduler.map(fn, todo)
    elif workers > 1 and len(todo) > 1:
        ctx = mp.get_context("fork")
        with ctx.Pool(workers, initializer=_pool_worker_init,
                      initargs=(os.getpid(),)) as pool:
            yield from pool.imap_unordered(fn, todo)
    else:
        for args in todo:
            yield fn(args)
