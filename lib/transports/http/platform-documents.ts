import type { HttpServer } from '@nestjs/common';

/** The platform of a Nest HTTP adapter: `'express'`, `'fastify'`, or another's name. */
export const platformOf = (adapter: HttpServer): string | undefined =>
  (adapter as { getType?: () => string }).getType?.();

/** A request URL's path, without its query. */
export const pathnameOf = (url = '/'): string => url.split('?')[0]!;

/**
 * Adds `entry` to the documents one HTTP platform instance (one app) serves outside Nest's
 * routes: the first entry installs the platform's handler with the set, which the later
 * entries (the app's other servers) join.
 * @param install registers the handler once, on the platform
 */
export function servedOnPlatform<T>(
  registry: WeakMap<object, Set<T>>,
  adapter: HttpServer,
  entry: T,
  install: (entries: ReadonlySet<T>) => void,
): void {
  const instance = adapter.getInstance() as object;
  const known = registry.get(instance);
  if (known) {
    known.add(entry);
    return;
  }
  const entries = new Set([entry]);
  registry.set(instance, entries);
  install(entries);
}
