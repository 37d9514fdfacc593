import type { ArgumentsValidation } from '../validation/dto-arguments.validator.js';
import type { InstanceWrapper } from '../utils/nest-internals.js';
import type { ServerMembership } from './server-membership.js';

/** Checks the arguments of one call against the method's DTO; never throws. */
export type ArgumentsCheck = (
  args: Readonly<Record<string, unknown>>,
) => Promise<ArgumentsValidation<object | undefined>>;

/** A decorated method found at bootstrap: where it lives, for the pipeline and messages. */
export interface DiscoveredMethod {
  /** `Class.method`, for messages. */
  readonly where: string;
  readonly wrapper: InstanceWrapper;
  readonly methodName: string;
  /** Validates the arguments (tools), prompt arguments or URI variables (resources). */
  readonly checkArguments: ArgumentsCheck;
  /** The servers it may be published on (`@McpGroup()`, `group`/`version`); none for run-time additions. */
  readonly membership?: ServerMembership;
}
