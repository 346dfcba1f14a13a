import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { FORWARDED_WARNING_EVERY_MS } from './forwarded-warning.ts';

const API = '/assetportal/api/';

/**
 * A portal behind a proxy that TRUST_PROXY does not name sees every client as the proxy; the log
 * says so (README "Configuration" TRUST_PROXY). The server logs to a pino destination that keeps
 * the lines it is given.
 */
describe('the warning about X-Forwarded-For from a peer that is not trusted', () => {
  let t: TestApp;
  let lines: { level: number; msg: string; peer?: string }[];
  afterEach(async () => {
    vi.useRealTimers();
    await t.close();
  });

  async function start(env: Record<string, string> = {}) {
    lines = [];
    const destination = { write: (line: string) => lines.push(JSON.parse(line) as (typeof lines)[number]) };
    t = await startTestApp({ env, logger: { level: 'warn', stream: destination } });
  }
  const warnings = () => lines.filter((l) => l.level === 40 && /X-Forwarded-For/.test(l.msg));
  const ask = (remoteAddress: string, forwardedFor?: string) =>
    t.app.inject({
      url: `${API}health`,
      remoteAddress,
      headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
    });

  it('logs the first such request without TRUST_PROXY, then at most once a day', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start0 = new Date('2026-03-02T08:00:00Z').getTime();
    vi.setSystemTime(start0);
    await start();
    await ask('10.0.0.5');
    expect(warnings()).toEqual([]);

    await ask('10.0.0.5', '198.51.100.7');
    expect(warnings()).toEqual([
      expect.objectContaining({ peer: '10.0.0.5', msg: expect.stringMatching(/TRUST_PROXY is not set/) }),
    ]);
    await ask('10.0.0.5', '198.51.100.8');
    vi.setSystemTime(start0 + FORWARDED_WARNING_EVERY_MS - 1000);
    await ask('10.0.0.6', '198.51.100.9');
    expect(warnings()).toHaveLength(1);

    vi.setSystemTime(start0 + FORWARDED_WARNING_EVERY_MS);
    await ask('10.0.0.5', '198.51.100.7');
    await ask('10.0.0.5', '198.51.100.7');
    expect(warnings()).toHaveLength(2);
  });

  it('says nothing of a trusted proxy, and warns of a peer TRUST_PROXY does not name', async () => {
    await start({ TRUST_PROXY: '10.0.0.0/24' });
    await ask('10.0.0.5', '198.51.100.7');
    await ask('10.0.0.6', '198.51.100.8');
    expect(warnings()).toEqual([]);
    await ask('192.0.2.50', '198.51.100.7');
    expect(warnings()).toEqual([
      expect.objectContaining({ peer: '192.0.2.50', msg: expect.stringMatching(/TRUST_PROXY does not name/) }),
    ]);
  });
});
