import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCall } from '@vitrine/contract/call';
import { forbidden, unsupportedMediaType } from './errors.ts';
import { installErrorHandler } from './error-handler.ts';
import { registerCall } from './route.ts';

// A small app with the real error handler and call registration, so each error path can be provoked.
async function appWith(handler: () => Promise<{ ok: true }>, serverFolders: string[] = []) {
  const app = Fastify({ logger: false });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app, serverFolders);
  const call = defineCall({
    method: 'POST',
    path: 'probe',
    summary: 'probe',
    body: z.object({ name: z.string().min(1) }),
    response: z.object({ ok: z.literal(true) }),
  });
  registerCall(app, call, handler);
  await app.ready();
  return app;
}

const post = (payload: string, type = 'application/json') => ({
  method: 'POST' as const,
  url: '/assetportal/api/probe',
  payload,
  headers: { 'content-type': type },
});

describe('error handler (STYLE #5: stable error ids, generic 500)', () => {
  it('answers malformed JSON with 400 validation', async () => {
    const app = await appWith(async () => ({ ok: true }));
    const res = await app.inject(post('{"name":'));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'validation', message: 'The request body is not valid JSON.' });
  });

  it('answers a body that breaks the schema with 400 and the field that is wrong', async () => {
    const app = await appWith(async () => ({ ok: true }));
    const res = await app.inject(post('{"name":""}'));
    expect(res.statusCode).toBe(400);
    expect(res.json().details[0].path).toBe('body.name');
  });

  it('answers an unsupported content type with 415', async () => {
    const app = await appWith(async () => ({ ok: true }));
    const res = await app.inject(post('name=x', 'application/x-www-form-urlencoded'));
    expect(res.statusCode).toBe(415);
    expect(res.json().error).toBe('unsupported_media_type');
  });

  it('maps a domain error to its status and id', async () => {
    const app = await appWith(async () => {
      throw forbidden('Only administrators may do this.');
    });
    const res = await app.inject(post('{"name":"x"}'));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'forbidden', message: 'Only administrators may do this.' });
  });

  it('hides the internals of an unexpected failure behind a generic 500', async () => {
    const app = await appWith(async () => {
      throw new Error('connection string postgres://secret@db');
    });
    const res = await app.inject(post('{"name":"x"}'));
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('secret');
    expect(res.json().error).toBe('internal');
  });

  it("answers a domain error that quotes a tool or the file system without the server's folders or stack frames", async () => {
    const quoted = [
      'photo.jpg could not be converted: Input file is missing: /srv/vitrine/data/files/ab/photo.jpg',
      "manual.pdf: Syntax Error: Couldn't open file '/tmp/vitrine-page-x1/in.pdf': No such file.",
      'clip.mp4 failed: /opt/vitrine/apps/server/src/adapters/video.ts:10:3\n    at run (file:///opt/vitrine/apps/server/src/adapters/process.ts:40:9)',
      'clip.mp4 could not be converted: ffprobe failed: moov atom not found /srv/media/clip.mp4: Invalid data',
    ];
    for (const message of quoted) {
      const app = await appWith(async () => {
        throw unsupportedMediaType(message);
      }, ['/srv/vitrine/data', '/tmp', '/opt/vitrine']);
      const res = await app.inject(post('{"name":"x"}'));
      expect(res.statusCode).toBe(415);
      const answer = res.json().message as string;
      expect(answer).not.toMatch(/\/srv|\/tmp|\/opt|\bat run\b|process\.ts/);
      expect(answer).toMatch(/^(photo\.jpg|manual\.pdf|clip\.mp4)/);
      expect(answer).toContain('…');
    }
  });
});
