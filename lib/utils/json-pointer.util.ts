/** JSON Pointer (RFC 6901) helpers: how issues name the argument they are about. */

/** One reference token: `~` → `~0`, `/` → `~1`. */
export const escapePointer = (segment: string): string =>
  segment.replaceAll('~', '~0').replaceAll('/', '~1');

const unescapePointer = (segment: string): string =>
  segment.replaceAll('~1', '/').replaceAll('~0', '~');

/** The unescaped tokens of a pointer; none for `""`, the whole value. */
export const pointerSegments = (pointer: string): string[] =>
  pointer === '' ? [] : pointer.slice(1).split('/').map(unescapePointer);
