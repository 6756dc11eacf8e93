/**
 * A replica as `npm start` runs it, but with its live cards in the watch namespace a test gives it
 * (TEST_WATCH_NAMESPACE), so that a test sharing Redis or PostgreSQL with other runs can kill it
 * with kill -9. Logs go to stdout, as `npm start`'s do.
 */
import { startServer } from "../../src/server.js";

const namespace = process.env.TEST_WATCH_NAMESPACE;
await startServer(process.env, {
  paymentsRetryDelayMs: 20,
  ...(namespace ? { watchNamespace: namespace } : {}),
});
