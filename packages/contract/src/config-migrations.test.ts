import { describe, expect, it } from 'vitest';
import type { MessageSet } from './config.ts';
import {
  compareVersions,
  configMigrations,
  migrateConfig,
  migrateTexts,
  textMigrations,
  TEXTS_VERSION,
  unescapeAtSigns,
} from './config-migrations.ts';
import { defaultGlobalConfig, globalConfigModel } from './global-config.ts';
import { defaultTranslations } from './translations.ts';
import { FRONTEND_VERSION } from './version.ts';
import config330 from '../fixtures/migrations/config-3.3.0.json';
import config340 from '../fixtures/migrations/config-3.4.0.json';
import config521 from '../fixtures/migrations/config-5.2.1.json';
import config600 from '../fixtures/migrations/config-6.0.0.json';
import config601 from '../fixtures/migrations/config-6.0.1.json';
import texts330 from '../fixtures/migrations/texts-de-3.3.0.json';
import texts521 from '../fixtures/migrations/texts-de-5.2.1.json';
import texts601 from '../fixtures/migrations/texts-de-6.0.1.json';
import texts706 from '../fixtures/migrations/texts-de-7.0.6.json';

const fixtures: Record<string, unknown> = {
  'config-3.3.0': config330,
  'config-3.4.0': config340,
  'config-5.2.1': config521,
  'config-6.0.0': config600,
  'config-6.0.1': config601,
  'texts-de-3.3.0': texts330,
  'texts-de-5.2.1': texts521,
  'texts-de-6.0.1': texts601,
  'texts-de-7.0.6': texts706,
};
const fixture = (name: string): Record<string, unknown> => structuredCopy(fixtures[name]);
const structuredCopy = (v: unknown) => JSON.parse(JSON.stringify(v)) as Record<string, unknown>;

const themeKeys = (c: { themes: { options: { key: string }[] } }) => c.themes.options.map((t) => t.key);

describe('config migrations (admin-spec §4 "Config versioning and upgrade")', () => {
  it('steps run from 3.4.0 up to 6.0.1, oldest first', () => {
    expect(configMigrations.map((s) => s.version)).toEqual(['3.4.0', '5.3.0', '6.0.0', '6.0.1']);
    expect(textMigrations[0]?.version).toBe('3.4.0');
    expect(textMigrations.at(-1)?.version).toBe(TEXTS_VERSION);
    expect(TEXTS_VERSION).toBe('7.1.0');
  });

  it('non-semantic versions count as 0.0.0', () => {
    expect(compareVersions('latest', '0.0.0')).toBe(0);
    expect(compareVersions(undefined, '0.0.1')).toBeLessThan(0);
    expect(migrateConfig({ version: 'v7-beta', global: { website_title: 'X' } }).fromVersion).toBe('0.0.0');
  });

  it('a 3.3.0 config gets every step: old keys go, the classic theme is created, null filters are fixed', () => {
    const m = migrateConfig(fixture('config-3.3.0'));
    expect(globalConfigModel.safeParse(m.config).success).toBe(true);
    expect(m).toMatchObject({ fromVersion: '3.3.0', merged: true, updated: true });
    expect(m.config.version).toBe(FRONTEND_VERSION);
    expect(m.config.global.website_title).toBe('Bildarchiv');
    expect(m.config.search).not.toHaveProperty('filter_position');
    expect(m.config.dashboard).not.toHaveProperty('slider');
    // 3.4.0 overrides the view settings with the current ones.
    expect(m.config.search.views).toEqual(defaultGlobalConfig.search.views);
    expect(themeKeys(m.config)).toContain('classic');
    expect(m.config.facets[0]?.options.filterVal).toBe('none');
  });

  it('a 3.4.0 config keeps its 3.4.0 values, and its pre-search filters lose their nulls', () => {
    const m = migrateConfig(fixture('config-3.4.0'));
    expect(m.updated).toBe(true);
    expect(m.config.search.sidebar.width).toBe(defaultGlobalConfig.search.sidebar.width);
    expect(m.config.search).not.toHaveProperty('show_facet_count');
    expect(m.config.sorting.orientation).toEqual(defaultGlobalConfig.sorting.orientation);
    expect(m.config.sorting.default).toBe('imp_date');
    const facets = m.config.dashboard.collections.data[0]?.search.de?.facets;
    expect(facets).toEqual([
      { key: 'category', values: [] },
      { key: 'creator', values: ['Anna'] },
    ]);
    expect(themeKeys(m.config)).toEqual(['light', 'dark', 'classic']);
  });

  it('a 5.x config loses the old theme keys, gets the classic theme and a fixed range', () => {
    const m = migrateConfig(fixture('config-5.2.1'));
    expect(m.config.themes).not.toHaveProperty('colors');
    expect(m.config.global).not.toHaveProperty('theme');
    expect(m.config.login.box.max_width).toBe('40rem');
    expect(m.config.login.show_passwordReset).toBe(true);
    expect(themeKeys(m.config)).toContain('classic');
    expect(m.config.dashboard.collections.data[0]?.search.en?.facets).toEqual([{ key: 'keywords', values: [] }]);
  });

  it('a 6.0.0 config gets only the 6.0.1 step and no classic theme is forced on it', () => {
    const m = migrateConfig(fixture('config-6.0.0'));
    expect(m.config.search.sidebar).toEqual(defaultGlobalConfig.search.sidebar);
    expect(themeKeys(m.config)).toEqual(['light']);
    expect(m.config.themes.options[0]?.appearance.primary).toBe('#123456');
  });

  it('a 6.0.1 config runs no step but is merged with the defaults and marked for the new version', () => {
    const m = migrateConfig(fixture('config-6.0.1'));
    expect(m.config.search.sidebar.width).toBe(320);
    expect(m.config.global).toMatchObject({ website_title: 'Aktuell', run_order_process: true });
    expect(m).toMatchObject({ merged: true, updated: true });
  });

  it('the current defaults migrate to themselves with nothing to save', () => {
    const m = migrateConfig(defaultGlobalConfig);
    expect(m).toMatchObject({ merged: false, updated: false });
    expect(m.config).toEqual(defaultGlobalConfig);
  });
});

describe('text migrations (admin-spec §4 "Config versioning and upgrade")', () => {
  const bundled = defaultTranslations.de;
  const at = (set: MessageSet, path: string): unknown =>
    path.split('.').reduce<unknown>((cur, k) => (cur as Record<string, unknown> | undefined)?.[k], set);

  it('3.3.0 texts lose old keys, take overridden ones from the bundled set and escape at-signs', () => {
    const m = migrateTexts(fixture('texts-de-3.3.0') as MessageSet, bundled);
    expect(m).toMatchObject({ fromVersion: '3.3.0', updated: true });
    expect(at(m.texts, 'views.search.filter_hint')).toBeUndefined();
    expect(at(m.texts, 'views.search.tags.error')).toBe(at(bundled, 'views.search.tags.error'));
    expect(at(m.texts, 'views.dashboard.title')).toBe("Kontakt: info{'@'}example.org");
    expect(unescapeAtSigns(at(m.texts, 'views.dashboard.title') as string)).toBe('Kontakt: info@example.org');
    expect(at(m.texts, 'metadata.version')).toBe(TEXTS_VERSION);
  });

  it('5.x texts escape bare at-signs once and keep escaped ones', () => {
    const m = migrateTexts(fixture('texts-de-5.2.1') as MessageSet, bundled);
    expect(at(m.texts, 'global.imprint')).toBe("Fragen an presse{'@'}example.org oder {'@'}team");
    expect(at(m.texts, 'toast.download.wait_old')).toBeUndefined();
    expect(at(m.texts, 'toast.download.rate_limit_reached')).toBe(at(bundled, 'toast.download.rate_limit_reached'));
    expect(at(m.texts, 'global.theme_toggle')).toBeUndefined();
  });

  it('6.0.1 texts keep their at-signs as written and lose keys of 7.0.0 and 7.1.0', () => {
    const m = migrateTexts(fixture('texts-de-6.0.1') as MessageSet, bundled);
    expect(at(m.texts, 'global.contact')).toBe('mail@example.org');
    expect(at(m.texts, 'global.theme_toggle')).toBe('Thema');
    expect(at(m.texts, 'views.dashboard.slider')).toBeUndefined();
    expect(at(m.texts, 'toast.custom_page_saved')).toBeUndefined();
  });

  it('7.0.6 texts get only the 7.1.0 step', () => {
    const m = migrateTexts(fixture('texts-de-7.0.6') as MessageSet, bundled);
    expect(at(m.texts, 'toast.custom_page')).toEqual(at(bundled, 'toast.custom_page'));
    expect(at(m.texts, 'views.dashboard.title')).toBe('Start');
    expect(migrateTexts(m.texts, bundled).updated).toBe(false);
  });
});
