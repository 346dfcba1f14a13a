/**
 * Whether the browser can draw with WebGL 2 (what three.js needs). Asked of a canvas of its own,
 * whose context is given back at once; a browser without it answers null, and nothing is logged.
 */
export function hasWebGL(canvas: HTMLCanvasElement = document.createElement('canvas')): boolean {
  const gl = canvas.getContext('webgl2');
  if (!gl) return false;
  gl.getExtension('WEBGL_lose_context')?.loseContext();
  return true;
}
