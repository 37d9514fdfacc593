import type { Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { vi } from 'vitest';
import { McpMetadataAccessor } from '../../lib/discovery/mcp-metadata.accessor.js';
import { PromptDefinitionFactory } from '../../lib/discovery/prompt-definition.factory.js';
import { ResourceDefinitionFactory } from '../../lib/discovery/resource-definition.factory.js';
import { ToolDefinitionFactory } from '../../lib/discovery/tool-definition.factory.js';
import { DtoSchemaFactory } from '../../lib/schema/dto-schema.factory.js';
import type { InstanceWrapper } from '../../lib/utils/nest-internals.js';
import { DtoArgumentsValidator } from '../../lib/validation/dto-arguments.validator.js';

/** The three definition factories as the explorer builds them, with a logger that records. */
export function definitionFactories() {
  const warn = vi.fn<(message: string) => void>();
  const logger = { warn, log: vi.fn(), debug: vi.fn() } as unknown as Logger;
  const schemaFactory = new DtoSchemaFactory();
  const validator = new DtoArgumentsValidator();
  const accessor = new McpMetadataAccessor(new Reflector());
  return {
    warnings: () => warn.mock.calls.map(([message]) => message),
    tools: new ToolDefinitionFactory(schemaFactory, validator, accessor, logger),
    prompts: new PromptDefinitionFactory(schemaFactory, validator, logger),
    resources: new ResourceDefinitionFactory(schemaFactory, validator, logger),
  };
}

/** A stand-in for the Nest wrapper of a provider (the factories only pass it on). */
export const WRAPPER = {} as InstanceWrapper;
