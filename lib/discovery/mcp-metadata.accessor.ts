import { Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { McpAppViewMetadata } from '../decorators/mcp-app-view.decorator.js';
import type { McpExtensionMetadata } from '../decorators/mcp-extension.decorator.js';
import type { McpGroupMetadata } from '../decorators/mcp-group.decorator.js';
import type { McpMethodMetadata } from '../decorators/mcp-method.decorator.js';
import type { McpToolsOptions } from '../decorators/mcp-tools.decorator.js';
import type { McpCompletionTarget } from '../interfaces/mcp-completion.interface.js';
import type { McpPromptOptions } from '../interfaces/mcp-prompt-options.interface.js';
import type { McpResourceOptions } from '../interfaces/mcp-resource-options.interface.js';
import type { McpToolOptions } from '../interfaces/mcp-tool-options.interface.js';
import {
  MCP_APP_VIEW_METADATA,
  MCP_COMPLETION_METADATA,
  MCP_EXTENSION_METADATA,
  MCP_GROUP_METADATA,
  MCP_HIDDEN_METADATA,
  MCP_METHOD_METADATA,
  MCP_PROMPT_METADATA,
  MCP_RESOURCE_METADATA,
  MCP_TOOL_METADATA,
  MCP_TOOLS_METADATA,
} from '../mcp.constants.js';

/** What `@ApiOperation()` of `@nestjs/swagger` stores (read without importing swagger). */
export interface ApiOperationMetadata {
  summary?: string;
  description?: string;
}

/** `DECORATORS.API_OPERATION` of `@nestjs/swagger`, an optional peer dependency. */
const SWAGGER_API_OPERATION = 'swagger/apiOperation';

/** Typed reads of the metadata the decorators store. */
@Injectable()
export class McpMetadataAccessor {
  constructor(private readonly reflector: Reflector) {}

  getToolOptions(method: Function): McpToolOptions | undefined {
    return this.reflector.get<McpToolOptions | undefined>(MCP_TOOL_METADATA, method);
  }

  getPromptOptions(method: Function): McpPromptOptions | undefined {
    return this.reflector.get<McpPromptOptions | undefined>(MCP_PROMPT_METADATA, method);
  }

  getResourceOptions(method: Function): McpResourceOptions | undefined {
    return this.reflector.get<McpResourceOptions | undefined>(MCP_RESOURCE_METADATA, method);
  }

  getCompletionTarget(method: Function): McpCompletionTarget | undefined {
    return this.reflector.get<McpCompletionTarget | undefined>(MCP_COMPLETION_METADATA, method);
  }

  getMethodOptions(method: Function): McpMethodMetadata | undefined {
    return this.reflector.get<McpMethodMetadata | undefined>(MCP_METHOD_METADATA, method);
  }

  getAppView(method: Function): McpAppViewMetadata | undefined {
    return this.reflector.get<McpAppViewMetadata | undefined>(MCP_APP_VIEW_METADATA, method);
  }

  getClassExtension(target: Function): McpExtensionMetadata | undefined {
    return this.reflector.get<McpExtensionMetadata | undefined>(MCP_EXTENSION_METADATA, target);
  }

  getClassToolsOptions(target: Function): McpToolsOptions | undefined {
    return this.reflector.get<McpToolsOptions | undefined>(MCP_TOOLS_METADATA, target);
  }

  getClassGroup(target: Function): McpGroupMetadata | undefined {
    return this.reflector.get<McpGroupMetadata | undefined>(MCP_GROUP_METADATA, target);
  }

  getHiddenReason(method: Function): unknown {
    return this.reflector.get<unknown>(MCP_HIDDEN_METADATA, method);
  }

  getApiOperation(method: Function): ApiOperationMetadata | undefined {
    return this.reflector.get<ApiOperationMetadata | undefined>(SWAGGER_API_OPERATION, method);
  }
}
