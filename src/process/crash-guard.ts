import { type Logger, newReference } from "../util/logger.js";

/**
 * Keeps one stray failure from ending the process. Node exits on an unhandled rejection or an
 * uncaught exception, which would drop every reply under way for every workspace; here it is
 * logged with a reference instead, and the server keeps serving.
 */
export function installCrashGuards(logger: Logger, target: NodeJS.EventEmitter = process): () => void {
  const onRejection = (reason: unknown) => {
    logger.error({ err: reason, reference: newReference() }, "unhandled rejection; still serving");
  };
  const onException = (error: Error) => {
    logger.error({ err: error, reference: newReference() }, "uncaught exception; still serving");
  };
  target.on("unhandledRejection", onRejection);
  target.on("uncaughtException", onException);
  return () => {
    target.off("unhandledRejection", onRejection);
    target.off("uncaughtException", onException);
  };
}
