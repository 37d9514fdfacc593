import { isAbsolute } from 'node:path';
import { invalidToolAppMessage, invalidViewNameMessage } from '../messages/apps.messages.js';
import { PRIMITIVE_NAME_PATTERN } from '../mcp.constants.js';
import { isNonEmptyString } from '../utils/value-checks.util.js';
import { booleanProblem, isOptionsObject } from './option-checks.js';

/**
 * What MCP Apps defines of a view's `_meta.ui` (ext-apps `McpUiResourceCsp` and
 * `McpUiResourcePermissions`): the extension exports these as types only, so the keys are
 * listed here, where a typo must be caught before a host silently ignores it.
 */
const CSP_KEYS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'];
const PERMISSION_KEYS = ['camera', 'microphone', 'geolocation', 'clipboardWrite'];
const VIEW_KEYS = ['file', 'title', 'description', 'csp', 'permissions', 'domain', 'prefersBorder'];
const VISIBILITIES = ['model', 'app'];

const list = (keys: readonly string[]) => keys.join(', ');

/** Whether a view name is one the library accepts (the pattern of tool names). */
export const isViewName = (name: unknown): name is string =>
  typeof name === 'string' && PRIMITIVE_NAME_PATTERN.test(name);

/** The problems of `_meta.ui` settings of one view, each starting with `path`. */
function viewMetaProblems(path: string, options: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const { csp, permissions, domain, title, description } = options;
  if (csp !== undefined) {
    if (!isOptionsObject(csp)) problems.push(`"${path}.csp" must be an object of domain lists`);
    for (const [key, value] of Object.entries(isOptionsObject(csp) ? csp : {})) {
      if (!CSP_KEYS.includes(key)) {
        problems.push(`"${path}.csp.${key}" is not a CSP setting (valid: ${list(CSP_KEYS)})`);
      } else if (!Array.isArray(value) || !value.every(isNonEmptyString)) {
        problems.push(
          `"${path}.csp.${key}" must be an array of origins such as ['https://api.example.com']`,
        );
      }
    }
  }
  if (permissions !== undefined) {
    if (!isOptionsObject(permissions)) problems.push(`"${path}.permissions" must be an object`);
    for (const [key, value] of Object.entries(isOptionsObject(permissions) ? permissions : {})) {
      if (!PERMISSION_KEYS.includes(key) || !isOptionsObject(value)) {
        problems.push(
          `"${path}.permissions.${key}" is not a permission; write { camera: {} } with one ` +
            `of ${list(PERMISSION_KEYS)}`,
        );
      }
    }
  }
  for (const [key, value] of Object.entries({ domain, title, description })) {
    if (value !== undefined && !isNonEmptyString(value)) {
      problems.push(`"${path}.${key}" must be a non-empty string`);
    }
  }
  const border = booleanProblem(`${path}.prefersBorder`, options.prefersBorder);
  return border ? [...problems, border] : problems;
}

/**
 * The problems of one view's options: of the `apps.views` option (`withFile`), or of
 * `@McpAppView()`, whose HTML comes from its method.
 * @param path where the options are, for the messages: `apps.views.product-card`
 */
export function viewOptionsProblems(path: string, options: unknown, withFile: boolean): string[] {
  if (!isOptionsObject(options)) {
    return [`"${path}" must be an object such as ${withFile ? '{ file }' : '{ title }'}`];
  }
  const keys = withFile ? VIEW_KEYS : VIEW_KEYS.filter((key) => key !== 'file');
  const problems = Object.keys(options)
    .filter((key) => !keys.includes(key))
    .map((key) => `"${path}.${key}" is not an option of a view (valid: ${list(keys)})`);
  if (withFile && !(isNonEmptyString(options.file) && isAbsolute(options.file))) {
    problems.push(
      `"${path}.file" must be the absolute path of the view's HTML file, such as ` +
        `fileURLToPath(new URL('../views/card.html', import.meta.url))`,
    );
  }
  return [...problems, ...viewMetaProblems(path, options)];
}

/** The problems of the `apps` option. */
export function appsOptionsProblems(apps: unknown): string[] {
  if (apps === undefined) return [];
  if (!isOptionsObject(apps)) {
    return ['"apps" must be an object such as { views: { \'product-card\': { file } } }'];
  }
  const { views } = apps;
  if (views === undefined) return [];
  if (!isOptionsObject(views)) {
    return [
      '"apps.views" must be an object of views by name, such as { \'product-card\': { file } }',
    ];
  }
  return Object.entries(views).flatMap(([name, options]) =>
    isViewName(name)
      ? viewOptionsProblems(`apps.views.${name}`, options, true)
      : [invalidViewNameMessage(name, 'the "apps.views" option')],
  );
}

/**
 * The problem of the `app` option of `@McpTool()` on `where`, if any: an object with a view
 * name and a visibility of `'model'` and `'app'`.
 */
export function toolAppProblem(app: unknown, where: string): string | undefined {
  if (!isOptionsObject(app)) return invalidToolAppMessage(where, 'must be an object');
  const unknown = Object.keys(app).filter((key) => key !== 'view' && key !== 'visibility');
  if (unknown.length > 0) {
    return invalidToolAppMessage(where, `has no option ${unknown.map((key) => `"${key}"`)}`);
  }
  if (app.view !== undefined && !isViewName(app.view)) {
    return invalidToolAppMessage(where, `names the view ${JSON.stringify(app.view)}, no view name`);
  }
  const { visibility } = app;
  if (visibility === undefined) return undefined;
  const valid =
    Array.isArray(visibility) &&
    visibility.length > 0 &&
    visibility.every((who) => VISIBILITIES.includes(who)) &&
    new Set(visibility).size === visibility.length;
  return valid
    ? undefined
    : invalidToolAppMessage(
        where,
        `has the visibility ${JSON.stringify(visibility)}: give 'model', 'app' or both, once each`,
      );
}
