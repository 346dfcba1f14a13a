import { describe, expect, it } from 'vitest';
import { mediaWindows, signMediaUrl, verifyMediaUrl } from './media-url.ts';

const secret = 'x'.repeat(32);
const parts = (url: string) => {
  const u = new URL(url, 'http://h');
  return {
    path: u.pathname.replace('/media/', ''),
    exp: u.searchParams.get('exp') ?? undefined,
    sig: u.searchParams.get('sig') ?? undefined,
  };
};

describe('signed media URLs (ARCHITECTURE §3 "Media URLs")', () => {
  it('verifies its own signature', () => {
    const p = parts(signMediaUrl(secret, 'thumb/42', mediaWindows.view));
    expect(verifyMediaUrl(secret, p.path, p.exp, p.sig)).toBe('ok');
  });

  it('stays the same within a time window so browsers can cache it', () => {
    const t = Date.UTC(2026, 0, 1, 0, 0, 0);
    expect(signMediaUrl(secret, 'thumb/1', 3600, t)).toBe(signMediaUrl(secret, 'thumb/1', 3600, t + 60_000));
  });

  it('refuses another path, a tampered signature and another secret', () => {
    const p = parts(signMediaUrl(secret, 'thumb/42', mediaWindows.view));
    expect(verifyMediaUrl(secret, 'thumb/43', p.exp, p.sig)).toBe('invalid');
    expect(verifyMediaUrl(secret, p.path, p.exp, `${p.sig?.slice(0, -1)}A`)).not.toBe('ok');
    expect(verifyMediaUrl('y'.repeat(32), p.path, p.exp, p.sig)).toBe('invalid');
    expect(verifyMediaUrl(secret, p.path, undefined, p.sig)).toBe('invalid');
  });

  it('expires', () => {
    const t = Date.UTC(2026, 0, 1);
    const p = parts(signMediaUrl(secret, 'download/1/0', mediaWindows.download, t));
    expect(verifyMediaUrl(secret, p.path, p.exp, p.sig, t + 3 * mediaWindows.download * 1000)).toBe('expired');
  });

  it('is signed again for a new window and for another secret, not taken from the last one', () => {
    const t = Date.UTC(2026, 0, 1);
    const first = parts(signMediaUrl(secret, 'thumb/7', 3600, t));
    const later = parts(signMediaUrl(secret, 'thumb/7', 3600, t + 3600_000));
    expect(Number(later.exp)).toBe(Number(first.exp) + 3600);
    expect(verifyMediaUrl(secret, later.path, later.exp, later.sig, t + 3600_000)).toBe('ok');
    const other = 'y'.repeat(32);
    const byOther = parts(signMediaUrl(other, 'thumb/7', 3600, t + 3600_000));
    expect(verifyMediaUrl(other, byOther.path, byOther.exp, byOther.sig, t + 3600_000)).toBe('ok');
    expect(byOther.sig).not.toBe(later.sig);
  });
});
