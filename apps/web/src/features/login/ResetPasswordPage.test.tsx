import { screen } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/renderApp.tsx';
import { api, createSessionServer } from '../../test/sessionServer.ts';
import { startTestServer } from '../../test/testServer.ts';

const server = createSessionServer();

/** Pastes the text into the field, as typing long passwords key by key is slow in jsdom. */
async function fill(user: UserEvent, field: HTMLElement, text: string) {
  await user.click(field);
  await user.paste(text);
}
startTestServer(server, 'error');

describe('set a new password (the link of portal-spec §7 "POST user/forgot-password")', () => {
  it('checks length and repetition, then saves with the token of the link', async () => {
    let sent: unknown;
    server.use(
      http.post(api('user/reset-password'), async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ ok: true });
      }),
    );
    const { user } = await renderApp('/reset-password?token=tok123');
    await screen.findByRole('heading', { level: 1, name: 'Set a new password' });
    await fill(user, screen.getByLabelText(/^New password/), 'short');
    await user.click(screen.getByRole('button', { name: 'Save password' }));
    expect(screen.getByText('The password needs at least 8 characters.')).toBeInTheDocument();
    await fill(user, screen.getByLabelText(/^New password/), ' but longer');
    await fill(user, screen.getByLabelText(/^Repeat the new password/), 'different');
    await user.click(screen.getByRole('button', { name: 'Save password' }));
    expect(screen.getByText('The passwords do not match.')).toBeInTheDocument();
    await user.clear(screen.getByLabelText(/^Repeat the new password/));
    await fill(user, screen.getByLabelText(/^Repeat the new password/), 'short but longer');
    await user.click(screen.getByRole('button', { name: 'Save password' }));
    expect(await screen.findByText(/^Your new password is saved./)).toBeInTheDocument();
    expect(sent).toEqual({ token: 'tok123', pass: 'short but longer' });
    // Three rounds of form input; on a busy machine jsdom needs more than the default 5 s for them.
  }, 15_000);

  it('says when the link is invalid, used or expired', async () => {
    server.use(
      http.post(api('user/reset-password'), () =>
        HttpResponse.json({ error: 'validation', message: 'invalid' }, { status: 400 }),
      ),
    );
    const { user } = await renderApp('/reset-password?token=old');
    await fill(user, await screen.findByLabelText(/^New password/), 'long enough');
    await fill(user, screen.getByLabelText(/^Repeat the new password/), 'long enough');
    await user.click(screen.getByRole('button', { name: 'Save password' }));
    expect(await screen.findByText(/This link is invalid, used or expired/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'To the login page' })).toHaveAttribute('href', '#/login');
  });
});
