import Negotiator from 'negotiator';

/** How many distinct `Accept-Language` values are remembered (clients send few). */
const REMEMBERED = 512;

/**
 * Picks the locale of a request among those the server offers: `Accept-Language` with
 * q-values and `*` through `negotiator`, a region falling back to its language (`de-AT`
 * finds `de`), the default when nothing matches. The answer for a header value is
 * remembered, so a server pays for each distinct value once.
 */
export class LocaleNegotiator {
  /** The offered locales, the default first (what `*` and no header get). */
  private readonly offered: string[];
  private readonly answers = new Map<string, string>();

  constructor(
    readonly defaultLocale: string,
    locales: readonly string[],
  ) {
    this.offered = [defaultLocale, ...locales.filter((locale) => locale !== defaultLocale)];
  }

  get locales(): readonly string[] {
    return this.offered;
  }

  /** The locale for an `Accept-Language` header value; the default without one. */
  negotiate(acceptLanguage: string | readonly string[] | undefined): string {
    const header = Array.isArray(acceptLanguage) ? acceptLanguage.join(',') : acceptLanguage;
    if (typeof header !== 'string' || header.trim() === '') return this.defaultLocale;
    let answer = this.answers.get(header);
    if (answer === undefined) {
      answer =
        new Negotiator({ headers: { 'accept-language': header } }).language(this.offered) ??
        this.defaultLocale;
      // Forget everything at the cap rather than track use: a client that varies the
      // header on purpose only makes the server negotiate again.
      if (this.answers.size >= REMEMBERED) this.answers.clear();
      this.answers.set(header, answer);
    }
    return answer;
  }
}

/**
 * The locale the environment asks for, as POSIX reads it: `LC_ALL`, else `LC_MESSAGES`,
 * else `LANG`; `de_DE.UTF-8` is `de-DE`. `C` and `POSIX` ask for none.
 */
export function environmentLocale(env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const name of ['LC_ALL', 'LC_MESSAGES', 'LANG'] as const) {
    const value = env[name];
    if (!value) continue;
    const tag = value.split(/[.@]/)[0]!.replace(/_/g, '-');
    if (tag === 'C' || tag === 'POSIX' || !/^[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*$/.test(tag)) {
      return undefined;
    }
    return tag;
  }
  return undefined;
}
