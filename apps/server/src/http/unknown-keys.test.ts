import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { API_BASE_PATH } from '@vitrine/contract/call';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { signIn } from '../../test/auth.ts';
import { contractCalls } from '../../test/calls.ts';
import { unknownKeys } from './unknown-keys.ts';

describe('unknown keys in request bodies (docs/security.md "Other measures")', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  const registered = new Set<string>();
  beforeAll(async () => {
    t = await startTestApp({ onRoute: (r) => registered.add(`${String(r.method)} ${r.url}`) });
    admin = (await signIn(t, { name: 'alice', groups: ['admins', 'users'] })).headers;
  });
  afterAll(async () => t.close());

  /** The object at the top of a body schema, if it is one. */
  const top = (schema: z.ZodType): z.ZodObject | undefined => {
    let s: z.ZodType = schema;
    while (s instanceof z.ZodOptional || s instanceof z.ZodNullable) s = s.unwrap() as z.ZodType;
    return s instanceof z.ZodObject ? s : undefined;
  };
  /** Whether a body schema takes other keys on purpose (z.looseObject at the top). */
  const loose = (schema: z.ZodType): boolean => top(schema)?._zod.def.catchall instanceof z.ZodUnknown;

  it('every call with a JSON body answers 400 validation naming a key it does not know', async () => {
    const withBody = contractCalls.filter(
      (c) => c.body && top(c.body) && registered.has(`${c.method} ${API_BASE_PATH}${c.path}`) && !loose(c.body),
    );
    // Only the global config takes keys it does not name (those a newer version wrote).
    const open = contractCalls.filter((c) => c.body && loose(c.body)).map((c) => `${c.method} ${c.path}`);
    expect(open).toEqual(['POST config/global']);
    expect(withBody.length).toBeGreaterThan(5);
    for (const call of withBody) {
      const res = await t.app.inject({
        method: call.method,
        url: API_BASE_PATH + call.path.replace(/:(\w+)/g, '$1'),
        headers: admin,
        payload: { unexpected_key: 1 },
      });
      expect(res.statusCode, call.path).toBe(400);
      const answer = res.json<{ error: string; details: { path: string; message: string }[] }>();
      expect(answer.error, call.path).toBe('validation');
      expect(JSON.stringify(answer.details), call.path).toContain('unexpected_key');
    }
  });

  it('a login body with the wrong key names is refused, not turned into a guest session', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${API_BASE_PATH}session/get`,
      payload: { name: 'alice', password: 'x' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().session).toBeUndefined();
  });

  it('looks into nested objects and lists, and leaves objects that accept other keys on purpose', () => {
    const schema = z
      .object({
        items: z.array(z.object({ id: z.number() })),
        meta: z.object({ a: z.string() }).optional(),
        extra: z.looseObject({ b: z.string() }),
      })
      .nullish();
    const body = { items: [{ id: 1 }, { id: 2, idd: 3 }], meta: { a: 'x', z: 1 }, extra: { b: 'y', c: 2 }, more: 1 };
    expect(unknownKeys(schema, body)).toEqual(['body.items.1.idd', 'body.meta.z', 'body.more']);
    expect(unknownKeys(schema, null)).toEqual([]);
    expect(unknownKeys(z.looseObject({}), { any: 1 })).toEqual([]);
  });
});
