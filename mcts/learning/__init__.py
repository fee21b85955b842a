"""Learning: self-play data sets, fitting the learned evaluation to them, and
rounds of both (`ulm train`). Stands on mcts.play and mcts.searcher."""
