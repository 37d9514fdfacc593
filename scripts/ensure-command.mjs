// What scripts/ensure-redis.mjs and scripts/ensure-chromium.mjs share: make sure a command the
// tests start is installed before they run (`pretest`), from its Debian package.
//
//   the command on PATH           nothing to do, exit 0 without a word
//   root, with apt-get            apt-get install -y <package> (after apt-get update when the
//                                 first try fails, e.g. on an image without package lists)
//   otherwise                     say what to install, exit 1
import { spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Whether `command` is an executable file in one of the PATH directories. */
export function onPath(command) {
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

/**
 * Exits once `command` is on PATH: at once when it is, after installing the Debian package
 * `pkg` when the user may, or with `purpose` and what to install (status 1) otherwise.
 * `name` prefixes the messages (`ensure-redis`).
 */
export function ensureCommand({ name, command, pkg, purpose }) {
  if (onPath(command)) process.exit(0);

  if (process.getuid?.() === 0 && onPath('apt-get')) {
    console.error(`${name}: ${command} is missing; installing the Debian package ${pkg}`);
    let status = aptGet(name, 'install', '-y', pkg);
    if (status !== 0) {
      // Most often the package lists are missing or stale (a fresh container image).
      status = aptGet(name, 'update');
      if (status === 0) status = aptGet(name, 'install', '-y', pkg);
    }
    process.exit(status);
  }

  console.error(
    `${purpose}: install the Debian package ${pkg} ` +
      `(sudo apt-get install -y ${pkg}) or put ${command} on PATH.`,
  );
  process.exit(1);
}

/** Runs apt-get with the terminal's stdio; its exit status (1 when it could not start). */
function aptGet(name, ...args) {
  const result = spawnSync('apt-get', args, {
    stdio: 'inherit',
    // No question may stop an unattended install (tzdata and the like).
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (result.error) console.error(`${name}: apt-get did not start: ${result.error.message}`);
  return result.status ?? 1;
}
