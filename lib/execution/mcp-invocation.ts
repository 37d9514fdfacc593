import type { DetachedResponse } from '../context/detached-response.js';
import { InvalidArgumentsError } from '../errors/invalid-arguments.error.js';
import type { ArgumentsValidation } from '../validation/dto-arguments.validator.js';
import { McpCall } from './mcp-call.js';

/** Who hears how far an invocation got (the invoker, the task runner). */
export interface InvocationObserver {
  /** Guards and interceptors let the call through: its parameters are being resolved. */
  readonly methodReached?: () => void;
  /** The method took its validated arguments: it runs (a call that publishes its event). */
  readonly argumentsTaken?: () => void;
}

/**
 * A call whose arguments were checked, as the Nest pipeline runs it: the invoker makes it
 * from the call and the outcome of the check, and the parameter factory takes the checked
 * arguments from it (or raises their failure where pipes run, so guards still decide first
 * what a caller learns). How far it gets is told to its observer, never written anywhere.
 */
export class McpInvocation extends McpCall {
  private constructor(
    private readonly call: McpCall,
    private readonly validation: ArgumentsValidation<object | undefined>,
    private readonly observer: InvocationObserver,
  ) {
    super(call.parts);
  }

  /** The response of the call it checked: what enhancers write is the call's. */
  override get detachedResponse(): DetachedResponse {
    return this.call.detachedResponse;
  }

  static of(
    call: McpCall,
    validation: ArgumentsValidation<object | undefined>,
    observer: InvocationObserver = {},
  ): McpInvocation {
    return new McpInvocation(call, validation, observer);
  }

  /**
   * Guards and interceptors let the call through: its parameters are being resolved (once
   * per parameter; what listens must not mind being told twice).
   */
  methodReached(): void {
    // Invalid arguments are refused where they are resolved: the method is not reached.
    if (!this.validation.ok) return;
    this.phases?.methodReached();
    this.observer.methodReached?.();
  }

  /** The validated DTO instance, or the validation failure raised as an error. */
  validatedArguments(): object | undefined {
    if (!this.validation.ok) {
      throw new InvalidArgumentsError(this.name, this.validation.issues, this.kind);
    }
    this.observer.argumentsTaken?.();
    return this.validation.value;
  }
}
