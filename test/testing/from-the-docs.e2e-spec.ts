/**
 * Written only from docs/testing.md, against an app that page never mentions: what a user
 * who reads the page writes. Its twin for Node's own runner is from-the-docs.node-test.ts.
 */
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { McpTestClient } from 'nestjs-mcp/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LendingLibraryModule } from './lending-library.fixture.js';

describe.each(['2026-07-28', '2025-11-25'] as const)(
  'the lending library on %s',
  (protocolVersion) => {
    let app: INestApplication;
    let mcp: McpTestClient;

    beforeAll(async () => {
      const moduleRef = await Test.createTestingModule({
        imports: [LendingLibraryModule],
      }).compile();
      app = await moduleRef.createNestApplication().init();
      mcp = await McpTestClient.connect(app, {
        protocolVersion,
        headers: { authorization: 'Bearer member-card' },
      });
    });

    afterAll(async () => {
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

    it('names an invalid argument', async () => {
      const answer = await mcp.callTool('find_books', { author: 'A' }).assertError();
      expect(answer.result?.structuredContent.issues).toEqual([
        {
          path: '/author',
          constraint: 'minLength',
          message: 'author must be longer than or equal to 2 characters',
        },
      ]);
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
      expect(answer.error?.message).toContain('burn_books');
      expect(answer.response?.status).toBe(200);
    });

    it('answers a caller without a card with 401', async () => {
      await mcp
        .as({ authorization: 'Bearer nobody' })
        .listTools()
        .assertStatus(401)
        .assertError('Show a library card');
    });

    it('gets its prompt and reads its resource', async () => {
      await mcp
        .getPrompt('recommend', { genre: 'gothic' })
        .assertOk()
        .assertText('Recommend a gothic novel from our shelves.');
      await mcp.readResource('library://opening-hours').assertText('Mon-Fri 9:00-18:00');
    });

    it('publishes a contract per caller', async () => {
      const member = await mcp.contract({ caller: 'member' });
      const librarian = await mcp
        .as({ authorization: 'Bearer librarian-card' })
        .contract({ caller: 'librarian' });
      expect(member.tools.map((tool) => tool.name)).toEqual(['find_books']);
      expect(librarian.tools.map((tool) => tool.name)).toEqual(['find_books', 'lend_book']);
      expect(member).toMatchObject({ server: 'library', caller: 'member', locale: 'default' });
    });
  },
);
