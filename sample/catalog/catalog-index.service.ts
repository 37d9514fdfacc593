import { Injectable, Logger } from '@nestjs/common';
import { setTimeout as pause } from 'node:timers/promises';
import { McpContext, McpScopes, McpTool, type McpCallContext } from 'nestjs-mcp';
import { CatalogService } from './catalog.service.js';

/** How long indexing one product takes here: 36 seeded products make a re-index of about 4 s. */
export const INDEX_PAUSE_MS = 100;

/** What `reindex_catalog` answers once the new index is in place. */
export interface ReindexReport {
  /** How many products the new index covers. */
  products: number;
  /** How many distinct words it knows. */
  words: number;
}

/**
 * The catalog's search index, rebuilt on demand by `reindex_catalog`: the long-running tool of
 * the sample, offered as an MCP task (docs/tasks.md). A task-capable client gets a task id at
 * once, polls its status ("Indexed BOK-1003 (3/36)"), and may cancel it; any other client
 * waits for the answer as for any tool.
 *
 * A real shop would feed its search engine here (Elasticsearch, Meilisearch); the sample builds
 * a word index in memory, pausing on each product so that the run takes a few seconds.
 */
@Injectable()
export class CatalogIndexService {
  private readonly logger = new Logger(CatalogIndexService.name);
  /** Word → SKUs. Replaced whole when a run finishes, so a cancelled run leaves it as it was. */
  private index = new Map<string, Set<string>>();

  constructor(private readonly catalog: CatalogService) {}

  @McpTool({
    title: 'Re-index the catalog',
    description:
      'Rebuild the search index of the whole catalog. Needs the catalog.write scope (admin ' +
      'token). Takes a few seconds: clients that support MCP tasks get a task to poll, with ' +
      'the progress as its status, and may cancel it (the previous index then stays in use). ' +
      'Returns the number of products indexed and of distinct words.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    // A task when the client asks for one; the report stays readable for ten minutes.
    task: { mode: 'optional', ttlMs: 10 * 60_000 },
  })
  @McpScopes('catalog.write')
  async reindexCatalog(@McpContext() ctx: McpCallContext): Promise<ReindexReport> {
    // `ctx.task` is set when the call runs as a task: the status the client polls.
    await ctx.task?.setStatus('Reading the catalog');
    const products = this.catalog.allProducts();
    // With several instances (SAMPLE_REDIS_URL) the run's instance is whichever took the task.
    if (ctx.task) this.logger.log(`Re-indexing ${products.length} products (task ${ctx.task.id})`);
    const next = new Map<string, Set<string>>();
    for (const [done, product] of products.entries()) {
      // Cancelling the task (or its TTL running out) aborts the signal: the pause rejects
      // and the run stops here, before the new index replaces the old one.
      await pause(INDEX_PAUSE_MS, undefined, { signal: ctx.signal });
      const text = [product.name, product.description, product.sku, ...product.tags].join(' ');
      for (const word of text.toLowerCase().split(/\W+/).filter(Boolean)) {
        next.set(word, (next.get(word) ?? new Set()).add(product.sku));
      }
      // In a task this is its status message ("Indexed BOK-1001 (1/36)"); otherwise a
      // notifications/progress, when the client asked for progress.
      await ctx.reportProgress(done + 1, products.length, `Indexed ${product.sku}`);
    }
    this.index = next;
    this.logger.log(`Re-indexed ${products.length} products (${next.size} words)`);
    return { products: products.length, words: next.size };
  }

  /** The SKUs of the products whose text contains the word, from the last finished run. */
  skusWith(word: string): string[] {
    return [...(this.index.get(word.toLowerCase()) ?? [])].toSorted();
  }
}
