/**
 * A minimal browser for identity-provider round trips in tests: it keeps cookies and follows
 * redirects until one leads back to the portal, and answers where that was.
 */
export class TestBrowser {
  private readonly jar = new Map<string, string>();

  cookieHeader(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  keep(setCookies: string[]): void {
    for (const c of setCookies) {
      const pair = c.split(';')[0] ?? '';
      const eq = pair.indexOf('=');
      const [name, value] = [pair.slice(0, eq).trim(), pair.slice(eq + 1).trim()];
      if (value && !/expires=Thu, 01 Jan 1970/i.test(c)) this.jar.set(name, value);
      else this.jar.delete(name);
    }
  }

  async follow(url: string, until: string, init: RequestInit = {}): Promise<Response | string> {
    let next = url;
    let options = init;
    for (let hop = 0; hop < 12; hop++) {
      if (next.startsWith(until)) return next;
      const res = await fetch(next, {
        ...options,
        redirect: 'manual',
        headers: { ...(options.headers as Record<string, string>), cookie: this.cookieHeader() },
      });
      this.keep(res.headers.getSetCookie());
      const location = res.headers.get('location');
      if (!location) return res;
      next = new URL(location, next).href;
      options = {};
    }
    throw new Error(`Too many redirects, last at ${next}`);
  }
}
