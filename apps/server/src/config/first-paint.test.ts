import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BootData } from '@vitrine/contract/boot';
import { defaultGlobalConfig } from '@vitrine/contract/config-defaults';
import type { GlobalConfig } from '@vitrine/contract/global-config';
import { firstPaintTemplate, preparePage, screenFiles, TEMPLATE_SLOT } from './first-paint.ts';

/** A build's page as the web app's build writes it, with its files. */
function builtApp(): { dist: string; template: string } {
  const dist = mkdtempSync(path.join(tmpdir(), 'vitrine-first-paint-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'zod-config.js'), 'globalThis.zodSettings = 1;\n');
  writeFileSync(path.join(dist, 'first-paint.js'), 'start(document.currentScript.dataset.entry);\n');
  writeFileSync(path.join(dist, 'assets', 'app-1.css'), '.vt-shell{display:flex}</style>');
  const template = [
    '<!doctype html><html><head>',
    '<script src="./zod-config.js"></script>',
    '<script type="module" crossorigin src="./assets/index-1.js"></script>',
    '<link rel="modulepreload" crossorigin href="./assets/runtime-1.js">',
    '<link rel="modulepreload" crossorigin href="./assets/app-1.js">',
    '<link rel="stylesheet" crossorigin href="./assets/app-1.css">',
    '</head><body><div id="root"></div></body></html>',
  ].join('\n');
  return { dist, template };
}

describe("the page's first paint (decisions 0242, 0244)", () => {
  describe('the page prepared from the build', () => {
    it('places the style sheets in the page and starts the app from its one script, whose hash it names', () => {
      const { dist, template } = builtApp();
      const { html, scriptSource } = preparePage(template, dist);
      expect(html).not.toContain('<link rel="stylesheet"');
      // The style sheet's text cannot end its element.
      expect(html).toContain('<style>.vt-shell{display:flex}<\\/style></style>');
      expect(html).not.toContain('<script type="module"');
      expect(html).not.toContain('modulepreload');
      expect(html).not.toContain('src="./zod-config.js"');
      const script =
        /<script data-entry="\.\/assets\/index-1\.js" data-preloads="\.\/assets\/runtime-1\.js \.\/assets\/app-1\.js" data-screens="">(.*?)<\/script>/s.exec(
          html,
        )?.[1];
      // zod's settings first, then the start.
      expect(script).toBe('globalThis.zodSettings = 1;\nstart(document.currentScript.dataset.entry);\n');
      expect(scriptSource).toBe(
        `'sha256-${createHash('sha256')
          .update(script ?? '')
          .digest('base64')}'`,
      );
      // The template's place is after the root element, before the script.
      expect(html).toMatch(new RegExp(`<div id="root"></div>\\s*${TEMPLATE_SLOT}<script data-entry`));
    });

    it("gives the page's script each screen's own files, as the build's manifest has them, by the start of its route", () => {
      const { dist, template } = builtApp();
      mkdirSync(path.join(dist, '.vite'));
      const chunk = (file: string, imports: string[] = [], css?: string[]) => ({ file, imports, ...(css && { css }) });
      writeFileSync(
        path.join(dist, '.vite', 'manifest.json'),
        JSON.stringify({
          'index.html': chunk('assets/index-1.js', ['_app-1.js']),
          '_app-1.js': chunk('assets/app-1.js', ['_runtime-1.js'], ['assets/app-1.css']),
          '_runtime-1.js': chunk('assets/runtime-1.js'),
          '_Menu-1.js': chunk('assets/Menu-1.js', ['_app-1.js']),
          'src/features/search/SearchPage.tsx': chunk(
            'assets/SearchPage-1.js',
            ['_app-1.js', '_Menu-1.js'],
            ['assets/SearchPage-1.css'],
          ),
          'src/features/asset/AssetPage.tsx': chunk('assets/AssetPage-1.js', ['_runtime-1.js', '_Menu-1.js']),
          'src/features/dashboard/DashboardPage.tsx': chunk('assets/DashboardPage-1.js', ['_app-1.js']),
          'src/features/admin/AdminPage.tsx': chunk('assets/AdminPage-1.js', ['_app-1.js']),
        }),
      );
      const screens = screenFiles(dist, './assets/index-1.js');
      // What the entry loads already is left out; the admin area is the app's (for the signed in).
      expect(screens).toEqual([
        ['/', ['./assets/DashboardPage-1.js']],
        ['/search', ['./assets/SearchPage-1.js', './assets/Menu-1.js', './assets/SearchPage-1.css']],
        ['/asset', ['./assets/AssetPage-1.js', './assets/Menu-1.js']],
      ]);
      const { html } = preparePage(template, dist);
      expect(html).toContain(
        'data-screens="/ ./assets/DashboardPage-1.js;/search ./assets/SearchPage-1.js ./assets/Menu-1.js ./assets/SearchPage-1.css;/asset ./assets/AssetPage-1.js ./assets/Menu-1.js"',
      );
      // Without a manifest (a build without one), none.
      expect(screenFiles(builtApp().dist, './assets/index-1.js')).toEqual([]);
    });

    it('leaves a page that is not a build (no module script) as it is', () => {
      const { dist } = builtApp();
      const page = '<!doctype html><body><div id="root"></div><script src="/src/main.tsx"></script></body>';
      expect(preparePage(page, dist)).toEqual({ html: page });
    });
  });

  describe('the dashboard as static markup', () => {
    const messages = {
      en: { views: { dashboard: { hero: { header: 'Find your media', body: 'Search everything.' } } } },
      de: { views: { dashboard: { hero: { header: 'Finden Sie Ihre Medien', body: 'Alles durchsuchen.' } } } },
    };
    const boot = (change: (c: GlobalConfig) => void = () => undefined, files: Partial<BootData['files']> = {}) => {
      const config = structuredClone(defaultGlobalConfig);
      change(config);
      return {
        config,
        files: { dashboardHero: true, logo: false, dashboardLogo: false, ...files } as BootData['files'],
        locales: ['de', 'en'],
        messages,
        fields: [],
      } satisfies BootData;
    };

    it("holds the hero's texts in the page's language, its picture at the screen's widths, and the title escaped", () => {
      const english = firstPaintTemplate(
        boot((c) => {
          c.global.website_title = 'Archive <script>alert(1)</script>';
        }),
        'en',
      );
      expect(english).toContain('data-locale="en"');
      expect(english).toContain(
        '<p class="vt-hero-title">Find your media</p><p class="vt-hero-body">Search everything.</p>',
      );
      expect(english).toContain('Archive &lt;script&gt;alert(1)&lt;/script&gt;');
      expect(english).not.toContain('<script');
      expect(english).toContain(
        'srcset="/assetportal/api/config/dashboardHero?w=640 640w, /assetportal/api/config/dashboardHero?w=1080 1080w,',
      );
      expect(english).toContain('sizes="100vw" fetchpriority="high"');
      const german = firstPaintTemplate(boot(), 'de');
      expect(german).toContain('data-locale="de"');
      expect(german).toContain(
        '<p class="vt-hero-title">Finden Sie Ihre Medien</p><p class="vt-hero-body">Alles durchsuchen.</p>',
      );
      // A language without the texts takes English's, as the app does.
      expect(firstPaintTemplate(boot(), 'fr')).toContain('Find your media');
    });

    it("draws the hero's height and alignment as configured, and its colours without a picture", () => {
      const left = firstPaintTemplate(
        boot(
          (c) => {
            c.dashboard.heroImage.height = 420;
            c.dashboard.heroImage.alignment = 'left';
          },
          { dashboardHero: false },
        ),
        'en',
      );
      expect(left).toContain('style="min-height:420px;align-items:flex-start;text-align:left"');
      expect(left).not.toContain('<img');
    });

    it('takes the default themes of the light and the dark colour scheme', () => {
      const html = firstPaintTemplate(
        boot((c) => {
          c.themes.options = c.themes.options.map((t) =>
            t.key === c.themes.default_dark ? { ...t, appearance: { ...t.appearance, navigation: '#102030' } } : t,
          );
        }),
        'en',
      );
      const light = defaultGlobalConfig.themes.options.find((t) => t.key === defaultGlobalConfig.themes.default_light);
      expect(html).toContain(`#vt-first-paint{--vitrine-navigation:${light?.appearance.navigation};`);
      expect(html).toMatch(/@media \(prefers-color-scheme: dark\)\{#vt-first-paint\{--vitrine-navigation:#102030;/);
    });

    it("draws the uploaded logos where the app draws them, unless the dashboard's logos are switched off", () => {
      const logos = { logo: true, dashboardLogo: true };
      const inside = firstPaintTemplate(
        boot((c) => {
          c.dashboard.heroImage.logo = { height: 80, alignment: 'right', load_outside: false };
        }, logos),
        'en',
      );
      expect(inside).toMatch(
        /<span class="vt-brand" data-title="[^"]*"><img src="\/assetportal\/api\/config\/logo" alt=""><\/span>/,
      );
      expect(inside).toContain(
        '<img class="vt-hero-logo" src="/assetportal/api/config/dashboardLogo" alt="" style="height:80px;align-self:flex-end"><p class="vt-hero-title">',
      );
      const outside = firstPaintTemplate(
        boot((c) => {
          c.dashboard.heroImage.logo.load_outside = true;
        }, logos),
        'en',
      );
      expect(outside).toMatch(
        /<template id="vt-first-paint-hero"><img class="vt-hero-logo" [^>]*><div class="vt-hero"/,
      );
      const hidden = firstPaintTemplate(
        boot((c) => {
          c.visibleLogos = c.visibleLogos.map((l) => (l.key === 'dashboard' ? { ...l, visible: false } : l));
        }, logos),
        'en',
      );
      expect(hidden).not.toContain('vt-hero-logo');
      // The header's logo, with the title for a screen that switches it off (the page's script picks).
      const title = defaultGlobalConfig.global.website_title;
      expect(hidden).toContain(
        `<span class="vt-brand" data-title="${title}"><img src="/assetportal/api/config/logo" alt=""></span>`,
      );
      expect(firstPaintTemplate(boot(), 'en')).toContain(
        `<span class="vt-brand" data-title="${title}">${title}</span>`,
      );
    });

    it("holds the frame of the screens for the page's script, and the hero only where the dashboard is the first screen", () => {
      const frame = (html: string) =>
        html.includes('<template id="vt-first-paint-template"') && html.includes('<main class="vt-main"></main>');
      const hero = (html: string) => html.includes('<template id="vt-first-paint-hero">');
      const shown = firstPaintTemplate(boot(), 'en');
      expect([frame(shown), hero(shown)]).toEqual([true, true]);
      const noDashboard = firstPaintTemplate(
        boot((c) => (c.global.hide_dashboard = true)),
        'en',
      );
      expect([frame(noDashboard), hero(noDashboard)]).toEqual([true, false]);
      // A text that is not there.
      const noText = firstPaintTemplate({ ...boot(), messages: { en: {} } }, 'en');
      expect([frame(noText), hero(noText)]).toEqual([true, false]);
      // A portal that asks to log in (no index fields for a visitor without an account).
      expect(firstPaintTemplate({ ...boot(), fields: undefined }, 'en')).toBe('');
    });

    it("gives the first paint's rules the theme's colours and MUI's shades of its palette", () => {
      const html = firstPaintTemplate(boot(), 'en');
      const light = defaultGlobalConfig.themes.options.find((t) => t.key === defaultGlobalConfig.themes.default_light);
      const dark = defaultGlobalConfig.themes.options.find((t) => t.key === defaultGlobalConfig.themes.default_dark);
      expect(html).toContain(`--vt-primary:${light?.appearance.primary};--vt-paper:${light?.appearance.surface};`);
      expect(html).toContain('--vt-hover:rgba(0, 0, 0, 0.04);--vt-disabled:rgba(0, 0, 0, 0.26)');
      expect(html).toMatch(
        new RegExp(
          `prefers-color-scheme: dark\\)\\{#vt-first-paint\\{[^}]*--vt-primary:${dark?.appearance.primary};[^}]*--vt-hover:rgba\\(255, 255, 255, 0.08\\)`,
        ),
      );
    });
  });
});
