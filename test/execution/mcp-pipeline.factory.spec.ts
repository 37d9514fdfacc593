import { ForbiddenException } from '@nestjs/common';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpExplorer } from '../../lib/discovery/mcp.explorer.js';
import { InvalidArgumentsError } from '../../lib/errors/invalid-arguments.error.js';
import { McpInvocation } from '../../lib/execution/mcp-invocation.js';
import {
  McpPipelineFactory,
  type McpPipelineOptions,
} from '../../lib/execution/mcp-pipeline.factory.js';
import { closeApps } from '../discovery/discovery-boot.js';
import { toolCall } from '../support/fake-call.js';
import { ADMIN, bootPipelineApp, GUEST, scopeOf, trail } from './pipeline.fixture.js';

/** What the pipeline rejected with (fails the test if it resolved). */
const failure = (running: Promise<unknown>) =>
  running.then(
    () => expect.unreachable('the pipeline let the call through'),
    (error: unknown) => error,
  );

describe('McpPipelineFactory', () => {
  let booted: Awaited<ReturnType<typeof bootPipelineApp>>;

  beforeEach(async () => {
    trail.length = 0;
    booted = await bootPipelineApp();
  });
  afterEach(closeApps);

  /** The pipeline of one tool, run for a call with `args` by a caller with `request`. */
  async function run(
    name: string,
    args: Record<string, unknown>,
    request?: unknown,
    options?: McpPipelineOptions,
  ) {
    const method = booted.app
      .get(McpExplorer)
      .explore()
      .tools.find((tool) => tool.definition.name === name)!;
    const pipeline = booted.app.get(McpPipelineFactory).create(method, options);
    const call = toolCall(name, args, scopeOf(request));
    return pipeline(McpInvocation.of(call, await method.checkArguments(args)));
  }

  it('runs guards, interceptors, pipes, then the method, and resolves to what it returned', async () => {
    expect(await run('export', { limit: 2 }, ADMIN)).toBe('exported 2');
    expect(trail).toEqual(['guard', 'interceptor:before', 'pipe', 'method', 'interceptor:after']);
  });

  it('stops at a guard that refuses: the method never runs', async () => {
    expect(await failure(run('export', { limit: 2 }, GUEST))).toBeInstanceOf(ForbiddenException);
    expect(trail).toEqual(['guard']);
  });

  it('raises invalid arguments where pipes run, after guards and interceptors let the call in', async () => {
    const error = await failure(run('export', { limit: 0 }, ADMIN));
    expect(error).toBeInstanceOf(InvalidArgumentsError);
    expect((error as InvalidArgumentsError).issues.map((issue) => issue.path)).toEqual(['/limit']);
    expect(trail).toEqual(['guard', 'interceptor:before']);
  });

  it('runs without the guards when they ran elsewhere (guards: false), the rest as usual', async () => {
    expect(await run('export', { limit: 2 }, GUEST, { guards: false })).toBe('exported 2');
    expect(trail).toEqual(['interceptor:before', 'pipe', 'method', 'interceptor:after']);
  });

  it('answers with what an exception filter of the method returns', async () => {
    expect(await run('lookup', {})).toBe('Nothing found: no such item');
  });

  it('hands an error no filter answers back unlogged: the library logs it once', async () => {
    await failure(run('upstream', {}));
    expect(booted.logs.errors()).toEqual([]);
  });

  describe('a request-scoped provider', () => {
    it('gets a new instance per call, and the call as REQUEST when there is no HTTP request', async () => {
      const first = (await run('which', {})) as { serial: number; request: string };
      const second = (await run('which', {})) as { serial: number; request: string };
      expect(second.serial).not.toBe(first.serial);
      expect(first.request).toBe('the call');
    });

    it('shares the HTTP request’s context: one instance per request, which it sees', async () => {
      const request = { headers: {} };
      const first = (await run('which', {}, request)) as { serial: number; request: string };
      const again = (await run('which', {}, request)) as { serial: number };
      const other = (await run('which', {}, { headers: {} })) as { serial: number };
      expect(first.request).toBe('the HTTP request');
      expect(again.serial).toBe(first.serial);
      expect(other.serial).not.toBe(first.serial);
    });
  });
});
