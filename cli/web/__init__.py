"""`ulm serve`: a local web companion. The Starlette app (cli.web.app) over the
server (cli.web.server: games in memory and in the games file, cli.web.store),
its games (cli.web.web_games: play, follow, review), the searches (cli.web.jobs)
and the checks of a request (cli.web.checks); the page in cli/web/static/ as
plain HTML/JS/CSS."""
