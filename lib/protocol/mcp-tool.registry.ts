import type { ListToolsResult, Tool } from '@modelcontextprotocol/server';
import type { ToolCall } from '../execution/tool-call.js';
import type { ToolInvoker } from '../execution/tool-invoker.factory.js';
import type { VisibilityCheck } from '../execution/tool-visibility.factory.js';

/** A published tool: what clients list, who may see it, and the invoker that runs it. */
export interface RegisteredTool {
  readonly definition: Tool;
  readonly invoke: ToolInvoker;
  readonly isVisible: VisibilityCheck;
}

/**
 * The tools of one server, fixed at bootstrap. Listing is a lookup of a list built once;
 * only tools with guards are checked per caller, and when no tool has one the same list
 * object serves every request.
 */
export class McpToolRegistry {
  private readonly byName: ReadonlyMap<string, RegisteredTool>;
  /** In the listed order (by name: the 2026-07-28 revision asks for a deterministic order). */
  private readonly ordered: readonly RegisteredTool[];
  private readonly everyoneSees?: Tool[];

  constructor(tools: readonly RegisteredTool[]) {
    this.byName = new Map(tools.map((tool) => [tool.definition.name, tool]));
    this.ordered = tools.toSorted((a, b) => a.definition.name.localeCompare(b.definition.name));
    if (!this.dependsOnCaller) {
      this.everyoneSees = this.ordered.map((tool) => tool.definition);
    }
  }

  get(name: string): RegisteredTool | undefined {
    return this.byName.get(name);
  }

  get size(): number {
    return this.byName.size;
  }

  /** Whether what a caller sees depends on its guards (the list is then private to it). */
  get dependsOnCaller(): boolean {
    return this.ordered.some((tool) => tool.isVisible.guarded);
  }

  definitions(): Tool[] {
    return this.ordered.map((tool) => tool.definition);
  }

  /** The tools this caller may see; `listingCall` makes the guards' context for one tool. */
  async listFor(listingCall: (toolName: string) => ToolCall): Promise<ListToolsResult> {
    // A new result object each time: the SDK adds per-era fields (resultType, _meta) to it.
    if (this.everyoneSees) return { tools: this.everyoneSees };
    const visible = await Promise.all(
      this.ordered.map(
        (tool) => !tool.isVisible.guarded || tool.isVisible(listingCall(tool.definition.name)),
      ),
    );
    return {
      tools: this.ordered.filter((_, index) => visible[index]).map((tool) => tool.definition),
    };
  }
}
