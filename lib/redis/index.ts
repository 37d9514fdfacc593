// The `nestjs-mcp/redis` entry point: several instances of an app on one Redis
// (docs/scale-out.md). It needs the optional peers `ioredis` and `bullmq`; nothing else in
// the library imports it, so an app without Redis never loads them.
export { RedisScaleOut, type RedisScaleOutOptions } from './redis-scale-out.js';
export { RedisTaskStore, type RedisTaskStoreOptions } from './redis-task.store.js';
export type { McpTaskEventChannel } from './redis-task.events.js';
export { RedisChangeBus, type RedisChangeBusOptions } from './redis-change.bus.js';
export { RedisEventLog, type RedisEventLogOptions } from './redis-event.log.js';
export { BullMqTaskQueue, type BullMqTaskQueueOptions } from './bullmq-task.queue.js';
export {
  RedisSessionEventStore,
  type RedisSessionEventStoreOptions,
} from './redis-session-event.store.js';
