import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BootData } from '@vitrine/contract/boot';
import { configFileNames, defaultGlobalConfig } from '@vitrine/contract/config-defaults';
import { screenModules } from '@vitrine/contract/paths';
import { startFirstScreen } from './screens.ts';

// Whether the upload page's code was asked for: only an editor's session loads it (issue #49).
const uploadLoaded = vi.hoisted(() => ({ count: 0 }));
vi.mock('../features/upload/UploadPage.tsx', () => {
  uploadLoaded.count++;
  return { UploadPage: () => null };
});

const noFiles = Object.fromEntries(configFileNames.map((n) => [n, false])) as BootData['files'];

/** The page's boot data with the hero uploaded or not, and the dashboard hidden or not. */
function boot({ hero = true, hidden = false } = {}): BootData {
  return {
    config: { ...defaultGlobalConfig, global: { ...defaultGlobalConfig.global, hide_dashboard: hidden } },
    files: { ...noFiles, dashboardHero: hero },
    locales: ['en'],
    messages: {},
  };
}

const preloads = () => [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="image"]')];

afterEach(() => {
  for (const link of preloads()) link.remove();
});

describe("the first screen's code and largest picture, asked for at start (issue #28)", () => {
  it("asks for the dashboard's hero at the widths its <img> offers, first", () => {
    startFirstScreen('', boot());
    const [link] = preloads();
    expect(preloads()).toHaveLength(1);
    expect(link?.href).toMatch(/\/assetportal\/api\/config\/dashboardHero$/);
    expect(link?.getAttribute('imagesrcset')).toMatch(/dashboardHero\?w=\d+ \d+w, /);
    expect(link?.getAttribute('imagesizes')).toBe('100vw');
    expect(link?.getAttribute('fetchpriority')).toBe('high');
  });

  it('asks for no picture on another screen, without an uploaded hero, or with the dashboard hidden', () => {
    startFirstScreen('#/search/*', boot());
    startFirstScreen('#/', boot({ hero: false }));
    startFirstScreen('#/', boot({ hidden: true }));
    startFirstScreen('#/', null);
    expect(preloads()).toEqual([]);
  });
});

describe('the upload page at start (issue #49)', () => {
  it('is not asked for before the session says the visitor is an editor', async () => {
    startFirstScreen('#/upload', boot());
    startFirstScreen('#/upload', null);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(uploadLoaded.count).toBe(0);
  });
});

describe("the screens' modules the server finds in the build's manifest (paths screenModules)", () => {
  it('are the modules screens.ts loads, page by page', async () => {
    const { screens } = await import('./screens.ts');
    const source = (await import('./screens.ts?raw')).default;
    for (const page of Object.keys(screens) as (keyof typeof screens)[]) {
      const loaded = new RegExp(`${page}: \\(\\) => import\\('\\.\\./([^']+)'\\)`).exec(source)?.[1];
      expect(`src/${loaded}`, page).toBe(screenModules[page]);
    }
    expect(Object.keys(screenModules).sort()).toEqual(Object.keys(screens).sort());
  });
});
