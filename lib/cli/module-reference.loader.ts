import type { DynamicModule, Type } from '@nestjs/common';
import { access } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { redirectConsoleToStderr } from '../transports/stdio/console.redirect.js';
import { CliUsageError } from './cli-usage.error.js';

/** The export a module reference names when it has no `#ExportName`: Nest's convention. */
const DEFAULT_EXPORT_NAME = 'AppModule';

/**
 * Loads the Nest module named by `<module-file>#<ExportName>`: the compiled JavaScript file
 * (relative to the working directory) and the name it is exported under.
 */
export async function loadModuleReference(
  reference: string,
  cwd: string = process.cwd(),
): Promise<Type<unknown> | DynamicModule> {
  const hash = reference.lastIndexOf('#');
  const file = hash < 0 ? reference : reference.slice(0, hash);
  const exportName = hash < 0 ? DEFAULT_EXPORT_NAME : reference.slice(hash + 1);
  if (!file || !exportName) {
    throw new CliUsageError(
      `"${reference}" is not a module reference: write <module-file>#<ExportName>, for example dist/app.module.js#AppModule.`,
    );
  }
  if (/\.(c|m)?tsx?$/.test(file)) {
    throw new CliUsageError(
      `${file} is TypeScript: build the app and give the compiled file, for example dist/app.module.js#${exportName}.`,
    );
  }
  const path = isAbsolute(file) ? file : resolve(cwd, file);
  try {
    await access(path);
  } catch {
    throw new CliUsageError(
      `Cannot find the module file ${file} (looked at ${path}); build the app first and give the path of the compiled .js file.`,
    );
  }
  const exports = await importQuietly(path);
  const module = exports[exportName];
  if (!isNestModule(module)) {
    const candidates = Object.keys(exports).filter((name) => looksLikeModule(exports[name]));
    const hint = candidates.length
      ? `its Nest modules are: ${candidates.join(', ')}; write ${file}#${candidates[0]}`
      : 'it exports no Nest module';
    throw new CliUsageError(
      module === undefined
        ? `${file} has no export named ${exportName}: ${hint}.`
        : `The export ${exportName} of ${file} is not a Nest module (@Module() class or dynamic module): ${hint}.`,
    );
  }
  return module;
}

/**
 * Imports the app's file with `console` sent to stderr: a `console.log` at the top level of
 * the app's modules runs now, and stdout is the command's output (`--json`) or the MCP
 * stream of `serve`.
 */
async function importQuietly(path: string): Promise<Record<string, unknown>> {
  const restoreConsole = redirectConsoleToStderr();
  try {
    return (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } finally {
    restoreConsole();
  }
}

/** A class (Nest treats any class as a module; an `@Module()` one has metadata) or a dynamic module. */
function isNestModule(value: unknown): value is Type<unknown> | DynamicModule {
  if (typeof value === 'function') return true;
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as DynamicModule).module === 'function'
  );
}

const MODULE_KEYS = ['imports', 'providers', 'controllers', 'exports'];

/** For hints: the exports that look like `@Module()` classes. */
function looksLikeModule(value: unknown): boolean {
  return (
    typeof value === 'function' && MODULE_KEYS.some((key) => Reflect.hasOwnMetadata(key, value))
  );
}
