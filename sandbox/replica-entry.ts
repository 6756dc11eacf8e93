/**
 * A replica as `npm start` runs it, but with its live cards and feed turns in the namespace a test
 * or the bench gives it (TEST_WATCH_NAMESPACE), so that a run sharing Redis or PostgreSQL with other
 * runs can pause it or kill it with kill -9; TEST_FEED_LEASE_MS shortens the feed's lease, so a
 * takeover is seen in seconds, and TEST_READ_LEASE_MS an export's and a history refresh's, so a dead
 * replica's export lapses in seconds. Logs go to stdout, as `npm start`'s do.
 */
import { startServer } from "../src/server.js";

const namespace = process.env.TEST_WATCH_NAMESPACE;
const feedLeaseMs = Number(process.env.TEST_FEED_LEASE_MS ?? "") || undefined;
const readLeaseMs = Number(process.env.TEST_READ_LEASE_MS ?? "") || undefined;
await startServer(process.env, {
  paymentsRetryDelayMs: 20,
  ...(namespace ? { watchNamespace: namespace } : {}),
  ...(feedLeaseMs ? { feedLeaseMs } : {}),
  ...(readLeaseMs ? { readLeaseMs } : {}),
});
