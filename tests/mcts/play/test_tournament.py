"""Tournaments (mcts.play.tournament): statistics, seat rotation, ratings, resume, reproducibility.

Games between cheap bots (random, greedy, ismcts with a few dozen iterations)
take milliseconds, so whole tournaments run here; nothing is timed.
"""
import json
import random
from collections import Counter

import pytest

import mcts.play.bot_game as one_game
import mcts.play.reports as reports
from mcts.play.bot_game import play_game, ranks_of
from mcts.play.reports import rate, summarize
from mcts.play.stats import cluster_win_interval, mean_interval, wilson_interval
from mcts.play.tournament import TournamentConfig, TournamentError, run_tournament, validate_config

# ---------------------------------------------------------------------------
# Wilson interval


@pytest.mark.parametrize("wins, n, low, high", [
    (5, 10, 0.2366, 0.7634),      # the textbook example
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
    (0, 1, 0.0, 0.7935),
    (1, 1, 0.2065, 1.0),
    (1, 10, 0.0179, 0.4042),
    (50, 100, 0.4038, 0.5962),
    (2.5, 5, 0.1704, 0.8296),     # fractional: shared wins count as parts of a win
    (0.5, 1, 0.0546, 0.9454),
    (1.5, 4, 0.0919, 0.7806),
])
def test_wilson_interval_known_values(wins, n, low, high):
    lo, hi = wilson_interval(wins, n)
    assert lo == pytest.approx(low, abs=5e-4)
    assert hi == pytest.approx(high, abs=5e-4)


@pytest.mark.parametrize("wins, n", [(2.5, 5), (1.5, 4), (0.25, 3), (7.75, 9), (3, 10)])
def test_wilson_bounds_solve_the_score_equation(wins, n):
    """Wilson's bounds are the p with (wins/n - p)^2 = z^2 p (1 - p) / n, also for
    fractional wins."""
    z = 1.959963984540054
    for p in wilson_interval(wins, n):
        assert (wins / n - p) ** 2 == pytest.approx(z * z * p * (1 - p) / n, abs=1e-12)


def test_wilson_interval_is_symmetric_and_inside_0_1():
    for n in (1, 2, 7, 30):
        for k in range(n + 1):
            for w in (k, k - 0.5) if k else (k,):
                lo, hi = wilson_interval(w, n)
                mlo, mhi = wilson_interval(n - w, n)
                assert 0.0 <= lo <= w / n <= hi <= 1.0
                assert (lo == 0.0) == (w == 0) and (hi == 1.0) == (w == n)
                assert lo == pytest.approx(1 - mhi) and hi == pytest.approx(1 - mlo)


def test_wilson_interval_shrinks_with_more_games_and_knows_nothing_without_games():
    widths = [wilson_interval(n / 2, n) for n in (4, 40, 400)]
    assert widths[0][1] - widths[0][0] > widths[1][1] - widths[1][0] > widths[2][1] - widths[2][0]
    assert wilson_interval(0, 0) == (0.0, 1.0)


# ---------------------------------------------------------------------------
# cluster interval (deals as clusters)


def test_cluster_interval_is_never_narrower_than_wilson():
    rng = random.Random(7)
    for _ in range(500):
        per_deal = []
        for _ in range(rng.randint(1, 12)):
            g = rng.randint(1, 4)
            w = rng.choice([0, g, rng.randint(0, g), rng.randint(0, 2 * g) / 2])
            per_deal.append((w, g))
        lo, hi = cluster_win_interval(per_deal)
        wlo, whi = wilson_interval(sum(w for w, _ in per_deal), sum(g for _, g in per_deal))
        assert lo <= wlo + 1e-12 and hi >= whi - 1e-12
        assert 0.0 <= lo <= hi <= 1.0


def test_cluster_interval_is_wider_when_deals_disagree():
    agree = [(1, 2)] * 4                      # every deal: one win in two games
    disagree = [(2, 2), (0, 2), (2, 2), (0, 2)]  # same pooled 4 of 8, all-or-nothing by deal
    wilson = wilson_interval(4, 8)
    assert cluster_win_interval(agree) == pytest.approx(wilson)
    lo, hi = cluster_win_interval(disagree)
    assert lo < wilson[0] - 0.05 and hi > wilson[1] + 0.05


def test_cluster_interval_with_one_deal_or_no_games_is_wilson():
    assert cluster_win_interval([(3, 4)]) == pytest.approx(wilson_interval(3, 4))
    assert cluster_win_interval([]) == wilson_interval(0, 0)


# ---------------------------------------------------------------------------
# mean interval


def test_mean_interval():
    m, lo, hi = mean_interval([1, 2, 3])
    assert m == 2
    assert hi - m == pytest.approx(m - lo)
    assert hi - m == pytest.approx(1.959964 * 1 / 3 ** 0.5, rel=1e-5)   # sd 1, n 3
    assert mean_interval([4.5]) == (4.5, 4.5, 4.5)
    assert mean_interval([]) == (0.0, 0.0, 0.0)
    assert mean_interval([7, 7, 7, 7]) == (7, 7, 7)


# ---------------------------------------------------------------------------
# ranks


@pytest.mark.parametrize("scores, returns, ranks", [
    ([40, 30], [1, 0], [1, 2]),
    ([30, 40, 20], [0, 1, 0], [2, 1, 3]),
    # a score tie for the win broken by the rules (returns): the winner ranks first
    ([30, 30, 10], [0, 1, 0], [2, 1, 3]),
    # a shared win: both winners share the top places
    ([30, 30, 10], [0.5, 0.5, 0], [1.5, 1.5, 3]),
    ([25, 25, 25, 10], [1 / 3, 1 / 3, 1 / 3, 0], [2, 2, 2, 4]),
    # ties among the losers are averaged too
    ([50, 20, 20, 30], [1, 0, 0, 0], [1, 3.5, 3.5, 2]),
    ([20, 20, 20, 20], [0.25] * 4, [2.5] * 4),
])
def test_ranks_of(scores, returns, ranks):
    got = ranks_of(scores, returns)
    assert got == ranks
    n = len(scores)
    assert sum(got) == n * (n + 1) / 2


# ---------------------------------------------------------------------------
# the schedule: duplicate deals, rotated seats


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_bot_sits_in_every_seat_equally_often_on_every_deal(players):
    for k in range(1, players + 1):
        bots = [f"bot{i}" for i in range(k)]
        for games in (1, players, 3 * players - 1):
            cfg = TournamentConfig(bots=bots, players=players, games=games, seed=11)
            sched = cfg.schedule()
            assert len(sched) == cfg.deals() * players >= games
            assert [g for g, _, _, _ in sched] == list(range(len(sched)))
            slots = Counter(cfg.lineup())
            assert set(slots) == set(bots)           # every bot plays
            by_deal = {}
            for game, seed, rotation, seats in sched:
                assert len(seats) == players
                by_deal.setdefault(game // players, []).append((seed, rotation, seats))
            assert len(by_deal) == cfg.deals()
            deal_seeds = set()
            for games_of_deal in by_deal.values():
                seeds = {s for s, _, _ in games_of_deal}
                assert len(seeds) == 1, "every game of a deal uses the deal's seed"
                deal_seeds |= seeds
                assert sorted(r for _, r, _ in games_of_deal) == list(range(players))
                for bot in bots:
                    per_seat = [sum(seats[i] == bot for _, _, seats in games_of_deal)
                                for i in range(players)]
                    assert per_seat == [slots[bot]] * players, (bots, per_seat)
            assert len(deal_seeds) == cfg.deals(), "deals differ"


def test_schedule_depends_on_the_tournament_seed():
    a = TournamentConfig(bots=["random", "greedy"], players=2, games=6, seed=0).schedule()
    b = TournamentConfig(bots=["random", "greedy"], players=2, games=6, seed=1).schedule()
    assert {s for _, s, _, _ in a}.isdisjoint({s for _, s, _, _ in b})


# ---------------------------------------------------------------------------
# one game


def test_play_game_is_reproducible_and_complete():
    specs = ["ismcts:iterations=30", "greedy", "random"]
    a = play_game(specs, 5)
    b = play_game(specs, 5)
    for key in ("seed", "bots", "scores", "returns", "ranks", "decisions", "breakdown"):
        assert a[key] == b[key]
    assert a["bots"] == specs and a["seed"] == 5
    assert sum(a["returns"]) == pytest.approx(1.0)
    assert a["ranks"] == ranks_of(a["scores"], a["returns"])
    assert [br["total"] for br in a["breakdown"]] == a["scores"]
    assert len(a["seconds"]) == 3


def test_play_game_logs_turns_and_saves_a_replayable_record(tmp_path):
    from ulm.records import load_record
    lines = []
    row = play_game(["random", "greedy"], 3, log=lines.append, record_path=tmp_path / "r.json")
    assert lines and all(line.startswith("round ") for line in lines)
    assert lines[0].startswith("round  1 Red") and lines[-1].startswith("round 10")
    rec = load_record(tmp_path / "r.json")
    assert rec.state.is_terminal()
    assert rec.state.scores() == row["scores"]
    assert len(rec.decisions) == row["decisions"]


def test_a_spec_seed_is_mixed_with_the_deal_and_the_seat():
    import ulm
    assert one_game.bot_seed(4, 9, 1) == ulm.derive_seed(4, 9, 1)
    assert len({one_game.bot_seed(4, d, s) for d in range(3) for s in range(4)}) == 12


# ---------------------------------------------------------------------------
# settings


@pytest.mark.parametrize("kwargs, words", [
    (dict(bots=["random", "greedy"], players=5, games=4), ["players: ", "5"]),
    (dict(bots=["random", "greedy"], players=1, games=4), ["players: "]),
    (dict(bots=["random", "greedy"], players=2, games=0), ["games: ", "0"]),
    (dict(bots=["random"], players=2, games=4), ["bots: ", "two bots"]),
    (dict(bots=["random", "greedy", "random"], players=2, games=4),
     ["bots: ", "3 bots", "2 seats"]),
    (dict(bots=["random", "ismcts:iterations=-5"], players=2, games=4), ["bots: ", "iterations"]),
    (dict(bots=["random", "ismcts:iteratons=5"], players=2, games=4),
     ["bots: ", "'iteratons'", "did you mean 'iterations'"]),
    (dict(bots=["randon", "greedy"], players=2, games=4), ["unknown bot 'randon'", "'random'"]),
    (dict(bots=["random", "greedy"], players=2, games=4, board="/no/such/board.json"),
     ["board: ", "/no/such/board.json"]),
])
def test_bad_settings_are_refused_before_anything_is_written(kwargs, words, tmp_path):
    cfg = TournamentConfig(**kwargs)
    with pytest.raises(TournamentError) as err:
        validate_config(cfg)
    for w in words:
        assert w in str(err.value)
    with pytest.raises(TournamentError):
        run_tournament(cfg, tmp_path / "out", workers=1, progress=False)
    assert not (tmp_path / "out").exists()


# ---------------------------------------------------------------------------
# summary and ratings


def _row(game, players, bots, scores, returns):
    return {"game": game, "deal": game // players, "rotation": game % players, "seed": 0,
            "bots": bots, "scores": scores, "returns": returns,
            "ranks": ranks_of(scores, returns), "decisions": 1, "seconds": [0.0] * players}


def test_summarize_counts_shared_wins_and_seats():
    cfg = TournamentConfig(bots=["A", "B"], players=2, games=4)
    rows = [_row(0, 2, ["A", "B"], [30, 20], [1, 0]),
            _row(1, 2, ["B", "A"], [25, 25], [0.5, 0.5]),
            _row(2, 2, ["A", "B"], [10, 20], [0, 1]),
            _row(3, 2, ["B", "A"], [10, 40], [0, 1])]
    s = summarize(cfg, rows)
    assert s["games"] == 4 and s["deals"] == 2 and s["baseline"] == 0.5
    a, b = s["bots"]
    assert a["bot"] == "A" and a["games"] == 4 and a["wins"] == 2.5 and a["win_rate"] == 0.625
    assert b["wins"] == 1.5
    assert a["seat_win_rates"] == [0.5, 0.75] and b["seat_win_rates"] == [0.25, 0.5]
    assert a["score"] == pytest.approx((30 + 25 + 10 + 40) / 4)
    assert a["win_low"] <= a["win_rate"] <= a["win_high"]
    assert a["rank"] + b["rank"] == pytest.approx(3)


def test_rating_ranks_a_bot_that_always_wins_higher():
    points = {"A": 30, "B": 20, "C": 10}          # A always wins, B always second
    rows = []
    for g in range(12):
        seats = ["A", "B", "C"][g % 3:] + ["A", "B", "C"][:g % 3]
        rows.append(_row(g, 3, seats, [points[s] for s in seats],
                         [1 if s == "A" else 0 for s in seats]))
    ratings = rate(["A", "B", "C"], rows)
    assert ratings["A"][0] > ratings["B"][0] > ratings["C"][0]
    assert all(sigma < 25 / 3 for _, sigma in ratings.values())   # it learnt something


def test_openskill_rates_greedy_above_random_in_a_real_tournament():
    cfg = TournamentConfig(bots=["random", "greedy"], players=2, games=16, seed=2)
    s = run_tournament(cfg, None, workers=1, progress=False)
    by = {b["bot"]: b for b in s["bots"]}
    assert s["games"] == 16 and s["deals"] == 8
    assert by["greedy"]["rating"] > by["random"]["rating"]
    assert by["greedy"]["rating_mu"] > by["random"]["rating_mu"]
    assert by["greedy"]["win_rate"] > 0.8
    assert by["greedy"]["beats_baseline"] and by["random"]["below_baseline"]
    assert by["greedy"]["rank"] < by["random"]["rank"]


def test_format_table_names_every_bot():
    cfg = TournamentConfig(bots=["random", "greedy"], players=2, games=2)
    text = reports.format_table(run_tournament(cfg, None, workers=1, progress=False))
    assert "2 games on 1 deals" in text and "random" in text and "greedy" in text
    assert "win rate by seat" in text


# ---------------------------------------------------------------------------
# resume after an interruption


def _games(folder):
    return [json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines()]


def _same_game(a, b):
    return all(a[k] == b[k] for k in ("game", "deal", "rotation", "seed", "bots", "scores",
                                      "returns", "ranks", "decisions", "breakdown"))


@pytest.mark.parametrize("keep", [0, 5])
def test_resume_plays_only_the_missing_games(tmp_path, monkeypatch, keep):
    out = tmp_path / "t"
    cfg = TournamentConfig(bots=["greedy", "random"], players=2, games=12, seed=5)
    first = run_tournament(cfg, out, workers=1, progress=False)
    full = _games(out)
    assert sorted(r["game"] for r in full) == list(range(12))

    # an interruption: some whole lines and half of the next one
    lines = (out / "games.jsonl").read_text().splitlines(keepends=True)
    torn = lines[keep][: len(lines[keep]) // 2]
    (out / "games.jsonl").write_text("".join(lines[:keep]) + torn)
    kept = {json.loads(line)["game"] for line in lines[:keep]}
    for name in ("results.json", "games.csv", "win_rates.png"):
        (out / name).unlink()

    played = []
    real = one_game.play_game

    def counting(specs, seed, *args, **kwargs):
        played.append((list(specs), seed))
        return real(specs, seed, *args, **kwargs)

    monkeypatch.setattr(one_game, "play_game", counting)
    again = run_tournament(cfg, out, workers=1, progress=False)
    missing = [(seats, seed) for g, seed, _, seats in cfg.schedule() if g not in kept]
    assert sorted(played) == sorted(missing)
    assert len(played) == 12 - keep

    rows = _games(out)
    assert sorted(r["game"] for r in rows) == list(range(12)), "every game exactly once"
    by_game = {r["game"]: r for r in rows}
    assert all(_same_game(by_game[r["game"]], r) for r in full), "replayed games are the same"
    for name in ("results.json", "games.csv", "win_rates.png"):
        assert (out / name).stat().st_size > 0
    assert (out / "win_rates.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert len((out / "games.csv").read_text().splitlines()) == 1 + 12
    saved = json.loads((out / "results.json").read_text())
    assert saved["games"] == 12
    for a, b in zip(first["bots"], again["bots"]):
        assert a["wins"] == b["wins"] and a["rating_mu"] == pytest.approx(b["rating_mu"])

    # a finished tournament plays nothing more
    played.clear()
    run_tournament(cfg, out, workers=1, progress=False)
    assert played == []
    assert len(_games(out)) == 12


def test_a_game_written_twice_counts_once(tmp_path):
    out = tmp_path / "t"
    cfg = TournamentConfig(bots=["greedy", "random"], players=2, games=4, seed=1)
    run_tournament(cfg, out, workers=1, progress=False)
    text = (out / "games.jsonl").read_text()
    (out / "games.jsonl").write_text(text + text.splitlines(keepends=True)[0])
    s = run_tournament(cfg, out, workers=1, progress=False)
    assert s["games"] == 4
    assert sorted(r["game"] for r in _games(out)) == [0, 1, 2, 3]


def test_another_tournament_in_the_same_folder_is_refused(tmp_path):
    out = tmp_path / "t"
    cfg = TournamentConfig(bots=["greedy", "random"], players=2, games=4, seed=1)
    run_tournament(cfg, out, workers=1, progress=False)
    before = (out / "games.jsonl").read_text()
    for other in (TournamentConfig(bots=["greedy", "random"], players=2, games=4, seed=2),
                  TournamentConfig(bots=["greedy", "random"], players=2, games=6, seed=1,
                                   variant="advanced"),
                  TournamentConfig(bots=["random", "greedy"], players=2, games=4, seed=1),
                  TournamentConfig(bots=["greedy", "random"], players=3, games=4, seed=1)):
        with pytest.raises(TournamentError, match="^out_dir: .*another tournament"):
            run_tournament(other, out, workers=1, progress=False)
    assert (out / "games.jsonl").read_text() == before


@pytest.mark.parametrize("edit, message", [
    (lambda lines: lines[:1] + ['{"game": 1, "dea\n'] + lines[2:], "games.jsonl line 2: not valid JSON"),
    (lambda lines: lines[:1] + ['{"game": 1}\n'] + lines[2:],
     "games.jsonl line 2: not a game of a tournament"),
    (lambda lines: lines[:1] + [lines[1].replace('"seed": ', '"seed": 1, "seed": ', 1)] + lines[2:],
     "games.jsonl line 2: seed: the key is given twice in one object"),
    (lambda lines: [lines[0].replace('"bots": ["greedy", "random"]', '"bots": ["random", "greedy"]')]
     + lines[1:], "games.jsonl line 1: game 0 was not played with this tournament's deals and seats"),
])
def test_a_damaged_games_file_is_refused_not_cut(tmp_path, edit, message):
    """Only a cut last line counts as an interruption; a bad line further up is an
    error, and the folder is left as it was."""
    out = tmp_path / "t"
    cfg = TournamentConfig(bots=["greedy", "random"], players=2, games=4, seed=1)
    run_tournament(cfg, out, workers=1, progress=False)
    lines = (out / "games.jsonl").read_text().splitlines(keepends=True)
    assert '"bots": ["greedy", "random"]' in lines[0]
    (out / "games.jsonl").write_text("".join(edit(lines)))
    before = (out / "games.jsonl").read_text()
    with pytest.raises(TournamentError, match=message):
        run_tournament(cfg, out, workers=1, progress=False)
    assert (out / "games.jsonl").read_text() == before


def test_a_games_file_with_bytes_that_are_not_utf8_is_a_clean_error(tmp_path):
    """A byte that is not UTF-8 names the file and the line (no UnicodeDecodeError), from
    the library and from the command line (exit status 2); the folder is left as it was.
    On the last line it is a line cut in the middle of a character: played again."""
    from click.testing import CliRunner

    from cli.main import main
    out = tmp_path / "t"
    cfg = TournamentConfig(bots=["greedy", "random"], players=2, games=4, seed=1)
    run_tournament(cfg, out, workers=1, progress=False)
    lines = (out / "games.jsonl").read_bytes().splitlines(keepends=True)
    damaged = lines[0] + lines[1].replace(b'"greedy"', b'"gr\xffedy"', 1) + b"".join(lines[2:])
    (out / "games.jsonl").write_bytes(damaged)
    with pytest.raises(TournamentError, match=r"games.jsonl line 2: not UTF-8 text \(byte 0xff"):
        run_tournament(cfg, out, workers=1, progress=False)
    res = CliRunner().invoke(main, ["tournament", "--bots", "greedy", "random", "--games", "4",
                                    "--seed", "1", "--workers", "1", "--quiet", "--out", str(out)])
    assert res.exit_code == 2 and "Traceback" not in res.output, res.output
    assert f"Error: {out / 'games.jsonl'} line 2: not UTF-8 text" in res.stderr
    assert (out / "games.jsonl").read_bytes() == damaged
    # cut inside a character on the last line: an interruption, that game is played again
    (out / "games.jsonl").write_bytes(b"".join(lines[:3]) + "{\"game\": 3, \"é".encode()[:-1])
    summary = run_tournament(cfg, out, workers=1, progress=False)
    assert summary["games"] == 4 and len((out / "games.jsonl").read_bytes().splitlines()) == 4


def test_fewer_games_in_a_folder_of_more_summarize_the_first_ones(tmp_path):
    """--games may also shrink: the summary covers the first games of the schedule and
    games.jsonl keeps every game played."""
    out = tmp_path / "t"
    big = run_tournament(TournamentConfig(bots=["greedy", "random"], players=2, games=6, seed=1),
                         out, workers=1, progress=False)
    small = run_tournament(TournamentConfig(bots=["greedy", "random"], players=2, games=2, seed=1),
                           out, workers=1, progress=False)
    assert big["games"] == 6 and small["games"] == 2
    assert len((out / "games.jsonl").read_text().splitlines()) == 6
    alone = run_tournament(TournamentConfig(bots=["greedy", "random"], players=2, games=2, seed=1),
                           tmp_path / "alone", workers=1, progress=False)
    assert [b["wins"] for b in small["bots"]] == [b["wins"] for b in alone["bots"]]


# ---------------------------------------------------------------------------
# parallel workers


def test_two_workers_give_the_same_games_as_one(tmp_path):
    cfg = TournamentConfig(bots=["ismcts:iterations=30", "greedy", "random"], players=3, games=9,
                           seed=4)
    one = run_tournament(cfg, tmp_path / "one", workers=1, progress=False)
    two = run_tournament(cfg, tmp_path / "two", workers=2, progress=False)
    a = sorted(_games(tmp_path / "one"), key=lambda r: r["game"])
    b = sorted(_games(tmp_path / "two"), key=lambda r: r["game"])
    assert [r["game"] for r in a] == [r["game"] for r in b] == list(range(9))
    assert all(_same_game(x, y) for x, y in zip(a, b))
    for x, y in zip(one["bots"], two["bots"]):
        for key in ("bot", "games", "wins", "win_low", "win_high", "score", "rank", "rating"):
            assert x[key] == y[key], key


def test_the_library_names_settings_and_the_command_words_them_as_options(tmp_path):
    """The library's errors name the tournament's settings (players, bots,
    games, board, out_dir), never a command-line flag; `ulm tournament`
    words them as its options."""
    from click.testing import CliRunner
    from helpers import assert_input_error

    from cli.main import main
    from mcts.play.tournament import MAX_GAMES
    cases = [(dict(bots=["random", "greedy"], players=5), "players: must be 2, 3 or 4"),
             (dict(bots=["random"], players=2), "bots: name at least two bots"),
             (dict(bots=["random", "greedy"], players=2, games=MAX_GAMES + 1), "games: at most"),
             (dict(bots=["random", "bogus"], players=2), "bots: bot spec 'bogus'"),
             (dict(bots=["random", "greedy"], players=2, board=str(tmp_path / "none.json")),
              "board: ")]
    for fields, message in cases:
        with pytest.raises(TournamentError) as info:
            validate_config(TournamentConfig(**{"games": 2, **fields}))
        assert str(info.value).startswith(message) and "--" not in str(info.value)[:12]

    def run(*args):
        return CliRunner().invoke(main, ["tournament", *map(str, args), "--quiet"])
    assert_input_error(run("--bots", "random", "bogus", "--games", 1),
                       "Error: --bots: bot spec 'bogus'")
    assert_input_error(run("--bots", "random", "greedy", "--games", 1, "--board",
                           tmp_path / "none.json"), "Error: --board: ")
    assert run("--bots", "random", "greedy", "--games", 2, "--out", tmp_path).exit_code == 0
    assert_input_error(run("--bots", "random", "random", "--games", 2, "--out", tmp_path),
                       f"Error: --out: {tmp_path} holds another tournament")


def test_a_rank_interval_stays_within_the_possible_ranks():
    """A bot first in all games but one: the normal interval of its mean rank
    would reach below 1 (0.99), a rank no bot can have."""
    cfg = TournamentConfig(bots=["A", "B"], players=2, games=40)
    rows = [_row(g, 2, ["A", "B"] if g % 2 == 0 else ["B", "A"],
                 [30, 20] if (g % 2 == 0) != (g == 39) else [20, 30],
                 [1, 0] if (g % 2 == 0) != (g == 39) else [0, 1]) for g in range(40)]
    a, b = summarize(cfg, rows)["bots"]
    assert a["rank"] == pytest.approx(1 + 1 / 40) and b["rank"] == pytest.approx(2 - 1 / 40)
    assert a["rank_low"] == 1.0 and a["rank_high"] > a["rank"]
    assert b["rank_high"] == 2.0 and b["rank_low"] < b["rank"]


def test_the_table_says_what_its_rating_and_rank_are():
    cfg = TournamentConfig(bots=["random", "greedy"], players=2, games=2)
    text = reports.format_table(run_tournament(cfg, None, workers=1, progress=False))
    assert "rank: the mean finishing place, 1 the best" in text
    assert "rating: OpenSkill's estimate of a bot's skill less three times its uncertainty " \
           "(mu - 3 sigma)" in text


def test_a_fast_bots_time_per_decision_is_measured_not_rounded_away(tmp_path):
    """greedy answers in well under a millisecond: its mean time per decision is still
    above 0 and at most its longest (the rows keep times to the microsecond)."""
    cfg = TournamentConfig(bots=["greedy", "level:1"], players=2, games=2, seed=3)
    summary = run_tournament(cfg, tmp_path / "out", workers=1, progress=False)
    for b in summary["bots"]:
        assert 0 < b["seconds_per_decision"] <= b["longest_decision"], b
