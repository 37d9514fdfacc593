import type {
  McpTranslationSource,
  McpTranslationTree,
} from '../interfaces/mcp-translation-source.interface.js';
import { readTranslationDirectory, type TranslationFile } from './translation-file.reader.js';

/** A source that can say where a key is written, for the bootstrap checks' messages. */
export interface LocatedTranslationSource extends McpTranslationSource {
  /** `file:line` of the key at `path` in the texts of `locale` (and `group`). */
  whereIs(locale: string, group: string | undefined, path: readonly string[]): string;
}

const slot = (locale: string, group: string | undefined) => `${group ?? ''}\0${locale}`;

/**
 * The translations of a directory of YAML files (`i18n.translations: 'i18n'`): read once,
 * when the server starts.
 */
export class DirectoryTranslationSource implements LocatedTranslationSource {
  private readonly files = new Map<string, TranslationFile>();
  private readonly found: readonly string[];

  constructor(directory: string) {
    for (const file of readTranslationDirectory(directory)) {
      this.files.set(slot(file.locale, file.group), file);
    }
    this.found = [...new Set([...this.files.values()].map((file) => file.locale))].toSorted();
  }

  locales(): readonly string[] {
    return this.found;
  }

  load(locale: string, group?: string): McpTranslationTree | undefined {
    return this.files.get(slot(locale, group))?.tree;
  }

  /** The groups that have a folder of their own. */
  groups(): string[] {
    return [
      ...new Set(
        [...this.files.values()].flatMap((file) => (file.group === undefined ? [] : [file.group])),
      ),
    ];
  }

  whereIs(locale: string, group: string | undefined, path: readonly string[]): string {
    const file = this.files.get(slot(locale, group));
    return file ? `${file.file}:${file.lineOf(path)}` : `mcp.${locale}.yaml`;
  }
}

/** Where a key is, for a source that cannot say (nestjs-i18n's): its locale, group and path. */
export const describeKey = (
  source: McpTranslationSource,
  locale: string,
  group: string | undefined,
  path: readonly string[],
): string =>
  'whereIs' in source && typeof source.whereIs === 'function'
    ? (source as LocatedTranslationSource).whereIs(locale, group, path)
    : `the ${locale} translations${group === undefined ? '' : ` of the group "${group}"`} at ${path.join('.')}`;
