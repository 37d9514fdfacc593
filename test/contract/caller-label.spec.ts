import { describe, expect, it } from 'vitest';
import { callerLabel } from '../../lib/contract/caller-label.js';

describe('callerLabel', () => {
  it('is anonymous without headers', () => {
    expect(callerLabel()).toBe('anonymous');
    expect(callerLabel({})).toBe('anonymous');
    expect(callerLabel({ authorization: undefined })).toBe('anonymous');
  });

  it('keeps the scheme of an Authorization header and hashes its credentials', () => {
    const label = callerLabel({ Authorization: 'Bearer reader-token' });
    expect(label).toMatch(/^authorization: Bearer <sha256:[0-9a-f]{8}>$/);
    expect(label).not.toContain('reader-token');
    // The same credentials, the same label; others, another one.
    expect(callerLabel({ authorization: 'Bearer reader-token' })).toBe(label);
    expect(callerLabel({ authorization: 'Bearer admin-token' })).not.toBe(label);
  });

  it('hashes the whole value of other headers, names lower-cased and sorted', () => {
    const label = callerLabel({ 'X-Tenant': 'acme', 'X-Api-Key': 'k-123' });
    expect(label).toMatch(/^x-api-key: <sha256:[0-9a-f]{8}>, x-tenant: <sha256:[0-9a-f]{8}>$/);
    expect(label).not.toMatch(/acme|k-123/);
  });

  it('hashes an Authorization value without a scheme whole', () => {
    expect(callerLabel({ authorization: 'token123' })).toMatch(
      /^authorization: <sha256:[0-9a-f]{8}>$/,
    );
  });
});
