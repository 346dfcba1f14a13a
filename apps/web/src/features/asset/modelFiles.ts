import { DoubleSide, LoadingManager, Mesh, MeshStandardMaterial, type BufferGeometry, type Object3D } from 'three';
import type { ModelFormat } from '@vitrine/contract/download';

/**
 * A model's file read into something three.js draws, by the file's format. Each format's loader is
 * a chunk of its own, fetched the first time a model of that format is shown.
 */
export async function parseModel(format: ModelFormat, data: ArrayBuffer): Promise<Object3D> {
  const files = ownBytesOnly();
  const model = await parseWith(files.manager, format, data);
  // Textures arrive after the model is read; it is shown (and drawn once) only when they are there.
  await files.settled();
  return model;
}

async function parseWith(manager: LoadingManager, format: ModelFormat, data: ArrayBuffer): Promise<Object3D> {
  switch (format) {
    case 'glb':
    case 'gltf': {
      const { GLTFLoader } = await import('three/examples/jsm/loaders/GLTFLoader.js');
      return (await new GLTFLoader(manager).parseAsync(data, '')).scene;
    }
    case 'obj': {
      const { OBJLoader } = await import('three/examples/jsm/loaders/OBJLoader.js');
      return new OBJLoader(manager).parse(new TextDecoder().decode(data));
    }
    case 'stl': {
      const { STLLoader } = await import('three/examples/jsm/loaders/STLLoader.js');
      return solid(new STLLoader(manager).parse(data));
    }
    case 'ply': {
      const { PLYLoader } = await import('three/examples/jsm/loaders/PLYLoader.js');
      return solid(new PLYLoader(manager).parse(data));
    }
    case 'dae': {
      const { ColladaLoader } = await import('three/examples/jsm/loaders/ColladaLoader.js');
      const collada = new ColladaLoader(manager).parse(new TextDecoder().decode(data), '');
      if (!collada) throw new Error('The file is no COLLADA document.');
      return collada.scene;
    }
  }
}

/** One white pixel, as PNG and as TGA: what a texture the file does not carry is drawn with. */
const WHITE_PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4//8/AAX+Av4N70a4AAAAAElFTkSuQmCC';
const WHITE_TGA = 'data:application/octet-stream;base64,AAACAAAAAAAAAAAAAQABABgA////';

/**
 * Files a model names beside itself (textures, materials, buffers) have no signed URL of their own,
 * so they are not requested: only what the file carries inside (data and blob URLs) is loaded, and
 * a texture it names elsewhere is drawn white, so the model shows in its shading alone. `settled`
 * waits until every texture asked for has come (or failed).
 */
function ownBytesOnly(): { manager: LoadingManager; settled: () => Promise<void> } {
  let loading = false;
  let done: () => void = () => undefined;
  const idle = new Promise<void>((resolve) => (done = resolve));
  const manager = new LoadingManager(() => {
    loading = false;
    done();
  });
  manager.onStart = () => {
    loading = true;
  };
  manager.setURLModifier((url) => {
    if (/^(data|blob):/.test(url)) return url;
    return /\.tga$/i.test(url) ? WHITE_TGA : WHITE_PNG;
  });
  return { manager, settled: () => (loading ? idle : Promise.resolve()) };
}

/** Formats that carry geometry only get a plain, lit surface (their vertex colours where they have them). */
function solid(geometry: BufferGeometry): Mesh {
  if ((geometry.getAttribute('position')?.count ?? 0) === 0) throw new Error('The file holds no geometry.');
  if (!geometry.hasAttribute('normal')) geometry.computeVertexNormals();
  const material = new MeshStandardMaterial({
    color: geometry.hasAttribute('color') ? 0xffffff : 0xb8bcc4,
    vertexColors: geometry.hasAttribute('color'),
    roughness: 0.6,
    metalness: 0.1,
    // Open surfaces (a sphere with a hole) show their inside too.
    side: DoubleSide,
  });
  return new Mesh(geometry, material);
}
