import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { McpExplorer } from './discovery/mcp.explorer.js';
import { McpMetadataAccessor } from './discovery/mcp-metadata.accessor.js';
import { McpEvents } from './events/mcp-events.js';
import { ProtocolRuntimes } from './protocol/protocol-runtimes.js';
import { McpServers } from './servers/mcp-servers.js';

/**
 * The scan of the app's decorated methods, created once however many servers there are
 * (each server filters it by group). Imported by every `McpModule` registration; not
 * global, so the explorer stays out of the app's own modules.
 */
@Module({
  imports: [DiscoveryModule],
  providers: [McpMetadataAccessor, McpExplorer],
  exports: [McpExplorer],
})
export class McpDiscoveryModule {}

/**
 * What is created once however many servers there are: the app's view of its servers
 * (`McpServers`), the stream of tool-call events (`McpEvents`, each event names its
 * server), both injectable anywhere, and the run times of the servers by name
 * (`ProtocolRuntimes`), where stdio, the CLI and the testing kit find them.
 */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [McpServers, McpEvents, ProtocolRuntimes],
  exports: [McpServers, McpEvents, ProtocolRuntimes],
})
export class McpCoreModule {}
