// `npm test`: every check and test, in order, on a machine that may not be set up yet. Each step
// runs even when an earlier one failed, so one run shows everything that is wrong; the last line
// counts what passed and failed. Each step runs in a session of its own; at the end the run checks
// that no process of those sessions is left (counted as one more test), and ends any it finds.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { stripVTControlCharacters } from 'node:util';
import { canCheck, endProcesses, leftBehind } from './leftovers.mjs';
import { root, whatIsMissing } from './setup-lib.mjs';

const missing = whatIsMissing();
if (missing.length) {
  console.log(`Setting up first (missing: ${missing.join('; ')})`);
  const setup = spawnSync(process.execPath, ['scripts/setup.mjs'], { cwd: root, stdio: 'inherit' });
  if (setup.status !== 0) process.exit(setup.status ?? 1);
}

const reports = mkdtempSync(path.join(tmpdir(), 'vitrine-test-'));
const e2eJson = path.join(reports, 'e2e.json');
// The folder portal's data folder of the journeys (e2e/playwright.config.ts), filled in stage 1.
const e2eDataDir = mkdtempSync(path.join(tmpdir(), 'vitrine-e2e-'));
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

/**
 * A vitest run of some projects, one test file at a time, counted from its JSON report. The web
 * project's files (jsdom, one core each) run beside the server's, which start databases, converters
 * and servers of their own and so run one at a time.
 */
function vitestStep(name, label, projects) {
  const json = path.join(reports, `vitest-${label}.json`);
  return {
    name,
    label,
    cmd: bin('vitest'),
    args: [
      'run',
      ...projects.flatMap((project) => ['--project', project]),
      '--maxWorkers=1',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${json}`,
    ],
    counts: () => {
      const r = JSON.parse(readFileSync(json, 'utf8'));
      return {
        passed: r.numPassedTests,
        failed: r.numFailedTests + (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0),
      };
    },
    failures: () =>
      JSON.parse(readFileSync(json, 'utf8')).testResults.flatMap((file) =>
        file.assertionResults
          .filter((t) => t.status !== 'passed')
          .map((t) => ({
            title: `${path.relative(root, file.name)} › ${t.fullName}`,
            message: t.failureMessages?.[0] ?? t.status,
          })),
      ),
  };
}

/** The journeys of a Playwright JSON report that did not pass, with their first error. */
function journeyFailures(report) {
  const out = [];
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests)
        if (test.status !== 'expected') {
          const result = test.results.find((r) => r.status !== 'passed');
          out.push({
            title: `[${test.projectName}] ${spec.file}:${spec.line} › ${[...titles, spec.title].join(' › ')}`,
            message: result?.error?.message ?? result?.errors?.[0]?.message ?? test.status,
          });
        }
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
  };
  for (const suite of report.suites) walk(suite, []);
  return out;
}

/** The first lines of a failure's message, without terminal colours, indented under its title. */
const firstLines = (message, lines = 6) =>
  stripVTControlCharacters(message)
    .split('\n')
    .filter((line) => line.trim())
    .slice(0, lines)
    .map((line) => `         ${line.slice(0, 200)}`);

// Stages run one after the other. A stage has lanes that run side by side, each its steps one
// after the other, every line of their output marked with the step's label: format, lint and then
// the web app's tests in one lane, the server's tests and then the typecheck in the other, keep both
// cores of a small machine busy (the checks side by side with each other were slower than one after
// the other). The typecheck follows the server's tests because the first lane was the longer one by
// about a typecheck (on a clean clone: 1,070 s against 930 s before the server's tests ran the
// compiled `vitrine`, which made them about 80 s shorter).
const stages = [
  [
    [
      { name: 'format', label: 'format', cmd: bin('prettier'), args: ['--check', '.'] },
      { name: 'lint', label: 'lint', cmd: bin('eslint'), args: ['--max-warnings', '0', '.'] },
      vitestStep('unit and component tests of the web app', 'web', ['web']),
      // The journeys' server build and demo catalogue (about two minutes of tsc, Debian packages,
      // ffmpeg and the import) are made here, while the server's tests still run in the other lane,
      // rather than at the start of the journeys, which have both cores to themselves; the
      // journeys' portal then finds both made and only starts.
      {
        name: "the journeys' server build and demo catalogue",
        label: 'demo',
        cmd: 'sh',
        args: ['-c', 'node scripts/build-server.mjs --if-stale && node apps/server/bin/vitrine.mjs demo --if-empty'],
        env: { DATA_DIR: e2eDataDir, SETTINGS_FILE: path.join(root, 'e2e/settings.json'), LOG_LEVEL: 'warn' },
      },
    ],
    [
      vitestStep('unit and API tests (SQLite and PostgreSQL)', 'server', ['server', 'search-engine', 'contract']),
      { name: 'typecheck', label: 'typecheck', cmd: 'npm', args: ['run', '--silent', 'typecheck'] },
    ],
  ],
  [
    [
      {
        name: 'browser journeys (Playwright, Chromium)',
        cmd: bin('playwright'),
        args: ['test', '--config', 'e2e/playwright.config.ts'],
        env: { E2E_JSON: e2eJson, E2E_DATA_DIR: e2eDataDir },
        counts: () => {
          const s = JSON.parse(readFileSync(e2eJson, 'utf8')).stats;
          return { passed: s.expected, failed: s.unexpected + s.flaky + s.skipped };
        },
        failures: () => journeyFailures(JSON.parse(readFileSync(e2eJson, 'utf8'))),
      },
    ],
  ],
];

/**
 * Runs a step in a new session (its own process group); Ctrl+C and SIGTERM reach the whole step.
 * With `marked`, each line of its output is printed with the step's label (steps that run side by side).
 */
function run(step, sessions, marked) {
  return new Promise((resolve) => {
    const child = spawn(step.cmd, step.args, {
      cwd: root,
      stdio: marked ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: { ...process.env, ...step.env },
      detached: true,
    });
    if (marked) {
      for (const stream of [child.stdout, child.stderr]) {
        createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) =>
          console.log(`[${step.label}] ${line}`),
        );
      }
    }
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
    // 'close' comes after the marked output has been read to its end.
    child.once(marked ? 'close' : 'exit', (code) => done(code ?? 1));
  });
}

let passed = 0;
let failed = 0;
let interrupted = false;
const summary = [];
const sessions = new Set();

/** Runs a step and counts what passed and failed in it. */
async function runAndCount(step, marked) {
  const t0 = Date.now();
  if (!marked) console.log(`\n=== ${step.name}`);
  const status = await run(step, sessions, marked);
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
  const lines = [
    `${ok ? 'ok  ' : 'FAIL'} ${step.name}: ${counted.passed} passed, ${counted.failed} failed (${((Date.now() - t0) / 1000).toFixed(1)} s)`,
  ];
  // What failed, repeated at the end of the run, where a reader of its last lines finds it.
  if (counted.failed > 0 && step.failures) {
    try {
      for (const f of step.failures()) lines.push(`       ✘ ${f.title}`, ...firstLines(f.message));
    } catch {
      lines.push('       (its report could not be read)');
    }
  }
  return lines;
}

/** Runs the steps of a lane one after the other, as long as the run is not interrupted. */
async function runLane(lane, marked) {
  const lines = [];
  for (const step of lane) {
    if (interrupted) break;
    if (marked) console.log(`[${step.label}] === ${step.name}`);
    lines.push(...(await runAndCount(step, marked)));
  }
  return lines;
}

for (const stage of stages) {
  if (interrupted) break;
  const marked = stage.length > 1;
  if (marked)
    console.log(`\n=== side by side: ${stage.map((lane) => lane.map((step) => step.name).join(', then ')).join('; ')}`);
  summary.push(...(await Promise.all(stage.map((lane) => runLane(lane, marked)))).flat());
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
