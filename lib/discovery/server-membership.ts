import type { McpGroupMetadata } from '../decorators/mcp-group.decorator.js';
import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import type { McpMembershipOptions } from '../interfaces/mcp-group-options.interface.js';
import {
  invalidGroupMessage,
  invalidGroupVersionMessage,
  missingGroupNameMessage,
  versionWithoutGroupMessage,
} from '../messages/discovery.messages.js';
import { isNonEmptyString } from '../utils/value-checks.util.js';

/**
 * The servers an entry may be published on: its group (none: the servers without a group)
 * and the group versions it belongs to (none: every server of its group).
 */
export interface ServerMembership {
  readonly group?: string;
  readonly versions?: readonly string[];
}

/** What a server publishes: the `group` and `groupVersion` of its options. */
export interface ServerScope {
  readonly group?: string;
  readonly groupVersion?: string;
}

function versionsOf(version: unknown, where: string): readonly string[] | undefined {
  if (version === undefined) return undefined;
  const list = Array.isArray(version) ? version : [version];
  if (list.length === 0 || !list.every(isNonEmptyString)) {
    throw new McpConfigurationError(invalidGroupVersionMessage(where, version));
  }
  return list;
}

/**
 * The membership of one method: its own `group`/`version` win over the class's
 * `@McpGroup()`. A method that names its own group leaves the class's version behind (it
 * belongs to another group); a method that only names a version keeps the class's group.
 */
export function resolveMembership(
  classGroup: McpGroupMetadata | undefined,
  method: McpMembershipOptions | undefined,
  where: string,
): ServerMembership {
  if (classGroup !== undefined && !isNonEmptyString(classGroup.group)) {
    throw new McpConfigurationError(missingGroupNameMessage(where, classGroup.group));
  }
  if (method?.group !== undefined && !isNonEmptyString(method.group)) {
    throw new McpConfigurationError(invalidGroupMessage(where, method.group));
  }
  const group = method?.group ?? classGroup?.group;
  const version =
    method?.version ?? (method?.group === undefined ? classGroup?.version : undefined);
  const versions = versionsOf(version, where);
  if (versions && group === undefined) {
    throw new McpConfigurationError(versionWithoutGroupMessage(where, version));
  }
  return { ...(group !== undefined && { group }), ...(versions && { versions }) };
}

/**
 * The publication rule. A server without a group publishes only entries without one; a
 * server with a group only that group's entries: those without a version always, those
 * with versions when its `groupVersion` is one of them.
 */
export function isPublishedOn(
  membership: ServerMembership | undefined,
  scope: ServerScope,
): boolean {
  const group = membership?.group;
  if (group !== scope.group) return false;
  const versions = membership?.versions;
  if (!versions) return true;
  return scope.groupVersion !== undefined && versions.includes(scope.groupVersion);
}

/** `group "catalog", version "2"`, for log lines and messages. */
export function describeScope(scope: ServerScope): string {
  if (scope.group === undefined) return 'entries without a group';
  return scope.groupVersion === undefined
    ? `group "${scope.group}" (entries without a version)`
    : `group "${scope.group}", version "${scope.groupVersion}"`;
}

/** `group "catalog", version "2"` of an entry, for messages. */
export function describeMembership(membership: ServerMembership | undefined): string {
  if (membership?.group === undefined) return 'without a group';
  const versions = membership.versions;
  if (!versions) return `in group "${membership.group}"`;
  const listed = versions.map((version) => `"${version}"`).join(', ');
  return `in group "${membership.group}", version${versions.length === 1 ? '' : 's'} ${listed}`;
}
