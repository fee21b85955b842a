"""`ulm serve`: a local web companion. The Starlette app (cli.web.app) over the
server (cli.web.server: games in memory and in the games file, cli.web.store),
its games (cli.web.games: play, follow, review, and the boards they draw), the searches (cli.web.jobs)
and the checks of a request (cli.web.checks); the page in cli/web/static/ as
plain HTML/JS/CSS."""
