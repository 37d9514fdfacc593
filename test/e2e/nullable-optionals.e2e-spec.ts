import { Injectable, Module } from '@nestjs/common';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min, ValidateNested } from 'class-validator';
import { McpHidden, McpModule, McpServers, McpTool } from 'nestjs-mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADAPTERS, startApp, type RunningApp } from '../support/fixture-app.js';
import { CLIENTS, type TestClient } from '../support/mcp-clients.js';

/*
 * Issue 20, with both real clients over HTTP: one app, scanned once, with two servers that
 * publish the same tool. The default server lists each @IsOptional() property with its own
 * type only (no "null", the portable form) and refuses a null with a message that says to
 * leave the property out; the server with `schema: { nullableOptionals: true }` lists and
 * accepts null, as class-validator does. Each answers as the schema it lists says.
 */

// An independent 2020-12 validator, strict, as a careful client would use.
const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
addFormats.default(ajv);

class AuthorDto {
  @IsString() name!: string;
  @IsOptional() @IsString() email?: string;
}

class NoteQueryDto {
  @IsString() text!: string;
  @IsOptional() @IsIn(['new', 'old']) sort?: string;
  @IsOptional() @IsInt() @Min(1) @Max(50) limit = 10;
  @IsOptional() @ValidateNested() @Type(() => AuthorDto) author?: AuthorDto;
}

class TagDto {
  @IsOptional() @IsString() label?: string;
}

@Injectable()
class NoteTools {
  @McpTool({ description: 'Finds notes.' })
  searchNotes(query: NoteQueryDto) {
    return { sort: query.sort, limit: query.limit, author: query.author };
  }

  @McpHidden('Added to each server at run time, by the test.')
  tagNote(tag: TagDto) {
    return { label: tag.label };
  }
}

@Module({
  imports: [
    McpModule.forRoot({ name: 'portable', version: '1.0.0', http: { path: 'mcp/portable' } }),
    McpModule.forRoot({
      name: 'nullable',
      version: '1.0.0',
      http: { path: 'mcp/nullable' },
      schema: { nullableOptionals: true },
    }),
  ],
  providers: [NoteTools],
})
class NullableOptionalsAppModule {}

const textOf = (result: Record<string, any>) =>
  (result.content as Array<{ type: string; text?: string }>).map((c) => c.text).join('\n');

const refusal = (name: string) =>
  `${name} cannot be null: it is optional, so leave it out instead of sending null`;

const PORTABLE_PROPERTIES = {
  text: { type: 'string' },
  sort: { type: 'string', enum: ['new', 'old'] },
  limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
  author: { $ref: '#/$defs/AuthorDto' },
};
const NULLABLE_PROPERTIES = {
  text: { type: 'string' },
  sort: { type: ['string', 'null'], enum: ['new', 'old', null] },
  limit: { type: ['integer', 'null'], minimum: 1, maximum: 50, default: 10 },
  author: { anyOf: [{ type: 'null' }, { $ref: '#/$defs/AuthorDto' }] },
};

describe.each(ADAPTERS)('schema.nullableOptionals (%s)', (adapter) => {
  let running: RunningApp;
  const urlOf = (path: string) => new URL(`/${path}`, running.url);

  beforeAll(async () => {
    running = await startApp(NullableOptionalsAppModule, { adapter, mcpPath: 'mcp/' });
    // A tool added at run time gets each server's form too.
    const servers = running.app.get(McpServers);
    const tools = running.app.get(NoteTools);
    for (const name of servers.names()) servers.get(name).addTool(tools, 'tagNote');
  });

  afterAll(async () => {
    await running?.close();
  });

  describe.each(CLIENTS)('with the $era', ({ connect }) => {
    let portable: TestClient;
    let nullable: TestClient;
    let listed: Record<'portable' | 'nullable', Array<Record<string, any>>>;
    const tool = (server: 'portable' | 'nullable', name: string) =>
      listed[server].find((candidate) => candidate.name === name)!;

    beforeAll(async () => {
      portable = await connect(urlOf('mcp/portable'));
      nullable = await connect(urlOf('mcp/nullable'));
      listed = {
        portable: (await portable.listTools()).tools,
        nullable: (await nullable.listTools()).tools,
      };
    });

    afterAll(async () => {
      await portable?.close();
      await nullable?.close();
    });

    it('lists optional properties with their own type only by default, nowhere null', () => {
      const schema = tool('portable', 'search_notes').inputSchema;
      expect(() => ajv.compile(schema)).not.toThrow();
      expect(schema.properties).toStrictEqual(PORTABLE_PROPERTIES);
      expect(schema.required).toEqual(['text']);
      expect(schema.$defs.AuthorDto.properties.email).toStrictEqual({ type: 'string' });
      expect(JSON.stringify(listed.portable)).not.toContain('null');
    });

    it('lists them as nullable on the server with nullableOptionals', () => {
      const schema = tool('nullable', 'search_notes').inputSchema;
      expect(() => ajv.compile(schema)).not.toThrow();
      expect(schema.properties).toStrictEqual(NULLABLE_PROPERTIES);
      expect(schema.required).toEqual(['text']);
      expect(schema.$defs.AuthorDto.properties.email).toStrictEqual({ type: ['string', 'null'] });
    });

    it('gives a tool added at run time the form of each server', () => {
      expect(tool('portable', 'tag_note').inputSchema.properties).toStrictEqual({
        label: { type: 'string' },
      });
      expect(tool('nullable', 'tag_note').inputSchema.properties).toStrictEqual({
        label: { type: ['string', 'null'] },
      });
    });

    it('refuses a null for an optional property by default, saying to leave it out', async () => {
      const args = { text: 'lamp', sort: null, limit: null, author: { name: 'Ada', email: null } };
      expect(ajv.validate(tool('portable', 'search_notes').inputSchema, args)).toBe(false);
      const result = await portable.callTool('search_notes', args);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(
        'Invalid arguments:\n' +
          `- /sort: ${refusal('sort')}\n` +
          `- /limit: ${refusal('limit')}\n` +
          `- /author/email: ${refusal('email')}`,
      );
      const runtime = await portable.callTool('tag_note', { label: null });
      expect(textOf(runtime)).toBe(`Invalid arguments:\n- /label: ${refusal('label')}`);
    });

    it('accepts the same call with the properties left out', async () => {
      const args = { text: 'lamp', author: { name: 'Ada' } };
      expect(ajv.validate(tool('portable', 'search_notes').inputSchema, args)).toBe(true);
      const result = await portable.callTool('search_notes', args);
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(JSON.parse(textOf(result))).toEqual({ limit: 10, author: { name: 'Ada' } });
    });

    it('accepts null on the server with nullableOptionals, and the method receives it', async () => {
      const args = { text: 'lamp', sort: null, limit: null, author: null };
      expect(ajv.validate(tool('nullable', 'search_notes').inputSchema, args)).toBe(true);
      const result = await nullable.callTool('search_notes', args);
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(JSON.parse(textOf(result))).toEqual({ sort: null, limit: null, author: null });
      expect((await nullable.callTool('tag_note', { label: null })).isError).toBeFalsy();
    });

    it('still refuses what the DTO refuses, on both servers alike', async () => {
      for (const client of [portable, nullable]) {
        const result = await client.callTool('search_notes', { text: 'lamp', sort: 'up' });
        expect(result.isError).toBe(true);
        expect(textOf(result)).toBe(
          'Invalid arguments:\n- /sort: sort must be one of "new", "old"',
        );
      }
    });
  });
});
