// @ts-check
// The shapes of the server's JSON answers (cli/web/games/, cli/web/app.py), for
// the type check of the page's modules (JSDoc types, no code).

/**
 * @typedef {object} Info           GET /api/info
 * @property {string[]} bots
 * @property {string[]} variants
 * @property {string[]} seats       the seats' colours, in the order of play
 * @property {number} max_seconds
 * @property {number} max_upload
 * @property {boolean} keeps_games
 * @property {string[]} examples    seat specs offered in the set-up ("human", bots)
 * @property {string} default_bot   the bot of a seat not chosen
 * @property {Level[]} levels       the bot levels a seat may be given
 */

/**
 * @typedef {object} Level          a bot level (mcts.play.levels)
 * @property {number} level
 * @property {string} name          "first game" ... "strongest"
 * @property {string} spec          the seat's spec, "level:N"
 * @property {string} search        the bot spec the level stands for
 */

/**
 * @typedef {object} Seat
 * @property {string} seat
 * @property {string} kind          "human", "bot", "you", "table" or "record"
 * @property {string | null} [spec]
 */

/**
 * @typedef {object} Option         a decision offered
 * @property {number | string} decision   an action id, or words (a hidden draw)
 * @property {string} name
 * @property {unknown} [target]
 */

/**
 * @typedef {object} HistoryEntry
 * @property {number} index
 * @property {string} seat
 * @property {string} name
 * @property {string[]} [chance]
 */

/**
 * @typedef {object} Thinking
 * @property {string} seat
 * @property {string} spec
 * @property {number} seconds
 * @property {string} [error]
 */

// A hint's result is a search's answer, one shape for every output (docs/library.md,
// "The answer of a search": mcts SearchResult.to_dict), with the web's additions
// (step, index, variation, svg).

/**
 * @typedef {object} LineStep        a step of the principal line
 * @property {number} action
 * @property {string} name
 * @property {number} visits
 * @property {number} share
 * @property {number} value
 * @property {boolean} chance_after
 * @property {boolean} reveals
 */

/**
 * @typedef {object} DecisionInfo    a decision at the root, as the search saw it
 * @property {number} action
 * @property {string} name
 * @property {number} visits
 * @property {number} availability
 * @property {number} share
 * @property {number} value
 * @property {number} estimate
 * @property {number} estimate_error
 * @property {number[]} mean_reward
 * @property {number[]} win_probability    per seat
 * @property {number[]} expected_score     per seat (VP; empty without points)
 * @property {number | null} margin        the mover's expected lead over the best other seat
 * @property {number} margin_error
 */

/**
 * @typedef {object} SearchStats      the search's own figures
 * @property {number} iterations
 * @property {number} seconds
 * @property {number | null} iterations_per_second
 * @property {number} tree_nodes
 * @property {boolean} forced
 * @property {boolean} tree_full
 */

/**
 * @typedef {object} SourceRow      a scoring source of two decisions' points
 * @property {string} source
 * @property {number} decision
 * @property {number} rival
 * @property {number} difference
 */

/**
 * @typedef {object} PointsBreakdown  why the first decision scores more than the next
 * @property {string} decision
 * @property {string} rival
 * @property {number} decision_points
 * @property {number} rival_points
 * @property {SourceRow[]} by_source
 */

/**
 * @typedef {object} Advice         a hint's result: a search's answer
 * @property {"advice"} [kind]
 * @property {number} player         the seat searched for (an index of seats)
 * @property {string[]} seats
 * @property {number} best_action
 * @property {string} best_action_name
 * @property {number} [step]         the step of the advised turn shown (after following it)
 * @property {LineStep[]} principal_line
 * @property {DecisionInfo[]} actions
 * @property {PointsBreakdown | null} points_breakdown
 * @property {number[]} win_probability   per seat
 * @property {number[]} expected_score    per seat
 * @property {SearchStats} stats
 * @property {number} [index]          the point analysed: the decisions before it
 * @property {(number | string)[]} [variation]  and the variation's line from there
 * @property {string} [svg]            its board with the advice (a point not the game now)
 */

/**
 * @typedef {object} Note           one decision of an annotated record
 * @property {"annotation"} [kind]
 * @property {number} index
 * @property {string} seat
 * @property {string} best
 * @property {string} played
 * @property {boolean} forced
 * @property {boolean | null} mistake
 * @property {boolean} [within_noise]
 * @property {number} loss
 * @property {number} uncertainty
 * @property {number | null} [points_loss]         the loss in victory points
 * @property {number | null} [points_uncertainty]
 * @property {string} played_estimate
 * @property {number | null} [best_value]
 * @property {number} best_win
 * @property {number | null} [played_value]
 * @property {number} played_win
 * @property {number} best_visits
 * @property {number} played_visits
 * @property {number} win_before
 */

/** @typedef {Note & {kind: "annotation"}} AnnotationShown */

/**
 * @typedef {object} Annotation     a seat's decisions checked
 * @property {string} seat
 * @property {Note[]} decisions
 * @property {number[]} mistakes    indices of its mistakes, the worst first
 * @property {"chance" | "points"} [by]  what the mistakes were found and ranked by
 */

/**
 * @typedef {object} Game           GET /api/games/{id}
 * @property {string} id
 * @property {"play" | "follow" | "review"} mode
 * @property {number} players
 * @property {string} variant
 * @property {string | null} viewer
 * @property {number} version       bumped at every change of the game
 * @property {{index: number, seat: string, win: number}[]} [chances]  the person's, kept (Play)
 * @property {string} to_move       a seat, "chance" or "nobody"
 * @property {boolean} terminal
 * @property {number} round
 * @property {Record<string, number>} scores
 * @property {string[]} winners
 * @property {Advice | AnnotationShown | null} hint
 * @property {Option[]} options
 * @property {boolean} can_hint     may the viewer ask for a hint now
 * @property {boolean} [can_vary]   may the viewer try another line here (it decides)
 * @property {string} svg
 * @property {Seat[]} seats
 * @property {Thinking | null} thinking
 * @property {HistoryEntry[]} history
 * @property {boolean} can_undo
 * @property {number | import("./api.js").Exact | null} [seed]   play (an Exact beyond 2**53)
 * @property {boolean} [seed_chosen]         play
 * @property {boolean} [can_save]            follow
 * @property {string | null} [words_hint]    follow
 * @property {number} [index]                review: decisions played before the board
 * @property {number} [total]                review
 * @property {Annotation | null} [annotation]       review
 * @property {Annotation[]} [annotations]           review
 */

/**
 * @typedef {object} SavedGame      GET /api/games
 * @property {string} id
 * @property {string} mode
 * @property {string | null} [viewer]
 * @property {string[]} seats
 * @property {number} decisions
 * @property {boolean} over
 * @property {number} changed
 */

/**
 * @typedef {object} Board          GET /api/games/{id}/board
 * @property {number} index
 * @property {number} total
 * @property {string} svg
 * @property {boolean} [can_hint]    may the viewer ask for a hint there
 * @property {boolean} [can_vary]    may the viewer try another line there
 */

/**
 * @typedef {object} VariationAnswer   POST /api/games/{id}/variation
 * @property {number} index
 * @property {string[]} names
 * @property {string} seat
 * @property {string | null} ended
 * @property {string | null} ask
 * @property {Option[]} options
 * @property {string} svg
 * @property {boolean} [can_hint]    may the viewer ask for a hint there
 */

/**
 * @typedef {object} Job            a search: a hint or the check of a record
 * @property {string} id
 * @property {"hint" | "annotate" | "chance"} kind
 * @property {"running" | "done" | "failed" | "cancelled"} status
 * @property {number} progress
 * @property {number} iterations
 * @property {number} elapsed
 * @property {number} budget
 * @property {Advice | null} [partial]
 * @property {Advice | null} [result]
 * @property {string} [error]
 */

export {};
