import { Injectable } from '@nestjs/common';
import { McpServers } from 'nestjs-mcp';

/** The resource of the per-category counts (`CatalogContentService.categories`). */
export const CATEGORIES_URI = 'catalog://categories';

/** The resource of one product (`CatalogContentService.product`). */
export const productUri = (id: string) => `catalog://products/${id}`;

/**
 * The one place where a change of the catalog becomes an MCP notification
 * (`notifications/resources/updated`), whichever way it came (a tool, the REST API):
 * clients that subscribed to a product (a 2026-07-28 `subscriptions/listen` stream, a 2025
 * session's `resources/subscribe`) read it again. With `SAMPLE_REDIS_URL` the library hands
 * each notification to the other instances too, so a client hears of a change made through
 * any of them.
 */
@Injectable()
export class CatalogChanges {
  // McpServers, not McpServerHost: it is global, and the catalog module imports no MCP module.
  constructor(private readonly servers: McpServers) {}

  /** A product was created, changed or deleted; `categories` when the per-category counts moved. */
  productChanged(id: string, { categories }: { categories: boolean }): void {
    this.updated(productUri(id));
    if (categories) this.updated(CATEGORIES_URI);
  }

  private updated(uri: string): void {
    for (const server of this.servers.all()) server.resourceUpdated(uri);
  }
}
