import { DEFAULT_HTTP_PATH } from '../mcp.constants.js';
import { isNonEmptyString } from '../utils/value-checks.util.js';
import { booleanProblem, isOptionsObject } from './option-checks.js';

/** Segments of letters, digits and `-._~`, as a route path is written (no `.` or `..` alone). */
const EXPLORER_PATH = /^(\/(?!\.{1,2}(?:\/|$))[A-Za-z0-9._~-]+)+\/?$/;

const segments = (path: string) => path.split('/').filter(Boolean).join('/').toLowerCase();

/**
 * The problems of the `explorer` option: a switch, or `{ enabled, path, title }`. Its page
 * needs the HTTP endpoint, and its path may not be the endpoint's own.
 */
export function explorerOptionsProblems(explorer: unknown, http: unknown): string[] {
  if (explorer === undefined || typeof explorer === 'boolean') {
    return explorer === true && http === false
      ? ['"explorer" needs the HTTP endpoint, which http: false turns off: remove one of them']
      : [];
  }
  if (!isOptionsObject(explorer)) {
    return [
      `"explorer" must be true, false or an object such as { path: '/tools-explorer' } (got ${JSON.stringify(explorer)})`,
    ];
  }
  const problems: string[] = [];
  const enabled = booleanProblem('explorer.enabled', explorer.enabled);
  if (enabled) problems.push(enabled);
  const { path, title } = explorer;
  if (path !== undefined) {
    const endpointPath = isOptionsObject(http) && typeof http.path === 'string' ? http.path : '';
    if (typeof path !== 'string' || !EXPLORER_PATH.test(path)) {
      problems.push(
        `"explorer.path" must be an absolute path of letters, digits and -._~ segments, such as '/tools-explorer' (got ${JSON.stringify(path)})`,
      );
    } else if (segments(path) === segments(endpointPath || DEFAULT_HTTP_PATH)) {
      problems.push(
        `"explorer.path" must differ from the endpoint's path (${JSON.stringify(path)}), such as '${path.replace(/\/$/, '')}/explorer'`,
      );
    }
  }
  if (title !== undefined && !isNonEmptyString(title)) {
    problems.push(`"explorer.title" must be a non-empty string (got ${JSON.stringify(title)})`);
  }
  if (explorer.enabled === true && http === false) {
    problems.push(
      '"explorer" needs the HTTP endpoint, which http: false turns off: remove one of them',
    );
  }
  return problems;
}
