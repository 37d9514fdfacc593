import { request as httpRequest } from 'node:http';
import { isDeepStrictEqual } from 'node:util';

/** A request of the docs, as curl would send it. */
export interface CurlRequest {
  method: string;
  url: URL;
  headers: Array<[string, string]>;
  body: string | undefined;
  /** `-i`: the documented output starts with the status line and the headers. */
  include: boolean;
}

/** An HTTP answer, as curl prints it. */
export interface HttpAnswer {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * Splits a shell command line into words as a POSIX shell does for the subset the docs
 * use: backslash-newline continuations, single quotes (literal), double quotes (with `\"`,
 * `\\`, `\$` and `` \` ``), backslash escapes outside quotes, and `#` comments. Variables and
 * command substitutions are refused: a documented request must be literal.
 */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  const text = command.replaceAll(/\\\r?\n/g, ' ');
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (char === '#' && word === undefined) {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (char === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) throw new Error(`Unterminated ' in: ${command}`);
      word = (word ?? '') + text.slice(i + 1, end);
      i = end;
    } else if (char === '"') {
      word ??= '';
      for (i++; i < text.length && text[i] !== '"'; i++) {
        if (text[i] === '\\' && '"\\$`'.includes(text[i + 1] ?? '')) word += text[++i];
        else if (text[i] === '$' || text[i] === '`') throw new Error(`No variables: ${command}`);
        else word += text[i];
      }
      if (i >= text.length) throw new Error(`Unterminated " in: ${command}`);
    } else if (char === '\\') {
      word = (word ?? '') + (text[++i] ?? '');
    } else if (char === '$' || char === '`') {
      throw new Error(`A documented request must be literal, without variables: ${command}`);
    } else {
      word = (word ?? '') + char;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** Reads a `curl` command line: `-s`, `-i`, `-X`, `-H`, `-d` and the URL. */
export function parseCurl(command: string): CurlRequest {
  const [program, ...args] = shellWords(command.trim());
  if (program !== 'curl') throw new Error(`Not a curl command: ${command}`);
  const headers: Array<[string, string]> = [];
  let method: string | undefined;
  let body: string | undefined;
  let url: string | undefined;
  let include = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value = () => {
      const next = args[++i];
      if (next === undefined) throw new Error(`${arg} without a value in: ${command}`);
      return next;
    };
    if (arg === '-H' || arg === '--header') {
      const header = value();
      const colon = header.indexOf(':');
      headers.push([header.slice(0, colon).trim(), header.slice(colon + 1).trim()]);
    } else if (arg === '-d' || arg === '--data' || arg === '--data-raw') {
      body = value();
    } else if (arg === '-X' || arg === '--request') {
      method = value();
    } else if (/^-[siSN]+$/.test(arg)) {
      include ||= arg.includes('i');
    } else if (arg === '--include') {
      include = true;
    } else if (arg === '--silent' || arg === '--no-buffer') {
      // no effect on what is sent or printed
    } else if (arg.startsWith('-')) {
      throw new Error(`The docs' curl parser does not know ${arg}: ${command}`);
    } else if (url === undefined) {
      url = arg;
    } else {
      throw new Error(`Two URLs in: ${command}`);
    }
  }
  if (!url) throw new Error(`No URL in: ${command}`);
  // As curl does: -d means POST, with a form content type unless a header says otherwise.
  const has = (name: string) => headers.some(([key]) => key.toLowerCase() === name);
  if (body !== undefined && !has('content-type')) {
    headers.push(['Content-Type', 'application/x-www-form-urlencoded']);
  }
  if (!has('accept')) headers.push(['Accept', '*/*']);
  return {
    method: method ?? (body === undefined ? 'GET' : 'POST'),
    url: new URL(url),
    headers,
    body,
    include,
  };
}

/** Sends a documented request to `origin` instead of the host it names. */
export function send(request: CurlRequest, origin: string): Promise<HttpAnswer> {
  const target = new URL(request.url.pathname + request.url.search, origin);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      target,
      { method: request.method, headers: Object.fromEntries(request.headers) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            statusText: res.statusMessage ?? '',
            headers: Object.fromEntries(
              Object.entries(res.headers).map(([name, value]) => [
                name,
                Array.isArray(value) ? value.join(', ') : (value ?? ''),
              ]),
            ),
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(request.body);
  });
}

/** The documented form of "anything here": a value, the rest of a text, more keys or items. */
export const ELLIPSIS = '...';

/**
 * Compares a documented value with the real one and returns the differences (empty when
 * they agree). Exact, except where the docs elide: the string `"..."` stands for any value,
 * a string ending in `...` for any text starting with what comes before, an object key
 * `"..."` for further keys, and a last array item `"..."` for further items.
 */
export function differences(documented: unknown, actual: unknown, path = ''): string[] {
  const at = path || '/';
  if (documented === ELLIPSIS) return [];
  if (typeof documented === 'string' && documented.endsWith(ELLIPSIS)) {
    const prefix = documented.slice(0, -ELLIPSIS.length);
    return typeof actual === 'string' && actual.startsWith(prefix)
      ? []
      : [`${at}: documented ${JSON.stringify(documented)}, got ${JSON.stringify(actual)}`];
  }
  if (Array.isArray(documented)) {
    if (!Array.isArray(actual))
      return [`${at}: documented an array, got ${JSON.stringify(actual)}`];
    const open = documented.at(-1) === ELLIPSIS;
    const items = open ? documented.slice(0, -1) : documented;
    if (open ? actual.length < items.length : actual.length !== items.length) {
      return [
        `${at}: documented ${items.length}${open ? ' or more' : ''} items, got ${actual.length}`,
      ];
    }
    return items.flatMap((item, index) => differences(item, actual[index], `${path}/${index}`));
  }
  if (documented !== null && typeof documented === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) {
      return [`${at}: documented an object, got ${JSON.stringify(actual)}`];
    }
    const real = actual as Record<string, unknown>;
    const shown = documented as Record<string, unknown>;
    const found = Object.keys(shown)
      .filter((key) => key !== ELLIPSIS)
      .flatMap((key) =>
        key in real
          ? differences(shown[key], real[key], `${path}/${key}`)
          : [`${path}/${key}: missing`],
      );
    const extra = ELLIPSIS in shown ? [] : Object.keys(real).filter((key) => !(key in shown));
    return [
      ...found,
      ...extra.map((key) => `${path}/${key}: not documented (${JSON.stringify(real[key])})`),
    ];
  }
  return isDeepStrictEqual(documented, actual)
    ? []
    : [`${at}: documented ${JSON.stringify(documented)}, got ${JSON.stringify(actual)}`];
}

/** A body as the docs show it: JSON, server-sent events with JSON data, or plain text. */
type Body =
  | { kind: 'json'; value: unknown }
  | { kind: 'events'; events: Array<{ event?: string; data: unknown }> }
  | { kind: 'text'; text: string };

function parseBody(text: string): Body {
  const trimmed = text.trim();
  if (/^(event|data|id):/m.test(trimmed.split('\n')[0] ?? '')) {
    const events = trimmed.split(/\n\s*\n/).map((chunk) => {
      const fields = chunk.split('\n').map((line) => {
        const colon = line.indexOf(':');
        return [line.slice(0, colon), line.slice(colon + 1).replace(/^ /, '')] as const;
      });
      const data = fields
        .filter(([name]) => name === 'data')
        .map(([, value]) => value)
        .join('\n');
      return { event: fields.find(([name]) => name === 'event')?.[1], data: parseBody(data) };
    });
    return {
      kind: 'events',
      events: events.map(({ event, data }) => ({
        event,
        data: data.kind === 'json' ? data.value : data.kind === 'text' ? data.text : data,
      })),
    };
  }
  try {
    return { kind: 'json', value: JSON.parse(trimmed) };
  } catch {
    return { kind: 'text', text: trimmed };
  }
}

/**
 * Headers whose values change from one run to the next: never compared, even when a page
 * shows one. Bodies have nothing volatile to remove: the sample's product ids are fixed
 * (sample/catalog/products.seed.ts), its version is 1.0.0, and no documented answer holds
 * a date, a duration or a session id; where a page leaves a value out, it writes `"..."`.
 */
export const VOLATILE_HEADERS = new Set(['date', 'etag', 'keep-alive', 'connection']);

/**
 * The differences between a documented output and the real answer, as curl would print it:
 * with `-i`, the status line and the headers shown (a line `...` allows others), then the
 * body; without, the body alone.
 */
export function outputDifferences(
  documented: string,
  answer: HttpAnswer,
  include: boolean,
): string[] {
  let body = documented;
  const problems: string[] = [];
  if (include) {
    const [head = '', ...rest] = documented.split(/\r?\n\r?\n/);
    body = rest.join('\n\n');
    const [statusLine = '', ...headerLines] = head.split(/\r?\n/);
    const real = `HTTP/1.1 ${answer.status} ${answer.statusText}`;
    if (statusLine.trim() !== real)
      problems.push(`status: documented "${statusLine}", got "${real}"`);
    const open = headerLines.some((line) => line.trim() === ELLIPSIS);
    const shown = headerLines.filter((line) => line.trim() !== ELLIPSIS);
    const names = new Set<string>();
    for (const line of shown) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      names.add(name);
      if (!(name in answer.headers)) problems.push(`header ${name}: missing`);
      else if (!VOLATILE_HEADERS.has(name)) {
        problems.push(...differences(value, answer.headers[name], `header ${name}`));
      }
    }
    if (!open) {
      const extra = Object.keys(answer.headers).filter((name) => !names.has(name));
      problems.push(...extra.map((name) => `header ${name}: not documented (add a line "...")`));
    }
  }
  const shown = parseBody(body);
  const real = parseBody(answer.body);
  if (shown.kind !== real.kind) {
    return [...problems, `body: documented ${shown.kind}, got ${real.kind}: ${answer.body}`];
  }
  if (shown.kind === 'json' && real.kind === 'json') {
    problems.push(...differences(shown.value, real.value).map((d) => `body ${d}`));
  } else if (shown.kind === 'events' && real.kind === 'events') {
    problems.push(...differences(shown.events, real.events).map((d) => `events ${d}`));
  } else if (shown.kind === 'text' && real.kind === 'text') {
    problems.push(...differences(shown.text, real.text).map((d) => `body ${d}`));
  }
  return problems;
}
