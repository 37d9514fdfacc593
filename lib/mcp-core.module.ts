import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { McpExplorer } from './discovery/mcp.explorer.js';
import { McpMetadataAccessor } from './discovery/mcp-metadata.accessor.js';
import { McpEvents } from './events/mcp-events.js';
import { McpServers } from './servers/mcp-servers.js';

/**
 * The scan of the app's decorated methods, created once however many servers there are
 * (each server filters it by group). Imported by every `McpModule` registration; not
 * global, so the explorer stays out of the app's own modules.
 * @internal
 */
@Module({
  imports: [DiscoveryModule],
  providers: [McpMetadataAccessor, McpExplorer],
  exports: [McpExplorer],
})
export class McpDiscoveryModule {}

/**
 * What the app's own code may inject anywhere, created once: the registry of servers
 * (`McpServers`) and the stream of tool-call events (`McpEvents`, each event names its
 * server).
 * @internal
 */
@Global()
@Module({
  providers: [McpServers, McpEvents],
  exports: [McpServers, McpEvents],
})
export class McpCoreModule {}
