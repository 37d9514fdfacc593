// How a McpTask lies in its Redis hash (layout in redis-task.scripts.ts), and back. Each
// field of the task is its own JSON value, so that a script changes one field without
// decoding the others; each question and answer is a field of its own, so that answering
// happens in Lua without re-encoding what the client sent (cjson would turn `[]` into `{}`).
import type { InputRequests } from '@modelcontextprotocol/server';
import type { McpTask } from '../interfaces/mcp-task-store.interface.js';

/** The field/value pairs of a hash, as a script or HGETALL replies them. */
export type TaskFields = Readonly<Record<string, string>>;

// 15 digits hold every millisecond up to the year 33658; a padded time sorts lexically.
const MAX_TIME = 999_999_999_999_999;
const pad = (ms: number) => String(ms).padStart(15, '0');

/** The member of the owner's set: newest first in lexical order, ties by id. */
export const ownerMember = (createdAtMs: number, taskId: string) =>
  `${pad(MAX_TIME - createdAtMs)}:${taskId}`;

const OWNER_MEMBER = /^\d{15}:./s;

/** A cursor names the owner-set member of the last task of its page. */
export const encodeCursor = (member: string) => Buffer.from(member).toString('base64url');

export function decodeCursor(cursor: string): string {
  const member = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!OWNER_MEMBER.test(member) || encodeCursor(member) !== cursor) {
    throw new Error(`Invalid task list cursor "${cursor}": pass a nextCursor from a previous page`);
  }
  return member;
}

/** The fields of a new task, its own and those only the store reads. */
export function encodeNewTask(task: McpTask, expiresAt: number | undefined): string[] {
  const fields: string[] = [];
  for (const [name, value] of Object.entries(task)) {
    if (value !== undefined) fields.push(name, JSON.stringify(value));
  }
  if (expiresAt !== undefined) fields.push('_expiresAt', String(expiresAt));
  return fields;
}

/** The pairs that set the questions of a round (the script clears the previous ones). */
export function encodeQuestions(inputRequests: InputRequests): string[] {
  const fields = ['inputOrder', JSON.stringify(Object.keys(inputRequests)), 'inputRound', '1'];
  for (const [key, question] of Object.entries(inputRequests)) {
    fields.push(`q:${key}`, JSON.stringify(question));
  }
  return fields;
}

/** A flat `[field, value, ...]` reply as a record. */
export function fieldsOf(reply: unknown): TaskFields {
  if (!Array.isArray(reply)) throw new Error('Unexpected reply from Redis: not a hash');
  const fields: Record<string, string> = {};
  for (let index = 0; index + 1 < reply.length; index += 2) {
    fields[String(reply[index])] = String(reply[index + 1]);
  }
  return fields;
}

const parse = (value: string | undefined): unknown =>
  value === undefined ? undefined : JSON.parse(value);

/** The task a hash holds; the fields of the task in the order the in-memory store gives. */
export function decodeTask(fields: TaskFields): McpTask {
  const task: Record<string, unknown> = {};
  for (const name of ['taskId', 'owner', 'toolName', 'status', 'statusMessage']) {
    if (fields[name] !== undefined) task[name] = parse(fields[name]);
  }
  for (const name of ['createdAt', 'lastUpdatedAt', 'ttlMs', 'pollIntervalMs']) {
    if (fields[name] !== undefined) task[name] = parse(fields[name]);
  }
  if (fields.inputOrder !== undefined) {
    const order = parse(fields.inputOrder) as string[];
    task.inputRequests = Object.fromEntries(
      order
        .filter((key) => fields[`q:${key}`] !== undefined)
        .map((key) => [key, parse(fields[`q:${key}`])]),
    );
  }
  if (fields.inputRound !== undefined) {
    task.inputResponses = Object.fromEntries(
      Object.keys(fields)
        .filter((field) => field.startsWith('a:'))
        .map((field) => [field.slice(2), parse(fields[field])]),
    );
  }
  for (const name of ['requestState', 'result', 'error']) {
    if (fields[name] !== undefined) task[name] = parse(fields[name]);
  }
  return task as unknown as McpTask;
}
