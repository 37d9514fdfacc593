import { Injectable, type Type } from '@nestjs/common';
import { IsInt, IsString, Length, Max, Min } from 'class-validator';
import { McpTool } from 'nestjs-mcp';
import { addNumbersText, type AddNumbersArgs } from './add-numbers.js';

const TOOLS_PER_PROVIDER = 10;

const named = <T extends Function>(name: string, value: T): T => {
  Object.defineProperty(value, 'name', { value: name });
  return value;
};

/**
 * A new function each time: `@McpTool()` stores its options on the method itself, so
 * every tool needs a method of its own.
 */
const createMethod = () =>
  function (input: AddNumbersArgs): string {
    return addNumbersText(input);
  };

/** A DTO class like `AddNumbersDto`, with its decorators applied at runtime. */
function createDto(name: string): Type {
  const dto = named(name, class {});
  const prototype = dto.prototype as object;
  for (const key of ['a', 'b']) {
    Reflect.defineMetadata('design:type', Number, prototype, key);
    for (const decorate of [IsInt(), Min(0), Max(1000)]) decorate(prototype, key);
  }
  Reflect.defineMetadata('design:type', String, prototype, 'label');
  for (const decorate of [IsString(), Length(1, 64)]) decorate(prototype, 'label');
  return dto as Type;
}

/**
 * `count` tools on providers of ten methods each, made as `@Injectable()` classes with
 * `@McpTool()` methods would be, each method taking its own DTO: the decorators and the
 * `design:paramtypes` metadata TypeScript would emit are applied by calls at runtime.
 * Names are `tool_0000`, `tool_0001`, ...
 */
export function createToolProviders(count: number): Type[] {
  const providers: Type[] = [];
  for (let first = 0; first < count; first += TOOLS_PER_PROVIDER) {
    const provider = named(`GeneratedTools${first}`, class {});
    const prototype = provider.prototype as Record<string, unknown>;
    for (let index = first; index < Math.min(count, first + TOOLS_PER_PROVIDER); index += 1) {
      const id = String(index).padStart(4, '0');
      const methodName = `tool${id}`;
      Object.defineProperty(prototype, methodName, {
        value: createMethod(),
        writable: true,
        configurable: true,
      });
      Reflect.defineMetadata(
        'design:paramtypes',
        [createDto(`Tool${id}Dto`)],
        prototype,
        methodName,
      );
      McpTool({
        name: `tool_${id}`,
        description: `Generated tool ${id}: adds two whole numbers between 0 and 1000, with a label.`,
        annotations: { readOnlyHint: true },
      })(prototype, methodName, Object.getOwnPropertyDescriptor(prototype, methodName)!);
    }
    Injectable()(provider);
    providers.push(provider as Type);
  }
  return providers;
}
