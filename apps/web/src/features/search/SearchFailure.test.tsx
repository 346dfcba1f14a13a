import { act, render, screen } from '@testing-library/react';
import { defaultTranslations } from '@vitrine/contract/translations';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/apiClient.ts';
import { TranslationProvider, Translator } from '../../lib/translate.tsx';
import { SearchFailure } from './SearchFailure.tsx';

function renderIn(language: 'en' | 'de', error: unknown, onRetry: () => void) {
  const i18n = new Translator({ language, fallbackLanguage: 'en', messages: defaultTranslations });
  return render(
    <TranslationProvider i18n={i18n}>
      <SearchFailure error={error} onRetry={onRetry} />
    </TranslationProvider>,
  );
}

const rateLimited = (seconds: number | undefined) =>
  new ApiError(429, { error: 'rate_limited', message: 'Too many searches' }, seconds);

describe('a failed search (portal-spec §4 "Search"; docs/security.md "What is rate-limited")', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it.each([
    ['en', 'Too many searches came from your address. The search is tried again in 7 seconds.'],
    ['de', 'Von Ihrer Adresse kamen zu viele Suchen. Die Suche wird in 7 Sekunden erneut versucht.'],
  ] as const)('refused for too many searches, says how long it waits and tries again by itself (%s)', (lang, text) => {
    const onRetry = vi.fn();
    renderIn(lang, rateLimited(7), onRetry);
    expect(screen.getByRole('alert')).toHaveTextContent(text);
    act(() => void vi.advanceTimersByTime(6_900));
    expect(onRetry).not.toHaveBeenCalled();
    act(() => void vi.advanceTimersByTime(200));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('says one second in the singular, and waits at most a minute for a long Retry-After', () => {
    const onRetry = vi.fn();
    const { unmount } = renderIn('de', rateLimited(1), onRetry);
    expect(screen.getByRole('alert')).toHaveTextContent('in 1 Sekunde erneut');
    unmount();
    renderIn('en', rateLimited(3600), onRetry);
    expect(screen.getByRole('alert')).toHaveTextContent('tried again in 60 seconds');
    act(() => void vi.advanceTimersByTime(60_000));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('any other failure waits for the visitor to try again', () => {
    const onRetry = vi.fn();
    renderIn('en', new ApiError(500, undefined), onRetry);
    expect(screen.getByRole('alert')).toHaveTextContent('The search could not be completed.');
    act(() => void vi.advanceTimersByTime(120_000));
    expect(onRetry).not.toHaveBeenCalled();
    act(() => screen.getByRole('button', { name: 'Try again' }).click());
    expect(onRetry).toHaveBeenCalledTimes(1);
  });
});
