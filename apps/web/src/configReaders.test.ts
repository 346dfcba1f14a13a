import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { configKeys } from '@vitrine/contract/config-keys';
import { configKeysNotReadByPortal } from '@vitrine/contract/config-readers';
import { configReads, repoRoot } from './test/configReads.ts';

/** The source files (not tests) under a folder of the repository. */
function sources(folder: string): string[] {
  const root = path.join(repoRoot, folder);
  return (readdirSync(root, { recursive: true }) as string[])
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$|\.d\.ts$/.test(file))
    .map((file) => path.join(root, file));
}

const admin = (file: string) => file.includes('/features/admin/') || /config-(admin|migrations)/.test(file);
const contract = sources('packages/contract/src').filter(
  (file) => !file.includes('/translations/') && !/config-(keys|readers)\.ts$/.test(file),
);
// The server's code that takes the config: what it answers with and what it does by the config.
const server = sources('apps/server/src').filter((file) =>
  /\.globalConfig\(|contract\/global-config'/.test(readFileSync(file, 'utf8')),
);
const web = sources('apps/web/src').filter((file) => !file.includes('/src/test/'));
const portal = [...web, ...contract, ...server].filter((file) => !admin(file));
const adminArea = [...web, ...contract, ...server].filter(admin);

describe('every config key the portal is said to read has a reader (admin-spec §3)', { timeout: 60_000 }, () => {
  const { keys, read } = configReads({ portal, admin: adminArea });
  const notByPortal: Record<string, string | undefined> = configKeysNotReadByPortal;

  it('reads the same keys from the types as from the schema', () => {
    expect([...keys].sort()).toEqual([...configKeys].sort());
  });

  it('finds a reader in the portal for every key not listed as read elsewhere', () => {
    expect(keys.filter((key) => !notByPortal[key] && !read.portal.has(key))).toEqual([]);
  });

  it('lists only keys the portal does not read, and those of the admin area are read there', () => {
    const listed = Object.keys(notByPortal);
    expect(listed.filter((key) => read.portal.has(key))).toEqual([]);
    expect(listed.filter((key) => notByPortal[key] === 'admin area' && !read.admin.has(key))).toEqual([]);
    expect(listed.filter((key) => notByPortal[key] === 'nothing' && read.admin.has(key))).toEqual([]);
  });
});

describe('what counts as reading a config key', () => {
  const file = path.join(repoRoot, 'apps/web/src/readsExample.ts');
  const text = `
    import type { GlobalConfig } from '@vitrine/contract/global-config';
    declare const config: GlobalConfig;
    const other = { title: 'x', infoView: { title: 'y' }, body: [{ field_name: 'z' }] };
    export const titles = [other.title, other.infoView.title, config.bookmark.title];
    export const body = config.search.thumbnails.body.map((f) => f.field_name);
    export const columns = other.body.map((f) => f.field_name);
    const { login } = config;
    export const link = login.register.links['de'];
    export const colour = (k: 'primary' | 'surface') => config.themes.options[0]?.appearance[k];
  `;
  const host = ts.createCompilerHost({});
  const getSourceFile = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.getSourceFile = (name, version, ...rest) =>
    name === file ? ts.createSourceFile(name, text, version) : getSourceFile(name, version, ...rest);
  host.fileExists = (name) => name === file || fileExists(name);
  const { read } = configReads({ example: [file] }, host);

  it('is a property of the config itself, not a property of the same name', () => {
    expect(read.example.has('bookmark.title')).toBe(true);
    expect(read.example.has('infoView.title')).toBe(false);
    expect(read.example.has('assetInfo.title')).toBe(false);
  });

  it('reads an entry of a shared list shape only under the list that is read', () => {
    expect(read.example.has('search.thumbnails.body[].field_name')).toBe(true);
    expect(read.example.has('search.list.columns[].field_name')).toBe(false);
    expect(read.example.has('infoView.paramsLeft[].field_name')).toBe(false);
  });

  it('follows destructuring, records and keys chosen from a union', () => {
    expect(read.example.has('login.register.links{}')).toBe(true);
    expect(read.example.has('themes.options[].appearance.primary')).toBe(true);
    expect(read.example.has('themes.options[].appearance.surface')).toBe(true);
    expect(read.example.has('themes.options[].appearance.secondary')).toBe(false);
  });
});
