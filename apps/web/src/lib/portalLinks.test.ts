import { describe, expect, it } from 'vitest';
import { assetsLink, portalLink } from './portalLinks.ts';

const place = { origin: 'https://portal.example.org', pathname: '/dam/' };

describe('portal links (portal-spec §4 "Shared links")', () => {
  it('builds a route address under the page the portal runs on', () => {
    expect(portalLink('/search/*', place)).toBe('https://portal.example.org/dam/#/search/*');
  });

  it('links one asset to its page and several to the search page limited to them, ids encoded', () => {
    expect(assetsLink(['7'], place)).toBe('https://portal.example.org/dam/#/asset/7');
    expect(assetsLink(['7', '8', 'a/b'], place)).toBe('https://portal.example.org/dam/#/search/*?id=7,8,a%2Fb');
  });
});
