/** The shared layout of a message that lists items: one indented bullet per line. */

export const bulletList = (items: readonly string[]): string =>
  items.map((item) => `  - ${item}`).join('\n');
