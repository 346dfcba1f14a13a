import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE_PATH } from '@vitrine/contract/call';
import { startTestApp, type TestApp } from './app.ts';
import { contractCalls } from './calls.ts';

interface Document {
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
  components?: { schemas?: Record<string, unknown> };
}

/**
 * The OpenAPI document the server serves at docs/json comes from the contract; client generators
 * read it, so it must be valid OpenAPI 3 for every call (checked by a real validator) and describe
 * every call the server registers.
 */
describe('the served OpenAPI document', () => {
  let t: TestApp;
  let doc: Document;

  beforeAll(async () => {
    t = await startTestApp();
    const res = await t.app.inject(`${API_BASE_PATH}docs/json`);
    expect(res.statusCode).toBe(200);
    doc = res.json<Document>();
  });
  afterAll(async () => t.close());

  it('passes an OpenAPI 3 validator (schemas, $refs, path parameters)', async () => {
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
  });

  it('describes every registered call with its method and answer', () => {
    const registered = contractCalls.filter((c) => t.app.hasRoute({ method: c.method, url: API_BASE_PATH + c.path }));
    expect(registered.length).toBeGreaterThan(20);
    for (const call of registered) {
      const path = API_BASE_PATH + call.path.replace(/:(\w+)/g, '{$1}');
      const operation = doc.paths[path]?.[call.method.toLowerCase()];
      expect(operation, `${call.method} ${call.path}`).toBeDefined();
      expect(operation?.responses, `${call.method} ${call.path}`).toHaveProperty('200');
    }
  });

  it('is refused by the validator when a $ref points nowhere (as components.schemas once did)', async () => {
    const broken = structuredClone(doc);
    broken.components = { schemas: {} };
    await expect(SwaggerParser.validate(broken as never)).rejects.toThrow(/MessageSet/);
  });
});
