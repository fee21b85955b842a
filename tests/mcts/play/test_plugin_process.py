"""A Python plug-in in a process of its own (`python:...:process=own`,
mcts.play.plugin_process): the same game as in the host's process, its faults those of
an engine (a decision that never returns forfeits at its time and grace, the process
ended), its prints kept off the protocol, and its options' bad-input table."""
from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from helpers import ROOT
from mcts.play import engines
from mcts.play.bot_game import play_game
from mcts.play.bots import make_bot
from mcts.play.engines import host, protocol
from mcts.play.plugins import PluginBot, PluginProcessBot
from mcts.play.tournament import TournamentConfig, run_tournament
from process_helpers import interrupt, processes_below

PLUGINS = '''
import random, sys, time, zlib

class Seeded:
    """Picks by its seed and by the whole world it is handed (the hidden cards dealt
    anew too), and talks: on standard output too."""
    def reseed(self, seed):
        self.rng = random.Random(seed)
    def choose(self, state):
        legal = state.legal_actions()
        print("thinking about", len(legal), "choices")
        sys.stdout.flush()
        world = zlib.crc32(repr(state.raw()).encode() + repr(state.game.table).encode())
        return legal[(self.rng.randrange(1000) + world) % len(legal)]

class Hang:
    def choose(self, state):
        while True:
            time.sleep(0.05)

class Raises:
    def choose(self, state):
        raise RuntimeError("no idea")

class Text:
    def choose(self, state):
        return "push"

class Illegal:
    def choose(self, state):
        return 10_000

class NumpyId:
    """A numpy integer, as an argmax gives it."""
    def choose(self, state):
        import numpy as np
        return np.int64(state.legal_actions()[0])

class FloatId:
    def choose(self, state):
        return float(state.legal_actions()[0])

class BoolId:
    def choose(self, state):
        return True
'''


@pytest.fixture
def plugins(tmp_path, monkeypatch):
    monkeypatch.setattr(protocol, "START_SECONDS", 10.0)
    engines.set_log_dir(tmp_path / "logs")
    path = tmp_path / "plugins.py"
    path.write_text(PLUGINS)
    yield path
    engines.set_log_dir(engines.DEFAULT_LOG_DIR)
    assert not host._LIVE


def _plugin_processes() -> list[int]:
    return processes_below("plugin_process")


@pytest.mark.parametrize("players,corrected", [(2, False), (4, False), (3, True)])
def test_a_plugin_plays_the_same_game_in_its_own_process_as_in_the_hosts(plugins, players,
                                                                          corrected, tmp_path):
    """The world it is handed is dealt from the same seed stream, on the same view and
    board (a corrected one too)."""
    board = None
    if corrected:
        data = json.loads((ROOT / "ulm" / "data" / "board.json").read_text())
        data["river"]["values"] = [v + 1 for v in data["river"]["values"]]
        board = tmp_path / "corrected.json"
        board.write_text(json.dumps(data))
    rows = {}
    for process in ("host", "own"):
        spec = f"python:{plugins}:Seeded:seed=5,process={process}"
        row = play_game([spec] + ["random"] * (players - 1), seed=players, board=board)
        assert row["forfeits"] == [None] * players, row["forfeits"]
        rows[process] = (row["scores"], row["decisions"], row["moves"])
    assert rows["host"] == rows["own"]
    assert _plugin_processes() == []


def test_its_prints_go_to_its_log_not_the_protocol(plugins, tmp_path):
    row = play_game([f"python:{plugins}:Seeded:process=own", "random"], seed=1, game=2)
    assert row["forfeits"] == [None, None]
    (log,) = (tmp_path / "logs").glob("python-*.log")
    assert "thinking about" in log.read_text()


@pytest.mark.parametrize("cls,kind", [("Hang", "time"), ("Raises", "crash"),
                                      ("Text", "garbage"), ("Illegal", "unknown")])
def test_its_faults_forfeit_and_end_its_process(plugins, tmp_path, cls, kind):
    start = time.monotonic()
    row = play_game([f"python:{plugins}:{cls}:time=0.2,grace=0.3,process=own", "random",
                     "random"], seed=3)
    took = time.monotonic() - start
    fault = row["forfeits"][0]
    assert fault["kind"] == kind, fault
    assert row["ranks"][0] == 3.0
    assert _plugin_processes() == []
    if cls == "Hang":       # the host's clock, not the plug-in's return, ends it
        assert "within its time 0.2 s and grace 0.3 s" in fault["reason"]
        assert took < 30, took
    if cls == "Raises":     # the traceback in its log
        (log,) = (tmp_path / "logs").glob("python-*.log")
        assert "RuntimeError: no idea" in log.read_text()


@pytest.mark.parametrize("process", ["host", "own"])
def test_a_numpy_integer_is_an_id_a_float_or_a_bool_is_not(plugins, process):
    row = play_game([f"python:{plugins}:NumpyId:process={process}", "random"], seed=2)
    assert row["forfeits"] == [None, None]
    for cls in ("FloatId", "BoolId"):
        row = play_game([f"python:{plugins}:{cls}:process={process}", "random", "random"],
                        seed=2)
        assert row["forfeits"][0]["kind"] == "garbage", (cls, row["forfeits"])


def test_a_plugin_in_its_own_process_in_a_tournament_of_two_workers(plugins, tmp_path):
    """The spec goes to the workers as it is, and its seat's seed is the deal's."""
    spec = f"python:{plugins}:Seeded:process=own"
    own = run_tournament(TournamentConfig(bots=[spec, "random"], players=2, games=4, seed=6),
                         tmp_path / "own", workers=2, progress=False)
    host_ = run_tournament(TournamentConfig(bots=[f"python:{plugins}:Seeded", "random"],
                                            players=2, games=4, seed=6),
                           tmp_path / "host", workers=1, progress=False)

    def games(folder):
        rows = [json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines()]
        return sorted((r["game"], r["scores"], r["decisions"], r["forfeits"]) for r in rows)
    assert len(games(tmp_path / "own")) == 4
    assert games(tmp_path / "own") == games(tmp_path / "host")
    assert own and host_


def test_the_spec_names_its_process_and_reads_back(plugins):
    bot = make_bot(f"python:{plugins}:Seeded:time=0.5,process=own")
    assert isinstance(bot, PluginProcessBot)
    assert bot.spec == f"python:{plugins}:Seeded:grace=0.5,process=own,seed=0,time=0.5"
    assert make_bot(bot.spec).spec == bot.spec
    assert isinstance(make_bot(f"python:{plugins}:Seeded:process=host"), PluginBot)
    assert isinstance(make_bot(f"python:{plugins}:Seeded"), PluginBot)


@pytest.mark.parametrize("options,message", [
    ("process=maybe", "process must be host or own, got 'maybe'"),
    ("process=OWN", "process must be host or own, got 'OWN'"),
    ("process=1", "process must be host or own, got '1'"),
    ("process=" + "o" * 10_000, "process must be host or own, got 'ooo"),
    ("process=", "bad option 'process='; write OPTION=VALUE"),
    ("process=own,process=own", "option 'process' given twice"),
    ("iterations=5", "unknown option 'iterations'; a plug-in takes time, grace, seed, "
                     "process"),
])
def test_bad_process_options_are_named(plugins, options, message):
    with pytest.raises(ValueError) as err:
        make_bot(f"python:{plugins}:Seeded:{options}")
    assert message in str(err.value)
    assert len(str(err.value)) < 400


def test_a_bad_target_is_named_before_any_process_starts(plugins):
    with pytest.raises(ValueError, match="has no class Nope"):
        make_bot(f"python:{plugins}:Nope:process=own")
    assert _plugin_processes() == []


@pytest.mark.parametrize("argv,status,message", [
    ([], 2, "usage: python -m mcts.play.plugin_process"),
    (["a:B", "c:D"], 2, "usage: python -m mcts.play.plugin_process"),
    (["no_such_module_here:Bot"], 1, "cannot import 'no_such_module_here'"),
])
def test_the_plugin_process_run_by_hand_names_what_is_wrong(argv, status, message):
    res = subprocess.run([sys.executable, "-m", "mcts.play.plugin_process", *argv], cwd=ROOT,
                         capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert res.returncode == status
    assert message in res.stderr and "Traceback" not in res.stderr
    assert res.stdout == ""


def test_ctrl_c_ends_a_game_whose_plugin_never_returns_within_a_second(plugins):
    """Its own process, unlike the host's, can be ended while it thinks."""
    proc = subprocess.Popen([sys.executable, "-m", "cli", "play", "--bots",
                             f"python:{plugins}:Hang:time=60,process=own,random",
                             "--quiet"], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 30
    while not (started := processes_below("plugin_process", proc.pid)):
        if time.monotonic() > deadline:
            interrupt(proc)
            raise AssertionError("the plug-in's process did not start")
        time.sleep(0.05)
    time.sleep(0.5)
    err, took = interrupt(proc)
    assert proc.returncode == 130 and "Traceback" not in err, err
    assert took < 2.0, took             # a second, and a busy test machine's slack
    time.sleep(0.2)
    assert not [pid for pid in started if host._alive(pid)]


def test_ulm_bots_names_the_process_option():
    from click.testing import CliRunner

    from cli.main import main
    res = CliRunner().invoke(main, ["bots"])
    assert res.exit_code == 0
    assert "process=own (its own process, bounded as an engine) or host (the default)" in \
        res.output
