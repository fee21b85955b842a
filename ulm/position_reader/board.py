"""The board: the grid and outer spaces, the docks and the bag, the descendants on
the board, the tower tiles, and the tiles' totals."""
from __future__ import annotations

from ulm._fastcore import COLOURS, DESCENDANTS, TOWER_TILES, TOWER_VARIANTS
from ulm.position_format import (DESC_ON_BOARD, DESC_UNSEEN, DOCK_REFILL, NO_TILE, NUM_ROUNDS,
                                 PHASE_GAME_OVER, TASK_IDS, TILES_PER_COLOUR, TILES_TOTAL)
from ulm.position_reader.reading import _Sections


class _BoardSections(_Sections):
    """The sections of the board and the tiles."""

    def grid_and_outer_spaces(self) -> None:
        rd, data, r = self.rd, self.data, self.r
        grid = rd.field(data, "grid", "", list)
        if len(grid) != 3 or any(not isinstance(row, list) or len(row) != 3 for row in grid):
            rd.fail("grid", "must be 3 rows of 3 colours")
        r["grid"] = [rd.name(c, COLOURS, f"grid[{i}][{j}]", "colour")
                     for i, row in enumerate(grid) for j, c in enumerate(row)]
        outer = rd.field(data, "outer spaces", "", list)
        if len(outer) != 12:
            rd.fail("outer spaces", f"must list the 12 outer spaces (null when empty), got {len(outer)}")
        r["outer"] = [NO_TILE if c is None else rd.name(c, COLOURS, f"outer spaces[{k}]", "colour")
                      for k, c in enumerate(outer)]

    def docks_and_bag(self) -> None:
        rd, data, r = self.rd, self.data, self.r
        r["docks"] = rd.colour_counts(data, "docks", "")
        # a view may leave the bag out: it is what the rest of the 50 (+ refills) leaves
        self.derive_bag = self.is_view and "bag" not in data
        r["bag"] = [0] * len(COLOURS) if self.derive_bag else rd.colour_counts(data, "bag", "")
        r["tiles_added"] = rd.count(data, "tiles added", "", 0, hi=250)
        if r["tiles_added"] % len(COLOURS):
            rd.fail("tiles added", f"the bag is refilled 5 tiles at a time (R-DRAW-8), "
                    f"got {r['tiles_added']}")
        refills = sum(1 for t in self.tasks if t == DOCK_REFILL)
        if sum(r["docks"]) != 5 - refills:
            rd.fail("docks", f"the 5 loading docks hold {5 - refills} tiles here, got {sum(r['docks'])}")

    def descendants_on_board(self) -> None:
        """Those on the board; the players' section adds the owned ones."""
        self.on_board = self.rd.names(self.data, "descendants on board", "", DESCENDANTS,
                                      "descendant")
        self.desc = [DESC_UNSEEN] * len(DESCENDANTS)
        for d in self.on_board:
            self.desc[d] = DESC_ON_BOARD

    def tower(self) -> None:
        rd, data, r = self.rd, self.data, self.r
        if self.variant not in TOWER_VARIANTS:
            if "tower" in data:
                rd.fail("tower", "tower tiles have effects only in the advanced variant")
            r["tower_current"] = r["tower_next"] = -1
            return
        tw = rd.field(data, "tower", "", dict)
        rd.unknown_keys(tw, ("current", "next", "past"), "tower")
        past = rd.names(tw, "past", "tower", TOWER_TILES, "tower tile")
        cur = tw.get("current")
        nxt = tw.get("next")
        cur = -1 if cur is None else rd.name(cur, TOWER_TILES, "tower.current", "tower tile")
        nxt = -1 if nxt is None else rd.name(nxt, TOWER_TILES, "tower.next", "tower tile")
        shown = [t for t in (cur, nxt) if t >= 0]
        for t in shown:
            if t in past or shown.count(t) > 1:
                rd.fail("tower", f"{TOWER_TILES[t]} appears twice")
        if self.phase != PHASE_GAME_OVER:
            self.tower_of_the_round(cur, nxt, past)
        r["tower_current"] = cur
        r["tower_next"] = nxt
        r["tower_unseen"] = sum(1 << t for t in range(len(TOWER_TILES))
                                if t not in past and t not in shown)

    def tower_of_the_round(self, cur: int, nxt: int, past: list[int]) -> None:
        """A tile in force every round, one for each earlier round, the next one
        shown until round 10 (R-TOWER-1)."""
        rd, rnd = self.rd, self.rnd
        rounds_done = min(self.r["round"], NUM_ROUNDS)
        if cur < 0:
            rd.fail("tower.current", "the advanced game has a tower tile in force every round")
        if len(past) != rounds_done:
            rd.fail("tower.past", f"round {rnd} has {rounds_done} earlier tower tiles, got {len(past)}")
        if nxt < 0 and rnd < NUM_ROUNDS and TASK_IDS["tower reveal"] not in self.tasks:
            rd.fail("tower.next", "the next tower tile is shown until round 10")
        if nxt >= 0 and rnd == NUM_ROUNDS:
            rd.fail("tower.next", "round 10 has no next tower tile")

    def colour_elsewhere(self, c: int) -> int:
        """Tiles of colour `c` outside the bag: grid, outer spaces, docks, drawn, supplies."""
        r = self.r
        return (sum(1 for x in r["grid"] if x == c) + sum(1 for x in r["outer"] if x == c)
                + r["docks"][c] + self.drawn.count(c)
                + sum(pl["supply"][c] for pl in r["players"]))

    def tile_totals(self) -> None:
        """50 tiles plus the R-DRAW-8 refills, and no colour beyond its share."""
        r = self.r
        per_colour = TILES_PER_COLOUR + r["tiles_added"] // len(COLOURS)
        if self.derive_bag:
            for c in range(len(COLOURS)):
                r["bag"][c] = max(0, per_colour - self.colour_elsewhere(c))
        total = sum(1 for c in r["grid"] if c >= 0) + sum(1 for c in r["outer"] if c >= 0)
        total += sum(r["docks"]) + sum(r["bag"]) + len(self.drawn)
        total += sum(sum(pl["supply"]) for pl in r["players"])
        if total != TILES_TOTAL + r["tiles_added"]:
            self.rd.fail("tiles", f"{total} counted (grid, outer spaces, docks, bag, supplies, drawn), "
                         f"expected {TILES_TOTAL + r['tiles_added']}")
        for c in range(len(COLOURS)):
            have = self.colour_elsewhere(c) + r["bag"][c]
            if have > per_colour:
                self.rd.fail("tiles", f"{have} {COLOURS[c]} tiles, more than the game has")
