import { describe, expect, it } from 'vitest';
import { environmentLocale, LocaleNegotiator } from '../../lib/localization/locale.negotiator.js';

describe('negotiating the locale', () => {
  const negotiator = new LocaleNegotiator('en', ['de', 'fr-CA', 'en']);

  it('offers the default first', () => {
    expect(negotiator.locales).toEqual(['en', 'de', 'fr-CA']);
  });

  it('follows q-values', () => {
    expect(negotiator.negotiate('de;q=0.5, en;q=0.9')).toBe('en');
    expect(negotiator.negotiate('en;q=0.5, de;q=0.9')).toBe('de');
    expect(negotiator.negotiate('de;q=0, en')).toBe('en');
  });

  it('gives the default for *, for no header and for a language it does not offer', () => {
    expect(negotiator.negotiate('*')).toBe('en');
    expect(negotiator.negotiate(undefined)).toBe('en');
    expect(negotiator.negotiate('')).toBe('en');
    expect(negotiator.negotiate('ja, zh-CN;q=0.8')).toBe('en');
    expect(negotiator.negotiate('ja, *;q=0.1')).toBe('en');
  });

  it('falls from a region to its language, and from a language to a region it offers', () => {
    expect(negotiator.negotiate('de-AT;q=0.9, en;q=0.8')).toBe('de');
    expect(negotiator.negotiate('DE-ch')).toBe('de');
    expect(negotiator.negotiate('fr')).toBe('fr-CA');
  });

  it('answers the same for the same header, again', () => {
    expect(negotiator.negotiate('de-AT')).toBe('de');
    expect(negotiator.negotiate('de-AT')).toBe('de');
  });

  it('reads the locale of the environment: LC_ALL, else LC_MESSAGES, else LANG', () => {
    expect(environmentLocale({ LANG: 'de_DE.UTF-8' })).toBe('de-DE');
    expect(environmentLocale({ LC_MESSAGES: 'fr_CA', LANG: 'de_DE.UTF-8' })).toBe('fr-CA');
    expect(environmentLocale({ LC_ALL: 'en_US.UTF-8', LC_MESSAGES: 'fr', LANG: 'de' })).toBe(
      'en-US',
    );
    expect(environmentLocale({ LANG: 'C.UTF-8' })).toBeUndefined();
    expect(environmentLocale({ LC_ALL: 'POSIX', LANG: 'de' })).toBeUndefined();
    expect(environmentLocale({})).toBeUndefined();
    expect(negotiator.negotiate(environmentLocale({ LANG: 'de_AT.UTF-8' }))).toBe('de');
  });
});
