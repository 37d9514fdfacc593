// Makes sure redis-server is installed before the tests run (`pretest`): the tests of the
// Redis integration start their own redis-server (test/support/redis-server.ts). How: see
// ensure-command.mjs.
import { ensureCommand } from './ensure-command.mjs';

ensureCommand({
  name: 'ensure-redis',
  command: 'redis-server',
  pkg: 'redis-server',
  purpose: 'The Redis tests need redis-server',
});
