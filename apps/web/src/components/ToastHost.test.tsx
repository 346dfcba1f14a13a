import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { toast } from '../lib/toast.ts';
import { ToastHost } from './ToastHost.tsx';

async function renderHost() {
  const i18n = i18next.createInstance();
  await i18n.use(initReactI18next).init({
    lng: 'en',
    resources: { en: { translation: { toast: { a: 'First notice', b: 'Blocked for {{0}}' } } } },
  });
  render(
    <I18nextProvider i18n={i18n}>
      <ToastHost />
    </I18nextProvider>,
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
});
