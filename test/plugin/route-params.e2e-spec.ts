import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { before } from 'nestjs-mcp/plugin';
import { McpTestClient } from 'nestjs-mcp/testing';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs } from '../support/captured-logs.js';
import { outputDir, removeOutput } from './fixture-compiler.js';

const logs = captureLogs();

/** A controller route published as a tool, its parameters documented by @param tags. */
const SOURCE = `
import { Body, Controller, Module, Param, ParseIntPipe, Patch, Query } from '@nestjs/common';
import { IsOptional, IsString } from 'class-validator';
import { McpModule, McpTool } from 'nestjs-mcp';

export class UpdateDto {
  /** The new name. */
  @IsOptional()
  @IsString()
  name?: string;
}

@Controller('products')
export class ProductsController {
  /**
   * Updates a product.
   * @param id The product's id, as in its URL.
   * @param dryRun - only check, change nothing
   * @param dto the changes
   */
  @McpTool({ arguments: { dryRun: 'From the option.' } })
  @Patch(':id')
  update(@Param('id', ParseIntPipe) id: number, @Query('dryRun') dryRun: string, @Body() dto: UpdateDto) {
    return { id, dryRun, dto };
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'routes', version: '1.0.0' })],
  controllers: [ProductsController],
})
export class RoutesModule {}
`;

/** The source compiled alone (as ts-jest with isolatedModules would), with the plugin or not. */
async function startCompiled(dir: string, file: string, withPlugin: boolean) {
  const { outputText } = ts.transpileModule(SOURCE, {
    compilerOptions: {
      target: ts.ScriptTarget.ES2023,
      module: ts.ModuleKind.ES2022,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
      useDefineForClassFields: false,
    },
    transformers: { before: withPlugin ? [before()] : [] },
  });
  writeFileSync(join(dir, file), outputText);
  const { RoutesModule } = await import(pathToFileURL(join(dir, file)).href);
  const moduleRef = await Test.createTestingModule({ imports: [RoutesModule] })
    .setLogger(logs)
    .compile();
  const app: INestApplication = await moduleRef.createNestApplication({ logger: logs }).init();
  return { app, mcp: await McpTestClient.connect(app) };
}

describe('nestjs-mcp/plugin on a controller route published as a tool', () => {
  let dir: string;
  const running: Array<{ app: INestApplication; mcp: McpTestClient }> = [];

  beforeAll(() => {
    dir = outputDir('route-params');
  });

  afterAll(async () => {
    for (const { app, mcp } of running) {
      await mcp.close();
      await app.close();
    }
    removeOutput(dir);
  });

  it('describes the route parameters by @param, the option winning', async () => {
    const started = await startCompiled(dir, 'with-plugin.js', true);
    running.push(started);
    const { tools } = (await started.mcp.listTools().assertOk()).result!;
    expect(tools).toHaveLength(1);
    expect(tools[0]!.description).toBe('Updates a product.');
    expect(tools[0]!.inputSchema.properties).toEqual({
      id: { description: "The product's id, as in its URL.", type: 'integer' },
      dryRun: { description: 'From the option.', type: 'string' },
      name: { description: 'The new name.', type: 'string' },
    });
  });

  it('lists the route parameters without docblock descriptions when built without it', async () => {
    const started = await startCompiled(dir, 'without-plugin.js', false);
    running.push(started);
    const { tools } = (await started.mcp.listTools().assertOk()).result!;
    expect(tools[0]).not.toHaveProperty('description');
    expect(tools[0]!.inputSchema.properties).toEqual({
      id: { type: 'integer' },
      dryRun: { description: 'From the option.', type: 'string' },
      name: { type: 'string' },
    });
  });
});
