"""Play: the bots built from a spec and their levels, games between bots, the
worker pool, tournaments with their statistics and reports, the cluster, the
ladder, tuning, the sessions of a person playing, and the reviews
(annotation) and variations of the companion. Stands on mcts.searcher only."""
