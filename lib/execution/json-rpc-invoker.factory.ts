import {
  isInputRequiredResult,
  type GetPromptResult,
  type InputRequiredResult,
  type ReadResourceResult,
  type Result,
} from '@modelcontextprotocol/server';
import { Injectable, Logger } from '@nestjs/common';
import type { DiscoveredExtensionMethod } from '../discovery/discovered-extension-method.interface.js';
import type { DiscoveredMethod } from '../discovery/discovered-method.interface.js';
import type { DiscoveredPrompt } from '../discovery/discovered-prompt.interface.js';
import type { DiscoveredResource } from '../discovery/discovered-resource.interface.js';
import { pipelinePhase, validationPhase } from './call-phases.js';
import type { McpCall } from './mcp-call.js';
import { McpInvocation } from './mcp-invocation.js';
import { McpPipelineFactory, type McpPipeline } from './mcp-pipeline.factory.js';
import { normalizeMethodResult } from './method-result.normalizer.js';
import { normalizePromptResult } from './prompt-result.normalizer.js';
import { resourceNotFound, toProtocolError } from './protocol-error.mapper.js';
import { normalizeResourceResult } from './resource-result.normalizer.js';
import { reportUnexpectedError } from './unexpected-error.reporter.js';

/** Runs one `prompts/get`; failures are thrown as JSON-RPC errors. */
export type PromptInvoker = (call: McpCall) => Promise<GetPromptResult | InputRequiredResult>;

/** Runs one `resources/read` of `uri`; failures are thrown as JSON-RPC errors. */
export type ResourceReader = (
  call: McpCall,
  uri: string,
) => Promise<ReadResourceResult | InputRequiredResult>;

/** Runs one call of an extension's JSON-RPC method; failures are thrown as JSON-RPC errors. */
export type ExtensionMethodInvoker = (call: McpCall) => Promise<Result>;

/**
 * Binds prompts, resources and extension methods to the Nest pipeline, as
 * {@link ToolInvokerFactory} does for tools. Their failures are JSON-RPC errors (the
 * protocol has no `isError` result for them), mapped by {@link toProtocolError}.
 */
@Injectable()
export class JsonRpcInvokerFactory {
  private readonly logger = new Logger(JsonRpcInvokerFactory.name);

  constructor(private readonly pipelines: McpPipelineFactory) {}

  createPrompt(prompt: DiscoveredPrompt): PromptInvoker {
    return this.runner(prompt, `Prompt "${prompt.definition.name}"`, (returned) =>
      normalizePromptResult(returned, prompt.where),
    );
  }

  createResource(resource: DiscoveredResource): ResourceReader {
    return this.runner(
      resource,
      `Resource "${resource.definition.name}"`,
      (returned, call, uri) => {
        const result = normalizeResourceResult(returned, uri!, resource.definition.mimeType);
        if (!result) throw resourceNotFound(uri!, call.era);
        return result;
      },
    );
  }

  /** An `@McpMethod()`: one round, whose answer is the object the method returns. */
  createMethod(method: DiscoveredExtensionMethod): ExtensionMethodInvoker {
    return this.runner(
      method,
      `Method "${method.method}"`,
      (returned) => normalizeMethodResult(returned, method.where),
      { rounds: false },
    ) as ExtensionMethodInvoker;
  }

  /**
   * Validation, the pipeline, then `finish` on what the method returned; errors mapped.
   * @param rounds whether an `inputRequired(...)` answer goes out as it is (MCP's own
   * methods); otherwise `finish` judges it
   */
  private runner<Answer>(
    method: DiscoveredMethod,
    what: string,
    finish: (returned: unknown, call: McpCall, uri?: string) => Answer,
    { rounds }: { readonly rounds: boolean } = { rounds: true },
  ) {
    const pipeline: McpPipeline = this.pipelines.create(method);
    return async (call: McpCall, uri?: string): Promise<Answer | InputRequiredResult> => {
      try {
        const validation = await validationPhase(call, () => method.checkArguments(call.arguments));
        const invocation = McpInvocation.of(call, validation);
        const returned = await pipelinePhase(call, () => pipeline(invocation));
        // A multi round-trip answer (`inputRequired(...)`) goes to the SDK as it is.
        return rounds && isInputRequiredResult(returned) ? returned : finish(returned, call, uri);
      } catch (error) {
        throw toProtocolError(
          error,
          { era: call.era, uri },
          (unexpected) =>
            reportUnexpectedError(this.logger, what, method, unexpected, call.signal.aborted),
          call.texts,
        );
      }
    };
  }
}
