import { GERMAN_TITLES } from '../apps/i18n.setup.js';
import type { Target, VariantReport } from './report.js';
import type { ServerHandle } from './server-handle.js';
import { median, round } from './stats.js';
import {
  expectCallResult,
  expectToolCount,
  VARIANTS,
  type LoadVariant,
  type ServerKey,
} from './variants.js';
import { callRequest, listRequest, messageOf, type WireRequest } from './wire.js';

// The localization bench (j), issue 13 item 6: "the bench shows list and call with
// `Accept-Language` within 5% of without". Ours with `i18n` (German texts, English the
// default) answering `tools/call` and the 100-tool `tools/list` on the 2026-07-28 wire, with
// no `Accept-Language` and with `Accept-Language: de`, each pair on the same server.

export const I18N_EXPERIMENT = {
  /**
   * Rounds when run alone (`--rounds N` overrides; a multiple of 6 gives each variant every
   * place in the order equally often); the full run uses its mode's rounds.
   */
  rounds: 12,
  /** Seconds of unmeasured load on each variant before the first round, when run alone. */
  primeS: 3,
  /** The most CPU per request `Accept-Language: de` may cost, as a ratio to no header. */
  maxCpuRatio: 1.05,
} as const;

const withGerman = (request: WireRequest): WireRequest => ({
  ...request,
  headers: { ...request.headers, 'accept-language': 'de' },
});

/** Throws unless a list answer carries the titles of the language asked for. */
const expectTitles = (german: boolean) => (message: Record<string, any>) => {
  expectToolCount(100)(message);
  for (const [name, title] of Object.entries(GERMAN_TITLES)) {
    const listed = message.result.tools.find((tool: any) => tool.name === name)?.title;
    if ((listed === title) !== german)
      throw new Error(
        `${name}: expected ${german ? `"${title}"` : 'the English'}, got "${listed}"`,
      );
  }
};

const baseline = (id: string) => VARIANTS.find((variant) => variant.id === id)!;

const callVariant = (german: boolean): LoadVariant => ({
  id: german ? 'j-call-de' : 'j-call',
  label: `(j) ours i18n call, ${german ? 'de' : 'no A-L'}`,
  server: 'i18n',
  request: german ? withGerman(callRequest('modern')) : callRequest('modern'),
  check: expectCallResult,
});
const listVariant = (german: boolean): LoadVariant => ({
  id: german ? 'j-list-100-de' : 'j-list-100',
  label: `(j) ours i18n list 100, ${german ? 'de' : 'no A-L'}`,
  server: 'i18n-list100',
  request: german ? withGerman(listRequest('modern')) : listRequest('modern'),
  check: expectTitles(german),
});

/**
 * The variants of (j); `alone` adds the app without `i18n` (c-2026, d-list-100), which the
 * full run has anyway. The order keeps the two variants of a server apart, and with the
 * rotation of `--only i18n` each of a pair runs first in half the rounds (with the pairs
 * side by side, `de`, always second but in one round of six, came out 2 to 16 % cheaper).
 */
export function i18nVariants(alone: boolean): LoadVariant[] {
  return [
    ...(alone ? [baseline('c-2026')] : []),
    callVariant(false),
    listVariant(true),
    ...(alone ? [baseline('d-list-100')] : []),
    callVariant(true),
    listVariant(false),
  ];
}

/**
 * Before measuring: every (j) answer is right (titles in its language) and says its language
 * with `Content-Language` and `Vary: Accept-Language`. Returns the body size of each.
 */
export async function checkLocalizedAnswers(
  variants: readonly LoadVariant[],
  servers: Partial<Record<ServerKey, ServerHandle>>,
): Promise<Record<string, number>> {
  const bytes: Record<string, number> = {};
  for (const variant of variants) {
    const { request } = variant;
    const response = await fetch(servers[variant.server]!.url + request.path, {
      method: request.method,
      headers: request.headers,
      body: request.body,
    });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`${variant.id}: HTTP ${response.status}`);
    variant.check(messageOf(response.headers.get('content-type'), text));
    bytes[variant.id] = Buffer.byteLength(text);
    if (!variant.id.startsWith('j-')) continue;
    const expected = variant.id.endsWith('-de') ? 'de' : 'en';
    const language = response.headers.get('content-language');
    const vary = response.headers.get('vary') ?? '';
    if (language !== expected || !/accept-language/i.test(vary))
      throw new Error(
        `${variant.id}: expected Content-Language ${expected} and Vary: Accept-Language, got ${language} and "${vary}"`,
      );
  }
  return bytes;
}

export interface I18nComparison {
  of: string;
  to: string;
  /** CPU ms per request of `of` ÷ that of `to`, both medians across rounds. */
  cpuPerRequest: number;
  /** The median of the same ratio taken round by round. */
  cpuPerRequestPaired: number;
  /** requests/s of `of` ÷ that of `to`, for information. */
  requestsPerSecond: number;
  /** Whether the issue's 5 % applies (else for information). */
  judged: boolean;
}

export interface I18nSection {
  comparisons: I18nComparison[];
  /** Response body bytes of each variant, as checked before measuring. */
  bytes: Record<string, number>;
  targets: Target[];
}

const COMPARED = [
  { of: 'j-call-de', to: 'j-call', judged: true },
  { of: 'j-list-100-de', to: 'j-list-100', judged: true },
  { of: 'j-call', to: 'c-2026', judged: false },
  { of: 'j-list-100', to: 'd-list-100', judged: false },
] as const;

/** The ratios of (j) and the issue's targets (Accept-Language: de ÷ none, call and list). */
export function evaluateI18n(
  variants: readonly VariantReport[],
  bytes: Record<string, number>,
): I18nSection {
  const find = (id: string) => variants.find((variant) => variant.id === id);
  const comparisons = COMPARED.flatMap(({ of, to, judged }): I18nComparison[] => {
    const a = find(of);
    const b = find(to);
    if (!a || !b) return [];
    const paired = a.rounds.map(
      (sample, index) => sample.cpuMsPerRequest / b.rounds[index]!.cpuMsPerRequest,
    );
    return [
      {
        of,
        to,
        cpuPerRequest: round(a.median.cpuMsPerRequest / b.median.cpuMsPerRequest),
        cpuPerRequestPaired: round(median(paired)),
        requestsPerSecond: round(a.median.requestsPerSecond / b.median.requestsPerSecond),
        judged,
      },
    ];
  });
  const rounds = variants[0]?.rounds.length ?? 0;
  const targets = comparisons
    .filter((comparison) => comparison.judged)
    .map((comparison): Target => {
      const what = comparison.of.startsWith('j-call') ? 'tools/call' : 'list 100';
      const notes = [
        `round by round: ${comparison.cpuPerRequestPaired.toFixed(3)}`,
        ...(rounds < I18N_EXPERIMENT.rounds
          ? [`${rounds} rounds: judge on ${I18N_EXPERIMENT.rounds} or more (--only i18n)`]
          : []),
      ];
      return {
        id: `i18n-${comparison.of.startsWith('j-call') ? 'call' : 'list-100'}`,
        description: `(j) ${what}, Accept-Language: de <= ${I18N_EXPERIMENT.maxCpuRatio} x none`,
        value: comparison.cpuPerRequest,
        comparison: '<=',
        threshold: I18N_EXPERIMENT.maxCpuRatio,
        unit: 'x (CPU)',
        pass: comparison.cpuPerRequest <= I18N_EXPERIMENT.maxCpuRatio,
        requestsPerSecondValue: comparison.requestsPerSecond,
        note: notes.join('; '),
      };
    });
  return { comparisons, bytes, targets };
}

/** The (j) lines of a report: body sizes and ratios. */
export function i18nLines(section: I18nSection): string[] {
  const lines = [
    '',
    'localization (j): response bytes ' +
      Object.entries(section.bytes)
        .map(([id, bytes]) => `${id} ${bytes}`)
        .join(', '),
    '',
    'localization ratios                 of / to                        CPU/req  round by round   req/s',
  ];
  for (const comparison of section.comparisons) {
    lines.push(
      `  ${(comparison.judged ? 'target' : 'info').padEnd(6)} ${`${comparison.of} / ${comparison.to}`.padEnd(52)} ` +
        `${comparison.cpuPerRequest.toFixed(3).padStart(7)} ` +
        `${comparison.cpuPerRequestPaired.toFixed(3).padStart(15)} ${comparison.requestsPerSecond.toFixed(2).padStart(7)}`,
    );
  }
  lines.push(
    '  (CPU/req above 1: the first costs more per request; "info": i18n against the app without it)',
  );
  return lines;
}
