"""Model files and data sets checked whole (mcts.searcher.model.check_model,
mcts.learning.selfplay.check_dataset): every way a file can be wrong is named, in the
Python loaders, `ulm train evaluate`, `ulm train fit` and a bot's
`model=FILE`, with exit status 2 and nothing written; fits that diverge stop;
counts are bounded."""
from __future__ import annotations

import json
import os
import re

import numpy as np
import pytest
from click.testing import CliRunner

from cli.main import main
from helpers import assert_input_error
from mcts.searcher import features as F
from mcts.searcher.model import MAX_MODEL_BYTES, Model, TrainError, check_model, load_model, save_model
from mcts.learning.rounds import RoundsConfig
from mcts.learning.selfplay import (ROW_ARRAYS, DatasetError, SelfplayConfig, check_dataset, load_dataset,
                           save_dataset)
from mcts.learning.train import FitConfig, FitDiverged, fit
from samples import planted


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture(scope="module")
def data2():
    """A 2-player data set of 12 games, every round and seat present."""
    data = planted(players=2, games=12)
    data["round"] = (np.arange(len(data["round"])) % 10).astype(np.int8)
    data["turn_player"] = (np.arange(len(data["round"])) % 2).astype(np.int8)
    return data


@pytest.fixture(scope="module")
def models(data2):
    """A linear model of staged inputs and an mlp of rich inputs, fitted to data2."""
    linear = fit(data2, FitConfig(kind="linear", inputs="staged", epochs=1, validation=0.25))[0]
    mlp = fit(data2, FitConfig(kind="mlp", hidden=3, epochs=1, validation=0.25))[0]
    return {"linear": linear, "mlp": mlp}


def _arrays(model: Model) -> dict:
    return {"mean": model.mean, "std": model.std, **model.params}


def _write(path, arrays: dict, meta) -> None:
    """An .npz as save_model writes it, without its checks."""
    np.savez(path, **arrays, meta=np.array(json.dumps(meta)))


def _changed(name, value):
    def change(arrays, meta):
        arrays[name] = value(arrays[name]) if callable(value) else value
    return change


def _dropped(name):
    def change(arrays, meta):
        del arrays[name]
    return change


def _meta(**fields):
    def change(arrays, meta):
        meta.update(fields)
    return change


def _nan(name, value=np.nan):
    def change(arrays, meta):
        arrays[name] = arrays[name].copy()
        arrays[name].flat[1] = value
    return change


# (kind of the good model it starts from, change, words of the refusal)
MODEL_CASES = {
    "no mean": ("linear", _dropped("mean"), ["missing array mean"]),
    "no std": ("linear", _dropped("std"), ["missing array std"]),
    "no w": ("linear", _dropped("w"), ["missing array w"]),
    "no W1": ("mlp", _dropped("W1"), ["missing array W1"]),
    "no b1": ("mlp", _dropped("b1"), ["missing array b1"]),
    "no v": ("mlp", _dropped("v"), ["missing array v"]),
    "strings": ("linear", _changed("w", lambda w: w.astype(str)), ["w: numbers", "<U"]),
    "complex": ("linear", _changed("mean", lambda a: a.astype(complex)), ["mean: numbers"]),
    "flags": ("mlp", _changed("v", lambda a: a > 0), ["v: numbers", "bool"]),
    "short": ("linear", _changed("w", lambda w: w[:-1]), ["w: shape (1105,)", "(1104,)"]),
    "2-d mean": ("linear", _changed("mean", lambda a: a[None, :]), ["mean: shape"]),
    "W1 turned": ("mlp", _changed("W1", lambda a: a.T), ["W1"]),
    "b1 short": ("mlp", _changed("b1", lambda a: a[:2]), ["b1: shape (3,)", "(2,)"]),
    "too many units": ("mlp", _changed("W1", np.zeros((731, 2000))), ["W1: 1 to 1024"]),
    "no units": ("mlp", _changed("W1", np.zeros((731, 0))), ["W1: 1 to 1024"]),
    "nan": ("linear", _nan("w"), ["w: 1 numbers not finite"]),
    "inf": ("linear", _nan("mean", np.inf), ["mean: 1 numbers not finite"]),
    "nan in W1": ("mlp", _nan("W1"), ["W1: 1 numbers not finite"]),
    "-inf in std": ("linear", _nan("std", -np.inf), ["std: 1 numbers not finite"]),
    "huge number": ("mlp", _nan("v", 1e300), ["v: numbers of at most 1e+06", "1e+300"]),
    "zero spread": ("linear", _nan("std", 0.0), ["std: a spread of at least 1e-06", "got 0"]),
    "negative spread": ("linear", _nan("std", -2.0), ["std: a spread", "got -2"]),
    "3 players": ("linear", _meta(players=3), ["input_width: 1479", "got 1105"]),
    "3 players, no width": ("linear", lambda a, m: (m.pop("input_width"), m.update(players=3)),
                            ["mean: shape (1479,)", "(1105,)"]),
    "7 players": ("linear", _meta(players=7), ["players: 2, 3 or 4, got 7"]),
    "players text": ("linear", _meta(players="2"), ["players: 2, 3 or 4, got '2'"]),
    "no players": ("linear", lambda a, m: m.pop("players"), ["players: 2, 3 or 4, got None"]),
    "kind": ("linear", _meta(kind="forest"), ["kind: one of linear, mlp, got 'forest'"]),
    "linear with W1": ("mlp", _meta(kind="linear"), ["arrays W1, b1, v in a linear model"]),
    "mlp without W1": ("linear", _meta(kind="mlp"), ["missing arrays W1, b1, v"]),
    "inputs": ("linear", _meta(inputs="pixels"), ["inputs: one of", "'pixels'"]),
    "rich for staged": ("linear", _meta(inputs="rich"), ["input_width: 731"]),
    "layout": ("linear", _meta(layout="ulm-features/0"), ["layout", "ulm-features/0"]),
    "residual": ("linear", _meta(residual="yes"), ["residual: true or false"]),
    "format": ("linear", _meta(format="other/1"), ["not a model of format ulm-eval-model/1"]),
    "no meta": ("linear", lambda a, m: m.clear(), ["not a model of format"]),
}


def _raw(content: bytes):
    def write(path, good):
        path.write_bytes(content if content is not None else good.read_bytes()[:300])
    return write


def _npy(path, good):
    with open(path, "wb") as f:
        np.save(f, np.zeros(3))


def _huge(path, good):
    np.savez_compressed(path, w=np.zeros(MAX_MODEL_BYTES // 8 + 1))


def _meta_array(value):
    def write(path, good):
        np.savez(path, w=np.zeros(3), meta=value)
    return write


# files that are not a model file at all
FILE_CASES = {
    "truncated": (_raw(None), ["not a model file (.npz)"]),
    "text": (_raw(b"hello, model\n"), ["a text file, not a model file (.npz"]),
    "passwd": (_raw(b"root:x:0:0:root:/root:/bin/bash\n"), ["a text file, not a model file"]),
    "json": (_raw(b'{"format": "ulm-eval-model/1"}'), ["a text file, not a model file"]),
    "binary": (_raw(b"\x00\x01\xfe\xff" * 8), ["not a zip archive, not a model file (.npz"]),
    "zeros": (_raw(bytes(64)), ["not a zip archive, not a model file (.npz"]),
    "empty": (_raw(b""), ["an empty file, not a model file (.npz)"]),
    "npy": (_npy, ["a single numpy array (.npy), not a model file"]),
    "no meta array": (lambda path, good: np.savez(path, w=np.zeros(3)),
                      ["not a model file (no meta data)"]),
    "meta not json": (_meta_array(np.array("{oops")), ["not a model file", "not valid JSON"]),
    "meta numbers": (_meta_array(np.arange(4)), ["not a model file"]),
    "meta deep": (_meta_array(np.array("[" * 100000)), ["not a model file"]),
    "huge file": (_huge, ["larger than a model can be"]),
    "a data set": (lambda path, good: save_dataset(path, planted(players=2, games=2)),
                   ["not a model of format ulm-eval-model/1"]),
}


@pytest.fixture
def bad_model(models, tmp_path):
    """bad_model(case) -> the path of a model file broken as the case says."""
    def make(case):
        path = tmp_path / "bad.npz"
        if case in MODEL_CASES:
            kind, change, words = MODEL_CASES[case]
            arrays, meta = dict(_arrays(models[kind])), json.loads(json.dumps(models[kind].meta))
            change(arrays, meta)
            _write(path, arrays, meta)
        else:
            good = tmp_path / "good.npz"
            save_model(good, models["linear"])
            write, words = FILE_CASES[case]
            write(path, good)
        return path, words
    return make


ALL_CASES = sorted(MODEL_CASES) + sorted(FILE_CASES)


@pytest.mark.parametrize("case", ALL_CASES)
def test_the_loader_names_what_is_wrong(case, bad_model):
    path, words = bad_model(case)
    with pytest.raises(TrainError) as err:
        load_model(path)
    for word in [str(path)] + words:
        assert word in str(err.value), (word, str(err.value))
    assert "pickle" not in str(err.value), "numpy's advice is not ours to give"


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null", "fifo"])
def test_a_device_or_a_pipe_is_no_model_and_no_data_set(device, data2, models, tmp_path):
    """Named where a model or a data set is read: refused in words, never read
    (a pipe without a writer would wait, /dev/zero never ends)."""
    path = device
    if device == "fifo":
        path = tmp_path / "pipe"
        os.mkfifo(path)
    data, model = tmp_path / "d.npz", tmp_path / "m.npz"
    save_dataset(data, data2)
    save_model(model, models["linear"])
    with pytest.raises(TrainError, match="a device or a pipe, not a model file"):
        load_model(path)
    with pytest.raises(DatasetError, match="a device or a pipe, not a self-play data set"):
        load_dataset(path)
    assert_input_error(run("train", "evaluate", path, data), str(path), "a device or a pipe")
    assert_input_error(run("train", "evaluate", model, path), str(path), "a device or a pipe")
    assert_input_error(run("train", "fit", path), str(path),
                       "a device or a pipe, not a self-play data set")


@pytest.mark.parametrize("case", ALL_CASES)
def test_train_evaluate_refuses_a_bad_model(case, bad_model, data2, tmp_path):
    path, words = bad_model(case)
    data = tmp_path / "d.npz"
    save_dataset(data, data2)
    assert_input_error(run("train", "evaluate", path, data), str(path), *words)


@pytest.mark.parametrize("case", ALL_CASES)
def test_a_bots_model_file_is_checked_whole(case, bad_model, tmp_path):
    path, words = bad_model(case)
    record = tmp_path / "game.json"
    res = run("play", "--bots", f"ismcts:model={path},iterations=5,greedy", "--record", record)
    assert_input_error(res, "--bots", "model", str(path), *words)
    assert not record.exists()


def test_missing_files_and_folders_are_named(tmp_path, data2):
    data = tmp_path / "d.npz"
    save_dataset(data, data2)
    with pytest.raises(TrainError, match="is a folder, not a model file"):
        load_model(tmp_path)
    with pytest.raises(TrainError, match="no such file"):
        load_model(tmp_path / "none.npz")
    assert_input_error(run("train", "evaluate", tmp_path, data), str(tmp_path), "directory")
    assert_input_error(run("play", "--bots", f"ismcts:model={tmp_path},iterations=5,greedy"),
                       "--bots", str(tmp_path), "is a folder")


def test_a_model_of_another_player_count_is_refused(models, tmp_path):
    """A whole model of 2 players in a game of 3."""
    path = tmp_path / "two.npz"
    save_model(path, models["linear"])
    res = run("play", "--bots", f"ismcts:model={path},iterations=5,greedy,greedy")
    assert_input_error(res, "--bots", "model", "2 players, not 3")


def test_good_models_load_and_play(models, tmp_path):
    """The models the checks start from are whole: they load, give the same
    chances and play."""
    z = F.perspectives(planted(players=2, games=2)["features"], 2).astype(np.float64)
    for kind, model in models.items():
        path = tmp_path / f"{kind}.npz"
        save_model(path, model)
        back = load_model(path)
        assert back.meta["kind"] == kind
        if model.meta["inputs"] == "rich":
            assert np.array_equal(back.win_chances(z), model.win_chances(z))
        res = run("play", "--bots", f"ismcts:model={path},iterations=5,greedy", "--quiet")
        assert res.exit_code == 0, res.output


@pytest.mark.parametrize("case", ["nan", "zero spread", "-inf in std", "huge number"])
def test_the_search_weights_of_a_model_built_in_python_are_checked(case, models):
    """A Model made in Python, never written, is checked before the search reads it."""
    from mcts.searcher.learned import search_weights
    kind, change, words = MODEL_CASES[case]
    arrays, meta = dict(_arrays(models[kind])), dict(models[kind].meta)
    change(arrays, meta)
    broken = Model({k: v for k, v in arrays.items() if k not in ("mean", "std")},
                   arrays["mean"], arrays["std"], meta)
    with pytest.raises(ValueError, match=re.escape(words[0])):
        search_weights(broken)


def test_a_model_file_that_changes_is_read_again(models, tmp_path):
    """A long process (a tournament, the web companion) searches with the file
    as it is now: rewritten with other weights, or broken, it is read again."""
    import os

    from mcts.searcher.learned import learned_weights, search_weights
    path = tmp_path / "m.npz"
    first, second = models["linear"], Model(
        {"w": models["linear"].params["w"] * 2.0}, models["linear"].mean,
        models["linear"].std, models["linear"].meta)
    save_model(path, first)
    assert learned_weights(2, str(path))[0] == search_weights(first)
    save_model(path, second)
    os.utime(path, ns=(1, 1))   # a time of change of its own, however fast the writes
    assert learned_weights(2, str(path))[0] == search_weights(second)
    arrays, meta = dict(_arrays(first)), dict(first.meta)
    _nan("w")(arrays, meta)
    _write(path, arrays, meta)
    with pytest.raises(ValueError, match="w: 1 numbers not finite"):
        learned_weights(2, str(path))


@pytest.mark.parametrize("case", ["nan", "zero spread", "huge number", "short", "kind"])
def test_only_a_whole_model_is_written(case, models, tmp_path):
    kind, change, words = MODEL_CASES[case]
    arrays, meta = dict(_arrays(models[kind])), dict(models[kind].meta)
    change(arrays, meta)
    broken = Model({k: v for k, v in arrays.items() if k not in ("mean", "std")},
                   arrays["mean"], arrays["std"], meta)
    with pytest.raises(TrainError, match=re.escape(words[0])):
        check_model(broken)
    with pytest.raises(TrainError):
        save_model(tmp_path / "m.npz", broken)
    assert not (tmp_path / "m.npz").exists()


# ---------------------------------------------------------------------------
# data sets


def _set(name, value):
    def change(data):
        data[name] = value(data[name]) if callable(value) else value
    return change


def _put(name, index, value):
    def change(data):
        data[name] = data[name].copy()
        data[name].flat[index] = value
    return change


def _drop(name):
    def change(data):
        del data[name]
    return change


def _data_meta(**fields):
    def change(data):
        data["meta"] = dict(data["meta"], **fields)
    return change


def _with_value(value):
    def change(data):
        data["value"] = value(data["win"].copy())
    return change


def _scaled(array):
    array[0] = [0.3, 0.3]
    return array


# (change of a good data set, words of the refusal)
DATA_CASES = {
    **{f"no {name}": (_drop(name), ["missing arrays", name]) for name in ROW_ARRAYS},
    "string features": (_set("features", lambda x: x.astype(str)), ["features: numbers", "<U"]),
    "object-free text round": (_set("round", lambda x: x.astype(str)),
                               ["round: whole numbers", "<U"]),
    "fractional games": (_set("game", lambda g: g + 0.5), ["game: whole numbers", "float"]),
    "float rounds": (_set("round", lambda r: r.astype(np.float32)), ["round: whole numbers"]),
    "complex wins": (_set("win", lambda w: w.astype(complex)), ["win: numbers", "complex"]),
    "turn_player 7": (_put("turn_player", 4, 7), ["turn_player: 0 to 1, got 7"]),
    "turn_player -1": (_put("turn_player", 4, -1), ["turn_player: 0 to 1, got -1"]),
    "round 100": (_put("round", 2, 100), ["round: 0 to 9, got 100"]),
    "negative game": (_put("game", 0, -3), ["game: at least 0, got -3"]),
    "negative seed": (_set("game_seed", lambda s: s.astype(np.int64) - 1),
                      ["game_seed: at least 0, got -1"]),
    "nan feature": (_put("features", 5, np.nan), ["features: 1 numbers not finite"]),
    "inf feature": (_put("features", 5, np.inf), ["features: 1 numbers not finite"]),
    "nan base": (_put("base_features", 5, np.nan), ["base_features: 1 numbers not finite"]),
    "nan target": (_put("win", 1, np.nan), ["win: 1 numbers not finite"]),
    "inf score": (_put("score", 1, -np.inf), ["score: 1 numbers not finite"]),
    "nan eval": (_put("eval_win", 1, np.nan), ["eval_win: 1 numbers not finite"]),
    "nan value": (_with_value(lambda v: np.where(v > 0, np.nan, v)), ["value:", "not finite"]),
    "win above 1": (_put("win", 0, 3.0), ["win: 0.0 to 1.0, got 3.0"]),
    "wins not adding up": (_set("win", _scaled), ["win: each row's shares add up to 1"]),
    "values not adding up": (_with_value(lambda v: v * 0.5), ["value: each row's shares"]),
    "features short": (_set("features", lambda x: x[:, :-1]),
                       ["features: shape (60, 731)", "(60, 730)"]),
    "features of 3 players": (_set("features", lambda x: np.zeros((len(x), 918), np.float32)),
                              ["features: shape (60, 731)"]),
    "base_features flat": (_set("base_features", lambda x: x.reshape(len(x), -1)),
                           ["base_features: shape (60, 2, 28)"]),
    "rows disagree": (_set("game", lambda g: g[:-1]), ["game: shape (60,)", "(59,)"]),
    "win of 3 seats": (_set("win", lambda w: np.zeros((len(w), 3), np.float32)),
                       ["win: shape (60, 2)"]),
    "7 players": (_data_meta(players=7), ["players must be 2, 3 or 4, got 7"]),
    "players text": (_data_meta(players="2"), ["players must be 2, 3 or 4, got '2'"]),
    "3 players": (_data_meta(players=3, feature_count=918), ["features: shape (60, 918)"]),
    "feature count": (_data_meta(feature_count=5), ["feature_count: 731", "got 5"]),
    "layout": (_data_meta(layout="ulm-features/0"), ["layout 'ulm-features/0'"]),
}


def _broken_data(data2, case):
    data = {k: (v.copy() if isinstance(v, np.ndarray) else dict(v)) for k, v in data2.items()}
    change, words = DATA_CASES[case]
    change(data)
    return data, words


def _save_raw(path, data: dict) -> None:
    """A data set as save_dataset writes it, without its checks."""
    np.savez_compressed(path, **{k: v for k, v in data.items() if k != "meta"},
                        meta=np.array(json.dumps(data["meta"])))


@pytest.mark.parametrize("case", sorted(DATA_CASES))
def test_the_data_loader_checks_the_documented_layout(case, data2, tmp_path):
    data, words = _broken_data(data2, case)
    path = tmp_path / "bad.npz"
    _save_raw(path, data)
    with pytest.raises(DatasetError) as err:
        load_dataset(path)
    for word in [str(path)] + words:
        assert word in str(err.value), (word, str(err.value))
    with pytest.raises(DatasetError):
        check_dataset(data)


@pytest.mark.parametrize("case", sorted(DATA_CASES))
def test_train_fit_refuses_a_bad_data_set(case, data2, tmp_path):
    data, words = _broken_data(data2, case)
    path, good, out = tmp_path / "bad.npz", tmp_path / "good.npz", tmp_path / "m.npz"
    _save_raw(path, data)
    save_dataset(good, data2)
    res = run("train", "fit", good, path, "--model", "linear", "--epochs", 1, "--out", out)
    assert_input_error(res, str(path), *words)
    assert not out.exists()


@pytest.mark.parametrize("case", sorted(DATA_CASES))
def test_fit_refuses_bad_data_given_in_python(case, data2):
    data, words = _broken_data(data2, case)
    with pytest.raises(TrainError, match="^data: "):
        fit(data, FitConfig(kind="linear", epochs=1, validation=0.25))


DATA_FILE_CASES = {
    "truncated": (None, ["not a self-play data set (.npz)"]),
    "text": (b"features,win\n1,0\n", ["a text file, not a self-play data set (.npz"]),
    "passwd": (b"root:x:0:0:root:/root:/bin/bash\n", ["a text file, not a self-play data set"]),
    "binary": (b"\x00\x01\xfe\xff" * 8, ["not a zip archive, not a self-play data set"]),
    "empty": (b"", ["an empty file, not a self-play data set (.npz)"]),
    "npy": ("npy", ["a single numpy array (.npy), not a self-play data set"]),
    "a model": ("model", ["not a self-play data set of format ulm-selfplay/1"]),
    "no meta": ("no meta", ["not a self-play data set (no meta data)"]),
}


@pytest.mark.parametrize("case", sorted(DATA_FILE_CASES))
def test_files_that_are_no_data_set(case, data2, models, tmp_path):
    content, words = DATA_FILE_CASES[case]
    good, path, out = tmp_path / "good.npz", tmp_path / "bad.npz", tmp_path / "m.npz"
    save_dataset(good, data2)
    if content is None:
        path.write_bytes(good.read_bytes()[:500])
    elif content == "npy":
        with open(path, "wb") as f:
            np.save(f, data2["features"])
    elif content == "model":
        save_model(path, models["linear"])
    elif content == "no meta":
        np.savez(path, **{k: v for k, v in data2.items() if k != "meta"})
    else:
        path.write_bytes(content)
    with pytest.raises(DatasetError) as err:
        load_dataset(path)
    assert "pickle" not in str(err.value), "numpy's advice is not ours to give"
    assert_input_error(run("train", "fit", path, "--out", out), str(path), *words)
    assert_input_error(run("train", "evaluate", tmp_path / "none.npz", path), "no such file")
    assert not out.exists()
    assert_input_error(run("train", "fit", tmp_path), str(tmp_path), "directory")


def test_a_data_set_larger_than_memory_is_not_unpacked(data2, tmp_path, monkeypatch):
    """A small file whose arrays unpack to more than the machine's memory (here
    a machine of 100 kB) is refused before it is unpacked."""
    import mcts.learning.selfplay
    path, out = tmp_path / "d.npz", tmp_path / "m.npz"
    save_dataset(path, data2)
    assert path.stat().st_size < 100_000
    monkeypatch.setattr(mcts.learning.selfplay, "memory_bytes", lambda: 100_000)
    with pytest.raises(DatasetError, match="bytes unpacked, more than this machine's memory"):
        load_dataset(path)
    assert_input_error(run("train", "fit", path, "--out", out), str(path), "memory")
    assert not out.exists()


# ---------------------------------------------------------------------------
# fits that diverge, counts without a bound


@pytest.mark.parametrize("setting", [["--lr", "1e308"], ["--l2", "1e308"], ["--lr", "1e7"]])
def test_a_fit_that_diverges_stops_and_writes_nothing(setting, data2, tmp_path):
    data, out = tmp_path / "d.npz", tmp_path / "m.npz"
    save_dataset(data, data2)
    res = run("train", "fit", data, "--model", "linear", "--epochs", 2, *setting, "--out", out)
    assert_input_error(res, "--lr, --l2", "the fit diverged in epoch 1")
    assert "Warning" not in res.stderr
    assert not out.exists()


def test_the_fit_checks_its_settings_and_its_weights(data2):
    with pytest.raises(FitDiverged, match="diverged"):
        fit(data2, FitConfig(kind="mlp", hidden=3, epochs=1, lr=1e300, validation=0.25))
    for field, value, words in [("epochs", 10 ** 30, "epochs: 1 to 10,000"),
                                ("epochs", 0, "epochs"), ("batch", 0, "batch: 1 to 10,000,000"),
                                ("batch", 10 ** 30, "batch: 1 to 10,000,000 positions"),
                                ("batch", 2.5, "batch"), ("batch", -3, "batch"),
                                ("hidden", 5000, "hidden: 1 to 1024"),
                                ("lr", float("nan"), "lr: a finite number above 0"),
                                ("l2", float("inf"), "l2: a finite number at least 0"),
                                ("lr", -1.0, "lr: a finite number above 0, got -1.0"),
                                ("lr", 0, "lr: a finite number above 0, got 0"),
                                ("l2", "0", "l2: a finite number"),
                                ("validation", 1.0, "validation: a finite number in [0, 1)")]:
        with pytest.raises(TrainError, match=re.escape(words)):
            fit(data2, FitConfig(kind="mlp", **{field: value}))


def test_inputs_too_large_for_a_model_are_refused_before_the_fit(data2, tmp_path):
    """Finite but huge features: their mean could not be written to a model file."""
    data, out = tmp_path / "d.npz", tmp_path / "m.npz"
    huge = dict(data2, features=data2["features"] * np.float32(1e30))
    save_dataset(data, huge)
    res = run("train", "fit", data, "--model", "linear", "--epochs", 1, "--out", out)
    assert_input_error(res, "data: inputs of a mean or spread above 1e+06")
    assert not out.exists()


def test_a_fit_without_validation_reports_the_last_epoch(data2, tmp_path):
    data, out = tmp_path / "d.npz", tmp_path / "m.npz"
    save_dataset(data, data2)
    res = run("train", "fit", data, "--model", "linear", "--epochs", 2, "--validation", 0,
              "--quiet", "--out", out)
    assert res.exit_code == 0, res.output
    assert "no validation positions" in res.stdout and load_model(out).meta["epoch_kept"] == 2


def test_games_that_keep_no_position(tmp_path):
    """A sample so small (or a horizon so long) that a game keeps no row: the
    data set has none, of the right shapes, and the fits say so."""
    data = SelfplayConfig(spec="ismcts:preset=v0.2,iterations=8", games=2, sample=1e-9)
    from mcts.learning.selfplay import run_selfplay
    empty = run_selfplay(data)
    assert empty["features"].shape == (0, 731) and empty["base_features"].shape == (0, 2, 28)
    save_dataset(tmp_path / "d.npz", empty)
    check_dataset(load_dataset(tmp_path / "d.npz"))
    assert_input_error(run("train", "fit", tmp_path / "d.npz"), "data: no positions to fit")
    rounds = ["train", "rounds", "--rounds", 1, "--games", 2, "--first-bots",
              "ismcts:preset=v0.2,iterations=8", "--check-games", 0, "--validation", 0,
              "--epochs", 1, "--workers", 1, "--quiet"]
    res = run(*rounds, "--horizon", 40, "--out", tmp_path / "r")
    assert_input_error(res, "round 0: data: no positions to fit")
    res = run(*rounds, "--lr", "1e308", "--out", tmp_path / "r2")
    assert_input_error(res, "--lr, --l2: round 0: the fit diverged in epoch 1")
    assert not (tmp_path / "r2" / "model-0.npz").exists()


def test_rounds_without_validation_report_a_dash(tmp_path):
    res = run("train", "rounds", "--rounds", 1, "--games", 2, "--first-bots",
              "ismcts:preset=v0.2,iterations=8", "--check-games", 0, "--validation", 0,
              "--epochs", 1, "--workers", 1, "--quiet", "--out", tmp_path / "r")
    assert res.exit_code == 0, res.output
    assert "round 0: cross-entropy - (v0.2 evaluation -) on 0 positions" in res.stdout


def test_evaluate_on_positions_of_one_stage(models, data2, tmp_path):
    """Stages without positions show a dash instead of a cross-entropy."""
    early = {k: v for k, v in data2.items()}
    early["round"] = np.zeros_like(data2["round"])
    data, model = tmp_path / "early.npz", tmp_path / "m.npz"
    save_dataset(data, early)
    save_model(model, models["mlp"])
    res = run("train", "evaluate", model, data)
    assert res.exit_code == 0, res.output
    assert "rounds 4-7: model -, v0.2 evaluation -" in res.stdout


HUGE = 10 ** 30


# each also has a fault found later (a missing file, an unknown bot), so that a
# count that is not refused at once fails the test instead of running on
@pytest.mark.parametrize("args, option", [
    (["train", "fit", "{missing}", "--epochs", HUGE], "--epochs"),
    (["train", "selfplay", "--games", HUGE, "--out", "{nowhere}"], "--games"),
    (["train", "selfplay", "--games", 1_000_001, "--out", "{nowhere}"], "--games"),
    (["train", "rounds", "--games", HUGE, "--first-bots", "nobot", "--out", "{folder}"],
     "--games"),
    (["train", "rounds", "--check-games", HUGE, "--first-bots", "nobot", "--out", "{folder}"],
     "--check-games"),
    (["train", "rounds", "--epochs", HUGE, "--first-bots", "nobot", "--out", "{folder}"],
     "--epochs"),
    (["train", "rounds", "--window", HUGE, "--first-bots", "nobot", "--out", "{folder}"],
     "--window"),
    (["tune", "--bot", "ismcts:iterations=5", "--param", "c=0.2:2.0", "--against", "nobot",
      "--trials", HUGE], "--trials"),
])
def test_counts_are_bounded(args, option, tmp_path):
    paths = {"missing": tmp_path / "none.npz", "nowhere": tmp_path / "no" / "d.npz",
             "folder": tmp_path / "rounds"}
    args = [str(a).format(**paths) for a in args]
    assert_input_error(run(*args), option)
    assert not (tmp_path / "rounds").exists()


def test_the_library_bounds_the_counts_too():
    from mcts.play.tune import TuneConfig, TuneError, parse_param, validate
    with pytest.raises(ValueError, match="games: a whole number from 1 to 1,000,000"):
        SelfplayConfig(games=HUGE).validate()
    for field in ("games", "check_games"):
        with pytest.raises(ValueError, match=f"{field}: a whole number from"):
            RoundsConfig(**{field: HUGE}).validate()
    cfg = TuneConfig(bot="ismcts:iterations=5", params=[parse_param("c=0.2:2.0", "ismcts")],
                     against=["greedy"], trials=HUGE)
    with pytest.raises(TuneError, match="trials: a whole number from 1 to 1,000,000"):
        validate(cfg)


@pytest.mark.parametrize("settings, words", [
    (dict(kind="forest"), ["kind: linear or mlp, got 'forest'"]),
    (dict(inputs="pixels"), ["inputs: one of"]),
    (dict(target="score"), ["target: one of"]),
    (dict(validation=0.01), ["validation: 0.01 of 12 games holds out none"]),
])
def test_the_fits_errors_name_its_settings_not_the_command_lines_options(settings, words, data2):
    """The library speaks of its settings; the command line words them as its options."""
    with pytest.raises(TrainError) as err:
        fit(data2, FitConfig(**{"kind": "linear", "epochs": 1, "validation": 0.25, **settings}))
    assert "--" not in str(err.value) and all(w in str(err.value) for w in words)


def test_the_command_line_words_the_fits_errors_by_its_options(data2, tmp_path):
    data = tmp_path / "d.npz"
    save_dataset(data, data2)
    assert_input_error(run("train", "fit", data, "--validation", 0.01),
                       "Error: --validation: 0.01 of 12 games holds out none; give more games "
                       "or validation 0")
