import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { McpExplorer } from './discovery/mcp.explorer.js';
import { McpMetadataAccessor } from './discovery/mcp-metadata.accessor.js';
import { McpServers } from './protocol/mcp-servers.js';

/**
 * What every `McpModule` registration of an app shares, created once however many servers
 * there are: the scan of the app's decorated methods (each server filters it by group) and
 * the registry of servers. Imported by `McpModule`; global so that `McpServers` can be
 * injected anywhere.
 * @internal
 */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [McpMetadataAccessor, McpExplorer, McpServers],
  exports: [McpMetadataAccessor, McpExplorer, McpServers],
})
export class McpCoreModule {}
