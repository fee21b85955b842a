"""A small SVG writer, and the shapes several parts of the picture draw: a shield,
a tile, a card, items laid out in rows."""
from __future__ import annotations

import re
from xml.sax.saxutils import escape, quoteattr

from ulm._fastcore import CARDS
from ulm.picture.style import TILE_FILL, TILE_INK, TARGET, INK, CHAR_W, CARD_FILL

# --- a small SVG writer --------------------------------------------------------------------

_NAMES: dict[str, str] = {}                 # keyword -> attribute name (class_ -> class)
_SPECIAL = re.compile(r'[&<>"\n\r\t]')       # what quoteattr changes; else it only quotes


def _attrs(attrs: dict) -> str:
    # a picture has thousands of attributes, most of them numbers: quoteattr only
    # where it changes something (the server draws a board for every new position)
    out = []
    for k, v in attrs.items():
        if v is None or v is False:
            continue
        name = _NAMES.get(k)
        if name is None:
            name = _NAMES[k] = k.rstrip("_").replace("_", "-")
        text = f"{v:.1f}".rstrip("0").rstrip(".") if isinstance(v, float) else str(v)
        out.append(f'{name}="{text}"' if _SPECIAL.search(text) is None
                   else f"{name}={quoteattr(text)}")
    return " ".join(out)


class _Svg:
    def __init__(self, targets: dict):
        self.parts: list[str] = []
        self.targets = targets            # element key -> decision ids (interactive)
        self.boxes: dict[tuple, tuple] = {}

    def add(self, tag: str, text: str | None = None, **attrs) -> None:
        body = "" if text is None else escape(str(text))
        if text is None:
            self.parts.append(f"<{tag} {_attrs(attrs)}/>")
        else:
            self.parts.append(f"<{tag} {_attrs(attrs)}>{body}</{tag}>")

    def open(self, tag: str = "g", **attrs) -> None:
        self.parts.append(f"<{tag} {_attrs(attrs)}>")

    def close(self, tag: str = "g") -> None:
        self.parts.append(f"</{tag}>")

    def element(self, key: tuple, box: tuple, cls: str, title: str | None = None, **data):
        """Open the group of one board object; remember its box for highlights."""
        self.boxes[key] = box
        ids = self.targets.get(key)
        self.open("g", class_=cls + (" target" if ids else ""),
                  data_actions=" ".join(map(str, ids)) if ids else None, **data)
        if title:
            self.add("title", title)
        if ids:   # a frame that says "click here", also in a PNG
            x, y, w, h = box
            self.rect(x - 2, y - 2, w + 4, h + 4, "none", stroke=TARGET, sw=2, rx=5,
                      stroke_dasharray="5 3", class_="target-mark")

    def rect(self, x, y, w, h, fill, stroke=INK, sw=1.0, rx=3, **kw):
        self.add("rect", x=x, y=y, width=w, height=h, rx=rx, fill=fill, stroke=stroke,
                 stroke_width=sw, **kw)

    def text(self, x, y, s, size=11, anchor="start", fill=INK, weight=None, **kw):
        self.add("text", s, x=x, y=y, font_size=size, text_anchor=anchor, fill=fill,
                 font_weight=weight, **kw)


def _shield(svg: _Svg, x, y, w, h, fill):
    svg.add("path", d=f"M{x:.1f},{y:.1f} h{w:.1f} v{h * 0.55:.1f} "
                      f"q0,{h * 0.45:.1f} {-w / 2:.1f},{h * 0.45:.1f} "
                      f"q{-w / 2:.1f},0 {-w / 2:.1f},{-h * 0.45:.1f} z",
            fill=fill, stroke="#6b5a2a", stroke_width=0.8)


def _coat_label(coat: str) -> str:
    return coat[2:] if coat.startswith("G-") else coat


def _card_kind(card: str) -> str:
    if CARDS.index(card) < 9:
        return "cathedral"
    return "trade" if CARDS.index(card) < 24 else "special"


def _tile(svg: _Svg, x, y, size, colour, label=True):
    svg.rect(x, y, size, size, TILE_FILL[colour], stroke="#4a4030", sw=1, rx=size * 0.12)
    if label:
        svg.text(x + size / 2, y + size / 2 + 4, colour, min(11, size / 5), "middle",
                 TILE_INK[colour])


def _card(svg: _Svg, x, y, card, place, seat=None, known=False) -> float:
    """A card face; `known`: a hand card every player knows (taken face up)."""
    w = _card_width(card)
    svg.element(("card", card, None), (x, y, w, 17), "card",
                f"{card} ({place}{', known to all' if known else ''})",
                data_card=card, data_place=place, data_seat=seat,
                data_known="all" if known else None)
    svg.rect(x, y, w, 17, CARD_FILL[_card_kind(card)], stroke="#6b604a", rx=3)
    svg.text(x + w / 2, y + 12.5, card, 9.5, "middle")
    svg.close()
    return w


def _card_width(card: str) -> float:
    return len(card) * CHAR_W * 0.92 + 10


def _flow(svg: _Svg, x0, y, width, items, draw, line=21, measure=_card_width):
    """Lay items out left to right, wrapping at `width`; returns the next y."""
    x = x0
    for item in items:
        w = measure(item)
        if x > x0 and x + w > x0 + width:
            x = x0
            y += line
        x += draw(x, y, item) + 4
    return y + line
