import type { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { DiscoveredMethod } from '../discovery/discovered-method.interface.js';

/**
 * Logs an unexpected error in full (with where the method lives) and returns a short
 * reference: the caller gets only the reference, never the detail. An error the method
 * throws once its call was cancelled (`ctx.signal` aborted: the client cancelled, a task
 * was cancelled or expired) is how a method that honours the signal stops, so it is
 * logged at debug level only.
 */
export function reportUnexpectedError(
  logger: Logger,
  what: string,
  method: Pick<DiscoveredMethod, 'where'>,
  error: unknown,
  cancelled = false,
): string {
  const reference = randomUUID().slice(0, 8);
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  if (cancelled) {
    logger.debug(
      `${what} (${method.where}) stopped after it was cancelled [ref ${reference}]: ${detail}`,
    );
  } else {
    logger.error(`${what} (${method.where}) failed [ref ${reference}]: ${detail}`);
  }
  return reference;
}
