import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { McpExplorer } from './discovery/mcp.explorer.js';
import { McpEvents } from './events/mcp-events.js';
import { McpMetadataAccessor } from './discovery/mcp-metadata.accessor.js';
import { McpServers } from './protocol/mcp-servers.js';

/**
 * What every `McpModule` registration of an app shares, created once however many servers
 * there are: the scan of the app's decorated methods (each server filters it by group),
 * the registry of servers and the stream of tool-call events (each event names its
 * server). Imported by `McpModule`; global so that `McpServers` and `McpEvents` can be
 * injected anywhere.
 * @internal
 */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [McpMetadataAccessor, McpExplorer, McpServers, McpEvents],
  exports: [McpMetadataAccessor, McpExplorer, McpServers, McpEvents],
})
export class McpCoreModule {}
