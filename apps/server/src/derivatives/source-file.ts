import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';

interface Log {
  warn(obj: object, msg: string): void;
}

let log: Log = { warn: () => undefined };

/** Where refusals of files outside their import folder are logged (the services' log). */
export function logSourceRefusalsTo(target: Log): void {
  log = target;
}

/**
 * Whether an asset's file may be served or converted: it is still there and, followed through any
 * symlinks, still inside the folder it was imported from. A file replaced by a symlink to somewhere
 * else (or a folder swapped for one) counts as missing, and the refusal is logged; so does a file
 * that became a folder. Assets imported
 * before import folders were kept have their file's own folder as the root: the file itself may
 * not lead elsewhere.
 */
export async function sourceFileUsable(src: {
  id: number;
  source_path: string;
  import_root: string | null;
}): Promise<boolean> {
  const [real, root] = await Promise.all([
    realpath(src.source_path).catch(() => undefined),
    src.import_root ?? realpath(path.dirname(src.source_path)).catch(() => undefined),
  ]);
  if (real === undefined || root === undefined) return false;
  if (
    !(await stat(real).then(
      (st) => st.isFile(),
      () => false,
    ))
  )
    return false;
  if (real.startsWith(root.endsWith(path.sep) ? root : root + path.sep)) return true;
  log.warn(
    { assetId: src.id, sourcePath: src.source_path, resolvedTo: real, importRoot: root },
    "an asset's file leads outside its import folder; it is treated as missing",
  );
  return false;
}
