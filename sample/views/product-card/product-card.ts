/**
 * The product card: the view of get_product (docs/apps.md). The host renders it in a sandboxed
 * iframe and sends it the tool's result; "Restock" calls the app-only tool restock_product
 * through the host, which calls it on the server with the user's credentials, so the server's
 * guards decide, not this code.
 */
import { App } from '@modelcontextprotocol/ext-apps';
import type { Product } from '../../catalog/product.entity.js';

/** How many units one click adds (restock_product takes 1 to 1000). */
export const RESTOCK_QUANTITY = 10;

/** What the card needs of a tool result (the shape of the SDK's `CallToolResult`). */
interface ToolResult {
  content?: Array<{ type: string; text?: string }>;
  structuredContent?: unknown;
  isError?: boolean;
}

const price = new Intl.NumberFormat('en', { style: 'currency', currency: 'EUR' });
const card = document.querySelector<HTMLElement>('.card')!;
const field = (name: string) => card.querySelector<HTMLElement>(`[data-field="${name}"]`)!;
const restock = card.querySelector<HTMLButtonElement>('[data-action="restock"]')!;
const refusal = card.querySelector<HTMLElement>('[role="alert"]')!;
let shown: Product | undefined;

/** Shows a product; the card keeps it to know which one "Restock" restocks. */
function render(product: Product): void {
  shown = product;
  field('sku').textContent = product.sku;
  field('name').textContent = product.name;
  field('price').textContent = price.format(product.price);
  field('stock').textContent = `${product.stock} in stock`;
  restock.textContent = `Restock ${RESTOCK_QUANTITY}`;
  restock.disabled = false;
  card.setAttribute('aria-busy', 'false');
}

/** Says why a call failed, leaving the product as it was shown. */
function refuse(message: string): void {
  refusal.textContent = message;
  refusal.hidden = false;
}

/** The text a tool result gives the model: the card shows it when the call was refused. */
const textOf = (result: ToolResult) =>
  (result.content ?? []).map((item) => item.text ?? '').join('\n') || 'The call failed.';

/** The product of a successful result, or undefined for an error or another shape. */
function productOf(result: ToolResult): Product | undefined {
  const value = result.structuredContent as Partial<Product> | undefined;
  if (result.isError || typeof value?.id !== 'string') return undefined;
  return value as Product;
}

const app = new App({ name: 'product-card', version: '1.0.0' }, {});

// Set before connect(): the host may send the result as soon as the handshake ends.
app.ontoolresult = (result: ToolResult) => {
  const product = productOf(result);
  if (product) render(product);
  else refuse(textOf(result));
};

restock.addEventListener('click', async () => {
  if (!shown) return;
  restock.disabled = true;
  refusal.hidden = true;
  try {
    const result: ToolResult = await app.callServerTool({
      name: 'restock_product',
      arguments: { id: shown.id, quantity: RESTOCK_QUANTITY },
    });
    const product = productOf(result);
    if (product) render(product);
    else refuse(textOf(result));
  } catch (error) {
    // A JSON-RPC error (the host refused, the server is unreachable): nothing changed either.
    refuse(error instanceof Error ? error.message : String(error));
  } finally {
    restock.disabled = false;
  }
});

// The bundle is a classic script (no top-level await); a failed handshake leaves the card saying so.
app.connect().catch((error: unknown) => refuse(`Cannot reach the host: ${String(error)}`));
