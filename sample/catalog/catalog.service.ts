import {
  BadRequestException,
  ConflictException,
  Injectable,
  Logger,
  NotFoundException,
} from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import {
  inputRequired,
  McpContext,
  McpScopes,
  McpTool,
  type InputRequest,
  type InputRequiredResult,
  type McpCallContext,
} from 'nestjs-mcp';
import { CreateProductDto } from './dto/create-product.dto.js';
import { DeleteProductDto } from './dto/delete-product.dto.js';
import { GetProductDto } from './dto/get-product.dto.js';
import { ProductDto } from './dto/product.dto.js';
import { RestockProductDto } from './dto/restock-product.dto.js';
import { DEFAULT_SEARCH_LIMIT, SearchProductsDto } from './dto/search-products.dto.js';
import type { UpdateProductDto } from './dto/update-product.dto.js';
import { CatalogChanges } from './catalog-changes.js';
import type { Product, ProductPage } from './product.entity.js';
import { PRODUCT_SEED } from './products.seed.js';

/**
 * The catalog's business logic, used by the REST controller and published as MCP tools by
 * `@McpTool()`. A tool call runs the same method as a REST request, through the Nest
 * pipeline: `@McpScopes()` below is a guard on tool calls, which also hides each tool from
 * callers without its scope, `catalog.read` or `catalog.write` (a plain method call from the
 * controller does not run it, so the controller has its own role guard).
 */
@Injectable()
export class CatalogService {
  private readonly logger = new Logger(CatalogService.name);
  /**
   * In this process's memory: a real app keeps its products in a database that every
   * instance shares. With several instances (`SAMPLE_REDIS_URL`) each has its own copy,
   * which is enough to show what the issue is about, the notifications and the tasks.
   */
  private readonly products = new Map<string, Product>(
    PRODUCT_SEED.map((product) => [product.id, { ...product, tags: [...product.tags] }]),
  );

  constructor(private readonly changes: CatalogChanges) {}

  @McpTool({
    title: 'Search products',
    description:
      'Search the product catalog. Every word of `query` must appear in the name, description, ' +
      'SKU or tags (case-insensitive). Filter by `category` (books, electronics, garden, kitchen, ' +
      'toys) and by price in EUR with `minPrice` and `maxPrice` (inclusive). Returns `total`, the ' +
      'number of matches, and `items`, the first `limit` of them sorted by name (default 10, at ' +
      'most 50), each with its id, SKU, price in EUR and stock. Call it without arguments to browse. ' +
      'Use an item id with get_product or delete_product.',
    annotations: { readOnlyHint: true },
  })
  @McpScopes('catalog.read')
  searchProducts(query: SearchProductsDto): ProductPage {
    const { category, minPrice, maxPrice } = query;
    if (minPrice !== undefined && maxPrice !== undefined && minPrice > maxPrice) {
      throw new BadRequestException(
        `minPrice (${minPrice}) is greater than maxPrice (${maxPrice}); swap them or leave one out`,
      );
    }
    const words = query.query?.toLowerCase().split(/\s+/).filter(Boolean) ?? [];
    const matches = [...this.products.values()]
      .filter((product) => category === undefined || product.category === category)
      .filter((product) => minPrice === undefined || product.price >= minPrice)
      .filter((product) => maxPrice === undefined || product.price <= maxPrice)
      .filter((product) => {
        const text = [product.name, product.description, product.sku, ...product.tags]
          .join(' ')
          .toLowerCase();
        return words.every((word) => text.includes(word));
      })
      .toSorted((a, b) => a.name.localeCompare(b.name));
    return { total: matches.length, items: matches.slice(0, query.limit ?? DEFAULT_SEARCH_LIMIT) };
  }

  @McpTool({
    title: 'Get a product',
    description:
      'Get one product by its id (a UUID, as returned by search_products): SKU, name, ' +
      'description, category, price in EUR, units in stock and tags.',
    annotations: { readOnlyHint: true },
    // The product card's types come from it (sample/views/app-tools.d.ts, docs/apps.md).
    output: ProductDto,
    // Hosts of MCP Apps render the answer as the product card (sample/views/product-card/);
    // the others, and the model, read the product as JSON, as before (docs/apps.md).
    app: { view: 'product-card' },
  })
  @McpScopes('catalog.read')
  getProduct(args: GetProductDto): Product {
    return this.findOrFail(args.id);
  }

  @McpTool({
    title: 'Create a product',
    description:
      'Add a product to the catalog. Needs the catalog.write scope (admin token). `sku` must be unique and look like ' +
      'KIT-4001 (three capital letters, a dash, four digits); `price` is the unit price in EUR; ' +
      '`stock` is the number of units on hand. Returns the new product with its id. Fails with ' +
      'Conflict when the SKU is already used: search for it instead of creating it again.',
    annotations: { readOnlyHint: false, destructiveHint: false },
  })
  @McpScopes('catalog.write')
  createProduct(input: CreateProductDto, @McpContext() call?: McpCallContext): Product {
    const existing = [...this.products.values()].find((product) => product.sku === input.sku);
    if (existing) {
      throw new ConflictException(
        `A product with SKU ${input.sku} already exists (id ${existing.id}); choose another SKU`,
      );
    }
    const product: Product = {
      id: randomUUID(),
      sku: input.sku,
      name: input.name,
      description: input.description,
      category: input.category,
      price: input.price,
      stock: input.stock,
      tags: [...(input.tags ?? [])],
    };
    this.products.set(product.id, product);
    this.changes.productChanged(product.id, { categories: true });
    this.logger.log(`Created ${product.sku} (${product.id})${via(call)}`);
    return product;
  }

  @McpTool({
    title: 'Delete a product',
    description:
      'Remove a product from the catalog by its id. Needs the catalog.write scope (admin token). This cannot be undone: ' +
      'confirm with the user first. Returns the deleted product. Fails with Not Found when no ' +
      'product has that id, for example because it was already deleted.',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  })
  @McpScopes('catalog.write')
  async deleteProduct(
    args: DeleteProductDto,
    @McpContext() call?: McpCallContext,
  ): Promise<Product | InputRequiredResult | string> {
    const product = this.findOrFail(args.id);
    // A client that can ask its user does so first. The question's round carries the
    // product's id in a signed state: the answer confirms this deletion and no other (with
    // several instances, the instance that gets the answer verifies what another minted).
    if (call?.clientCapabilities?.elicitation) {
      const answer = call.input('confirm');
      if (answer.kind !== 'elicit' || call.requestState<{ id: string }>()?.id !== product.id) {
        return inputRequired({
          inputRequests: { confirm: confirmDeletion(product) },
          requestState: await call.mintRequestState({ id: product.id }),
        });
      }
      if (answer.action !== 'accept' || answer.content?.confirm !== true) {
        return `Not deleted: the user did not confirm the deletion of ${product.sku}.`;
      }
    }
    this.products.delete(product.id);
    this.changes.productChanged(product.id, { categories: true });
    this.logger.log(`Deleted ${product.sku} (${product.id})${via(call)}`);
    return product;
  }

  @McpTool({
    title: 'Restock a product',
    description:
      'Add `quantity` units (1 to 1000) to the stock of a product, by its id. Needs the ' +
      'catalog.write scope (admin token). Returns the product with its new stock. Fails with ' +
      'Not Found when no product has that id.',
    annotations: { readOnlyHint: false, destructiveHint: false },
    output: ProductDto,
    // Only the product card calls it (its "Restock" button): hosts keep it from the model. That
    // is no authorization: @McpScopes() guards it like any tool, whoever calls it.
    app: { visibility: ['app'] },
  })
  @McpScopes('catalog.write')
  restockProduct(args: RestockProductDto, @McpContext() call?: McpCallContext): Product {
    const product = this.findOrFail(args.id);
    product.stock += args.quantity;
    this.changes.productChanged(product.id, { categories: false });
    this.logger.log(
      `Restocked ${product.sku} (+${args.quantity}, now ${product.stock})${via(call)}`,
    );
    return product;
  }

  /** Changes the given fields of a product (the REST `PATCH` and its tool call this). */
  updateProduct(id: string, changes: UpdateProductDto, call?: McpCallContext): Product {
    const product = this.findOrFail(id);
    const category = product.category;
    for (const [field, value] of Object.entries(changes)) {
      if (value !== undefined) Object.assign(product, { [field]: structuredClone(value) });
    }
    this.changes.productChanged(product.id, { categories: product.category !== category });
    this.logger.log(`Updated ${product.sku} (${product.id})${via(call)}`);
    return product;
  }

  /** Every product, in no particular order (for the search index, `CatalogIndexService`). */
  allProducts(): Product[] {
    return [...this.products.values()];
  }

  private findOrFail(id: string): Product {
    const product = this.products.get(id);
    if (!product) {
      throw new NotFoundException(`No product with id ${id}; call search_products to find ids`);
    }
    return product;
  }
}

/** For the audit log: tool calls say so; the REST controller passes no MCP context. */
function via(call: McpCallContext | undefined): string {
  return call ? ` through the MCP tool ${call.name}` : '';
}

/** The question `delete_product` asks the user before it deletes (a form elicitation). */
function confirmDeletion(product: Product): InputRequest {
  return {
    method: 'elicitation/create',
    params: {
      mode: 'form',
      message: `Delete ${product.sku} (${product.name}) from the catalog? This cannot be undone.`,
      requestedSchema: {
        type: 'object',
        properties: { confirm: { type: 'boolean', title: 'Delete it' } },
        required: ['confirm'],
      },
    },
  };
}
