import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** nginx from Debian (nginx-light, which `npm test`'s setup installs: scripts/setup-lib.mjs). */
export const NGINX = '/usr/sbin/nginx';

export interface Nginx {
  origin: string;
  /** Stops nginx (SIGTERM: it ends its workers too) and waits until it has ended. */
  stop(): Promise<void>;
}

/**
 * nginx on loopback `port` in front of `upstream`, as README "Several processes" sets it up, written
 * to `dir` and started from there (`-p dir -c`, as bench/scale/run.ts does). Nothing about request
 * lines or headers is set: nginx keeps its defaults (`large_client_header_buffers 4 8k`, so a
 * request line over 8 KB is 414).
 */
export async function startNginx(dir: string, port: number, upstream: string): Promise<Nginx> {
  if (!existsSync(NGINX))
    throw new Error(`${NGINX} is missing: install the Debian package nginx-light (npm run setup)`);
  mkdirSync(dir, { recursive: true });
  const conf = path.join(dir, 'nginx.conf');
  const temp = (name: string) => path.join(dir, name);
  // Started by root, nginx's workers would run as nobody, who may not write request bodies into the
  // journey's own (private) folder.
  const runAs = process.getuid?.() === 0 ? 'user root;\n' : '';
  writeFileSync(
    conf,
    `daemon off;
${runAs}worker_processes 1;
pid ${temp('nginx.pid')};
error_log ${temp('error.log')} warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${temp('body')};
  proxy_temp_path ${temp('proxy')};
  fastcgi_temp_path ${temp('fastcgi')};
  uwsgi_temp_path ${temp('uwsgi')};
  scgi_temp_path ${temp('scgi')};
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass ${upstream};
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_buffering off;
    }
  }
}
`,
  );
  const nginx = spawn(NGINX, ['-p', dir, '-c', conf, '-e', temp('error.log')], { stdio: 'inherit' });
  const origin = `http://127.0.0.1:${port}`;
  const stop = () => stopNginx(nginx);
  for (let waited = 0; ; waited += 100) {
    const up = await fetch(`${origin}/assetportal/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { origin, stop };
    if (nginx.exitCode !== null || waited > 15_000) {
      await stop();
      const log = existsSync(temp('error.log')) ? readFileSync(temp('error.log'), 'utf8') : '';
      throw new Error(`nginx on ${origin} did not start: ${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function stopNginx(nginx: ChildProcess): Promise<void> {
  if (nginx.exitCode !== null || nginx.signalCode !== null) return;
  const exited = new Promise((resolve) => nginx.once('exit', resolve));
  nginx.kill('SIGTERM');
  const stopped = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve(false), 10_000))]);
  if (stopped === false) nginx.kill('SIGKILL');
}
