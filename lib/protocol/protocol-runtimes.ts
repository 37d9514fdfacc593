import { Injectable } from '@nestjs/common';
import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import type { McpModuleOptions } from '../interfaces/mcp-module-options.interface.js';
import { DEFAULT_HTTP_PATH } from '../mcp.constants.js';
import {
  duplicateServerNameMessage,
  duplicateServerPathMessage,
} from '../messages/serving.messages.js';
import type { ProtocolRuntime } from './protocol.runtime.js';

/**
 * The HTTP path a server claims, none with `http: false`. `'/mcp/catalog/'` and
 * `'mcp//catalog'` name the same route as `'mcp/catalog'`.
 */
const claimedPath = ({ http }: McpModuleOptions): string | undefined =>
  http === false
    ? undefined
    : (http?.path ?? DEFAULT_HTTP_PATH).split('/').filter(Boolean).join('/');

/**
 * The run times of every MCP server of the app, by name, in the order Nest created them:
 * where stdio, the CLI and the testing kit find the server they serve or inspect. It is
 * also where two registrations that claim the same `name` or the same HTTP path stop the
 * app at bootstrap. Global and internal; the app's code uses `McpServers`.
 */
@Injectable()
export class ProtocolRuntimes {
  private readonly byName = new Map<string, ProtocolRuntime>();

  get(name: string): ProtocolRuntime | undefined {
    return this.byName.get(name);
  }

  all(): ProtocolRuntime[] {
    return [...this.byName.values()];
  }

  /** Called by each `McpModule` registration while the app's providers are created. */
  register(runtime: ProtocolRuntime): void {
    const { name } = runtime.options;
    if (this.byName.has(name)) throw new McpConfigurationError(duplicateServerNameMessage(name));
    const path = claimedPath(runtime.options);
    if (path !== undefined) {
      const other = this.all().find((candidate) => claimedPath(candidate.options) === path);
      if (other) {
        throw new McpConfigurationError(duplicateServerPathMessage(other.options.name, name, path));
      }
    }
    this.byName.set(name, runtime);
  }
}
