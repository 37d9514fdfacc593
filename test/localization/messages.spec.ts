import { ForbiddenException } from '@nestjs/common';
import { ArrayMaxSize, IsIn, IsInt, IsString, Max, MinLength } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentsError } from '../../lib/errors/invalid-arguments.error.js';
import { toolErrorToResult } from '../../lib/execution/tool-error.mapper.js';
import { ChainTexts } from '../../lib/localization/localized-texts.js';
import { TranslationChain } from '../../lib/localization/translation.chain.js';
import type { McpTranslationTree } from '../../lib/interfaces/mcp-translation-source.interface.js';
import { DtoArgumentsValidator } from '../../lib/validation/dto-arguments.validator.js';

class Args {
  @IsString()
  @MinLength(3)
  query!: string;

  @IsInt()
  @Max(50)
  limit!: number;

  @IsIn(['books', 'bikes'])
  category!: string;

  @MinLength(2, { message: 'code words for $property' })
  note!: string;

  @ArrayMaxSize(1)
  tags!: string[];
}

const MESSAGES = {
  minLength: '$property muss mindestens $constraint1 Zeichen lang sein (war "$value")',
  max: '$property darf höchstens $constraint1 sein, nicht $value',
  isIn: '$property muss eines von $constraint1 sein',
  arrayMaxSize: '$property hat zu viele Einträge',
  whitelistValidation: '"$property" ist nicht erlaubt; erlaubt: $constraint1',
  invalidArguments: 'Ungültige Argumente:',
  forbidden: 'Zugriff verweigert',
  internalError: 'Interner Fehler ($reference)',
  retryAfter: 'In $seconds Sekunden erneut versuchen.',
};

const textsIn = (messages: Record<string, string>) => {
  const trees: Record<string, McpTranslationTree> = { de: { _messages: messages } };
  const chain = new TranslationChain(
    { locales: () => ['de'], load: (locale, group) => (group ? undefined : trees[locale]) },
    'shop',
    'en',
    ['en', 'de'],
  );
  return new ChainTexts(chain, 'de');
};

async function issuesOf(args: Record<string, unknown>) {
  const validation = await new DtoArgumentsValidator().validate(Args, args);
  if (validation.ok) throw new Error('expected the arguments to be refused');
  return validation.issues;
}

describe('messages in the caller language', () => {
  const german = textsIn(MESSAGES);

  it('words each class-validator issue by its constraint, with $property, $value and $constraint1', async () => {
    const issues = await issuesOf({
      query: 'ab',
      limit: 99,
      category: 'cars',
      note: 'x',
      tags: ['a', 'b'],
      extra: 1,
    });
    const byPath = Object.fromEntries(
      german.issues(issues).map((issue) => [issue.path, issue.message]),
    );
    expect(byPath).toEqual({
      '/query': 'query muss mindestens 3 Zeichen lang sein (war "ab")',
      '/limit': 'limit darf höchstens 50 sein, nicht 99',
      '/category': 'category muss eines von books, bikes sein',
      // The DTO's own message is kept as written.
      '/note': 'code words for note',
      '/tags': 'tags hat zu viele Einträge',
      '/extra': '"extra" ist nicht erlaubt; erlaubt: query, limit, category, note, tags',
    });
  });

  it('keeps the English of a constraint without a translation, and leaves the issues it was given alone', async () => {
    const issues = await issuesOf({
      query: 'ab',
      limit: 1,
      category: 'books',
      note: 'xx',
      tags: [],
    });
    const [worded] = textsIn({}).issues(issues);
    expect(worded!.message).toBe('query must be longer than or equal to 3 characters');
    german.issues(issues);
    expect(issues[0]!.message).toBe('query must be longer than or equal to 3 characters');
  });

  it('answers an invalid call with the German heading and issues, the constraints unchanged', async () => {
    const issues = await issuesOf({
      query: 'ab',
      limit: 1,
      category: 'books',
      note: 'xx',
      tags: [],
    });
    const result = toolErrorToResult(
      new InvalidArgumentsError('search', issues),
      () => 'ref',
      {},
      german,
    );
    expect(result.content).toEqual([
      {
        type: 'text',
        text: 'Ungültige Argumente:\n- /query: query muss mindestens 3 Zeichen lang sein (war "ab")',
      },
    ]);
    expect(result.structuredContent).toMatchObject({
      issues: [{ path: '/query', constraint: 'minLength' }],
    });
  });

  it('words the list of allowed values that follows an issue (allowedValues)', async () => {
    const issues = await issuesOf({
      query: 'abc',
      limit: 1,
      category: 'cars',
      note: 'xx',
      tags: [],
    });
    // A translation that does not spell the values gets them after it, in its words.
    const texts = textsIn({
      isIn: '$property ist kein erlaubter Wert',
      allowedValues: 'erlaubt: $values',
    });
    const result = toolErrorToResult(
      new InvalidArgumentsError('search', issues),
      () => 'ref',
      {},
      texts,
    );
    expect(result.content[0]).toEqual({
      type: 'text',
      text: 'Invalid arguments:\n- /category: category ist kein erlaubter Wert (erlaubt: "books", "bikes")',
    });
  });

  it("words the library's messages by id: a guard's refusal, a wait, an unexpected error", () => {
    const refused = toolErrorToResult(
      new ForbiddenException('Forbidden resource'),
      () => 'ref',
      { retryAfterSeconds: 3 },
      german,
    );
    expect(refused.content).toEqual([
      { type: 'text', text: 'Forbidden (403): Zugriff verweigert In 3 Sekunden erneut versuchen.' },
    ]);
    const failed = toolErrorToResult(new Error('boom'), () => 'abc123', {}, german);
    expect(failed.content).toEqual([{ type: 'text', text: 'Interner Fehler (abc123)' }]);
  });

  it("keeps a guard's refusal in one piece when no translation words it", () => {
    const refused = toolErrorToResult(
      new ForbiddenException('Forbidden resource'),
      () => 'ref',
      {},
      textsIn({}),
    );
    expect(refused.content).toEqual([
      { type: 'text', text: 'Forbidden (403): Forbidden resource' },
    ]);
  });

  it('gives English for a library message without a translation, with its placeholders filled', () => {
    expect(textsIn({}).message('unknownTool', { name: 'x', listMethod: 'tools/list' })).toBe(
      'Unknown tool "x". Call tools/list to see the tools this server offers.',
    );
    expect(textsIn({ unknownTool: '$name? $unknown' }).message('unknownTool', { name: 'x' })).toBe(
      'x? $unknown',
    );
  });

  it('answers as before without i18n', () => {
    const failed = toolErrorToResult(new Error('boom'), () => 'abc123');
    expect(failed.content).toEqual([
      {
        type: 'text',
        text: 'Internal error: the tool failed unexpectedly (reference abc123). The details were logged on the server; retrying with the same arguments may fail again.',
      },
    ]);
  });
});
