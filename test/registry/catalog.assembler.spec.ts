import type { GetPromptResult } from '@modelcontextprotocol/server';
import { Injectable, type Provider } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import {
  McpCompletion,
  McpConfigurationError,
  McpGroup,
  McpModule,
  McpNaming,
  McpPrompt,
  McpResource,
  McpServers,
  McpTool,
  type McpModuleOptions,
} from 'nestjs-mcp';
import { afterEach, describe, expect, it } from 'vitest';
import { McpCall } from '../../lib/execution/mcp-call.js';
import { CatalogAssembler } from '../../lib/registry/catalog.assembler.js';
import { bootApp, bootError, closeApps } from '../discovery/discovery-boot.js';
import { fakeScope, toolCall } from '../support/fake-call.js';

@Injectable()
class CatalogService {
  @McpTool({ description: 'Searches.' })
  search() {
    return 'found';
  }

  @McpPrompt({ description: 'A brief.' })
  brief() {
    return 'Write a brief.';
  }

  @McpResource({ uri: 'shop://about', name: 'about', description: 'About.' })
  about() {
    return 'A shop.';
  }

  @McpResource({ uri: 'shop://items/{id}', name: 'item', description: 'One item.' })
  item() {
    return 'An item.';
  }
}

@McpGroup('admin')
@Injectable()
class AdminTools {
  @McpTool({ description: 'Searches as an admin.' })
  search() {
    return 'admin found';
  }

  @McpTool({ description: 'Only on version 2.', version: '2' })
  purge() {
    return 'purged';
  }
}

@Injectable()
class OtherSearch {
  @McpTool({ description: 'Searches elsewhere.' })
  search() {
    return 'other';
  }
}

@Injectable()
class AliasClash {
  @McpTool({ description: 'Lists.', aliases: ['search'] })
  list() {
    return [];
  }
}

@Injectable()
class SameUri {
  @McpResource({ uri: 'shop://about', name: 'again', description: 'About, again.' })
  again() {
    return 'again';
  }
}

@Injectable()
class ManifestSquatter {
  @McpResource({ uri: 'mcp://shop/manifest', name: 'mine', description: 'Not a manifest.' })
  mine() {
    return '{}';
  }
}

@Injectable()
class LostCompleter {
  @McpCompletion({ prompt: 'nowhere', argument: 'topic' })
  complete() {
    return [];
  }
}

@Injectable()
class Files {
  @McpResource({ uri: 'files://{name}.{ext}', name: 'file', description: 'A file.' })
  read() {
    return 'contents';
  }

  @McpResource({ uri: 'files://{name}/{ext}', name: 'file_by_parts', description: 'A file.' })
  readParts() {
    return 'contents';
  }
}

/** Methods added at run time, never decorated. */
@Injectable()
class Reports {
  quarterlyFigures() {
    return 'Q3: up';
  }
}

const OPTIONS: McpModuleOptions = { name: 'shop', version: '1.0.0', http: false };
const boot = (providers: Provider[], options: Partial<McpModuleOptions> = {}) =>
  bootApp(providers, { options: { ...OPTIONS, ...options } });
const failure = (providers: Provider[], options: Partial<McpModuleOptions> = {}) =>
  bootError(providers, { options: { ...OPTIONS, ...options } });

/** The warnings of ambiguous templates the assembler logged. */
const ambiguity = (logs: { messages(level: 'warn', context: string): string[] }) =>
  logs.messages('warn', 'CatalogAssembler').filter((message) => message.includes('is ambiguous'));

describe('CatalogAssembler', () => {
  afterEach(closeApps);

  describe('what a server publishes', () => {
    it('takes the entries of its group only (none: the entries without a group)', async () => {
      const { app } = await bootApp([CatalogService, AdminTools], {
        options: [
          { ...OPTIONS, name: 'public' },
          { ...OPTIONS, name: 'admin', group: 'admin' },
          { ...OPTIONS, name: 'admin-v2', group: 'admin', groupVersion: '2' },
        ],
      });
      const servers = app.get(McpServers);
      const names = (server: string) =>
        servers
          .get(server)
          .tools()
          .map((tool) => tool.description);
      expect(names('public')).toEqual(['Searches.']);
      expect(names('admin')).toEqual(['Searches as an admin.']);
      expect(names('admin-v2')).toEqual(['Only on version 2.', 'Searches as an admin.']);
      expect(servers.get('admin').prompts()).toEqual([]);
    });

    it('names tools by the server’s naming option, at bootstrap and at run time', async () => {
      const { app } = await boot([CatalogService, Reports], { naming: McpNaming.qualified });
      const assembler = app.get(CatalogAssembler);
      expect(assembler.catalog.tools.entries().map((tool) => tool.key)).toEqual(['catalog_search']);
      const reports = app.get(Reports);
      expect(assembler.tool(reports, 'quarterlyFigures', { description: 'Q3.' }).key).toBe(
        'reports_quarterly_figures',
      );
      // A name given in the options is the tool's, whatever the naming.
      expect(assembler.tool(reports, 'quarterlyFigures', { name: 'q3' }).key).toBe('q3');
    });

    it('publishes the manifest when asked, at mcp://<name>/manifest', async () => {
      const { app } = await boot([CatalogService], { manifest: true });
      expect(app.get(CatalogAssembler).catalog.resources.get('mcp://shop/manifest')).toBeDefined();
    });

    it('logs what it publishes, the group with it', async () => {
      const plain = await boot([CatalogService]);
      expect(plain.logs.messages('log')).toContain(
        'MCP server "shop" publishes 1 tool(s), 1 prompt(s), 2 resource(s)',
      );
      await closeApps();
      const grouped = await boot([AdminTools], { group: 'admin', groupVersion: '2' });
      expect(grouped.logs.messages('log')).toContain(
        'MCP server "shop" (group "admin", version "2") publishes 2 tool(s), 0 prompt(s), 0 resource(s)',
      );
    });

    it('warns, naming where the entries went, when it publishes nothing', async () => {
      const { logs } = await boot([AdminTools]);
      const warned = logs.warnings().map((entry) => entry.message);
      expect(
        warned.some((message) => message.includes('"shop"') && message.includes('admin')),
      ).toBe(true);
      expect(logs.messages('log').some((message) => message.includes('publishes'))).toBe(false);
    });
  });

  describe('ambiguous resource templates', () => {
    it('are logged at bootstrap, naming the resource, the template and the fix', async () => {
      const { logs } = await boot([Files]);
      expect(ambiguity(logs)).toEqual([
        expect.stringMatching(
          /^The resource template files:\/\/\{name\}\.\{ext\} of the resource "file" \(Files\.read\) is ambiguous: \{name\} and \{ext\} are separated only by "\."/,
        ),
      ]);
      expect(ambiguity(logs)[0]).toContain('such as "/": files://{name}/{ext}.');
    });

    it('once per template, however many servers publish it', async () => {
      const { logs } = await bootApp([Files], {
        options: [OPTIONS, { ...OPTIONS, name: 'mirror' }],
      });
      expect(ambiguity(logs)).toHaveLength(1);
    });

    it('and pass the maxUriLength option to the catalog', async () => {
      const { app } = await boot([Files], { maxUriLength: 100 });
      expect(app.get(CatalogAssembler).catalog.maxUriLength).toBe(100);
    });
  });

  describe('clashes fail the bootstrap, naming both methods', () => {
    it('two tools of one name', async () => {
      const error = await failure([CatalogService, OtherSearch]);
      expect(error).toBeInstanceOf(McpConfigurationError);
      expect(error.message).toMatch(
        /"search" is used by (CatalogService\.search and OtherSearch\.search|OtherSearch\.search and CatalogService\.search)/,
      );
    });

    it('not when the tools are on different servers (groups are filtered first)', async () => {
      await expect(boot([CatalogService, AdminTools])).resolves.toBeDefined();
    });

    it('an alias that is another tool’s name', async () => {
      const error = await failure([CatalogService, AliasClash]);
      expect(error).toBeInstanceOf(McpConfigurationError);
      expect(error.message).toContain('The tool alias "search" of AliasClash.list');
      expect(error.message).toContain('CatalogService.search');
    });

    it('two resources of one URI', async () => {
      const error = await failure([CatalogService, SameUri]);
      expect(error).toBeInstanceOf(McpConfigurationError);
      expect(error.message).toContain('"shop://about" is used by');
      expect(error.message).toContain('SameUri.again');
    });

    it('the manifest’s URI already taken by a resource of the app', async () => {
      const error = await failure([ManifestSquatter], { manifest: true });
      expect(error).toBeInstanceOf(McpConfigurationError);
      expect(error.message).toContain('mcp://shop/manifest');
      expect(error.message).toContain('which a resource of the app already uses');
    });

    it('a completer whose prompt no entry of the app has', async () => {
      const error = await failure([CatalogService, LostCompleter]);
      expect(error.message).toContain('LostCompleter.complete completes the prompt "nowhere"');
    });
  });

  describe('entries added at run time', () => {
    it('are bound to the Nest pipeline as decorated ones are', async () => {
      const { app } = await boot([CatalogService, Reports]);
      const assembler = app.get(CatalogAssembler);
      const tool = assembler.tool(app.get(Reports), 'quarterlyFigures', { description: 'Q3.' });
      expect(tool.definition).toMatchObject({ name: 'quarterly_figures', description: 'Q3.' });
      expect(await tool.invoke(toolCall('quarterly_figures'))).toEqual({
        content: [{ type: 'text', text: 'Q3: up' }],
      });

      const prompt = assembler.prompt(app.get(Reports), 'quarterlyFigures', { name: 'q3' });
      const scope = fakeScope();
      const got = (await prompt.get(
        new McpCall({ kind: 'prompt', name: 'q3', arguments: {}, scope }),
      )) as GetPromptResult;
      expect(got.messages[0]).toMatchObject({ content: { type: 'text', text: 'Q3: up' } });
    });

    it('are a resource or a template by their URI', async () => {
      const { app } = await boot([CatalogService, Reports]);
      const assembler = app.get(CatalogAssembler);
      const reports = app.get(Reports);
      const fixed = assembler.resource(reports, 'quarterlyFigures', {
        uri: 'shop://q3',
        name: 'q3',
      });
      expect(fixed).not.toHaveProperty('template');
      expect(fixed.definition).toMatchObject({ uri: 'shop://q3' });
      const templated = assembler.resource(reports, 'quarterlyFigures', {
        uri: 'shop://quarters/{n}',
        name: 'quarter',
      });
      expect('template' in templated && templated.template.match('shop://quarters/3')).toEqual({
        n: '3',
      });
    });
  });

  it('has no catalog before the app is initialised', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [McpModule.forRoot(OPTIONS)],
      providers: [CatalogService],
    }).compile();
    try {
      expect(() => moduleRef.get(CatalogAssembler).catalog).toThrow('not initialised');
    } finally {
      await moduleRef.close();
    }
  });
});
