import { UriTemplate, type Variables } from '@modelcontextprotocol/server';

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
 * Matches URIs against an RFC 6570 template with the SDK's `UriTemplate`, and completes it
 * where reading a URI needs more than the SDK's matcher gives:
 * - values are percent-decoded (`x://{id}` read as `x://a%20b` gives `"a b"`), as expansion
 *   encoded them;
 * - the variables of a trailing form-style query (`{?page,limit}`) are optional and may come
 *   in any order, as expansion leaves undefined ones out; query parameters the template does
 *   not name are ignored.
 */
export class UriTemplateMatcher {
  private readonly template: UriTemplate;
  private readonly path?: UriTemplate;
  private readonly queryNames: readonly string[] = [];

  constructor(template: string) {
    this.template = new UriTemplate(template);
    const query = TRAILING_QUERY.exec(template);
    if (query) {
      this.path = new UriTemplate(template.slice(0, query.index));
      this.queryNames = query[1].split(',').map((name) => name.replace(/\*$/, '').trim());
    }
  }

  get variableNames(): string[] {
    return this.template.variableNames;
  }

  /** The variables of `uri`, decoded, or `null` when the template does not match it. */
  match(uri: string): Record<string, string | string[]> | null {
    const exact = this.template.match(uri);
    if (exact) return decoded(exact);
    if (!this.path) return null;
    const separator = uri.indexOf('?');
    const matched = this.path.match(separator === -1 ? uri : uri.slice(0, separator));
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

function decoded(variables: Variables): Record<string, string | string[]> {
  return Object.fromEntries(
    Object.entries(variables).map(([name, value]) => [
      name,
      Array.isArray(value) ? value.map(decode) : decode(value),
    ]),
  );
}
