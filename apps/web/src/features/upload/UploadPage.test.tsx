import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import * as tus from 'tus-js-client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, sessionAnswer, server } from '../../test/msw.ts';
import { renderApp } from '../../test/renderApp.tsx';
import { startTestServer } from '../../test/testServer.ts';
import { uploads } from './uploads.ts';

// The browser's build of the tus client (Node's reads files from disk), over jsdom's XMLHttpRequest,
// which msw answers like the server's tus endpoint.
vi.mock('tus-js-client', () => {
  const browserBuild = 'tus-js-client/lib.esm/browser/index.js';
  return import(browserBuild);
});

startTestServer(server, 'bypass');

afterEach(() => {
  act(() => uploads.reset());
  vi.restoreAllMocks();
});

const PRESS = { id: 12, name: 'Press', path: 'Press' };

interface Options {
  maxFileBytes?: number;
  maxDailyBytes?: number;
  usedTodayBytes?: number;
}

/** edit/options as the server answers an editor, and the session of that editor. */
function editor({ maxFileBytes = 1000, maxDailyBytes = 100_000, usedTodayBytes = 0 }: Options = {}) {
  const created: string[] = [];
  server.use(
    http.post(api('session/get'), () => HttpResponse.json(sessionAnswer({ user: 'eve', isEditor: true }))),
    http.get(api('edit/options'), () =>
      HttpResponse.json({
        fields: [],
        languages: ['en'],
        groups: [],
        collections: [PRESS, { id: 13, name: '2024', path: 'Press/2024' }],
        upload: { maxFileBytes, maxDailyBytes, usedTodayBytes, extensions: ['jpg', 'png', 'pdf'] },
        canRemove: false,
      }),
    ),
    http.post(api('edit/collection'), async ({ request }) => {
      const { name } = (await request.json()) as { name: string };
      created.push(name);
      return HttpResponse.json({ id: 40, name, path: name });
    }),
  );
  return { created };
}

interface Stored {
  size: number;
  offset: number;
  metadata: Record<string, string>;
}

/** The metadata of a tus creation request, decoded. */
function metadataOf(header: string | null): Record<string, string> {
  return Object.fromEntries(
    (header ?? '')
      .split(',')
      .filter(Boolean)
      .map((pair) => {
        const [key = '', value = ''] = pair.trim().split(' ');
        return [key, new TextDecoder().decode(Uint8Array.from(atob(value), (c) => c.charCodeAt(0)))];
      }),
  );
}

/**
 * The server's tus endpoint: creation, offset and the file's bytes; the last PATCH of a file answers
 * the new asset's id. `patch` may hold a request back or answer otherwise.
 */
function tusServer(patch?: (id: string, stored: Stored) => Promise<Response | undefined> | Response | undefined) {
  const files = new Map<string, Stored>();
  const requests: { method: string; id?: string; offset?: string | null; auth?: string | null }[] = [];
  let next = 1;
  server.use(
    http.post(api('upload/files'), ({ request }) => {
      const id = `u${next++}`;
      const metadata = metadataOf(request.headers.get('upload-metadata'));
      files.set(id, { size: Number(request.headers.get('upload-length')), offset: 0, metadata });
      requests.push({ method: 'POST', id, auth: request.headers.get('authorization') });
      return new HttpResponse(null, {
        status: 201,
        headers: { Location: api(`upload/files/${id}`), 'Tus-Resumable': '1.0.0' },
      });
    }),
    http.head(api('upload/files/:id'), ({ params }) => {
      const id = String(params.id);
      const stored = files.get(id);
      requests.push({ method: 'HEAD', id });
      if (!stored) return new HttpResponse(null, { status: 404 });
      return new HttpResponse(null, {
        status: 200,
        headers: {
          'Upload-Offset': String(stored.offset),
          'Upload-Length': String(stored.size),
          'Tus-Resumable': '1.0.0',
          'Cache-Control': 'no-store',
        },
      });
    }),
    http.patch(api('upload/files/:id'), async ({ request, params }) => {
      const id = String(params.id);
      const stored = files.get(id)!;
      requests.push({ method: 'PATCH', id, offset: request.headers.get('upload-offset') });
      const answer = await patch?.(id, stored);
      if (answer) return answer;
      stored.offset += (await request.arrayBuffer()).byteLength;
      const headers: Record<string, string> = { 'Upload-Offset': String(stored.offset), 'Tus-Resumable': '1.0.0' };
      if (stored.offset === stored.size) headers['Vitrine-Asset-Id'] = String(500 + Number(id.slice(1)));
      return new HttpResponse(null, { status: 204, headers });
    }),
  );
  return { files, requests };
}

const file = (name: string, bytes = 10) => new File(['x'.repeat(bytes)], name, { type: 'image/jpeg', lastModified: 1 });

/** The page with the collection Press chosen. */
async function openPage(locale = 'en') {
  const app = await renderApp('/upload', { locale });
  const picker = await screen.findByRole('combobox', { name: locale === 'de' ? 'Sammlung' : 'Collection' });
  await app.user.selectOptions(picker, 'Press');
  return app;
}

const choose = async (user: Awaited<ReturnType<typeof renderApp>>['user'], files: File[]) =>
  user.upload(screen.getByTestId('upload-files-input'), files);

/** What the page's polite live regions say now. */
const announced = () => screen.getAllByRole('status').map((region) => region.textContent);

const row = (name: string) => screen.getByText(name, { selector: 'p' }).closest('li')!;

describe('the upload page (issue #49)', () => {
  it('is an editor’s entry of the account menu, and lists chosen files with their progress until each links to its asset', async () => {
    editor();
    const { requests, files } = tusServer();
    const { user, router } = await renderApp('/bookmark');
    await user.click(await screen.findByRole('button', { name: 'Account of eve' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Upload' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/upload'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Upload' })).toBeInTheDocument();
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Collection' }), 'Press');
    expect(screen.getByRole('button', { name: /Drop files or folders here/ })).toHaveAccessibleDescription(
      'Allowed: .jpg, .png, .pdf. Up to 1 kB per file; 100 kB left for today.',
    );

    await choose(user, [file('a.jpg', 10), file('b.png', 30)]);
    const a = await screen.findByRole('progressbar', { name: 'Upload of a.jpg' });
    expect(screen.getByRole('progressbar', { name: 'Upload of b.png' })).toBeInTheDocument();
    await waitFor(() => expect(within(row('b.png')).getByText('Uploaded')).toBeInTheDocument());
    await waitFor(() => expect(within(row('a.jpg')).getByText('Uploaded')).toBeInTheDocument());
    expect(a).toHaveAttribute('aria-valuenow', '100');
    expect(within(row('a.jpg')).getByText('100 % · 10 B of 10 B')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'All files' })).toHaveAttribute('aria-valuenow', '100');
    expect(screen.getByRole('link', { name: 'Open the asset of a.jpg' })).toHaveAttribute('href', '#/asset/501');
    expect(screen.getByRole('link', { name: 'Open the asset of b.png' })).toHaveAttribute('href', '#/asset/502');
    expect(screen.getByText('Uploaded: 2, failed or refused: 0.')).toBeInTheDocument();
    expect(announced().some((text) => /^(a\.jpg|b\.png) uploaded\.$/.test(text ?? ''))).toBe(true);
    expect(screen.getByRole('link', { name: 'Show in search' })).toHaveAttribute(
      'href',
      '#/search/*?meta_collections=12',
    );
    // Each file with its name and target; the session's token rides along.
    expect([...files.values()].map((f) => f.metadata)).toEqual([
      { filename: 'a.jpg', collection: '12' },
      { filename: 'b.png', collection: '12' },
    ]);
    expect(requests.filter((r) => r.method === 'POST').map((r) => r.auth)).toEqual([
      'Bearer token-of-the-session',
      'Bearer token-of-the-session',
    ]);
    // A finished upload forgets its address: nothing is left to resume.
    expect(Object.keys(localStorage).filter((key) => key.startsWith('tus::'))).toEqual([]);
  });

  it('refuses types the import cannot read, files over the size limit and beyond the day’s amount, and sends none of them', async () => {
    editor({ maxFileBytes: 100, maxDailyBytes: 1000, usedTodayBytes: 940 });
    const { files } = tusServer();
    const { user } = await openPage();
    await choose(user, [
      file('notes.txt'),
      file('README'),
      file('big.jpg', 101),
      file('ok.jpg', 50),
      file('late.jpg', 20),
    ]);
    expect(within(row('notes.txt')).getByText('Files of type .txt cannot be imported.')).toBeInTheDocument();
    expect(
      within(row('README')).getByText('Files without a file name extension cannot be imported.'),
    ).toBeInTheDocument();
    expect(
      within(row('big.jpg')).getByText('The file is larger than 100 B, the most one file may have.'),
    ).toBeInTheDocument();
    // 60 bytes were left: ok.jpg takes 50 of them, late.jpg needs 20.
    expect(
      within(row('late.jpg')).getByText('The file is larger than what you may still upload today.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(within(row('ok.jpg')).getByText('Uploaded')).toBeInTheDocument());
    expect(within(row('notes.txt')).queryByRole('progressbar')).not.toBeInTheDocument();
    expect([...files.values()].map((f) => f.metadata.filename)).toEqual(['ok.jpg']);
    expect(screen.getByText('Uploaded: 1, failed or refused: 4.')).toBeInTheDocument();
  });

  it('pauses a file by aborting its upload and resumes it by starting it again, where it stopped', async () => {
    editor();
    let holding = true;
    const { requests } = tusServer(async () => {
      // The first PATCH hangs as a slow line would, until the pause cuts it.
      if (holding) {
        holding = false;
        await new Promise(() => undefined);
      }
      return undefined;
    });
    const abort = vi.spyOn(tus.Upload.prototype, 'abort');
    const start = vi.spyOn(tus.Upload.prototype, 'start');
    const { user } = await openPage();
    await choose(user, [file('slow.jpg', 40)]);
    await waitFor(() => expect(requests.map((r) => r.method)).toEqual(['POST', 'PATCH']));
    expect(start).toHaveBeenCalledTimes(1);

    await user.click(screen.getByRole('button', { name: 'Pause slow.jpg' }));
    expect(abort).toHaveBeenCalledTimes(1);
    expect(within(row('slow.jpg')).getByText('Paused')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Resume all' })).toBeEnabled();

    await user.click(screen.getByRole('button', { name: 'Resume slow.jpg' }));
    expect(start).toHaveBeenCalledTimes(2);
    await waitFor(() => expect(within(row('slow.jpg')).getByText('Uploaded')).toBeInTheDocument());
    // The same upload, asked where it stopped: no second creation.
    expect(requests.map((r) => r.method)).toEqual(['POST', 'PATCH', 'HEAD', 'PATCH']);
  });

  it('tries again by itself when the connection is lost, from where the server says it stopped', async () => {
    editor();
    let lost = true;
    const { requests } = tusServer(() => {
      if (!lost) return undefined;
      lost = false;
      return HttpResponse.error();
    });
    const { user } = await openPage();
    await choose(user, [file('flaky.jpg', 30)]);
    await waitFor(() => expect(within(row('flaky.jpg')).getByText('Uploaded')).toBeInTheDocument());
    expect(requests.map((r) => r.method)).toEqual(['POST', 'PATCH', 'HEAD', 'PATCH']);
    expect(screen.getByRole('link', { name: 'Open the asset of flaky.jpg' })).toHaveAttribute('href', '#/asset/501');
  });

  it('pauses and resumes all files at once', async () => {
    editor();
    const { requests } = tusServer(async () => {
      await new Promise(() => undefined);
      return undefined;
    });
    const abort = vi.spyOn(tus.Upload.prototype, 'abort');
    const { user } = await openPage();
    await choose(user, [file('one.jpg'), file('two.jpg')]);
    await waitFor(() => expect(requests.filter((r) => r.method === 'PATCH')).toHaveLength(2));
    await user.click(screen.getByRole('button', { name: 'Pause all' }));
    expect(abort).toHaveBeenCalledTimes(2);
    expect(within(row('one.jpg')).getByText('Paused')).toBeInTheDocument();
    expect(within(row('two.jpg')).getByText('Paused')).toBeInTheDocument();
    const start = vi.spyOn(tus.Upload.prototype, 'start');
    await user.click(screen.getByRole('button', { name: 'Resume all' }));
    expect(start).toHaveBeenCalledTimes(2);
    expect(within(row('one.jpg')).getByText('Uploading')).toBeInTheDocument();
  });

  it('shows the server’s message at a file it refuses (422, 413, 415, 429)', async () => {
    editor();
    const refusals: Record<string, [number, string]> = {
      'broken.jpg': [422, 'broken.jpg: not a JPEG file (exiftool could not read it).'],
      'huge.jpg': [413, 'The file is larger than 4 GB, the most one upload may bring.'],
      'odd.png': [415, 'Files of this type cannot be imported.'],
      'many.pdf': [429, 'You uploaded 50 GB today, all you may; try again tomorrow.'],
    };
    tusServer((_id, stored) => {
      const [status, message] = refusals[stored.metadata.filename ?? '']!;
      return HttpResponse.json({ error: 'refused', message }, { status });
    });
    const { user } = await openPage();
    await choose(user, [file('broken.jpg'), file('huge.jpg'), file('odd.png'), file('many.pdf')]);
    for (const [name, [, message]] of Object.entries(refusals)) {
      expect(await within(row(name)).findByText(message)).toBeInTheDocument();
      expect(within(row(name)).getByText('Failed')).toBeInTheDocument();
    }
    expect(screen.getByRole('button', { name: 'Try broken.jpg again' })).toBeInTheDocument();
    expect(screen.getByText('Uploaded: 0, failed or refused: 4.')).toBeInTheDocument();
    expect(announced().some((text) => / not uploaded: /.test(text ?? ''))).toBe(true);
    // Only the file refused for today is kept to go on with later.
    const kept = Object.keys(localStorage).filter((key) => key.startsWith('tus::'));
    expect(kept).toHaveLength(1);
    expect(kept[0]).toContain('many.pdf');
  });

  it('walks a dropped folder and sends each file with its path inside the folder', async () => {
    editor();
    const { files } = tusServer();
    await openPage();
    const entry = (name: string, path: string, content: File) => ({
      isFile: true,
      isDirectory: false,
      name,
      fullPath: path,
      file: (done: (f: File) => void) => done(content),
    });
    const folder = (path: string, children: object[]) => {
      let read = false;
      return {
        isFile: false,
        isDirectory: true,
        fullPath: path,
        createReader: () => ({
          readEntries: (done: (entries: object[]) => void) => {
            done(read ? [] : children);
            read = true;
          },
        }),
      };
    };
    const dropped = folder('/shoot', [
      entry('a.jpg', '/shoot/a.jpg', file('a.jpg')),
      folder('/shoot/raw', [entry('b.png', '/shoot/raw/b.png', file('b.png'))]),
    ]);
    const loose = entry('c.pdf', '/c.pdf', file('c.pdf'));
    const dataTransfer = {
      items: [dropped, loose].map((e) => ({ kind: 'file', webkitGetAsEntry: () => e })),
      files: [],
      types: ['Files'],
    };
    fireEvent.drop(screen.getByRole('button', { name: /Drop files or folders here/ }), { dataTransfer });
    await waitFor(() => expect(within(row('shoot/raw/b.png')).getByText('Uploaded')).toBeInTheDocument());
    await waitFor(() => expect(within(row('c.pdf')).getByText('Uploaded')).toBeInTheDocument());
    expect(
      [...files.values()].map((f) => f.metadata).sort((x, y) => (x.filename ?? '').localeCompare(y.filename ?? '')),
    ).toEqual([
      { filename: 'a.jpg', collection: '12', relativePath: 'shoot/a.jpg' },
      { filename: 'b.png', collection: '12', relativePath: 'shoot/raw/b.png' },
      { filename: 'c.pdf', collection: '12' },
    ]);
  });

  it('after a reload lists the unfinished upload, and the same file chosen again goes on where it stopped', async () => {
    editor();
    let cut = true;
    const { requests, files } = tusServer(async (_id, stored) => {
      if (cut) {
        // The server had 25 bytes when the page went away.
        cut = false;
        stored.offset = 25;
        await new Promise(() => undefined);
      }
      return undefined;
    });
    const first = await openPage();
    await choose(first.user, [file('long.jpg', 40)]);
    await waitFor(() => expect(requests.map((r) => r.method)).toEqual(['POST', 'PATCH']));

    // A reload: the page's uploads are gone, the browser's store of their addresses is not.
    cleanup();
    act(() => uploads.reset());
    const { user } = await openPage();
    const unfinished = await screen.findByRole('region', { name: 'Unfinished uploads' });
    expect(within(unfinished).getByText(/^long\.jpg \(40 B\), begun /)).toBeInTheDocument();
    expect(screen.getByText(/continues where it stopped: drop or choose the same files again/)).toBeInTheDocument();

    await choose(user, [file('long.jpg', 40)]);
    await waitFor(() => expect(within(row('long.jpg')).getByText('Uploaded')).toBeInTheDocument());
    expect(within(row('long.jpg')).getByText(/continued where it stopped/)).toBeInTheDocument();
    expect(requests.map((r) => [r.method, r.offset])).toEqual([
      ['POST', undefined],
      ['PATCH', '0'],
      ['HEAD', undefined],
      ['PATCH', '25'],
    ]);
    expect(files.size).toBe(1);
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Unfinished uploads' })).not.toBeInTheDocument());
  });

  it('makes a new collection and sends the files into it', async () => {
    const { created } = editor();
    const { files } = tusServer();
    const { user } = await renderApp('/upload');
    await user.click(await screen.findByRole('button', { name: 'New collection' }));
    await user.type(screen.getByRole('textbox', { name: 'Name of the new collection' }), 'Fair 2026{Enter}');
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Collection' })).toHaveValue('40'));
    expect(created).toEqual(['Fair 2026']);
    await choose(user, [file('stand.jpg')]);
    await waitFor(() => expect(within(row('stand.jpg')).getByText('Uploaded')).toBeInTheDocument());
    expect([...files.values()][0]?.metadata.collection).toBe('40');
  });

  it('asks for a collection before it takes files, and the drop zone works by keyboard', async () => {
    editor();
    const { user } = await renderApp('/upload');
    const zone = await screen.findByRole('button', { name: /Drop files or folders here/ });
    expect(zone).toHaveAttribute('aria-disabled', 'true');
    zone.focus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent('Choose the collection the files go into first.');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Collection' }), 'Press/2024');
    const input = screen.getByTestId<HTMLInputElement>('upload-files-input');
    const clicked = vi.fn();
    input.addEventListener('click', clicked);
    zone.focus();
    await user.keyboard('{Enter}');
    expect(clicked).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('upload-folder-input')).toHaveAttribute('webkitdirectory');
  });

  it('speaks German', async () => {
    editor({ maxFileBytes: 100 });
    tusServer();
    const { user } = await openPage('de');
    expect(screen.getByRole('heading', { level: 1, name: 'Hochladen' })).toBeInTheDocument();
    await choose(user, [file('notiz.txt'), file('bild.jpg')]);
    expect(
      within(row('notiz.txt')).getByText('Dateien vom Typ .txt können nicht importiert werden.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(within(row('bild.jpg')).getByText('Hochgeladen')).toBeInTheDocument());
    expect(screen.getByRole('progressbar', { name: 'Hochladen von bild.jpg' })).toHaveAttribute('aria-valuenow', '100');
    expect(screen.getByRole('link', { name: 'In der Suche zeigen' })).toBeInTheDocument();
  });
});
