"""The terminal: `ulm apply --list`, abbreviations of decisions, `ulm play --human`'s
wording (singular counts, refilled docks, menu columns), a stopped game resumed exactly,
`ulm bots`; and a real pseudo-terminal session (pexpect) for Ctrl-C during a hint,
quit and resume."""
import json
import os
import re
import sys

import pytest
from click.testing import CliRunner

import ulm
from cli.human_cmd import _columns
from cli.main import main
from mcts.play.session import PlaySession
from ulm import ACTION_NAMES, CARDS
from ulm.decisions import DecisionError, chance_name
from ulm.follow import options, parse_decision
from ulm.positions import dumps, position_to_state, state_to_position
from ulm.records import load_record
from helpers import ROOT

EXAMPLES = ROOT / "examples"
RED, BLUE = 0, 1


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def _write(tmp_path, state, viewer=None, name="pos.json"):
    path = tmp_path / name
    path.write_text(dumps(state_to_position(state, viewer)))
    return path


# --- ulm apply --list --------------------------------------------------------------------------

def test_list_shows_the_legal_decisions_in_text_and_json_with_the_same_words(tmp_path):
    path = EXAMPLES / "push-4p-view.json"
    state, seat = position_to_state(json.loads(path.read_text()))
    words = [w for w, _ in options(state, seat)]
    text = run("apply", path, "--list")
    assert text.exit_code == 0, text.output
    lines = text.stdout.splitlines()
    assert lines[0] == (f"Blue to decide, phase push ({len(words)} possible decisions, as Blue "
                        "knows the game):")
    assert [ln.strip() for ln in lines[1:]] == words
    assert "lay Nave II in front (end-game points)" in words      # players' words, not engine's
    js = run("apply", path, "--list", "--json")
    assert js.exit_code == 0, js.output
    data = json.loads(js.stdout)
    assert [o["name"] for o in data["options"]] == words          # the labels agree
    assert data["viewer"] == "Blue" and data["to_move"] == "Blue" and not data["chance"]
    for o in data["options"]:
        assert ACTION_NAMES[o["action"]] == o["engine_name"]
        assert ulm.State.string_to_action(o["name"]) == o["action"]
    assert not (tmp_path / "x.json").exists()


def test_list_after_decisions_one_decision_and_chance_events():
    new = run("new", "--players", "2", "--as", "Blue", "--seed", "4")
    first = run("apply", "-", "--list", input=new.stdout)
    assert first.exit_code == 0, first.output
    # one decision: singular; an opponent's decision as Blue knows the game
    assert first.stdout.splitlines() == [
        "Red to decide, phase before draw (1 possible decision, as Blue knows the game):",
        "  draw"]
    chance = run("apply", "-", "draw", "--list", "--json", input=new.stdout)
    assert chance.exit_code == 0, chance.output
    data = json.loads(chance.stdout)
    assert data["chance"] and data["to_move"] is None
    assert {o["name"] for o in data["options"]} <= {"drew gray", "drew white", "drew brown",
                                                    "drew turquoise", "drew orange"}
    assert "Applied 1 decision;" in chance.stderr               # not "1 decisions"


def test_list_of_a_hidden_draw_names_no_card(tmp_path):
    """Red buys a card Blue cannot see: Blue's list has one entry, 'Red drew a card'; a
    full position's lists every card the pile holds."""
    from mcts.play.bots import make_bot
    from ulm._fastcore import TASKS
    from ulm.decisions import hidden_from
    state = ulm.Game(players=2).new_game(seed=2)
    bot = make_bot("random:seed=1")
    card_draws = [k for k, v in TASKS.items() if v in ("card to hand", "look at card")]
    while not (state.is_chance_node() and hidden_from(state, BLUE)
               and state.task_stack()[-1][0] in card_draws):
        if state.is_chance_node():
            state.apply_action(state.sample_chance_outcome())
        else:
            state.apply_action(bot.choose(state))
    assert state.raw()["turn_player"] == RED
    res = run("apply", _write(tmp_path, state, BLUE), "--list", "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["options"] == [{"name": "Red drew a card", "action": None, "engine_name": None}]
    assert not any(c in res.stdout for c in CARDS)
    full = json.loads(run("apply", _write(tmp_path, state), "--list", "--json").stdout)
    assert len(full["options"]) > 10 and all(o["name"].startswith("drew ")
                                             for o in full["options"])


def test_list_of_a_finished_game_and_bad_use(tmp_path):
    rec = load_record(EXAMPLES / "record-2p.json")
    res = run("apply", _write(tmp_path, rec.state), "--list")
    assert res.exit_code == 0 and res.stdout.strip() == "The game is over: nothing more happens."
    res = run("apply", EXAMPLES / "new-2p.json")
    assert res.exit_code == 2 and "Error: DECISIONS: give the decisions" in res.stderr
    res = run("apply", EXAMPLES / "new-2p.json", "draw", "--json")
    assert res.exit_code == 2 and "--json: only with --list" in res.stderr
    assert "Traceback" not in res.output


# --- abbreviations and "did you mean" ----------------------------------------------------------

def _push_phase(seed=1):
    state = ulm.Game(players=2).new_game(seed=seed)
    state.apply_action(ACTION_NAMES.index("draw"))
    state.resolve_chance()
    return state


def test_a_unique_abbreviation_is_read_everywhere(tmp_path):
    state = _push_phase()
    assert ACTION_NAMES[parse_decision(state, "push r2 l")] == "push row 2 from left"
    assert ACTION_NAMES[parse_decision(state, "PUSH C1 T")] == "push column 1 from top"
    assert ACTION_NAMES[parse_decision(state, "joker w")] == "joker: take white from the docks"
    # through the command line: the draw, its tile and the push, each abbreviated
    start = ulm.Game(players=2).new_game(seed=1)
    res = run("apply", _write(tmp_path, start, RED), "dr", "drew wh", "push r2 l", "--quiet")
    assert res.exit_code == 0, res.output
    after = json.loads(res.stdout)
    assert after["phase"] == "actions"
    ended = run("apply", "-", "end t", "--quiet", input=res.stdout)        # end turn
    assert ended.exit_code == 0 and json.loads(ended.stdout)["to move"] == "Blue", ended.output


def test_an_ambiguous_abbreviation_names_what_it_could_be(tmp_path):
    state = _push_phase()
    with pytest.raises(DecisionError) as err:
        parse_decision(state, "push r 2")
    assert str(err.value) == ("'push r 2' could be 'push row 2 from left' or 'push row 2 from "
                              "right'; type more of it")
    with pytest.raises(DecisionError, match=r"'push c' could be any of 6: 'push column 1 from "
                                            r"top', .*; type more of it"):
        parse_decision(state, "push c")
    res = run("apply", _write(tmp_path, state, RED), "push r")
    assert res.exit_code == 2 and "'push r' could be any of 6:" in res.stderr


def test_did_you_mean_offers_only_legal_decisions(tmp_path):
    state = _push_phase()
    with pytest.raises(DecisionError) as err:
        parse_decision(state, "monye")            # money is not legal in the push phase
    assert "did you mean" not in str(err.value) and "money" not in str(err.value)
    with pytest.raises(DecisionError, match="did you mean 'push row 2 from left'"):
        parse_decision(state, "psuh row 2 from left")
    res = run("apply", _write(tmp_path, state, RED), "monye")
    assert res.exit_code == 2 and "did you mean" not in res.stderr


def test_a_full_name_is_never_read_as_an_abbreviation():
    from ulm.decisions import abbreviations
    assert abbreviations("seal in Tillage", ["seal in Tillage", "seal in Tillage with City "
                                             "Wall"]) == ["seal in Tillage"]
    assert abbreviations("push r2 l", ["push row 2 from left", "push row 2 from right"]) == [
        "push row 2 from left"]
    assert abbreviations("revealed t4", ["revealed T4", "revealed T5"]) == ["revealed T4"]


def test_string_to_action_takes_the_command_lines_words():
    sta = ulm.State.string_to_action
    assert sta("play Nave I (immediate bonus)") == sta("play Nave I (upper)")
    assert sta("lay Nave I in front (end-game points)") == sta("play Nave I (lower)")
    assert sta("LAY  nave i in front (end-game points)") == sta("play Nave I (lower)")
    assert sta("drew white") == sta("chance: tile white")
    assert sta("the docks were refilled: white") == sta("chance: tile white")
    assert sta("drew Siege") == sta("chance: card Siege")
    assert sta("drew coat S-1") == sta("chance: coat S-1")
    assert sta("revealed T4") == sta("chance: tower T4")
    assert sta("revealed Abbot") == sta("chance: descendant Abbot")
    with pytest.raises(ulm.IllegalActionError, match="unknown action 'drw'; did you mean 'draw'"):
        sta("drw")


# --- ulm play --human: wording -----------------------------------------------------------------

def test_a_refilled_dock_is_logged_as_such(tmp_path):
    """Blue (random) takes a tile from the docks: the log says the docks were refilled,
    not that a tile was drawn; the words are read back by ulm apply."""
    res = run("play", "--human", "Red", "--bots", "random", "--seed", 5, "--record",
              tmp_path / "g.json", input="1\n" * 400)
    assert res.exit_code == 0, res.output
    assert re.search(r"take \w+ from the docks \(the docks were refilled: \w+\)", res.stdout)
    assert not re.search(r"take \w+ from the docks \(drew", res.stdout)
    # the same words in ulm.decisions and back
    rec = load_record(tmp_path / "g.json")
    state = rec.game.new_game(rec.seed)
    for action in rec.decisions:
        state.apply_action(action)
        if ACTION_NAMES[action].endswith(" from the docks") and state.is_chance_node():
            outcome = state.sample_chance_outcome()
            words = chance_name(state, outcome, RED)
            assert words.startswith("the docks were refilled: ")
            assert parse_decision(state, words, None) == outcome
            break
        state.resolve_chance()
    else:
        pytest.fail("no dock was refilled")


def test_plurals_in_the_session_messages(tmp_path):
    res = run("play", "--human", "Red", "--bots", "random", "--seed", 1, "--hint-iterations", 1,
              "--record", tmp_path / "g.json", input="?\ndraw\nq\n")
    assert res.exit_code == 0, res.output
    assert "Hint (1 iteration): draw (the only legal decision)" in res.stdout
    assert re.search(r"^  draw\s+estimate\s+[\d.]+% ± [\d.]+\s+\(1 visit\)$", res.stdout,
                     re.M), res.stdout
    assert "Game stopped after 1 decision; record saved" in res.stdout
    assert "decisions" not in res.stdout.split("Game stopped")[1]


def test_menu_entries_never_run_together(monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")          # the terminal's width
    names = ["lay Commercial Goods III in front (end-game points)",
             "play Commercial Goods III (immediate bonus)",
             "seal in Reichenauer Hof with City Wall",
             "joker: take turquoise from the docks", "draw"]
    items = [f"{i:2d}. {n}" for i, n in enumerate(names, 1)]
    for width in (None, 60, 100, 200):           # None: the terminal's
        rows = _columns(items) if width is None else _columns(items, width)
        assert re.findall(r"\d+\. ", " ".join(rows)) == [f"{i}. " for i in range(1, 6)]
        cells = [c.strip() for row in rows for c in re.split(r"\s{2,}(?=\s?\d+\. )", row)]
        assert cells == [i.strip() for i in items], rows
        assert all(len(row) <= max(width or 98, max(len(i) for i in items)) for row in rows)
    assert len(_columns([f"{i:2d}. push row {i} from left" for i in range(1, 13)], 98)) == 4


# --- a stopped game goes on exactly ------------------------------------------------------------

@pytest.mark.parametrize("players, human, bots", [
    (2, "Red", "ismcts:iterations=20,reuse=1"), (3, "Blue", "ismcts:iterations=15,random"),
    (4, "Yellow", "random:seed=4,greedy,pimc:iterations=5,determinizations=2")])
def test_a_resumed_game_is_the_uninterrupted_one(players, human, bots, tmp_path):
    """The same seed and the same inputs, once in one go and once stopped with q (after an
    undo that took back a bot's turn) and resumed (with an undo at once): the same game."""
    first = ["1"] * 3 + ["u"] + ["1"] * 9          # the undo takes back the bots' turn too
    rest = ["u"] + ["1"] * 600
    whole = run("play", "--human", human, "--players", players, "--bots", bots, "--seed", 7,
                "--record", tmp_path / "whole.json", input="\n".join(first + rest) + "\n")
    assert whole.exit_code == 0, whole.output
    part = tmp_path / "part.json"
    stopped = run("play", "--human", human, "--players", players, "--bots", bots, "--seed", 7,
                  "--record", part, input="\n".join(first + ["q"]) + "\n")
    assert stopped.exit_code == 0, stopped.output
    assert f"go on with `ulm play --resume {part}`" in stopped.stdout
    n = len(json.loads(part.read_text())["decisions"])
    resumed = run("play", "--resume", part, input="\n".join(rest) + "\n")
    assert resumed.exit_code == 0, resumed.output
    assert f"seed 7, resumed after {n} decisions." in resumed.stdout
    assert "Undone:" in resumed.stdout.split("resumed after")[1]
    a, b = json.loads((tmp_path / "whole.json").read_text()), json.loads(part.read_text())
    assert b["decisions"] == a["decisions"] and b == a
    assert load_record(part).state.is_terminal()


def test_session_resume_restores_the_bots_streams():
    game = PlaySession(["human", "ismcts:iterations=10", "random"], seed=4)
    while len(game.record.decisions) < 30:
        if game.human_to_move():
            game.play(game.state.legal_actions()[-1])
        else:
            game.bot_move()
    again = PlaySession.resume(game.record)
    assert [b and b.calls for b in again.bots] == [b and b.calls for b in game.bots]
    assert [b and b.seed for b in again.bots] == [b and b.seed for b in game.bots]
    assert again.state.raw() == game.state.raw() and again.can_undo()
    with pytest.raises(ValueError, match="does not name the seats"):
        PlaySession.resume(load_record(EXAMPLES / "record-2p.json").__class__(players=2))


def test_resume_errors(tmp_path):
    res = run("play", "--resume", EXAMPLES / "record-2p.json")
    assert res.exit_code == 2 and "--resume:" in res.stderr and "Traceback" not in res.output
    res = run("play", "--resume", tmp_path / "nothing.json")
    assert res.exit_code == 2 and "--resume:" in res.stderr
    part = tmp_path / "p.json"
    run("play", "--human", "Red", "--bots", "random", "--record", part, input="q\n")
    res = run("play", "--resume", part, "--seed", 3)
    assert res.exit_code == 2 and "leave out --seed" in res.stderr
    res = run("play", "--resume", part, "--human", "Blue")
    assert res.exit_code == 2 and "leave out --human" in res.stderr
    whole = tmp_path / "w.json"
    run("play", "--human", "Red", "--bots", "random", "--record", whole, input="1\n" * 400)
    res = run("play", "--resume", whole)
    assert res.exit_code == 2 and "the game is over" in res.stderr


def test_bots_lists_every_bot_and_option():
    from mcts.play.bots import BOTS, OPTIONS
    res = run("bots")
    assert res.exit_code == 0, res.output
    for name in BOTS:
        assert re.search(rf"^  {name}\s", res.stdout, re.M)
    for opt in OPTIONS:
        assert re.search(rf"^  {opt}\s", res.stdout, re.M)
    assert "ismcts 1000" in res.stdout and "pimc 10" in res.stdout
    data = json.loads(run("bots", "--json").stdout)
    assert set(data["bots"]) == set(BOTS) and set(data["options"]) == set(OPTIONS)
    import mcts.play.bots
    assert "``ulm bots`` lists them" in mcts.play.bots.__doc__


# --- a real terminal ---------------------------------------------------------------------------

def _spawn(args, cwd, timeout=60):
    pexpect = pytest.importorskip("pexpect")
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="100", LINES="40")
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(sys.executable, ["-m", "cli", *map(str, args)], cwd=str(ROOT),
                          env=env, encoding="utf-8", timeout=timeout, dimensions=(40, 100))
    return pexpect, child


def test_in_a_terminal_ctrl_c_cancels_a_hint_not_the_game(tmp_path):
    record = tmp_path / "g.json"
    pexpect, child = _spawn(["play", "--human", "Red", "--bots", "random", "--seed", 3,
                             "--hint-iterations", 100_000_000, "--record", record], ROOT)
    child.expect("Red> ")
    child.sendline("?")
    child.expect("searching")                     # the progress bar: the search is running
    child.sendintr()                              # Ctrl-C
    child.expect("Hint cancelled; Red to decide.")
    child.expect("Red> ")                         # the game goes on
    child.sendline("draw")
    child.expect(r"  drew \w+")
    child.expect("Red> ")
    child.sendline("push r2 l")                   # an abbreviation
    child.expect("Red> ")
    child.sendline("q")
    child.expect("Game stopped after 2 decisions")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    data = json.loads(record.read_text())
    assert data["decisions"] == ["draw", "push row 2 from left"]


def test_in_a_terminal_quit_and_resume(tmp_path):
    """q, then --resume in a new process: the game goes on where it stopped and, with the
    same answers, ends as the game played in one go."""
    record = tmp_path / "g.json"
    args = ["--bots", "ismcts:iterations=20", "--seed", 11]
    pexpect, child = _spawn(["play", "--human", "Blue", *args, "--record", record], ROOT)
    for _ in range(4):
        child.expect("Blue> ")
        child.sendline("1")
    child.expect("Blue> ")
    child.sendline("q")
    child.expect("go on with `ulm play --resume")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    stopped = len(json.loads(record.read_text())["decisions"])
    pexpect, child = _spawn(["play", "--resume", record], ROOT)
    child.expect(f"resumed after {stopped} decisions")
    answers = 0
    while True:
        k = child.expect(["Blue> ", "Final scores:"])
        if k == 1:
            break
        child.sendline("1")
        answers += 1
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    whole = run("play", "--human", "Blue", *args, "--record", tmp_path / "whole.json",
                input="1\n" * (4 + answers))
    assert whole.exit_code == 0, whole.output
    assert json.loads(record.read_text()) == json.loads((tmp_path / "whole.json").read_text())


def test_one_decision_iteration_visit_in_the_singular(tmp_path):
    record = EXAMPLES / "record-2p.json"
    res = run("replay", record, "--at", 1)
    assert res.exit_code == 0 and res.stdout.startswith("After 1 decision:\n"), res.output
    one = tmp_path / "one.json"
    data = json.loads(record.read_text())
    one.write_text(json.dumps(dict(data, decisions=data["decisions"][:1])))
    res = run("validate", one)
    assert res.exit_code == 0 and res.stdout.strip().endswith("a valid game record, 1 decision")
    res = run("annotate", record, "--as", "Red", "--iterations", 1, "--quiet", "--top", 1)
    assert res.exit_code == 0, res.output
    assert "searched with 1 iteration each" in res.stdout
    assert not re.search(r"\b1 (decisions|iterations|visits)\b", res.stdout)
