import { Injectable } from '@nestjs/common';
import { embeddedResource, McpPrompt, McpResource, McpScopes, userMessage } from 'nestjs-mcp';
import { CatalogService } from './catalog.service.js';
import { GetProductDto } from './dto/get-product.dto.js';
import { RestockPlanArgs } from './dto/restock-plan.args.js';
import { ProductCategory, type Product } from './product.entity.js';

/**
 * What the catalog offers besides tools: resources an agent can read (the categories, any
 * product by id) and a prompt a user picks in the client (a restock plan). They run the
 * same business logic, through the same Nest pipeline, as the tools and the REST API. They
 * only read, so they need the `catalog.read` scope, like the read tools.
 */
@Injectable()
@McpScopes('catalog.read')
export class CatalogContentService {
  constructor(private readonly catalog: CatalogService) {}

  @McpResource({
    uri: 'catalog://categories',
    title: 'Product categories',
    description: 'The categories of the catalog, with the number of products in each.',
    mimeType: 'application/json',
  })
  categories(): Array<{ category: ProductCategory; products: number }> {
    return Object.values(ProductCategory).map((category) => ({
      category,
      products: this.catalog.searchProducts({ category, limit: 1 }).total,
    }));
  }

  @McpResource({
    uri: 'catalog://products/{id}',
    title: 'A product',
    description: 'One product by its id (a UUID from search_products), as JSON.',
    mimeType: 'application/json',
  })
  product(params: GetProductDto): Product {
    // Not found → NotFoundException → "resource not found" for the client.
    return this.catalog.getProduct(params);
  }

  @McpPrompt({
    title: 'Restock plan',
    description: 'Draft a restock plan for one category, from its current stock.',
    arguments: {
      category: 'The category to plan for: books, electronics, garden, kitchen or toys.',
      weeks: 'How many weeks the plan covers, 1 to 12 (default 4).',
    },
  })
  restockPlan(args: RestockPlanArgs) {
    const weeks = args.weeks ?? 4;
    const { items } = this.catalog.searchProducts({ category: args.category, limit: 50 });
    const levels = items.map(({ sku, name, stock }) => ({ sku, name, stock }));
    return [
      userMessage(
        embeddedResource(`catalog://categories/${args.category}/stock`, {
          mimeType: 'application/json',
          text: JSON.stringify(levels),
        }),
      ),
      userMessage(
        `Above is the stock of every ${args.category} product. Draft a restock plan for the ` +
          `next ${weeks} weeks: which SKUs to reorder, how many units, and why. Flag products ` +
          `with fewer than 5 units first.`,
      ),
    ];
  }
}
