/** The version the web app reports; the server reports its own through info/check_version. */
export const FRONTEND_VERSION = '7.0.6';
export const BACKEND_VERSION = '7.0.6';

const semver = /^(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$/;

/** Version strings that are not semantic versions count as 0.0.0 (admin-spec §4). */
export function parseVersion(version: string | null | undefined): [number, number, number] {
  const m = semver.exec(version ?? '');
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [0, 0, 0];
}

/** Admins are warned when major or minor differ between backend and frontend (portal-spec §6). */
export function versionsMismatch(a: string, b: string): boolean {
  const [am, an] = parseVersion(a);
  const [bm, bn] = parseVersion(b);
  return am !== bm || an !== bn;
}
