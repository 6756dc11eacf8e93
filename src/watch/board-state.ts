/**
 * The watch queue's families on the claim board. A watch is two things: its schedule (an item of
 * `schedule`, key "<team>:<invoice>", claimed by the watcher) and its data (state `watch` of the same
 * key in `data`: the Watch as JSON, with `lease` the token of the claim reading it). They are apart
 * because forgetting an item forgets its states: a schedule forgotten late must never take a watch
 * created again meanwhile with it. Per workspace, `team` holds the index of its watches (the cap
 * and each asker's share); per cash register, `reads` holds when its next read may start.
 */
export const WATCH_FAMILIES = {
  schedule: "watch",
  data: "watch-data",
  team: "watch-team",
  reads: "watch-read",
} as const;

/** The state's field in each family that keeps states. */
export const WATCH_FIELDS = { data: "watch", team: "index", reads: "next" } as const;
