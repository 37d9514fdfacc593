import { Injectable, Module } from '@nestjs/common';
import { IsEmail, IsInt, IsString, Length, Max, Min, MinLength } from 'class-validator';
import { McpModule, McpTool } from 'nestjs-mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSchemaExactness } from '../../lib/schema/schema-exactness.reader.js';
import { captureLogs } from '../support/captured-logs.js';
import { startApp, type RunningApp } from '../support/fixture-app.js';
import { CLIENTS, type TestClient } from '../support/mcp-clients.js';

// An error logged that no test expects fails that test (and is shown in full).
const logs = captureLogs();

/*
 * Issue 28, with both real clients over HTTP: a tool whose DTO's schema says it all (the
 * bench's add_numbers) skips class-validator on a valid call, and still refuses bad
 * arguments with class-validator's words, field by field, as a tool whose DTO does not
 * qualify (@IsEmail()) does.
 */

class AddNumbersDto {
  @IsInt() @Min(0) @Max(1000) a!: number;
  @IsInt() @Min(0) @Max(1000) b!: number;
  @IsString() @Length(1, 64) label!: string;
}

class WordDto {
  @IsString() @MinLength(2) word!: string;
}

class ContactDto {
  @IsString() @Length(1, 64) label!: string;
  @IsEmail() email!: string;
}

@Injectable()
class ExactSchemaTools {
  @McpTool({ description: 'Adds two whole numbers between 0 and 1000, with a label.' })
  addNumbers(input: AddNumbersDto) {
    return `${input.constructor.name} ${input.label}: ${input.a + input.b}`;
  }

  @McpTool({ description: 'Repeats a word of two characters or more.' })
  repeatWord(input: WordDto) {
    return `${input.word} ${input.word}`;
  }

  @McpTool({ description: 'Writes to a contact.' })
  writeContact(input: ContactDto) {
    return `${input.constructor.name} ${input.label} <${input.email}>`;
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'exact-schema', version: '1.0.0' })],
  providers: [ExactSchemaTools],
})
class ExactSchemaAppModule {}

const textOf = (result: Record<string, any>) =>
  (result.content as Array<{ type: string; text?: string }>).map((c) => c.text).join('\n');

it('serves DTOs that qualify and one that does not', () => {
  expect(readSchemaExactness(AddNumbersDto, []).exact).toBe(true);
  expect(readSchemaExactness(WordDto, []).exact).toBe(true);
  expect(readSchemaExactness(ContactDto, []).exact).toBe(false);
});

describe.each(CLIENTS)('arguments of a DTO whose schema says it all, $era', ({ connect }) => {
  let running: RunningApp;
  let client: TestClient;

  beforeAll(async () => {
    running = await startApp(ExactSchemaAppModule, { logger: logs });
    client = await connect(running.url);
  });

  afterAll(async () => {
    await client?.close();
    await running?.close();
  });

  it('hands the method a DTO instance for valid arguments', async () => {
    const result = await client.callTool('add_numbers', { a: 2, b: 3, label: 'sum' });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe('AddNumbersDto sum: 5');
  });

  it("refuses invalid arguments with class-validator's messages, in field order", async () => {
    const result = await client.callTool('add_numbers', { a: -1, b: 1001, label: '' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      [
        'Invalid arguments:',
        '- /a: a must not be less than 0',
        '- /b: b must not be greater than 1000',
        '- /label: label must be longer than or equal to 1 characters',
      ].join('\n'),
    );
  });

  it('refuses a word the schema lets through and class-validator does not', async () => {
    expect(textOf(await client.callTool('repeat_word', { word: 'ok' }))).toBe('ok ok');
    // Two code points for the schema; one for validator.js, which skips a U+FE0F after one.
    const result = await client.callTool('repeat_word', { word: 'x\uFE0F' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'Invalid arguments:\n- /word: word must be longer than or equal to 2 characters',
    );
  });

  it('names the unknown property and the allowed ones', async () => {
    const result = await client.callTool('add_numbers', { a: 1, b: 1, label: 'x', c: 3 });
    expect(textOf(result)).toBe(
      'Invalid arguments:\n- /c: property "c" is not allowed; allowed properties: a, b, label',
    );
  });

  it('checks a DTO that does not qualify with class-validator, valid or not', async () => {
    const valid = await client.callTool('write_contact', { label: 'Ada', email: 'ada@x.org' });
    expect(textOf(valid)).toBe('ContactDto Ada <ada@x.org>');
    // The email format accepts it; validator.js isEmail does not.
    const refused = await client.callTool('write_contact', { label: 'Ada', email: 'ada@x.123' });
    expect(textOf(refused)).toBe('Invalid arguments:\n- /email: email must be an email');
  });
});
