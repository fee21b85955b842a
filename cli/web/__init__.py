"""`ulm serve`: a local web companion (Starlette app in cli.web.app, games in
cli.web.sessions, the page in cli/web/static/ as plain HTML/JS/CSS)."""
