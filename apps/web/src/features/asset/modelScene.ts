import {
  Box3,
  DirectionalLight,
  HemisphereLight,
  Mesh,
  PerspectiveCamera,
  Scene,
  Sphere,
  Spherical,
  Texture,
  Vector3,
  WebGLRenderer,
  type Material,
  type Object3D,
} from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { describeView, frameDistance, moveView, type OrbitView, type ViewKeyAction } from './orbit.ts';

/** The camera's vertical field of view, in degrees. */
const FOV = 40;
/** The view a model is first shown from: a little from the right and from above. */
const START = { azimuth: Math.PI / 6, polar: (Math.PI * 5) / 12 };
/** How near and how far the camera may go, as parts of the framed distance. */
const ZOOM_RANGE = { min: 0.2, max: 5 };

export interface ModelScene {
  move(action: Exclude<ViewKeyAction, { kind: 'reset' }>): void;
  reset(): void;
  dispose(): void;
}

/** Frees what a model holds on the graphics card: geometries, materials and their textures. */
export function disposeModel(object: Object3D): void {
  object.traverse((node) => {
    if (!(node instanceof Mesh)) return;
    (node.geometry as { dispose(): void }).dispose();
    const materials = (Array.isArray(node.material) ? node.material : [node.material]) as Material[];
    for (const material of materials) {
      for (const value of Object.values(material)) if (value instanceof Texture) value.dispose();
      material.dispose();
    }
  });
}

/**
 * Draws `model` on `canvas`, framed to fit `frame` (the box the canvas fills), lit from the camera
 * and from the sky so that its form shows. It draws only when the view changes (dragging, zooming,
 * a key, a new size): nothing runs while nobody moves it. The canvas's data-view attribute says the
 * view (azimuth and polar angle in degrees, distance).
 */
export function showModel(canvas: HTMLCanvasElement, frame: HTMLElement, model: Object3D): ModelScene {
  const bounds = new Box3().setFromObject(model);
  if (bounds.isEmpty()) throw new Error('The model has nothing to draw.');
  const sphere = bounds.getBoundingSphere(new Sphere());
  model.position.sub(sphere.center);

  const renderer = new WebGLRenderer({ canvas, antialias: true, alpha: true });
  renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
  const scene = new Scene();
  scene.add(new HemisphereLight(0xffffff, 0x50505a, 1.5));
  const camera = new PerspectiveCamera(FOV, 1, 1, 2);
  // A light that moves with the camera, so the side looked at is always lit.
  const headlight = new DirectionalLight(0xffffff, 2);
  headlight.position.set(0.5, 1, 1);
  camera.add(headlight);
  scene.add(camera, model);

  const sizeOf = () => ({ width: frame.clientWidth || 400, height: frame.clientHeight || 300 });
  const start = sizeOf();
  const distance = frameDistance(sphere.radius, FOV, start.width / start.height);
  camera.near = distance / 100;
  camera.far = distance * ZOOM_RANGE.max + sphere.radius * 2;
  const controls = new OrbitControls(camera, canvas);
  controls.minDistance = distance * ZOOM_RANGE.min;
  controls.maxDistance = distance * ZOOM_RANGE.max;
  const place = (view: OrbitView) => {
    camera.position.setFromSpherical(new Spherical(view.distance, view.polar, view.azimuth)).add(controls.target);
    camera.lookAt(controls.target);
  };
  place({ ...START, distance });
  controls.update();
  controls.saveState();

  const view = (): OrbitView => {
    const s = new Spherical().setFromVector3(new Vector3().subVectors(camera.position, controls.target));
    return { azimuth: s.theta, polar: s.phi, distance: s.radius };
  };
  const render = () => {
    renderer.render(scene, camera);
    canvas.dataset.view = describeView(view());
  };
  const resize = () => {
    const { width, height } = sizeOf();
    renderer.setSize(width, height, false);
    camera.aspect = width / height;
    camera.updateProjectionMatrix();
    render();
  };
  controls.addEventListener('change', render);
  const observer = new ResizeObserver(resize);
  observer.observe(frame);
  resize();

  return {
    move(action) {
      place(moveView(view(), action, { min: controls.minDistance, max: controls.maxDistance }));
      controls.update();
    },
    reset() {
      controls.reset();
    },
    dispose() {
      observer.disconnect();
      controls.removeEventListener('change', render);
      controls.dispose();
      disposeModel(model);
      renderer.dispose();
      renderer.forceContextLoss();
    },
  };
}
