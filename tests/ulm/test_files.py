"""Reading and writing the project's files (ulm/jsonfile.py): every JSON file is
read with a size cap, a nesting cap and no duplicate keys; every file is written
whole or not at all, with the usual permissions, never replacing a device."""
import json
import os
import stat

import pytest

from mcts.play.tournament import TournamentConfig, TournamentError, run_tournament
from ulm.board import BoardError, load_board
from ulm.jsonfile import MAX_BYTES, check_writable, read_json, write_atomically
from ulm.positions import PositionError, load_position
from ulm.records import RecordError, load_record
from helpers import ROOT

EXAMPLES = ROOT / "examples"
BOARD = ROOT / "ulm" / "data" / "board.json"


def _with_duplicate(text: str, key: str, occurrence: int = 1) -> str:
    """`text` with the `occurrence`-th `"key": value` line given twice."""
    lines = text.splitlines(keepends=True)
    hits = [i for i, line in enumerate(lines) if line.strip().startswith(f'"{key}":')]
    i = hits[occurrence - 1]
    line = lines[i] if lines[i].rstrip().endswith(",") else lines[i].rstrip() + ",\n"
    return "".join(lines[:i] + [line] + lines[i:])


@pytest.mark.parametrize("source, key, occurrence, loader, error, path", [
    (EXAMPLES / "midgame-4p.json", "coins", 2, load_position, PositionError, "players[1].coins"),
    (EXAMPLES / "midgame-4p.json", "round", 1, load_position, PositionError, "round"),
    (EXAMPLES / "record-2p.json", "seed", 1, load_record, RecordError, "seed"),
    (BOARD, "values", 1, load_board, BoardError, "river.values"),
])
def test_duplicate_keys_are_refused_with_their_path(tmp_path, source, key, occurrence, loader,
                                                    error, path):
    bad = tmp_path / "dup.json"
    bad.write_text(_with_duplicate(source.read_text(encoding="utf-8"), key, occurrence))
    with pytest.raises(error) as err:
        loader(bad)
    assert str(err.value) == f"{bad}: {path}: the key is given twice in one object"


def test_duplicate_key_in_a_tournament_folder_is_refused(tmp_path):
    out = tmp_path / "t"
    cfg = TournamentConfig(bots=["greedy", "random"], players=2, games=2, seed=1)
    run_tournament(cfg, out, workers=1, progress=False)
    conf = out / "tournament.json"
    conf.write_text(_with_duplicate(conf.read_text(), "seed"))
    with pytest.raises(TournamentError, match="tournament.json: seed: the key is given twice"):
        run_tournament(cfg, out, workers=1, progress=False)


def test_nesting_and_size_caps(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text('{"a": ' * 64 + "1" + "}" * 64)
    assert read_json(path, ValueError)["a"]["a"]["a"]
    path.write_text('{"a": ' * 65 + "1" + "}" * 65)
    with pytest.raises(ValueError, match=r"a(\.a){63}: nested more than 64 levels deep"):
        read_json(path, ValueError)
    big = tmp_path / "big.json"
    big.write_text(" " * MAX_BYTES + "[]")
    with pytest.raises(ValueError, match="larger than 16 MiB"):
        read_json(big, ValueError)


# ---------------------------------------------------------------------------
# writing


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_new_files_honour_the_umask(tmp_path, umask, mode):
    old = os.umask(umask)
    try:
        write_atomically(tmp_path / "f.json", "{}\n")
    finally:
        os.umask(old)
    assert _mode(tmp_path / "f.json") == mode
    assert (tmp_path / "f.json").read_text() == "{}\n"
    assert os.listdir(tmp_path) == ["f.json"], "no temporary file left"


def test_a_replaced_file_keeps_its_permissions(tmp_path):
    path = tmp_path / "f.json"
    path.write_text("old")
    os.chmod(path, 0o640)
    write_atomically(path, "new")
    assert path.read_text() == "new" and _mode(path) == 0o640


def test_the_file_is_synced_before_the_rename(tmp_path, monkeypatch):
    events = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(os, "fsync", lambda fd: (events.append("fsync"), real_fsync(fd))[1])
    monkeypatch.setattr(os, "replace", lambda a, b: (events.append("replace"), real_replace(a, b))[1])
    write_atomically(tmp_path / "f.json", "{}")
    assert events == ["fsync", "replace", "fsync"], "file, rename, then the folder"


def test_a_symbolic_link_stays_and_its_target_is_replaced(tmp_path):
    target = tmp_path / "real.json"
    target.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    write_atomically(link, "new")
    assert link.is_symlink() and target.read_text() == "new"


def test_a_device_is_written_to_and_never_replaced(tmp_path):
    # a named pipe of our own first: a writer that replaces special files fails
    # here, before it could replace a device node of the system
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        write_atomically(fifo, "through the pipe")
        assert os.read(reader, 100) == b"through the pipe"
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert os.listdir(tmp_path) == ["pipe"]
    write_atomically("/dev/null", "{}")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    with pytest.raises(OSError) as err:
        write_atomically("/dev/full", "{}")
    assert err.value.filename == "/dev/full" and "No space left" in err.value.strerror
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode), "the device node is still a device"


@pytest.mark.parametrize("name, reason", [
    ("", "no file name given"),
    ("folder", "is a folder"),
    ("missing/f.json", "No such file or directory"),
])
def test_write_errors_name_the_file_asked_for(tmp_path, name, reason):
    (tmp_path / "folder").mkdir()
    path = str(tmp_path / name) if name else ""
    with pytest.raises(OSError) as err:
        write_atomically(path, "{}")
    assert reason in err.value.strerror
    assert err.value.filename == (path or "''")
    assert sorted(os.listdir(tmp_path)) == ["folder"]


def test_check_writable(tmp_path):
    check_writable(tmp_path / "new.json")
    check_writable("/dev/null")
    assert os.listdir(tmp_path) == []
    for bad, reason in ((tmp_path / "no" / "f.json", "does not exist"), (tmp_path, "is a folder"),
                        (tmp_path / ("x" * 300), "File name too long")):
        with pytest.raises(OSError) as err:
            check_writable(bad)
        assert reason in err.value.strerror and err.value.filename == str(bad)


def test_the_tournament_writes_through_the_one_writer(tmp_path):
    old = os.umask(0o022)
    try:
        run_tournament(TournamentConfig(bots=["greedy", "random"], players=2, games=2, seed=1),
                       tmp_path / "t", workers=1, progress=False)
    finally:
        os.umask(old)
    for name in ("tournament.json", "games.jsonl", "games.csv", "results.json", "win_rates.png"):
        assert _mode(tmp_path / "t" / name) == 0o644, name
    assert json.loads((tmp_path / "t" / "results.json").read_text())["games"] == 2


def test_an_open_stream_is_written_into_and_a_closed_pipe_ends_quietly(tmp_path):
    # /dev/stdout of a pipeline leads through /proc/self/fd/1 to a pipe that no
    # folder holds: it is written into, as docs/commands.md says
    import subprocess
    import sys
    res = subprocess.run(f"{sys.executable} -m cli new --players 2 -o /dev/stdout | head -3",
                         shell=True, capture_output=True, text=True, timeout=120,
                         executable="/bin/bash")
    assert res.returncode == 0 and res.stderr == "", res.stderr
    assert res.stdout.splitlines()[:2] == ["{", '  "format": "ulm-position/1",']
    read, write = os.pipe()
    try:
        write_atomically(f"/dev/fd/{write}", "{}\n")
        check_writable(f"/dev/fd/{write}")
        assert os.read(read, 100) == b"{}\n"
        os.close(read)              # the reader has gone (`| head` done)
        write_atomically(f"/proc/self/fd/{write}", "x" * 200_000)
    finally:
        os.close(write)
    # a stream that leads to a regular file is appended to (`>>`), never replaced
    path = tmp_path / "log.txt"
    path.write_text("before\n")
    with open(path, "ab") as f:
        write_atomically(f"/dev/fd/{f.fileno()}", "after\n")
    assert path.read_text() == "before\nafter\n" and os.listdir(tmp_path) == ["log.txt"]
