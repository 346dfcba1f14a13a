/// <reference lib="dom" />
/**
 * bench/web-vitals: first visits of the dashboard, search and asset pages as Lighthouse's mobile
 * profile loads them (4x slower processor, slow 4G: 150 ms, 1.6 Mbit/s), in a fresh context each:
 * largest contentful paint as the browser saw it under that throttling (Lighthouse simulates it
 * instead), cumulative layout shift and total blocking time (long tasks after the first contentful paint,
 * each counted beyond 50 ms), median of the runs. Against a running portal:
 *
 *   npx tsx bench/web-vitals/run.ts http://127.0.0.1:18520 [runs]
 *   PAGES='/#/asset/3' VIEWPORTS=375x812 DETAIL=1 npx tsx bench/web-vitals/run.ts URL
 *
 * DETAIL=1 lists the long tasks and each shift with the elements that moved.
 *
 * Beside them, the main thread's processor time over the visit (Chrome's ThreadTime: time the
 * thread ran, not time it waited for a core, so a busy machine moves it far less than the blocking
 * time) and how often style and layout were computed (RecalcStyleCount, LayoutCount).
 */
import { chromium } from '@playwright/test';

interface Shift {
  value: number;
  t: number;
  nodes: string[];
}
interface Measures {
  __shifts: Shift[];
  __long: { start: number; d: number }[];
  __lcp: { t: number; element: string };
}
type LayoutShift = PerformanceEntry & {
  value: number;
  hadRecentInput: boolean;
  sources: { node?: Node; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
};

const base = process.argv[2] ?? 'http://127.0.0.1:18520';
const runs = Number(process.argv[3] ?? 3);
const pages = (process.env.PAGES ?? '/#/,/#/search/*,/#/asset/3').split(',');
const viewports = (process.env.VIEWPORTS ?? '375x812,1350x940').split(',');

const observe = () => {
  const w = window as unknown as Measures;
  w.__shifts = [];
  w.__long = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries() as LayoutShift[]) {
      if (e.hadRecentInput) continue;
      w.__shifts.push({
        value: e.value,
        t: Math.round(e.startTime),
        nodes: e.sources.map((s) => {
          const n = s.node as Element | undefined;
          if (!n?.tagName) return String(n?.nodeName ?? '?');
          const label =
            n.getAttribute('aria-label') ?? n.getAttribute('data-testid') ?? n.className?.toString().slice(0, 40);
          return `${n.tagName.toLowerCase()}[${label}] ${JSON.stringify(s.previousRect)}->${JSON.stringify(s.currentRect)}`;
        }),
      });
    }
  }).observe({ type: 'layout-shift', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) w.__long.push({ start: Math.round(e.startTime), d: Math.round(e.duration) });
  }).observe({ type: 'longtask', buffered: true });
  w.__lcp = { t: 0, element: '' };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries() as (PerformanceEntry & { element?: Element; url?: string })[]) {
      const el = e.element;
      w.__lcp = {
        t: Math.round(e.startTime),
        element: el
          ? `${el.tagName.toLowerCase()}${e.url ? ` ${e.url.replace(/^https?:\/\/[^/]+/, '').slice(0, 60)}` : ''}`
          : '?',
      };
    }
  }).observe({ type: 'largest-contentful-paint', buffered: true });
};

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
for (const vp of viewports) {
  const [width, height] = vp.split('x').map(Number);
  if (width === undefined || height === undefined) throw new Error(`VIEWPORTS: ${vp} is not WIDTHxHEIGHT`);
  for (const path of pages) {
    const cls: number[] = [];
    const lcp: number[] = [];
    const tbt: number[] = [];
    const cpu: number[] = [];
    const styles: number[] = [];
    const layouts: number[] = [];
    let detail: { shifts: Shift[]; long: Measures['__long']; fcp: number; lcp: Measures['__lcp'] } | undefined;
    for (let r = 0; r < runs; r++) {
      const context = await browser.newContext({
        viewport: { width, height },
        deviceScaleFactor: width < 600 ? 2 : 1,
        isMobile: width < 600,
        hasTouch: width < 600,
        locale: 'en-GB',
        storageState: {
          cookies: [],
          origins: [
            {
              origin: base,
              localStorage: [
                { name: 'tour', value: '["dashboard","search"]' },
                { name: 'locale', value: 'en' },
              ],
            },
          ],
        },
      });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: Number(process.env.CPU_SLOWDOWN ?? 4) });
      await cdp.send('Network.enable');
      await cdp.send('Performance.enable');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 150,
        downloadThroughput: (1638.4 * 1024) / 8,
        uploadThroughput: (750 * 1024) / 8,
      });
      await page.addInitScript(observe);
      await page.goto(base + '/' + path.replace(/^\//, ''), { waitUntil: 'load' });
      await page.waitForTimeout(Number(process.env.SETTLE ?? 8000));
      const out = await page.evaluate(() => {
        const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0;
        const w = window as unknown as Measures;
        return { shifts: w.__shifts, long: w.__long, fcp: Math.round(fcp), lcp: w.__lcp };
      });
      const { metrics } = await cdp.send('Performance.getMetrics');
      const metric = (name: string) => metrics.find((m) => m.name === name)?.value ?? Number.NaN;
      cpu.push(Math.round(metric('ThreadTime') * 1000));
      styles.push(metric('RecalcStyleCount'));
      layouts.push(metric('LayoutCount'));
      cls.push(out.shifts.reduce((s, e) => s + e.value, 0));
      lcp.push(out.lcp.t);
      tbt.push(out.long.filter((l) => l.start >= out.fcp).reduce((s, l) => s + Math.max(0, l.d - 50), 0));
      detail = out;
      await context.close();
    }
    const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
    console.log(
      `${vp} ${path}: LCP ${med(lcp)} ms [${lcp.join(' ')}]  CLS ${med(cls).toFixed(3)} [${cls.map((c) => c.toFixed(3)).join(' ')}]  TBT ${med(tbt)} ms [${tbt.join(' ')}]  main thread ${med(cpu)} ms [${cpu.join(' ')}]  style ${med(styles)}× layout ${med(layouts)}×`,
    );
    if (process.env.DETAIL && detail) {
      console.log(`  lcp ${detail.lcp.t} (${detail.lcp.element})`);
      console.log(`  fcp ${detail.fcp}; long tasks: ${detail.long.map((l) => `${l.start}+${l.d}`).join(', ')}`);
      for (const s of detail.shifts) console.log(`  shift ${s.value.toFixed(4)} @${s.t}: ${s.nodes.join(' | ')}`);
    }
  }
}
await browser.close();
