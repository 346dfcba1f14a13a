import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { api, configHandlers, server } from '../../test/msw.ts';
import { renderApp } from '../../test/renderApp.tsx';

beforeAll(() => server.listen({ onUnhandledRequest: 'bypass' }));
vi.setConfig({ testTimeout: 15_000 });
afterEach(() => {
  server.resetHandlers();
  vi.restoreAllMocks();
});
afterAll(() => server.close());

const doc = { id: '9', asset_groups: ['3d'], title: 'Spider', filename: 'spider.stl', pixel_x: 800, pixel_y: 600 };
const picture = '/media/preview/9?exp=1&sig=p';
const modelUrl = '/media/download/9/0?exp=1&sig=m';

/** A 3D asset whose preview names its model; answers the model requests made. */
function modelAsset(file: () => Response) {
  const requested: string[] = [];
  server.use(
    ...configHandlers(),
    http.get(api('assets'), () => HttpResponse.json({ response: { docs: [doc] } })),
    http.get(api('index/fields'), () => HttpResponse.json({ visible_fields: [] })),
    http.get(api('session/csets'), () => HttpResponse.json({ convert_sets: [{ id: 0, title: 'Original' }] })),
    http.get(api('download/preview'), () =>
      HttpResponse.json({ url: picture, asset_groups: ['3d'], model: { url: modelUrl, format: 'stl' } }),
    ),
    http.get('/media/download/9/0', ({ request }) => {
      requested.push(request.url);
      return file();
    }),
  );
  return requested;
}

/** A browser with WebGL 2 (`true`: a context whose only use here is being given back) or without. */
function webgl(available: boolean) {
  const context = { getExtension: () => ({ loseContext: () => undefined }) };
  return vi
    .spyOn(HTMLCanvasElement.prototype, 'getContext')
    .mockImplementation(((type: string) =>
      available && type === 'webgl2' ? context : null) as unknown as HTMLCanvasElement['getContext']);
}

const media = async () => within(await screen.findByRole('article', {}, { timeout: 10_000 }));

describe('the 3D viewer on the asset page (issue #27)', () => {
  it("keeps the server's picture, fetches no model and logs nothing where the browser has no WebGL", async () => {
    const requested = modelAsset(() => HttpResponse.text('solid x\nendsolid x\n'));
    const asked = webgl(false);
    const errors = vi.spyOn(console, 'error');
    const warnings = vi.spyOn(console, 'warn');
    await renderApp('/asset/9');
    const article = await media();
    expect(await article.findByRole('img', { name: 'Spider' })).toHaveAttribute('src', picture);
    expect(asked).toHaveBeenCalledWith('webgl2');
    expect(article.queryByRole('application')).toBeNull();
    expect(article.queryByRole('button', { name: 'Reset view' })).toBeNull();
    expect(requested).toEqual([]);
    expect(errors).not.toHaveBeenCalled();
    expect(warnings).not.toHaveBeenCalled();
  });

  it('keeps the picture and says so, in the visitor’s language, when the model cannot be loaded', async () => {
    const requested = modelAsset(() => new HttpResponse('gone', { status: 500 }));
    webgl(true);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await renderApp('/asset/9', { locale: 'de' });
    const article = await media();
    expect(
      await article.findByText('Das 3D-Modell kann nicht gezeigt werden; das Bild zeigt es von einer Seite.'),
    ).toHaveAttribute('role', 'status');
    await waitFor(() => expect(requested).toHaveLength(1));
    expect(article.getByRole('img', { name: 'Spider' })).toBeVisible();
    expect(article.queryByRole('button', { name: 'Ansicht zurücksetzen' })).toBeNull();
  });

  it('shows the picture with a labelled progress bar and a disabled Reset view button while the model loads', async () => {
    modelAsset(() => new HttpResponse(new ReadableStream()));
    webgl(true);
    await renderApp('/asset/9');
    const article = await media();
    expect(await article.findByRole('progressbar', { name: 'Loading the 3D model' })).toBeInTheDocument();
    expect(article.getByRole('img', { name: 'Spider' })).toBeVisible();
    expect(article.getByRole('button', { name: 'Reset view' })).toBeDisabled();
    expect(article.getByText(/^Drag to turn, scroll or pinch to zoom\./)).toBeInTheDocument();
  });
});
