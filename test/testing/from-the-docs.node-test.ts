/**
 * The twin of from-the-docs.e2e-spec.ts for Node's own runner, written from the node:test
 * section of docs/testing.md. from-the-docs.node-test.e2e-spec.ts compiles it and runs
 * `node --test` on it, against the compiled library (dist/), as an installed package is.
 */
import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { McpTestClient } from 'nestjs-mcp/testing';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LendingLibraryModule } from './lending-library.fixture.js';

for (const protocolVersion of ['2026-07-28', '2025-11-25'] as const) {
  describe(`the lending library on ${protocolVersion}`, () => {
    let app: INestApplication;
    let mcp: McpTestClient;

    before(async () => {
      const moduleRef = await Test.createTestingModule({
        imports: [LendingLibraryModule],
      }).compile();
      app = await moduleRef.createNestApplication({ logger: false }).init();
      mcp = await McpTestClient.connect(app, {
        protocolVersion,
        headers: { authorization: 'Bearer member-card' },
      });
    });

    after(async () => {
      await mcp.close();
      await app.close();
    });

    it('finds the books of an author', async () => {
      await mcp
        .callTool('find_books', { author: 'Austen' })
        .assertOk()
        .assertStructured({ count: 2 })
        .assertSee('Sense and Sensibility');
    });

    it('shows lend_book to a librarian only', async () => {
      await mcp.listTools().assertToolListed('find_books').assertToolNotListed('lend_book');
      const librarian = mcp.as({ authorization: 'Bearer librarian-card' });
      await librarian.listTools().assertToolListed('lend_book');
      await librarian
        .callTool('lend_book', { isbn: '9780141441146' })
        .assertOk()
        .assertText('Lent: Jane Eyre');
      await mcp.callTool('lend_book', { isbn: '9780141441146' }).assertError('Forbidden');
    });

    it('refuses an unknown tool with -32602', async () => {
      const answer = await mcp.callTool('burn_books').assertError(-32602);
      assert.match(answer.error?.message ?? '', /burn_books/);
      assert.equal(answer.response?.status, 200);
    });

    it('answers a caller without a card with 401', async () => {
      await mcp
        .as({ authorization: 'Bearer nobody' })
        .listTools()
        .assertStatus(401)
        .assertError('Show a library card');
    });

    it('fails an assertion with an AssertionError that shows the answer', async () => {
      await assert.rejects(
        async () => {
          await mcp.callTool('find_books', { author: 'Austen' }).assertStructured({ count: 3 });
        },
        (error: Error) => {
          assert.equal(error.name, 'AssertionError');
          assert.match(
            error.message,
            /assertStructured\(\{"count":3\}\) failed: structuredContent\.count is 2, not 3/,
          );
          assert.match(error.message, /"Pride and Prejudice"/);
          return true;
        },
      );
    });

    it('publishes a contract per caller', async () => {
      const member = await mcp.contract({ caller: 'member' });
      const librarian = await mcp
        .as({ authorization: 'Bearer librarian-card' })
        .contract({ caller: 'librarian' });
      assert.deepEqual(
        member.tools.map((tool) => tool.name),
        ['find_books'],
      );
      assert.deepEqual(
        librarian.tools.map((tool) => tool.name),
        ['find_books', 'lend_book'],
      );
    });
  });
}
