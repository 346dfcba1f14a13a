import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { defaultTranslations } from '@vitrine/contract/translations';
import { TranslationProvider, Translator } from '../../lib/translate.tsx';
import { expectTabKeptInside } from '../../test/focus.ts';
import { FilterDrawer, SIDEBAR_FOCUS_DELAY_MS } from './FilterDrawer.tsx';

function renderDrawer() {
  const i18n = new Translator({ language: 'en', fallbackLanguage: 'en', messages: defaultTranslations });
  render(
    <TranslationProvider i18n={i18n}>
      <FilterDrawer>
        <button type="button">Photography</button>
        <button type="button">Graphics</button>
      </FilterDrawer>
      <button type="button">Next to the drawer</button>
    </TranslationProvider>,
  );
  return { user: userEvent.setup(), opener: screen.getByRole('button', { name: 'Show filters' }) };
}

const drawer = () => screen.getByRole('dialog', { name: 'Filters' });

describe('the filter drawer on small screens (portal-spec §2 "Search", §9 sidebar focus trap after 250 ms)', () => {
  it('takes focus 250 ms after it opens, not before, and from then on Tab stays inside it', async () => {
    // Only the clocks (React's scheduler keeps running); clicked natively, as user-event waits on them.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const { user, opener } = renderDrawer();
    try {
      act(() => opener.focus());
      act(() => opener.click());
      expect(drawer()).toBeVisible();
      act(() => void vi.advanceTimersByTime(SIDEBAR_FOCUS_DELAY_MS - 1));
      expect(opener).toHaveFocus();
      act(() => void vi.advanceTimersByTime(1));
      expect(drawer()).toHaveFocus();
    } finally {
      vi.useRealTimers();
    }

    // From its hide button to the last filter, and round again.
    const [hide, last] = [
      screen.getByRole('button', { name: 'Hide filters' }),
      screen.getByRole('button', { name: 'Graphics' }),
    ];
    await expectTabKeptInside(user, hide, last, 3);
  });

  it('Escape closes it and gives focus back to the button that opened it', async () => {
    const { user, opener } = renderDrawer();
    await user.click(opener);
    await waitFor(() => expect(drawer()).toHaveFocus());
    await user.tab();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(opener).toHaveFocus();
    expect(opener).toHaveAttribute('aria-expanded', 'false');
  });

  it('Escape closes it also before it has taken focus, while the focus is still on the button that opened it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const { opener } = renderDrawer();
    try {
      act(() => opener.focus());
      act(() => opener.click());
      expect(drawer()).toBeVisible();
      expect(opener).toHaveFocus();
      act(() => void opener.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true })));
      expect(opener).toHaveAttribute('aria-expanded', 'false');
      // Past the drawer's closing transition and the moment its trap would have taken the focus.
      act(() => void vi.advanceTimersByTime(1_000));
    } finally {
      vi.useRealTimers();
    }
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(opener).toHaveFocus();
  });

  it('gives focus back to its button also when a tap opened it without focusing the button', async () => {
    const { user, opener } = renderDrawer();
    await user.click(opener);
    // A tap on a phone may leave the focus where it was.
    opener.blur();
    await waitFor(() => expect(drawer()).toHaveFocus());
    await user.click(screen.getByRole('button', { name: 'Hide filters' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(opener).toHaveFocus();
  });
});
