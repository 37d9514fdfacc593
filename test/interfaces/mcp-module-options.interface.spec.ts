// Type-level tests: the `@ts-expect-error` lines and `expectTypeOf` calls are checked by
// `npm run typecheck`; the last test compiles a snippet to read the message users get.
import {
  McpModule,
  type McpModuleAsyncOptions,
  type McpModuleOptions,
  type McpOptionsFactory,
} from 'nestjs-mcp';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, expectTypeOf, it } from 'vitest';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The errors TypeScript reports for `code`, compiled as a file of test/ with the repo's options. */
function compileErrors(code: string): string[] {
  const { config } = ts.readConfigFile(join(REPO_ROOT, 'tsconfig.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, REPO_ROOT);
  const fileName = join(REPO_ROOT, 'test/interfaces/__snippet__.ts');
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists } = host;
  host.fileExists = (name) => name === fileName || fileExists(name);
  host.getSourceFile = (name, language, ...rest) =>
    name === fileName
      ? ts.createSourceFile(name, code, language)
      : getSourceFile(name, language, ...rest);
  const program = ts.createProgram([fileName], { ...options, noEmit: true }, host);
  return program
    .getSemanticDiagnostics(program.getSourceFile(fileName))
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

describe('the types of McpModule options', () => {
  it('refuse unknown keys at compile time, at every level and in forRootAsync', () => {
    // @ts-expect-error 'paht' does not exist in type 'McpModuleOptions'
    McpModule.forRoot({ name: 'x', version: '1', paht: 'mcp' });
    // @ts-expect-error 'gaurds' does not exist in type 'McpHttpOptions'
    McpModule.forRoot({ name: 'x', version: '1', http: { gaurds: [] } });
    // @ts-expect-error 'nullableOptional' does not exist in type 'McpSchemaOptions'
    McpModule.forRoot({ name: 'x', version: '1', schema: { nullableOptional: true } });
    // @ts-expect-error 'useFactroy' does not exist in type 'McpModuleAsyncOptions'
    McpModule.forRootAsync({ useFactroy: () => ({ name: 'x', version: '1' }) });
    // @ts-expect-error a useClass must have createMcpOptions()
    McpModule.forRootAsync({ useClass: class Options {} });
  });

  it('type forRoot and forRootAsync with the clean interfaces', () => {
    expectTypeOf(McpModule.forRoot).parameter(0).toEqualTypeOf<McpModuleOptions>();
    expectTypeOf(McpModule.forRootAsync).parameter(0).toEqualTypeOf<McpModuleAsyncOptions>();
    class FromConfig implements McpOptionsFactory {
      createMcpOptions(): McpModuleOptions {
        return { name: 'x', version: '1', http: false };
      }
    }
    McpModule.forRootAsync({ useClass: FromConfig, extraProviders: [] });
    McpModule.forRootAsync({
      inject: [],
      useFactory: async () => ({ name: 'x', version: '1', http: false }),
    });
  });

  it('give a readable error for an unknown key', () => {
    const errors = compileErrors(
      `import { McpModule } from 'nestjs-mcp';\n` +
        `McpModule.forRoot({ name: 'x', version: '1', paht: 'mcp' });\n` +
        `McpModule.forRootAsync({ useFactroy: () => ({ name: 'x', version: '1' }) });\n`,
    );
    expect(errors).toEqual([
      "Object literal may only specify known properties, and 'paht' does not exist in type 'McpModuleOptions'.",
      "Object literal may only specify known properties, but 'useFactroy' does not exist in type 'McpModuleAsyncOptions'. Did you mean to write 'useFactory'?",
    ]);
  }, 60_000);
});
