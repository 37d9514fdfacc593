import type { DynamicModule, FactoryProvider, Provider } from '@nestjs/common';
import { MCP_MODULE_OPTIONS } from '../mcp.module-definition.js';
import { validateMcpModuleOptions } from './mcp-module-options.validator.js';

const isOptionsProvider = (provider: Provider): provider is Provider & object =>
  typeof provider === 'object' && provider.provide === MCP_MODULE_OPTIONS;

/**
 * Makes the options provider of a module built by `ConfigurableModuleBuilder` check the
 * options it provides, so that nothing can inject them unchecked: `forRoot()`'s value and
 * what a `forRootAsync()` factory returns (`useFactory`, and the `createMcpOptions()` call
 * the builder makes of `useClass` and `useExisting`) fail the bootstrap alike.
 */
export function withValidatedOptions(module: DynamicModule): DynamicModule {
  const providers = module.providers ?? [];
  const index = providers.findIndex(isOptionsProvider);
  const provider = providers[index];
  let validated: FactoryProvider;
  if (provider !== undefined && 'useValue' in provider) {
    const options: unknown = provider.useValue;
    validated = {
      provide: MCP_MODULE_OPTIONS,
      useFactory: () => validateMcpModuleOptions(options),
    };
  } else if (provider !== undefined && 'useFactory' in provider) {
    const create = provider.useFactory;
    validated = {
      provide: MCP_MODULE_OPTIONS,
      inject: provider.inject,
      useFactory: async (...args: unknown[]) => validateMcpModuleOptions(await create(...args)),
    };
  } else {
    // Only a change of @nestjs/common's builder gets here: fail rather than serve unchecked.
    throw new Error(
      'nestjs-mcp found no options provider (useValue or useFactory) in the module that ' +
        "ConfigurableModuleBuilder built; this version of @nestjs/common isn't supported.",
    );
  }
  return { ...module, providers: providers.with(index, validated) };
}

/** An options provider that fails the bootstrap with `error`, as invalid options do. */
export const failingOptionsProvider = (error: Error): FactoryProvider => ({
  provide: MCP_MODULE_OPTIONS,
  useFactory: () => {
    throw error;
  },
});
