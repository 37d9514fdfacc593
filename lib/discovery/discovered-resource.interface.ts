import type { Resource, ResourceTemplateType } from '@modelcontextprotocol/server';
import type { UriTemplateMatcher } from '../utils/uri-template.matcher.js';
import type { JsonSchema } from '../interfaces/json-schema.interface.js';
import type { DiscoveredMethod } from './discovered-method.interface.js';

/** A resource with a fixed URI, as `resources/list` publishes it. */
export interface DiscoveredStaticResource extends DiscoveredMethod {
  readonly kind: 'static';
  readonly definition: Resource;
  readonly argumentsSchema: JsonSchema;
}

/** A family of resources behind an RFC 6570 URI template (`resources/templates/list`). */
export interface DiscoveredResourceTemplate extends DiscoveredMethod {
  readonly kind: 'template';
  readonly definition: ResourceTemplateType;
  readonly template: UriTemplateMatcher;
  /** The JSON Schema of the variables DTO (for completions from listed values). */
  readonly argumentsSchema: JsonSchema;
}

export type DiscoveredResource = DiscoveredStaticResource | DiscoveredResourceTemplate;
