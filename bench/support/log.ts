const startedAtMs = Date.now();

/** Progress on stderr, stamped with the seconds since the process started. */
export const log = (line: string): void => {
  const elapsed = ((Date.now() - startedAtMs) / 1000).toFixed(0).padStart(3);
  process.stderr.write(`[${elapsed} s] ${line}\n`);
};
