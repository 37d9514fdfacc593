import {
  CLIENT_CAPABILITIES_META_KEY,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
} from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { extensionRequired } from '../../lib/errors/extension-required.error.js';

const what = 'The method "com.example/audit.recent"';
const id = 'com.example/audit';

describe('extensionRequired', () => {
  it.each(['modern', 'legacy'] as const)(
    'is the -32021 missing-capability error, naming the extension in its data (%s)',
    (era) => {
      const error = extensionRequired(what, id, era);
      expect(error).toBeInstanceOf(MissingRequiredClientCapabilityError);
      expect(error).toBeInstanceOf(ProtocolError);
      expect(error.code).toBe(-32021);
      expect(error.code).toBe(ProtocolErrorCode.MissingRequiredClientCapability);
      expect(error.data).toEqual({ requiredCapabilities: { extensions: { [id]: {} } } });
      expect(error.requiredCapabilities).toEqual({ extensions: { [id]: {} } });
    },
  );

  it('tells a 2026-07-28 caller to declare the extension in the _meta of its request', () => {
    expect(extensionRequired(what, id, 'modern').message).toBe(
      `${what} needs the extension "${id}": declare "${id}" in ` +
        `params._meta["io.modelcontextprotocol/clientCapabilities"].extensions.`,
    );
    expect(extensionRequired(what, id, 'modern').message).toContain(
      `params._meta["${CLIENT_CAPABILITIES_META_KEY}"].extensions`,
    );
  });

  it('tells a 2025 caller to declare it in initialize, on a connection that keeps it', () => {
    const message = extensionRequired(what, id, 'legacy').message;
    expect(message).toBe(
      `${what} needs the extension "${id}": declare "${id}" in capabilities.extensions of ` +
        `initialize, on a connection that keeps it (stdio or a 2025 session).`,
    );
    expect(message).not.toContain('_meta');
  });

  it('names only the extension it was given', () => {
    const error = extensionRequired('The tool "export"', 'org.acme/exports', 'modern');
    expect(error.data).toEqual({
      requiredCapabilities: { extensions: { 'org.acme/exports': {} } },
    });
    expect(error.message).toMatch(/^The tool "export" needs the extension "org\.acme\/exports"/);
  });
});
