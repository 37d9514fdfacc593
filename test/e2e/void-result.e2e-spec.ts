import { Injectable, Module } from '@nestjs/common';
import { IsUUID } from 'class-validator';
import { McpModule, McpTool } from 'nestjs-mcp';
import { McpTestClient } from 'nestjs-mcp/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs } from '../support/captured-logs.js';
import { ADAPTERS, startApp, type RunningApp } from '../support/fixture-app.js';

const ID = '5a0d7bd4-8a1d-4a43-9a2c-0c4a2a0b6f11';

class DeleteNoteDto {
  @IsUUID()
  id!: string;
}

class NoteDto {
  @IsUUID()
  id!: string;
}

/** Methods that return nothing, as a service's `delete` or `clear` does. */
@Injectable()
class NotesService {
  readonly deleted: string[] = [];

  @McpTool({ description: 'Delete a note by id.', annotations: { destructiveHint: true } })
  deleteNote(args: DeleteNoteDto): void {
    this.deleted.push(args.id);
  }

  @McpTool({ description: 'Delete every note.' })
  async clearNotes(): Promise<void> {
    await Promise.resolve();
  }

  @McpTool({ description: 'Find the pinned note, if there is one.' })
  findPinned(): NoteDto | null {
    return null;
  }

  @McpTool({ description: 'Find the pinned note, with a declared output.', output: NoteDto })
  findPinnedDeclared(): NoteDto | null {
    return null;
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'notes', version: '1.0.0' })],
  providers: [NotesService],
})
class NotesAppModule {}

/** What a tool that returns nothing answers, on every revision: the JSON text `null`. */
const NOTHING = [{ type: 'text', text: 'null' }];

describe.each(ADAPTERS)('a tool that returns nothing, on %s', (adapter) => {
  let running: RunningApp;
  const logs = captureLogs();

  beforeAll(async () => {
    running = await startApp(NotesAppModule, { adapter, logger: logs });
  });

  afterAll(() => running?.close());

  describe.each(['2025-11-25', '2026-07-28'] as const)(
    'protocol revision %s',
    (protocolVersion) => {
      let mcp: McpTestClient;

      beforeAll(async () => {
        mcp = await McpTestClient.connect(running.app, { protocolVersion });
      });

      afterAll(() => mcp?.close());

      it.each([
        ['returns undefined', 'delete_note', { id: ID }],
        ['resolves to undefined', 'clear_notes', {}],
        ['returns null', 'find_pinned', {}],
      ])('says so when it %s: the text null, not an empty content', async (_what, tool, args) => {
        // Not an error, and nothing else: no data.
        const { result } = await mcp.callTool(tool, args).assertOk().assertText('null');
        expect(result?.content).toEqual(NOTHING);
        expect(result).not.toHaveProperty('structuredContent');
      });

      it('ran the method, so "null" is a success and not a refusal', async () => {
        const notes = running.app.get(NotesService);
        const before = notes.deleted.length;
        await mcp.callTool('delete_note', { id: ID }).assertOk();
        expect(notes.deleted.length).toBe(before + 1);
      });

      it('follows the output validator when the tool declares an output', async () => {
        const { result } = await mcp
          .callTool('find_pinned_declared')
          .assertError(
            'does not match its declared output schema, so it was not sent:\n' +
              '- the tool returned no data',
          );
        expect(result?.structuredContent).toBeUndefined();
        // The developer learns of it too, with the method that returned the wrong thing.
        logs.expectError(
          'Tool "find_pinned_declared" (NotesService.findPinnedDeclared) returned a result that does not match its declared output',
        );
      });
    },
  );
});
