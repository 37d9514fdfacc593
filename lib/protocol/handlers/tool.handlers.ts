import {
  isInputRequiredResult,
  ProtocolError,
  ProtocolErrorCode,
} from '@modelcontextprotocol/server';
import { describeJsonInputProblem, findJsonInputProblem } from '../../utils/json-input.util.js';
import { assertStateOf } from '../request-scopes.js';
import { unknownEntry } from '../unknown-entry.error.js';
import type { Handlers } from './catalog-serving.interface.js';
import { listPage } from './list-page.js';

/**
 * Arguments that arrive over any transport are checked for depth and prototype keys before
 * anything copies them (the HTTP endpoint checks whole bodies earlier; stdio does not).
 */
export function checkedArguments<T>(args: T): T {
  const problem = findJsonInputProblem(args);
  if (!problem) return args;
  throw new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    describeJsonInputProblem(problem, 'The arguments'),
  );
}

/** `tools/list` and `tools/call`. */
export const toolHandlers: Handlers = (serving, target) => {
  const { tools } = serving.catalog;
  const { server, era, tasks } = target;

  server.setRequestHandler('tools/list', async (request, ctx) => {
    const page = await listPage(serving, target, tools, 'tools', ctx, request.params?.cursor);
    // 2025-11-25 lists which tools run as tasks (2026-07-28 tools carry no such field).
    const listed =
      tasks && era === 'legacy' ? tasks.withTaskSupport(page.items, tools) : page.items;
    return { tools: listed, nextCursor: page.nextCursor };
  });

  server.setRequestHandler('tools/call', async (request, ctx) => {
    const { name, arguments: args = {} } = request.params;
    const tool = tools.get(name);
    const scope = target.scopeOf(ctx);
    if (!tool) throw unknownEntry('tool', name, 'tools/list', scope.texts);
    // An alias finds the tool, which runs under its listed name.
    const listed = serving.aliases.resolve(name, tool.key);
    assertStateOf(ctx, listed);
    const call = serving.call('tool', listed, checkedArguments(args), scope);
    const started =
      // 2025-11-25 refuses `params.task` on a tool that never runs as one (-32601).
      (tool.task || era === 'legacy') &&
      tasks &&
      (await tasks.callTool(call, tool, request.params, era, server));
    if (started && started.kind === 'task') return started.result as never;
    const result = started ? started.result : await tool.invoke(call);
    if (!isInputRequiredResult(result)) {
      return server.projectCallToolResult(result, tool.definition.outputSchema);
    }
    if (!target.canAsk) serving.cannotAsk(`tool "${name}"`);
    return result;
  });
};
