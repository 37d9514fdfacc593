import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import { invalidStdioOptionsMessage } from '../messages/options.messages.js';
import { isNonEmptyString } from '../utils/value-checks.util.js';
import { booleanProblem, isGuard, isOptionsObject } from './option-checks.js';
import { STDIO_BOOTSTRAP_OPTION_KEYS } from './option-keys.js';
import { unknownOptionProblems } from './unknown-options.js';

/**
 * Checks the options of `bootstrapStdio()` before any app is created, so that a typo
 * (`exitOnclose`, `gaurds`) is not silently ignored: every problem at once, with the
 * option each unknown key was most likely meant to be.
 */
export function validateStdioBootstrapOptions(options: unknown): void {
  if (!isOptionsObject(options)) {
    throw new McpConfigurationError(invalidStdioOptionsMessage(['the options must be an object']));
  }
  const problems = unknownOptionProblems(options, STDIO_BOOTSTRAP_OPTION_KEYS);
  const { request, guards, server, legacy, exitOnClose, locale } = options;
  if (
    request !== undefined &&
    typeof request !== 'function' &&
    (typeof request !== 'object' || request === null)
  ) {
    problems.push(
      '"request" must be an object shaped like the HTTP request, or a function returning one',
    );
  }
  if (guards !== undefined && !(Array.isArray(guards) && guards.every(isGuard))) {
    problems.push('"guards" must be an array of guard classes or guard instances');
  }
  if (server !== undefined && !isNonEmptyString(server)) {
    problems.push(
      `"server" must be the name of an McpModule server, such as 'catalog' (got ${JSON.stringify(server)})`,
    );
  }
  if (legacy !== undefined && legacy !== 'serve' && legacy !== 'reject') {
    problems.push(`"legacy" must be 'serve' or 'reject' (got ${JSON.stringify(legacy)})`);
  }
  if (
    locale !== undefined &&
    (typeof locale !== 'string' || !/^[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*$/.test(locale))
  ) {
    problems.push(
      `"locale" must be a language tag such as 'de' or 'en-US' (got ${JSON.stringify(locale)})`,
    );
  }
  const exitOnCloseProblem = booleanProblem('exitOnClose', exitOnClose);
  if (exitOnCloseProblem) problems.push(exitOnCloseProblem);
  if (problems.length > 0) throw new McpConfigurationError(invalidStdioOptionsMessage(problems));
}
