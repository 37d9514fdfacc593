import type { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { DiscoveredMethod } from '../discovery/discovered-method.interface.js';

/**
 * Logs an unexpected error in full (with where the method lives) and returns a short
 * reference: the caller gets only the reference, never the detail.
 */
export function reportUnexpectedError(
  logger: Logger,
  what: string,
  method: Pick<DiscoveredMethod, 'where'>,
  error: unknown,
): string {
  const reference = randomUUID().slice(0, 8);
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  logger.error(`${what} (${method.where}) failed [ref ${reference}]: ${detail}`);
  return reference;
}
