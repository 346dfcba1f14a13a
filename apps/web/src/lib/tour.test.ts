import { afterEach, describe, expect, it } from 'vitest';
import { tourSteps } from '@vitrine/contract/config-defaults';
import { defaultTranslations } from '@vitrine/contract/translations';
import { finishedTours, markTourFinished, presentSteps, TOUR_STORAGE_KEY } from './tour.ts';

function textAt(set: unknown, key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], set);
}

describe('guided tour state (portal-spec §2 "Guided tour")', () => {
  afterEach(() => localStorage.clear());

  it('keeps the finished pages in the stored tour list, once each', () => {
    expect(finishedTours()).toEqual([]);
    markTourFinished('dashboard');
    markTourFinished('dashboard');
    markTourFinished('search');
    expect(JSON.parse(localStorage.getItem(TOUR_STORAGE_KEY) ?? '')).toEqual(['dashboard', 'search']);
  });

  it('treats a stored value that is not a list as no finished tour', () => {
    localStorage.setItem(TOUR_STORAGE_KEY, '{oops');
    expect(finishedTours()).toEqual([]);
    localStorage.setItem(TOUR_STORAGE_KEY, '"dashboard"');
    expect(finishedTours()).toEqual([]);
  });

  it('skips the steps whose element is not on the page, keeping the order', () => {
    const steps = tourSteps.map((key) => ({ key, translation: `views.tour.${key}` }));
    const onPage = new Set(['search_input', 'language', 'collection']);
    const found = presentSteps(steps, (key) => (onPage.has(key) ? document.body : null));
    expect(found.map((s) => s.key)).toEqual(['language', 'search_input', 'collection']);
  });

  it('has a text for each of the twelve steps and for its buttons in every interface language', () => {
    expect(tourSteps).toHaveLength(12);
    for (const lang of ['en', 'de'] as const) {
      const texts = defaultTranslations[lang];
      for (const key of [
        ...tourSteps.map((k) => `views.tour.${k}`),
        'global.tour_guide.next',
        'global.tour_guide.skip',
      ])
        expect(textAt(texts, key), `${lang} ${key}`).toMatch(/\S/);
    }
  });
});
