import { render, screen } from '@testing-library/react';
import axe from 'axe-core';
import { TranslationProvider, Translator } from '../lib/translate.tsx';
import { describe, expect, it } from 'vitest';
import { LoadingBlock } from './LoadingBlock.tsx';

describe('loading placeholders (accessible by default)', () => {
  it.each(['en', 'de'])('are a named progress bar with no ARIA that axe refuses, in %s', async (lng) => {
    const i18n = new Translator({
      language: lng,
      fallbackLanguage: 'en',
      messages: { en: { global: { loading: 'Loading…' } }, de: { global: { loading: 'Wird geladen…' } } },
    });
    const { container } = render(
      <TranslationProvider i18n={i18n}>
        <main>
          <section aria-label="Highlights">
            <LoadingBlock height={250} />
          </section>
        </main>
      </TranslationProvider>,
    );
    expect(screen.getByRole('progressbar', { name: lng === 'de' ? 'Wird geladen…' : 'Loading…' })).toBeVisible();
    const results = await axe.run(container, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } });
    expect(results.violations.map((v) => v.id)).toEqual([]);
  });
});
