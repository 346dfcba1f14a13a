import { Mesh, MeshStandardMaterial, type Object3D } from 'three';
import { describe, expect, it } from 'vitest';
import { parseModel } from './modelFiles.ts';

/** The text's bytes in an ArrayBuffer of this window (as Blob.arrayBuffer() gives them in a browser). */
function bytes(text: string): ArrayBuffer {
  const encoded = new TextEncoder().encode(text);
  const buffer = new ArrayBuffer(encoded.length);
  new Uint8Array(buffer).set(encoded);
  return buffer;
}

/** The meshes of a parsed model, with their vertex counts. */
function meshes(model: Object3D): Mesh[] {
  const found: Mesh[] = [];
  model.traverse((node) => {
    if (node instanceof Mesh) found.push(node);
  });
  return found;
}
const vertices = (mesh: Mesh | undefined) => mesh?.geometry.getAttribute('position').count;

const stl = `solid t
facet normal 0 0 -1
outer loop
vertex 0 0 0
vertex 0 1 0
vertex 1 0 0
endloop
endfacet
facet normal 0 -1 0
outer loop
vertex 0 0 0
vertex 1 0 0
vertex 0 0 1
endloop
endfacet
endsolid t
`;

const obj = `v 0 0 0
v 1 0 0
v 0 1 0
v 0 0 1
f 1 2 3
f 1 3 4
`;

const ply = `ply
format ascii 1.0
element vertex 3
property float x
property float y
property float z
property uchar red
property uchar green
property uchar blue
element face 1
property list uchar int vertex_indices
end_header
0 0 0 255 0 0
1 0 0 0 255 0
0 1 0 0 0 255
3 0 1 2
`;

/** A glTF 2.0 document with one triangle, its buffer carried inside as a data URL. */
function gltf(): string {
  const positions = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]);
  const base64 = btoa(String.fromCharCode(...new Uint8Array(positions.buffer)));
  return JSON.stringify({
    asset: { version: '2.0' },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ mesh: 0 }],
    meshes: [{ primitives: [{ attributes: { POSITION: 0 } }] }],
    buffers: [{ byteLength: 36, uri: `data:application/octet-stream;base64,${base64}` }],
    bufferViews: [{ buffer: 0, byteOffset: 0, byteLength: 36 }],
    accessors: [{ bufferView: 0, componentType: 5126, count: 3, type: 'VEC3', min: [0, 0, 0], max: [1, 1, 0] }],
  });
}

/** A COLLADA triangle whose colour comes from a texture beside the file (which has no URL of its own). */
const dae = `<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><up_axis>Y_UP</up_axis></asset>
  <library_images><image id="skin"><init_from>./skin.tga</init_from></image></library_images>
  <library_effects>
    <effect id="fx"><profile_COMMON>
      <newparam sid="surface"><surface type="2D"><init_from>skin</init_from></surface></newparam>
      <newparam sid="sampler"><sampler2D><source>surface</source></sampler2D></newparam>
      <technique sid="common"><lambert><diffuse><texture texture="sampler" texcoord="UV"/></diffuse></lambert></technique>
    </profile_COMMON></effect>
  </library_effects>
  <library_materials><material id="mat"><instance_effect url="#fx"/></material></library_materials>
  <library_geometries>
    <geometry id="tri"><mesh>
      <source id="pos"><float_array id="pos-a" count="9">0 0 0 1 0 0 0 1 0</float_array>
        <technique_common><accessor source="#pos-a" count="3" stride="3">
          <param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/>
        </accessor></technique_common></source>
      <vertices id="v"><input semantic="POSITION" source="#pos"/></vertices>
      <triangles material="m" count="1"><input semantic="VERTEX" source="#v" offset="0"/><p>0 1 2</p></triangles>
    </mesh></geometry>
  </library_geometries>
  <library_visual_scenes><visual_scene id="scene"><node id="n">
    <instance_geometry url="#tri"><bind_material><technique_common>
      <instance_material symbol="m" target="#mat"/>
    </technique_common></bind_material></instance_geometry>
  </node></visual_scene></library_visual_scenes>
  <scene><instance_visual_scene url="#scene"/></scene>
</COLLADA>`;

describe('reading a model file by its format', () => {
  it('reads STL with its facet normals onto a lit, two-sided surface', async () => {
    const [mesh, ...more] = meshes(await parseModel('stl', bytes(stl)));
    expect(more).toEqual([]);
    expect(vertices(mesh)).toBe(6);
    expect(mesh?.geometry.hasAttribute('normal')).toBe(true);
    expect(mesh?.material).toBeInstanceOf(MeshStandardMaterial);
  });

  it('reads PLY with its vertex colours and works out the normals it lacks', async () => {
    const [mesh] = meshes(await parseModel('ply', bytes(ply)));
    expect(vertices(mesh)).toBe(3);
    expect(mesh?.geometry.hasAttribute('normal')).toBe(true);
    expect((mesh?.material as MeshStandardMaterial).vertexColors).toBe(true);
  });

  it('reads OBJ faces', async () => {
    const [mesh] = meshes(await parseModel('obj', bytes(obj)));
    expect(vertices(mesh)).toBe(6);
  });

  it('reads glTF, with a buffer carried inside the file', async () => {
    for (const format of ['gltf', 'glb'] as const) {
      const [mesh] = meshes(await parseModel(format, bytes(gltf())));
      expect(vertices(mesh), format).toBe(3);
    }
  });

  it('reads COLLADA, and shows it only once the textures it names are there (drawn white: they have no URL)', async () => {
    const [mesh] = meshes(await parseModel('dae', bytes(dae)));
    expect(vertices(mesh)).toBe(3);
    const map = (mesh?.material as MeshStandardMaterial).map;
    expect(map?.image).toMatchObject({ width: 1, height: 1 });
    expect([...((map?.image as { data: Uint8Array }).data ?? [])]).toEqual([255, 255, 255, 255]);
  });

  it('refuses a file that holds nothing of its format', async () => {
    const empty = `solid empty\n${' '.repeat(100)}\nendsolid empty\n`;
    await expect(parseModel('stl', bytes(empty))).rejects.toThrow('no geometry');
    await expect(parseModel('glb', bytes('not a model'))).rejects.toThrow();
  });
});
