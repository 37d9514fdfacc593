import { RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import type { McpUiResourceMeta } from '@modelcontextprotocol/ext-apps';
import type { Type } from '@nestjs/common';
import type { McpAppViewMetadata } from '../decorators/mcp-app-view.decorator.js';
import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import type {
  McpAppViewDecoratorOptions,
  McpToolAppOptions,
} from '../interfaces/mcp-app-options.interface.js';
import { invalidViewNameMessage, invalidViewOptionsMessage } from '../messages/apps.messages.js';
import {
  isViewName,
  toolAppProblem,
  viewOptionsProblems,
} from '../options/apps-options.validator.js';
import type { InstanceWrapper } from '../utils/nest-internals.js';
import type { DiscoveredStaticResource } from './discovered-resource.interface.js';
import type { ResourceDefinitionFactory } from './resource-definition.factory.js';
import type { ServerMembership } from './server-membership.js';

/** An `@McpAppView()` method: a view whose HTML the method makes on each read. */
export interface DiscoveredAppView {
  readonly name: string;
  /** `@McpAppView() on Views.card`, for messages. */
  readonly where: string;
  /**
   * The method as a static resource (`text/html;profile=mcp-app`, its `_meta.ui`); its URI
   * is each server's own (`ui://<server>/<view>`), given when a server publishes it.
   */
  readonly resource: DiscoveredStaticResource;
  readonly membership?: ServerMembership;
}

/** The URI of a view: `ui://<server>/<view>`, both parts percent-encoded as URI segments. */
export const appViewUri = (server: string, view: string): string =>
  `ui://${encodeURIComponent(server)}/${encodeURIComponent(view)}`;

/**
 * What a view's `_meta.ui` holds (csp, permissions, domain, prefersBorder), only the settings
 * given: no CSP declared is the extension's most restrictive default, no network at all.
 */
export function appViewMeta(options: McpAppViewDecoratorOptions): McpUiResourceMeta {
  const { csp, permissions, domain, prefersBorder } = options;
  return {
    ...(csp !== undefined && { csp }),
    ...(permissions !== undefined && { permissions }),
    ...(domain !== undefined && { domain }),
    ...(prefersBorder !== undefined && { prefersBorder }),
  };
}

/** `_meta` with the view's `ui` settings, or nothing when it has none. */
export function appViewResourceMeta(options: McpAppViewDecoratorOptions) {
  const ui = appViewMeta(options);
  return Object.keys(ui).length > 0 ? { ui } : undefined;
}

/**
 * An `@McpAppView()` method, checked and described as a resource.
 * @throws McpConfigurationError for a name or options MCP Apps cannot use
 */
export function discoverAppView(
  resources: ResourceDefinitionFactory,
  wrapper: InstanceWrapper,
  target: Type,
  methodName: string,
  { name, options }: McpAppViewMetadata,
): Omit<DiscoveredAppView, 'membership'> {
  const where = `@McpAppView() on ${target.name}.${methodName}`;
  if (!isViewName(name)) throw new McpConfigurationError(invalidViewNameMessage(name, where));
  const problems = viewOptionsProblems(`@McpAppView('${name}')`, options, false);
  if (problems.length > 0) {
    throw new McpConfigurationError(invalidViewOptionsMessage(where, problems));
  }
  const meta = appViewResourceMeta(options);
  const resource = resources.create(wrapper, target, methodName, {
    uri: appViewUri('view', name),
    name,
    mimeType: RESOURCE_MIME_TYPE,
    ...(options.title !== undefined && { title: options.title }),
    ...(options.description !== undefined && { description: options.description }),
    ...(meta && { _meta: meta }),
  });
  return { name, where, resource: resource as DiscoveredStaticResource };
}

/**
 * The `app` option of `@McpTool()` on `where`, checked.
 * @throws McpConfigurationError saying what to write instead
 */
export function checkedToolApp(app: unknown, where: string): McpToolAppOptions {
  const problem = toolAppProblem(app, where);
  if (problem) throw new McpConfigurationError(problem);
  return app as McpToolAppOptions;
}
