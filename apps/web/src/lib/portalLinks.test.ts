import { readPortalLink } from '@vitrine/contract/paths';
import { describe, expect, it } from 'vitest';
import { assetsLink, portalLink } from './portalLinks.ts';

const place = { origin: 'https://portal.example.org', pathname: '/dam/' };

describe('portal links (portal-spec §4 "Shared links")', () => {
  it('builds a route address under the page the portal runs on', () => {
    expect(portalLink({ page: 'search' }, place)).toBe('https://portal.example.org/dam/#/search/*');
  });

  it('links one asset to its page and several to the search page limited to them, ids encoded', () => {
    expect(assetsLink(['7'], place)).toBe('https://portal.example.org/dam/#/asset/7');
    expect(assetsLink(['7', '8', 'a/b'], place)).toBe('https://portal.example.org/dam/#/search/*?id=7,8,a%2Fb');
  });

  it('makes links the browser and the router read back: the hash route and its query as URLSearchParams reads it', () => {
    const ids = ['7', 'a b', 'Ünï 東京', 'a#b', 'a?b', 'a/b', 'a&b', '+1'];
    const link = new URL(assetsLink(ids, place));
    expect(link.pathname).toBe('/dam/');
    const [path = '', query = ''] = link.hash.slice(1).split('?');
    expect(path).toBe('/search/*');
    expect(new URLSearchParams(query).get('id')?.split(',')).toEqual(ids);
    expect(readPortalLink(link.href)).toMatchObject({ page: 'search', ids });
    const one = new URL(assetsLink(['a/b?c#d'], place));
    expect(one.hash).toBe('#/asset/a%2Fb%3Fc%23d');
  });
});
