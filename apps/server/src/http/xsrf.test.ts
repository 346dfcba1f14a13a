import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { xsrfHeaders } from '../../test/auth.ts';

const API = '/assetportal/api/';
const stateChanging = ['POST', 'PUT', 'PATCH', 'DELETE'];
/** The only state-changing routes that work without the XSRF pair (app.ts). */
const exempt = [`${API}session/get`, `${API}sso/saml/:name/acs`];

describe('XSRF is decided from the matched route (docs/security.md "Other measures")', () => {
  let t: TestApp;
  const routes: { method: string; url: string }[] = [];
  beforeAll(async () => {
    t = await startTestApp({
      onRoute: (route: RouteOptions) => {
        for (const method of [route.method].flat()) routes.push({ method, url: route.url });
      },
    });
    await t.app.ready();
  });
  afterAll(async () => t.close());

  const send = (method: string, url: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: method as 'POST',
      url,
      headers: { 'content-type': 'application/json', ...headers },
      payload: '{}',
    });

  it('refuses every state-changing route without the pair, except the two exempt ones', async () => {
    const changing = routes.filter((r) => stateChanging.includes(r.method));
    expect(changing.length).toBeGreaterThan(10);
    expect(changing.filter((r) => exempt.includes(r.url)).map((r) => r.url)).toEqual(exempt);
    for (const route of changing) {
      const url = route.url.replace(/:\w+/g, 'x');
      const res = await send(route.method, url);
      if (exempt.includes(route.url)) {
        expect(res.json().error, `${route.method} ${url}`).not.toBe('xsrf');
      } else {
        expect(res.statusCode, `${route.method} ${url}`).toBe(403);
        expect(res.json().error, `${route.method} ${url}`).toBe('xsrf');
      }
    }
  });

  it('refuses other spellings of state-changing calls: percent-encoded, doubled slashes, other case, dot segments', async () => {
    const calls: [string, string][] = [
      ['POST', 'share/create'],
      ['POST', 'share/revoke'],
      ['POST', 'config/bookmarks'],
      ['POST', 'config/translations?lang=de'],
      ['POST', 'config/style'],
      ['POST', 'user/forgot-password'],
      // No route takes these methods: a request that matches no route needs the pair as well.
      ['PUT', 'config/bookmarks'],
      ['DELETE', 'share/revoke'],
    ];
    const spellings = (path: string) => [
      `/assetportal/%61pi/${path}`,
      `/assetportal/api/%${path.charCodeAt(0).toString(16)}${path.slice(1)}`,
      `/%61ssetportal/api/${path}`,
      `/assetportal/api/${path.replace('/', '%2F')}`,
      `/assetportal/api/${path.replace('/', '%2f')}`,
      `/assetportal//api/${path}`,
      `/assetportal/api//${path}`,
      `//assetportal/api/${path}`,
      `/AssetPortal/api/${path}`,
      `/assetportal/API/${path}`,
      `/assetportal/api/sso/saml/corp/acs/../../../../${path}`,
      `/assetportal/api/session/get/../../${path}`,
    ];
    for (const [method, path] of calls) {
      for (const url of spellings(path)) {
        const res = await send(method, url);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json().error, `${method} ${url}`).toBe('xsrf');
      }
    }
  });

  it('lets the exempt login pass in any spelling the router takes, and others with the pair', async () => {
    for (const url of [`${API}session/get`, `/assetportal/%61pi/session/%67et`]) {
      const res = await send('POST', url);
      expect(res.statusCode, url).toBe(200);
    }
    const forgot = await t.app.inject({
      method: 'POST',
      url: '/assetportal/%61pi/user/forgot-password',
      headers: xsrfHeaders,
      payload: { user: 'anna' },
    });
    expect(forgot.statusCode).toBe(200);
  });
});
