"""The picture's colours and sizes: where each part of the board is drawn."""
from __future__ import annotations

from ulm._fastcore import RIVER_LENGTH


TILE_FILL = {"gray": "#8d8d8d", "white": "#f7f4ea", "brown": "#8b5a2b",
             "turquoise": "#2bb3ad", "orange": "#f28c28"}
TILE_INK = {"gray": "#ffffff", "white": "#333333", "brown": "#ffffff",
            "turquoise": "#10302f", "orange": "#3a2000"}
SEAT_FILL = {"Red": "#d62728", "Blue": "#1f5fbf", "Green": "#2e9e3e", "Yellow": "#e8c31a"}
SEAT_INK = {"Red": "#ffffff", "Blue": "#ffffff", "Green": "#ffffff", "Yellow": "#222222"}
GOLD, SILVER = "#d9a91a", "#c4c7cf"
HIGHLIGHT = "#e6007e"          # the suggested turn, drawn on top
LAST = "#7b3fbf"               # the last turn played
TARGET = "#0a84ff"             # clickable decisions (interactive pictures)
WATER, WATER_EDGE = "#bfe0f2", "#5b9bc4"
PAPER, INK, FAINT = "#fbf7ee", "#222222", "#8a8070"

WIDTH = 1300
MARGIN = 40
RIVER_W = (WIDTH - 2 * MARGIN) / RIVER_LENGTH
NORTH_Y, QUARTER_H = 56, 104
RIVER_Y, RIVER_H = NORTH_Y + QUARTER_H + 8, 78
SOUTH_Y = RIVER_Y + RIVER_H + 8
CITY_BOTTOM = SOUTH_Y + QUARTER_H
CELL = 76                      # grid cell and outer space
GAP = 8                        # between grid and outer spaces
ARROW = 34                     # the entry-arrow zone outside the outer spaces
GRID_X = MARGIN + ARROW + CELL + GAP
GRID_Y = CITY_BOTTOM + 62 + ARROW + CELL + GAP
CATHEDRAL_BOTTOM = GRID_Y + 3 * CELL + GAP + CELL + ARROW
INFO_X = GRID_X + 3 * CELL + GAP + CELL + ARROW + 30
INFO2_X = INFO_X + 360
PLAYERS_Y = CATHEDRAL_BOTTOM + 24
PLAYER_W = (WIDTH - 2 * MARGIN - 3 * 12) / 4
PLAYER_H = 170                 # at least; a panel grows with the cards and coats in it
CHAR_W = 6.1                   # mean width of a character at font-size 10 (DejaVu Sans)
BONUS_LABEL = {"coin": "+1 coin", "sparrow": "sparrow", "dock tile": "dock tile",
               "card": "top card"}
CARD_FILL = {"cathedral": "#d8d2c4", "trade": "#e9d9b0", "special": "#d9c8e8"}
