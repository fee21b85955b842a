"""`ulm tune` (mcts.play.tune) and `ulm ladder` (mcts.play.ladder) with tiny budgets:
end to end through the CLI, resuming, bad input, and the pluggable executor of
mcts.play.tournament that both use."""
import csv
import json
from concurrent.futures import ThreadPoolExecutor

import pytest
from click.testing import CliRunner

from cli.main import main
from mcts.play.ladder import budgets, rung_specs, run_ladder
from mcts.play.tournament import TournamentConfig, TournamentError, run_tournament
from mcts.play.tune import TuneConfig, TuneError, parse_param, run_tune, trial_spec, tunable_options

BOT = "ismcts:iterations=8"
TUNE = ["tune", "--bot", BOT, "--param", "c=0.2:2.0", "--param", "rollout=random|heuristic",
        "--against", "ismcts:iterations=8,rollout=random", "--players", "2",
        "--games-per-trial", "2", "--workers", "1", "--seed", "3", "--quiet"]


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def read_trials(out):
    with open(out / "trials.csv", newline="") as f:
        return list(csv.DictReader(f))


def test_tune_end_to_end_then_resume(tmp_path):
    out = tmp_path / "study"
    res = run(*TUNE, "--trials", "2", "--out", out)
    assert res.exit_code == 0, res.output
    assert "Bot spec: ismcts:iterations=8,c=" in res.output
    assert {p.name for p in out.iterdir()} >= {"study.db", "tune.json", "trials.csv",
                                               "trials.png", "best.json", "trials"}
    first = read_trials(out)
    assert [r["trial"] for r in first] == ["0", "1"]
    for r in first:
        assert 0.2 <= float(r["c"]) <= 2.0 and r["rollout"] in ("random", "heuristic")
        assert 0.0 <= float(r["win_rate"]) <= 1.0 and r["games"] == "2"
    best = json.loads((out / "best.json").read_text())
    assert best["win_rate"] == max(float(r["win_rate"]) for r in first)
    # the spec printed is a ready bot spec
    from mcts.play.bots import make_bot
    make_bot(best["spec"])
    # resume: one more trial, the first two kept as they were
    res = run(*TUNE, "--trials", "3", "--out", out)
    assert res.exit_code == 0, res.output
    again = read_trials(out)
    assert len(again) == 3 and again[:2] == first
    # another study in the same folder is refused
    res = run(*[a if a != "c=0.2:2.0" else "c=0.1:1.0" for a in TUNE], "--trials", "3", "--out", out)
    assert res.exit_code == 2 and "holds another study" in res.stderr


def test_a_study_against_an_engine_keeps_its_command_and_resumes_only_with_it(tmp_path):
    """The engines the opponents name are part of the study (tune.json) and of each
    trial's tournament (results.json), as a tournament keeps them: a study resumed
    with another program under the same name is another study, refused."""
    import sys

    from helpers import ROOT
    command = f"{sys.executable} {ROOT / 'examples' / 'engines' / 'random_engine.py'}"
    args = ["tune", "--bot", BOT, "--param", "c=0.2:2.0", "--against", "engine:r:time=0.5",
            "--players", "2", "--games-per-trial", "2", "--workers", "1", "--seed", "3",
            "--quiet", "--trials", "1", "--out", tmp_path / "study"]
    res = run(*args, "--engine", f"r={command}")
    assert res.exit_code == 0, res.output
    assert json.loads((tmp_path / "study" / "tune.json").read_text())["engines"] == {"r": command}
    (trial,) = (tmp_path / "study" / "trials").iterdir()
    assert json.loads((trial / "results.json").read_text())["config"]["engines"] == {"r": command}
    res = run(*args, "--engine", f"r={command} --other")
    assert res.exit_code == 2 and "holds another study" in res.stderr, res.output


@pytest.mark.parametrize("content, words", [
    (b'{"bot": "gr\xffedy"}\n', ["not a UTF-8 text file", "0xff"]),
    (b'{"bot": ', ["not valid JSON"]),
])
def test_a_damaged_study_settings_file_is_a_clean_error(tmp_path, content, words):
    out = tmp_path / "study"
    out.mkdir()
    (out / "tune.json").write_bytes(content)
    res = run(*TUNE, "--trials", "1", "--out", out)
    assert res.exit_code == 2 and "Traceback" not in res.output, res.output
    assert f"Error: {out / 'tune.json'}: " in res.stderr
    for w in words:
        assert w in res.stderr
    assert (out / "tune.json").read_bytes() == content


def test_tune_replays_a_trial_cut_off_by_an_interruption(tmp_path):
    import optuna
    cfg = TuneConfig(bot=BOT, params=[parse_param("c=0.2:2.0", "ismcts")],
                     against=["random"], games_per_trial=2, trials=1, seed=1)
    run_tune(cfg, tmp_path, progress=False)
    study = optuna.load_study(study_name="ulm-tune", storage=f"sqlite:///{tmp_path / 'study.db'}")
    cut = study.ask({"c": optuna.distributions.FloatDistribution(0.2, 2.0)})  # left RUNNING
    cfg.trials = 2
    run_tune(cfg, tmp_path, progress=False)
    trials = study.get_trials()
    assert trials[cut.number].state == optuna.trial.TrialState.FAIL
    done = [t for t in trials if t.state == optuna.trial.TrialState.COMPLETE]
    assert len(done) == 2 and done[1].params["c"] == cut.params["c"]


@pytest.mark.parametrize("param,words", [
    ("c=2:1", ["c=2:1", "LOW must be below HIGH"]),
    ("cc=0.1:1", ["no tunable option 'cc'", "did you mean 'c'"]),
    ("seed=1:4", ["seed is not tuned"]),
    ("iterations=10:100", ["iterations is not tuned"]),
    ("rollout=0:1", ["rollout is not a number"]),
    ("c=a:b", ["must be numbers"]),
    ("c=0.5", ["LOW:HIGH"]),
    ("c=-1:1", ["c: the exploration constant must be a number from 0 to 1000"]),
    ("rollout=random|bogus", ["rollout: expected one of"]),
    ("c=0:1:log", ["log scale needs LOW > 0"]),
    ("c", ["NAME=LOW:HIGH"]),
])
def test_tune_bad_param_exits_2(param, words):
    res = run("tune", "--bot", BOT, "--param", param, "--against", "random", "--trials", "1")
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output and "Error: --param" in res.stderr
    for w in words:
        assert w in res.stderr, res.stderr


@pytest.mark.parametrize("args,words", [
    (["--bot", "nobot", "--param", "c=0.1:1", "--against", "random"], ["unknown bot 'nobot'"]),
    (["--bot", "ismcts:c=0.5", "--param", "c=0.1:1", "--against", "random"], ["already sets c"]),
    (["--bot", BOT, "--param", "c=0.1:1", "--param", "c=0.2:1", "--against", "random"],
     ["given twice"]),
    (["--bot", BOT, "--param", "c=0.1:1", "--against", "ismcts:bogus=1"], ["--against", "bogus"]),
])
def test_tune_bad_settings_exit_2(args, words):
    res = run("tune", *args, "--trials", "1")
    assert res.exit_code == 2, res.output
    for w in words:
        assert w in res.stderr, res.stderr


@pytest.mark.parametrize("command", [
    ["tune", "--bot", BOT, "--param", "c=0.1:1", "--against", "random", "--trials", "1"],
    ["ladder", "--low", "8", "--high", "16", "--games", "2"],
])
def test_tune_and_ladder_bound_workers_like_tournament(command):
    """--workers is bounded by MAX_WORKERS everywhere."""
    from mcts import MAX_WORKERS
    res = run(*command, "--workers", str(MAX_WORKERS + 1))
    assert res.exit_code == 2, res.output
    assert "--workers" in res.stderr and f"1<=x<={MAX_WORKERS}" in res.stderr, res.stderr


def test_tunable_options_come_from_the_bot_table():
    opts = tunable_options("ismcts")
    assert opts["c"] == "float" and opts["rollout"] == "choice"
    assert not set(opts) & {"iterations", "time", "workers", "seed"}
    assert tunable_options("pimc")["determinizations"] == "int"
    p = parse_param("determinizations=2:20", "pimc")
    assert (p.kind, p.low, p.high) == ("int", 2, 20)
    assert trial_spec("random", {"seed": 1}) == "random:seed=1"
    assert trial_spec(BOT, {"c": 0.5}) == BOT + ",c=0.5"
    with pytest.raises(TuneError):
        parse_param("determinizations=2.5:20", "pimc")


def test_ladder_two_rungs_end_to_end(tmp_path):
    out = tmp_path / "ladder"
    res = run("ladder", "--low", "8", "--high", "16", "--games", "2", "--workers", "1",
              "--seed", "2", "--quiet", "--out", out)
    assert res.exit_code == 0, res.output
    assert "      16       8" in res.output
    data = json.loads((out / "ladder.json").read_text())
    assert [r["budget"] for r in data["rungs"]] == [8, 16]
    assert [r["half"] for r in data["rungs"]] == [4, 8]
    for r in data["rungs"]:
        assert r["games"] == 2 and r["win_low"] <= r["win_rate"] <= r["win_high"]
    assert (out / "ladder.png").stat().st_size > 0
    assert (out / "rung-16" / "games.jsonl").exists()
    # resuming replays nothing: the same rungs come back from the folders
    rungs = run_ladder(8, 16, games=2, seed=2, out_dir=out, progress=False)
    assert [r.to_dict() for r in rungs] == data["rungs"]


def test_ladder_budgets_and_specs():
    assert budgets(250, 64_000) == [250, 500, 1000, 2000, 4000, 8000, 16000, 32000, 64000]
    assert rung_specs("ismcts:c=0.4", 1000) == ["ismcts:iterations=1000,c=0.4",
                                               "ismcts:iterations=500,c=0.4"]
    with pytest.raises(TournamentError):
        rung_specs("ismcts:time=1", 1000)
    for other in ("engine:x", "engine:x:time=1", "python:mybot", "level:2", "greedy", "random"):
        with pytest.raises(TournamentError, match="the ladder sets each rung's iterations, which "
                                                  "only cheat, ismcts, pimc take"):
            rung_specs(other, 1000)
    with pytest.raises(TournamentError):
        budgets(100, 50)
    res = run("ladder", "--bot", "ismcts:iterations=5", "--low", "8", "--high", "8")
    assert res.exit_code == 2 and "sets its own budget" in res.stderr
    res = run("ladder", "--bot", "engine:x", "--engine", "x=/bin/true", "--low", "8",
              "--high", "8")
    assert res.exit_code == 2 and "which only cheat, ismcts, pimc take (an engine" in res.stderr
    assert "Traceback" not in res.output


def test_tournament_games_go_through_a_given_executor():
    """A scheduler (any executor with map) plays the same games as the local loop."""
    cfg = TournamentConfig(bots=["ismcts:iterations=5", "random"], players=2, games=2, seed=4)
    local = run_tournament(cfg, progress=False)
    calls = []

    class Recording(ThreadPoolExecutor):
        def map(self, fn, *iterables, **kw):
            items = list(iterables[0])
            calls.append(len(items))
            return super().map(fn, items, **kw)

    with Recording(max_workers=1) as ex:
        remote = run_tournament(cfg, progress=False, scheduler=ex)
    assert calls == [2]

    def outcome(summary):  # thinking time differs from run to run
        return [{k: v for k, v in b.items() if k not in ("seconds_per_game", "seconds_per_decision",
                                                          "longest_decision")}
                for b in summary["bots"]]
    assert outcome(remote) == outcome(local)
