import { describe, expect, it } from 'vitest';
import { ContractFileError, parseContract } from '../../lib/contract/contract-file.parser.js';

const SERVER = {
  server: 'catalog',
  caller: 'reader',
  locale: 'default',
  tools: [],
  prompts: [],
  resources: [],
  resourceTemplates: [],
};

const attempt = (text: string) => () => parseContract(text, 'mcp-contract.json');

describe('parseContract', () => {
  it('reads a version 1 file as it is', () => {
    const file = { contractVersion: 1, servers: [SERVER] };
    expect(parseContract(JSON.stringify(file))).toEqual(file);
  });

  it.each([
    ['{"contractVersion":1,', 'mcp-contract.json is not JSON'],
    ['[]', 'mcp-contract.json is not a contract (a JSON object)'],
    [
      '{"servers":[]}',
      'mcp-contract.json has contractVersion undefined; this nestjs-mcp reads version 1',
    ],
    ['{"contractVersion":2,"servers":[]}', 'has contractVersion 2'],
    ['{"contractVersion":1}', 'mcp-contract.json has no "servers" list'],
    ['{"contractVersion":1,"servers":[1]}', 'mcp-contract.json: servers[0] is not an object'],
    [
      JSON.stringify({ contractVersion: 1, servers: [{ ...SERVER, caller: undefined }] }),
      'servers[0] has no "caller" string',
    ],
    [
      JSON.stringify({ contractVersion: 1, servers: [{ ...SERVER, resourceTemplates: {} }] }),
      'servers[0] has no "resourceTemplates" list',
    ],
  ])('refuses %s, saying what is wrong and how to write it again', (text, message) => {
    expect(attempt(text)).toThrow(ContractFileError);
    expect(attempt(text)).toThrow(message);
    if (!message.includes('servers[0] is not')) {
      expect(attempt(text)).toThrow('nestjs-mcp contract <module> --out <file>');
    }
  });
});
