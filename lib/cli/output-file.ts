import { writeFile } from 'node:fs/promises';
import { CliUsageError } from './cli-usage.error.js';

/**
 * Writes what a command produced: to `out` when `file` is `-` (so it can be piped), else to
 * the file. A file that cannot be written is a mistake of the command line (exit 2), said in
 * one line with what to give instead.
 * @param what how the message names the file (`the contract file x.json`)
 * @returns whether it went to a file (the command then says so on `out`)
 */
export async function writeOutput(
  file: string,
  text: string,
  out: NodeJS.WritableStream,
  what = file,
): Promise<boolean> {
  if (file === '-') {
    out.write(text);
    return false;
  }
  try {
    await writeFile(file, text);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new CliUsageError(
      `Cannot write ${what} (${reason}); give a path in a folder that exists.`,
    );
  }
  return true;
}
