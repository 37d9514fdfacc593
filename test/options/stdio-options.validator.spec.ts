import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { McpConfigurationError, McpModule } from 'nestjs-mcp';
import { bootstrapStdio } from 'nestjs-mcp/stdio';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { validateStdioBootstrapOptions } from '../../lib/options/stdio-options.validator.js';

function problemsOf(options: unknown): string[] {
  try {
    validateStdioBootstrapOptions(options);
  } catch (error) {
    expect(error).toBeInstanceOf(McpConfigurationError);
    const message = (error as Error).message;
    expect(message).toMatch(/^Invalid bootstrapStdio\(\) options:\n/);
    expect(message).toContain('A correct example:\nbootstrapStdio(AppModule, {');
    return message
      .split('\n')
      .filter((line) => line.startsWith('  - '))
      .map((line) => line.slice(4));
  }
  return [];
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('validateStdioBootstrapOptions', () => {
  it.each([
    [{ exitOnclose: false }, '`exitOnclose` is not an option; did you mean `exitOnClose`?'],
    [{ gaurds: [] }, '`gaurds` is not an option; did you mean `guards`?'],
    [{ requst: {} }, '`requst` is not an option; did you mean `request`?'],
    [{ servr: 'catalog' }, '`servr` is not an option; did you mean `server`?'],
    [
      { headers: { authorization: 'Bearer x' } },
      '`headers` is not an option; valid options are: request, guards, server, logger, legacy, ' +
        'exitOnClose, locale, stdin, stdout',
    ],
    [{ legacy: 'allow' }, `"legacy" must be 'serve' or 'reject' (got "allow")`],
    [{ exitOnClose: 'no' }, '"exitOnClose" must be true or false'],
    [
      { server: '' },
      `"server" must be the name of an McpModule server, such as 'catalog' (got "")`,
    ],
    [{ guards: [42] }, '"guards" must be an array of guard classes or guard instances'],
    [
      { request: 'Bearer x' },
      '"request" must be an object shaped like the HTTP request, or a function returning one',
    ],
  ])('%j: %s', (options, problem) => {
    expect(problemsOf(options)).toEqual([problem]);
  });

  it('reports every problem at once', () => {
    expect(problemsOf({ exitOnclose: false, legacy: 'no', gaurds: [] })).toHaveLength(3);
  });

  it('accepts every option', () => {
    expect(
      problemsOf({
        request: () => ({ headers: {} }),
        guards: [class Guard {}, { canActivate: () => true }],
        server: 'catalog',
        logger: ['error'],
        legacy: 'reject',
        exitOnClose: false,
        stdin: process.stdin,
        stdout: process.stdout,
      }),
    ).toEqual([]);
    expect(problemsOf({ request: { headers: { authorization: 'Bearer x' } } })).toEqual([]);
  });
});

describe('bootstrapStdio with an unknown option', () => {
  it('rejects before any app is created or stdout is taken over', async () => {
    @Module({ imports: [McpModule.forRoot({ name: 'x', version: '1' })] })
    class AppModule {}
    const create = vi
      .spyOn(NestFactory, 'createApplicationContext')
      .mockRejectedValue(new Error('an app was created'));
    const log = console.log;
    const error = await bootstrapStdio(AppModule, {
      exitOnclose: false,
    } as never).catch((e: Error) => e);
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect((error as Error).message).toContain(
      '`exitOnclose` is not an option; did you mean `exitOnClose`?',
    );
    expect(create).not.toHaveBeenCalled();
    expect(console.log).toBe(log);
  });
});
