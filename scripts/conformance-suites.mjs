// The conformance suites scripts/conformance.mjs runs, and the CLI of each version.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export const SUITE_CLI = {
  0.1: join(ROOT, 'node_modules', 'conformance-0.1', 'dist', 'index.js'),
  0.2: join(ROOT, 'node_modules', 'conformance-0.2', 'dist', 'index.js'),
};

// The 0.2 CLI runs an extension scenario (not on the spec timeline) only when forced, and at
// the revision it is given; the tasks extension exists for 2026-07-28 only.
export const EXTENSION_RUN = ['--spec-version', '2026-07-28', '--force'];

// The tasks extension (SEP-2663). The 2026-07-28 requirement set runs these but does not
// score them, so they run again one by one, where they count. `tasks-status-notifications`
// is left out: the suite only reports it as skipped (its harness is being rewritten).
const TASKS_SCENARIOS = [
  'tasks-lifecycle',
  'tasks-capability-negotiation',
  'tasks-wire-fields',
  'tasks-request-state-removal',
  'tasks-mrtr-input',
  'tasks-request-headers',
  'tasks-dispatch-and-envelope',
  'tasks-required-task-error',
  'tasks-mrtr-composition',
];

/**
 * The suites, in the order they run. `runs` are the CLI invocations of one suite (the
 * pending scenarios of 0.2 are run one by one, at the wire they are pending for);
 * `requirements` names the revision whose required scenarios alone are scored.
 */
export const SUITES = [
  { id: '0.1-active', cli: '0.1', runs: [['--suite', 'active']] },
  { id: '0.1-pending', cli: '0.1', runs: [['--suite', 'pending']] },
  { id: '0.2-2025-11-25', cli: '0.2', requirements: '2025-11-25' },
  { id: '0.2-2026-07-28', cli: '0.2', requirements: '2026-07-28' },
  {
    id: '0.2-pending',
    cli: '0.2',
    runs: [
      ['--scenario', 'json-schema-2020-12', '--spec-version', '2025-11-25'],
      ['--scenario', 'server-sse-polling', '--spec-version', '2025-11-25'],
      ['--scenario', 'json-schema-2020-12', '--spec-version', '2026-07-28'],
      ['--scenario', 'http-header-validation', '--spec-version', '2026-07-28'],
      ['--scenario', 'http-custom-header-server-validation', '--spec-version', '2026-07-28'],
    ],
  },
  {
    id: '0.2-tasks',
    cli: '0.2',
    runs: TASKS_SCENARIOS.map((scenario) => ['--scenario', scenario, ...EXTENSION_RUN]),
  },
];
