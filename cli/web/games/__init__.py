"""The games of `ulm serve`: play against bots (`play`), follow a real game
(`follow`), review a record (`review`), on what they share (`base.WebGame`) and the
boards they show (`boards`). Each holds its state on the server; the page only ever
sends decisions by id or name and gets back the whole picture, built from the
viewer's observation (`WebGame.to_json`). Plain library calls, no HTTP."""
from cli.web.games.base import WebGame
from cli.web.games.follow import FollowGame
from cli.web.games.play import PlayGame
from cli.web.games.review import ReviewGame

__all__ = ["FollowGame", "PlayGame", "ReviewGame", "WebGame"]
