#!/usr/bin/env node
// The `nestjs-mcp` command. Decorators of the loaded app need the Reflect metadata API,
// which an app's own entry file would import first.
import 'reflect-metadata';
import { runCli } from './cli.runner.js';

const code = await runCli(process.argv.slice(2));
if (code !== undefined) {
  // Exit now: an app may keep handles open (timers, pools) after close. Stdout is flushed first.
  process.stdout.write('', () => process.exit(code));
}
