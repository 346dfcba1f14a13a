import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSettings, settingsDefaults } from './settings.ts';

/**
 * The docs state defaults of the settings (README's tables and example, docs/*.md's limits); the
 * schemas in settings.ts (and the *.settings.ts it composes) are where each default is written. These
 * tests hold the two together.
 * The decision records (docs/decisions/, a folder the list below does not enter) are history and are
 * not read.
 */
const root = path.resolve(import.meta.dirname, '../../..');
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
const docs = [
  { name: 'README.md', text: readme },
  ...readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => ({ name: `docs/${f}`, text: readFileSync(path.join(root, 'docs', f), 'utf8') })),
];

const defaults = settingsDefaults();

/** The default of `name`: an environment variable (upper case) or a settings-file path (`login.maxFailures`). */
function defaultOf(name: string): unknown {
  if (/^[A-Z_]+$/.test(name)) return (defaults.env as Record<string, unknown>)[name];
  let value: unknown = defaults.file;
  for (const key of name.split('.')) value = (value as Record<string, unknown> | undefined)?.[key];
  return value;
}

interface Claim {
  where: string;
  name: string;
  value: unknown;
}

const number = (text: string) => Number(text.replace(/,/g, ''));

/** The defaults the docs' prose and tables state, in the forms they are written in. */
function claimsOf(where: string, text: string): Claim[] {
  const claims: Claim[] = [];
  const add = (name: string, value: unknown) => claims.push({ where, name, value });
  const setting = '`([A-Za-z]+(?:\\.[A-Za-z_]+)+|[A-Z][A-Z_]+)`';
  const n = '(\\d[\\d,]*)';
  for (const m of text.matchAll(new RegExp(`${setting}, ${n} in ${n} minutes(?:, at most ${n} at once)?`, 'g'))) {
    add(m[1]!, { max: number(m[2]!), minutes: number(m[3]!), ...(m[4] ? { burst: number(m[4]) } : {}) });
  }
  for (const m of text.matchAll(new RegExp(`${setting}, ${n} per process, ${n} in all`, 'g'))) {
    add(m[1]!, { perProcess: number(m[2]!), total: number(m[3]!) });
  }
  for (const m of text.matchAll(new RegExp(`${setting}, ${n} per process;`, 'g'))) add(m[1]!, number(m[2]!));
  // `key`, 5 / `key` (default 90) / `KEY`, default 60 — not a number followed by a unit of its own.
  const sep = '(?:, default |, | \\(default )';
  for (const m of text.matchAll(new RegExp(`${setting}${sep}${n}(?![\\d,]*(?: in | per | ?%))`, 'g'))) {
    add(m[1]!, number(m[2]!));
  }
  // `key` (default `users`, `admins`) / `KEY`, default `info`
  for (const m of text.matchAll(new RegExp(`${setting}(?:, default | \\(default )((?:\`[^\`]+\`(?:, )?)+)`, 'g'))) {
    const values = [...m[2]!.matchAll(/`([^`]+)`/g)].map((v) => v[1]);
    add(m[1]!, Array.isArray(defaultOf(m[1]!)) ? values : values[0]);
  }
  // default: settings `key`, `["a","b"]`
  for (const m of text.matchAll(new RegExp(`default: settings ${setting}, \`([^\`]+)\``, 'g'))) {
    add(m[1]!, JSON.parse(m[2]!));
  }
  return claims;
}

describe('the documented defaults are the schemas’ defaults', () => {
  it('README: the environment table', () => {
    const rows = [...readme.matchAll(/^\| `([A-Z_]+)` +\| `([^`]+)` +\|/gm)];
    expect(rows.map((r) => r[1])).toEqual(expect.arrayContaining(['PORT', 'HOST', 'DATA_DIR', 'LOG_LEVEL']));
    const loaded = loadSettings({ DATA_DIR: mkdtempSync(path.join(tmpdir(), 'vitrine-settings-')) });
    for (const [, name = '', value = ''] of rows) {
      if (name === 'PUBLIC_URL') {
        // Made of HOST and PORT when not set.
        expect(loaded.publicUrl).toBe(value.replace('HOST', loaded.host).replace('PORT', String(loaded.port)));
      } else {
        expect(String(defaultOf(name)), name).toBe(value);
      }
    }
  });

  it('README: the settings file with its defaults shown', () => {
    const from = readme.indexOf('(defaults shown');
    expect(from).toBeGreaterThan(0);
    const block = /```json\n([\s\S]*?)```/.exec(readme.slice(from))?.[1] ?? '';
    const shown = JSON.parse(block) as Record<string, Record<string, unknown>>;
    // The SMTP server has no default; the example says where it comes from.
    expect(shown.mail?.smtpUrl).toMatch(/SMTP_URL/);
    delete shown.mail?.smtpUrl;
    expect(Object.keys(shown).length).toBeGreaterThanOrEqual(5);
    for (const [key, value] of Object.entries(shown)) expect(defaultOf(key), key).toEqual(value);
  });

  const claims = docs.flatMap((d) => claimsOf(d.name, d.text));

  it('finds the defaults the docs state in prose and tables', () => {
    expect(claims.length).toBeGreaterThanOrEqual(20);
  });

  it.each(claims.map((c) => [`${c.where}: ${c.name}`, c] as const))('%s', (_label, claim) => {
    expect(defaultOf(claim.name)).toEqual(claim.value);
  });
});
