import { callerLabel } from '../contract/caller-label.js';
import { ANONYMOUS_CALLER } from '../contract/mcp-contract.interface.js';
import { CliUsageError } from './cli-usage.error.js';

/** One caller of `nestjs-mcp contract`: the label the file records, the headers it sends. */
export interface ContractCaller {
  readonly label: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** A label before `=`: a header name cannot hold `=`, so `reader=Authorization: …` is unambiguous. */
const LABEL = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

const EXAMPLE = `--as 'Authorization: Bearer <token>' or --as reader='Authorization: Bearer <token>'`;

/**
 * Reads the `--as` flags: each is one caller, `Name: value` (labelled by its redacted
 * header) or `label=Name: value`; a label given again adds a header to the same caller, and
 * `anonymous` is the caller without headers. No flag: the anonymous caller alone.
 */
export function parseContractCallers(flags: readonly string[]): ContractCaller[] {
  if (flags.length === 0) return [{ label: ANONYMOUS_CALLER, headers: {} }];
  const named = new Map<string, Record<string, string>>();
  const callers: ContractCaller[] = [];
  for (const flag of flags) {
    if (flag.trim() === ANONYMOUS_CALLER) {
      add(callers, { label: ANONYMOUS_CALLER, headers: {} }, flag);
      continue;
    }
    const colon = flag.indexOf(':');
    const equals = flag.indexOf('=');
    const labelled = equals > 0 && (colon < 0 || equals < colon);
    const label = labelled ? flag.slice(0, equals).trim() : undefined;
    const header = labelled ? flag.slice(equals + 1) : flag;
    if (label !== undefined && !LABEL.test(label)) {
      throw new CliUsageError(
        `--as ${label}=…: the caller's label "${label}" may hold letters, digits, "_", "." and "-".`,
      );
    }
    if (label === ANONYMOUS_CALLER) {
      throw new CliUsageError(
        `--as ${label}=…: "${ANONYMOUS_CALLER}" is the caller without credentials; give yours another label.`,
      );
    }
    const [name, value] = splitHeader(header, flag);
    if (label === undefined) {
      add(callers, { label: callerLabel({ [name]: value }), headers: { [name]: value } }, flag);
      continue;
    }
    let headers = named.get(label);
    if (!headers) {
      headers = {};
      named.set(label, headers);
      callers.push({ label, headers });
    }
    if (name in headers) {
      throw new CliUsageError(
        `--as ${label}=…: the caller ${label} has the header ${name} twice; give it once.`,
      );
    }
    headers[name] = value;
  }
  return callers;
}

function splitHeader(header: string, flag: string): [string, string] {
  const colon = header.indexOf(':');
  const name = header.slice(0, colon).trim();
  if (colon <= 0 || !name || /\s/.test(name)) {
    throw new CliUsageError(
      `--as needs a header "Name: value" (or "anonymous"), for example ${EXAMPLE} (got "${masked(flag)}").`,
    );
  }
  return [name.toLowerCase(), header.slice(colon + 1).trim()];
}

/** What of a flag an error may show: its first word, since the rest may be a credential. */
const masked = (flag: string): string => {
  const first = flag.trim().split(/\s+/)[0] ?? '';
  return first.length < flag.trim().length ? `${first} …` : first.length > 12 ? '…' : first;
};

function add(callers: ContractCaller[], caller: ContractCaller, flag: string): void {
  if (callers.some((other) => other.label === caller.label)) {
    throw new CliUsageError(
      `--as ${masked(flag)} gives the caller ${caller.label} twice; give each caller once (to send several headers as one caller, label it: --as reader='Authorization: …' --as reader='X-Tenant: …').`,
    );
  }
  callers.push(caller);
}
