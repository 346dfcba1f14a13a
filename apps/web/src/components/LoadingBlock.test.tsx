import { render, screen } from '@testing-library/react';
import axe from 'axe-core';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { LoadingBlock } from './LoadingBlock.tsx';

describe('loading placeholders (accessible by default)', () => {
  it.each(['en', 'de'])('are a named progress bar with no ARIA that axe refuses, in %s', async (lng) => {
    const i18n = i18next.createInstance();
    await i18n.use(initReactI18next).init({
      lng,
      resources: {
        en: { translation: { global: { loading: 'Loading…' } } },
        de: { translation: { global: { loading: 'Wird geladen…' } } },
      },
    });
    const { container } = render(
      <I18nextProvider i18n={i18n}>
        <main>
          <section aria-label="Highlights">
            <LoadingBlock height={250} />
          </section>
        </main>
      </I18nextProvider>,
    );
    expect(screen.getByRole('progressbar', { name: lng === 'de' ? 'Wird geladen…' : 'Loading…' })).toBeVisible();
    const results = await axe.run(container, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } });
    expect(results.violations.map((v) => v.id)).toEqual([]);
  });
});
