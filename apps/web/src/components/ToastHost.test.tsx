import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { TranslationProvider, Translator } from '../lib/translate.tsx';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toast } from '../lib/toast.ts';
import { ToastHost } from './ToastHost.tsx';

async function renderHost() {
  const i18n = new Translator({
    language: 'en',
    fallbackLanguage: 'en',
    messages: {
      en: {
        toast: { a: 'First notice', b: 'Blocked for {{0}}', c: '{{count}} changed', undo: 'Undo' },
        global: { close: 'Close' },
      },
    },
  });
  render(
    <TranslationProvider i18n={i18n}>
      <ToastHost />
    </TranslationProvider>,
  );
}

describe('toasts (portal-spec §8 "Error catalogue")', () => {
  afterEach(() => act(() => toast.clear()));

  it('shows translated notices one after another and closes them by button', async () => {
    await renderHost();
    act(() => {
      toast.show('toast.a', 'error');
      toast.show('toast.b', 'warning', { 0: 'one minute' });
    });
    expect(screen.getByRole('alert')).toHaveTextContent('First notice');
    await userEvent.click(screen.getByRole('button', { name: /close/i }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Blocked for one minute');
  });

  it('offers one action beside the close button; choosing it runs it once and closes the notice', async () => {
    await renderHost();
    const undo = vi.fn();
    act(() => void toast.offer('toast.c', { count: 2 }, { key: 'toast.undo', run: undo }));
    const notice = screen.getByRole('status');
    expect(notice).toHaveTextContent('2 changed');
    expect(screen.getByRole('button', { name: 'Close' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Undo' }));
    expect(undo).toHaveBeenCalledOnce();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });
});
