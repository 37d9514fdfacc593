import { IsInt, IsOptional, IsString } from 'class-validator';
import { McpConfigurationError, McpPrompt } from 'nestjs-mcp';
import { describe, expect, it } from 'vitest';
import { definitionFactories, WRAPPER } from './definition-factories.js';

class RestockArgs {
  @IsString()
  category!: string;

  @IsOptional()
  @IsInt()
  weeks?: number;
}

class UndecoratedArgs {
  category!: string;
}

interface RestockShape {
  category: string;
}

class Prompts {
  @McpPrompt()
  restockPlan(_args: RestockArgs) {}

  @McpPrompt()
  dailyDigest() {}

  @McpPrompt()
  résumé() {}

  @McpPrompt()
  undecorated(_args: UndecoratedArgs) {}

  @McpPrompt()
  shaped(_args: RestockShape) {}
}

const create = (method: keyof Prompts, options: Parameters<typeof McpPrompt>[0] = {}) => {
  const factories = definitionFactories();
  const prompt = factories.prompts.create(WRAPPER, Prompts, method, options);
  return { prompt, warnings: factories.warnings() };
};

describe('PromptDefinitionFactory', () => {
  it('names a prompt after its method in snake_case by default, or as given', () => {
    expect(create('restockPlan').prompt.definition.name).toBe('restock_plan');
    expect(create('dailyDigest').prompt.definition.name).toBe('daily_digest');
    expect(create('dailyDigest', { name: 'digest' }).prompt.definition.name).toBe('digest');
  });

  it('refuses a name the spec forbids, with an example of a valid one', () => {
    expect(() => create('résumé')).toThrow(McpConfigurationError);
    expect(() => create('résumé')).toThrow(
      'The prompt name "résumé" of Prompts.résumé is not allowed: use letters, digits, "_", ' +
        `"-" and "." (at most 128 characters), e.g. @McpPrompt({ name: 'my_prompt' }).`,
    );
  });

  it('lists the properties of the DTO as its arguments, and none without a DTO', () => {
    expect(create('restockPlan').prompt.definition.arguments).toEqual([
      { name: 'category', required: true },
      { name: 'weeks', required: false },
    ]);
    expect(create('dailyDigest').prompt.definition).not.toHaveProperty('arguments');
  });

  it('warns about a DTO without class-validator decorators', () => {
    const { prompt, warnings } = create('undecorated');
    expect(prompt.definition).not.toHaveProperty('arguments');
    expect(warnings).toEqual([
      'UndecoratedArgs has no class-validator decorators, so the prompt "undecorated" ' +
        '(Prompts.undecorated) takes no arguments: prompts/list shows none, and every request ' +
        'that passes one is refused ("property ... is not allowed; allowed properties: ' +
        '(none)"). TypeScript keeps no trace of a property without a decorator: give each ' +
        'property of UndecoratedArgs its rules (@IsString(), @IsInt(), @IsOptional(), ' +
        '@ValidateNested(), ...). If it takes nothing on purpose, drop the parameter.',
    ]);
  });

  it('accepts an interface as the arguments, as it always has, but warns that nothing is listed', async () => {
    const { prompt, warnings } = create('shaped');
    expect(prompt.definition).not.toHaveProperty('arguments');
    expect(await prompt.checkArguments({ category: 'lamps' })).toEqual({
      ok: true,
      value: { category: 'lamps' },
    });
    expect(warnings).toEqual([
      'the prompt "shaped" (Prompts.shaped) takes its arguments as a plain object: an interface ' +
        'or a type literal leaves no runtime type, so prompts/list shows no arguments and none ' +
        'is checked. Declare them as a class whose properties have class-validator decorators ' +
        '(@IsString(), @IsOptional(), ...).',
    ]);
  });

  it('warns about nothing for a decorated DTO or a prompt without arguments', () => {
    expect(create('restockPlan').warnings).toEqual([]);
    expect(create('dailyDigest').warnings).toEqual([]);
  });
});
