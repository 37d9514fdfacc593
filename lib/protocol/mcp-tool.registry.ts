import type { ListToolsResult, Tool } from '@modelcontextprotocol/server';
import type { ToolInvoker } from '../execution/tool-invoker.factory.js';

/** A published tool: what clients list, and the invoker that runs it. */
export interface RegisteredTool {
  readonly definition: Tool;
  readonly invoke: ToolInvoker;
}

/**
 * The tools of one server, fixed at bootstrap. Listing is a lookup of a list built once;
 * nothing is computed per request.
 */
export class McpToolRegistry {
  private readonly byName: ReadonlyMap<string, RegisteredTool>;
  private readonly listed: readonly Tool[];

  constructor(tools: readonly RegisteredTool[]) {
    this.byName = new Map(tools.map((tool) => [tool.definition.name, tool]));
    // Deterministic order (the 2026-07-28 revision asks for it): by name.
    this.listed = Object.freeze(
      tools.map((tool) => tool.definition).toSorted((a, b) => a.name.localeCompare(b.name)),
    );
  }

  get(name: string): RegisteredTool | undefined {
    return this.byName.get(name);
  }

  get size(): number {
    return this.byName.size;
  }

  listResult(): ListToolsResult {
    return { tools: this.listed as Tool[] };
  }
}
