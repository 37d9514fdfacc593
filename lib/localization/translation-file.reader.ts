import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { isMap, isScalar, LineCounter, parseDocument, type Document } from 'yaml';
import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import type { McpTranslationTree } from '../interfaces/mcp-translation-source.interface.js';
import {
  invalidLocaleFileNameMessage,
  invalidYamlMessage,
  missingTranslationDirectoryMessage,
  notAMappingMessage,
} from '../messages/localization.messages.js';

/** One translation file, read and parsed: its texts and where each key stands in it. */
export interface TranslationFile {
  /** The file as the developer finds it: relative to the working directory. */
  readonly file: string;
  readonly locale: string;
  /** The server group of `<dir>/<group>/mcp.<locale>.yaml`; `undefined` for the base file. */
  readonly group?: string;
  readonly tree: McpTranslationTree;
  /** The line (1-based) of the key at `path`, or of its nearest ancestor in the file. */
  lineOf(path: readonly string[]): number;
}

const FILE_NAME = /^mcp\.([^.]+)\.ya?ml$/;
const LOCALE = /^[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*$/;

const shown = (path: string) => relative(process.cwd(), path) || path;

/**
 * Every `mcp.<locale>.yaml` of a translation directory and of its group folders, parsed
 * with the `yaml` package. A file that is not valid YAML, or whose top is not a mapping,
 * stops the bootstrap with the file and the line.
 * @throws McpConfigurationError
 */
export function readTranslationDirectory(directory: string): TranslationFile[] {
  const root = resolve(directory);
  let isDirectory = false;
  try {
    isDirectory = statSync(root).isDirectory();
  } catch {
    // Reported below.
  }
  if (!isDirectory) {
    throw new McpConfigurationError(
      missingTranslationDirectoryMessage(directory, root, process.cwd()),
    );
  }
  const files: TranslationFile[] = [];
  for (const entry of readdirSync(root, { withFileTypes: true }).toSorted(byName)) {
    if (entry.isDirectory()) {
      for (const inner of readdirSync(join(root, entry.name), { withFileTypes: true }).toSorted(
        byName,
      )) {
        if (inner.isFile()) {
          const file = readIfTranslation(
            join(root, entry.name, inner.name),
            inner.name,
            entry.name,
          );
          if (file) files.push(file);
        }
      }
    } else if (entry.isFile()) {
      const file = readIfTranslation(join(root, entry.name), entry.name);
      if (file) files.push(file);
    }
  }
  return files;
}

const byName = (a: { name: string }, b: { name: string }) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : 0;

function readIfTranslation(
  path: string,
  name: string,
  group?: string,
): TranslationFile | undefined {
  const match = FILE_NAME.exec(name);
  if (!match) return undefined;
  const locale = match[1]!;
  if (!LOCALE.test(locale)) {
    throw new McpConfigurationError(invalidLocaleFileNameMessage(shown(path), locale));
  }
  return parseTranslationFile(shown(path), readFileSync(path, 'utf8'), locale, group);
}

/**
 * One translation file's text, parsed.
 * @throws McpConfigurationError naming the file and line of the first YAML error
 */
export function parseTranslationFile(
  file: string,
  text: string,
  locale: string,
  group?: string,
): TranslationFile {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  const [error] = document.errors;
  if (error) {
    const position = error.linePos?.[0] ?? lineCounter.linePos(error.pos[0]);
    throw new McpConfigurationError(
      invalidYamlMessage(file, position.line, position.col, firstLine(error.message)),
    );
  }
  const contents = document.contents;
  if (contents !== null && !isMap(contents)) {
    const line = contents.range ? lineCounter.linePos(contents.range[0]).line : 1;
    throw new McpConfigurationError(notAMappingMessage(file, line));
  }
  const tree = (document.toJS() ?? {}) as McpTranslationTree;
  return {
    file,
    locale,
    ...(group !== undefined && { group }),
    tree,
    lineOf: (path) => lineOf(document, lineCounter, path),
  };
}

const firstLine = (message: string) => message.split('\n')[0]!.replace(/\.$/, '');

function lineOf(document: Document, lineCounter: LineCounter, path: readonly string[]): number {
  let node: unknown = document.contents;
  let line = 1;
  for (const segment of path) {
    if (!isMap(node)) break;
    const pair = node.items.find(
      (item) => isScalar(item.key) && String(item.key.value) === segment,
    );
    if (!pair) break;
    const range = isScalar(pair.key) ? pair.key.range : undefined;
    if (range) line = lineCounter.linePos(range[0]).line;
    node = pair.value;
  }
  return line;
}
