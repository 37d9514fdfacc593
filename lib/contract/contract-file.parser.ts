import { CONTRACT_VERSION, type McpContract } from './mcp-contract.interface.js';
import { CONTRACT_ENTRY_SHAPES } from './server-contract.builder.js';

/** A contract file that cannot be compared: not JSON, another version, or not the format. */
export class ContractFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ContractFileError';
  }
}

const REGENERATE = 'write it again with nestjs-mcp contract <module> --out <file>';

/**
 * Reads the text of a contract file. It checks the frame the comparison relies on (the
 * version, and each server's labels and lists) and nothing inside the entries, so that a
 * hand-edited entry shows up as a difference rather than as an error.
 */
export function parseContract(text: string, source = 'The contract file'): McpContract {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ContractFileError(
      `${source} is not JSON (${(error as Error).message}); ${REGENERATE}.`,
    );
  }
  if (!isObject(value)) {
    throw new ContractFileError(`${source} is not a contract (a JSON object); ${REGENERATE}.`);
  }
  if (value.contractVersion !== CONTRACT_VERSION) {
    throw new ContractFileError(
      `${source} has contractVersion ${JSON.stringify(value.contractVersion)}; this nestjs-mcp reads version ${CONTRACT_VERSION}: ${REGENERATE}.`,
    );
  }
  if (!Array.isArray(value.servers)) {
    throw new ContractFileError(`${source} has no "servers" list; ${REGENERATE}.`);
  }
  value.servers.forEach((server: unknown, index: number) => {
    const at = `${source}: servers[${index}]`;
    if (!isObject(server)) throw new ContractFileError(`${at} is not an object.`);
    for (const label of ['server', 'caller', 'locale']) {
      if (typeof server[label] !== 'string') {
        throw new ContractFileError(`${at} has no "${label}" string; ${REGENERATE}.`);
      }
    }
    for (const list of Object.keys(CONTRACT_ENTRY_SHAPES)) {
      if (!Array.isArray(server[list])) {
        throw new ContractFileError(`${at} has no "${list}" list; ${REGENERATE}.`);
      }
    }
  });
  return value as unknown as McpContract;
}

const isObject = (value: unknown): value is Record<string, any> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
