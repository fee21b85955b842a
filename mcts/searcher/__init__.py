"""The search: the compiled ISMCTS searcher (`_search`), its options
(`params.SearchParams`), the evaluations at the cut-off and the learned models
they read (`evaluation`, `features`, `model`, `learned`), and `search.search`,
which runs it on a position. Imports nothing of mcts.play or mcts.learning."""
