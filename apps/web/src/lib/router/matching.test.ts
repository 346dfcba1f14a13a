import { describe, expect, it } from 'vitest';
import { matchRoutes, parsePath, rankRoutes, resolvePath, type RouteNode } from './matching.ts';

interface Route extends RouteNode<Route> {
  name?: string;
}

/** The names along the best match of `pathname` in `routes`, root first. */
const names = (routes: Route[], pathname: string) =>
  matchRoutes(rankRoutes(routes), pathname).map((m) => m.route.name ?? '(layout)');

describe('parsePath', () => {
  it('splits a path into pathname, search and hash', () => {
    expect(parsePath('/search/x?a=1#top', 'k')).toEqual({
      pathname: '/search/x',
      search: '?a=1',
      hash: '#top',
      key: 'k',
    });
    expect(parsePath('', 'k')).toEqual({ pathname: '/', search: '', hash: '', key: 'k' });
  });

  it('drops an empty search or hash, reads a "?" after the "#" as part of the hash, and defaults the pathname', () => {
    expect(parsePath('/a?#', '')).toMatchObject({ pathname: '/a', search: '', hash: '' });
    expect(parsePath('/a#b?c=1', '')).toMatchObject({ pathname: '/a', search: '', hash: '#b?c=1' });
    expect(parsePath('?q=1#h', '')).toMatchObject({ pathname: '/', search: '?q=1', hash: '#h' });
  });
});

describe('resolvePath', () => {
  it('resolves relative paths against the route they are used in', () => {
    expect(resolvePath('general', '/admin')).toBe('/admin/general');
    expect(resolvePath('../bookmark?x=1', '/admin/general')).toBe('/admin/bookmark?x=1');
    expect(resolvePath('/search/*', '/admin')).toBe('/search/*');
    expect(resolvePath('?page=2', '/shares')).toBe('/shares?page=2');
  });

  it('reads "." and "..", stops ".." at the root and keeps the search and hash of the link', () => {
    expect(resolvePath('./general', '/admin')).toBe('/admin/general');
    expect(resolvePath('.', '/admin')).toBe('/admin');
    expect(resolvePath('..', '/admin/general')).toBe('/admin');
    expect(resolvePath('../../../x', '/admin')).toBe('/x');
    expect(resolvePath('a/../b/', '/admin')).toBe('/admin/b');
    expect(resolvePath('general#top', '/admin/')).toBe('/admin/general#top');
    expect(resolvePath('#main', '/bookmark')).toBe('/bookmark#main');
  });
});

describe("ranking (react-router's: static over parameter over splat, index routes win ties)", () => {
  it('scores each segment: static 10, parameter 3, splat -2, plus one a segment and two for an index route', () => {
    const ranked = rankRoutes<Route>([
      { path: '/', name: 'home' },
      { path: '*', name: 'splat' },
      { path: '/search', name: 'search' },
      { path: '/search/:query', name: 'query' },
      {
        path: '/admin',
        name: 'admin',
        children: [
          { index: true, name: 'index' },
          { path: 'general', name: 'general' },
        ],
      },
    ]);
    expect(ranked.map((b) => [b.chain.map((l) => l.route.name).join('>'), b.score])).toEqual([
      ['admin>general', 22],
      ['query', 15],
      ['admin>index', 13],
      ['search', 11],
      ['admin', 11],
      ['home', 0],
      ['splat', -1],
    ]);
  });

  it('prefers a static segment to a parameter and a parameter to a splat, whatever the order of the table', () => {
    const routes: Route[] = [
      { path: '/a/*', name: 'splat' },
      { path: '/a/:x', name: 'param' },
      { path: '/a/b', name: 'static' },
    ];
    expect(names(routes, '/a/b')).toEqual(['static']);
    expect(names(routes, '/a/c')).toEqual(['param']);
    expect(names(routes, '/a/c/d')).toEqual(['splat']);
  });

  it('lets an index route win over its parent, and keeps the table order between equal scores', () => {
    const routes: Route[] = [
      { path: '/:first', name: 'first' },
      { path: '/:second', name: 'second' },
      { path: '/admin', name: 'admin', children: [{ index: true, name: 'index' }] },
    ];
    expect(names(routes, '/admin')).toEqual(['admin', 'index']);
    expect(names(routes, '/other')).toEqual(['first']);
  });
});

describe('matchRoutes (portal-spec §2 "Screens and routes")', () => {
  const table: Route[] = [
    {
      name: 'shell',
      children: [
        { path: '/', name: 'home', handle: { title: 'Home' } },
        { path: '/search/:query', name: 'search' },
        {
          path: '/admin',
          name: 'admin',
          children: [
            { index: true, name: 'index' },
            { path: 'general', name: 'general', handle: { title: 'General' } },
            { path: '/files/*', name: 'files' },
          ],
        },
        { path: '*', name: 'anything' },
      ],
    },
  ];
  const branches = rankRoutes(table);

  it('gives the routes from the root to the match, each with its id, handle and the part of the path it matched', () => {
    expect(
      matchRoutes(branches, '/admin/general').map(({ id, route, pathname, handle }) => ({
        id,
        name: route.name,
        pathname,
        handle,
      })),
    ).toEqual([
      { id: '0', name: 'shell', pathname: '/', handle: undefined },
      { id: '0-2', name: 'admin', pathname: '/admin', handle: undefined },
      { id: '0-2-1', name: 'general', pathname: '/admin/general', handle: { title: 'General' } },
    ]);
  });

  it('decodes parameters, gives every level the same ones and reads the rest of a splat', () => {
    const search = matchRoutes(branches, '/search/caf%C3%A9%20au%20lait');
    expect(search.map((m) => m.params)).toEqual([{ query: 'café au lait' }, { query: 'café au lait' }]);
    const files = matchRoutes(branches, '/files/a/b%20c');
    expect(files.map((m) => m.route.name)).toEqual(['shell', 'admin', 'files']);
    expect(files[2]).toMatchObject({ pathname: '/files', params: { '*': 'a/b c' } });
  });

  it('compares static segments without case and falls back to the catch-all route', () => {
    expect(matchRoutes(branches, '/ADMIN/General').map((m) => m.route.name)).toEqual(['shell', 'admin', 'general']);
    expect(matchRoutes(branches, '/no/such/page').map((m) => m.route.name)).toEqual(['shell', 'anything']);
  });

  it('matches nothing without a route for the path, and never a layout route on its own', () => {
    expect(matchRoutes(rankRoutes<Route>([{ name: 'shell', children: [{ path: '/a' }] }]), '/')).toEqual([]);
    expect(matchRoutes(rankRoutes<Route>([{ path: '/a' }]), '/a/b')).toEqual([]);
  });
});
