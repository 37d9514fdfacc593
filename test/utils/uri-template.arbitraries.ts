import fc from 'fast-check';

/**
 * Templates and URIs for the property tests of the URI matcher: small alphabets in which
 * the characters the SDK's regular expressions treat apart (`/`, `,`, `&`, `=`, `?`, `#`,
 * `.`, line terminators, regex metacharacters) are frequent, so that generated URIs often
 * match, often almost match, and often match in more than one way.
 */
const LITERAL_CHARACTERS = ['a', 'b', '.', '/', ',', '-', '?', '&', '=', '#', '%', '}', '(', '\n'];
const VALUE_CHARACTERS = ['a', 'b', '1', '.', '/', ',', '-', '?', '&', '=', '#', '%', '\n', '('];
const NAMES = ['a', 'b', 'id', 'x'];
const OPERATORS = ['', '', '+', '#', '.', '/', '?', '&'];

const text = (characters: readonly string[], maxLength: number) =>
  fc.array(fc.constantFrom(...characters), { maxLength }).map((chars) => chars.join(''));

/** One expression: an operator, one to three names (repeats allowed), maybe exploded. */
const expressionArbitrary = fc
  .record({
    operator: fc.constantFrom(...OPERATORS),
    names: fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 3 }),
    exploded: fc.boolean(),
  })
  .map(({ operator, names, exploded }) => `{${operator}${names.join(',')}${exploded ? '*' : ''}}`);

/** A template: a scheme, then up to five literal texts and expressions in any order. */
export const templateArbitrary: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      { arbitrary: text(LITERAL_CHARACTERS, 3), weight: 1 },
      { arbitrary: expressionArbitrary, weight: 2 },
    ),
    { minLength: 1, maxLength: 5 },
  )
  .map((parts) => `x://${parts.join('')}`);

/** A URI that may or may not match `template`: its expressions replaced by raw text. */
export const uriFor = (template: string): fc.Arbitrary<string> => {
  const pieces = template.split(/(\{[^}]*\})/);
  return fc
    .tuple(
      ...pieces.map((piece) =>
        piece.startsWith('{')
          ? filled(piece)
          : fc.oneof(
              { arbitrary: fc.constant(piece), weight: 6 },
              { arbitrary: text(LITERAL_CHARACTERS, 3), weight: 1 },
            ),
      ),
    )
    .map((filledPieces) => filledPieces.join(''));
};

/** What a URI may have where `expression` is: raw values, with the operator's prefix. */
function filled(expression: string): fc.Arbitrary<string> {
  const operator = /^\{([+#./?&]?)/.exec(expression)?.[1] ?? '';
  const names = expression
    .slice(1 + operator.length, -1)
    .replaceAll('*', '')
    .split(',');
  const value = text(VALUE_CHARACTERS, 4);
  if (operator === '?' || operator === '&') {
    return fc
      .tuple(...names.map(() => value))
      .map((values) =>
        values.map((v, index) => `${index === 0 ? operator : '&'}${names[index]}=${v}`).join(''),
      );
  }
  const prefix = operator === '.' || operator === '/' ? operator : '';
  return fc.oneof(
    { arbitrary: value.map((v) => prefix + v), weight: 4 },
    { arbitrary: value, weight: 1 },
  );
}

/** A URI: a template's filled form, or any short text after the scheme. */
export const templateAndUri: fc.Arbitrary<[string, string]> = templateArbitrary.chain((template) =>
  fc.tuple(
    fc.constant(template),
    fc.oneof(
      { arbitrary: uriFor(template), weight: 4 },
      { arbitrary: text(VALUE_CHARACTERS, 12).map((rest) => `x://${rest}`), weight: 1 },
    ),
  ),
);
