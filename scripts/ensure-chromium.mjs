// Makes sure Chromium is installed before the tests run (`pretest`): the browser test of the
// sample's MCP Apps view (test/browser/) drives the Debian package's chromium with
// playwright-core, which never downloads a browser of its own. How: see ensure-command.mjs.
import { ensureCommand } from './ensure-command.mjs';

ensureCommand({
  name: 'ensure-chromium',
  command: 'chromium',
  pkg: 'chromium',
  purpose: 'The browser test (test/browser/) needs Chromium',
});
