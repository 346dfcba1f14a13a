import { describe, expect, it } from 'vitest';
import { htmlPolicyExamples } from '@vitrine/contract/html-policy.examples';
import { sanitizeHtml } from './html.ts';

describe('custom page HTML in the browser (the contract’s HTML policy, as the server applies it)', () => {
  it.each(htmlPolicyExamples.map((e) => [e.what, e] as const))('%s', (_what, example) => {
    expect(sanitizeHtml(example.input)).toBe(example.output);
  });
});
