// Makes sure redis-server is installed before the tests run (`pretest`): the tests of the
// Redis integration start their own redis-server (test/support/redis-server.ts).
//
//   redis-server on PATH          nothing to do, exit 0 without a word
//   root, with apt-get            apt-get install -y redis-server (after apt-get update when
//                                 the first try fails, e.g. on an image without package lists)
//   otherwise                     say what to install, exit 1
import { spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Whether `command` is an executable file in one of the PATH directories. */
function onPath(command) {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => {
    if (dir === '') return false;
    const file = join(dir, command);
    try {
      accessSync(file, constants.X_OK);
      return statSync(file).isFile();
    } catch {
      return false;
    }
  });
}

/** Runs apt-get with the terminal's stdio; its exit status (1 when it could not start). */
function aptGet(...args) {
  const result = spawnSync('apt-get', args, {
    stdio: 'inherit',
    // No question may stop an unattended install (tzdata and the like).
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (result.error) console.error(`ensure-redis: apt-get did not start: ${result.error.message}`);
  return result.status ?? 1;
}

if (onPath('redis-server')) process.exit(0);

if (process.getuid?.() === 0 && onPath('apt-get')) {
  console.error(
    'ensure-redis: redis-server is missing; installing the Debian package redis-server',
  );
  let status = aptGet('install', '-y', 'redis-server');
  if (status !== 0) {
    // Most often the package lists are missing or stale (a fresh container image).
    status = aptGet('update');
    if (status === 0) status = aptGet('install', '-y', 'redis-server');
  }
  process.exit(status);
}

console.error(
  'The Redis tests need redis-server: install the Debian package redis-server ' +
    '(sudo apt-get install -y redis-server) or put redis-server on PATH.',
);
process.exit(1);
