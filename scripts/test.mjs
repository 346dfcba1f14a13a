// `npm test`: every check and test, in order, on a machine that may not be set up yet. Each step
// runs even when an earlier one failed, so one run shows everything that is wrong; the last line
// counts what passed and failed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
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

let passed = 0;
let failed = 0;
const summary = [];
for (const step of steps) {
  const t0 = Date.now();
  console.log(`\n=== ${step.name}`);
  const r = spawnSync(step.cmd, step.args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...step.env } });
  const ok = r.status === 0;
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

console.log(`\n${summary.join('\n')}`);
if (existsSync(reports)) console.log(`reports: ${reports}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
