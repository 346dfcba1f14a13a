// `npm test`: every check and test, in order, on a machine that may not be set up yet. Each step
// runs even when an earlier one failed, so one run shows everything that is wrong; the last line
// counts what passed and failed. Each step runs in a session of its own; at the end the run checks
// that no process of those sessions is left (counted as one more test), and ends any it finds.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { canCheck, endProcesses, leftBehind } from './leftovers.mjs';
import { root, whatIsMissing } from './setup-lib.mjs';

const missing = whatIsMissing();
if (missing.length) {
  console.log(`Setting up first (missing: ${missing.join('; ')})`);
  const setup = spawnSync(process.execPath, ['scripts/setup.mjs'], { cwd: root, stdio: 'inherit' });
  if (setup.status !== 0) process.exit(setup.status ?? 1);
}

const reports = mkdtempSync(path.join(tmpdir(), 'vitrine-test-'));
const vitestJson = path.join(reports, 'vitest.json');
const e2eJson = path.join(reports, 'e2e.json');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

const steps = [
  { name: 'format', cmd: bin('prettier'), args: ['--check', '.'] },
  { name: 'lint', cmd: bin('eslint'), args: ['--max-warnings', '0', '.'] },
  { name: 'typecheck', cmd: 'npm', args: ['run', '--silent', 'typecheck'] },
  {
    name: 'unit, component and API tests (SQLite and PostgreSQL)',
    cmd: bin('vitest'),
    args: ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`],
    counts: () => {
      const r = JSON.parse(readFileSync(vitestJson, 'utf8'));
      return { passed: r.numPassedTests, failed: r.numFailedTests + (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0) };
    },
  },
  {
    name: 'browser journeys (Playwright, Chromium)',
    cmd: bin('playwright'),
    args: ['test', '--config', 'e2e/playwright.config.ts'],
    env: { E2E_JSON: e2eJson },
    counts: () => {
      const s = JSON.parse(readFileSync(e2eJson, 'utf8')).stats;
      return { passed: s.expected, failed: s.unexpected + s.flaky + s.skipped };
    },
  },
];

/** Runs a step in a new session (its own process group); Ctrl+C and SIGTERM reach the whole step. */
function run(step, sessions) {
  return new Promise((resolve) => {
    const child = spawn(step.cmd, step.args, {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, ...step.env },
      detached: true,
    });
    sessions.add(child.pid);
    const forward = (signal) => {
      interrupted = true;
      try {
        process.kill(-child.pid, signal);
      } catch {
        // the step has ended already
      }
    };
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    const done = (status) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(status);
    };
    child.once('error', () => done(1));
    child.once('exit', (code) => done(code ?? 1));
  });
}

let passed = 0;
let failed = 0;
let interrupted = false;
const summary = [];
const sessions = new Set();
for (const step of steps) {
  if (interrupted) break;
  const t0 = Date.now();
  console.log(`\n=== ${step.name}`);
  const status = await run(step, sessions);
  const ok = status === 0;
  let counted = { passed: ok ? 1 : 0, failed: ok ? 0 : 1 };
  if (step.counts) {
    try {
      counted = step.counts();
      if (!ok && counted.failed === 0) counted.failed = 1;
    } catch {
      counted = { passed: 0, failed: 1 };
    }
  }
  passed += counted.passed;
  failed += counted.failed;
  summary.push(
    `${ok ? 'ok  ' : 'FAIL'} ${step.name}: ${counted.passed} passed, ${counted.failed} failed (${((Date.now() - t0) / 1000).toFixed(1)} s)`,
  );
}

// Tests and servers end the helpers they start (exiftool -stay_open, browsers); a process of a step's
// session that outlives the step was left behind, even if init adopted it after its parent died.
if (canCheck()) {
  const left = await leftBehind(sessions);
  if (left.length === 0) {
    passed++;
    summary.push('ok   no process of the run left behind');
  } else {
    failed++;
    summary.push(`FAIL ${left.length} process(es) of the run left behind, now ended:`);
    for (const p of left) summary.push(`       ${p.pid} ${p.command.slice(0, 160)}`);
    await endProcesses(left);
  }
} else {
  summary.push('--   processes left behind: not checked (needs /proc)');
}

console.log(`\n${summary.join('\n')}`);
if (existsSync(reports)) console.log(`reports: ${reports}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(interrupted ? 130 : failed === 0 ? 0 : 1);
