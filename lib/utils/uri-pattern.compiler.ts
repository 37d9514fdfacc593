/**
 * An RFC 6570 URI template compiled once into what reading a URI against it needs: the
 * literal text it starts with, then its captures, each followed by the literal text up to the
 * next capture. It restates, capture by capture, the regular expression that the MCP SDK's
 * `UriTemplate.match` builds on every call (`partToRegExp`, SDK 2.4.0, reviewed against its
 * `dist`), so that `matchUriPattern()` (uri-pattern.matcher.ts) finds the same variables in
 * time linear in the URI's length.
 *
 * | expression            | SDK regular expression         | here                                   |
 * | --------------------- | ------------------------------ | -------------------------------------- |
 * | `{a}`                 | `([^/,]+)`                     | a run of characters other than `/` `,` |
 * | `{a*}`                | `([^/,]+(?:,[^/,]+)*)`         | a list: such runs joined by single `,` |
 * | `{+a}`, `{#a}`        | `(.+)`                         | a run of non-line-terminators          |
 * | `{.a}`                | `\.([^/,]+)`                   | the literal `.`, then a run            |
 * | `{/a}`, `{/a*}`       | `/([^/,]+)`, `/(list)`         | the literal `/`, then a run or a list  |
 * | `{?a,b}`, `{&a,b}`    | `\?a=([^&]+)&b=([^&]+)`        | literal `?a=`, a run of non-`&`, ...   |
 *
 * As in the SDK, an expression other than `?` and `&` captures its first variable only, and an
 * exploded variable's value containing `,` is split there.
 */

/** Whether a capture lets its value contain a character (a UTF-16 code unit). */
export type CharacterTest = (code: number) => boolean;

const SLASH = 0x2f;
const COMMA = 0x2c;
const AMPERSAND = 0x26;

/** `[^/,]`: simple, label and path-segment values. */
const NOT_SLASH_OR_COMMA: CharacterTest = (code) => code !== SLASH && code !== COMMA;
/** `.` without the `s` flag: reserved and fragment values. */
const NOT_LINE_TERMINATOR: CharacterTest = (code) =>
  code !== 0x0a && code !== 0x0d && code !== 0x2028 && code !== 0x2029;
/** `[^&]`: query values. */
const NOT_AMPERSAND: CharacterTest = (code) => code !== AMPERSAND;

/** One variable the URI gives a value to. */
export interface UriCapture {
  /** The variable's name, the key of its value. */
  readonly name: string;
  /** The expression it comes from, as the template writes it (`{name}`, `{?page,limit}`). */
  readonly expression: string;
  /** Where that expression starts and ends (after its `}`) in the template. */
  readonly start: number;
  readonly end: number;
  readonly operator: string;
  /**
   * `run`: one or more characters that `allows` accepts; `list`: runs of them joined by
   * single commas (an exploded simple or path-segment expression).
   */
  readonly kind: 'run' | 'list';
  readonly allows: CharacterTest;
  /** An exploded variable (`*`): a value with commas is a list. */
  readonly exploded: boolean;
  /** The literal text that must follow the value: up to the next capture, or to the end. */
  readonly after: string;
}

/** A compiled template: `lead`, then each capture followed by its `after`. */
export interface UriPattern {
  readonly template: string;
  readonly lead: string;
  readonly captures: readonly UriCapture[];
  /** The shortest URI it can match (each capture takes one character at least). */
  readonly minLength: number;
}

const OPERATORS = ['+', '#', '.', '/', '?', '&'] as const;

interface Expression {
  readonly text: string;
  readonly start: number;
  readonly end: number;
  readonly operator: string;
  readonly names: readonly string[];
  readonly exploded: boolean;
}

/**
 * Compiles `template` as the SDK parses it. A template the SDK's constructor refuses should
 * be refused there first (unclosed expressions, lengths); this throws, in addition, for an
 * expression without a variable (`{}`, `{+}`) other than a query, which the SDK accepts but
 * fails to match with (a `TypeError` reading the URI).
 */
export function compileUriPattern(template: string): UriPattern {
  let lead = '';
  const captures: Array<Omit<UriCapture, 'after'> & { after: string }> = [];
  const literal = (text: string) => {
    const last = captures.at(-1);
    if (last) last.after += text;
    else lead += text;
  };
  for (const part of partsOf(template)) {
    if (typeof part === 'string') {
      literal(part);
      continue;
    }
    const { text: expression, start, end, operator, names, exploded } = part;
    const capture = (name: string, kind: 'run' | 'list', allows: CharacterTest) =>
      captures.push({
        name: name.replace('*', ''),
        expression,
        start,
        end,
        operator,
        kind,
        allows,
        exploded,
        after: '',
      });
    if (operator === '?' || operator === '&') {
      for (const [index, name] of names.entries()) {
        literal(`${index === 0 ? operator : '&'}${name}=`);
        capture(name, 'run', NOT_AMPERSAND);
      }
      continue;
    }
    const [name] = names;
    if (name === undefined) throw new Error(`The expression ${expression} names no variable`);
    if (operator === '+' || operator === '#') {
      capture(name, 'run', NOT_LINE_TERMINATOR);
      continue;
    }
    if (operator === '.' || operator === '/') literal(operator);
    const list = exploded && operator !== '.';
    capture(name, list ? 'list' : 'run', NOT_SLASH_OR_COMMA);
  }
  const literalLength = lead.length + captures.reduce((sum, { after }) => sum + after.length, 0);
  return { template, lead, captures, minLength: literalLength + captures.length };
}

/** The template's literal texts and expressions, in order, as the SDK's `parse` splits it. */
function partsOf(template: string): Array<string | Expression> {
  const parts: Array<string | Expression> = [];
  let index = 0;
  while (index < template.length) {
    const start = template.indexOf('{', index);
    if (start === -1) {
      parts.push(template.slice(index));
      break;
    }
    if (start > index) parts.push(template.slice(index, start));
    const close = template.indexOf('}', start);
    if (close === -1) throw new Error('Unclosed template expression');
    const body = template.slice(start + 1, close);
    const operator = OPERATORS.find((candidate) => body.startsWith(candidate)) ?? '';
    const names = body
      .slice(operator.length)
      .split(',')
      .map((name) => name.replace('*', '').trim())
      .filter((name) => name.length > 0);
    parts.push({
      text: `{${body}}`,
      start,
      end: close + 1,
      operator,
      names,
      exploded: body.includes('*'),
    });
    index = close + 1;
  }
  return parts;
}
