import { unknownOptionMessage } from '../messages/options.messages.js';
import { nearestName } from './nearest-name.js';
import { isOptionsObject } from './option-checks.js';
import { VALUE, type OptionKeys } from './option-keys.js';

/** A key the description knows, with where it lives. */
interface KnownKey {
  readonly key: string;
  /** The dotted path of the key, such as `http.guards`. */
  readonly path: string;
  /** The dotted path of its level, `''` at the top. */
  readonly level: string;
}

const join = (level: string, key: string): string => (level === '' ? key : `${level}.${key}`);

function knownKeys(keys: OptionKeys, level = ''): KnownKey[] {
  return Object.entries(keys).flatMap(([key, description]) => [
    { key, path: join(level, key), level },
    ...(description === VALUE ? [] : knownKeys(description, join(level, key))),
  ]);
}

/**
 * One problem for each key of `options`, at any level, that `keys` does not describe. Each
 * names the key's path and the option it was most likely meant to be: a key of the same
 * level written in another case, else one of another level of that name (a top-level
 * `path` is `http.path`), else a typo of a key of the same level, else of another level.
 * When nothing is close, the problem lists the level's valid options instead of a guess.
 */
export function unknownOptionProblems(options: object, keys: OptionKeys): string[] {
  const known = knownKeys(keys);
  const problems: string[] = [];
  const visit = (value: Record<string, unknown>, levelKeys: OptionKeys, level: string) => {
    for (const [key, nested] of Object.entries(value)) {
      const description = Object.hasOwn(levelKeys, key) ? levelKeys[key] : undefined;
      if (description === undefined) {
        const suggestion = suggest(key, level, known);
        problems.push(
          unknownOptionMessage(
            join(level, key),
            suggestion,
            level,
            known.filter((entry) => entry.level === level).map((entry) => entry.key),
          ),
        );
      } else if (description !== VALUE && isOptionsObject(nested)) {
        visit(nested, description, join(level, key));
      }
    }
  };
  if (isOptionsObject(options)) visit(options, keys, '');
  return problems;
}

function suggest(key: string, level: string, known: readonly KnownKey[]): string | undefined {
  const here = known.filter((entry) => entry.level === level);
  const elsewhere = known.filter((entry) => entry.level !== level);
  const sameName = (entries: readonly KnownKey[]) =>
    entries.find((entry) => entry.key.toLowerCase() === key.toLowerCase());
  const typo = (entries: readonly KnownKey[]) => {
    const nearest = nearestName(
      key,
      entries.map((entry) => entry.key),
    );
    return entries.find((entry) => entry.key === nearest);
  };
  return (sameName(here) ?? sameName(elsewhere) ?? typo(here) ?? typo(elsewhere))?.path;
}
