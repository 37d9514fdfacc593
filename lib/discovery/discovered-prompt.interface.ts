import type { Prompt } from '@modelcontextprotocol/server';
import type { JsonSchema } from '../interfaces/json-schema.interface.js';
import type { DiscoveredMethod } from './discovered-method.interface.js';

/** A prompt found at bootstrap: what `prompts/list` publishes, and where its method lives. */
export interface DiscoveredPrompt extends DiscoveredMethod {
  readonly definition: Prompt;
  /** The JSON Schema of the arguments DTO (for completions from listed values). */
  readonly argumentsSchema: JsonSchema;
}
