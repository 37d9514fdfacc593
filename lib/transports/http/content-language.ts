import type { McpLocalization } from '../../localization/mcp-localization.js';
import type { HttpExchange } from './http-exchange.factory.js';

/**
 * The locale of one MCP HTTP request (the translation source's resolvers, else
 * `Accept-Language`), announced on its answer whatever it is: `Content-Language` with the
 * locale used (the default when nothing matched) and `Vary: Accept-Language`, so that
 * caches keep the languages apart. Only with `i18n`: without it the answers are the same
 * for every `Accept-Language` and carry neither header.
 */
export function negotiateLocale(localization: McpLocalization, exchange: HttpExchange): string {
  const { request, response } = exchange;
  const locale = localization.localeOfRequest(
    exchange.platformRequest,
    request.headers['accept-language'],
  );
  response.setHeader('content-language', locale);
  const vary = response.getHeader('vary');
  if (vary === undefined) response.setHeader('vary', 'Accept-Language');
  else if (!/(^|,)\s*(accept-language|\*)\s*(,|$)/i.test(String(vary))) {
    response.setHeader('vary', `${String(vary)}, Accept-Language`);
  }
  return locale;
}
