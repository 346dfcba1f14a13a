import { describe, expect, it } from 'vitest';
import { pickLocale } from './locale.ts';

describe('interface language (portal-spec §1)', () => {
  const supported = ['de', 'en'];

  it('prefers the stored locale', () => {
    expect(pickLocale(supported, 'en', ['de-DE'])).toBe('en');
  });

  it('uses the browser language when nothing is stored', () => {
    expect(pickLocale(supported, null, ['fr-FR', 'en-GB'])).toBe('en');
  });

  it('ignores a stored locale that is no longer offered', () => {
    expect(pickLocale(supported, 'fr', ['en-US'])).toBe('en');
  });

  it('falls back to German', () => {
    expect(pickLocale(supported, null, ['ja-JP'])).toBe('de');
  });
});
