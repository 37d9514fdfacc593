import { isNonEmptyString } from '../utils/value-checks.util.js';
import { booleanProblem, isOptionsObject } from './option-checks.js';

/**
 * A reverse-DNS server name, `namespace/name`, as the Server Card and the MCP Registry's
 * `server.json` both define it (`name`: 3 to 200 characters, one slash).
 */
const REVERSE_DNS_NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;
/** `description` and `title` of the card and of `server.json`: 1 to 100 characters. */
const MAX_TEXT_LENGTH = 100;
/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const json = (value: unknown) => JSON.stringify(value);

/** Whether a value is an absolute `http:` or `https:` URL. */
const isHttpUrl = (value: unknown): boolean =>
  typeof value === 'string' && URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);

/**
 * The problems of the `discovery` option and of `http.publicUrl`, the URL the card names
 * the endpoint at (their unknown keys are reported with the others).
 */
export function discoveryOptionsProblems(discovery: unknown, http: unknown): string[] {
  const problems = publicUrlProblems(isOptionsObject(http) ? http.publicUrl : undefined);
  if (discovery === undefined) return problems;
  if (!isOptionsObject(discovery)) {
    return [...problems, `"discovery" must be an object such as { name: 'com.example/catalog' }`];
  }
  const { name, title, description, websiteUrl } = discovery;
  if (
    typeof name !== 'string' ||
    !REVERSE_DNS_NAME.test(name) ||
    name.length < 3 ||
    name.length > 200
  ) {
    problems.push(
      `"discovery.name" must be the server's name in reverse-DNS form, namespace/name, such as ` +
        `'com.example/catalog' (a domain you own, reversed) or 'io.github.alice/catalog' ` +
        `(got ${json(name)})`,
    );
  }
  for (const [key, value] of [
    ['title', title],
    ['description', description],
  ] as const) {
    if (value !== undefined && !(isNonEmptyString(value) && value.length <= MAX_TEXT_LENGTH)) {
      problems.push(
        `"discovery.${key}" must be a text of 1 to ${MAX_TEXT_LENGTH} characters (got ${json(value)})`,
      );
    }
  }
  if (websiteUrl !== undefined && !isHttpUrl(websiteUrl)) {
    problems.push(
      `"discovery.websiteUrl" must be an http(s) URL such as 'https://example.com/docs' (got ${json(websiteUrl)})`,
    );
  }
  for (const key of ['card', 'aiCatalog'] as const) {
    const problem = booleanProblem(`discovery.${key}`, discovery[key]);
    if (problem) problems.push(problem);
  }
  problems.push(...repositoryProblems(discovery.repository));
  problems.push(...iconsProblems(discovery.icons));
  problems.push(...headersProblems(discovery.headers));
  return problems;
}

/** `http.publicUrl`: where clients reach the app, a base URL without query or fragment. */
function publicUrlProblems(publicUrl: unknown): string[] {
  if (publicUrl === undefined) return [];
  const url = isHttpUrl(publicUrl) ? new URL(publicUrl as string) : undefined;
  if (url && url.search === '' && url.hash === '' && url.username === '' && url.password === '') {
    return [];
  }
  return [
    `"http.publicUrl" must be the app's public base URL, scheme and host (and any path a proxy ` +
      `puts before the app's routes), without query or credentials, such as ` +
      `'https://mcp.example.com' (got ${json(publicUrl)})`,
  ];
}

function repositoryProblems(repository: unknown): string[] {
  if (repository === undefined) return [];
  const example = "such as { url: 'https://github.com/acme/catalog', source: 'github' }";
  if (!isOptionsObject(repository)) return [`"discovery.repository" must be an object ${example}`];
  const problems: string[] = [];
  if (!isHttpUrl(repository.url)) {
    problems.push(`"discovery.repository.url" must be an http(s) URL, ${example}`);
  }
  if (!isNonEmptyString(repository.source)) {
    problems.push(`"discovery.repository.source" must name the host, ${example}`);
  }
  for (const key of ['subfolder', 'id'] as const) {
    if (repository[key] !== undefined && !isNonEmptyString(repository[key])) {
      problems.push(`"discovery.repository.${key}" must be a non-empty string`);
    }
  }
  return problems;
}

function iconsProblems(icons: unknown): string[] {
  if (icons === undefined) return [];
  const valid =
    Array.isArray(icons) &&
    icons.every(
      (icon) =>
        isOptionsObject(icon) &&
        typeof icon.src === 'string' &&
        URL.canParse(icon.src) &&
        /^(https|data):$/.test(new URL(icon.src).protocol) &&
        (icon.theme === undefined || icon.theme === 'light' || icon.theme === 'dark') &&
        (icon.sizes === undefined ||
          (Array.isArray(icon.sizes) && icon.sizes.every((size) => typeof size === 'string'))),
    );
  return valid
    ? []
    : [
        `"discovery.icons" must be an array of icons such as [{ src: 'https://example.com/icon.png', mimeType: 'image/png', sizes: ['48x48'] }] (src an https: or data: URL)`,
      ];
}

/**
 * `discovery.headers`: what a client sends. A secret's `value` must be a template
 * (`Bearer {token}`): anything else would publish the secret in a public document.
 */
function headersProblems(headers: unknown): string[] {
  if (headers === undefined) return [];
  const example =
    "such as [{ name: 'Authorization', value: 'Bearer {token}', isRequired: true, isSecret: true }]";
  if (!Array.isArray(headers))
    return [`"discovery.headers" must be an array of headers ${example}`];
  const problems: string[] = [];
  for (const [index, header] of headers.entries()) {
    const where = `"discovery.headers[${index}]"`;
    if (!isOptionsObject(header) || typeof header.name !== 'string') {
      problems.push(`${where} must be an object with a name, ${example}`);
    } else if (!HEADER_NAME.test(header.name)) {
      problems.push(`${where}.name must be an HTTP header name (got ${json(header.name)})`);
    } else if (
      header.isSecret === true &&
      typeof header.value === 'string' &&
      !/\{[a-zA-Z_][a-zA-Z0-9_]*\}/.test(header.value)
    ) {
      problems.push(
        `${where}.value holds a secret, which the card and server.json would publish: write ` +
          `where it goes instead, such as value: 'Bearer {token}' with variables: { token: { isSecret: true } }`,
      );
    }
  }
  return problems;
}
