/** One reason the arguments of a call were rejected. */
export interface ArgumentIssue {
  /** JSON Pointer (RFC 6901) to the offending value: "/address/zip", "/tags/1"; "" for the whole object. */
  path: string;
  /**
   * The class-validator constraint that failed ("isInt", "whitelistValidation"), or the
   * JSON Schema keyword ("enum", "required") where only the tool's schema rejects the value.
   */
  constraint: string;
  message: string;
  /** The values allowed here, where the rule lists them (`@IsEnum()`, `@IsIn()`, `enum`). */
  allowed?: unknown[];
}
