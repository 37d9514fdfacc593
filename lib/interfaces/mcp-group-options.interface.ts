/**
 * Which group versions an entry belongs to: one (`'2'`) or several (`['1', '2']`), as with
 * `@Controller({ version })` in Nest.
 */
export type McpGroupVersion = string | readonly string[];

/** Options of `@McpGroup()`: the default version of every entry of the class. */
export interface McpGroupOptions {
  /**
   * The group versions the class's entries belong to. A server of the group with a
   * `groupVersion` in this list publishes them; an entry without a version is published
   * on every server of its group.
   * @default none: the entries are published on every server of the group
   * @example version: ['1', '2']
   */
  version?: McpGroupVersion;
}

/**
 * The server an entry is published on, per method (`@McpTool()`, `@McpPrompt()`,
 * `@McpResource()`). Method-level options win over the class's `@McpGroup()`.
 */
export interface McpMembershipOptions {
  /**
   * The group of the servers (`McpModule.forRoot({ group })`) this entry is published on.
   * An entry with a group is never published on a server without one, and the other way
   * round. Giving `group` here replaces the class's group and its version.
   * @default the group of the class's `@McpGroup()`, else none (the server without a group)
   */
  group?: string;
  /**
   * The group versions this entry belongs to: published on the servers of its group whose
   * `groupVersion` is in the list. Without one, the entry is published on every server of
   * its group.
   * @default the version of the class's `@McpGroup()` (unless `group` is given here), else none
   */
  version?: McpGroupVersion;
}
