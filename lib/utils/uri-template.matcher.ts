import { UriTemplate } from '@modelcontextprotocol/server';
import {
  ambiguitiesOf,
  separatedTemplate,
  type UriTemplateAmbiguity,
} from './uri-pattern.ambiguity.js';
import { compileUriPattern, type UriPattern } from './uri-pattern.compiler.js';
import { matchUriPattern, type MatchMeter, type RawVariables } from './uri-pattern.matcher.js';

/** A form-style query expression at the end of a template: `{?page,limit}`. */
const TRAILING_QUERY = /\{\?([^}]+)\}$/;

const decode = (value: string): string => {
  try {
    return decodeURIComponent(value);
  } catch {
    return value; // Not valid percent-encoding: taken as it was sent.
  }
};

/**
 * Matches URIs against an RFC 6570 template as the SDK's `UriTemplate.match` does (the
 * same variables), with a matcher compiled once per template whose work is linear in the
 * URI's length (uri-pattern.matcher.ts), and completes it where reading a URI needs more:
 * - values are percent-decoded (`x://{id}` read as `x://a%20b` gives `"a b"`), as expansion
 *   encoded them;
 * - the variables of a trailing form-style query (`{?page,limit}`) are optional and may come
 *   in any order, as expansion leaves undefined ones out; query parameters the template does
 *   not name are ignored.
 *
 * Where the template lets a URI be read two ways (`{name}.{ext}`, see `ambiguities`), the
 * first expression takes the longest value the rest of the URI allows, as in the SDK.
 */
export class UriTemplateMatcher {
  private readonly template: UriTemplate;
  private readonly pattern: UriPattern;
  private readonly path?: UriPattern;
  private readonly queryNames: readonly string[] = [];

  constructor(template: string) {
    // The SDK's parser refuses what it cannot read (an unclosed expression, ...).
    this.template = new UriTemplate(template);
    this.pattern = compileUriPattern(template);
    const query = TRAILING_QUERY.exec(template);
    if (query) {
      this.path = compileUriPattern(template.slice(0, query.index));
      this.queryNames = query[1].split(',').map((name) => name.replace(/\*$/, '').trim());
    }
  }

  get variableNames(): string[] {
    return this.template.variableNames;
  }

  /** The neighbouring expressions whose values a URI cannot tell apart; none when it always can. */
  get ambiguities(): UriTemplateAmbiguity[] {
    return ambiguitiesOf(this.pattern);
  }

  /** The template with a `/` between each ambiguous pair, when that separates them. */
  get separated(): string | undefined {
    return separatedTemplate(this.pattern);
  }

  /**
   * The variables of `uri`, decoded, or `null` when the template does not match it.
   * @param meter counts the matcher's steps (for tests)
   */
  match(uri: string, meter?: MatchMeter): Record<string, string | string[]> | null {
    const exact = matchUriPattern(this.pattern, uri, meter);
    if (exact) return decoded(exact);
    if (!this.path) return null;
    const separator = uri.indexOf('?');
    const matched = matchUriPattern(
      this.path,
      separator === -1 ? uri : uri.slice(0, separator),
      meter,
    );
    if (!matched) return null;
    const variables = decoded(matched);
    const params = new URLSearchParams(separator === -1 ? '' : uri.slice(separator + 1));
    for (const name of this.queryNames) {
      const values = params.getAll(name);
      if (values.length === 1) variables[name] = values[0];
      else if (values.length > 1) variables[name] = values;
    }
    return variables;
  }
}

function decoded(variables: RawVariables): Record<string, string | string[]> {
  return Object.fromEntries(
    Object.entries(variables).map(([name, value]) => [
      name,
      Array.isArray(value) ? value.map(decode) : decode(value),
    ]),
  );
}
