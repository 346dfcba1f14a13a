import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anonymous, type Auth } from '../auth/caller.ts';
import { loadSettings, SettingsError } from '../settings.ts';
import {
  declaredFields,
  fieldAudience,
  fieldsSettingSchema,
  hiddenFieldsOf,
  restrictedFields,
} from './field-audience.ts';

const declared = (field_name: string, more: object = {}) => ({
  field_name,
  default_labels: { en: field_name },
  is_facet: true,
  range_facet: false,
  multi_valued: false,
  origin: 'settings',
  type: 'string',
  ...more,
});

const user = (groups: string[]): Auth => ({ ...anonymous, userId: 7, name: 'ann', groups, isAssetUser: true });
const guest: Auth = { ...anonymous, groups: ['public'], isAssetUser: true };

describe('field audiences (docs/security.md "Field audiences", issue #48)', () => {
  it('positions, serial numbers, owners and contacts are for account holders unless the settings say more', () => {
    const fields = fieldsSettingSchema.parse([
      declared('camera_serial'),
      declared('owner_name'),
      declared('contact_email'),
      declared('project'),
    ]);
    for (const name of ['gps_lat', 'gps_lon', 'camera_serial', 'owner_name', 'contact_email'])
      expect(fieldAudience(fields, name), name).toEqual(['users', 'admins']);
    for (const name of ['title', 'creator', 'copyright', 'project', 'ownership_note_free'])
      expect(fieldAudience(fields, name), name).toBeNull();
  });

  it('visibleTo names the audience, personal marks a field, and both reach built-in fields', () => {
    const fields = fieldsSettingSchema.parse([
      declared('project', { visibleTo: ['staff'] }),
      declared('notes', { personal: true }),
      declared('owner_name', { personal: false }),
      { field_name: 'gps_lat', visibleTo: ['public', 'users'] },
      { field_name: 'creator', personal: true },
    ]);
    expect(fieldAudience(fields, 'project')).toEqual(['staff']);
    expect(fieldAudience(fields, 'notes')).toEqual(['users', 'admins']);
    expect(fieldAudience(fields, 'owner_name')).toBeNull();
    expect(fieldAudience(fields, 'gps_lat')).toEqual(['public', 'users']);
    expect(fieldAudience(fields, 'gps_lon')).toEqual(['users', 'admins']);
    expect(fieldAudience(fields, 'creator')).toEqual(['users', 'admins']);
    // The index gets the declarations alone; a restricted one keeps its words out of full-text search.
    expect(declaredFields(fields).map((f) => [f.field_name, f.textSearch])).toEqual([
      ['project', false],
      ['notes', false],
      ['owner_name', undefined],
    ]);
  });

  it('a caller sees a field through one of its groups; guests and share visitors through the guest groups', () => {
    const restricted = restrictedFields(fieldsSettingSchema.parse([declared('project', { visibleTo: ['staff'] })]));
    expect([...restricted.keys()].sort()).toEqual(['gps_lat', 'gps_lon', 'project']);
    const guestGroups = ['public'];
    expect([...hiddenFieldsOf(guest, restricted, guestGroups)].sort()).toEqual(['gps_lat', 'gps_lon', 'project']);
    expect([...hiddenFieldsOf(user(['users']), restricted, guestGroups)]).toEqual(['project']);
    expect([...hiddenFieldsOf(user(['staff', 'admins']), restricted, guestGroups)]).toEqual([]);
    // A share link's visitor holds its creator's groups for assets, not for fields.
    const visitor: Auth = {
      ...user(['users', 'staff']),
      userId: null,
      share: { id: 1, assetIds: [1], downloadSets: [] },
    };
    expect([...hiddenFieldsOf(visitor, restricted, guestGroups)].sort()).toEqual(['gps_lat', 'gps_lon', 'project']);
    // Guests see a field whose audience names a guest group.
    const open = restrictedFields(fieldsSettingSchema.parse([{ field_name: 'gps_lat', visibleTo: ['public'] }]));
    expect([...hiddenFieldsOf(guest, open, guestGroups)]).toEqual(['gps_lon']);
  });

  it('an audience entry for a field that is not built in is refused at start, naming the key', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-settings-'));
    writeFileSync(
      path.join(dir, 'settings.json'),
      JSON.stringify({ fields: [{ field_name: 'owner', visibleTo: ['x'] }] }),
    );
    expect(() => loadSettings({ DATA_DIR: dir })).toThrow(SettingsError);
    expect(() => loadSettings({ DATA_DIR: dir })).toThrow(/fields/);
  });
});
