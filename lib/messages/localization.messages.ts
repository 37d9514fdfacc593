/**
 * The messages about translations (`i18n.translations`): the translation directory, the
 * name and the YAML of its files, and the problems of what they translate.
 */

/** Every problem of a server's translations, one per line with its file and line. */
export const translationProblemsMessage = (server: string, problems: readonly string[]): string =>
  `The translations of the MCP server "${server}" have ${problems.length} problem(s) ` +
  `(i18n.translations):\n${problems.map((problem) => `- ${problem}`).join('\n')}`;

/** `directory` as configured, `root` resolved from the working directory `cwd`. */
export const missingTranslationDirectoryMessage = (
  directory: string,
  root: string,
  cwd: string,
): string =>
  `i18n.translations names the directory "${directory}" (${root}), which does not exist. ` +
  `Create it with an mcp.<locale>.yaml per language, or give the path of the one you have ` +
  `(relative paths start at the working directory, ${cwd}).`;

export const invalidLocaleFileNameMessage = (file: string, locale: string): string =>
  `${file}: "${locale}" is not a language tag; name translation files ` +
  `mcp.<locale>.yaml with a tag such as de or en-US.`;

export const invalidYamlMessage = (
  file: string,
  line: number,
  column: number,
  detail: string,
): string =>
  `${file}:${line}:${column}: not valid YAML: ${detail}. ` +
  `Fix the syntax there (keys are published names followed by a colon; indent with spaces).`;

/** A translation file whose top is a single value or a list. */
export const notAMappingMessage = (file: string, line: number): string =>
  `${file}:${line}: a translation file is a mapping from published names (tools, prompts, ` +
  `resources), _server and _messages to their texts, not a single value or a list.`;
