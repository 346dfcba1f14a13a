/**
 * A shaded view of a 3D model (STL, OBJ, PLY, glTF binary) drawn by a small software rasteriser, so
 * that models get a real picture without a GPU or a 3D library. Formats it cannot read answer
 * undefined (the caller shows a typed icon). Pure computation on a buffer: it runs in a worker
 * thread (model-renderer.ts), never in the thread that serves requests.
 */

/** A model the limits refuse; the message says why and names the setting. */
export class ModelRefused extends Error {}

/** Refuses a model once it is known to have more triangles than allowed. */
function checkTriangles(count: number, max: number, exact = true): void {
  if (count > max) {
    const how = exact ? `${count.toLocaleString('en')} triangles` : `more than ${max.toLocaleString('en')} triangles`;
    throw new ModelRefused(
      `The model has ${how}; at most ${max.toLocaleString('en')} are drawn (models.maxTriangles).`,
    );
  }
}

interface Mesh {
  positions: Float32Array;
  /** Three indices per triangle. */
  triangles: Uint32Array;
}

function parseStl(buf: Buffer, maxTriangles: number): Mesh {
  const count = buf.length >= 84 ? buf.readUInt32LE(80) : 0;
  const isBinary = buf.length === 84 + count * 50;
  let positions: Float32Array;
  if (isBinary) {
    checkTriangles(count, maxTriangles);
    positions = new Float32Array(count * 9);
    for (let i = 0; i < count; i++) {
      const o = 84 + i * 50 + 12;
      for (let v = 0; v < 9; v++) positions[i * 9 + v] = buf.readFloatLE(o + v * 4);
    }
  } else {
    const pos: number[] = [];
    for (const m of buf.toString('latin1').matchAll(/vertex\s+(\S+)\s+(\S+)\s+(\S+)/g)) {
      pos.push(Number(m[1]), Number(m[2]), Number(m[3]));
      if (pos.length % 9 === 0) checkTriangles(pos.length / 9, maxTriangles, false);
    }
    positions = Float32Array.from(pos);
  }
  const vertices = Math.floor(positions.length / 3);
  const triangles = new Uint32Array(vertices - (vertices % 3));
  for (let i = 0; i < triangles.length; i++) triangles[i] = i;
  return { positions, triangles };
}

function parseObj(text: string, maxTriangles: number): Mesh {
  const pos: number[] = [];
  const tri: number[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('v ')) {
      const [, x, y, z] = line.trim().split(/\s+/);
      pos.push(Number(x), Number(y), Number(z));
    } else if (line.startsWith('f ')) {
      const idx = line
        .trim()
        .split(/\s+/)
        .slice(1)
        .map((t) => {
          const n = Number.parseInt(t.split('/')[0] ?? '', 10);
          return n < 0 ? pos.length / 3 + n : n - 1;
        });
      for (let i = 1; i + 1 < idx.length; i++) tri.push(idx[0] ?? 0, idx[i] ?? 0, idx[i + 1] ?? 0);
      checkTriangles(tri.length / 3, maxTriangles, false);
    }
  }
  return { positions: Float32Array.from(pos), triangles: Uint32Array.from(tri) };
}

function parsePly(buf: Buffer, maxTriangles: number): Mesh | undefined {
  const end = buf.indexOf('end_header');
  if (end < 0) return undefined;
  const header = buf.subarray(0, end).toString('latin1');
  const bodyStart = buf.indexOf('\n', end) + 1;
  const format = /format (\S+)/.exec(header)?.[1];
  const vertexCount = Number(/element vertex (\d+)/.exec(header)?.[1] ?? 0);
  const faceCount = Number(/element face (\d+)/.exec(header)?.[1] ?? 0);
  const vertexProps = [
    ...(header.split('element vertex')[1]?.split('element')[0] ?? '').matchAll(/property (\S+) (\S+)/g),
  ];
  // Every face is at least one triangle; a header claiming more vertices than the file can hold
  // (one byte each at the least) is not read, rather than sizing arrays by it.
  checkTriangles(faceCount, maxTriangles);
  if (vertexCount > buf.length - bodyStart) return undefined;
  const pos = new Float32Array(vertexCount * 3);
  const tri: number[] = [];
  const xyz = ['x', 'y', 'z'].map((n) => vertexProps.findIndex((p) => p[2] === n));
  if (format === 'ascii') {
    const lines = buf.subarray(bodyStart).toString('latin1').split('\n');
    for (let i = 0; i < vertexCount; i++) {
      const parts = (lines[i] ?? '').trim().split(/\s+/).map(Number);
      for (let a = 0; a < 3; a++) pos[i * 3 + a] = parts[xyz[a] ?? 0] ?? 0;
    }
    for (let f = 0; f < faceCount; f++) {
      const parts = (lines[vertexCount + f] ?? '').trim().split(/\s+/).map(Number);
      const n = parts[0] ?? 0;
      for (let i = 2; i < n; i++) tri.push(parts[1] ?? 0, parts[i] ?? 0, parts[i + 1] ?? 0);
      checkTriangles(tri.length / 3, maxTriangles, false);
    }
    return { positions: pos, triangles: Uint32Array.from(tri) };
  }
  if (format !== 'binary_little_endian') return undefined;
  const sizes: Record<string, number> = {
    float: 4,
    float32: 4,
    double: 8,
    uchar: 1,
    uint8: 1,
    char: 1,
    int: 4,
    uint: 4,
    int32: 4,
    uint32: 4,
    short: 2,
    ushort: 2,
  };
  let o = bodyStart;
  for (let i = 0; i < vertexCount; i++) {
    vertexProps.forEach((p, k) => {
      const a = xyz.indexOf(k);
      if (a >= 0) pos[i * 3 + a] = p[1] === 'double' ? buf.readDoubleLE(o) : buf.readFloatLE(o);
      o += sizes[p[1] ?? ''] ?? 4;
    });
  }
  const list = /property list (\S+) (\S+) vertex_ind/.exec(header);
  const read = (type: string | undefined, at: number): number =>
    (type ?? '').includes('char') || type === 'uint8'
      ? buf.readUInt8(at)
      : (type ?? '').includes('short')
        ? buf.readUInt16LE(at)
        : buf.readUInt32LE(at);
  for (let f = 0; f < faceCount && list; f++) {
    const n = read(list[1], o);
    o += sizes[list[1] ?? ''] ?? 1;
    const idx: number[] = [];
    for (let i = 0; i < n; i++, o += sizes[list[2] ?? ''] ?? 4) idx.push(read(list[2], o));
    for (let i = 1; i + 1 < n; i++) tri.push(idx[0] ?? 0, idx[i] ?? 0, idx[i + 1] ?? 0);
    checkTriangles(tri.length / 3, maxTriangles, false);
  }
  return { positions: pos, triangles: Uint32Array.from(tri) };
}

interface Gltf {
  meshes?: { primitives: { attributes: { POSITION?: number }; indices?: number }[] }[];
  accessors?: { bufferView?: number; byteOffset?: number; count: number; componentType: number }[];
  bufferViews?: { byteOffset?: number; byteLength: number; byteStride?: number }[];
}

function parseGlb(buf: Buffer, maxTriangles: number): Mesh | undefined {
  if (buf.toString('latin1', 0, 4) !== 'glTF') return undefined;
  const jsonLength = buf.readUInt32LE(12);
  const gltf = JSON.parse(buf.toString('utf8', 20, 20 + jsonLength)) as Gltf;
  const binStart = 20 + jsonLength + 8;
  const pos: number[] = [];
  const tri: number[] = [];
  const view = (accessor: number) => {
    const a = gltf.accessors?.[accessor];
    const v = a?.bufferView === undefined ? undefined : gltf.bufferViews?.[a.bufferView];
    return a && v
      ? { a, start: binStart + (v.byteOffset ?? 0) + (a.byteOffset ?? 0), stride: v.byteStride }
      : undefined;
  };
  // glTF 1.0 keeps meshes in objects keyed by name; only glTF 2.0 (arrays) is drawn.
  if (!Array.isArray(gltf.meshes) || !Array.isArray(gltf.accessors)) return undefined;
  // The accessors say how many triangles there are before any of them is read.
  let declared = 0;
  for (const mesh of gltf.meshes) {
    for (const prim of mesh.primitives) {
      const counted = prim.indices ?? prim.attributes.POSITION;
      declared += Math.floor((counted === undefined ? 0 : (gltf.accessors[counted]?.count ?? 0)) / 3);
    }
  }
  checkTriangles(declared, maxTriangles);
  for (const mesh of gltf.meshes) {
    for (const prim of mesh.primitives) {
      const p = prim.attributes.POSITION === undefined ? undefined : view(prim.attributes.POSITION);
      if (!p) continue;
      const base = pos.length / 3;
      const stride = p.stride ?? 12;
      for (let i = 0; i < p.a.count; i++) {
        for (let c = 0; c < 3; c++) pos.push(buf.readFloatLE(p.start + i * stride + c * 4));
      }
      const ix = prim.indices === undefined ? undefined : view(prim.indices);
      if (!ix) {
        for (let i = 0; i < p.a.count; i++) tri.push(base + i);
        continue;
      }
      const size = ix.a.componentType === 5125 ? 4 : ix.a.componentType === 5123 ? 2 : 1;
      for (let i = 0; i < ix.a.count; i++) {
        const at = ix.start + i * size;
        tri.push(base + (size === 4 ? buf.readUInt32LE(at) : size === 2 ? buf.readUInt16LE(at) : buf.readUInt8(at)));
      }
    }
  }
  return { positions: Float32Array.from(pos), triangles: Uint32Array.from(tri) };
}

/** Draws the mesh from above and to the side, flat-shaded with a z-buffer. */
function rasterise(mesh: Mesh, width: number, height: number): Uint8Array {
  const { positions: p, triangles: t } = mesh;
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < p.length; i++) {
    const v = p[i] ?? 0;
    if (!Number.isFinite(v)) continue;
    min[i % 3] = Math.min(min[i % 3] ?? 0, v);
    max[i % 3] = Math.max(max[i % 3] ?? 0, v);
  }
  const c = [0, 1, 2].map((a) => ((min[a] ?? 0) + (max[a] ?? 0)) / 2);
  const yaw = 0.6;
  const pitch = 0.45;
  const [cy, sy, cp, sp] = [Math.cos(yaw), Math.sin(yaw), Math.cos(pitch), Math.sin(pitch)];
  const n = p.length / 3;
  const v = new Float32Array(n * 3);
  let extent = 1e-9;
  for (let i = 0; i < n; i++) {
    const x = (p[i * 3] ?? 0) - (c[0] ?? 0);
    const y = (p[i * 3 + 1] ?? 0) - (c[1] ?? 0);
    const z = (p[i * 3 + 2] ?? 0) - (c[2] ?? 0);
    const x1 = x * cy + z * sy;
    const z1 = -x * sy + z * cy;
    const y2 = y * cp - z1 * sp;
    const z2 = y * sp + z1 * cp;
    v[i * 3] = x1;
    v[i * 3 + 1] = y2;
    v[i * 3 + 2] = z2;
    extent = Math.max(extent, Math.abs(x1) / width, Math.abs(y2) / height);
  }
  const scale = 0.45 / extent;
  for (let i = 0; i < n; i++) {
    v[i * 3] = width / 2 + (v[i * 3] ?? 0) * scale;
    v[i * 3 + 1] = height / 2 - (v[i * 3 + 1] ?? 0) * scale;
  }
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) rgba.set([238, 241, 245, 255], i * 4);
  const depth = new Float32Array(width * height).fill(-Infinity);
  const light = [0.4, 0.6, 0.7];
  for (let k = 0; k + 2 < t.length; k += 3) {
    const [a, b, d] = [(t[k] ?? 0) * 3, (t[k + 1] ?? 0) * 3, (t[k + 2] ?? 0) * 3];
    const ax = v[a] ?? 0,
      ay = v[a + 1] ?? 0,
      az = v[a + 2] ?? 0;
    const bx = v[b] ?? 0,
      by = v[b + 1] ?? 0,
      bz = v[b + 2] ?? 0;
    const dx = v[d] ?? 0,
      dy = v[d + 1] ?? 0,
      dz = v[d + 2] ?? 0;
    // Normal in view space (screen y points down, so flip it back).
    const ux = bx - ax,
      uy = -(by - ay),
      uz = bz - az;
    const wx = dx - ax,
      wy = -(dy - ay),
      wz = dz - az;
    let nx = uy * wz - uz * wy,
      ny = uz * wx - ux * wz,
      nz = ux * wy - uy * wx;
    const len = Math.hypot(nx, ny, nz) || 1;
    nx /= len;
    ny /= len;
    nz /= len;
    const shade = 0.25 + 0.75 * Math.abs(nx * (light[0] ?? 0) + ny * (light[1] ?? 0) + nz * (light[2] ?? 0));
    const area = (bx - ax) * (dy - ay) - (by - ay) * (dx - ax);
    if (!Number.isFinite(area) || Math.abs(area) < 1e-12) continue;
    const x0 = Math.max(0, Math.floor(Math.min(ax, bx, dx))),
      x1 = Math.min(width - 1, Math.ceil(Math.max(ax, bx, dx)));
    const y0 = Math.max(0, Math.floor(Math.min(ay, by, dy))),
      y1 = Math.min(height - 1, Math.ceil(Math.max(ay, by, dy)));
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++) {
        const px = x + 0.5,
          py = y + 0.5;
        const w0 = ((bx - px) * (dy - py) - (by - py) * (dx - px)) / area;
        const w1 = ((dx - px) * (ay - py) - (dy - py) * (ax - px)) / area;
        const w2 = 1 - w0 - w1;
        if (w0 < 0 || w1 < 0 || w2 < 0) continue;
        const z = w0 * az + w1 * bz + w2 * dz;
        const at = y * width + x;
        if (z <= (depth[at] ?? -Infinity)) continue;
        depth[at] = z;
        rgba.set(
          [Math.round(70 * shade + 20), Math.round(120 * shade + 25), Math.round(190 * shade + 30), 255],
          at * 4,
        );
      }
    }
  }
  return rgba;
}

/** The size of a drawn view, in pixels. */
export const MODEL_VIEW_SIZE = { width: 1200, height: 800 };

/**
 * Draws a model of the given format as RGBA pixels (MODEL_VIEW_SIZE); undefined for a format or a
 * file it cannot read. Throws ModelRefused for a model over `maxTriangles`.
 */
export function drawModel(buf: Buffer, format: string, maxTriangles: number): Uint8Array | undefined {
  const mesh =
    format === 'stl'
      ? parseStl(buf, maxTriangles)
      : format === 'obj'
        ? parseObj(buf.toString('utf8'), maxTriangles)
        : format === 'ply'
          ? parsePly(buf, maxTriangles)
          : format === 'glb'
            ? parseGlb(buf, maxTriangles)
            : undefined;
  if (!mesh || mesh.triangles.length < 3) return undefined;
  return rasterise(mesh, MODEL_VIEW_SIZE.width, MODEL_VIEW_SIZE.height);
}
