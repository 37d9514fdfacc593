/**
 * The origin a value names, serialized as browsers send it in `Origin` (RFC 6454 §6.1):
 * `scheme://host[:port]`, lower case, the scheme's default port left out. `undefined` for
 * anything that is not exactly an origin: no scheme or host, a path, a query, a fragment,
 * credentials, or the opaque origin `null`. One trailing `/` is allowed.
 * @example webOrigin('HTTPS://App.example.com:443') === 'https://app.example.com'
 */
export function webOrigin(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  const bare =
    url.host !== '' &&
    (url.pathname === '' || url.pathname === '/') &&
    url.search === '' &&
    url.hash === '' &&
    url.username === '' &&
    url.password === '' &&
    !/[?#]/.test(value);
  return bare ? `${url.protocol}//${url.host}` : undefined;
}

/** The port of an origin, the scheme's default when it names none (`http` 80, `https` 443). */
export function originPort(origin: string): string {
  const url = new URL(origin);
  return url.port !== '' ? url.port : url.protocol === 'https:' ? '443' : '80';
}
